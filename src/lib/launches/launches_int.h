/* launches_int.h - what the launch readers share (internal). */
#ifndef OCC_LAUNCHES_INT_H
#define OCC_LAUNCHES_INT_H

#include <sys/types.h>

#include "util.h"

/* The longest JSON string a Kineto trace may hold: the reader keeps a
 * token whole, so this bounds what it holds. Call stacks
 * (with_stack=True) are the longest strings. */
#define LAUNCH_TOKEN_MAX (16u << 20)

/* ---- The read: its state, as the readers push records out ---- */

struct launch_read {
	const struct occ_launch_callbacks *cb;
	void *ctx;
	struct occ_launch_file *info;
	struct occ_diag *diag;
	/* Devices described so far; a launch names one by its id. */
	struct occ_launch_device dev[OCC_LAUNCH_DEVICES_MAX];
	size_t n_dev;
	uint64_t offset;            /* uncompressed bytes before the chunk */
	/* A Kineto trace's operators by External id (ops.c); collect: the
	 * first pass, which fills it and delivers nothing. */
	struct launch_ops *ops;
	int collect;
	off_t start;                /* where the file's text starts; -1: it
	                               cannot be read again (a pipe) */
	int err_no;                 /* of an OCC_ERR_IO */
	/* Kineto: the kernel event being delivered, for annotate.c: the
	 * byte of its args' closing '}', and whether they hold an
	 * "occcalc" member already. */
	uint64_t args_close;
	int args_annotated;
	/* A Kineto trace whose devices come after its events is read
	 * again from start (rereadable: a regular file), devices first:
	 * then the launches delivered before the stop (skip) are not
	 * delivered twice. */
	int fd;                     /* the input, from start */
	int devices_first;          /* the devices pass was made */
	uint64_t skip;
};

/* occ_launches_read_fd with the read's state given (zero, or what a
 * caller set beside the rest: annotate.c reads args_close). */
OCC_INTERNAL enum occ_status launch_read_with(struct launch_read *r, int fd,
		const char *name, const struct occ_launch_callbacks *cb,
		void *ctx, struct occ_launch_file *info,
		struct occ_diag *diag);

/* Why the start of an input p (n bytes) is no trace at all, in words
 * (an Nsight Compute CSV, a JSON array, text), or NULL where it starts
 * a JSON object. */
OCC_INTERNAL const char *launch_not_trace(const unsigned char *p, size_t n);
/* Whether s is a top-level key (top) or an event category only
 * PyTorch's profiler writes. */
OCC_INTERNAL int launch_pytorch_mark(const char *s, int top);
struct occ_zin;
/* One pass over a Kineto trace: devices and launches, or (devices_only)
 * the devices alone; *restart: stopped at a launch whose device may be
 * described after the events (kineto_passes.c reads it again). */
OCC_INTERNAL enum occ_status kineto_pass(struct launch_read *r,
					 struct occ_zin *z, int devices_only,
					 int *restart);

/* A problem at the record that starts at byte offset (line, where the
 * format has lines; 0 else): sets diag, returns st. */
OCC_INTERNAL enum occ_status launch_fail(struct launch_read *r,
					 enum occ_status st, int64_t line,
					 uint64_t offset, const char *what);
/* Delivers a device record (a second one for an id replaces it). */
OCC_INTERNAL enum occ_status launch_device(struct launch_read *r,
					   const struct occ_launch_device *d);
/* Delivers a launch, with its device if described. */
OCC_INTERNAL enum occ_status launch_deliver(struct launch_read *r,
					    const struct occ_launch_record *l);
OCC_INTERNAL void launch_defaults(struct occ_launch_record *l,
				  enum occ_launch_format f);

/* The failure the JSON reader reported, into diag. */
struct occ_json_err;
OCC_INTERNAL enum occ_status launch_json_fail(struct launch_read *r,
					      const struct occ_json_err *err);

/* The input's own failure (zin.h: I/O, a gzip fault), at its raw byte. */
struct occ_zin;
OCC_INTERNAL enum occ_status launch_input_fail(struct launch_read *r,
					       const struct occ_zin *z);

/* ---- A Kineto trace's operators (ops.c) ---- */

struct launch_ops;
OCC_INTERNAL struct launch_ops *ops_new(void);
OCC_INTERNAL void ops_free(struct launch_ops *o);
/* A cpu_op: its External id, name, "Input Dims" as JSON text (or NULL),
 * and where and when it started. An id kept before is kept as it was. */
OCC_INTERNAL void ops_add_op(struct launch_ops *o, int64_t ext,
			     const char *name, const char *shapes,
			     int64_t pid, int64_t tid, int64_t ts);
/* A python_function event "nn.Module: NAME". */
OCC_INTERNAL void ops_add_module(struct launch_ops *o, const char *name,
				 int64_t pid, int64_t tid, int64_t ts,
				 int64_t dur);
/* Gives each operator the innermost module open on its thread when it
 * started: once, after the operators and modules are added. */
OCC_INTERNAL void ops_resolve(struct launch_ops *o);
/* The operator of External id ext: 1, its strings (shapes and module
 * NULL where none); 0 where not kept. */
OCC_INTERNAL int ops_find(const struct launch_ops *o, int64_t ext,
			  const char **name, const char **shapes,
			  const char **module);
/* Operators not kept (past the bounds, or memory). */
OCC_INTERNAL uint64_t ops_dropped(const struct launch_ops *o);
OCC_INTERNAL uint64_t ops_kept(const struct launch_ops *o);

/* Bytes read at once. */
#define LAUNCH_CHUNK (1u << 16)

/* ---- The two formats, read from the input (zin.h) ---- */

OCC_INTERNAL enum occ_status trace_read(struct launch_read *r,
					struct occ_zin *z);
OCC_INTERNAL enum occ_status kineto_read(struct launch_read *r,
					 struct occ_zin *z);

#endif
