/*
 * chrome.c - --annotate and --chrome-trace: a Chrome trace with each
 * launch's figures beside it, for Perfetto, chrome://tracing,
 * TensorBoard or Holistic Trace Analysis. A Kineto trace is written back
 * as it is, an "occcalc" object added to each kernel event's args (the
 * library splices it: occ_launches_annotate_file); the launches of
 * occcalc's own traces (--launches FILE.jsonl, --trace) become complete
 * events of a trace of their own. The object holds the launch row's
 * fields, written by out.c's JSON writer, so that its values read as
 * -f json's. The output goes to a temporary file beside OUT, renamed
 * over it once whole: a failed run leaves no partial OUT.
 */
#define _GNU_SOURCE             /* O_TMPFILE, linkat */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "launches.h"

/* What every launch's object holds; the cluster figures, the achieved
 * occupancy and the reason are added where a launch has them. */
#define HEADER "{\"traceEvents\":[\n"
#define FOOTER "\n],\"displayTimeUnit\":\"ns\"," \
	"\"otherData\":{\"producer\":\"occcalc\"}}\n"
/* Devices given a process name (events of others still go out). */
#define NAMED_MAX 64
/* A string literal into the piece. */
#define LIT(c, s) out_put(&(c)->o, s, sizeof s - 1)

struct chrome {
	const char *path;               /* OUT; "-": standard output */
	char *tmp;                      /* the file written until renamed */
	FILE *f;                        /* plain */
	gzFile gz;                      /* or gzip, by OUT's name */
	int fd;                         /* the file (-1: standard output) */
	int spliced;                    /* a Kineto trace's text went out */
	int write_errno;                /* a write failed */
	uint64_t events;                /* events of occcalc's launches */
	int64_t last_end_ns;            /* of the last launch timed */
	struct fieldsel row;            /* the annotation's (the library's) */
	const char *text;               /* the members for the launch just
					   read, until taken */
	size_t text_len;
	int named[NAMED_MAX];
	size_t n_named;
	struct out o;                   /* last: its 64 KB buffer */
};

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* OUT must be a file renamed over, not the input nor a FIFO; a device
 * (/dev/null) is written as it is: 1. */
static int out_check(const char *path, const char *input, const char *opt)
{
	struct stat o, i;

	if (stat(path, &o) != 0)
		return 0;
	if (S_ISFIFO(o.st_mode))
		die("%s: cannot write: a FIFO (%s writes a file whole; '-' "
		    "writes to standard output)", path, opt);
	if (S_ISCHR(o.st_mode))
		return 1;
	if (!S_ISREG(o.st_mode))
		die("%s: cannot write: not a regular file ('-' writes to "
		    "standard output)", path);
	if (input && stat(input, &i) == 0 && i.st_dev == o.st_dev &&
	    i.st_ino == o.st_ino)
		die_usage("%s: '%s' is the input file: it would be written as "
			  "it is read", opt, path);
	return 0;
}

/* OUT's directory, where its file is made before it is named. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
	char *d = malloc(n + 1);

	if (!d)
		die("out of memory");
	memcpy(d, !slash ? "." : path, n);
	d[n] = '\0';
	return d;
}

/* The file written: unnamed (O_TMPFILE) where the file system makes
 * one, so that a run that dies leaves nothing behind; else a temporary
 * name beside OUT. */
static int tmp_fd(struct chrome *c)
{
	char *dir = dir_of(c->path);
	mode_t mask;
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR &&
			errno != EINVAL)) {
		free(dir);
		if (fd < 0)
			die("%s: cannot write: %s", c->path, strerror(errno));
		return fd;
	}
#endif
	free(dir);
	c->tmp = malloc(strlen(c->path) + 8);
	if (!c->tmp)
		die("out of memory");
	sprintf(c->tmp, "%s.XXXXXX", c->path);
	fd = mkstemp(c->tmp);
	if (fd < 0) {
		free(c->tmp);
		c->tmp = NULL;
		die("%s: cannot write: %s", c->path, strerror(errno));
	}
	/* mkstemp's 0600 would be OUT's: a file as any other gets. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0)
		die("%s: cannot write: %s", c->tmp, strerror(errno));
	return fd;
}

static void tmp_open(struct chrome *c)
{
	int fd;

	c->fd = tmp_fd(c);
	/* The writer closes its own descriptor; c->fd names the file. */
	fd = dup(c->fd);
	if (fd < 0 ||
	    (ends_with(c->path, ".gz") ? (c->gz = gzdopen(fd, "wb")) == NULL
	     : (c->f = fdopen(fd, "w")) == NULL)) {
		if (fd >= 0)
			close(fd);
		die("%s: cannot write: %s", c->path, strerror(errno ? errno
							     : ENOMEM));
	}
}

/* The file written, named OUT. */
static void tmp_commit(struct chrome *c)
{
	char proc[64];
	unsigned i;

	if (!c->tmp) {
		c->tmp = malloc(strlen(c->path) + 32);
		if (!c->tmp)
			die("out of memory");
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", c->fd);
		for (i = 0;; i++) {
			sprintf(c->tmp, "%s.%ld.%u", c->path, (long)getpid(),
				i);
			if (linkat(AT_FDCWD, proc, AT_FDCWD, c->tmp,
				   AT_SYMLINK_FOLLOW) == 0)
				break;
			if (errno != EEXIST || i == 100) {
				free(c->tmp);
				c->tmp = NULL;
				die("%s: cannot write: %s", c->path,
				    strerror(errno));
			}
		}
	}
	if (rename(c->tmp, c->path) != 0)
		die("%s: cannot write: %s", c->path, strerror(errno));
	free(c->tmp);
	c->tmp = NULL;
}

struct chrome *chrome_open(const char *path, const char *input,
			   const char *opt)
{
	struct chrome *c = calloc(1, sizeof *c);

	if (!c)
		die("out of memory");
	c->path = path;
	out_open(&c->o, NULL, OUT_JSONL, &c->row);
	c->o.piece = 1;                 /* formatted into memory */
	c->fd = -1;
	if (strcmp(path, "-") == 0) {
		c->f = stdout;
		return c;
	}
	if (out_check(path, input, opt))
		c->f = out_file_open(path);
	else
		tmp_open(c);
	return c;
}

static enum occ_status put(void *ctx, const void *p, size_t n)
{
	struct chrome *c = ctx;

	errno = 0;
	if (c->gz ? gzwrite(c->gz, p, (unsigned)n) != (int)n
		  : fwrite(p, 1, n, c->f) != n) {
		c->write_errno = errno ? errno : EIO;
		return OCC_ERR_IO;
	}
	return OCC_OK;
}

static void put_or_die(struct chrome *c, const void *p, size_t n)
{
	if (put(c, p, n) != OCC_OK)
		die("%s: cannot write: %s", c->path, strerror(c->write_errno));
}

/* "key":v, the first member of an object; out_num the others. */
static void out_int(struct chrome *c, const char *key, int64_t v)
{
	char buf[64];

	snprintf(buf, sizeof buf, "\"%s\":%" PRId64, key, v);
	out_put(&c->o, buf, strlen(buf));
}

static void out_num(struct chrome *c, const char *key, int64_t v)
{
	LIT(c, ",");
	out_int(c, key, v);
}

static void out_dims(struct chrome *c, const char *key, const int64_t d[3])
{
	char buf[96];

	snprintf(buf, sizeof buf, ",\"%s\":[%" PRId64 ",%" PRId64 ",%"
		 PRId64 "]", key, d[0], d[1], d[2]);
	out_put(&c->o, buf, strlen(buf));
}

/* Nanoseconds as the microseconds Chrome traces count in. */
static void out_us(struct chrome *c, const char *key, int64_t ns)
{
	char buf[64];

	ns = ns < 0 ? 0 : ns;
	snprintf(buf, sizeof buf, ",\"%s\":%" PRId64 ".%03" PRId64, key,
		 ns / 1000, ns % 1000);
	out_put(&c->o, buf, strlen(buf));
}

/* "occcalc":{...}: the library's annotation of the row. */
static void out_occcalc(struct chrome *c, const struct occ_launch_row *r)
{
	c->row.n = occ_launch_annotation_fields(r, c->row.f);
	LIT(c, "\"occcalc\":");
	out_object(&c->o, r);
}

static const char *taken(struct chrome *c, size_t *len)
{
	const char *s = out_piece_take(&c->o, len);

	if (!s)
		die("out of memory");
	return s;
}

/* A device's events under its name, once. */
static void process_name(struct chrome *c, const struct occ_launch_row *r)
{
	char name[400];
	size_t i;

	for (i = 0; i < c->n_named; i++)
		if (c->named[i] == r->l->device)
			return;
	if (c->n_named == NAMED_MAX)
		return;
	c->named[c->n_named++] = r->l->device;
	LIT(c, "{\"ph\":\"M\",\"name\":\"process_name\"");
	out_num(c, "pid", r->l->device);
	snprintf(name, sizeof name, "GPU %d%s%s", r->l->device,
		 r->dev ? ": " : "", r->dev ? r->dev->d.name : "");
	LIT(c, ",\"args\":{\"name\":");
	out_put_json_string(&c->o, name);
	LIT(c, "}},\n");
}

/* A launch of occcalc's trace as a complete event, Kineto's keys in
 * its args (a viewer shows them alike). */
static void event(struct chrome *c, const struct occ_launch_row *r)
{
	const struct occ_launch_record *l = r->l;
	const char *s;
	size_t n;
	int timed;

	if (c->events)
		put_or_die(c, ",\n", 2);
	else
		put_or_die(c, HEADER, strlen(HEADER));
	process_name(c, r);
	LIT(c, "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":");
	out_put_json_string(&c->o, l->kernel);
	out_num(c, "pid", l->device);
	out_num(c, "tid", l->stream);
	/* A launch --achieved measured has no timestamps (CUPTI's record
	 * holds 0): placed after the last one timed, not at 0, which
	 * would stretch the timeline over the epoch. */
	timed = l->start_ns > 0 && l->end_ns >= l->start_ns;
	if (timed)
		c->last_end_ns = l->end_ns;
	out_us(c, "ts", timed ? l->start_ns : c->last_end_ns);
	out_us(c, "dur", occ_launch_duration_ns(l));
	LIT(c, ",\"args\":{");
	out_int(c, "device", l->device);
	out_num(c, "stream", l->stream);
	out_num(c, "correlation", l->correlation);
	out_dims(c, "grid", l->grid);
	out_dims(c, "block", l->block);
	if (l->cluster[0] >= 0)
		out_dims(c, "cluster", l->cluster);
	out_num(c, "registers per thread", l->regs);
	out_num(c, "shared memory", l->smem_total);
	if (l->static_smem >= 0)
		out_num(c, "static shared memory", l->static_smem);
	if (l->dynamic_smem >= 0)
		out_num(c, "dynamic shared memory", l->dynamic_smem);
	if (!timed)
		LIT(c, ",\"timestamps\":\"not recorded: placed after the "
		    "launch before\"");
	LIT(c, ",");
	out_occcalc(c, r);
	LIT(c, "}}");
	s = taken(c, &n);
	put_or_die(c, s, n);
	c->events++;
}

void chrome_row(struct chrome *c, const struct occ_launch_row *r)
{
	if (r->l->format != OCC_LAUNCH_FORMAT_KINETO) {
		event(c, r);
		return;
	}
	out_occcalc(c, r);
	c->text = taken(c, &c->text_len);
}

static enum occ_status members(void *ctx, const char **text, size_t *len)
{
	struct chrome *c = ctx;

	*text = c->text;
	*len = c->text ? c->text_len : 0;
	c->text = NULL;
	return OCC_OK;
}

static enum occ_status spliced(void *ctx, const void *p, size_t n)
{
	struct chrome *c = ctx;

	c->spliced = 1;
	return put(c, p, n);
}

enum occ_status chrome_read(struct chrome *c, const char *path,
			    struct occ_launch_rows *rows, occ_launch_row_fn fn,
			    void *ctx, struct occ_launch_file *fi,
			    struct occ_diag *d)
{
	struct occ_annotate_sink sink = { members, spliced, NULL };
	enum occ_status st;

	sink.ctx = c;
	occ_launch_rows_begin(rows, path, fn, ctx);
	st = occ_launches_annotate_file(path, &occ_launch_rows_callbacks, rows,
					&sink, fi, d);
	if (c->write_errno)
		die("%s: cannot write: %s", c->path, strerror(c->write_errno));
	return st;
}

void chrome_close(struct chrome *c)
{
	int failed;

	if (!c->spliced) {
		if (!c->events)
			put_or_die(c, HEADER, strlen(HEADER));
		put_or_die(c, FOOTER, strlen(FOOTER));
	}
	if (c->gz) {
		failed = gzclose(c->gz) != Z_OK;
		c->gz = NULL;
	} else {
		failed = out_file_close(c->f) != 0;
		c->f = NULL;
	}
	if (failed)
		die("%s: cannot write: %s", c->path, strerror(errno ? errno
							     : EIO));
	if (c->fd >= 0)
		tmp_commit(c);
}

int chrome_stdout(const struct chrome *c)
{
	return strcmp(c->path, "-") == 0;
}

void chrome_free(struct chrome *c)
{
	if (!c)
		return;
	if (c->gz)
		gzclose(c->gz);
	else if (c->f && c->f != stdout)
		fclose(c->f);
	if (c->tmp)
		unlink(c->tmp);
	if (c->fd >= 0)
		close(c->fd);
	free(c->tmp);
	free(c->o.mem);
	free(c);
}
