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
 * d_ fields beside the new. The sides are read by compare_read.c; here
 * they are matched, compared exactly and written.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "compare_int.h"

const char *const cmp_fields[] = {
	"block", "regs", "spill_stores", "spill_loads", "stack", "static_smem",
	"smem", "blocks_per_sm", "warps_per_sm", "occupancy_pct", "limiter",
};
_Static_assert(sizeof cmp_fields / sizeof cmp_fields[0] == N_CMP,
	       "N_CMP counts cmp_fields");

struct cmp_row {
	const struct base_row *old, *cur;
	const char *change;
	char changed[256];
};

void compare_free(struct compare *c)
{
	if (!c)
		return;
	baseline_free(&c->now);
	baseline_free(&c->base);
	kernels_free(&c->base_kernels);
	free(c);
}

/* ---- Deltas, exactly ---- */

static int decimals(const char *t)
{
	const char *dot = strchr(t, '.');

	return dot ? (int)strlen(dot + 1) : 0;
}

/* t as an integer in units of 10^-d. */
static __int128 scaled(const char *t, int d)
{
	struct occ_decimal x;
	size_t used;
	__int128 v;
	uint64_t frac = x.fp = 0;
	int i;

	occ_decimal_parse(t, strlen(t), &x, &used);
	frac = x.fp;
	for (i = 0; i < 18 - d; i++)
		frac /= 10;
	v = (__int128)x.ip;
	for (i = 0; i < d; i++)
		v *= 10;
	v += frac;
	return x.neg ? -v : v;
}

/* new - old into buf, with the larger number of decimals; plus: a '+'
 * before a positive delta (text). */
static void delta_text(const char *old, const char *cur, int plus,
		       char *buf, size_t n)
{
	int d = decimals(old) > decimals(cur) ? decimals(old) : decimals(cur);
	__int128 v = scaled(cur, d) - scaled(old, d), a = v < 0 ? -v : v, p = 1;
	char digits[64];
	int i, len = 0;

	for (i = 0; i < d; i++)
		p *= 10;
	for (__int128 ip = a / p; ip || !len; ip /= 10)
		digits[len++] = (char)('0' + (int)(ip % 10));
	i = snprintf(buf, n, "%s", v < 0 ? "-" : v > 0 && plus ? "+" : "");
	while (len && i + 1 < (int)n)
		buf[i++] = digits[--len];
	if (d && i + 1 < (int)n)
		buf[i++] = '.';
	for (int k = d - 1; k >= 0 && i + 1 < (int)n; k--) {
		__int128 q = a % p;

		for (int j = 0; j < k; j++)
			q /= 10;
		buf[i++] = (char)('0' + (int)(q % 10));
	}
	buf[i] = '\0';
}

static int numeric_field(size_t i)
{
	return strcmp(cmp_fields[i], TEXT_FIELD) != 0;
}

static int differs(size_t i, const char *a, const char *b)
{
	struct occ_decimal x, y;
	size_t u;

	if (!a || !b)
		return !a != !b;
	if (!numeric_field(i))
		return strcmp(a, b) != 0;
	occ_decimal_parse(a, strlen(a), &x, &u);
	occ_decimal_parse(b, strlen(b), &y, &u);
	return occ_decimal_cmp(&x, &y) != 0;
}

/* ---- The compare rows' fields ---- */

static void get_text(const struct base_row *r, const char *name,
		     enum occ_field_type t, struct occ_val *v)
{
	const char *s = r ? cmp_get(r, name) : NULL;

	v->type = !s ? OCC_VAL_NULL : t == OCC_FT_DEC ? OCC_VAL_DEC : OCC_VAL_STR;
	v->s = s;
}

static void get_new(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct cmp_row *c = row;

	get_text(c->cur, cmp_fields[f->arg], f->type, v);
}

static void get_old(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct cmp_row *c = row;

	get_text(c->old, cmp_fields[f->arg], f->type, v);
}

static void get_delta(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct cmp_row *c = row;
	const char *a = c->old ? cmp_get(c->old, cmp_fields[f->arg]) : NULL,
		   *b = c->cur ? cmp_get(c->cur, cmp_fields[f->arg]) : NULL;

	v->type = OCC_VAL_NULL;
	if (!a || !b)
		return;
	delta_text(a, b, 0, v->buf, sizeof v->buf);
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}

static void get_name(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct cmp_row *c = row;
	static const char *const names[] = { "kernel", "mangled", "arch" };

	get_text(c->cur ? c->cur : c->old, names[f->arg], OCC_FT_STR, v);
}

static void get_change(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct cmp_row *c = row;

	(void)f;
	v->type = OCC_VAL_STR;
	v->s = c->change;
}

static void get_changed(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct cmp_row *c = row;

	(void)f;
	v->type = OCC_VAL_STR;
	v->s = c->changed;
}

#define COL { NULL, 0, 2, 0, NULL, 0 }
#define NAME(n, i, d) { n, OCC_FT_STR, d, get_name, "", COL, 0, i }
#define NUM3(i, n, d) \
	{ n, OCC_FT_DEC, "the new build's " d, get_new, "", COL, 0, i }, \
	{ "old_" n, OCC_FT_DEC, "the baseline's " d, get_old, "", COL, 0, i }, \
	{ "d_" n, OCC_FT_DEC, "the new " n " less the baseline's (absent: a " \
	  "kernel only one has)", get_delta, "", COL, 0, i }

static const struct occ_field compare_fields[] = {
	{ "change", OCC_FT_STR, "changed, added, removed or unchanged",
	  get_change, "", COL, 0, 0 },
	NAME("kernel", 0, "the kernel's name, demangled"),
	NAME("mangled", 1, "the kernel's symbol"),
	NAME("arch", 2, "the image's architecture, as compiled"),
	{ "changed", OCC_FT_STR, "the fields that differ, '+'-joined",
	  get_changed, "", COL, 0, 0 },
	NUM3(0, "block", "threads per block"),
	NUM3(1, "regs", "registers per thread"),
	NUM3(2, "spill_stores", "bytes spilled"),
	NUM3(3, "spill_loads", "bytes loaded back"),
	NUM3(4, "stack", "stack frame per thread, bytes"),
	NUM3(5, "static_smem", "static shared memory per block, bytes"),
	NUM3(6, "smem", "dynamic shared memory per block, bytes"),
	NUM3(7, "blocks_per_sm", "active blocks per SM"),
	NUM3(8, "warps_per_sm", "active warps per SM"),
	NUM3(9, "occupancy_pct", "occupancy, percent"),
	{ "limiter", OCC_FT_STR, "the new build's limiter, '+'-joined", get_new,
	  "", COL, 0, 10 },
	{ "old_limiter", OCC_FT_STR, "the baseline's limiter", get_old, "", COL,
	  0, 10 },
};

const struct occ_row_kind kind_compare = {
	"compare", compare_fields, sizeof compare_fields /
	sizeof compare_fields[0], NULL
};

#define DEFAULT_FIELDS "change,kernel,mangled,arch,changed,old_block,block," \
	"d_block,old_regs,regs,d_regs,old_spill_stores,spill_stores," \
	"d_spill_stores,old_spill_loads,spill_loads,d_spill_loads,old_stack," \
	"stack,d_stack,old_static_smem,static_smem,d_static_smem,old_smem," \
	"smem,d_smem,old_blocks_per_sm,blocks_per_sm,d_blocks_per_sm," \
	"old_warps_per_sm,warps_per_sm,d_warps_per_sm,old_occupancy_pct," \
	"occupancy_pct,d_occupancy_pct,old_limiter,limiter"

/* ---- Matching and writing ---- */

static void row_changes(struct cmp_row *r)
{
	size_t i, len = 0;

	r->changed[0] = '\0';
	for (i = 0; i < N_CMP; i++)
		if (differs(i, cmp_get(r->old, cmp_fields[i]),
			    cmp_get(r->cur, cmp_fields[i])))
			len += (size_t)snprintf(r->changed + len,
						sizeof r->changed - len, "%s%s",
						len ? "+" : "", cmp_fields[i]);
	r->change = len ? "changed" : "unchanged";
}

/* The text lines of one row: its fields that changed, old -> new. */
static void text_row(const struct cmp_row *r)
{
	const struct base_row *x = r->cur ? r->cur : r->old;
	const char *name = cmp_get(x, "kernel") ? cmp_get(x, "kernel")
			   : cmp_get(x, "mangled");
	char d[64];
	size_t i;

	printf("%-9s %-12s %s\n", r->change, cmp_get(x, "arch"), name);
	for (i = 0; r->old && r->cur && i < N_CMP; i++) {
		const char *a = cmp_get(r->old, cmp_fields[i]),
			   *b = cmp_get(r->cur, cmp_fields[i]);

		if (!differs(i, a, b))
			continue;
		d[0] = '\0';
		if (a && b && numeric_field(i))
			delta_text(a, b, 1, d + 2, sizeof d - 2), d[0] = ' ',
				d[1] = '(', strcat(d, ")");
		printf("          %-15s %s -> %s%s\n", cmp_fields[i],
		       a ? a : "-", b ? b : "-", d);
	}
}

static void emit(struct session *s, struct compare *c, struct out *out,
		 struct check_set *chk, struct cmp_row *r)
{
	int listed;

	if (!r->old)
		r->change = "added", c->added++;
	else if (!r->cur)
		r->change = "removed", c->removed++;
	else
		row_changes(r);
	if (r->old && r->cur)
		*(strcmp(r->change, "changed") == 0 ? &c->changed
						     : &c->unchanged) += 1;
	if (chk && r->cur)
		check_judge(chk, r);
	listed = strcmp(r->change, "unchanged") != 0 || s->o->all;
	if (!listed)
		return;
	if (s->o->format == OUT_TEXT && !s->o->fields)
		text_row(r);
	else
		out_row(out, r);
}

static void merge(struct session *s, struct compare *c, struct out *out,
		  struct check_set *chk)
{
	size_t i = 0, j = 0;
	struct cmp_row r;

	while (i < c->base.n || j < c->now.n) {
		int k = i == c->base.n ? 1 : j == c->now.n ? -1
			: cmp_key_cmp(&c->base.rows[i], &c->now.rows[j]);

		memset(&r, 0, sizeof r);
		if (k <= 0)
			r.old = &c->base.rows[i++];
		if (k >= 0)
			r.cur = &c->now.rows[j++];
		emit(s, c, out, chk, &r);
	}
}

int mode_compare(struct session *s)
{
	const struct options *o = s->o;
	struct compare *c;
	struct fieldsel sel;
	struct out out;
	struct check_set *chk;
	int text = o->format == OUT_TEXT && !o->fields;
	/* Standard input is <stdin> here as in every message. */
	const char *now = kernels_input_name(o->ptxas),
		   *base = kernels_input_name(o->compare);

	if (o->api)
		die_usage("--compare reads two builds; --api does not apply");
	if (s->n_targets)
		die_usage("--compare sets two builds side by side on one target: "
			  "give one --gpu or --arch");
	if (!(c = calloc(1, sizeof *c)))
		die("out of memory");
	s->compare = c;
	fieldsel_make(&sel, &kind_compare, o->fields, DEFAULT_FIELDS);
	cmp_read_side(s, c, o->ptxas, o->more_kernels, o->n_more_kernels,
		  &s->kernels, &c->now);
	cmp_read_side(s, c, o->compare, NULL, 0, &c->base_kernels, &c->base);
	cmp_prepare(s, now, &c->now);
	cmp_prepare(s, base, &c->base);
	out_open(&out, stdout, o->format, &sel);
	check_attach(s, &out, &kind_compare);
	chk = out.check;
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
	merge(s, c, &out, chk);
	if (text)
		printf("%s%llu changed, %llu added, %llu removed, %llu "
		       "unchanged%s\n", c->changed + c->added + c->removed ?
		       "\n" : "", (unsigned long long)c->changed,
		       (unsigned long long)c->added,
		       (unsigned long long)c->removed,
		       (unsigned long long)c->unchanged,
		       o->all || !c->unchanged ? "" : " (--all lists them)");
	else
		out_close(&out);
	return 0;
}
