/*
 * compare_read.c - --compare's two sides as keyed rows: computed with
 * the same options (each row kept as the JSON output would give its
 * names and the fields compared), or, for a baseline in occcalc's own
 * JSON or JSON Lines, read back row by row (the library's
 * occ_rows_read_file) with --arch and --kernel applied; then keyed by
 * kernel, image and (--block) block, numbers checked, and sorted.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "occupancy.h"
#include "kernels.h"
#include "compare_int.h"

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
	const struct occ_field *f[3 + N_CMP];
};

static void snap_init(struct snap *sn, struct baseline *b)
{
	static const char *const names[3] = { "kernel", "mangled", "arch" };
	size_t i;

	sn->b = b;
	for (i = 0; i < 3 + N_CMP; i++) {
		const char *name = i < 3 ? names[i] : cmp_fields[i - 3];

		sn->f[i] = occ_field_find(&kind_occupancy, name, strlen(name));
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
		const struct occ_field *f = sn->f[i];
		struct occ_val v;

		memset(&v, 0, sizeof v);
		f->get(row, f, &v);
		occ_val_format(buf, sizeof buf, &v);
		if (base_add(r, f->name, v.type == OCC_VAL_NULL ? NULL : buf) != 0)
			die("out of memory");
	}
}

/* ---- Keys ---- */

const char *cmp_get(const struct base_row *r, const char *name)
{
	const char *t = NULL;

	return base_get(r, name, &t) ? t : NULL;
}

static void make_key(const struct session *s, const char *what, size_t i,
		     struct base_row *r)
{
	const char *k = cmp_get(r, "mangled"), *a = cmp_get(r, "arch"),
		   *b = cmp_get(r, "block");

	if (!k)
		k = cmp_get(r, "kernel");
	if (!k || !a)
		die("%s: row %zu has no %s: not occcalc's --kernels rows", what,
		    i + 1, k ? "arch" : "kernel or mangled");
	r->key[0] = k;
	r->key[1] = a;
	r->key[2] = s->o->have_block && b ? b : "";
}

int cmp_key_cmp(const struct base_row *x, const struct base_row *y)
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
	struct occ_decimal x;
	const char *t;
	size_t j, used;

	for (j = 0; j < N_CMP; j++)
		if (strcmp(cmp_fields[j], TEXT_FIELD) != 0 &&
		    (t = cmp_get(r, cmp_fields[j])) != NULL &&
		    (occ_decimal_parse(t, strlen(t), &x, &used) != 0 || t[used]))
			die("%s: row %zu: %s: '%.40s' is not a number", what,
			    i + 1, cmp_fields[j], t);
}

static int by_key(const void *a, const void *b)
{
	const struct base_row *x = a, *y = b;
	int c = cmp_key_cmp(x, y);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

void cmp_prepare(const struct session *s, const char *what,
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
	const char *a = cmp_get(r, "arch"), *m = cmp_get(r, "mangled"),
		   *n = cmp_get(r, "kernel");

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
void cmp_read_side(struct session *s, struct compare *c, const char *path,
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
