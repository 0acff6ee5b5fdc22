/*
 * ar.c - static libraries (ar archives, as `ar rcs libk.a k.o` writes
 * them): each member that is an object with CUDA code is read as if named
 * alone. The format (System V / GNU ar): the magic "!<arch>\n", then per
 * member a 60-byte header (name[16], mtime[12], uid[6], gid[6], mode[8],
 * size[10] in decimal, "`\n") and its bytes, padded to an even offset.
 * Members named "/" or "/SYM64/" (symbol tables) and "//" (long names)
 * hold no code; any other member that is no ELF file is skipped, as a
 * directory walk skips what is no binary. Read from the source piece by
 * piece, as a host file is (hostelf.c).
 */
#include <string.h>

#include "bin.h"

#define AR_MAGIC "!<arch>\n"
#define AR_HEADER 60

int ar_sniff(const void *buf, size_t len)
{
	return len >= 8 && memcmp(buf, AR_MAGIC, 8) == 0;
}

/* The decimal size field: digits, then spaces; -1 if malformed. */
static int64_t member_size(const uint8_t *h)
{
	int64_t v = 0;
	int i = 0;

	for (; i < 10 && h[48 + i] >= '0' && h[48 + i] <= '9'; i++)
		v = v * 10 + (h[48 + i] - '0');
	if (i == 0)
		return -1;
	for (; i < 10; i++)
		if (h[48 + i] != ' ')
			return -1;
	return v;
}

/* A member that is an ELF file, read as if named alone (depth 0): its
 * fatbins' offsets stay the archive's, where --api loads them. */
static enum occ_status member_read(struct bin_ctx *c, struct bin_win *w,
				   uint64_t off, uint64_t size)
{
	const uint8_t *p;
	int cubin;

	if (size < 4 || win_get(c->src, w, off, size < 20 ? (size_t)size : 20,
				&p) != OCC_OK || rd32(p) != 0x464c457fu)
		return OCC_OK;
	cubin = size >= 20 && rd16(p + 0x12) == 190;
	c->container = cubin ? OCC_BIN_CUBIN : OCC_BIN_HOST_ELF;
	return cubin ? bin_read_whole(c, off, size, elf_read)
		     : host_walk(c, off, size);
}

enum occ_status ar_walk(struct bin_ctx *c)
{
	struct bin_win w = { { NULL, 0, 0 }, 0, 0, NULL };
	uint64_t off = 8, n = c->src->len;
	enum occ_status st = OCC_OK;

	while (off < n && st == OCC_OK) {
		const uint8_t *h;
		int64_t size = 0;

		if (n - off < AR_HEADER) {
			st = bin_fail_off(c, OCC_ERR_CORRUPT, off, "archive "
					  "member header cut short");
			break;
		}
		if ((st = win_get(c->src, &w, off, AR_HEADER, &h)) != OCC_OK) {
			st = src_fail(c, st, off);
			break;
		}
		if (h[58] != '`' || h[59] != '\n')
			st = bin_fail_off(c, OCC_ERR_CORRUPT, off, "archive "
					  "member header without its end "
					  "marker");
		else if ((size = member_size(h)) < 0)
			st = bin_fail_off(c, OCC_ERR_CORRUPT, off, "archive "
					  "member size is not a decimal number");
		else if ((uint64_t)size > n - off - AR_HEADER)
			st = bin_fail_off(c, OCC_ERR_CORRUPT, off, "archive "
					  "member of %lld bytes past the end",
					  (long long)size);
		else if (h[0] != '/' || (h[1] != ' ' && h[1] != '/' &&
					 h[1] != 'S'))
			st = member_read(c, &w, off + AR_HEADER,
					 (uint64_t)size);
		if (st == OCC_OK)
			off += AR_HEADER + (uint64_t)size + ((uint64_t)size & 1);
	}
	buf_free(&w.buf);
	return st;
}
