/*
 * occcalc/rows.h - occcalc's own rows read back: what --format json (an
 * array of objects) or jsonl (an object a line) wrote, a row at a time, so
 * that a program (or --compare) can set a run against an earlier one.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_ROWS_H
#define OCCCALC_ROWS_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/rows.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The largest file occ_rows_read_file reads by default: 256 MB (about
 * 400,000 rows of --kernels' default fields). */
#define OCC_ROWS_FILE_MAX (UINT64_C(256) << 20)

/* A field of a row: its value as the text the JSON gives (numbers as
 * written, strings decoded, true and false; an array's elements joined,
 * by '+' before a string and ' ' before a number); text NULL: null. */
struct occ_rows_field {
	const char *name;
	const char *text;
};

/* A row, valid during the callback. */
struct occ_rows_row {
	const struct occ_rows_field *f;
	size_t n;
	uint64_t index;         /* its place among the rows, from 0 */
};

/* Called for each row; a nonzero return stops reading and is given back
 * through fn_status. */
typedef int (*occ_rows_fn)(const struct occ_rows_row *row, void *ctx);

struct occ_rows_diag {
	uint64_t offset;        /* the byte at fault */
	uint64_t line, column;  /* from 1 */
	char what[160];
};

/* Reads rows from text (len bytes, any bytes): each object's values must
 * be scalars or arrays of scalars, as occcalc writes them, the file one
 * array of them or one a line. OCC_OK; OCC_ERR_SYNTAX for text that is no
 * such JSON, OCC_ERR_RANGE past a limit (nesting, a string or a row of
 * more than 1 MB), OCC_ERR_NOMEM; diag says where and why. Memory: one
 * row's. */
enum occ_status occ_rows_read(const char *text, size_t len, occ_rows_fn fn,
			      void *ctx, int *fn_status,
			      struct occ_rows_diag *diag);

/* occ_rows_read on the file at path (plain or gzip), read as it goes:
 * OCC_ERR_NOT_REGULAR for what is no regular file (never waited on),
 * OCC_ERR_IO when it cannot be read, OCC_ERR_RANGE when it is larger than
 * max bytes (0: OCC_ROWS_FILE_MAX), before anything is read, or
 * decompresses to more. */
enum occ_status occ_rows_read_file(const char *path, uint64_t max,
				   occ_rows_fn fn, void *ctx, int *fn_status,
				   struct occ_rows_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
