/* util.h - small helpers shared by the library and the CLI (internal). */
#ifndef OCC_UTIL_H
#define OCC_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "occcalc.h"

/* Helpers the library shares between its files: hidden, so that the
 * shared library exports occcalc.h and nothing else. */
#define OCC_INTERNAL __attribute__((visibility("hidden")))

OCC_INTERNAL char *occ_trim(char *s);
OCC_INTERNAL void occ_strip_comment(char *s);
OCC_INTERNAL void occ_copy_string(char *dst, size_t size, const char *src);
OCC_INTERNAL void occ_diag_set(struct occ_diag *d, const char *file, int line,
			       const char *key);

/* The most half-open intervals [starts[i], ends[i]) open at once; each
 * must be non-empty. Sorts both arrays (residency.c). */
OCC_INTERNAL int occ_max_overlap(uint64_t *starts, uint64_t *ends, size_t n);
/* Room for n intervals, for occ_max_overlap; 0 when memory runs out
 * (nothing is then held). */
OCC_INTERNAL int occ_intervals_alloc(uint64_t **starts, uint64_t **ends,
				     size_t n);

/* The decimal digits s starts with (no sign, no space), into *out; *end
 * (if not NULL) points past them. OCC_PARSE_SYNTAX when s starts with no
 * digit, OCC_PARSE_RANGE when the number does not fit 64 bits. */
OCC_INTERNAL enum occ_parse_status occ_parse_u64(const char *s, uint64_t *out,
				    const char **end);

/* Opens path for reading if it is a regular file, without blocking on a
 * FIFO or a device: OCC_ERR_NOT_REGULAR if it is something else,
 * OCC_ERR_IO (errno says why) if it cannot be opened. */
OCC_INTERNAL enum occ_status occ_open_regular(const char *path, FILE **f);

/* Lines of a data file, read into a caller's buffer. */
struct occ_lines {
	FILE *f;
	char *buf;
	size_t size;
	int lineno;      /* of the line last read (or refused) */
};

OCC_INTERNAL void occ_lines_init(struct occ_lines *r, FILE *f, char *buf, size_t size);
/* The next line, without its newline, in *line; *line is NULL at the end.
 * OCC_ERR_LINE_TOO_LONG for a line of size characters or more,
 * OCC_ERR_SYNTAX for one holding a NUL byte, OCC_ERR_IO when reading
 * fails; r->lineno then names the line. */
OCC_INTERNAL enum occ_status occ_lines_next(struct occ_lines *r, char **line);

OCC_INTERNAL void occ_trim_end(char *s);

/* 0 when line is a well-formed "layout NAME LAYOUT SOURCE..." line
 * (cut into words), -1 when not: the GPU list is checked whole when it
 * is read, not only the line of the GPU asked for (layout.c). */
OCC_INTERNAL int occ_layout_line_check(char *line);

/* The readers behind occ_arch_load and occ_gpus_load, on an open stream
 * named path (for the fuzzers, which feed them memory). */
OCC_INTERNAL enum occ_status occ_arch_read(FILE *f, const char *path,
			      struct occ_arch *arch, struct occ_diag *diag);
OCC_INTERNAL enum occ_status occ_gpus_read(FILE *f, const char *path,
					   struct occ_gpus **out,
					   struct occ_diag *diag);
/* occ_partition_part_find on an open stream (path names it in diag). */
OCC_INTERNAL enum occ_status occ_partition_part_read(FILE *f,
	const char *path, const char *name, unsigned flags, int group_sms,
	int group, struct occ_partition_part *out, struct occ_diag *diag);

/* A warp's lanes, lane i touching [addr[i], addr[i] + size), size at most
 * unit (lanes.c). occ_lane_units: the distinct units of `unit` bytes they
 * touch, ascending, into ids (room for 2 n); their count.
 * occ_lane_bytes: the distinct bytes they touch; sorts addr. */
OCC_INTERNAL int occ_u64_cmp(const void *a, const void *b);
OCC_INTERNAL int occ_lane_units(const uint64_t *addr, int n, uint64_t size,
				uint64_t unit, uint64_t *ids);
OCC_INTERNAL uint64_t occ_lane_bytes(uint64_t *addr, int n, uint64_t size);

static inline uint64_t occ_round_up(uint64_t x, uint64_t unit)
{
	return (x + unit - 1) / unit * unit;
}

static inline int64_t occ_div_up(int64_t x, int64_t y)
{
	return (x + y - 1) / y;
}

/* One object of n fields, f[i]'s value read from rows[i] (runs of one row
 * written together), into buf as occ_row_json writes one row. */
OCC_INTERNAL size_t occ_row_parts_json(const struct occ_field *const *f,
				       const void *const *rows, size_t n,
				       char *buf, size_t cap);

#endif
