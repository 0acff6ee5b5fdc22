/*
 * trace.h - occcalc's CUPTI injection library (src/trace/): loaded by the
 * CUDA driver through CUDA_INJECTION64_PATH into every process of a
 * traced program, it writes each kernel launch CUPTI reports to a file
 * of JSON Lines (docs/trace-format.md) as CUPTI hands the records over.
 * Nothing here is part of libocccalc: the library reads what this writes.
 */
#ifndef OCC_TRACE_H
#define OCC_TRACE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The environment the runner (occcalc --trace) sets: where to write. A
 * directory gets occcalc-trace.PID.jsonl; a file is written by the first
 * process that starts CUDA, FILE.PID by any other. Unset: the current
 * directory. */
#define TRACE_ENV_OUT "OCCCALC_TRACE_OUT"
/* The run's id: with it the names bear it (occcalc-trace.RUN.PID.jsonl;
 * FILE.RUN, FILE.RUN.PID, which the runner renames once the command has
 * exited) and so does the header, so that the runner reads only what its
 * own run wrote (docs/trace-format.md). */
#define TRACE_ENV_RUN "OCCCALC_TRACE_RUN"
/* Set (to anything but 0) by make bench-trace alone: CUPTI's kernel
 * activity enabled and its buffers dropped unread, the floor under
 * what tracing can cost (docs/trace-overhead.md). */
#define TRACE_ENV_FLOOR "OCCCALC_TRACE_FLOOR"
/* "callbacks": the launches are taken from CUPTI's callback API on the
 * launching thread (callbacks.c), without GPU timestamps or the carveout
 * run; otherwise from its kernel activity records. */
#define TRACE_ENV_MODE "OCCCALC_TRACE_MODE"
#define TRACE_RUN_MAX 64

#define TRACE_DEVICES_MAX 64

/* The file a process writes: records are formatted into buf and written
 * whole lines at a time, so that a process killed midway leaves a file
 * that reads to its last complete line. */
struct trace_file {
	int fd;
	pid_t owner;             /* the process that opened it */
	char *buf;
	size_t len, cap;
	int failed;              /* a write failed: told once, then silent */
	char run[TRACE_RUN_MAX + 1];   /* OCCCALC_TRACE_RUN, or "" */
	char path[4096];
};

int trace_file_open(struct trace_file *f);
/* Appends bytes; writes the buffer out when it holds more than half its
 * room (only whole records are appended, so the file ends on a line). */
void trace_file_put(struct trace_file *f, const char *s, size_t n);
void trace_file_flush(struct trace_file *f);
void trace_file_close(struct trace_file *f);

/* A line being formatted: a fixed buffer, JSON by pieces. */
struct line {
	char *p;
	size_t len, cap;
};
void line_raw(struct line *l, const char *s);
void line_int(struct line *l, const char *key, int64_t v);
void line_str(struct line *l, const char *key, const char *v);
void line_triple(struct line *l, const char *key, int64_t x, int64_t y,
		 int64_t z);
/* s as a JSON string's contents (without the quotes). */
void line_escaped(struct line *l, const char *s);

/* The device line of device id (CUDA's ordinal, as CUPTI's deviceId),
 * asked of the driver the program loaded; 0 when it could not be asked
 * (the line then says why). */
int trace_device_line(uint32_t id, struct line *l);

/* A kernel's names as a JSON fragment, "kernel":"...","mangled":"...",
 * kept per name: CUPTI hands the same pointer for every launch of a
 * function, and demangling each launch would cost more than the rest. */
struct name_cache;
struct name_cache *name_cache_new(void);
const char *name_cache_get(struct name_cache *c, const char *mangled);
void name_cache_free(struct name_cache *c);

/* A launch as the callback API sees it, at the launch call. */
struct api_launch {
	uint32_t device, context;
	uint64_t stream, correlation;
	unsigned grid[3], block[3], cluster[3];
	int regs, static_smem, smem, local;
	int optin;                       /* dynamic smem above 48 KB */
	const char *launch_type;
	const char *op;                  /* nvtx.c's range, or NULL */
};

/* inject.c: writes the launch of the function named mangled (its device
 * described first), under the tracer's lock; nothing where this process
 * is not traced. */
void trace_api_launch(const char *mangled, const struct api_launch *a);
/* callbacks.c: subscribes to the driver's launch calls; 0, or -1 with
 * a line on stderr. */
int callbacks_start(void);
/* Enables the driver's launch calls on a CUPTI subscriber (its handle). */
void callbacks_enable_launches(void *subscriber);

/* nvtx.c: the NVTX range each launch call is made in, as "op". */
/* Points NVTX_INJECTION64_PATH at CUPTI, unless set already. */
void nvtx_inject(void);
/* An NVTX callback of CUPTI's (its id and CUpti_NvtxData). */
void nvtx_callback(uint32_t id, const void *data);
/* The innermost range open on this thread, or NULL. */
const char *nvtx_current(void);
/* A launch call's range, kept by its correlation id until its record. */
void nvtx_note(uint32_t correlation, const char *name);
const char *nvtx_take(uint32_t correlation);
/* Activity mode: a subscriber of its own to NVTX and the launch calls;
 * 0, or -1 where CUPTI's callbacks are taken. */
int nvtx_start(void);
#endif
