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
/* The run's id, in the names of the files and in their header records:
 * the runner reads only files that bear it in both. */
#define TRACE_ENV_RUN "OCCCALC_TRACE_RUN"
/* How long, in seconds, the runner waits for the processes the command
 * left running once it has exited (TRACE_WAIT_S without it). */
#define TRACE_ENV_WAIT "OCCCALC_TRACE_WAIT"
#define TRACE_WAIT_S 60
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
	int left_running;            /* processes still ran after the wait */
	long wait_s;                 /* OCCCALC_TRACE_WAIT or TRACE_WAIT_S */
	int status;                  /* the command's exit status */
	unsigned long achieved;      /* --achieved: launches per kernel; 0 */
	char id[24];                 /* the run's id (OCCCALC_TRACE_RUN) */
	const char *cmd;             /* the command, for messages */
	char **files;                /* the trace files written: FILE first,
	                                then by name */
	int *fds;                    /* each open, its header checked */
	size_t n_files;
};

/* Finds the library, checks --trace-out (a temporary directory without
 * it), runs argv with the library injected and waits for it and for the
 * processes it left running (a bounded wait); returns the command's exit
 * status (128 + N for signal N; 127 or 126 when it cannot be run), with
 * the trace files this run wrote open in r. With --trace-out FILE they
 * are renamed to their names (FILE, FILE.PID) only now; a temporary
 * directory is removed before they are read, so that no exit leaves it
 * behind. Usage errors and a missing library end the run before the
 * command starts. */
int trace_run(struct trace_run *r, const char *trace_out,
	      char *const *argv);
/* Closes the files, removes a temporary directory still there (the
 * command could not run) and frees the list. */
void trace_run_free(struct trace_run *r);

#endif
