/*
 * row-compare.c - the library's --compare (occcalc/row_compare.h): two
 * sets of kernel rows matched by kernel, image and block, each match's
 * change and the fields that differ, exact deltas, the counts, and the
 * rows a set refuses to compare with the row and field at fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "tap.h"

static const char old_rows[] =
	"{\"kernel\":\"a\",\"arch\":\"sm_90\",\"block\":256,\"regs\":32,"
	"\"occupancy_pct\":100.00,\"limiter\":[\"warps\",\"registers\"]}\n"
	"{\"kernel\":\"b\",\"arch\":\"sm_90\",\"block\":128,\"regs\":10}\n"
	"{\"mangled\":\"_Z1cv\",\"kernel\":\"c\",\"arch\":\"sm_80\","
	"\"block\":64,\"regs\":8}\n";
static const char new_rows[] =
	"[{\"kernel\":\"a\",\"arch\":\"sm_90\",\"block\":256,\"regs\":72,"
	"\"occupancy_pct\":37.5,\"limiter\":[\"registers\"]},"
	"{\"mangled\":\"_Z1cv\",\"arch\":\"sm_80\",\"block\":64,\"regs\":8.0},"
	"{\"kernel\":\"d\",\"arch\":\"sm_90\",\"block\":32,\"regs\":1}]";

static void delta(const char *old, const char *cur, int plus,
		  const char *want)
{
	char buf[64];

	occ_decimal_delta(old, cur, plus, buf, sizeof buf);
	tap_ok(strcmp(buf, want) == 0, "%s -> %s: %s (want %s)", old, cur, buf,
	       want);
}

struct seen {
	char text[1024];
};

static int take(void *ctx, const struct occ_compare_row *r)
{
	struct seen *s = ctx;
	const char *k = occ_compare_row_value(r, !r->cur, "kernel");
	size_t len = strlen(s->text);

	snprintf(s->text + len, sizeof s->text - len, "%s%s %s [%s]",
		 len ? "; " : "", r->change, k ? k : "-", r->changed);
	return 0;
}

static struct occ_row_set *set_of(const char *text)
{
	struct occ_row_set *s;
	struct occ_rows_diag d;

	if (occ_row_set_new(&s) != OCC_OK)
		abort();
	if (occ_row_set_add_json(s, text, strlen(text), &d) != OCC_OK)
		tap_diag("%s: %s", text, d.what);
	return s;
}

static void test_matches(void)
{
	struct occ_row_set *old = set_of(old_rows), *cur = set_of(new_rows);
	struct occ_compare_stats n;
	struct occ_compare_diag d;
	struct seen s = { "" };

	tap_ok(occ_row_set_count(old) == 3 && occ_row_set_count(cur) == 3,
	       "rows of JSON Lines and of a JSON array, kept");
	tap_ok(occ_row_sets_compare(old, cur, OCC_COMPARE_BY_BLOCK, take, &s,
				    &n, &d) == OCC_OK &&
	       strcmp(s.text, "unchanged - []; changed a "
		      "[regs+occupancy_pct+limiter]; removed b []; added d []")
	       == 0,
	       "matched by symbol (else name), image and block, in key order: "
	       "%s", s.text);
	tap_ok(n.changed == 1 && n.unchanged == 1 && n.removed == 1 &&
	       n.added == 1, "counted: 1 changed, 1 added, 1 removed, "
	       "1 unchanged");
	occ_row_set_free(old);
	occ_row_set_free(cur);
}

static int json_row(void *ctx, const char *json, size_t len)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof s->text - used, "%.*s\n", (int)len,
		 json);
	return 0;
}

static void test_json(void)
{
	struct occ_row_set *old = set_of(old_rows), *cur = set_of(new_rows);
	struct occ_compare_stats n;
	struct occ_compare_diag d;
	struct seen s = { "" };

	tap_ok(occ_row_sets_compare_json(old, cur, OCC_COMPARE_BY_BLOCK,
					 "change,kernel,old_regs,regs,d_regs,"
					 "d_occupancy_pct", json_row, &s, &n,
					 &d) == OCC_OK &&
	       strcmp(s.text, "{\"change\":\"changed\",\"kernel\":\"a\","
		      "\"old_regs\":32,\"regs\":72,\"d_regs\":40,"
		      "\"d_occupancy_pct\":-62.50}\n"
		      "{\"change\":\"removed\",\"kernel\":\"b\",\"old_regs\":10,"
		      "\"regs\":null,\"d_regs\":null,\"d_occupancy_pct\":null}\n"
		      "{\"change\":\"added\",\"kernel\":\"d\",\"old_regs\":null,"
		      "\"regs\":1,\"d_regs\":null,\"d_occupancy_pct\":null}\n")
	       == 0, "as --compare -f json writes them, unchanged left out:\n%s",
	       s.text);
	tap_ok(occ_row_sets_compare_json(old, cur, 0, "change,regz", json_row,
					 &s, &n, &d) == OCC_ERR_UNKNOWN_KEY &&
	       strcmp(d.field, "regz") == 0, "a field compare rows lack: "
	       "refused, named");
	occ_row_set_free(old);
	occ_row_set_free(cur);
}

static void refused(const char *rows, enum occ_status want, int old,
		    size_t row, const char *field)
{
	struct occ_row_set *a = set_of(rows), *b = set_of("{\"kernel\":\"x\","
							  "\"arch\":\"sm_90\"}");
	struct occ_compare_diag d;
	enum occ_status st = old ? occ_row_sets_prepare(a, b, 0, &d)
			     : occ_row_sets_prepare(b, a, 0, &d);

	tap_ok(st == want && d.old == old && d.row == row &&
	       strcmp(d.field, field) == 0, "%s: refused: %s row %zu, %s",
	       rows, d.old ? "old" : "new", d.row + 1, d.field);
	occ_row_set_free(a);
	occ_row_set_free(b);
}

int main(void)
{
	delta("32", "72", 1, "+40");
	delta("100.00", "37.5", 0, "-62.50");
	delta("0.1", "0.3", 0, "0.2");
	delta("7", "7.000", 1, "0.000");
	delta("9223372036854775807", "0", 0, "-9223372036854775807");
	test_matches();
	test_json();
	refused("{\"kernel\":\"a\",\"arch\":\"sm_90\"}\n{\"arch\":\"sm_90\"}",
		OCC_ERR_MISSING_KEY, 1, 1, "kernel or mangled");
	refused("{\"kernel\":\"a\"}", OCC_ERR_MISSING_KEY, 0, 0, "arch");
	refused("{\"kernel\":\"a\",\"arch\":\"sm_90\",\"regs\":\"many\"}",
		OCC_ERR_BAD_VALUE, 0, 0, "regs");
	tap_plan(tap_n);
	return tap_done();
}
