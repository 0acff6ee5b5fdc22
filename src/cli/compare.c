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
 * d_ fields beside the new.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "occupancy.h"
#include "expr.h"
#include "baseline.h"
#include "kernels.h"

/* The fields compared, numbers unless named in TEXT_FIELD. */
static const char *const cmp_fields[] = {
	"block", "regs", "spill_stores", "spill_loads", "stack", "static_smem",
	"smem", "blocks_per_sm", "warps_per_sm", "occupancy_pct", "limiter",
};
#define N_CMP (sizeof cmp_fields / sizeof cmp_fields[0])
#define TEXT_FIELD "limiter"

struct compare {
	struct baseline now, base;
	struct kernel_list base_kernels;
	uint64_t changed, added, removed, unchanged;
};

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

/* ---- Reading ---- */

/* A regular file whose first byte past blanks is '[' or '{'. */
static int looks_json(const char *path)
{
	char buf[4096];
	struct stat sb;
	ssize_t got;
	int fd, i;

	if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
	    !S_ISREG(sb.st_mode))
		return 0;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	got = read(fd, buf, sizeof buf);
	close(fd);
	for (i = 0; i < got; i++)
		if (buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t' &&
		    buf[i] != '\r')
			return buf[i] == '[' || buf[i] == '{';
	return 0;
}

/* ---- Rows as text ---- */

/* What a row is kept as: its names and the fields compared, each found
 * once in the field table. */
struct snap {
	struct baseline *b;
	const struct field *f[3 + N_CMP];
};

static void snap_init(struct snap *sn, struct baseline *b)
{
	static const char *const names[3] = { "kernel", "mangled", "arch" };
	size_t i;

	sn->b = b;
	for (i = 0; i < 3 + N_CMP; i++) {
		const char *name = i < 3 ? names[i] : cmp_fields[i - 3];

		sn->f[i] = field_find(&kind_occupancy, name, strlen(name));
	}
}

/* A computed row, kept as text as the JSON output would give it. */
static void snapshot(struct occ_run *run, const struct occ_row *row)
{
	const struct snap *sn = run->sink_ctx;
	struct base_row *r = base_new_row(sn->b);
	char buf[4096];
	size_t i;

	if (!r)
		die("out of memory");
	for (i = 0; i < 3 + N_CMP; i++) {
		const struct field *f = sn->f[i];
		struct val v;

		memset(&v, 0, sizeof v);
		f->get(row, f, &v);
		val_format(buf, sizeof buf, &v);
		if (base_add(r, f->name, v.type == VAL_NULL ? NULL : buf) != 0)
			die("out of memory");
	}
}

/* ---- Keys ---- */

static const char *get(const struct base_row *r, const char *name)
{
	const char *t = NULL;

	return base_get(r, name, &t) ? t : NULL;
}

static void make_key(const struct session *s, const char *what, size_t i,
		     struct base_row *r)
{
	const char *k = get(r, "mangled"), *a = get(r, "arch"),
		   *b = get(r, "block");

	if (!k)
		k = get(r, "kernel");
	if (!k || !a)
		die("%s: row %zu has no %s: not occcalc's --kernels rows", what,
		    i + 1, k ? "arch" : "kernel or mangled");
	r->key[0] = k;
	r->key[1] = a;
	r->key[2] = s->o->have_block && b ? b : "";
}

static int key_cmp(const struct base_row *x, const struct base_row *y)
{
	int i, c;

	for (i = 0; i < 3; i++)
		if ((c = strcmp(x->key[i], y->key[i])) != 0)
			return c;
	return 0;
}

/* Its numbers must read as numbers, or no delta could be exact. */
static void check_numbers(const char *what, size_t i, const struct base_row *r)
{
	struct expr_num x;
	const char *t;
	size_t j, used;

	for (j = 0; j < N_CMP; j++)
		if (strcmp(cmp_fields[j], TEXT_FIELD) != 0 &&
		    (t = get(r, cmp_fields[j])) != NULL &&
		    (expr_num_parse(t, strlen(t), &x, &used) != 0 || t[used]))
			die("%s: row %zu: %s: '%.40s' is not a number", what,
			    i + 1, cmp_fields[j], t);
}

static int by_key(const void *a, const void *b)
{
	const struct base_row *x = a, *y = b;
	int c = key_cmp(x, y);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

static void prepare(const struct session *s, const char *what,
		    struct baseline *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		make_key(s, what, i, &b->rows[i]);
		check_numbers(what, i, &b->rows[i]);
	}
	if (b->n)       /* an empty baseline has no rows to sort */
		qsort(b->rows, b->n, sizeof b->rows[0], by_key);
}

/* --arch and --kernel, on rows read back from JSON. */
static int keep_json_row(struct session *s, struct kernel_list *l,
			 const struct base_row *r)
{
	struct kernel_info k;
	const char *a = get(r, "arch"), *m = get(r, "mangled"),
		   *n = get(r, "kernel");

	memset(&k, 0, sizeof k);
	if (s->o->arch && a) {
		k.arch = a;
		if (occ_arch_parse_name(a, &k.cc_major, &k.cc_minor) != OCC_OK ||
		    !kernel_arch_matches(s->o->arch, &k))
			return 0;
	}
	return !l->have_re || (m && regexec(&l->re, m, 0, NULL, 0) == 0) ||
	       (n && regexec(&l->re, n, 0, NULL, 0) == 0);
}

/* The names of the fields a baseline's row keeps: what rows are matched,
 * filtered and compared by. */
static const char *kept_name(const char *name)
{
	static const char *const names[] = { "kernel", "mangled", "arch" };
	size_t i;

	for (i = 0; i < 3 + N_CMP; i++)
		if (strcmp(name, i < 3 ? names[i] : cmp_fields[i - 3]) == 0)
			return i < 3 ? names[i] : cmp_fields[i - 3];
	return NULL;
}

/* A baseline's rows are held (sorted, then merged): at most so many, and
 * the file at most OCC_ROWS_FILE_MAX bytes (man page, --compare). */
#define BASELINE_ROWS_MAX 1000000

struct json_side {
	struct session *s;
	struct baseline *b;
	const char *path;
};

/* A row read back: its fields kept (the first of a name) if --arch and
 * --kernel keep it. */
static int from_json(const struct occ_rows_row *row, void *ctx)
{
	struct json_side *js = ctx;
	struct base_row *r = base_new_row(js->b);
	const char *name, *t;
	size_t i;

	if (!r)
		die("out of memory");
	if (js->b->n > BASELINE_ROWS_MAX)
		die("%s: more than %d rows: more than a baseline may hold",
		    js->path, BASELINE_ROWS_MAX);
	for (i = 0; i < row->n; i++)
		if ((name = kept_name(row->f[i].name)) != NULL &&
		    !base_get(r, name, &t) &&
		    base_add(r, name, row->f[i].text) != 0)
			die("out of memory");
	if (!keep_json_row(js->s, &js->s->kernels, r))
		base_drop_last(js->b);
	return 0;
}

static void read_json(struct session *s, struct compare *c, const char *path)
{
	struct json_side js = { s, &c->base, path };
	struct occ_rows_diag d;
	enum occ_status st;

	st = occ_rows_read_file(path, 0, from_json, &js, NULL, &d);
	if (st == OCC_ERR_NOMEM)
		die("out of memory");
	if (st != OCC_OK && d.line)
		die("%s:%llu:%llu: %s", path, (unsigned long long)d.line,
		    (unsigned long long)d.column, d.what);
	if (st != OCC_OK)
		die("%s: %s", path, d.what);
}

/* One side's rows: what occcalc wrote before (the baseline only), or the
 * binaries, directories or caches at path and the more paths after it. */
static void read_side(struct session *s, struct compare *c, const char *path,
		      const char *const *more, int n_more,
		      struct kernel_list *l, struct baseline *b)
{
	struct snap sn;
	int i;

	if (b == &c->base && looks_json(path)) {
		read_json(s, c, path);
		return;
	}
	snap_init(&sn, b);
	kernels_read(s, path, l, NULL);
	for (i = 0; i < n_more; i++)
		kernels_read_add(s, more[i], l);
	kernels_rows(s, l, snapshot, &sn);
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
	struct expr_num x;
	size_t used;
	__int128 v;
	uint64_t frac = x.fp = 0;
	int i;

	expr_num_parse(t, strlen(t), &x, &used);
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
	struct expr_num x, y;
	size_t u;

	if (!a || !b)
		return !a != !b;
	if (!numeric_field(i))
		return strcmp(a, b) != 0;
	expr_num_parse(a, strlen(a), &x, &u);
	expr_num_parse(b, strlen(b), &y, &u);
	return expr_num_cmp(&x, &y) != 0;
}

/* ---- The compare rows' fields ---- */

static void get_text(const struct base_row *r, const char *name,
		     enum field_type t, struct val *v)
{
	const char *s = r ? get(r, name) : NULL;

	v->type = !s ? VAL_NULL : t == FT_DEC ? VAL_DEC : VAL_STR;
	v->s = s;
}

static void get_new(const void *row, const struct field *f, struct val *v)
{
	const struct cmp_row *c = row;

	get_text(c->cur, cmp_fields[f->arg], f->type, v);
}

static void get_old(const void *row, const struct field *f, struct val *v)
{
	const struct cmp_row *c = row;

	get_text(c->old, cmp_fields[f->arg], f->type, v);
}

static void get_delta(const void *row, const struct field *f, struct val *v)
{
	const struct cmp_row *c = row;
	const char *a = c->old ? get(c->old, cmp_fields[f->arg]) : NULL,
		   *b = c->cur ? get(c->cur, cmp_fields[f->arg]) : NULL;

	v->type = VAL_NULL;
	if (!a || !b)
		return;
	delta_text(a, b, 0, v->buf, sizeof v->buf);
	v->type = VAL_DEC;
	v->s = v->buf;
}

static void get_name(const void *row, const struct field *f, struct val *v)
{
	const struct cmp_row *c = row;
	static const char *const names[] = { "kernel", "mangled", "arch" };

	get_text(c->cur ? c->cur : c->old, names[f->arg], FT_STR, v);
}

static void get_change(const void *row, const struct field *f, struct val *v)
{
	const struct cmp_row *c = row;

	(void)f;
	v->type = VAL_STR;
	v->s = c->change;
}

static void get_changed(const void *row, const struct field *f, struct val *v)
{
	const struct cmp_row *c = row;

	(void)f;
	v->type = VAL_STR;
	v->s = c->changed;
}

#define COL { NULL, 0, 2, 0, NULL, 0 }
#define NAME(n, i, d) { n, FT_STR, d, get_name, "", COL, 0, i }
#define NUM3(i, n, d) \
	{ n, FT_DEC, "the new build's " d, get_new, "", COL, 0, i }, \
	{ "old_" n, FT_DEC, "the baseline's " d, get_old, "", COL, 0, i }, \
	{ "d_" n, FT_DEC, "the new " n " less the baseline's (absent: a " \
	  "kernel only one has)", get_delta, "", COL, 0, i }

static const struct field compare_fields[] = {
	{ "change", FT_STR, "changed, added, removed or unchanged",
	  get_change, "", COL, 0, 0 },
	NAME("kernel", 0, "the kernel's name, demangled"),
	NAME("mangled", 1, "the kernel's symbol"),
	NAME("arch", 2, "the image's architecture, as compiled"),
	{ "changed", FT_STR, "the fields that differ, '+'-joined",
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
	{ "limiter", FT_STR, "the new build's limiter, '+'-joined", get_new,
	  "", COL, 0, 10 },
	{ "old_limiter", FT_STR, "the baseline's limiter", get_old, "", COL,
	  0, 10 },
};

const struct row_kind kind_compare = {
	"compare", compare_fields, sizeof compare_fields /
	sizeof compare_fields[0]
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
		if (differs(i, get(r->old, cmp_fields[i]),
			    get(r->cur, cmp_fields[i])))
			len += (size_t)snprintf(r->changed + len,
						sizeof r->changed - len, "%s%s",
						len ? "+" : "", cmp_fields[i]);
	r->change = len ? "changed" : "unchanged";
}

/* The text lines of one row: its fields that changed, old -> new. */
static void text_row(const struct cmp_row *r)
{
	const struct base_row *x = r->cur ? r->cur : r->old;
	const char *name = get(x, "kernel") ? get(x, "kernel") : get(x, "mangled");
	char d[64];
	size_t i;

	printf("%-9s %-12s %s\n", r->change, get(x, "arch"), name);
	for (i = 0; r->old && r->cur && i < N_CMP; i++) {
		const char *a = get(r->old, cmp_fields[i]),
			   *b = get(r->cur, cmp_fields[i]);

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
			: key_cmp(&c->base.rows[i], &c->now.rows[j]);

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
	read_side(s, c, o->ptxas, o->more_kernels, o->n_more_kernels,
		  &s->kernels, &c->now);
	read_side(s, c, o->compare, NULL, 0, &c->base_kernels, &c->base);
	prepare(s, now, &c->now);
	prepare(s, base, &c->base);
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
