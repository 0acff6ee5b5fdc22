/*
 * sparse.c - a large compressed cubin, decompressed without holding it:
 * a linked library image can expand to 130 MB, nearly all machine code
 * that no row needs. The image is laid out in an anonymous mapping of its
 * full size, of which only the pages holding what the cubin reader reads
 * are written (untouched pages take no memory): the ELF header and the
 * section table (which nvcc puts last) on a first pass through the
 * stream, then the sections cubin_wants_section names, on passes that
 * stop after the last of them. Pages never written read as zeros.
 */
#define _DEFAULT_SOURCE 1  /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "config.h"
#include "bin.h"
#include "elf.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#define PAGE 4096u
/* Kept on the first pass besides the table: the sections nvcc writes
 * first (names, symbols, .nv.info) are usually within it. */
#define PREFIX ((uint64_t)1 << 20)
/* Passes: the table, then the name table and symbols, then named ones. */
#define MAX_PASSES 4

struct sparse {
	uint8_t *img;
	uint64_t len, npages;
	uint8_t *need, *have;          /* per page */
	uint64_t last_missing;         /* a pass may stop past this page */
	int header_seen;
};

static void mark(struct sparse *sp, uint64_t off, uint64_t n)
{
	uint64_t p;

	if (off >= sp->len || n == 0)
		return;
	if (n > sp->len - off)
		n = sp->len - off;
	for (p = off / PAGE; p <= (off + n - 1) / PAGE; p++)
		sp->need[p] = 1;
}

/* After the ELF header arrives: its section table is needed too. */
static void header_seen(struct sparse *sp)
{
	uint64_t shoff = rd64(sp->img + 0x28), shnum = rd16(sp->img + 0x3c);

	sp->header_seen = 1;
	/* No ELF (zeros, say): nothing more is needed, and the reader
	 * refuses it from its first bytes; without this its "table" of
	 * no sections marked the whole image, which then took its size. */
	if (rd32(sp->img) != 0x464c457fu || shoff >= sp->len)
		return;
	mark(sp, shoff, shnum && shnum <= (sp->len - shoff) / 64
		 ? shnum * 64 : sp->len - shoff);
}

/* Output [pos, pos + n) of the stream: the pages needed are copied. */
static enum occ_status take(void *ctx, uint64_t pos, uint8_t *p, size_t n)
{
	struct sparse *sp = ctx;
	uint64_t end = pos + n, at = pos;

	while (at < end) {
		uint64_t page = at / PAGE, stop = (page + 1) * PAGE;

		if (stop > end)
			stop = end;
		if (sp->need[page] && !sp->have[page])
			memcpy(sp->img + at, p + (at - pos), (size_t)(stop - at));
		at = stop;
	}
	for (at = pos / PAGE; n && at <= (end - 1) / PAGE; at++)
		if (sp->need[at] && (end >= (at + 1) * PAGE || end == sp->len))
			sp->have[at] = 1;
	if (!sp->header_seen && end >= 64)
		header_seen(sp);
	return OCC_OK;
}

static int missing(struct sparse *sp)
{
	uint64_t p;
	int any = 0;

	for (p = 0; p < sp->npages; p++)
		if (sp->need[p] && !sp->have[p]) {
			sp->last_missing = p;
			any = 1;
		}
	return any;
}

/* The sections the reader wants, from the table and names at hand. */
static void plan(struct sparse *sp)
{
	uint64_t shoff = rd64(sp->img + 0x28), shnum = rd16(sp->img + 0x3c);
	uint64_t shstrndx = rd16(sp->img + 0x3e), i;
	uint64_t str_off = 0, str_n = 0;

	if (shoff >= sp->len || shnum > (sp->len - shoff) / 64)
		return;
	if (shstrndx < shnum) {
		const uint8_t *h = sp->img + shoff + shstrndx * 64;

		str_off = rd64(h + 24);
		str_n = rd64(h + 32);
		mark(sp, str_off, str_n);
		if (str_off > sp->len || str_n > sp->len - str_off)
			str_n = 0;
	}
	for (i = 0; i < shnum; i++) {
		const uint8_t *h = sp->img + shoff + i * 64;
		uint32_t name = rd32(h), type = rd32(h + 4), link = rd32(h + 40);
		const char *nm = "";

		if (str_n && name < str_n &&
		    memchr(sp->img + str_off + name, '\0', str_n - name))
			nm = (const char *)sp->img + str_off + name;
		if (!cubin_wants_section(nm, type))
			continue;
		mark(sp, rd64(h + 24), rd64(h + 32));
		if (type == 2 && link < shnum)     /* SHT_SYMTAB: its names */
			mark(sp, rd64(sp->img + shoff + link * 64 + 24),
			     rd64(sp->img + shoff + link * 64 + 32));
	}
}

#ifdef HAVE_ZSTD
/* The compressed stream: in memory, or read from the file a piece at a
 * time (so that a thread holds a piece, not the whole payload). */
struct feed {
	const struct bin_src *src;
	uint64_t off, n, done;         /* the stream; bytes handed out */
	struct span mem;               /* the whole stream, when in memory */
	struct bin_buf *buf;
};

/* The stream in (see sparse_cubin), read from src's memory or file. */
static struct feed feed_of(struct bin_scratch *sc, const struct bin_src *src,
			   uint64_t off, struct span in)
{
	struct feed f = { src, off, in.n, 0, { NULL, 0 }, &sc->feed };

	if (src->mem)
		f.mem = in;
	return f;
}

/* The next piece of the stream into ib, once ib is used up. */
static enum occ_status feed_more(struct feed *f, ZSTD_inBuffer *ib)
{
	const uint8_t *p;
	size_t n;
	enum occ_status st;

	if (ib->pos < ib->size || f->done == f->n)
		return OCC_OK;
	if (f->mem.p) {
		ib->src = f->mem.p;
		ib->size = f->mem.n;
		ib->pos = 0;
		f->done = f->n;
		return OCC_OK;
	}
	n = f->n - f->done > SPARSE_FEED ? (size_t)SPARSE_FEED
					 : (size_t)(f->n - f->done);
	if ((st = src_read(f->src, f->off + f->done, n, f->buf, &p)) != OCC_OK)
		return st;
	ib->src = p;
	ib->size = n;
	ib->pos = 0;
	f->done += n;
	return OCC_OK;
}

/* One pass through the stream of len bytes, handed to fn; it stops once
 * stop bytes are out (UINT64_MAX: checks the whole stream's size). */
static enum occ_status pass(struct bin_scratch *sc, struct feed *f,
			    uint64_t len, uint64_t stop, stream_fn fn,
			    void *ctx, const char **why)
{
	ZSTD_inBuffer ib = { NULL, 0, 0 };
	ZSTD_DCtx *z;
	uint64_t pos = 0;
	size_t r = 1;
	enum occ_status st;

	if (buf_reserve(&sc->chunk, (size_t)(STREAM_FRONT + SPARSE_CHUNK)))
		return OCC_ERR_NOMEM;
	if (!sc->zstream && !sc->zstd && !(sc->zstd = ZSTD_createDCtx()))
		return OCC_ERR_NOMEM;
	z = sc->zstream ? sc->zstream : sc->zstd;
	ZSTD_DCtx_reset(z, ZSTD_reset_session_only);
	f->done = 0;
	while (r != 0) {
		ZSTD_outBuffer ob = { sc->chunk.p + STREAM_FRONT,
				      (size_t)SPARSE_CHUNK, 0 };

		if ((st = feed_more(f, &ib)) != OCC_OK)
			return st;
		r = ZSTD_decompressStream(z, &ob, &ib);
		if (ZSTD_isError(r)) {
			*why = ZSTD_getErrorName(r);
			return OCC_ERR_CORRUPT;
		}
		if (ob.pos > len - pos) {
			*why = "Destination buffer is too small";
			return OCC_ERR_CORRUPT;
		}
		if (ob.pos && (st = fn(ctx, pos, ob.dst, ob.pos)) != OCC_OK) {
			*why = NULL;
			return st;
		}
		pos += ob.pos;
		if (pos >= stop) {
			ZSTD_DCtx_reset(z, ZSTD_reset_session_only);
			return OCC_OK;
		}
		if (ob.pos == 0 && ib.pos == ib.size && f->done == f->n &&
		    r != 0) {
			*why = "Zstandard data is truncated";
			return OCC_ERR_CORRUPT;
		}
	}
	if (pos != len) {
		*why = "Zstandard data is shorter than the size the fatbin records";
		return OCC_ERR_CORRUPT;
	}
	return OCC_OK;
}

enum occ_status zstd_stream(struct bin_scratch *sc, const struct bin_src *src,
			    uint64_t off, struct span in, uint64_t usize,
			    stream_fn fn, void *ctx, const char **why)
{
	struct feed f = feed_of(sc, src, off, in);

	return pass(sc, &f, usize, UINT64_MAX, fn, ctx, why);
}
#else
enum occ_status zstd_stream(struct bin_scratch *sc, const struct bin_src *src,
			    uint64_t off, struct span in, uint64_t usize,
			    stream_fn fn, void *ctx, const char **why)
{
	(void)sc;
	(void)src;
	(void)off;
	(void)in;
	(void)usize;
	(void)fn;
	(void)ctx;
	*why = "no libzstd";
	return OCC_ERR_UNSUPPORTED;
}
#endif

uint64_t zstd_window(const uint8_t *p, size_t n, uint64_t usize)
{
	unsigned exponent, mantissa;
	uint64_t base;

	if (n < 5 || rd32(p) != 0xFD2FB528u)
		return 0;
	if (p[4] & 0x20)               /* Single_Segment_flag */
		return usize;
	if (n < 6)
		return 0;
	exponent = p[5] >> 3;
	mantissa = p[5] & 7;
	if (exponent > 31 - 10)        /* beyond any decoder's limit */
		return 0;
	base = (uint64_t)1 << (10 + exponent);
	return base + base / 8 * mantissa;
}

int sparse_streamed(const struct bin_src *src, const struct bin_entry *en,
		    int keep_ptx_text)
{
	return !src->mem && sparse_wanted(en, keep_ptx_text);
}

int sparse_wanted(const struct bin_entry *en, int keep_ptx_text)
{
#ifdef HAVE_ZSTD
	return (en->kind == KIND_ELF ||
		(en->kind == KIND_PTX && !keep_ptx_text)) &&
	       (en->flags & FLAG_ZSTD) && !(en->flags & FLAG_LZ4) &&
	       en->usize >= SPARSE_MIN && en->window && en->window < en->usize;
#else
	(void)en;
	(void)keep_ptx_text;
	return 0;
#endif
}

enum occ_status sparse_cubin(struct bin_scratch *sc, const struct bin_src *src,
			     uint64_t off, struct span in, uint64_t usize,
			     struct span *out, void **map, const char **why)
{
#ifdef HAVE_ZSTD
	struct sparse sp;
	struct feed f = feed_of(sc, src, off, in);
	enum occ_status st = OCC_OK;
	int i;

	memset(&sp, 0, sizeof sp);
	*map = NULL;
	sp.len = usize;
	sp.npages = (usize + PAGE - 1) / PAGE;
	sp.img = mmap(NULL, (size_t)usize, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	sp.need = calloc((size_t)sp.npages, 2);
	if (sp.img == MAP_FAILED || !sp.need) {
		if (sp.img != MAP_FAILED)
			munmap(sp.img, (size_t)usize);
		free(sp.need);
		return OCC_ERR_NOMEM;
	}
	sp.have = sp.need + sp.npages;
	mark(&sp, 0, PREFIX);
	for (i = 0; i < MAX_PASSES && st == OCC_OK; i++) {
		st = pass(sc, &f, usize, i == 0 ? UINT64_MAX
			  : (sp.last_missing + 1) * PAGE, take, &sp, why);
		if (st == OCC_OK)
			plan(&sp);
		if (st != OCC_OK || !missing(&sp))
			break;
	}
	free(sp.need);
	if (st != OCC_OK) {
		munmap(sp.img, (size_t)usize);
		return st;
	}
	*map = sp.img;
	out->p = sp.img;
	out->n = (size_t)usize;
	return OCC_OK;
#else
	(void)sc;
	(void)src;
	(void)off;
	(void)in;
	(void)usize;
	(void)out;
	*map = NULL;
	*why = "no libzstd";
	return OCC_ERR_UNSUPPORTED;
#endif
}
