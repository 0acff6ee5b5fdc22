/* trace.h - occcalc --trace (trace_run.c, mode_trace.c): a command run
 * with the CUPTI injection library (src/trace/), and the trace files its
 * processes wrote, handed to --launches' summary. */
#ifndef OCC_CLI_TRACE_H
#define OCC_CLI_TRACE_H

#include <limits.h>
#include <stddef.h>
#include <time.h>

/* The variables the injection library reads (src/trace/trace.h). */
#define TRACE_ENV_INJECTION "CUDA_INJECTION64_PATH"
#define TRACE_ENV_OUT "OCCCALC_TRACE_OUT"
/* --achieved: the launches of each kernel to measure (src/trace/achieved.h) */
#define TRACE_ENV_ACHIEVED "OCCCALC_ACHIEVED"
/* Where occcalc looks for the injection library before its own. */
#define TRACE_ENV_LIB "OCCCALC_TRACE_LIB"

/* A traced run: where its files go, and those found after it. Held by
 * the session (struct session's trace), so that a failure while they are
 * read frees them as a finished run does. */
struct trace_run {
	char lib[PATH_MAX];          /* the injection library */
	char out[PATH_MAX];          /* OCCCALC_TRACE_OUT: a dir or a file */
	int out_is_dir;
	int temp_dir;                /* out made for this run: removed after */
	int not_run;                 /* the command could not be started */
	int status;                  /* the command's exit status */
	unsigned long achieved;      /* --achieved: launches per kernel; 0 */
	struct timespec start;       /* files older than this are not ours */
	char **files;                /* the trace files written, sorted */
	size_t n_files;
};

/* Finds the library, prepares --trace-out (a temporary directory
 * without it), runs argv with the library injected and waits; returns
 * the command's exit status (128 + N for signal N; 127 or 126 when it
 * cannot be run), with the trace files it wrote in r. Usage errors and
 * a missing library end the run. */
int trace_run(struct trace_run *r, const char *trace_out,
	      char *const *argv);
/* Removes a temporary directory and frees the list. */
void trace_run_free(struct trace_run *r);

#endif
