/*
 * annotate.c - a Kineto trace written back with members added to each
 * kernel event's args (occcalc --annotate). The trace is read twice at
 * once: the JSON reader (kineto.c) finds each kernel event and the byte
 * of its args' closing '}', and a second stream over the same file
 * copies the text up to there, where the caller's members go in. The
 * copy trails the reader by one event at most, so memory is two slices
 * whatever the file's size, and every byte outside the members added is
 * the input's own.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launches_int.h"
#include "zin.h"

/* Whitespace held back before a '}', so that a member goes in right
 * after the last one ("...": 0,"occcalc":{...}\n  }); a longer run is
 * written, and the member goes after it. */
#define WS_MAX 256

struct annotate {
	struct launch_read r;
	const struct occ_launch_callbacks *cb;
	void *ctx;
	const struct occ_annotate_sink *sink;
	struct occ_zin z;               /* the copy */
	uint64_t at;                    /* bytes of the text copied or held */
	unsigned char *buf;             /* read from z, buf[pos .. len) not yet
					   copied */
	size_t pos, len;
	char ws[WS_MAX];
	size_t n_ws;
	unsigned char last;             /* the last byte written but spaces */
	int copy_eof;
};

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static enum occ_status put(struct annotate *a, const void *p, size_t n)
{
	return n ? a->sink->write(a->sink->ctx, p, n) : OCC_OK;
}

static enum occ_status put_ws(struct annotate *a)
{
	enum occ_status st = put(a, a->ws, a->n_ws);

	a->n_ws = 0;
	return st;
}

/* More of the copy: OCC_OK with a->len > a->pos, or at its end
 * a->copy_eof; the input's failure else. */
static enum occ_status fill(struct annotate *a)
{
	long n = occ_zin_read(&a->z, a->buf, LAUNCH_CHUNK);

	if (n < 0)
		return launch_input_fail(&a->r, &a->z);
	a->pos = 0;
	a->len = (size_t)n;
	a->copy_eof = n == 0;
	return OCC_OK;
}

/* The text up to byte off (not included) written, but the whitespace
 * it ends with held back. */
static enum occ_status copy_to(struct annotate *a, uint64_t off)
{
	enum occ_status st;

	while (a->at < off) {
		const unsigned char *p;
		size_t n, k;

		if (a->pos == a->len && (st = fill(a)) != OCC_OK)
			return st;
		if (a->copy_eof)        /* the file changed under the read */
			return launch_fail(&a->r, OCC_ERR_INCONSISTENT, 0,
					   a->at, "the file changed as it was "
					   "read");
		p = a->buf + a->pos;
		n = a->len - a->pos;
		if (n > off - a->at)
			n = (size_t)(off - a->at);
		for (k = n; k && is_space(p[k - 1]); k--)
			;
		if (k) {
			if ((st = put_ws(a)) != OCC_OK ||
			    (st = put(a, p, k)) != OCC_OK)
				return st;
			a->last = p[k - 1];
		}
		if (a->n_ws + (n - k) > WS_MAX && (st = put_ws(a)) != OCC_OK)
			return st;
		if (n - k > WS_MAX) {
			if ((st = put(a, p + k, n - k)) != OCC_OK)
				return st;
		} else {
			memcpy(a->ws + a->n_ws, p + k, n - k);
			a->n_ws += n - k;
		}
		a->pos += n;
		a->at += n;
	}
	return OCC_OK;
}

static enum occ_status on_device(void *ctx, const struct occ_launch_device *d)
{
	struct annotate *a = ctx;

	return a->cb->device ? a->cb->device(a->ctx, d) : OCC_OK;
}

/* The caller's launch, then its members into the event's args. */
static enum occ_status on_launch(void *ctx, const struct occ_launch_record *l,
				 const struct occ_launch_device *d)
{
	struct annotate *a = ctx;
	const char *text = NULL;
	size_t len = 0;
	enum occ_status st;

	if (l->format != OCC_LAUNCH_FORMAT_KINETO)
		return a->cb->launch ? a->cb->launch(a->ctx, l, d) : OCC_OK;
	if (a->r.args_annotated)
		return launch_fail(&a->r, OCC_ERR_DUPLICATE_KEY, 0, l->offset,
				   "args.occcalc (a trace annotated already)");
	if (a->cb->launch && (st = a->cb->launch(a->ctx, l, d)) != OCC_OK)
		return st;
	if ((st = a->sink->members(a->sink->ctx, &text, &len)) != OCC_OK)
		return st;
	if ((st = copy_to(a, a->r.args_close)) != OCC_OK)
		return st;
	if (a->pos == a->len && (st = fill(a)) != OCC_OK)
		return st;
	if (a->copy_eof || a->buf[a->pos] != '}')
		return launch_fail(&a->r, OCC_ERR_INCONSISTENT, 0,
				   a->r.args_close, "the file changed as it "
				   "was read");
	if (len && a->last != '{' && (st = put(a, ",", 1)) != OCC_OK)
		return st;
	if ((st = put(a, text, len)) != OCC_OK)
		return st;
	return put_ws(a);
}

/* The rest of the text, after the last kernel event, as it is. */
static enum occ_status copy_rest(struct annotate *a)
{
	enum occ_status st = put_ws(a);

	while (st == OCC_OK) {
		if (a->pos == a->len && (st = fill(a)) != OCC_OK)
			return st;
		if (a->copy_eof)
			return OCC_OK;
		st = put(a, a->buf + a->pos, a->len - a->pos);
		a->at += a->len - a->pos;
		a->pos = a->len;
	}
	return st;
}

/* Two descriptors of one file: the reader's and the copy's. */
static enum occ_status open_twice(const char *path, FILE **f, int *fd)
{
	struct stat a, b;
	enum occ_status st = occ_open_regular(path, f);

	if (st != OCC_OK)
		return st;
	*fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (*fd >= 0 && fstat(fileno(*f), &a) == 0 && fstat(*fd, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return OCC_OK;
	if (*fd >= 0)
		close(*fd);
	fclose(*f);
	return *fd >= 0 ? OCC_ERR_INCONSISTENT : OCC_ERR_IO;
}

enum occ_status occ_launches_annotate_file(const char *path,
		const struct occ_launch_callbacks *cb, void *ctx,
		const struct occ_annotate_sink *sink,
		struct occ_launch_file *info, struct occ_diag *diag)
{
	static const struct occ_launch_callbacks own = { on_device, on_launch };
	struct occ_launch_file own_info;
	struct occ_diag own_diag;
	struct annotate *a;
	enum occ_status st;
	FILE *f;
	int fd;

	info = info ? info : &own_info;
	diag = diag ? diag : &own_diag;
	memset(info, 0, sizeof *info);
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, path);
	if ((st = open_twice(path, &f, &fd)) != OCC_OK)
		return st;
	a = calloc(1, sizeof *a);
	if (a)
		a->buf = malloc(LAUNCH_CHUNK);
	if (!a || !a->buf) {
		free(a);
		close(fd);
		fclose(f);
		return OCC_ERR_NOMEM;
	}
	a->cb = cb;
	a->ctx = ctx;
	a->sink = sink;
	a->r.info = info;
	a->r.diag = diag;
	if (occ_zin_open(&a->z, fd) != 0)
		st = launch_input_fail(&a->r, &a->z);
	else
		st = launch_read_with(&a->r, fileno(f), path, &own, a, info,
				      diag);
	if (st == OCC_OK && info->format == OCC_LAUNCH_FORMAT_KINETO)
		st = copy_rest(a);
	occ_zin_close(&a->z);
	close(fd);
	fclose(f);
	free(a->buf);
	free(a);
	return st;
}
