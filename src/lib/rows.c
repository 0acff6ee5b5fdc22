/*
 * rows.c - occcalc's own JSON and JSON Lines rows read back
 * (occcalc/rows.h), through the library's JSON reader (json.c): each row
 * is a record, handed over when it closes, so that memory is one row's
 * whatever the file's size. What occcalc never writes is refused: values
 * nested deeper than an array of scalars, null inside an array, numbers
 * with an exponent.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"

struct rows {
	occ_rows_fn fn;
	void *ctx;
	int fn_status;
	int array_form;             /* the rows are in one array */
	uint64_t tops;              /* top-level values */
	uint64_t index;
	struct occ_rows_field *f;
	size_t *at;                 /* where a joined text starts, or
	                               SIZE_MAX */
	size_t cap;
	char *join;                 /* arrays' elements joined */
	size_t join_cap;
};

/* The rows are objects at depth 1 of an array, or at depth 0. */
static int is_row(void *ctx, const struct occ_json_reader *r,
		  const struct occ_json_event *e)
{
	struct rows *rw = ctx;

	(void)r;
	if (e->depth == 0 && !rw->array_form) {
		rw->tops++;
		return 1;
	}
	return e->depth == 1 && rw->array_form;
}

/* What lies outside the rows: an array holding them, nothing else. */
static int outside(void *ctx, struct occ_json_reader *r,
		   const struct occ_json_event *e)
{
	struct rows *rw = ctx;

	if (e->type == JSON_END)
		return 0;
	if (e->depth == 0 && rw->array_form)
		return occ_json_fail(r, OCC_ERR_SYNTAX, e->offset,
				     "more after the rows' closing ']'");
	if (e->depth == 0 && e->type == JSON_ARRAY && !rw->tops++) {
		rw->array_form = 1;
		return 0;
	}
	return occ_json_fail(r, OCC_ERR_SYNTAX, e->offset,
			     "expected a row, '{'");
}

static int put(struct rows *rw, size_t *len, const char *s, size_t n)
{
	if (*len + n + 1 > rw->join_cap) {
		size_t cap = (*len + n + 1) * 2;
		char *j = realloc(rw->join, cap);

		if (!j)
			return -1;
		rw->join = j;
		rw->join_cap = cap;
	}
	memcpy(rw->join + *len, s, n);
	*len += n;
	rw->join[*len] = '\0';
	return 0;
}

/* A value: occcalc writes numbers without an exponent, arrays of
 * scalars without null. */
static int plain(struct occ_json_reader *r, const struct occ_json_member *m,
		 int in_array)
{
	if (m->type == JSON_OBJECT || (m->type == JSON_ARRAY && in_array))
		return occ_json_fail(r, OCC_ERR_SYNTAX, m->offset, "a value "
				     "nested deeper than occcalc writes");
	if (m->type == JSON_NULL && in_array)
		return occ_json_fail(r, OCC_ERR_SYNTAX, m->offset,
				     "null inside an array");
	if (m->type == JSON_NUMBER && (memchr(m->text, 'e', m->len) ||
				       memchr(m->text, 'E', m->len)))
		return occ_json_fail(r, OCC_ERR_SYNTAX, m->offset, "a number "
				     "with an exponent: occcalc writes none");
	return 0;
}

/* The elements of the array member at *i, joined into the join buffer
 * from *len; *i is left on its last element. */
static int join(struct rows *rw, struct occ_json_reader *r,
		const struct occ_json_record *rec, size_t *i, size_t *len)
{
	size_t k;

	for (k = *i + 1; k < rec->n && rec->m[k].depth > 0; k++) {
		const struct occ_json_member *e = &rec->m[k];

		if (plain(r, e, 1) != 0)
			return -1;
		if ((e->index && put(rw, len, e->type == JSON_NUMBER ? " "
				     : "+", 1) != 0) ||
		    put(rw, len, e->text, e->len) != 0)
			return occ_json_fail(r, OCC_ERR_NOMEM, e->offset,
					     "out of memory");
	}
	*i = k - 1;
	return 0;
}

/* Room for n fields and where each one's joined text starts. */
static int room(struct rows *rw, size_t n)
{
	struct occ_rows_field *f;
	size_t *at;

	if (n <= rw->cap)
		return 0;
	if (!(f = realloc(rw->f, n * sizeof *f)))
		return -1;
	rw->f = f;
	if (!(at = realloc(rw->at, n * sizeof *at)))
		return -1;
	rw->at = at;
	rw->cap = n;
	return 0;
}

static int row(void *ctx, struct occ_json_reader *r,
	       const struct occ_json_record *rec)
{
	struct rows *rw = ctx;
	struct occ_rows_row out;
	size_t i, n = 0, len = 0;

	if (room(rw, rec->n) != 0)
		return occ_json_fail(r, OCC_ERR_NOMEM, rec->offset,
				     "out of memory");
	for (i = 0; i < rec->n; i++, n++) {
		const struct occ_json_member *m = &rec->m[i];

		if (plain(r, m, 0) != 0)
			return -1;
		rw->f[n].name = m->name;
		rw->f[n].text = m->text;
		rw->at[n] = SIZE_MAX;
		if (m->type != JSON_ARRAY)
			continue;
		rw->at[n] = len;
		if (put(rw, &len, "", 0) != 0)
			return occ_json_fail(r, OCC_ERR_NOMEM, m->offset,
					     "out of memory");
		if (join(rw, r, rec, &i, &len) != 0)
			return -1;
		len++;      /* past its NUL */
	}
	for (i = 0; i < n; i++)
		if (rw->at[i] != SIZE_MAX)
			rw->f[i].text = rw->join + rw->at[i];
	out.f = rw->f;
	out.n = n;
	out.index = rw->index++;
	rw->fn_status = rw->fn(&out, rw->ctx);
	/* A stop the caller asked for: no failure of the text. */
	return rw->fn_status ? occ_json_fail(r, OCC_OK, rec->offset,
					     "stopped") : 0;
}

static enum occ_status done(struct rows *rw, struct occ_json_records *rc,
			    enum occ_status st, const struct occ_json_err *err,
			    int *fn_status, struct occ_rows_diag *diag)
{
	memset(diag, 0, sizeof *diag);
	if (st != OCC_OK) {
		diag->offset = err->offset;
		diag->line = err->line;
		diag->column = err->column;
		snprintf(diag->what, sizeof diag->what, "%s", err->what);
	}
	if (fn_status)
		*fn_status = rw->fn_status;
	occ_json_records_free(rc);
	free(rw->f);
	free(rw->at);
	free(rw->join);
	return st;
}

/* The reader's setup: rows one a line allowed, a row of 1 MB at most. */
static void setup(struct rows *rw, struct occ_json_records *rc,
		  struct occ_json_limits *lim, occ_rows_fn fn, void *ctx,
		  uint64_t max)
{
	memset(rw, 0, sizeof *rw);
	memset(rc, 0, sizeof *rc);
	memset(lim, 0, sizeof *lim);
	rw->fn = fn;
	rw->ctx = ctx;
	rc->select = is_row;
	rc->record = row;
	rc->other = outside;
	rc->ctx = rw;
	lim->multiple = 1;
	lim->bytes = max;
}

enum occ_status occ_rows_read(const char *text, size_t len, occ_rows_fn fn,
			      void *ctx, int *fn_status,
			      struct occ_rows_diag *diag)
{
	struct occ_json_records rc;
	struct occ_json_limits lim;
	struct occ_json_err err;
	struct rows rw;
	enum occ_status st;

	setup(&rw, &rc, &lim, fn, ctx, 0);
	st = occ_json_read_mem(text, len, &lim, occ_json_records_event, &rc,
			       &err);
	return done(&rw, &rc, st, &err, fn_status, diag);
}

enum occ_status occ_rows_read_file(const char *path, uint64_t max,
				   occ_rows_fn fn, void *ctx, int *fn_status,
				   struct occ_rows_diag *diag)
{
	struct occ_json_records rc;
	struct occ_json_limits lim;
	struct occ_json_err err;
	struct rows rw;
	enum occ_status st;
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	memset(&err, 0, sizeof err);
	if (!max)
		max = OCC_ROWS_FILE_MAX;
	setup(&rw, &rc, &lim, fn, ctx, max);
	if (fd < 0 || fstat(fd, &sb) != 0) {
		st = err.st = OCC_ERR_IO;
		snprintf(err.what, sizeof err.what, "cannot read: %s",
			 strerror(errno));
	} else if (!S_ISREG(sb.st_mode)) {
		st = err.st = OCC_ERR_NOT_REGULAR;
		snprintf(err.what, sizeof err.what, "not a regular file");
	} else if ((uint64_t)sb.st_size > max) {
		st = err.st = OCC_ERR_RANGE;
		snprintf(err.what, sizeof err.what, "%llu bytes: larger than "
			 "the %llu a file of rows may have", (unsigned long long)
			 sb.st_size, (unsigned long long)max);
	} else {
		st = occ_json_read_fd(fd, &lim, occ_json_records_event, &rc,
				      &err);
	}
	if (fd >= 0)
		close(fd);
	return done(&rw, &rc, st, &err, fn_status, diag);
}
