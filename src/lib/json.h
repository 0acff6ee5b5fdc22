/*
 * json.h - the library's one JSON reader (internal: nothing here is
 * exported). yajl reads; this layer adds what each of occcalc's readers
 * would otherwise do again: a nesting limit, a length limit on strings
 * and numbers (yajl holds a token that spans reads whole), the input's
 * size limit, strings fully decoded and checked (\u0000, lone UTF-16
 * surrogates and bytes that are no UTF-8 refused, which yajl lets by),
 * every value's byte offset, integers range-checked into 64-bit types,
 * and errors as a byte offset, a line and a column.
 *
 * How to use it. Input is read in slices of 64 KB (memory, or a file
 * descriptor, plain or gzip alike: zin.h), so memory is bounded by
 * the limits whatever the input's size. Two levels:
 *
 * - Events: occ_json_read_mem / occ_json_read_fd call fn for every value
 *   as it ends (containers when they start, and once more with
 *   JSON_END when they close), with its depth, its key or index and its
 *   offset. fn returns 0 to go on; to refuse, it returns
 *   occ_json_fail(r, st, offset, ...) (nonzero), whose message and
 *   position are what the read then reports.
 *
 * - Records: the objects a select function picks (by depth and by the key
 *   of what holds them, occ_json_key_at) are collected whole, their
 *   members flattened, and handed to a record function when they close;
 *   memory is one record's (at most max_bytes). A Kineto trace's kernel
 *   events are the objects at depth 2 under "traceEvents":
 *
 *	static int pick(void *ctx, const struct occ_json_reader *r,
 *			const struct occ_json_event *e)
 *	{
 *		const char *k = occ_json_key_at(r, 1);
 *		return e->depth == 2 && k && strcmp(k, "traceEvents") == 0;
 *	}
 *	static int event(void *ctx, struct occ_json_reader *r,
 *			 const struct occ_json_record *rec)
 *	{
 *		const struct occ_json_member *m = occ_json_get(rec, "args.grid");
 *		...  m->type JSON_ARRAY, then its elements: the members after
 *		     it named "args.grid" with depth m->depth + 1, index 0..2
 *	}
 *	struct occ_json_records rc = { pick, event, NULL, 0 };
 *
 *	rc.ctx = ctx;        (what pick and event get)
 *	st = occ_json_read_fd(fd, &lim, occ_json_records_event, &rc, &err);
 *	occ_json_records_free(&rc);
 *
 *   (occ_json_records_event passes the events outside every record to
 *   rc.other, where one is given.)
 *
 * Numbers come as their text; occ_json_int / occ_json_uint read an integer
 * into 64 bits or say why not.
 */
#ifndef OCC_JSON_H
#define OCC_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"
#include "util.h"

#define OCC_JSON_DEPTH_MAX 64       /* nesting, the default limit */
#define OCC_JSON_STRING_MAX (1u << 20)

struct occ_json_limits {
	int depth;              /* containers nested at most; 0: 64 */
	size_t string;          /* bytes of a string or number as written;
	                           0: 1 MiB */
	uint64_t bytes;         /* of the input (decompressed); 0: none */
	int multiple;           /* values one after another (JSON Lines) */
};

struct occ_json_err {
	enum occ_status st;     /* OCC_ERR_SYNTAX: not JSON, or past a limit
	                           (OCC_ERR_RANGE); others from callbacks */
	uint64_t offset;        /* byte of the (decompressed) input */
	uint64_t line, column;  /* 1-based */
	char what[160];
	int cut_short;          /* the text ends inside a value (a file cut
	                           short): st is OCC_ERR_SYNTAX */
	uint64_t bytes;         /* of the input read, decompressed */
	int input;              /* the fault is the input's, not the text's:
	                           st OCC_ERR_IO (errno), OCC_ERR_CORRUPT (a
	                           gzip fault at byte offset of the file) */
};

enum occ_json_type {
	JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_OBJECT,
	JSON_ARRAY, JSON_END
};

/* A value as it is read. */
struct occ_json_event {
	enum occ_json_type type;    /* JSON_END: a container closes */
	const char *text;           /* string: decoded UTF-8 ending in a NUL
	                               (none inside); number: as written;
	                               bool: "true" or "false"; else NULL */
	size_t len;
	uint64_t offset;            /* where the value starts */
	int depth;                  /* 0: a top-level value */
	const char *key;            /* in an object: its key; else NULL */
	int64_t index;              /* in an array: its index; else -1 */
};

struct occ_json_reader;

typedef int (*occ_json_event_fn)(void *ctx, struct occ_json_reader *r,
				 const struct occ_json_event *e);

/* Reads text (len bytes) or the file descriptor fd (plain or gzip; not
 * closed) to its end: OCC_OK, or the first failure in err. */
OCC_INTERNAL enum occ_status occ_json_read_mem(const char *text, size_t len,
		const struct occ_json_limits *lim, occ_json_event_fn fn,
		void *ctx, struct occ_json_err *err);
OCC_INTERNAL enum occ_status occ_json_read_fd(int fd,
		const struct occ_json_limits *lim, occ_json_event_fn fn,
		void *ctx, struct occ_json_err *err);

/* The same over input already open (zin.h), whose bytes a caller may
 * have peeked at. */
struct occ_zin;
OCC_INTERNAL enum occ_status occ_json_read_zin(struct occ_zin *z,
		const struct occ_json_limits *lim, occ_json_event_fn fn,
		void *ctx, struct occ_json_err *err);

/* Refuses the input at offset: st and the message into the read's error;
 * returns -1, for a callback to return. */
OCC_INTERNAL int occ_json_fail(struct occ_json_reader *r, enum occ_status st,
			       uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The key under which the container at depth (1 ..) sits in its object;
 * NULL when it is in an array or depth is not open. */
OCC_INTERNAL const char *occ_json_key_at(const struct occ_json_reader *r,
					 int depth);

/* A JSON number's text as an integer within [min, max]: 0; -1 when it is no
 * integer (a fraction, an exponent, not a number); -2 when out of range. */
OCC_INTERNAL int occ_json_int(const char *text, size_t len, int64_t min,
			      int64_t max, int64_t *out);
OCC_INTERNAL int occ_json_uint(const char *text, size_t len, uint64_t max,
			       uint64_t *out);

/* ---- Records ---- */

/* A member of a record, flattened: containers come before their members,
 * and each value below the record is named by the keys on its way,
 * '.'-joined ("args.grid"); an array's elements have the array's name. */
struct occ_json_member {
	const char *name;
	enum occ_json_type type;    /* JSON_OBJECT, JSON_ARRAY: a container */
	const char *text;           /* as in occ_json_event */
	size_t len;
	uint64_t offset;
	int depth;                  /* 0: a member of the record itself */
	int64_t index;              /* in an array: its index; else -1 */
};

struct occ_json_record {
	const struct occ_json_member *m;
	size_t n;
	uint64_t offset;            /* of its '{' */
	int depth;
	const char *key;            /* its key where it sits in an object
	                               (valid during the callback) */
	int64_t index;              /* its index where it sits in an array */
};

struct occ_json_records {
	/* At an object that starts outside any record: 1 to collect it. */
	int (*select)(void *ctx, const struct occ_json_reader *r,
		      const struct occ_json_event *e);
	int (*record)(void *ctx, struct occ_json_reader *r,
		      const struct occ_json_record *rec);
	occ_json_event_fn other;    /* events outside records; NULL: none */
	size_t max_bytes;           /* of one record's names and texts;
	                               0: 1 MiB */
	/* The collector's own, zero at the start; occ_json_records_free. */
	void *ctx;
	struct occ_json_member *m;
	size_t n, cap;
	char *buf;
	size_t used, size;
	int open, depth;            /* a record open; its depth */
	size_t path[OCC_JSON_DEPTH_MAX + 1];
	struct occ_json_record rec;
};

/* The event function that collects records: give it with rc (its
 * select, record, other and max_bytes set, the rest zero) as the ctx of
 * occ_json_read_*, the callbacks' own ctx in rc->ctx. */
OCC_INTERNAL int occ_json_records_event(void *rc, struct occ_json_reader *r,
					const struct occ_json_event *e);
OCC_INTERNAL void occ_json_records_free(struct occ_json_records *rc);

/* The first member of rec named name, or NULL. */
OCC_INTERNAL const struct occ_json_member *occ_json_get(
		const struct occ_json_record *rec, const char *name);

#endif
