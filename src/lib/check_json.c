/*
 * check_json.c - --check's expressions on a row as occcalc writes it in
 * JSON (occ_check_eval_json): what a program holds of occcalc's rows (a
 * Python dict from occupancy() written back) judged by the same rules as
 * the command line's rows. The object is read by the library's reader of
 * occcalc's rows (rows.c), which gives each member as the text the
 * writers printed: the evaluator then compares numbers as those decimals,
 * sets as their names '+'-joined, exactly as on the row itself.
 */
#include <stdio.h>
#include <string.h>

#include "check_int.h"

struct json_check {
	const struct occ_check *c;
	enum occ_check_value value;
	const struct occ_field *absent;
	occ_check_failure_fn fn;
	void *ctx;
	enum occ_status st;
	int rows;
};

/* f's value in a JSON row: a number as its text, anything else as text
 * (a boolean's true or false, a set's names '+'-joined, which is how the
 * evaluator sees a row's too); absent where missing or null. */
static void json_member(const void *row, const struct occ_field *f,
			struct occ_val *v)
{
	const struct occ_rows_row *r = row;
	size_t i;

	v->type = OCC_VAL_NULL;
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->f[i].name, f->name) != 0)
			continue;
		if (r->f[i].text) {
			v->type = f->type == OCC_FT_INT || f->type == OCC_FT_DEC
				  ? OCC_VAL_DEC : OCC_VAL_STR;
			v->s = r->f[i].text;
		}
		return;
	}
}

/* The one row: judged while the reader holds it. A second is refused. */
static int judge_json(const struct occ_rows_row *row, void *ctx)
{
	struct json_check *j = ctx;
	struct check_row r = { row, json_member };

	if (j->rows++)
		return 1;
	j->value = check_eval_row(j->c, &r, &j->absent);
	if (j->value == OCC_CHECK_FALSE && j->fn)
		j->st = check_failures_row(j->c, &r, j->fn, j->ctx);
	return 0;
}

enum occ_status occ_check_eval_json(const struct occ_check *c,
				    const char *json, size_t len,
				    enum occ_check_value *value,
				    const struct occ_field **absent,
				    occ_check_failure_fn fn, void *ctx,
				    struct occ_rows_diag *diag)
{
	struct json_check j = { c, OCC_CHECK_UNKNOWN, NULL, fn, ctx, OCC_OK,
				0 };
	int fn_status = 0;
	enum occ_status st;

	memset(diag, 0, sizeof *diag);
	*value = OCC_CHECK_UNKNOWN;
	if (absent)
		*absent = NULL;
	st = occ_rows_read(json, len, judge_json, &j, &fn_status, diag);
	if (st == OCC_OK && j.rows != 1) {
		snprintf(diag->what, sizeof diag->what, "%s", j.rows
			 ? "more than one row: one object is judged at a time"
			 : "no row: expected an object, '{'");
		return OCC_ERR_SYNTAX;
	}
	if (st != OCC_OK)
		return st;
	if (j.st != OCC_OK)
		return j.st;
	*value = j.value;
	if (absent)
		*absent = j.absent;
	return OCC_OK;
}
