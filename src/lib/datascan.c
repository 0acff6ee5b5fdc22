/*
 * datascan.c - fatbin headers counted in a host file's other sections (a
 * library that loads its own code, as cuFFT 12 holds 286 MB of them): the
 * sections cut into pieces of SCAN bytes, each overlapping the last by 8,
 * scanned by as many threads as the reader has jobs, each with its own
 * buffer. The count, and the first failure in file order, are those of a
 * scan of the pieces one after another.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bin.h"

#define SCAN ((size_t)1 << 20)

/* Magic, version 1, a 16-byte header: the first 8 bytes of a fatbin. */
static const uint8_t HEAD[8] = {
	FATBIN_MAGIC & 0xff, (FATBIN_MAGIC >> 8) & 0xff,
	(FATBIN_MAGIC >> 16) & 0xff, FATBIN_MAGIC >> 24, 1, 0, 16, 0
};

struct scan_piece {
	uint64_t at;
	size_t len;
	uint64_t count;
	enum occ_status st;
};

struct scan {
	const struct bin_src *src;
	struct scan_piece *p;
	size_t n, next;
	pthread_mutex_t mu;
};

/* Headers at 8-byte aligned offsets i of p[0, len) with 16 bytes from i
 * within it (a header nearer the end is the next piece's): one compare
 * of 8 bytes per offset, which the compiler vectorises. */
static uint64_t count_heads(const uint8_t *p, size_t len)
{
	uint64_t n = 0, head = rd64(HEAD);
	size_t i;

	for (i = 0; i + 16 <= len; i += 8)
		n += rd64(p + i) == head;
	return n;
}

static void scan_piece(const struct bin_src *src, struct bin_buf *b,
		       struct scan_piece *pc)
{
	const uint8_t *p;

	pc->st = src_read(src, pc->at, pc->len, b, &p);
	if (pc->st == OCC_OK && pc->len >= 16)
		pc->count = count_heads(p, pc->len);
}

static void *scan_worker(void *arg)
{
	struct scan *s = arg;
	struct bin_buf b = { NULL, 0, 0 };

	for (;;) {
		size_t i;

		pthread_mutex_lock(&s->mu);
		i = s->next++;
		pthread_mutex_unlock(&s->mu);
		if (i >= s->n)
			break;
		scan_piece(s->src, &b, &s->p[i]);
	}
	buf_free(&b);
	return NULL;
}

/* The pieces of [off, off + n), from its first 8-byte aligned offset,
 * appended to *p. */
static int cut(uint64_t off, uint64_t n, struct scan_piece **p, size_t *np,
	       size_t *cap)
{
	uint64_t at = off + (8 - off % 8) % 8, end = off + n;

	while (at < end && end - at >= 16) {
		size_t len = end - at > SCAN ? SCAN : (size_t)(end - at);

		if (*np == *cap) {
			size_t c = *cap ? 2 * *cap : 64;
			struct scan_piece *g = realloc(*p, c * sizeof *g);

			if (!g)
				return -1;
			*p = g;
			*cap = c;
		}
		memset(&(*p)[*np], 0, sizeof **p);
		(*p)[*np].at = at;
		(*p)[(*np)++].len = len;
		if (len < SCAN)
			break;
		at += len - 8;                 /* aligned, overlapping */
	}
	return 0;
}

int scan_add(struct scan_set *set, uint64_t off, uint64_t n)
{
	return cut(off, n, &set->p, &set->n, &set->cap);
}

/* Runs the pieces on up to jobs threads (none started for one job). */
static void scan_run(struct scan *s, int jobs)
{
	pthread_t t[64];               /* more gain nothing on a scan */
	int i, nt = jobs < 64 ? jobs : 64;

	if ((size_t)nt > s->n)
		nt = (int)s->n;
	pthread_mutex_init(&s->mu, NULL);
	for (i = 0; nt > 1 && i < nt; i++)
		if (pthread_create(&t[i], NULL, scan_worker, s) != 0)
			break;
	scan_worker(s);                /* the caller's share, or all */
	while (nt > 1 && i-- > 0)
		pthread_join(t[i], NULL);
	pthread_mutex_destroy(&s->mu);
}

enum occ_status scan_count(struct bin_ctx *c, struct scan_set *set,
			   int jobs, uint64_t *count)
{
	struct scan s;
	size_t i;

	memset(&s, 0, sizeof s);
	s.src = c->src;
	s.p = set->p;
	s.n = set->n;
	scan_run(&s, jobs);
	for (i = 0; i < s.n; i++) {
		if (s.p[i].st != OCC_OK)
			return src_fail(c, s.p[i].st, s.p[i].at);
		*count += s.p[i].count;
	}
	return OCC_OK;
}

void scan_free(struct scan_set *set)
{
	free(set->p);
	memset(set, 0, sizeof *set);
}
