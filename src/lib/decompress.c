/*
 * decompress.c - the two algorithms nvcc compresses fatbin entries with.
 * Found by experiment with nvcc 13.0 (t/fixtures/bin/README): entries of
 * -compress-mode=speed hold a raw LZ4 block (fatbin flag 0x2000), those of
 * default, balance and size a Zstandard frame (flag 0x8000, magic
 * 28 b5 2f fd). LZ4 is decoded here from the format's specification
 * (github.com/lz4/lz4, doc/lz4_Block_format.md); Zstandard through libzstd
 * when configure found it.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "bin.h"

#ifdef HAVE_ZSTD
#ifdef HAVE_ZSTD_STATIC_CTX
#define ZSTD_STATIC_LINKING_ONLY 1  /* ZSTD_initStaticDCtx */
#endif
#include <zstd.h>
#endif

/* A length continued in 255-valued bytes, as both LZ4 lengths are. */
static int lz4_length(struct span in, size_t *pos, size_t *len)
{
	uint8_t b;

	do {
		if (*pos >= in.n)
			return -1;
		b = in.p[(*pos)++];
		if (*len > SIZE_MAX - 255)
			return -1;
		*len += b;
	} while (b == 255);
	return 0;
}

enum occ_status lz4_block_decode(struct span in, uint8_t *out, size_t out_len,
				 const char **why)
{
	size_t ip = 0, op = 0;

	*why = "LZ4 data is corrupt";
	while (ip < in.n) {
		uint8_t token = in.p[ip++];
		size_t lit = token >> 4, match = token & 15, off;

		if (lit == 15 && lz4_length(in, &ip, &lit))
			return OCC_ERR_CORRUPT;
		if (lit > in.n - ip || lit > out_len - op)
			return OCC_ERR_CORRUPT;
		memcpy(out + op, in.p + ip, lit);
		ip += lit;
		op += lit;
		if (ip == in.n)
			break;                  /* the last sequence: literals only */
		if (in.n - ip < 2)
			return OCC_ERR_CORRUPT;
		off = rd16(in.p + ip);
		ip += 2;
		if (off == 0 || off > op)
			return OCC_ERR_CORRUPT;
		if (match == 15 && lz4_length(in, &ip, &match))
			return OCC_ERR_CORRUPT;
		match += 4;
		if (match > out_len - op)
			return OCC_ERR_CORRUPT;
		/* Byte by byte where a match overlaps what it copies. */
		if (off >= match) {
			memcpy(out + op, out + op - off, match);
			op += match;
		} else {
			for (size_t i = 0; i < match; i++, op++)
				out[op] = out[op - off];
		}
	}
	if (op != out_len) {
		*why = "LZ4 data is shorter than the size the fatbin records";
		return OCC_ERR_CORRUPT;
	}
	return OCC_OK;
}

int occ_bin_has_zstd(void)
{
#ifdef HAVE_ZSTD
	return 1;
#else
	return 0;
#endif
}

void scratch_free(struct bin_scratch *s)
{
	buf_free(&s->in);
	buf_free(&s->out);
	buf_free(&s->chunk);
	buf_free(&s->feed);
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(s->zstd);
#endif
	memset(s, 0, sizeof *s);
}

size_t zstd_ctx_bytes(const void *z)
{
#ifdef HAVE_ZSTD
	return z ? ZSTD_sizeof_DCtx(z) : 0;
#else
	(void)z;
	return 0;
#endif
}

void zstd_ctx_free(void *z)
{
#ifdef HAVE_ZSTD
	ZSTD_freeDCtx(z);
#else
	(void)z;
#endif
}

/* The window, and the buffer of a block read ahead; with a context made
 * in place, what libzstd says it needs. */
uint64_t zstd_stream_bytes(uint64_t window)
{
#if defined(HAVE_ZSTD_STATIC_CTX)
	if (window > SIZE_MAX / 2)
		return UINT64_MAX;
	return ZSTD_estimateDStreamSize((size_t)window);
#else
	return window > UINT64_MAX / 2 ? UINT64_MAX
				       : window + ((uint64_t)1 << 18);
#endif
}

void *zstd_stream_ctx(void *ws, size_t n)
{
#if defined(HAVE_ZSTD_STATIC_CTX)
	return ZSTD_initStaticDCtx(ws, n);
#else
	(void)ws;
	(void)n;
	return NULL;
#endif
}

uint64_t zstd_in_place_margin(uint64_t usize)
{
#if defined(HAVE_ZSTD_STATIC_CTX) && defined(ZSTD_DECOMPRESSION_MARGIN)
	/* Earlier versions could overwrite input not yet read. */
	if (ZSTD_versionNumber() < 10504 || usize > SIZE_MAX / 2)
		return 0;
	return ZSTD_DECOMPRESSION_MARGIN((size_t)usize, ZSTD_BLOCKSIZE_MAX);
#else
	(void)usize;
	return 0;
#endif
}

/* The thread's context is kept: making one per entry costs more than
 * decompressing a small entry. */
enum occ_status zstd_decode(struct bin_scratch *sc, struct span in,
			    uint8_t *out, size_t out_len, size_t cap,
			    const char **why)
{
#ifdef HAVE_ZSTD
	size_t r;

	if (!sc->zstd && !(sc->zstd = ZSTD_createDCtx()))
		return OCC_ERR_NOMEM;
	r = ZSTD_decompressDCtx(sc->zstd, out, cap, in.p, in.n);

	if (ZSTD_isError(r)) {
		*why = ZSTD_getErrorName(r);
		return OCC_ERR_CORRUPT;
	}
	if (r != out_len) {
		*why = r > out_len ? "Destination buffer is too small"
		       : "Zstandard data is shorter than the size the fatbin "
			 "records";
		return OCC_ERR_CORRUPT;
	}
	return OCC_OK;
#else
	(void)sc;
	(void)in;
	(void)out;
	(void)out_len;
	(void)cap;
	*why = "this occcalc was built without libzstd and cannot decompress "
	       "Zstandard (nvcc's default compression; rebuild with libzstd-dev)";
	return OCC_ERR_UNSUPPORTED;
#endif
}
