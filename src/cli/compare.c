/*
 * compare.c - --kernels NEW --compare BASELINE: two builds' kernel rows
 * side by side. Both are computed with the same options (BASELINE a
 * binary, a directory, a report) or the baseline is read back from
 * occcalc's own JSON or JSON Lines (the library's occ_rows_read_file,
 * row by row, keeping the fields compared); rows are matched by
 * kernel (its symbol) and image (arch), and by block with --block. Each
 * changed field is given old, new and the delta; kernels added and
 * removed are listed; unchanged ones counted (--all lists them). --check
 * judges every row of the new build (not the removed), with the old_ and
 * d_ fields beside the new. The sides are read by compare_read.c, matched
 * and compared exactly by the library (occcalc/row_compare.h); here the
 * matches are judged and written.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "compare_int.h"

/* The command line's kind of compare rows is the library's
 * (occ_compare_kind), named where the modes list their kinds. */
const struct occ_row_kind kind_compare = { "compare", NULL, 0,
					   &occ_compare_kind };

void compare_free(struct compare *c)
{
	if (!c)
		return;
	occ_row_set_free(c->now);
	occ_row_set_free(c->base);
	kernels_free(&c->base_kernels);
	free(c);
}

/* ---- Writing ---- */

/* The text lines of one match: its fields that changed, old -> new. */
static void text_row(const struct occ_compare_row *r)
{
	const char *kernel = occ_compare_row_value(r, !r->cur, "kernel"),
		   *name = kernel ? kernel : occ_compare_row_value(r, !r->cur,
								   "mangled");
	const char *f;
	char d[64];
	size_t i;
	int numeric;

	printf("%-9s %-12s %s\n", r->change,
	       occ_compare_row_value(r, !r->cur, "arch"), name);
	for (i = 0; r->old && r->cur && i < OCC_COMPARE_N; i++) {
		const char *a, *b;

		if (!occ_compare_row_differs(r, i))
			continue;
		f = occ_compare_field(i, &numeric);
		a = occ_compare_row_value(r, 1, f);
		b = occ_compare_row_value(r, 0, f);
		d[0] = '\0';
		if (a && b && numeric)
			occ_decimal_delta(a, b, 1, d + 2, sizeof d - 2),
				d[0] = ' ', d[1] = '(', strcat(d, ")");
		printf("          %-15s %s -> %s%s\n", f, a ? a : "-",
		       b ? b : "-", d);
	}
}

struct writer {
	struct session *s;
	struct out *out;
	struct check_set *chk;
};

/* A match judged (the new build's rows) and, if listed, written. */
static int emit(void *ctx, const struct occ_compare_row *r)
{
	struct writer *w = ctx;
	const struct options *o = w->s->o;

	if (w->chk && r->cur)
		check_judge(w->chk, r);
	if (strcmp(r->change, "unchanged") == 0 && !o->all)
		return 0;
	if (o->format == OUT_TEXT && !o->fields)
		text_row(r);
	else
		out_row(w->out, r);
	return 0;
}

/* Both sides keyed, checked and sorted before anything is written. */
static void prepare(struct session *s, struct compare *c, const char *now,
		    const char *base)
{
	struct occ_compare_diag d;
	enum occ_status st = occ_row_sets_prepare(c->base, c->now,
		s->o->have_block ? OCC_COMPARE_BY_BLOCK : 0, &d);
	const char *what = d.old ? base : now;

	if (st == OCC_ERR_MISSING_KEY)
		die("%s: row %zu has no %s: not occcalc's --kernels rows", what,
		    d.row + 1, d.field);
	if (st == OCC_ERR_BAD_VALUE)
		die("%s: row %zu: %s: '%s' is not a number", what, d.row + 1,
		    d.field, d.value);
	if (st != OCC_OK)
		die("out of memory");
}

int mode_compare(struct session *s)
{
	const struct options *o = s->o;
	struct compare *c;
	struct fieldsel sel;
	struct out out;
	struct writer w = { s, &out, NULL };
	struct occ_compare_diag d;
	struct occ_compare_stats *n;
	int text = o->format == OUT_TEXT && !o->fields;
	/* Standard input is <stdin> here as in every message. */
	const char *now = kernels_input_name(o->ptxas),
		   *base = kernels_input_name(o->compare);

	if (o->api)
		die_usage("--compare reads two builds; --api does not apply");
	if (s->n_targets)
		die_usage("--compare sets two builds side by side on one target: "
			  "give one --gpu or --arch");
	if (!(c = calloc(1, sizeof *c)) || occ_row_set_new(&c->now) != OCC_OK
	    || occ_row_set_new(&c->base) != OCC_OK)
		die("out of memory");
	s->compare = c;
	n = &c->stats;
	fieldsel_make(&sel, &kind_compare, o->fields, OCC_COMPARE_FIELDS);
	cmp_read_side(s, c, o->ptxas, o->more_kernels, o->n_more_kernels,
		  &s->kernels, c->now);
	cmp_read_side(s, c, o->compare, NULL, 0, &c->base_kernels, c->base);
	prepare(s, c, now, base);
	out_open(&out, stdout, o->format, &sel);
	check_attach(s, &out, &kind_compare);
	w.chk = out.check;
	out.check = NULL;     /* judged in emit(): listed or not */
	if (text && o->n_more_kernels)
		printf("%s and %d more against %s\n\n", now,
		       o->n_more_kernels, base);
	else if (text)
		printf("%s against %s\n\n", now, base);
	if (text)
		printf("%s\n\n", o->have_block ? "Compared at the block --block "
		       "gives." : "Compared at each kernel's largest block: "
		       "its __launch_bounds__, else the most threads its "
		       "registers allow (--block N compares at N).");
	if (occ_row_sets_compare(c->base, c->now, o->have_block ?
				 OCC_COMPARE_BY_BLOCK : 0, emit, &w, n,
				 &d) != OCC_OK)
		die("out of memory");   /* prepared above: nothing else */
	if (text)
		printf("%s%llu changed, %llu added, %llu removed, %llu "
		       "unchanged%s\n", n->changed + n->added + n->removed ?
		       "\n" : "", (unsigned long long)n->changed,
		       (unsigned long long)n->added,
		       (unsigned long long)n->removed,
		       (unsigned long long)n->unchanged,
		       o->all || !n->unchanged ? "" : " (--all lists them)");
	else
		out_close(&out);
	return 0;
}
