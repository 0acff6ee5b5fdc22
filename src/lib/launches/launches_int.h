/* launches_int.h - what the launch readers share (internal). */
#ifndef OCC_LAUNCHES_INT_H
#define OCC_LAUNCHES_INT_H

#include <yajl/yajl_parse.h>

#include "util.h"

/* The longest JSON token (a string, a number) a Kineto trace may hold:
 * yajl keeps a token that spans the bytes it is given, so this bounds
 * what it holds. Call stacks (with_stack=True) are the longest strings. */
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
};

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

/* ---- JSON numbers as yajl hands them over (text) ---- */

/* A JSON integer into *out: -1 for a number with a fraction or exponent,
 * -2 for one beyond int64, 0 when it fits. */
OCC_INTERNAL int json_int(const char *s, size_t n, int64_t *out);
/* Any JSON number; -1 if strtod refuses it or it is too long. */
OCC_INTERNAL int json_double(const char *s, size_t n, double *out);
/* Microseconds written as a decimal (Kineto's ts and dur, "12.345") into
 * nanoseconds, exactly to three decimals; -2 out of range. */
OCC_INTERNAL int json_us_to_ns(const char *s, size_t n, int64_t *out);

/* ---- A streaming JSON document (yajl), bounded ---- */

struct json_stream {
	yajl_handle h;
	int called;                 /* a callback ran since the last check */
	uint64_t quiet;             /* bytes fed since a callback last ran */
	size_t base;                /* of the chunk, before the piece parsed */
	enum occ_status st;         /* why a callback stopped the parse */
};

/* Callbacks must call json_stream_touch(js) first and, to stop, set
 * js->st and return 0. */
OCC_INTERNAL enum occ_status json_stream_open(struct json_stream *js,
					      const yajl_callbacks *cb,
					      void *ctx, int multiple);
OCC_INTERNAL void json_stream_touch(struct json_stream *js);
/* The byte of the chunk being fed that the parse has reached. */
OCC_INTERNAL size_t json_stream_at(const struct json_stream *js);
/* OCC_ERR_SYNTAX (*at: the byte of the chunk where yajl stopped),
 * OCC_ERR_RANGE for a token beyond LAUNCH_TOKEN_MAX, or the status a
 * callback set. */
OCC_INTERNAL enum occ_status json_stream_feed(struct json_stream *js,
					      const unsigned char *p, size_t n,
					      size_t *at);
OCC_INTERNAL enum occ_status json_stream_finish(struct json_stream *js);
OCC_INTERNAL void json_stream_close(struct json_stream *js);

/* ---- The two formats: fed the file's bytes in chunks ---- */

struct trace_reader;
struct kineto_reader;

OCC_INTERNAL enum occ_status trace_open(struct trace_reader **t,
					struct launch_read *r);
OCC_INTERNAL enum occ_status trace_feed(struct trace_reader *t,
					const unsigned char *p, size_t n);
OCC_INTERNAL enum occ_status trace_finish(struct trace_reader *t);
OCC_INTERNAL void trace_close(struct trace_reader *t);

OCC_INTERNAL enum occ_status kineto_open(struct kineto_reader **k,
					 struct launch_read *r);
OCC_INTERNAL enum occ_status kineto_feed(struct kineto_reader *k,
					 const unsigned char *p, size_t n);
OCC_INTERNAL enum occ_status kineto_finish(struct kineto_reader *k);
OCC_INTERNAL void kineto_close(struct kineto_reader *k);

#endif
