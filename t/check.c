/*
 * check.c - the library's --check expressions (occcalc/check.h): parsed
 * against a kind of row made here (a field of each type, absent in some
 * rows), refused with a column and a reason, evaluated three-valued,
 * their failures said with the fields' values as --check says them; and
 * on a row's JSON (occ_check_eval_json), the answer the row itself gives,
 * for every expression on every row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "tap.h"

struct row {
	uint64_t regs;
	const char *pct;        /* NULL: absent */
	const char *arch;
	int optin;
	unsigned n_limiter;
};

static void get(const void *p, const struct occ_field *f, struct occ_val *v)
{
	static const char *const names[] = { "warps", "registers" };
	const struct row *r = p;
	size_t i;

	memset(v, 0, sizeof v[0]);
	switch (f->arg) {
	case 0: v->type = OCC_VAL_UINT; v->u = r->regs; break;
	case 1: v->type = r->pct ? OCC_VAL_DEC : OCC_VAL_NULL; v->s = r->pct;
		break;
	case 2: v->type = OCC_VAL_STR; v->s = r->arch; break;
	case 3: v->type = OCC_VAL_BOOL; v->u = (uint64_t)r->optin; break;
	default:
		v->type = OCC_VAL_SET;
		for (i = 0; i < r->n_limiter; i++)
			v->strs[v->n++] = names[i];
	}
}

#define F(n, t, i) { n, t, "", get, "", { NULL, 0, 0, 0, NULL, 0 }, 0, i }
static const struct occ_field fields[] = {
	F("regs", OCC_FT_INT, 0), F("occupancy_pct", OCC_FT_DEC, 1),
	F("arch", OCC_FT_STR, 2), F("optin", OCC_FT_BOOL, 3),
	F("limiter", OCC_FT_SET, 4),
};
static const struct occ_row_kind kind = { "test", fields,
					  sizeof fields / sizeof fields[0],
					  NULL };

static const struct row rows[] = {
	{ 168, "37.50", "sm_90", 1, 2 },
	{ 40, "75.00", "sm_80", 0, 1 },
	{ 0, NULL, "", 0, 0 },
	{ 255, "-2", "sm_90", 1, 0 },
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static const char *const exprs[] = {
	"regs <= 128", "occupancy_pct >= 37.5", "occupancy_pct == 37.50",
	"arch == 'sm_90' && optin == true", "limiter == 'warps+registers'",
	"!(regs > 100) || occupancy_pct < 0", "occupancy_pct == none",
	"occupancy_pct != none && regs >= 1K", "limiter == ''",
	"(regs < 200 && occupancy_pct > 50) || arch != \"sm_90\"",
	"!(occupancy_pct > 10)", "regs == regs", "optin != false",
};
#define N_EXPRS (sizeof exprs / sizeof exprs[0])

static enum occ_check_value value(const char *text, const struct row *r)
{
	struct occ_check *c;
	struct occ_check_error err;
	enum occ_check_value v = OCC_CHECK_UNKNOWN;

	if (occ_check_parse(text, &kind, &c, &err) == OCC_OK)
		v = occ_check_eval(c, r, NULL);
	occ_check_free(c);
	return v;
}

static void test_values(void)
{
	const struct occ_field *absent = NULL;
	struct occ_check *c;
	struct occ_check_error err;

	tap_ok(value("regs <= 128", &rows[0]) == OCC_CHECK_FALSE &&
	       value("regs <= 128", &rows[1]) == OCC_CHECK_TRUE,
	       "a comparison is true or false");
	tap_ok(value("occupancy_pct == 37.5", &rows[0]) == OCC_CHECK_TRUE &&
	       value("occupancy_pct > -2.0", &rows[3]) == OCC_CHECK_FALSE,
	       "decimals compare exactly, as numbers");
	tap_ok(value("limiter == 'warps+registers'", &rows[0]) ==
	       OCC_CHECK_TRUE && value("limiter == ''", &rows[2]) ==
	       OCC_CHECK_TRUE, "a set is its names '+'-joined");
	tap_ok(occ_check_parse("regs < 1 && occupancy_pct > 50", &kind, &c,
			       &err) == OCC_OK &&
	       occ_check_eval(c, &rows[2], &absent) == OCC_CHECK_UNKNOWN &&
	       absent == &fields[1], "an absent field decides nothing, and "
	       "is named");
	occ_check_free(c);
	tap_ok(value("regs > 1 || occupancy_pct > 50", &rows[1]) ==
	       OCC_CHECK_TRUE && value("regs > 1000 && occupancy_pct > 50",
				       &rows[2]) == OCC_CHECK_FALSE &&
	       value("!(occupancy_pct > 50)", &rows[2]) == OCC_CHECK_UNKNOWN,
	       "&& || ! are three-valued");
	tap_ok(value("occupancy_pct == none", &rows[2]) == OCC_CHECK_TRUE &&
	       value("occupancy_pct != none", &rows[2]) == OCC_CHECK_FALSE,
	       "'== none' asks for the absence");
}

static void refused(const char *text, size_t column, const char *msg)
{
	struct occ_check *c = (struct occ_check *)&c;   /* NULLed */
	struct occ_check_error err;
	enum occ_status st = occ_check_parse(text, &kind, &c, &err);

	tap_ok(st == OCC_ERR_SYNTAX && !c && err.column == column &&
	       strstr(err.msg, msg), "'%s' refused at column %zu: %s", text,
	       err.column, err.msg);
}

static void test_refused(void)
{
	refused("regs <= 128 && reg > 3", 16, "'reg': no such field of test "
		"rows");
	refused("regs = 3", 6, "compare with '=='");
	refused("arch < 'sm_90'", 6, "text compares with == or != only");
	refused("regs == 'x'", 6, "a number compared with text");
	refused("(regs > 1", 10, "expected ')'");
	refused("regs > 0.0000000000000000001", 8, "more than 18 digits");
	refused("", 1, "ends where a field or value should be");
}

struct seen {
	char text[256];
	int n;
};

static int collect(void *ctx, const struct occ_check_failure *f)
{
	struct seen *s = ctx;
	size_t len = strlen(s->text), i;

	len += (size_t)snprintf(s->text + len, sizeof s->text - len,
				"[%zu:%.*s", f->column, (int)f->len, f->text);
	for (i = 0; i < f->n_seen; i++)
		len += (size_t)snprintf(s->text + len, sizeof s->text - len,
					" %s=%s", f->seen[i].field,
					f->seen[i].value ? f->seen[i].value
					: "-");
	snprintf(s->text + len, sizeof s->text - len, "]");
	s->n++;
	return 0;
}

static void test_failures(void)
{
	const char *text = "regs <= 200 && (arch == 'sm_80' || "
			   "!(occupancy_pct < 50))";
	struct occ_check *c;
	struct occ_check_error err;
	struct seen s = { "", 0 };
	char why[256];

	if (!tap_ok(occ_check_parse(text, &kind, &c, &err) == OCC_OK,
		    "'%s' parses", text))
		return;
	occ_check_failures(c, &rows[3], collect, &s);
	tap_ok(s.n == 3 && strcmp(s.text, "[1:regs <= 200 regs=255]"
				  "[17:arch == 'sm_80' arch=sm_90]"
				  "[36:!(occupancy_pct < 50) "
				  "occupancy_pct=-2]") == 0,
	       "the failing comparisons, with their fields' values: %s",
	       s.text);
	occ_check_explain(c, &rows[3], why, sizeof why);
	tap_ok(strcmp(why, "regs <= 200 (regs 255); arch == 'sm_80' (arch "
		      "sm_90); !(occupancy_pct < 50) (occupancy_pct -2)") == 0,
	       "explained as --check says it: %s", why);
	memset(&s, 0, sizeof s);
	occ_check_failures(c, &rows[0], collect, &s);
	tap_ok(s.n == 2 && strcmp(s.text, "[17:arch == 'sm_80' arch=sm_90]"
				  "[36:!(occupancy_pct < 50) "
				  "occupancy_pct=37.50]") == 0,
	       "each failing branch of an ||, not the true one: %s", s.text);
	memset(&s, 0, sizeof s);
	occ_check_failures(c, &rows[1], collect, &s);
	tap_ok(s.n == 0, "a row that passes has no failure");
	occ_check_free(c);
}

/* Each expression on each row's JSON object: the answer of the row. */
static void test_json(void)
{
	const struct occ_field *f[sizeof fields / sizeof fields[0]];
	const struct occ_field *absent, *absent_json;
	char json[1024], why[512];
	size_t i, j, agree = 0, k;

	for (k = 0; k < kind.n; k++)
		f[k] = &fields[k];
	for (i = 0; i < N_EXPRS; i++) {
		struct occ_check *c;
		struct occ_check_error err;

		if (occ_check_parse(exprs[i], &kind, &c, &err) != OCC_OK) {
			tap_diag("'%s': %s", exprs[i], err.msg);
			continue;
		}
		for (j = 0; j < N_ROWS; j++) {
			enum occ_check_value v, vj;
			struct occ_rows_diag d;
			struct seen s = { "", 0 };

			occ_row_json(f, kind.n, &rows[j], json, sizeof json);
			v = occ_check_eval(c, &rows[j], &absent);
			occ_check_explain(c, &rows[j], why, sizeof why);
			if (occ_check_eval_json(c, json, strlen(json), &vj,
						&absent_json, collect, &s,
						&d) != OCC_OK)
				tap_diag("%s: %s", json, d.what);
			else if (vj == v && absent == absent_json &&
				 (v != OCC_CHECK_FALSE || s.n > 0))
				agree++;
			else
				tap_diag("'%s' on %s: %d, the row's %d (%s)",
					 exprs[i], json, vj, v, why);
		}
		occ_check_free(c);
	}
	tap_ok(agree == N_EXPRS * N_ROWS, "on a row's JSON, each of %zu "
	       "expressions gives the row's answer (%zu of %zu)", N_EXPRS,
	       agree, N_EXPRS * N_ROWS);
}

static void test_json_refused(void)
{
	struct occ_check *c;
	struct occ_check_error err;
	struct occ_rows_diag d;
	enum occ_check_value v;
	const struct occ_field *absent;
	static const char two[] = "{\"regs\":1}\n{\"regs\":2}\n";
	static const char partial[] = "{\"regs\":100,\"arch\":null}";

	if (occ_check_parse("regs < 128 && arch == 'sm_90'", &kind, &c,
			    &err) != OCC_OK)
		return;
	tap_ok(occ_check_eval_json(c, "{\"regs\":", 8, &v, NULL, NULL, NULL,
				   &d) == OCC_ERR_SYNTAX && d.what[0],
	       "no JSON object: refused (%s)", d.what);
	tap_ok(occ_check_eval_json(c, two, sizeof two - 1, &v, NULL, NULL,
				   NULL, &d) == OCC_ERR_SYNTAX,
	       "two rows: refused (%s)", d.what);
	tap_ok(occ_check_eval_json(c, partial, sizeof partial - 1, &v,
				   &absent, NULL, NULL, &d) == OCC_OK &&
	       v == OCC_CHECK_UNKNOWN && absent == &fields[2],
	       "null or missing: absent, named");
	occ_check_free(c);
}

static void test_decimal(void)
{
	struct occ_decimal a, b;
	size_t used;

	tap_ok(occ_decimal_parse("37.50", 5, &a, &used) == 0 && used == 5 &&
	       occ_decimal_parse("37.5x", 5, &b, &used) == 0 && used == 4 &&
	       occ_decimal_cmp(&a, &b) == 0, "37.50 is 37.5");
	tap_ok(occ_decimal_parse("-0", 2, &a, &used) == 0 &&
	       occ_decimal_parse("0.0", 3, &b, &used) == 0 &&
	       occ_decimal_cmp(&a, &b) == 0, "-0 is 0");
	tap_ok(occ_decimal_parse("18446744073709551616", 20, &a, &used) == -1
	       && occ_decimal_parse("1.0000000000000000001", 21, &a, &used) ==
	       OCC_DECIMAL_TOO_FINE, "beyond 64 bits, or too fine: refused");
}

int main(void)
{
	test_values();
	test_refused();
	test_failures();
	test_json();
	test_json_refused();
	test_decimal();
	tap_plan(tap_n);
	return tap_done();
}
