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
	/* Kineto: the kernel event being delivered, for annotate.c: the
	 * byte of its args' closing '}', and whether they hold an
	 * "occcalc" member already. */
	uint64_t args_close;
	int args_annotated;
};

/* occ_launches_read_fd with the read's state given (zero, or what a
 * caller set beside the rest: annotate.c reads args_close). */
OCC_INTERNAL enum occ_status launch_read_with(struct launch_read *r, int fd,
		const char *name, const struct occ_launch_callbacks *cb,
		void *ctx, struct occ_launch_file *info,
		struct occ_diag *diag);

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
