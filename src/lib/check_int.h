/* check_int.h - what the parser (check_parse.c) makes of an expression
 * and the evaluators (check_eval.c, check_json.c) read: a tree of nodes
 * in an array, each child before its parent. Internal: occcalc/check.h
 * keeps struct occ_check opaque. */
#ifndef OCC_CHECK_INT_H
#define OCC_CHECK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"
#include "util.h"

enum check_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

enum check_opnd { OPND_FIELD, OPND_NUM, OPND_STR, OPND_BOOL, OPND_NONE };

struct check_operand {
	enum check_opnd kind;
	const struct occ_field *f;  /* OPND_FIELD */
	struct occ_decimal num;     /* OPND_NUM */
	char *str;                  /* OPND_STR: malloc'ed */
	int b;                      /* OPND_BOOL */
};

enum check_op { EX_CMP, EX_AND, EX_OR, EX_NOT };

struct check_node {
	enum check_op op;
	int a, b;                   /* children (b: not for EX_NOT) */
	enum check_cmp cmp;
	struct check_operand l, r;
	size_t start, end;          /* its text, for messages */
};

struct occ_check {
	const char *text;           /* the caller's, kept while used */
	struct check_node *n;
	size_t count, cap;
	int root;
};

/* Where a row's values come from: a field's getter on a struct (get
 * NULL), or another reader of the same fields (a JSON object's). */
struct check_row {
	const void *row;
	occ_field_get get;
};

OCC_INTERNAL enum occ_check_value check_eval_row(const struct occ_check *c,
		const struct check_row *row, const struct occ_field **absent);
OCC_INTERNAL enum occ_status check_failures_row(const struct occ_check *c,
		const struct check_row *row, occ_check_failure_fn fn,
		void *ctx);

#endif
