/*
 * pool.c - the memory reading an image holds: what it costs against the
 * scheduler's budget, and the buffers and decompression contexts that
 * wait between images for the next one to fit. With buffers freed after
 * each image, every image was decompressed into fresh pages (NCCL took 14
 * times the page faults with 16 threads that it takes with one), and a
 * streamed read's context faulted its 2 MB window in again each time.
 * What waits here counts against the budget: each call is given the
 * room the images being read leave, and lets go what does not fit, into
 * the caller's drops, which it frees once the scheduler's lock (held
 * here) is not.
 */
#include "bin.h"

/* A Zstandard context larger than this holds a streamed read's window;
 * a smaller one stays with its thread. */
#define CTX_SMALL ((size_t)512 << 10)

static void pool_take(struct bin_pool *p, struct bin_buf *b, uint64_t need)
{
	size_t i, best = 0;

	if (need == 0 || p->nbuf == 0)
		return;
	for (i = 1; i < p->nbuf; i++) {
		size_t c = p->buf[i].cap, bc = p->buf[best].cap;

		if (c >= need ? bc < need || c < bc : bc < need && c > bc)
			best = i;
	}
	*b = p->buf[best];
	p->bytes -= b->cap;
	p->buf[best] = p->buf[--p->nbuf];
}

static void drop_buf(struct pool_drops *d, struct bin_buf *b)
{
	if (d->nbuf < POOL_N + 2) {
		d->buf[d->nbuf++] = *b;
		d->bytes += b->cap;
	} else {
		buf_free(b);
	}
	b->p = NULL;
	b->cap = 0;
}

static void drop_ctx(struct pool_drops *d, void *z, size_t n)
{
	if (!z)
		return;
	if (d->nctx < POOL_N + 2) {
		d->ctx[d->nctx++] = z;
		d->bytes += n;
	} else {
		zstd_ctx_free(z);
	}
}

static void pool_take_ctx(struct bin_pool *p, struct bin_scratch *sc,
			  struct pool_drops *d)
{
	if (!p->nctx)
		return;
	drop_ctx(d, sc->zstd, zstd_ctx_bytes(sc->zstd));
	sc->zstd = p->ctx[--p->nctx].z;
	p->bytes -= p->ctx[p->nctx].n;
}

uint64_t pool_entry_cost(const struct bin_src *src, const struct bin_entry *en,
			 int keep_ptx_text)
{
	uint64_t image = sparse_wanted(en, keep_ptx_text)
			 ? en->window + SPARSE_KEPT
			 : en->usize > en->size ? en->usize : en->size;

	if (sparse_streamed(src, en, keep_ptx_text))
		return SPARSE_FEED + image;
	return en->size + image;
}

void pool_take_entry(struct bin_pool *p, const struct bin_src *src,
		     const struct bin_entry *en, int keep_ptx_text,
		     struct bin_scratch *sc, struct pool_drops *d)
{
	int packed = (en->flags & (FLAG_LZ4 | FLAG_ZSTD)) != 0;
	int streamed = sparse_wanted(en, keep_ptx_text);

	pool_take(p, &sc->in, sparse_streamed(src, en, keep_ptx_text)
			      ? 0 : en->size);
	pool_take(p, &sc->out, packed && !streamed ? en->usize : 0);
	if (streamed)
		pool_take_ctx(p, sc, d);
}

void pool_give(struct bin_pool *p, struct bin_buf *b, uint64_t room,
	       struct pool_drops *d)
{
	if (!b->p)
		return;
	if (p->nbuf < POOL_N && p->bytes + b->cap <= room) {
		p->buf[p->nbuf++] = *b;
		p->bytes += b->cap;
		b->p = NULL;
		b->cap = 0;
	} else {
		drop_buf(d, b);
	}
}


void pool_give_ctx(struct bin_pool *p, struct bin_scratch *sc, uint64_t room,
		   struct pool_drops *d)
{
	size_t n = zstd_ctx_bytes(sc->zstd);

	if (n <= CTX_SMALL)
		return;
	if (p->nctx < POOL_N && p->bytes + n <= room) {
		p->ctx[p->nctx].z = sc->zstd;
		p->ctx[p->nctx++].n = n;
		p->bytes += n;
	} else {
		drop_ctx(d, sc->zstd, n);
	}
	sc->zstd = NULL;
}

void pool_trim(struct bin_pool *p, uint64_t room, struct pool_drops *d)
{
	while (p->nbuf && p->bytes > room) {
		p->bytes -= p->buf[--p->nbuf].cap;
		drop_buf(d, &p->buf[p->nbuf]);
	}
	while (p->nctx && p->bytes > room) {
		p->bytes -= p->ctx[--p->nctx].n;
		drop_ctx(d, p->ctx[p->nctx].z, p->ctx[p->nctx].n);
	}
}

void pool_drop(struct pool_drops *d)
{
	while (d->nbuf)
		buf_free(&d->buf[--d->nbuf]);
	while (d->nctx)
		zstd_ctx_free(d->ctx[--d->nctx]);
	d->bytes = 0;
}

void pool_free(struct bin_pool *p)
{
	struct pool_drops d = { .nbuf = 0, .nctx = 0, .bytes = 0 };

	pool_trim(p, 0, &d);
	pool_drop(&d);
}
