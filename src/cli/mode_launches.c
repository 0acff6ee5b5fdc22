/*
 * mode_launches.c - --launches FILE...: the kernel launches a program
 * made, from occcalc's trace files (--trace) or PyTorch profiler (Kineto)
 * traces, each computed on the GPU it ran on. One row per launch (-f
 * csv|json|jsonl, --fields), or a summary per kernel (text). The
 * library makes the rows as the files stream (occ_launch_rows_file):
 * nothing is held per launch; here are the options, messages and notes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launches_run.h"

/* The library's (occcalc/launch_rows.h); --achieved adds its measure. */
#define DEFAULT_FIELDS OCC_LAUNCH_FIELDS
#define DEFAULT_FIELDS_PART OCC_LAUNCH_FIELDS_PART

/* ---- The read ---- */

/* Each row as the library makes it: to --compare, the summary or the
 * output, and to the trace --annotate or --chrome-trace writes. */
static enum occ_status on_row(void *ctx, const struct occ_launch_row *r)
{
	struct launch_run *run = ctx;

	if (run->chrome)
		chrome_row(run->chrome, r);
	if (run->sink)
		run->sink(run->sink_ctx, r);
	else if (run->text) {
		launch_summary_add(run->sum, r);
		if (run->s->checks)
			check_judge(run->s->checks, r);
	} else
		out_row(&run->out, r);
	return OCC_OK;
}

/* What a status means in a launch file, for its one line. */
static const char *launch_error(enum occ_status st)
{
	switch (st) {
	case OCC_ERR_SYNTAX: return "not JSON";
	case OCC_ERR_MISSING_KEY: return "missing";
	case OCC_ERR_BAD_VALUE: return "not a value of its type";
	case OCC_ERR_RANGE: return "out of range";
	case OCC_ERR_DUPLICATE_KEY: return "given twice";
	case OCC_ERR_UNSUPPORTED: return "a trace format this occcalc does "
				  "not read (version 1 only)";
	case OCC_ERR_CORRUPT: return "gzip stream corrupt";
	default: return occ_strerror(st);
	}
}

static _Noreturn void read_failed(enum occ_status st, const struct occ_diag *d)
{
	const char *what = launch_error(st);

	if (st == OCC_ERR_IO || st == OCC_ERR_NOT_REGULAR ||
	    st == OCC_ERR_LINE_TOO_LONG)
		die_data(st, d, st == OCC_ERR_IO ? errno : 0, "");
	/* The gzip stream's own fault, at its byte of the file as it is. */
	if (st == OCC_ERR_CORRUPT && d->key[0])
		die("%s: byte %" PRIu64 " of the file: %s", d->file, d->offset,
		    d->key);
	/* The JSON reader's words say what is wrong. */
	if (st == OCC_ERR_SYNTAX && d->line > 0 && d->key[0])
		die("%s:%d: %s", d->file, d->line, d->key);
	if (d->line > 0 && d->key[0])
		die("%s:%d: %s: %s", d->file, d->line, d->key, what);
	if (d->line > 0)
		die("%s:%d: %s", d->file, d->line, what);
	if (d->offset && d->key[0])
		die("%s: byte %" PRIu64 ": %s: %s", d->file, d->offset, d->key,
		    what);
	if (d->key[0])
		die("%s: %s: %s", d->file, d->key, what);
	die("%s: %s", d->file, what);
}

/* What a file's read said beyond its launches: one line each. */
static void file_notes(const char *path, const struct occ_launch_file *fi)
{
	if (fi->format == OCC_LAUNCH_FORMAT_KINETO)
		warn("%s: a Kineto trace records no cluster dimensions, no "
		     "static/dynamic split of shared memory and no carveout: "
		     "its launches are modelled without clusters, at the SM's "
		     "largest carveout", path);
	if (fi->kernels_left_out)
		warn("%s: %" PRIu64 " kernel event%s left out: not a complete "
		     "event (\"ph\": \"X\") of category \"kernel\"", path,
		     fi->kernels_left_out, plural(fi->kernels_left_out));
	if (fi->estimates_out_of_range)
		warn("%s: %" PRIu64 " launch%s Kineto estimate of occupancy is "
		     "not 0 to 100 %%: not taken", path,
		     fi->estimates_out_of_range,
		     fi->estimates_out_of_range == 1 ? "'s" : "es'");
	if (fi->kernels_without_op && fi->ops_dropped)
		warn("%s: %" PRIu64 " launch%s no op: %" PRIu64 " cpu_op "
		     "events past the %u a read keeps were not kept", path,
		     fi->kernels_without_op, fi->kernels_without_op == 1
		     ? " has" : "es have", fi->ops_dropped,
		     OCC_LAUNCH_OPS_MAX);
	else if (fi->kernels_without_op && fi->ops)
		warn("%s: %" PRIu64 " launch%s no op: no cpu_op event of "
		     "their External id", path, fi->kernels_without_op,
		     fi->kernels_without_op == 1 ? " has" : "es have");
	if (fi->format == OCC_LAUNCH_FORMAT_KINETO && fi->cut_short)
		warn("%s: cut short at byte %" PRIu64 " of its JSON (inside "
		     "traceEvents): %" PRIu64 " launch%s read up to there",
		     path, fi->bytes, fi->launches,
		     fi->launches == 1 ? "" : "es");
	if (fi->format != OCC_LAUNCH_FORMAT_OCCCALC)
		return;
	if (!fi->complete)
		warn("%s: cut short (no end record): %" PRIu64 " launch%s read "
		     "up to its last whole line", path, fi->launches,
		     fi->launches == 1 ? "" : "es");
	if (fi->dropped > 0)
		warn("%s: CUPTI dropped %" PRId64 " record%s: launches missing "
		     "from the trace", path, fi->dropped, plural(fi->dropped));
	if (fi->after_end)
		warn("%s: %" PRIu64 " record%s after its end record (a trace "
		     "appended to): read, not in the end record's counts",
		     path, fi->after_end, plural(fi->after_end));
	if (fi->complete && fi->declared >= 0 && !fi->after_end &&
	    (uint64_t)fi->declared != fi->launches)
		warn("%s: its end record counts %" PRId64 " launches, the file "
		     "holds %" PRIu64, path, fi->declared, fi->launches);
	if (fi->skipped)
		warn("%s: %" PRIu64 " record%s of a type this occcalc does not "
		     "know skipped", path, fi->skipped, plural(fi->skipped));
}

/* fd >= 0: the file already open (--trace's, checked as its run's). */
static void read_one(struct launch_run *run, const char *path, int fd)
{
	struct occ_launch_file fi = { 0 };
	struct occ_diag d;
	enum occ_status st;

	if (fd < 0 && strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	path = launches_input_name(path);
	run->file = path;
	st = fd >= 0 ? occ_launch_rows_fd(run->rows, fd, path, on_row, run,
					  &fi, &d) :
	     run->chrome ? chrome_read(run->chrome, path, run->rows, on_row,
				       run, &fi, &d) :
			   occ_launch_rows_file(run->rows, path, on_row, run,
						&fi, &d);
	launches_read_said(run->s->o, path, st, &fi, &d);
	launch_devices_stopped(run);
	if (st != OCC_OK)
		read_failed(st, &d);
	if (run->sum)
		launch_summary_file(run->sum);
	file_notes(path, &fi);
}

/* A file named twice (or by two names) would count its launches twice
 * in every figure: refused before anything is read. */
static void same_file_twice(const char *const *files, int i,
			    const struct stat *sb, struct stat *seen)
{
	int j;

	for (j = 0; j < i; j++)
		if (seen[j].st_dev == sb->st_dev &&
		    seen[j].st_ino == sb->st_ino) {
			free(seen);
			die_usage("--launches: '%s' and '%s' are the same file: "
				  "its launches would count twice", files[j],
				  files[i]);
		}
	seen[i] = *sb;
}

/* Rows are judged by --check as they are read, so a file that cannot be
 * opened is refused before the first is read: found after, its line
 * would follow the failed rows' lines. */
static void files_openable(const char *const *files, int n)
{
	struct stat sb, *seen = calloc((size_t)n, sizeof *seen);
	struct occ_diag d;
	enum occ_status st = OCC_OK;
	int i, fd, e = 0;

	if (!seen)
		die("out of memory");
	for (i = 0; i < n && st == OCC_OK; i++) {
		if (strcmp(files[i], "-") == 0)
			continue;               /* read once, as it comes */
		memset(&d, 0, sizeof d);
		snprintf(d.file, sizeof d.file, "%s", files[i]);
		fd = open(files[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		e = fd < 0 ? errno : fstat(fd, &sb) != 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		st = e ? OCC_ERR_IO : !S_ISREG(sb.st_mode) ? OCC_ERR_NOT_REGULAR
		     : OCC_OK;
		if (st == OCC_OK)
			same_file_twice(files, i, &sb, seen);
	}
	free(seen);
	errno = e;
	if (st != OCC_OK)
		read_failed(st, &d);
}


void launches_free(struct launch_run *run)
{
	if (!run)
		return;
	occ_launch_rows_free(run->rows);
	if (run->have_re)
		regfree(&run->re);
	launches_inputs_free(&run->in);
	launch_summary_free(run->sum);
	chrome_free(run->chrome);
	free(run);
}


/* --summary: its rows written through the summary's fields, unless the
 * text summary is asked (text without --fields); launch rows are still
 * what --check judges. */
static void summary_rows_prepare(struct launch_run *run)
{
	const struct options *o = run->s->o;

	if (o->format == OUT_TEXT && !o->fields)
		return;
	fieldsel_make(&run->sel, &occ_launch_summary_kind, o->fields,
		      o->by && strcmp(o->by, "op") == 0
		      ? OCC_LAUNCH_SUMMARY_FIELDS_OP
		      : OCC_LAUNCH_SUMMARY_FIELDS);
	out_open(&run->out, stdout, o->format, &run->sel);
	out_style(&run->out, o->format_style);
	run->summary_rows = 1;
}

/* Everything that can refuse the options, done before any file is read
 * (and, for --trace, before the command runs). */
static void run_prepare(struct session *s, struct launch_run *run)
{
	const struct options *o = s->o;
	char msg[256];
	int e;

	run->s = s;
	if (o->annotate && o->chrome_trace)
		die_usage("--annotate and --chrome-trace: one trace is written");
	if (o->annotate || o->chrome_trace)
		run->chrome = chrome_open(o->annotate ? o->annotate
					  : o->chrome_trace, o->launches,
					  o->annotate ? "--annotate"
					  : "--chrome-trace");
	/* That trace on standard output: no rows nor summary beside it. */
	run->quiet = run->chrome && chrome_stdout(run->chrome);
	run->text = (o->format == OUT_TEXT && !o->fields) || run->quiet ||
		    o->summary;
	if (o->kernel_re) {
		e = regcomp(&run->re, o->kernel_re, REG_EXTENDED | REG_NOSUB);
		if (e) {
			regerror(e, &run->re, msg, sizeof msg);
			die_usage("--kernel: '%s': %s", o->kernel_re, msg);
		}
		run->have_re = 1;
	}
	/* What the callbacks use, found before any file is read. */
	session_tables(s);
	session_gpus(s);
	launches_rows_open(run, 0);
	if (o->compare && o->summary)
		die_usage("--summary and --compare: --compare's rows are its "
			  "own");
	if (o->compare)
		return;               /* its rows are launches_compare.c's */
	if (o->by && strcmp(o->by, "kernel") != 0 && strcmp(o->by, "op") != 0)
		die_usage("--by %s: kernel or op", o->by);
	if (o->summary)
		summary_rows_prepare(run);
	else
		fieldsel_make(&run->sel, &occ_launch_kind, o->fields,
			      o->achieved ? (o->partition.given
					     ? DEFAULT_FIELDS_PART
					     ",achieved_occupancy_pct"
					     : DEFAULT_FIELDS
					     ",achieved_occupancy_pct")
			      : o->partition.given ? DEFAULT_FIELDS_PART
			      : DEFAULT_FIELDS);
	if (run->text) {
		check_prepare(s, &occ_launch_kind);
		run->sum = launch_summary_new(o->by && strcmp(o->by, "op") == 0,
					      o->wide);
		if (!run->sum)
			die("out of memory");
		return;
	}
	out_open(&run->out, stdout, o->format, &run->sel);
	out_style(&run->out, o->format_style);
	check_attach(s, &run->out, &occ_launch_kind);
}

void launches_sink(struct session *s,
		   void (*fn)(void *ctx, const struct occ_launch_row *r), void *ctx,
		   int what_if)
{
	s->launches->sink = fn;
	s->launches->sink_ctx = ctx;
	if (!what_if && s->o->gpu)
		launches_rows_open(s->launches, 1);
}

void launches_prepare(struct session *s)
{
	struct launch_run *run = calloc(1, sizeof *run);

	if (!run)
		die("out of memory");
	/* Held by the session, so that a file that fails midway is freed
	 * with it (cli_free). */
	launches_free(s->launches);
	s->launches = run;
	run_prepare(s, run);
}

int launches_report(struct session *s, const char *const *files,
		    const int *fds, int n, uint64_t *launches)
{
	struct launch_run *run = s->launches;
	int i;

	if (!fds)
		files_openable(files, n);
	launches_inputs_say(&run->in);
	for (i = 0; i < n; i++)
		read_one(run, files[i], fds ? fds[i] : -1);
	if (run->chrome)
		chrome_close(run->chrome);
	if (run->quiet || run->sink)
		;
	else if (run->summary_rows) {
		launch_summary_rows(&run->out, run->sum);
		out_close(&run->out);
	} else if (run->text)
		launch_summary_print(stdout, run->sum, s->o->achieved ?
				     (size_t)s->o->achieved_top : 0);
	else
		out_close(&run->out);
	launch_devices_notes(run);
	if (launches)
		*launches = occ_launch_rows_stats(run->rows)->launches;
	launches_free(run);
	s->launches = NULL;
	return 0;
}

static int run_launches(struct session *s)
{
	const struct options *o = s->o;
	uint64_t launches = 0;
	int n, status;

	if (o->compare)
		return launches_compare(s);
	if (o->n_more_launches && (o->annotate || o->chrome_trace))
		die_usage("%s writes the trace of one file: %d given",
			  o->annotate ? "--annotate" : "--chrome-trace",
			  1 + o->n_more_launches);
	launches_prepare(s);
	launches_inputs(o, &s->launches->in);
	n = (int)s->launches->in.n;
	status = launches_report(s, (const char *const *)s->launches->in.names,
				 NULL, n, &launches);
	/* Nothing to report is a failure, as for --trace and --kernels: a
	 * script must not take an empty report for a good one. */
	if (!launches) {
		say("--launches: no launch in %d file%s%s", n, n == 1 ? "" : "s",
		    o->kernel_re ? " that --kernel matches" : "");
		return 1;
	}
	return status;
}

const struct mode mode_launches = {
	.name = "--launches",
	.run = run_launches,
	.tables = TABLES_READ,
	.kinds = { &occ_launch_kind, &kind_launch_compare,
		   &occ_launch_summary_kind },
};
