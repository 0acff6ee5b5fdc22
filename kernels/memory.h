/*
 * memory.h - the global-memory kernels (memory.cu) as the C side sees them.
 *
 * Access kernels: each warp issues exactly one global load or store, the
 * pattern of struct occ_access, at its own line-aligned base, so that a
 * profiler's sectors per request are the pattern's. Persistence kernel:
 * re-reads a buffer, then streams through another, so that only the L2
 * set-aside can keep the buffer.
 */
#ifndef OCC_MEMORY_KERNELS_H
#define OCC_MEMORY_KERNELS_H

#include "occcalc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct access_args {
	char *base;                   /* line-aligned */
	unsigned long long warp_span; /* bytes between warps' bases */
	unsigned long long stride;    /* elements */
	unsigned long long offset;    /* elements */
	unsigned threads;             /* active lanes */
	unsigned lane_xor;
	unsigned long long magic;     /* a value the memory never holds */
	unsigned *sink;               /* written only if a load sees magic */
};

/* The kernel for op and elem_size (1, 2, 4, 8, 16), or NULL. */
const void *occ_access_kernel(enum occ_access_op op, int elem_size);

struct persist_args {
	const unsigned long long *data;     /* the re-read buffer */
	unsigned long long data_words;
	const unsigned long long *stream;   /* this launch's streamed slice */
	unsigned long long stream_words;
	unsigned long long *sink;
};

const void *occ_persist_kernel(void);

#ifdef __cplusplus
}
#endif

#endif
