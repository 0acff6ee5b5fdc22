/*
 * fatbin.c - fatbin containers: a 16-byte header (magic 0xBA55ED50, a
 * version, the header's size, the entries' size) and entries one after
 * another, each a header and its payload: a cubin or PTX text, stored or
 * compressed. Layout as documented by N. Eiling's cuda-fatbin-decompression
 * (fatbin-decompress.h) and nvopen-tools' fatbin/FORMAT_SPECIFICATION.md,
 * confirmed on nvcc 13.0's output (t/fixtures/bin/README): the entry's
 * 64-bit flags say how it is compressed (0x2000 LZ4, 0x8000 Zstandard) and
 * whether the target is architecture-specific (0x100000, "sm_90a") or
 * family-specific (0x200000, "sm_120f").
 */
#include <stdlib.h>

#include "bin.h"

enum { KIND_PTX = 1, KIND_ELF = 2 };
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define ENTRY_MIN_HEADER 64
/* Most a compressed entry may claim to expand to. */
#define MAX_DECOMPRESSED (1ull << 30)
/* LZ4 cannot expand a byte into more than 255 (its format's bound). */
#define LZ4_MAX_RATIO 255

struct entry {
	unsigned kind;
	uint64_t flags;
	unsigned sm;
	uint64_t csize, usize;
	struct span payload;      /* as stored */
};

/* The stored bytes made readable: decompressed into *buf when needed. */
static enum occ_status entry_bytes(struct bin_ctx *c, const struct entry *en,
				   uint8_t **buf, struct span *out)
{
	int lz4 = (en->flags & FLAG_LZ4) != 0, zstd = (en->flags & FLAG_ZSTD) != 0;
	struct span in = en->payload;
	const char *why = NULL;
	enum occ_status st;

	*buf = NULL;
	c->compression = lz4 ? OCC_BIN_LZ4 : zstd ? OCC_BIN_ZSTD : OCC_BIN_STORED;
	if (!lz4 && !zstd) {
		*out = in;
		return OCC_OK;
	}
	if (lz4 && zstd)
		return bin_fail(c, OCC_ERR_CORRUPT, in.p, "fatbin entry claims "
				"both LZ4 and Zstandard compression");
	if (en->csize > in.n)
		return bin_fail(c, OCC_ERR_CORRUPT, in.p, "compressed size %llu "
				"exceeds the entry's %zu bytes",
				(unsigned long long)en->csize, in.n);
	in.n = (size_t)en->csize;
	if (en->usize == 0 || en->usize > MAX_DECOMPRESSED ||
	    (lz4 && en->usize / LZ4_MAX_RATIO > in.n))
		return bin_fail(c, OCC_ERR_CORRUPT, in.p, "implausible "
				"decompressed size %llu for %zu compressed "
				"bytes", (unsigned long long)en->usize, in.n);
	if (!(*buf = malloc((size_t)en->usize)))
		return OCC_ERR_NOMEM;
	st = lz4 ? lz4_block_decode(in, *buf, (size_t)en->usize, &why)
		 : zstd_decode(in, *buf, (size_t)en->usize, &why);
	if (st != OCC_OK) {
		free(*buf);
		*buf = NULL;
		return bin_fail(c, st, in.p, "fatbin entry does not decompress: "
				"%s", why);
	}
	out->p = *buf;
	out->n = (size_t)en->usize;
	return OCC_OK;
}

static enum occ_status entry_read(struct bin_ctx *c, const struct entry *en)
{
	struct span s;
	uint8_t *buf;
	uint64_t origin = c->origin;
	enum occ_status st = entry_bytes(c, en, &buf, &s);

	if (st != OCC_OK)
		return st;
	c->origin = bin_offset(c, en->payload.p);
	c->entry_flags = en->flags;
	if (en->kind == KIND_PTX) {
		st = ptx_read(c, s, (int)en->sm, en->flags);
	} else if (s.n < 4 || rd32(s.p) != 0x464c457fu) {
		st = bin_fail(c, OCC_ERR_CORRUPT, en->payload.p, "fatbin entry "
			      "for sm_%u holds no ELF", en->sm);
	} else {
		c->depth++;
		st = elf_read(c, s);
		c->depth--;
	}
	c->entry_flags = 0;
	c->origin = origin;
	free(buf);
	return st;
}

/* The entry at *pos, advanced past it. */
static enum occ_status entry_at(struct bin_ctx *c, struct span s, size_t *pos,
				struct entry *en)
{
	const uint8_t *p = s.p + *pos;
	uint64_t hsize, size;

	if (s.n - *pos < ENTRY_MIN_HEADER)
		return bin_fail(c, OCC_ERR_CORRUPT, p, "fatbin entry header "
				"truncated");
	hsize = rd32(p + 4);
	size = rd64(p + 8);
	if (hsize < ENTRY_MIN_HEADER || hsize > s.n - *pos)
		return bin_fail(c, OCC_ERR_CORRUPT, p, "fatbin entry header "
				"size %llu is impossible",
				(unsigned long long)hsize);
	if (span_sub(s, *pos + hsize, size, &en->payload))
		return bin_fail(c, OCC_ERR_CORRUPT, p, "fatbin entry of %llu "
				"bytes runs past the end of its fatbin",
				(unsigned long long)size);
	en->kind = rd16(p);
	en->csize = rd32(p + 16);
	en->sm = rd32(p + 28);
	en->flags = rd64(p + 40);
	en->usize = rd64(p + 56);
	*pos += (size_t)hsize + (size_t)size;
	return OCC_OK;
}

#define ENTRY_ARCH_SPECIFIC 0x100000u
#define ENTRY_FAMILY 0x200000u

/* What the driver chooses by, from the header alone. */
static void describe(const struct entry *en, struct image_desc *d)
{
	d->candidate = en->kind == KIND_PTX || en->kind == KIND_ELF;
	d->ptx = en->kind == KIND_PTX;
	d->sm = en->sm > 1000 ? 1000 : (int)en->sm;
	d->suffix = en->flags & ENTRY_ARCH_SPECIFIC ? 'a'
		    : en->flags & ENTRY_FAMILY ? 'f' : 0;
}

/* The entries of s from pos on, described into *out (allocated); *n of
 * them. A malformed entry fails as the reading would. */
static enum occ_status describe_all(struct bin_ctx *c, struct span s,
				    size_t pos, struct image_desc **out,
				    size_t *n)
{
	struct image_desc *d = NULL, *nd;
	size_t cap = 0;
	enum occ_status st = OCC_OK;

	for (*n = 0; pos < s.n; ++*n) {
		struct entry en;

		if ((st = entry_at(c, s, &pos, &en)) != OCC_OK)
			break;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			if (!(nd = realloc(d, cap * sizeof *d))) {
				st = OCC_ERR_NOMEM;
				break;
			}
			d = nd;
		}
		describe(&en, &d[*n]);
	}
	*out = d;
	return st;
}

/* The images of a fatbin that are read for c->target_cc: the one the
 * driver loads (chosen[i] set for it), or all when none runs there. */
static enum occ_status choose(struct bin_ctx *c, struct span s, size_t pos,
			      int *pick)
{
	struct image_desc *d;
	size_t n, i;
	enum occ_status st = describe_all(c, s, pos, &d, &n);

	if (st == OCC_OK) {
		*pick = image_choose(d, n, c->target_cc, &c->image,
				     &c->images_run);
		for (c->images = 0, i = 0; i < n; i++)
			c->images += d[i].candidate;
	}
	free(d);
	return st;
}

enum occ_status fatbin_read(struct bin_ctx *c, struct span s)
{
	int pick = -1, index;
	size_t pos, hsize;
	uint64_t size;
	enum occ_status st;

	if (c->depth >= BIN_MAX_DEPTH)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p, "fatbins nested too "
				"deep");
	if (s.n < 16)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p, "fatbin header "
				"truncated");
	hsize = rd16(s.p + 6);
	size = rd64(s.p + 8);
	if (hsize < 16 || hsize > s.n || size > s.n - hsize)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p, "fatbin of %llu bytes "
				"runs past the end (%zu bytes)",
				(unsigned long long)size, s.n);
	s.n = hsize + (size_t)size;
	c->fatbin_offset = (int64_t)bin_offset(c, s.p);
	if (c->target_cc && (st = choose(c, s, hsize, &pick)) != OCC_OK)
		return st;
	c->depth++;
	for (pos = hsize, index = 0, st = OCC_OK; pos < s.n && st == OCC_OK;
	     index++) {
		struct entry en;

		if ((st = entry_at(c, s, &pos, &en)) != OCC_OK)
			break;
		if ((en.kind == KIND_PTX || en.kind == KIND_ELF) &&
		    (pick < 0 || pick == index))
			st = entry_read(c, &en);
	}
	c->depth--;
	c->image = OCC_IMAGE_ALL;
	c->images = c->images_run = 0;
	c->compression = OCC_BIN_STORED;
	return st;
}
