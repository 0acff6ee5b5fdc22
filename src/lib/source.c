/*
 * source.c - the bytes a binary is read from: a buffer in memory, or a
 * file read piece by piece with pread, so that what is resident while a
 * large library is read is the pieces at hand, not the file.
 */
#define _DEFAULT_SOURCE 1  /* MAP_ANONYMOUS */
#include <errno.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin.h"

/* Forward reads of headers and padding come in pieces of this size. */
#define WINDOW ((size_t)8 << 10)

/* Buffers this large are mapped, so that freeing one gives its memory
 * back at once (malloc may keep it in a thread's arena). */
#define MAP_MIN ((size_t)256 << 10)

void buf_free(struct bin_buf *b)
{
	if (b->lent)
		;                      /* the arena's */
	else if (b->cap >= MAP_MIN)
		munmap(b->p, b->cap);
	else
		free(b->p);
	b->p = NULL;
	b->cap = 0;
	b->lent = 0;
}

int buf_reserve(struct bin_buf *b, size_t n)
{
	uint8_t *p;
	size_t cap = b->cap ? b->cap : 4096;

	if (n <= b->cap)
		return 0;
	while (cap < n)
		cap = cap > SIZE_MAX / 2 ? n : 2 * cap;
	/* No realloc: what the buffer held is not needed again. */
	if (cap >= MAP_MIN) {
		p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
	} else if (!(p = malloc(cap))) {
		return -1;
	}
	buf_free(b);
	b->p = p;
	b->cap = cap;
	return 0;
}

int buf_extend(struct bin_buf *b, size_t used, size_t n)
{
	struct bin_buf grown = { NULL, 0, 0 };

	if (n <= b->cap)
		return 0;
	if (buf_reserve(&grown, n))
		return -1;
	if (used)
		memcpy(grown.p, b->p, used);
	buf_free(b);
	*b = grown;
	return 0;
}

static enum occ_status read_fully(int fd, uint8_t *p, size_t n, uint64_t off)
{
	while (n) {
		ssize_t got = pread(fd, p, n, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return OCC_ERR_IO;     /* the file shrank, or I/O */
		p += got;
		n -= (size_t)got;
		off += (uint64_t)got;
	}
	return OCC_OK;
}

enum occ_status src_read(const struct bin_src *s, uint64_t off, size_t n,
			 struct bin_buf *b, const uint8_t **out)
{
	if (off > s->len || n > s->len - off)
		return OCC_ERR_CORRUPT;
	if (s->mem) {
		*out = s->mem + off;
		return OCC_OK;
	}
	if (buf_reserve(b, n ? n : 1))
		return OCC_ERR_NOMEM;
	*out = b->p;
	return read_fully(s->fd, b->p, n, off);
}

enum occ_status win_get(const struct bin_src *s, struct bin_win *w,
			uint64_t off, size_t n, const uint8_t **out)
{
	size_t want;
	enum occ_status st;

	if (off > s->len || n > s->len - off)
		return OCC_ERR_CORRUPT;
	if (s->mem) {
		*out = s->mem + off;
		return OCC_OK;
	}
	if (w->p && off >= w->off && off - w->off <= w->n &&
	    n <= w->n - (off - w->off)) {
		*out = w->p + (off - w->off);
		return OCC_OK;
	}
	want = n > WINDOW ? n : WINDOW;
	if (want > s->len - off)
		want = (size_t)(s->len - off);
	w->p = NULL;
	if ((st = src_read(s, off, want, &w->buf, &w->p)) != OCC_OK)
		return st;
	w->off = off;
	w->n = want;
	*out = w->p;
	return OCC_OK;
}
