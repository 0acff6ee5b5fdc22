/*
 * occcalc/check.h - --check's expressions, for any program: budgets a row
 * must keep, written over the fields of one kind of row. Comparisons of
 * fields with numbers, quoted text, true/false, none or other fields,
 * joined with &&, || and !, in parentheses:
 *
 *   occupancy_pct >= 50 && limiter != 'registers' && regs <= 128
 *
 * Numbers compare exactly as decimals, as the writers print them (37.50
 * equals 37.5); sets as their names '+'-joined; text, sets and booleans
 * with == and != only. A field a row does not have (null in JSON) decides
 * nothing: the comparison is unknown, and && || ! treat that as SQL does;
 * 'FIELD == none' asks for the absence itself. What the command line's
 * --check answers is what these answer: it calls them.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_CHECK_H
#define OCCCALC_CHECK_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/check.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* An expression parsed against a kind of row (opaque). */
struct occ_check;

/* Parentheses and '!' nest at most this deep. */
#define OCC_CHECK_MAX_DEPTH 64

/* Why an expression was refused: where, and what was expected there. */
struct occ_check_error {
	size_t column;          /* 1-based, in the expression's bytes */
	char msg[200];
};

enum occ_check_value { OCC_CHECK_FALSE, OCC_CHECK_TRUE, OCC_CHECK_UNKNOWN };

/* text against kind's fields into *out (to free with occ_check_free): OCC_OK;
 * OCC_ERR_SYNTAX for what is no expression over them (a field kind does
 * not have, types that do not compare), OCC_ERR_NOMEM; err says where and
 * why. text must stay valid while *out is used. */
enum occ_status occ_check_parse(const char *text,
				const struct occ_row_kind *kind,
				struct occ_check **out,
				struct occ_check_error *err);
void occ_check_free(struct occ_check *c);

/* What a row must have computed for c to judge it: the union of the
 * needs (occ_field.needs) of the fields c names. A caller that computes
 * only the fields it prints adds these, so that a check of a field not
 * printed is judged, not left undecided. */
unsigned occ_check_needs(const struct occ_check *c);

/* c on row (a row of c's kind, read through its fields' getters). With
 * absent non-NULL: where the value is unknown, the first field found
 * absent, else NULL. */
enum occ_check_value occ_check_eval(const struct occ_check *c,
				    const void *row,
				    const struct occ_field **absent);

/* A field's value as a failing comparison saw it. */
struct occ_check_seen {
	const char *field;
	const char *value;      /* as written (sets '+'-joined); NULL: absent */
};

/* One reason a row fails: a comparison (or a '!') that is false where
 * its being false makes the whole false, as written in the expression,
 * and the values of the fields it compares, in the order of the text. */
struct occ_check_failure {
	const char *text;
	size_t len;
	size_t column;          /* 1-based */
	const struct occ_check_seen *seen;
	size_t n_seen;
};

/* Called for each failure, left to right; nonzero stops. */
typedef int (*occ_check_failure_fn)(void *ctx,
				    const struct occ_check_failure *f);

/* Why c is false on row: fn for each failing comparison. OCC_OK, or
 * OCC_ERR_NOMEM. Nothing is called where c is not false on row. */
enum occ_status occ_check_failures(const struct occ_check *c,
				   const void *row, occ_check_failure_fn fn,
				   void *ctx);
/* The same as one line into buf (n bytes), as --check says it: each
 * comparison and its fields' values, "regs <= 128 (regs 168)", joined by
 * "; ", cut where buf is full. */
void occ_check_explain(const struct occ_check *c, const void *row, char *buf,
		       size_t n);

/* c on a row as occcalc writes it in JSON (len bytes of one object, as
 * --format json or jsonl gives a row, or a program holding such rows
 * writes it back; numbers without exponents): a field is the member of
 * its name, absent where the object lacks it or holds null; numbers
 * compare exactly as their text. *value as occ_check_eval's, *absent
 * (if not NULL) the field it found absent, and with fn non-NULL, the
 * failures of a false value as occ_check_failures gives them. OCC_OK;
 * OCC_ERR_SYNTAX where the text is not one such object (diag says where),
 * OCC_ERR_RANGE past the reader's limits, OCC_ERR_NOMEM. */
enum occ_status occ_check_eval_json(const struct occ_check *c,
				    const char *json, size_t len,
				    enum occ_check_value *value,
				    const struct occ_field **absent,
				    occ_check_failure_fn fn, void *ctx,
				    struct occ_rows_diag *diag);

/* ---- Exact decimals ---- */

/* A decimal number, exactly: sign, integer part, and the fraction in
 * units of 10^-18 (a field's decimals have two to four). */
struct occ_decimal {
	int neg;
	uint64_t ip, fp;
};

/* The digits after the point a decimal keeps. */
#define OCC_DECIMAL_DIGITS 18
/* occ_decimal_parse: a digit other than 0 past the kept ones. */
#define OCC_DECIMAL_TOO_FINE (-2)

/* The number at s (len bytes at most: "75.00", "-2", "168", no exponent)
 * into *out, *used its bytes: 0; -1 where there is none (or it is beyond
 * 64 bits); OCC_DECIMAL_TOO_FINE. */
int occ_decimal_parse(const char *s, size_t len, struct occ_decimal *out,
		      size_t *used);
/* -1, 0 or 1 as a is below, equal to or above b (-0 equals 0). */
int occ_decimal_cmp(const struct occ_decimal *a, const struct occ_decimal *b);

#ifdef __cplusplus
}
#endif

#endif
