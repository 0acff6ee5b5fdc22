/*
 * compare_read.c - --compare's two sides as the library's sets of rows
 * (occcalc/row_compare.h): computed with the same options (each row
 * handed over as the JSON output would give its names and the fields
 * compared), or, for a baseline in occcalc's own JSON or JSON Lines, read
 * back row by row (the library's occ_rows_read_file) with --arch and
 * --kernel applied.
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

#define N_KEPT (3 + OCC_COMPARE_N)

/* What a row is kept as: its names and the fields compared, each found
 * once in the field table. */
struct snap {
	struct occ_row_set *b;
	const struct occ_field *f[N_KEPT];
};

static void snap_init(struct snap *sn, struct occ_row_set *b)
{
	static const char *const names[3] = { "kernel", "mangled", "arch" };
	size_t i;

	sn->b = b;
	for (i = 0; i < N_KEPT; i++) {
		const char *name = i < 3 ? names[i]
				   : occ_compare_field(i - 3, NULL);

		sn->f[i] = occ_field_find(&kind_occupancy, name, strlen(name));
	}
}

/* A computed row, handed over as text as the JSON output would give it. */
static void snapshot(struct occ_run *run, const struct occ_row *row)
{
	const struct snap *sn = run->sink_ctx;
	char buf[N_KEPT][4096];
	struct occ_rows_field f[N_KEPT];
	struct occ_rows_row r = { f, N_KEPT, 0 };
	size_t i;

	for (i = 0; i < N_KEPT; i++) {
		struct occ_val v;

		memset(&v, 0, sizeof v);
		sn->f[i]->get(row, sn->f[i], &v);
		occ_val_format(buf[i], sizeof buf[i], &v);
		f[i].name = sn->f[i]->name;
		f[i].text = v.type == OCC_VAL_NULL ? NULL : buf[i];
	}
	if (occ_row_set_add(sn->b, &r) != OCC_OK)
		die("out of memory");
}

/* The text of the first field of row named name, NULL where none. */
static const char *row_text(const struct occ_rows_row *row, const char *name)
{
	size_t i;

	for (i = 0; i < row->n; i++)
		if (strcmp(row->f[i].name, name) == 0)
			return row->f[i].text;
	return NULL;
}

/* --arch and --kernel, on rows read back from JSON. */
static int keep_json_row(struct session *s, struct kernel_list *l,
			 const struct occ_rows_row *r)
{
	struct kernel_info k;
	const char *a = row_text(r, "arch"), *m = row_text(r, "mangled"),
		   *n = row_text(r, "kernel");

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

/* A baseline's rows are held (sorted, then merged): at most
 * OCC_ROW_SET_MAX, and the file at most OCC_ROWS_FILE_MAX bytes (man
 * page, --compare). */
struct json_side {
	struct session *s;
	struct occ_row_set *b;
	const char *path;
};

/* A row read back: its fields kept if --arch and --kernel keep it. */
static int from_json(const struct occ_rows_row *row, void *ctx)
{
	struct json_side *js = ctx;

	if (occ_row_set_count(js->b) >= OCC_ROW_SET_MAX)
		die("%s: more than %d rows: more than a baseline may hold",
		    js->path, OCC_ROW_SET_MAX);
	if (keep_json_row(js->s, &js->s->kernels, row) &&
	    occ_row_set_add(js->b, row) != OCC_OK)
		die("out of memory");
	return 0;
}

static void read_json(struct session *s, struct compare *c, const char *path)
{
	struct json_side js = { s, c->base, path };
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
		      struct kernel_list *l, struct occ_row_set *b)
{
	struct snap sn;
	int i;

	if (b == c->base && looks_json(path)) {
		read_json(s, c, path);
		return;
	}
	snap_init(&sn, b);
	kernels_read(s, path, l, NULL);
	for (i = 0; i < n_more; i++)
		kernels_read_add(s, more[i], l);
	kernels_rows(s, l, snapshot, &sn);
}
