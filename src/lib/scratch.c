/*
 * scratch.c - what reading one entry needs of the arena, and a thread's
 * buffers placed in the run it was given: the image decompressed, the
 * payload read from the file, and for a streamed read the piece of the
 * stream read, the piece decompressed and a Zstandard context with its
 * window. Each part is what that part of the reader asks for, so nothing
 * grows past its run; what does (the PTX read beside a capped kernel, an
 * entry larger than the arena can grow to, read alone) is allocated and
 * freed with the entry.
 */
#include "bin.h"

/* A Zstandard context larger than this holds a streamed read's window
 * (one not placed in the arena); a smaller one stays with its thread. */
#define CTX_SMALL ((size_t)512 << 10)
/* Parts of a run start at this alignment. */
#define ALIGN 64

/* Bytes a payload may hold past its compressed frame and still be read
 * into the end of the image it decompresses to. */
#define IN_PLACE_SLACK 4096

struct parts {
	uint64_t out, in, feed, chunk, ws;
	int in_place;            /* in is read into the end of out */
};

static uint64_t aligned(uint64_t n)
{
	return (n + ALIGN - 1) / ALIGN * ALIGN;
}

/* The image's part when a whole Zstandard frame read from the file is
 * decompressed in place, its payload read into the part's end (0: it is
 * not): a payload larger than the margin in place needs then takes no
 * room beside the image (a tenth of it for cuDNN's, which fill the
 * arena). */
static uint64_t in_place_out(const struct bin_entry *en)
{
	uint64_t margin;

	if ((en->flags & (FLAG_LZ4 | FLAG_ZSTD)) != FLAG_ZSTD ||
	    en->csize > en->size || en->size - en->csize > IN_PLACE_SLACK ||
	    en->usize > UINT64_MAX / 4 ||
	    !(margin = zstd_in_place_margin(en->usize)) ||
	    en->csize > en->usize + margin || en->csize <= margin)
		return 0;            /* (a small payload takes less beside) */
	return en->usize + margin + (en->size - en->csize);
}

static struct parts parts_of(const struct bin_src *src,
			     const struct bin_entry *en, int keep_ptx_text)
{
	struct parts p = { 0, 0, 0, 0, 0, 0 };
	int packed = (en->flags & (FLAG_LZ4 | FLAG_ZSTD)) != 0;

	if (sparse_wanted(en, keep_ptx_text)) {
		p.ws = zstd_stream_bytes(en->window);
		p.chunk = STREAM_FRONT + SPARSE_CHUNK;
	} else if (packed && !src->mem && (p.out = in_place_out(en))) {
		p.in_place = 1;
	} else if (packed) {
		p.out = en->usize;
	}
	if (sparse_streamed(src, en, keep_ptx_text))
		p.feed = SPARSE_FEED;
	else if (!src->mem && !p.in_place)
		p.in = en->size;
	return p;
}

uint64_t entry_need(const struct bin_src *src, const struct bin_entry *en,
		    int keep_ptx_text)
{
	struct parts p = parts_of(src, en, keep_ptx_text);

	if (p.out > UINT64_MAX / 4 || p.in > UINT64_MAX / 4 ||
	    p.ws > UINT64_MAX / 4)
		return UINT64_MAX;
	return aligned(p.out) + aligned(p.in) + p.feed + p.chunk +
	       aligned(p.ws);
}

uint64_t entry_kept(const struct bin_entry *en, int keep_ptx_text)
{
	return en->kind == KIND_ELF && sparse_wanted(en, keep_ptx_text)
	       ? SPARSE_KEPT : 0;
}

static void lend(struct bin_buf *b, uint8_t *p, uint64_t n)
{
	buf_free(b);
	if (!n)
		return;
	b->p = p;
	b->cap = (size_t)n;
	b->lent = 1;
}

void scratch_lend(struct bin_scratch *sc, uint8_t *run,
		  const struct bin_src *src, const struct bin_entry *en,
		  int keep_ptx_text)
{
	struct parts p = parts_of(src, en, keep_ptx_text);

	if (!run)
		return;
	lend(&sc->out, run, p.out);
	run += aligned(p.out);
	if (p.in_place)
		lend(&sc->in, sc->out.p + p.out - en->size, en->size);
	else
		lend(&sc->in, run, p.in);
	run += aligned(p.in);
	lend(&sc->feed, run, p.feed);
	run += p.feed;
	lend(&sc->chunk, run, p.chunk);
	run += p.chunk;
	sc->zstream = p.ws ? zstd_stream_ctx(run, (size_t)p.ws) : NULL;
}

void scratch_return(struct bin_scratch *sc)
{
	buf_free(&sc->in);
	buf_free(&sc->out);
	buf_free(&sc->feed);
	buf_free(&sc->chunk);
	sc->zstream = NULL;
	if (zstd_ctx_bytes(sc->zstd) > CTX_SMALL) {
		zstd_ctx_free(sc->zstd);
		sc->zstd = NULL;
	}
}
