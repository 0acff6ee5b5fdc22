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
#include <string.h>
#include <sys/mman.h>

#include "bin.h"

#define ENTRY_MIN_HEADER 64
/* A Zstandard payload's frame header is read with its entry's header
 * when that header is no longer than this (nvcc's are 64 or 72 bytes). */
#define FRAME_HEAD_AT 256
/* LZ4 cannot expand a byte into more than 255 (its format's bound). */
#define LZ4_MAX_RATIO 255

/* The compressed bytes of the entry's payload *in, checked against what
 * its header claims, *in cut to them. */
static enum occ_status entry_packed(struct bin_ctx *c,
				    const struct bin_entry *en, struct span *in)
{
	int lz4 = (en->flags & FLAG_LZ4) != 0, zstd = (en->flags & FLAG_ZSTD) != 0;

	if (lz4 && zstd)
		return bin_fail(c, OCC_ERR_CORRUPT, in->p, "fatbin entry claims "
				"both LZ4 and Zstandard compression");
	if (en->csize > in->n)
		return bin_fail(c, OCC_ERR_CORRUPT, in->p, "compressed size %llu "
				"exceeds the entry's %zu bytes",
				(unsigned long long)en->csize, in->n);
	in->n = (size_t)en->csize;
	if (en->usize == 0 || en->usize > MAX_DECOMPRESSED ||
	    (lz4 && en->usize / LZ4_MAX_RATIO > in->n))
		return bin_fail(c, OCC_ERR_CORRUPT, in->p, "implausible "
				"decompressed size %llu for %zu compressed "
				"bytes", (unsigned long long)en->usize, in->n);
	return OCC_OK;
}

/* A streamed entry's failure st: the file read in pieces shrank, the
 * stream is bad (why), or the reader stopped it (why NULL). */
enum occ_status stream_fail(struct bin_ctx *c, const struct bin_entry *en,
			    const void *at, enum occ_status st,
			    const char *why)
{
	if (st == OCC_ERR_IO)
		return src_fail(c, st, en->off);
	if (st == OCC_OK || st == OCC_ERR_NOMEM || !why)
		return st;
	return bin_fail(c, st, at, "fatbin entry does not decompress: %s",
			why);
}

/* The room a frame may decompress into: to the end of its payload where
 * that was read into the end of the image's buffer (scratch.c). */
static size_t frame_room(const struct bin_buf *b, struct span in,
			 uint64_t usize)
{
	uintptr_t at = (uintptr_t)in.p - (uintptr_t)b->p;

	return (uintptr_t)in.p > (uintptr_t)b->p && at < b->cap
	       ? (size_t)(at + in.n) : (size_t)usize;
}

/* A frame refused in place, read again apart and refused as it is from
 * memory, where its room is the image's: libzstd's reason can differ
 * with the room. st and *why stay if it cannot be read again. */
static enum occ_status refused_apart(struct bin_ctx *c,
				     const struct bin_entry *en,
				     struct bin_buf *out, enum occ_status st,
				     const char **why)
{
	struct bin_buf in = { NULL, 0, 0 };
	struct span s;
	const char *again = NULL;
	enum occ_status st2 = src_read(c->src, en->off, (size_t)en->size, &in,
				       &s.p);

	s.n = (size_t)en->csize;
	if (st2 == OCC_OK)
		st2 = zstd_decode(c->scratch, s, out->p, (size_t)en->usize,
				  (size_t)en->usize, &again);
	buf_free(&in);
	if (st2 == OCC_ERR_CORRUPT || st2 == OCC_OK) {
		*why = again ? again : *why;
		return st2;
	}
	return st;
}

/* The stored bytes made readable: decompressed into the thread's buffer
 * when needed. */
static enum occ_status entry_bytes(struct bin_ctx *c, const struct bin_entry *en,
				   struct span in, struct span *out, void **map)
{
	int lz4 = (en->flags & FLAG_LZ4) != 0, zstd = (en->flags & FLAG_ZSTD) != 0;
	struct bin_buf *buf = &c->scratch->out;
	const char *why = NULL;
	size_t room;
	enum occ_status st;

	if (!lz4 && !zstd) {
		*out = in;
		return OCC_OK;
	}
	if ((st = entry_packed(c, en, &in)) != OCC_OK)
		return st;
	if (sparse_wanted(en, c->keep_ptx_text)) {
		st = sparse_cubin(c->scratch, c->src, en->off, in, en->usize,
				  out, map, &why);
		return stream_fail(c, en, in.p, st, why);
	}
	if (buf_reserve(buf, (size_t)en->usize))
		return OCC_ERR_NOMEM;
	room = frame_room(buf, in, en->usize);
	st = lz4 ? lz4_block_decode(in, buf->p, (size_t)en->usize, &why)
		 : zstd_decode(c->scratch, in, buf->p, (size_t)en->usize, room,
			       &why);
	if (st == OCC_ERR_CORRUPT && !lz4 && room > en->usize)
		st = refused_apart(c, en, buf, st, &why);
	if (st == OCC_ERR_NOMEM)
		return st;
	if (st != OCC_OK)
		return bin_fail(c, st, in.p, "fatbin entry does not decompress: "
				"%s", why);
	out->p = buf->p;
	out->n = (size_t)en->usize;
	return OCC_OK;
}

enum occ_status entry_read(struct bin_ctx *c, const struct bin_entry *en,
			   struct span payload)
{
	struct span s;
	uint64_t origin = c->origin;
	void *map = NULL;
	/* A large PTX text whose text is not kept is scanned as it passes. */
	int streamed = en->kind == KIND_PTX &&
		       sparse_wanted(en, c->keep_ptx_text);
	enum occ_status st;

	c->compression = en->flags & FLAG_LZ4 ? OCC_BIN_LZ4
			 : en->flags & FLAG_ZSTD ? OCC_BIN_ZSTD : OCC_BIN_STORED;
	st = streamed ? entry_packed(c, en, &payload)
		      : entry_bytes(c, en, payload, &s, &map);
	if (st != OCC_OK)
		return st;
	c->origin = bin_offset(c, payload.p);
	c->entry_flags = en->flags;
	if (streamed) {
		st = ptx_stream(c, en, payload);
	} else if (en->kind == KIND_PTX) {
		st = ptx_read(c, s, (int)en->sm, en->flags);
	} else if (s.n < 4 || rd32(s.p) != 0x464c457fu) {
		st = bin_fail(c, OCC_ERR_CORRUPT, payload.p, "fatbin entry "
			      "for sm_%u holds no ELF", en->sm);
	} else {
		c->depth++;
		st = elf_read(c, s);
		c->depth--;
	}
	c->entry_flags = 0;
	c->origin = origin;
	if (map)
		munmap(map, (size_t)en->usize);
	return st;
}

/* The entry whose header is at *pos of the fatbin at base (n bytes long),
 * *pos advanced past it. */
static enum occ_status entry_at(struct bin_ctx *c, struct bin_win *w,
				uint64_t base, uint64_t n, uint64_t *pos,
				struct bin_entry *en)
{
	const uint8_t *p;
	uint64_t at = base + *pos, hsize, size;
	size_t head;
	enum occ_status st;

	if (n - *pos < ENTRY_MIN_HEADER)
		return bin_fail_off(c, OCC_ERR_CORRUPT, at, "fatbin entry "
				    "header truncated");
	if ((st = win_get(c->src, w, at, ENTRY_MIN_HEADER, &p)) != OCC_OK)
		return src_fail(c, st, at);
	hsize = rd32(p + 4);
	size = rd64(p + 8);
	if (hsize < ENTRY_MIN_HEADER || hsize > n - *pos)
		return bin_fail_off(c, OCC_ERR_CORRUPT, at, "fatbin entry "
				    "header size %llu is impossible",
				    (unsigned long long)hsize);
	if (size > n - *pos - hsize)
		return bin_fail_off(c, OCC_ERR_CORRUPT, at, "fatbin entry of "
				    "%llu bytes runs past the end of its "
				    "fatbin", (unsigned long long)size);
	en->kind = rd16(p);
	en->csize = rd32(p + 16);
	en->sm = rd32(p + 28);
	en->flags = rd64(p + 40);
	en->usize = rd64(p + 56);
	en->off = at + hsize;
	en->size = size;
	en->window = 0;
	*pos += hsize + size;
	head = size < 6 ? (size_t)size : 6;
	if ((en->flags & FLAG_ZSTD) && hsize <= FRAME_HEAD_AT &&
	    win_get(c->src, w, at, (size_t)hsize + head, &p) == OCC_OK)
		en->window = zstd_window(p + hsize, head, en->usize);
	return OCC_OK;
}

/* Whether the caller wants the entry's images: decided from its header,
 * before its payload is read or decompressed. */
static int wanted(const struct bin_ctx *c, const struct bin_entry *en)
{
	struct occ_bin_image_head im;
	const struct occ_bin_opts *o = c->opts;

	if (en->kind != KIND_PTX && en->kind != KIND_ELF)
		return 0;
	if (!o || !o->select)
		return 1;
	memset(&im, 0, sizeof im);
	im.ptx = en->kind == KIND_PTX;
	im.sm = en->sm;
	im.arch_specific = (en->flags & FLAG_ARCH_SPECIFIC) != 0;
	im.family = (en->flags & FLAG_FAMILY) != 0;
	return o->select(&im, o->select_ctx);
}

/* Every entry header of the fatbin, up to the first bad one (*bad), read
 * through w (the window its header was read through). */
static struct bin_entry *entries_of(struct bin_ctx *c, struct bin_win *w,
				    uint64_t off, uint64_t hsize, uint64_t n,
				    size_t *count, enum occ_status *bad)
{
	struct bin_entry *v = NULL, *grown;
	size_t cap = 0;
	uint64_t pos;

	*count = 0;
	*bad = OCC_OK;
	for (pos = hsize; pos < n;) {
		struct bin_entry en;

		if ((*bad = entry_at(c, w, off, n, &pos, &en)) != OCC_OK)
			break;
		if (*count == cap) {
			cap = cap ? 2 * cap : 16;
			if (!(grown = realloc(v, cap * sizeof *v))) {
				*bad = OCC_ERR_NOMEM;
				break;
			}
			v = grown;
		}
		v[(*count)++] = en;
	}
	return v;
}

/* What the driver chooses by, from the header alone. */
static void describe(const struct bin_entry *en, struct image_desc *d)
{
	d->candidate = en->kind == KIND_PTX || en->kind == KIND_ELF;
	d->ptx = en->kind == KIND_PTX;
	d->sm = en->sm > 1000 ? 1000 : (int)en->sm;
	d->suffix = en->flags & FLAG_ARCH_SPECIFIC ? 'a'
		    : en->flags & FLAG_FAMILY ? 'f' : 0;
}

/* The index of the entry the driver loads on c->target_cc (-1: none runs
 * there, and every image is read); c says how it was chosen. */
static enum occ_status choose(struct bin_ctx *c, const struct bin_entry *v,
			      size_t n, int *pick)
{
	struct image_desc *d = calloc(n ? n : 1, sizeof *d);
	size_t i;

	if (!d)
		return OCC_ERR_NOMEM;
	for (i = 0; i < n; i++)
		describe(&v[i], &d[i]);
	*pick = image_choose(d, n, c->target_cc, &c->image, &c->images_run);
	for (c->images = 0, i = 0; i < n; i++)
		c->images += d[i].candidate;
	free(d);
	return OCC_OK;
}

/* What the entry is, for a file's contents (kind 8: LTO-IR, nvcc -dlto). */
static void count_entry(struct occ_bin_contents *n, unsigned kind)
{
	if (!n)
		return;
	if (kind == KIND_ELF)
		n->sass++;
	else if (kind == KIND_PTX)
		n->ptx++;
	else if (kind == KIND_LTOIR)
		n->ltoir++;
	else
		n->other++;
}

/* The PTX entries of the fatbin, read after the SASS chosen when a kernel
 * of it has a register cap (which __launch_bounds__' minimum blocks leaves
 * in a cubin): their .minnctapersm records the minimum itself. Into *out
 * (allocated), *n of them. */
static enum occ_status ptx_beside(const struct bin_entry *v, size_t count,
				  struct bin_entry **out, size_t *n)
{
	size_t i;

	*n = 0;
	*out = NULL;
	for (i = 0; i < count; i++)
		*n += v[i].kind == KIND_PTX;
	if (*n == 0)
		return OCC_OK;
	if (!(*out = malloc(*n * sizeof **out)))
		return OCC_ERR_NOMEM;
	for (*n = 0, i = 0; i < count; i++)
		if (v[i].kind == KIND_PTX)
			(*out)[(*n)++] = v[i];
	return OCC_OK;
}

/* Whether entry i is read: the driver's choice when a device is named
 * and an image runs there (whatever the caller's selection: that image is
 * the kernel), else the caller's selection. */
static int to_read(const struct bin_ctx *c, const struct bin_entry *v,
		   size_t i, int pick)
{
	if (pick >= 0)
		return (size_t)pick == i;
	return c->target_cc ? v[i].kind == KIND_PTX || v[i].kind == KIND_ELF
			    : wanted(c, &v[i]);
}

enum occ_status fatbin_walk(struct bin_ctx *c, uint64_t off, uint64_t n)
{
	struct bin_win w = { { NULL, 0, 0 }, 0, 0, NULL };
	const uint8_t *p;
	uint64_t hsize, size;
	struct bin_entry *v, *beside = NULL;
	size_t count, i, nbeside = 0;
	int pick = -1;
	enum occ_status st, bad;

	if (c->depth >= BIN_MAX_DEPTH)
		return bin_fail_off(c, OCC_ERR_CORRUPT, off, "fatbins nested "
				    "too deep");
	if (n < 16 || win_get(c->src, &w, off, 16, &p) != OCC_OK) {
		buf_free(&w.buf);
		return bin_fail_off(c, OCC_ERR_CORRUPT, off, "fatbin header "
				    "truncated");
	}
	hsize = rd16(p + 6);
	size = rd64(p + 8);
	if (hsize < 16 || hsize > n || size > n - hsize) {
		buf_free(&w.buf);
		return bin_fail_off(c, OCC_ERR_CORRUPT, off, "fatbin of %llu "
				    "bytes runs past the end (%llu bytes)",
				    (unsigned long long)size,
				    (unsigned long long)n);
	}
	n = hsize + size;
	c->fatbin_offset = (int64_t)off;
	c->depth++;
	if (c->contents)
		c->contents->fatbins++;
	v = entries_of(c, &w, off, hsize, n, &count, &bad);
	buf_free(&w.buf);
	for (i = 0; i < count; i++)
		count_entry(c->contents, v[i].kind);
	/* Choosing needs every header: a bad one fails before any image. */
	st = !c->target_cc ? OCC_OK : bad != OCC_OK ? bad
	     : choose(c, v, count, &pick);
	if (st == OCC_OK && pick >= 0 && c->image == OCC_IMAGE_SASS)
		st = ptx_beside(v, count, &beside, &nbeside);
	for (i = 0; i < count && st == OCC_OK; i++)
		if (to_read(c, v, i, pick))
			st = (size_t)pick == i
			     ? sched_submit(c, &v[i], beside, nbeside)
			     : sched_submit(c, &v[i], NULL, 0);
	free(beside);
	free(v);
	c->depth--;
	c->image = OCC_IMAGE_ALL;
	c->images = c->images_run = 0;
	c->compression = OCC_BIN_STORED;
	return st != OCC_OK ? st : bad;
}
