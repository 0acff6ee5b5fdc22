/*
 * expr.c - fuzzing --check's expression parser (src/lib/check_parse.c)
 * on rows of a kind made here, with a field of each type, absent in some
 * rows. A refused expression must say why at a column within it; an
 * accepted one must evaluate on every row to one of three values,
 * explain a false one, give the same on the row's JSON
 * (occ_check_eval_json), and agree with itself negated ('!(E)' is the
 * three-valued negation) and doubled ('(E) || (E)', '(E) && (E)' are E).
 */
#include "fuzz.h"
#include <stddef.h>

#include "occcalc.h"

struct row { int id; };

static void get(const void *r, const struct occ_field *f, struct occ_val *v)
{
	static const char *const sets[] = { "warps", "registers" };
	int id = ((const struct row *)r)->id;

	memset(v, 0, sizeof *v);
	if ((id + (int)f->arg) % 4 == 3)
		return;                             /* absent: OCC_VAL_NULL */
	switch (f->type) {
	case OCC_FT_INT: v->type = OCC_VAL_UINT; v->u = (uint64_t)id * 64; break;
	case OCC_FT_DEC: v->type = OCC_VAL_DEC; v->s = id % 2 ? "37.50" : "-2"; break;
	case OCC_FT_STR: v->type = OCC_VAL_STR; v->s = id % 2 ? "sm_90" : "a b"; break;
	case OCC_FT_BOOL: v->type = OCC_VAL_BOOL; v->u = (uint64_t)(id % 2); break;
	case OCC_FT_SET: v->type = OCC_VAL_SET; v->strs[0] = sets[0];
		v->strs[1] = sets[1]; v->n = (size_t)(id % 3); break;
	default: v->type = OCC_VAL_LIST; v->list = v->nums; v->n = 0; break;
	}
}

#define F(n, t, i) { n, t, "", get, "", { NULL, 0, 0, 0, NULL, 0 }, 0, i }
static const struct occ_field fields[] = {
	F("regs", OCC_FT_INT, 0), F("occupancy_pct", OCC_FT_DEC, 1),
	F("arch", OCC_FT_STR, 2), F("optin", OCC_FT_BOOL, 3), F("limiter", OCC_FT_SET, 4),
	F("ties", OCC_FT_LIST, 5), F("blocks_per_sm", OCC_FT_INT, 6),
};
static const struct occ_row_kind kind = { "fuzz", fields,
				      sizeof fields / sizeof fields[0], NULL };

static enum occ_check_value value_of(const char *text, int i, int *ok)
{
	struct occ_check *e;
	struct occ_check_error err;
	struct row r = { i };
	enum occ_check_value v = OCC_CHECK_UNKNOWN;

	*ok = occ_check_parse(text, &kind, &e, &err) == OCC_OK;
	if (*ok)
		v = occ_check_eval(e, &r, NULL);
	occ_check_free(e);
	return v;
}

/* e on the JSON object of row r: what it is on r itself. */
static void same_on_json(const char *s, const struct occ_check *e,
			 const struct row *r, enum occ_check_value want)
{
	const struct occ_field *f[sizeof fields / sizeof fields[0]];
	struct occ_rows_diag d;
	enum occ_check_value v;
	char json[1024];
	size_t i;

	for (i = 0; i < kind.n; i++)
		f[i] = &fields[i];
	occ_row_json(f, kind.n, r, json, sizeof json);
	FUZZ_CHECK(occ_check_eval_json(e, json, strlen(json), &v, NULL, NULL,
				       NULL, &d) == OCC_OK && v == want,
		   "'%s' on %s: %d, want %d (%s)", s, json, v, want, d.what);
}

static void agrees(const char *fmt, const char *s, int i,
		   enum occ_check_value want)
{
	size_t n = strlen(fmt) + 2 * strlen(s) + 1;
	char *t = malloc(n);
	int ok;
	enum occ_check_value v;

	if (!t)
		abort();
	snprintf(t, n, fmt, s, s);
	v = value_of(t, i, &ok);
	FUZZ_CHECK(!ok || v == want, "'%s' on row %d: %d, want %d", t, i, v, want);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum occ_check_value not[] = { OCC_CHECK_TRUE,
		OCC_CHECK_FALSE, OCC_CHECK_UNKNOWN };
	char *s = fuzz_string(data, size), why[1024];
	struct occ_check *e;
	struct occ_check_error err;
	int i;

	if (occ_check_parse(s, &kind, &e, &err) != OCC_OK) {
		FUZZ_CHECK(err.msg[0] && err.column >= 1 &&
			   err.column <= strlen(s) + 1,
			   "'%s': refused at column %zu: '%s'", s, err.column,
			   err.msg);
	} else {
		for (i = 0; i < 8; i++) {
			struct row r = { i };
			enum occ_check_value v = occ_check_eval(e, &r, NULL);

			FUZZ_CHECK(v <= OCC_CHECK_UNKNOWN, "'%s': value %d", s,
				   v);
			if (v == OCC_CHECK_FALSE) {
				occ_check_explain(e, &r, why, sizeof why);
				FUZZ_CHECK(why[0], "'%s': false, unexplained", s);
			}
			same_on_json(s, e, &r, v);
			agrees("!(%s)%.0s", s, i, not[v]);
			agrees("(%s) || (%s)", s, i, v);
			agrees("(%s) && (%s)", s, i, v);
		}
	}
	occ_check_free(e);
	free(s);
	return 0;
}
