/*
 * read.c - a launch file, plain or gzip (told by content, not by name;
 * zin.h), handed to the reader of its format, told by the keys of its
 * first object: an occcalc trace's records hold "type" (its header
 * "format"), a Chrome trace "traceEvents" and its like. Readers stream:
 * no file is ever held whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "launches_int.h"
#include "zin.h"

/* Bytes looked at first to tell the formats apart. */
#define SNIFF 65536

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
	if (r->skip) {              /* delivered before the devices pass */
		r->skip--;
		return OCC_OK;
	}
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
	l->external_id = -1;
}

enum occ_status launch_json_fail(struct launch_read *r,
				 const struct occ_json_err *err)
{
	return launch_fail(r, err->st, (int64_t)err->line, err->offset,
			   err->what);
}

/* ---- The read ---- */

/* Telling the formats apart by the keys of the first object, in any
 * order (a trace re-serialised with sorted keys, jq -S, puts "argv"
 * and "format" before "type"; a Kineto trace "baseTimeNanoseconds"
 * before "deviceProperties"). */
enum { UNDECIDED, IS_TRACE, IS_KINETO, IS_OTHER };

static int sniff_key(void *ctx, struct occ_json_reader *jr,
		     const struct occ_json_event *e)
{
	static const char *const kineto[] = {
		"traceEvents", "deviceProperties", "schemaVersion",
		"traceName", "displayTimeUnit", "distributedInfo"
	};
	int *format = ctx;
	size_t i;

	(void)jr;
	if (e->depth == 0 && e->type == JSON_END) {
		*format = IS_OTHER;     /* the first object read: no word */
		return -1;
	}
	if (e->depth != 1 || !e->key)
		return 0;
	if (strcmp(e->key, "type") == 0 || strcmp(e->key, "format") == 0)
		*format = IS_TRACE;
	for (i = 0; i < sizeof kineto / sizeof kineto[0]; i++)
		if (strcmp(e->key, kineto[i]) == 0)
			*format = IS_KINETO;
	return *format != UNDECIDED ? -1 : 0;
}

static int format_of(const unsigned char *p, size_t n)
{
	static const struct occ_json_limits lim = { 0, 0, 0, 1 };
	struct occ_json_err err;
	int format = UNDECIDED;

	occ_json_read_mem((const char *)p, n, &lim, sniff_key, &format, &err);
	return format;
}

/* A failure of the input itself (I/O, gzip), at its raw byte. */
enum occ_status launch_input_fail(struct launch_read *r,
				  const struct occ_zin *z)
{
	r->err_no = z->err_no;
	return launch_fail(r, z->st, 0, z->err_at, z->what);
}

static enum occ_status kineto_ops(struct occ_zin *z, struct launch_read *r);

static enum occ_status read_zin(struct occ_zin *z, struct launch_read *r)
{
	/* The first object decides: a header line of occcalc's trace is at
	 * most a line long; most files tell within the first slice. */
	static const size_t looks[] = { SNIFF, OCC_LAUNCH_LINE_MAX + 2 };
	const unsigned char *head = NULL;
	const char *why;
	int format = UNDECIDED;
	size_t i, n = 0;

	for (i = 0; i < 2 && format == UNDECIDED; i++) {
		head = occ_zin_peek(z, looks[i], &n);
		if (!head)
			return launch_input_fail(r, z);
		format = format_of(head, n);
		if (n < looks[i])
			break;
	}
	for (i = 0; i < n && head[i] && strchr(" \t\r\n", head[i]); i++)
		;
	if (i == n)
		return launch_fail(r, OCC_ERR_SYNTAX, 0, 0, "empty file");
	why = launch_not_trace(head, n);
	if (why || format == IS_OTHER) {
		r->info->not_trace = 1;
		return launch_fail(r, OCC_ERR_SYNTAX, 0, 0, why ? why :
				   "a JSON object without traceEvents or a "
				   "record's type");
	}
	r->info->format = format == IS_TRACE ? OCC_LAUNCH_FORMAT_OCCCALC
					     : OCC_LAUNCH_FORMAT_KINETO;
	return format == IS_TRACE ? trace_read(r, z) : kineto_ops(z, r);
}

/* A Kineto trace: its operators first, where the file can be read again
 * from start (a regular file), as an operator's event may come after its
 * kernels'; then its launches, each given its operator. A pipe is read
 * once, its launches getting the operators read before them. What the
 * first pass finds wrong, the second finds and says. */
static enum occ_status kineto_ops(struct occ_zin *z, struct launch_read *r)
{
	struct occ_launch_file before = *r->info;
	enum occ_status st;

	r->ops = ops_new();
	if (!r->ops)
		return OCC_ERR_NOMEM;
	if (r->start < 0) {
		st = kineto_read(r, z);
		r->info->ops_dropped = ops_dropped(r->ops);
		r->info->ops = ops_kept(r->ops);
		return st;
	}
	r->collect = 1;
	(void)kineto_read(r, z);
	r->collect = 0;
	ops_resolve(r->ops);
	*r->info = before;
	r->info->ops_dropped = ops_dropped(r->ops);
	occ_zin_close(z);
	if (lseek(z->fd, r->start, SEEK_SET) != r->start ||
	    occ_zin_open(z, z->fd) != 0) {
		r->err_no = errno;
		return launch_fail(r, OCC_ERR_IO, 0, 0, "");
	}
	st = kineto_read(r, z);
	r->info->ops_dropped = ops_dropped(r->ops);
	r->info->ops = ops_kept(r->ops);
	return st;
}

static enum occ_status read_fd(int fd, struct launch_read *r)
{
	struct occ_zin z;
	struct stat sb;
	enum occ_status st;

	r->start = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)
		   ? lseek(fd, 0, SEEK_CUR) : -1;
	st = occ_zin_open(&z, fd) == 0 ? read_zin(&z, r)
				       : launch_input_fail(r, &z);
	occ_zin_close(&z);
	return st;
}

enum occ_status launch_read_with(struct launch_read *r, int fd,
				 const char *name,
				 const struct occ_launch_callbacks *cb,
				 void *ctx, struct occ_launch_file *info,
				 struct occ_diag *diag)
{
	enum occ_status st;

	memset(info, 0, sizeof *info);
	info->pid = info->declared = info->dropped = -1;
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, name);
	r->cb = cb;
	r->ctx = ctx;
	r->info = info;
	r->diag = diag;
	r->fd = fd;
	st = read_fd(fd, r);
	ops_free(r->ops);
	r->ops = NULL;
	/* What the CLI says of an I/O failure is errno's. */
	if (st == OCC_ERR_IO && r->err_no)
		errno = r->err_no;
	return st;
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
	r = calloc(1, sizeof *r);
	if (!r) {
		memset(info, 0, sizeof *info);
		memset(diag, 0, sizeof *diag);
		occ_copy_string(diag->file, sizeof diag->file, name);
		return OCC_ERR_NOMEM;
	}
	st = launch_read_with(r, fd, name, cb, ctx, info, diag);
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

enum occ_status occ_launches_probe(const char *path,
				   enum occ_launch_format *format,
				   struct occ_diag *diag)
{
	const unsigned char *head;
	const char *why;
	struct occ_zin z;
	enum occ_status st = OCC_OK;
	size_t n = 0;
	int f = UNDECIDED;
	FILE *fp;

	*format = 0;
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, path);
	if ((st = occ_open_regular(path, &fp)) != OCC_OK)
		return st;
	if (occ_zin_open(&z, fileno(fp)) != 0 ||
	    !(head = occ_zin_peek(&z, SNIFF, &n))) {
		st = z.st;
	} else if ((why = launch_not_trace(head, n)) != NULL) {
		/* Not JSON at all: said; a JSON array may be rows. */
		size_t i = strspn((const char *)head, " \t\r\n");

		if (i >= n || head[i] != '[')
			occ_copy_string(diag->key, sizeof diag->key, why);
	} else {
		f = format_of(head, n);
		*format = f == IS_TRACE ? OCC_LAUNCH_FORMAT_OCCCALC
			  : f == IS_KINETO ? OCC_LAUNCH_FORMAT_KINETO : 0;
	}
	occ_zin_close(&z);
	fclose(fp);
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
