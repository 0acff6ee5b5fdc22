/*
 * read.c - a launch file, plain or gzip (zlib tells, by content, not by
 * name), handed to the reader of its format, told by its first key: an
 * occcalc trace's lines start with "type", a Chrome trace otherwise.
 * Readers stream: no file is ever held whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "json.h"
#include "launches_int.h"

/* Bytes looked at to tell the formats apart: the first key is there. */
#define SNIFF 512

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
	l->achieved_occupancy_pct = -1;
	l->profiled_duration_ns = -1;
}

enum occ_status launch_json_fail(struct launch_read *r,
				 const struct occ_json_err *err)
{
	return launch_fail(r, err->st, (int64_t)err->line, err->offset,
			   err->what);
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

/* The first bytes of the file, decompressed, into buf: their count, or
 * -1 for a gzip stream that fails, -2 when it cannot be read. The
 * descriptor is left where it was. */
static int sniff(int fd, unsigned char *buf, size_t n)
{
	off_t at = lseek(fd, 0, SEEK_CUR);
	int own = at < 0 ? -1 : dup(fd), got = -2;
	gzFile g = own < 0 ? NULL : gzdopen(own, "rb");

	if (!g) {
		if (own >= 0)
			close(own);
		return -2;
	}
	got = gzread(g, buf, (unsigned)n);
	gzclose(g);
	if (lseek(fd, at, SEEK_SET) != at)
		return -2;
	return got;
}

static enum occ_status read_fd(int fd, struct launch_read *r)
{
	unsigned char head[SNIFF];
	int n = sniff(fd, head, sizeof head);

	if (n == -2)
		return launch_fail(r, OCC_ERR_IO, 0, 0, NULL);
	if (n < 0)
		return launch_fail(r, OCC_ERR_CORRUPT, 0, 0, "gzip stream");
	if (n == 0)
		return launch_fail(r, OCC_ERR_SYNTAX, 0, 0, "empty file");
	r->info->format = starts_like_trace(head, (size_t)n)
			  ? OCC_LAUNCH_FORMAT_OCCCALC : OCC_LAUNCH_FORMAT_KINETO;
	return r->info->format == OCC_LAUNCH_FORMAT_OCCCALC ? trace_read(r, fd)
							   : kineto_read(r, fd);
}

enum occ_status occ_launches_read_fd(int fd, const char *name,
				     const struct occ_launch_callbacks *cb,
				     void *ctx, struct occ_launch_file *info,
				     struct occ_diag *diag)
{
	struct occ_launch_file own;
	struct occ_diag own_diag;
	struct launch_read *r;
	enum occ_status st;

	info = info ? info : &own;
	diag = diag ? diag : &own_diag;
	memset(info, 0, sizeof *info);
	info->pid = info->declared = info->dropped = -1;
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, name);
	r = calloc(1, sizeof *r);
	if (!r)
		return OCC_ERR_NOMEM;
	r->cb = cb;
	r->ctx = ctx;
	r->info = info;
	r->diag = diag;
	st = read_fd(fd, r);
	free(r);
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
	st = occ_launches_read_fd(fileno(f), path, cb, ctx, info, diag);
	fclose(f);
	return st;
}

int64_t occ_launch_duration_ns(const struct occ_launch_record *l)
{
	if (l->start_ns == 0 && l->end_ns == 0 && l->profiled_duration_ns >= 0)
		return l->profiled_duration_ns;      /* the profiler ran it */
	if (l->start_ns >= 0 && l->end_ns >= l->start_ns)
		return l->end_ns - l->start_ns;
	return l->profiled_duration_ns;
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
