/*
 * arena.c - the one piece of memory that images are read into. Freshly
 * mapped buffers cost a page fault for every 4 KB written, and with each
 * image decompressed into new pages, 16 threads took ten times the faults
 * of one (cuBLASLt: 215,000 against 28,000, docs/kernels-speed.md), more
 * time in the kernel than in decompressing. The arena is mapped once and
 * its pages are written again by image after image: the budget is the
 * arena, so the memory held cannot pass it. A run is given the lowest
 * gap that holds it, so that the pages written already are used again
 * and the pages past them are written only when the readers need them
 * at once: best fit put small runs in the arena's end, and two readers
 * wrote all of a 40 MB arena (cuDNN adv), first fit 26 MB of it
 * (docs/kernels-memory.md). The lock is the caller's.
 *
 * The arena asks for huge pages: its 56 MB were 14,000 faults of 4 KB
 * pages, each zeroed, and as many pages to free when it was unmapped on
 * the calling thread (3 ms here) before the rows could start; in 2 MB
 * pages they are 28 (docs/kernels-speed.md).
 */
#define _DEFAULT_SOURCE 1  /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bin.h"

/* Threads past this many each keep memory of their own beside the arena,
 * a stack and a heap (cuBLASLt: about 150 KB a thread from 16 threads to
 * 128), which the arena gives up, down to ARENA_MIN. */
#define THREADS_IN_BUDGET 16
#define THREAD_SHARE ((uint64_t)256 << 10)
#define ARENA_MIN ((uint64_t)24 << 20)
/* x86-64's and arm64's (with 4 KB pages) huge page. */
#define HUGE_PAGE ((size_t)2 << 20)

/* len bytes at an address that is a multiple of HUGE_PAGE, so that every
 * 2 MB of it can be a huge page, asked for where the kernel gives them
 * on request (the usual setting). MAP_FAILED on failure. */
static uint8_t *map_huge_aligned(size_t len)
{
	size_t over = len + HUGE_PAGE;
	uint8_t *p = mmap(NULL, over, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint8_t *at;

	if (p == MAP_FAILED)
		return MAP_FAILED;
	at = p + (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (at > p)
		munmap(p, (size_t)(at - p));
	munmap(at + len, (size_t)(p + over - (at + len)));
#ifdef MADV_HUGEPAGE
	madvise(at, len, MADV_HUGEPAGE);   /* a hint: 4 KB pages otherwise */
#endif
	return at;
}

int arena_open(struct arena *a, uint64_t bytes, size_t runs)
{
	a->len = bytes / ARENA_UNIT * ARENA_UNIT;
	a->home = a->len;
	a->base = map_huge_aligned((size_t)a->len);
	a->run = calloc(runs ? runs : 1, sizeof *a->run);
	a->nrun = 0;
	a->cap = runs ? runs : 1;
	if (a->base == MAP_FAILED || !a->run) {
		if (a->base != MAP_FAILED)
			munmap(a->base, (size_t)a->len);
		free(a->run);
		a->base = NULL;
		a->run = NULL;
		return -1;
	}
	return 0;
}

void arena_close(struct arena *a)
{
	if (a->base)
		munmap(a->base, (size_t)a->len);
	free(a->run);
	a->base = NULL;
	a->run = NULL;
}

/* An image larger than the arena is read alone, in the arena made as
 * large as it: in memory beside the arena, its pages and the arena's
 * written ones were both held (2 readers, a 40 MB arena: cuBLASLt 54 MB
 * against 35 in 56 MB). The pages written are given up for fresh ones. */
int arena_grow(struct arena *a, uint64_t bytes)
{
	uint8_t *p;

	if (a->nrun || bytes > ARENA_GROW_MAX)
		return -1;
	bytes = arena_round(bytes);
	if (bytes <= a->len)
		return 0;
	p = map_huge_aligned((size_t)bytes);
	if (p == MAP_FAILED)
		return -1;
	munmap(a->base, (size_t)a->len);
	a->base = p;
	a->len = bytes;
	return 0;
}

/* Back to the arena's own length once the large image is read: the
 * pages past it are given back, those before kept for the next. */
void arena_shrink(struct arena *a)
{
	if (a->nrun || a->len <= a->home)
		return;
	munmap(a->base + a->home, (size_t)(a->len - a->home));
	a->len = a->home;
}

uint64_t arena_for(uint64_t bytes, size_t threads)
{
	uint64_t cut = threads > THREADS_IN_BUDGET
		       ? (threads - THREADS_IN_BUDGET) * THREAD_SHARE : 0;

	if (bytes <= ARENA_MIN)
		return bytes;
	return bytes - ARENA_MIN > cut ? bytes - cut : ARENA_MIN;
}

uint64_t arena_round(uint64_t bytes)
{
	return (bytes + ARENA_UNIT - 1) / ARENA_UNIT * ARENA_UNIT;
}

/* The gap before run i (the end of the arena for i == nrun). */
static uint64_t gap_at(const struct arena *a, size_t i)
{
	return i == 0 ? 0 : a->run[i - 1].off + a->run[i - 1].len;
}

static uint64_t gap_len(const struct arena *a, size_t i)
{
	return (i < a->nrun ? a->run[i].off : a->len) - gap_at(a, i);
}

/* The lowest gap that holds bytes; a->nrun + 1 when none does. */
static size_t first_gap(const struct arena *a, uint64_t bytes)
{
	size_t i;

	for (i = 0; i <= a->nrun; i++)
		if (gap_len(a, i) >= bytes)
			return i;
	return a->nrun + 1;
}

uint64_t arena_largest(const struct arena *a)
{
	uint64_t most = 0;
	size_t i;

	if (a->nrun == a->cap)
		return 0;
	for (i = 0; i <= a->nrun; i++)
		if (gap_len(a, i) > most)
			most = gap_len(a, i);
	return most;
}

/* Gaps are whole units, so a gap that holds bytes holds them rounded. */
int arena_fits(const struct arena *a, uint64_t bytes)
{
	return bytes <= arena_largest(a);
}

uint8_t *arena_take(struct arena *a, uint64_t bytes)
{
	size_t i, at;

	if (bytes > a->len)
		return NULL;
	bytes = arena_round(bytes);
	if (a->nrun == a->cap || (at = first_gap(a, bytes)) > a->nrun)
		return NULL;
	for (i = a->nrun; i > at; i--)
		a->run[i] = a->run[i - 1];
	a->run[at].off = gap_at(a, at);
	a->run[at].len = bytes;
	a->nrun++;
	return a->base + a->run[at].off;
}

void arena_give(struct arena *a, const uint8_t *p)
{
	size_t i;

	for (i = 0; i < a->nrun; i++)
		if (a->base + a->run[i].off == p)
			break;
	if (i == a->nrun)
		return;
	for (a->nrun--; i < a->nrun; i++)
		a->run[i] = a->run[i + 1];
}
