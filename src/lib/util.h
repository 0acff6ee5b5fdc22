/* util.h - small helpers shared by the library and the CLI (internal). */
#ifndef OCC_UTIL_H
#define OCC_UTIL_H

#include <stddef.h>
#include <stdint.h>

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

static inline uint64_t occ_round_up(uint64_t x, uint64_t unit)
{
	return (x + unit - 1) / unit * unit;
}

static inline int64_t occ_div_up(int64_t x, int64_t y)
{
	return (x + y - 1) / y;
}

#endif
