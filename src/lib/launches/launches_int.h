/* launches_int.h - what the launch readers share (internal). */
#ifndef OCC_LAUNCHES_INT_H
#define OCC_LAUNCHES_INT_H

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
	int err_no;                 /* of an OCC_ERR_IO */
	/* A Kineto trace whose devices come after its events is read
	 * again from start (rereadable: a regular file), devices first:
	 * then the launches delivered before the stop (skip) are not
	 * delivered twice. */
	int fd;
	int64_t start;              /* where the input starts; -1: a pipe */
	int devices_first;          /* the devices pass was made */
	uint64_t skip;
};

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

/* Bytes read at once. */
#define LAUNCH_CHUNK (1u << 16)

/* ---- The two formats, read from the input (zin.h) ---- */

OCC_INTERNAL enum occ_status trace_read(struct launch_read *r,
					struct occ_zin *z);
OCC_INTERNAL enum occ_status kineto_read(struct launch_read *r,
					 struct occ_zin *z);

#endif
