/* launches.h - --launches (mode_launches.c): the launches of traces, a
 * row each, and the per-kernel summary under them (launches_summary.c).
 * Internal to the command line. */
#ifndef OCC_CLI_LAUNCHES_H
#define OCC_CLI_LAUNCHES_H

#include "cli.h"

/* Launch rows and the devices they were modelled on are the library's
 * (occcalc/launch_rows.h: struct occ_launch_row, occ_launch_dev). */

/* ---- The summary (launches_summary.c) ---- */

struct launch_summary;

/* by_op: rows by operator (--by op), not kernel; wide: full names. */
struct launch_summary *launch_summary_new(int by_op, int wide);
/* Counts a file read. */
void launch_summary_file(struct launch_summary *s);
/* Counts a row (modelled or not) under its kernel. */
void launch_summary_add(struct launch_summary *s, const struct occ_launch_row *r);
/* Kernels by GPU time, and the headroom of the top ones. */
/* achieved_top: the kernels the achieved column is shown for, by GPU
 * time (0: all). */
void launch_summary_print(FILE *f, struct launch_summary *s,
			  size_t achieved_top);
/* Each group as a row of occ_launch_summary_kind to out (--summary). */
void launch_summary_rows(struct out *out, struct launch_summary *s);
void launch_summary_free(struct launch_summary *s);

/* ---- --annotate, --chrome-trace (chrome.c) ---- */

struct chrome;

/* OUT ("-": standard output; gzip when it ends in .gz) checked and
 * opened as a temporary file beside it: not input (the file read, or
 * NULL), not a FIFO. opt names the option in messages. */
struct chrome *chrome_open(const char *path, const char *input,
			   const char *opt);
/* A launch read: a Kineto trace's members kept for its args, or an
 * occcalc trace's launch written as an event. */
void chrome_row(struct chrome *c, const struct occ_launch_row *r);
/* Reads path into rows as occ_launch_rows_file does, a Kineto trace
 * written annotated through c as it is read. */
enum occ_status chrome_read(struct chrome *c, const char *path,
			    struct occ_launch_rows *rows, occ_launch_row_fn fn,
			    void *ctx, struct occ_launch_file *fi,
			    struct occ_diag *d);
/* Ends the trace and renames it to OUT; exits where that fails. */
void chrome_close(struct chrome *c);
int chrome_stdout(const struct chrome *c);
/* Frees c, the temporary file removed unless renamed. */
void chrome_free(struct chrome *c);
/* ---- Inputs and --gpu (launches_inputs.c) ---- */

/* The files --launches reads, its arguments made into files. */
struct launch_inputs {
	char **names;
	size_t n, cap;
	char **notes;                      /* what a directory held */
	size_t n_notes;
};

/* --launches' arguments into in: a directory into its trace files in
 * name order (one line says how many), '-' standard input (once). */
void launches_inputs(const struct options *o, struct launch_inputs *in);
void launches_inputs_free(struct launch_inputs *in);
/* The lines launches_inputs kept (a directory's files), once every
 * file is known to open. */
void launches_inputs_say(struct launch_inputs *in);
/* "<stdin>" for '-', as every message names it. */
const char *launches_input_name(const char *path);
/* --gpu NAME's GPU as a device record (a usage error where the list
 * gives no SM count). */
void launches_gpu_device(struct session *s, struct occ_launch_device *d);
/* --compare: the rows of the run launches_prepare() made go to fn, not
 * to the output; what_if 0: --gpu models only the launches whose trace
 * describes no device (the old side is the GPU it ran on). */
void launches_sink(struct session *s,
		   void (*fn)(void *ctx, const struct occ_launch_row *r), void *ctx,
		   int what_if);
/* --launches NEW --compare OLD (launches_compare.c). */
int launches_compare(struct session *s);
extern const struct occ_row_kind kind_launch_compare;

/* What a file's read said that ends the run (no trace at all, no
 * kernel events) or that its rows cannot show. */
void launches_read_said(const struct options *o, const char *path,
			enum occ_status st, const struct occ_launch_file *fi,
			const struct occ_diag *d);
/* What the summary says beside --gpu's GPU; "" for a traced device. */
const char *launches_named_note(const struct occ_launch_dev *ld);

/* Checks the options a report uses (--fields, --check, --kernel: usage
 * errors) and holds the report in the session: --trace calls it before
 * the command runs, so that a typo costs no run. */
void launches_prepare(struct session *s);
/* Reads the trace files (occcalc's or Kineto's) and prints their rows or
 * the summary as the options say, after launches_prepare(): --launches
 * FILE..., and what --trace prints of the files the traced command wrote
 * once it has exited. fds (may be NULL): the files already open, read
 * from where they are and named files[i]. The exit status (--check's,
 * where given); launches (may be NULL): how many were read. */
int launches_report(struct session *s, const char *const *files,
		    const int *fds, int n, uint64_t *launches);

#endif
