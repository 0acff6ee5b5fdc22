/* expr.h - --check's expressions over a row's fields (expr.c): comparisons
 * of fields with numbers, quoted text, true/false, none or other fields,
 * joined with &&, || and !, in parentheses. Parsing reports the column of
 * what it cannot read; it never prints (the CLI's check.c does). */
#ifndef OCC_EXPR_H
#define OCC_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A decimal number, exactly: sign, integer part, and the fraction in
 * units of 1e-18 (a field's decimals have two). */
struct expr_num {
	int neg;
	uint64_t ip, fp;
};

enum expr_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

enum expr_kind { OPND_FIELD, OPND_NUM, OPND_STR, OPND_BOOL, OPND_NONE };

struct expr_operand {
	enum expr_kind kind;
	const struct occ_field *f;      /* OPND_FIELD */
	struct expr_num num;        /* OPND_NUM */
	char *str;                  /* OPND_STR: malloc'ed */
	int b;                      /* OPND_BOOL */
};

enum expr_op { EX_CMP, EX_AND, EX_OR, EX_NOT };

struct expr_node {
	enum expr_op op;
	int a, b;                   /* children (b: not for EX_NOT) */
	enum expr_cmp cmp;
	struct expr_operand l, r;
	size_t start, end;          /* its text, for messages */
};

struct expr {
	const char *text;           /* the caller's, kept while e is used */
	struct expr_node *n;
	size_t count, cap;
	int root;
};

struct expr_error {
	size_t column;              /* 1-based, in the expression's text */
	char msg[200];
};

/* The three values of a comparison: a field absent from a row decides
 * nothing (EXPR_UNKNOWN), and && || ! treat that as SQL does. */
enum expr_value { EXPR_FALSE, EXPR_TRUE, EXPR_UNKNOWN };

#define EXPR_MAX_DEPTH 64

/* text against the fields of kind: 0, or -1 and err filled. */
int expr_parse(const char *text, const struct occ_row_kind *kind,
	       struct expr *e, struct expr_error *err);
void expr_free(struct expr *e);
/* The expression on row (a row of the kind it was parsed against); with
 * absent non-NULL, the first field found absent where a comparison could
 * not be decided. */
enum expr_value expr_eval(const struct expr *e, const void *row,
			  const struct occ_field **absent);
/* Why it is false on row: the comparisons that fail, each with its
 * fields' values ("regs <= 128 (regs 168)"), joined by "; ". */
void expr_explain(const struct expr *e, const void *row, char *buf,
		  size_t n);
/* s (a value as written: "75.00", "-2", "168") as a number: 0, or -1. */
/* A decimal's digits after the point that are kept: the fraction is
 * an integer of 10^-18 units. */
#define EXPR_NUM_DIGITS 18
/* expr_num_parse: a digit other than 0 past the kept ones. */
#define EXPR_NUM_TOO_FINE (-2)
/* 0, -1 (not a number, or beyond 64 bits), or EXPR_NUM_TOO_FINE. */
int expr_num_parse(const char *s, size_t len, struct expr_num *out,
		   size_t *used);
int expr_num_cmp(const struct expr_num *a, const struct expr_num *b);

#ifdef __cplusplus
}
#endif

#endif
