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
 * the runner reads no file whose header names another run. */
#define TRACE_ENV_RUN "OCCCALC_TRACE_RUN"
/* How long, in seconds, the runner waits for the processes the command
 * left running once it has exited (TRACE_WAIT_S without it). */
#define TRACE_ENV_WAIT "OCCCALC_TRACE_WAIT"
/* --trace-calls: "callbacks" (src/trace/callbacks.c) */
#define TRACE_ENV_MODE "OCCCALC_TRACE_MODE"
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
	char dest[PATH_MAX];         /* --trace-out, absolute; "" without */
	int out_is_dir;              /* it is a directory */
	char run_dir[PATH_MAX];      /* the run's own directory */
	int have_run_dir;            /* made, not yet removed */
	char out[PATH_MAX];          /* OCCCALC_TRACE_OUT: run_dir, or
	                                FILE's name in it */
	int not_run;                 /* the command could not be started */
	int left_running;            /* processes still ran after the wait */
	long wait_s;                 /* OCCCALC_TRACE_WAIT or TRACE_WAIT_S */
	int status;                  /* the command's exit status */
	unsigned long achieved;      /* --achieved: launches per kernel; 0 */
	int calls;                   /* --trace-calls */
	char id[24];                 /* the run's id (OCCCALC_TRACE_RUN) */
	const char *cmd;             /* the command, for messages */
	char **files;                /* the trace files written: FILE first,
	                                then by name */
	int *fds;                    /* each open, its header checked */
	size_t n_files;
};

/* Finds the library, checks --trace-out and makes the run's own
 * directory (trace_files.c), runs argv with the library injected and
 * waits for it and for the processes it left running (a bounded wait);
 * returns the command's exit status (128 + N for signal N; 127 or 126
 * when it cannot be run), with the trace files this run wrote open in r,
 * under the names they take in --trace-out (FILE, FILE.PID, or
 * DIR/occcalc-trace.ID.PID.jsonl): an older FILE is replaced only by a
 * new trace. The run's directory is removed before they are read, so
 * that no exit leaves it behind. Usage errors and a missing library end
 * the run before the command starts. */
int trace_run(struct trace_run *r, const char *trace_out,
	      char *const *argv);
/* Closes the files, removes the run's directory if still there (the
 * command could not run) and frees the list. */
void trace_run_free(struct trace_run *r);

/* trace_files.c: checks --trace-out (before the command), makes the
 * run's id and directory, and sets r->out. */
void trace_out_prepare(struct trace_run *r, const char *trace_out);
/* Once the command has exited: opens the files of the run's directory,
 * gives them their names in --trace-out, and removes the directory
 * (kept, and said, where processes still run). */
void trace_out_collect(struct trace_run *r);
/* Removes the run's directory (its files too without --trace-out). */
void trace_out_remove(struct trace_run *r);

#endif
