/*
 * read.c - a launch file's bytes, plain or gzip (told by its first two
 * bytes, not its name), pushed in chunks to the reader of its format
 * (told by its first key: an occcalc trace's lines start with "type"),
 * so that no file is ever held whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "launches_int.h"

#define CHUNK (1u << 16)
/* Bytes looked at to tell the formats apart: the first key is there. */
#define SNIFF 512

/* ---- Bytes in: a FILE or memory, inflated when gzip ---- */

struct bytes {
	FILE *f;
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	int gz, gz_done;
	z_stream z;
	unsigned char in[CHUNK];
	size_t in_len;              /* raw bytes in in[] not yet used */
	size_t in_pos;
	int eof;                    /* the raw source is exhausted */
	enum occ_status err;
};

static size_t raw_read(struct bytes *b, unsigned char *p, size_t n)
{
	size_t got;

	if (b->f) {
		got = fread(p, 1, n, b->f);
		if (got < n && ferror(b->f))
			b->err = OCC_ERR_IO;
		return got;
	}
	got = b->mem_len - b->mem_pos < n ? b->mem_len - b->mem_pos : n;
	memcpy(p, b->mem + b->mem_pos, got);
	b->mem_pos += got;
	return got;
}

static int fill_in(struct bytes *b)
{
	if (b->in_pos < b->in_len || b->eof)
		return b->in_pos < b->in_len;
	b->in_pos = 0;
	b->in_len = raw_read(b, b->in, sizeof b->in);
	if (b->in_len == 0)
		b->eof = 1;
	return b->in_len > 0;
}

static enum occ_status bytes_start(struct bytes *b)
{
	fill_in(b);
	if (b->err)
		return b->err;
	b->gz = b->in_len >= 2 && b->in[0] == 0x1f && b->in[1] == 0x8b;
	if (!b->gz)
		return OCC_OK;
	memset(&b->z, 0, sizeof b->z);
	/* 16 + MAX_WBITS: a gzip header and trailer around the stream. */
	if (inflateInit2(&b->z, 16 + MAX_WBITS) != Z_OK)
		return OCC_ERR_NOMEM;
	return OCC_OK;
}

/* Up to n bytes into p; 0 at the end (or on an error, in b->err). */
static size_t bytes_read(struct bytes *b, unsigned char *p, size_t n)
{
	size_t got;
	int zr;

	if (!b->gz) {
		if (!fill_in(b))
			return 0;
		got = b->in_len - b->in_pos < n ? b->in_len - b->in_pos : n;
		memcpy(p, b->in + b->in_pos, got);
		b->in_pos += got;
		return got;
	}
	b->z.next_out = p;
	b->z.avail_out = (uInt)n;
	while (b->z.avail_out == n && !b->gz_done) {
		if (!fill_in(b)) {
			if (!b->err)
				b->err = OCC_ERR_CORRUPT;  /* the stream stops */
			return 0;
		}
		b->z.next_in = b->in + b->in_pos;
		b->z.avail_in = (uInt)(b->in_len - b->in_pos);
		zr = inflate(&b->z, Z_NO_FLUSH);
		b->in_pos = b->in_len - b->z.avail_in;
		if (zr == Z_STREAM_END) {
			/* gzip allows members one after another. */
			if (fill_in(b) && inflateReset(&b->z) == Z_OK)
				continue;
			b->gz_done = 1;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			b->err = zr == Z_MEM_ERROR ? OCC_ERR_NOMEM
						   : OCC_ERR_CORRUPT;
			return 0;
		} else if (zr == Z_BUF_ERROR && b->z.avail_in) {
			b->err = OCC_ERR_CORRUPT;
			return 0;
		}
	}
	return n - b->z.avail_out;
}

static void bytes_end(struct bytes *b)
{
	if (b->gz)
		inflateEnd(&b->z);
}

/* ---- Records out ---- */

enum occ_status launch_fail(struct launch_read *r, enum occ_status st,
			    int64_t line, uint64_t offset, const char *what)
{
	r->diag->line = line > INT_MAX ? INT_MAX : (int)line;
	r->diag->offset = offset;
	occ_copy_string(r->diag->key, sizeof r->diag->key, what ? what : "");
	return st;
}

static struct occ_launch_device *device_of(struct launch_read *r, int id)
{
	size_t i;

	for (i = 0; i < r->n_dev; i++)
		if (r->dev[i].device == id)
			return &r->dev[i];
	return NULL;
}

enum occ_status launch_device(struct launch_read *r,
			      const struct occ_launch_device *d)
{
	struct occ_launch_device *slot = device_of(r, d->device);

	if (!slot) {
		if (r->n_dev == OCC_LAUNCH_DEVICES_MAX)
			return launch_fail(r, OCC_ERR_RANGE, 0, r->offset,
					   "devices");
		slot = &r->dev[r->n_dev++];
	}
	*slot = *d;
	r->info->devices++;
	return r->cb->device ? r->cb->device(r->ctx, slot) : OCC_OK;
}

enum occ_status launch_deliver(struct launch_read *r,
			       const struct occ_launch_record *l)
{
	r->info->launches++;
	return r->cb->launch ? r->cb->launch(r->ctx, l, device_of(r, l->device))
			     : OCC_OK;
}

void launch_defaults(struct occ_launch_record *l, enum occ_launch_format f)
{
	int i;

	memset(l, 0, sizeof *l);
	l->format = f;
	l->kernel = l->mangled = "";
	for (i = 0; i < 3; i++)
		l->cluster[i] = -1;
	l->static_smem = l->dynamic_smem = -1;
	l->local_mem_per_thread = l->local_mem_total = -1;
	l->smem_executed = -1;
	l->carveout_requested = -1;
	l->cache_config = -1;
	l->context = l->stream = l->correlation = -1;
	l->start_ns = l->end_ns = -1;
}

/* ---- The read ---- */

/* Whether the first key of the first object is "type": an occcalc
 * trace's header line. A Kineto trace starts otherwise
 * ("schemaVersion", "deviceProperties", "traceEvents"). */
static int starts_like_trace(const unsigned char *p, size_t n)
{
	static const char key[] = "\"type\"";
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
			 p[i] == '\n'))
		i++;
	if (i == n || p[i] != '{')
		return 0;
	for (i++; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	return n - i >= sizeof key - 1 && memcmp(p + i, key, sizeof key - 1) == 0;
}

struct format_reader {
	struct trace_reader *t;
	struct kineto_reader *k;
};

static enum occ_status reader_feed(struct format_reader *fr,
				   const unsigned char *p, size_t n)
{
	return fr->t ? trace_feed(fr->t, p, n) : kineto_feed(fr->k, p, n);
}

static enum occ_status read_chunks(struct bytes *b, struct launch_read *r,
				   unsigned char *buf)
{
	struct format_reader fr = { NULL, NULL };
	enum occ_status st;
	size_t n = 0, got;

	/* Enough bytes to see the first key (a gzip stream may give few). */
	while (n < SNIFF && (got = bytes_read(b, buf + n, CHUNK - n)) > 0)
		n += got;
	if (b->err)
		return launch_fail(r, b->err, 0, 0, b->err == OCC_ERR_CORRUPT
				   ? "gzip stream" : NULL);
	if (n == 0)
		return launch_fail(r, OCC_ERR_SYNTAX, 0, 0, "empty file");
	r->info->format = starts_like_trace(buf, n) ? OCC_LAUNCH_FORMAT_OCCCALC
						    : OCC_LAUNCH_FORMAT_KINETO;
	st = r->info->format == OCC_LAUNCH_FORMAT_OCCCALC ? trace_open(&fr.t, r)
							 : kineto_open(&fr.k, r);
	while (st == OCC_OK && n > 0) {
		st = reader_feed(&fr, buf, n);
		r->offset += n;
		r->info->bytes = r->offset;
		if (st == OCC_OK)
			n = bytes_read(b, buf, CHUNK);
	}
	if (st == OCC_OK && b->err)
		st = launch_fail(r, b->err, 0, r->offset,
				 b->err == OCC_ERR_CORRUPT ? "gzip stream"
							   : NULL);
	if (st == OCC_OK)
		st = fr.t ? trace_finish(fr.t) : kineto_finish(fr.k);
	if (fr.t)
		trace_close(fr.t);
	if (fr.k)
		kineto_close(fr.k);
	return st;
}

static enum occ_status read_bytes(struct bytes *b, const char *name,
				  const struct occ_launch_callbacks *cb,
				  void *ctx, struct occ_launch_file *info,
				  struct occ_diag *diag)
{
	struct occ_launch_file own;
	struct occ_diag own_diag;
	struct launch_read *r;
	unsigned char *buf;
	enum occ_status st;

	info = info ? info : &own;
	diag = diag ? diag : &own_diag;
	memset(info, 0, sizeof *info);
	info->pid = info->declared = info->dropped = -1;
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, name);
	r = calloc(1, sizeof *r);
	buf = malloc(CHUNK);
	if (!r || !buf) {
		free(r);
		free(buf);
		return OCC_ERR_NOMEM;
	}
	r->cb = cb;
	r->ctx = ctx;
	r->info = info;
	r->diag = diag;
	st = bytes_start(b);
	if (st == OCC_OK)
		st = read_chunks(b, r, buf);
	else
		st = launch_fail(r, st, 0, 0, NULL);
	bytes_end(b);
	free(buf);
	free(r);
	return st;
}

static enum occ_status read_stream(FILE *f, const char *name,
				   const struct occ_launch_callbacks *cb,
				   void *ctx, struct occ_launch_file *info,
				   struct occ_diag *diag)
{
	struct bytes *b = calloc(1, sizeof *b);
	enum occ_status st;

	if (!b)
		return OCC_ERR_NOMEM;
	b->f = f;
	st = read_bytes(b, name, cb, ctx, info, diag);
	free(b);
	return st;
}

enum occ_status occ_launches_read_file(const char *path,
				       const struct occ_launch_callbacks *cb,
				       void *ctx, struct occ_launch_file *info,
				       struct occ_diag *diag)
{
	enum occ_status st;
	FILE *f;

	if (diag) {
		memset(diag, 0, sizeof *diag);
		occ_copy_string(diag->file, sizeof diag->file, path);
	}
	st = occ_open_regular(path, &f);
	if (st != OCC_OK)
		return st;
	st = read_stream(f, path, cb, ctx, info, diag);
	fclose(f);
	return st;
}

enum occ_status occ_launches_read_fd(int fd, const char *name,
				     const struct occ_launch_callbacks *cb,
				     void *ctx, struct occ_launch_file *info,
				     struct occ_diag *diag)
{
	enum occ_status st;
	int own = dup(fd);
	FILE *f = own < 0 ? NULL : fdopen(own, "r");

	if (!f) {
		if (own >= 0)
			close(own);
		return OCC_ERR_IO;
	}
	st = read_stream(f, name, cb, ctx, info, diag);
	fclose(f);
	return st;
}

enum occ_status occ_launches_read_mem(const void *data, size_t size,
				      const struct occ_launch_callbacks *cb,
				      void *ctx, struct occ_launch_file *info,
				      struct occ_diag *diag)
{
	struct bytes *b = calloc(1, sizeof *b);
	enum occ_status st;

	if (!b)
		return OCC_ERR_NOMEM;
	b->mem = data;
	b->mem_len = size;
	st = read_bytes(b, "(memory)", cb, ctx, info, diag);
	free(b);
	return st;
}

const char *occ_launch_format_name(enum occ_launch_format f)
{
	return f == OCC_LAUNCH_FORMAT_OCCCALC ? "occcalc"
	       : f == OCC_LAUNCH_FORMAT_KINETO ? "kineto" : "unknown";
}

const char *occ_launch_type_name(enum occ_launch_type t)
{
	static const char *const names[] = {
		"unknown", "regular", "cooperative_single",
		"cooperative_multi", "cbl_commandlist"
	};

	return (unsigned)t < sizeof names / sizeof names[0] ? names[t]
							    : "unknown";
}

const char *occ_smem_limit_name(enum occ_smem_limit s)
{
	return s == OCC_SMEM_LIMIT_DEFAULT ? "default"
	       : s == OCC_SMEM_LIMIT_OPTIN ? "optin" : "unknown";
}
