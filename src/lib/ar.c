/*
 * ar.c - static libraries (ar archives, as `ar rcs libk.a k.o` writes
 * them): each member that is an object with CUDA code is read as if named
 * alone. The format (System V / GNU ar): the magic "!<arch>\n", then per
 * member a 60-byte header (name[16], mtime[12], uid[6], gid[6], mode[8],
 * size[10] in decimal, "`\n") and its bytes, padded to an even offset.
 * Members named "/" or "/SYM64/" (symbol tables) and "//" (long names)
 * hold no code; any other member that is no ELF file is skipped, as a
 * directory walk skips what is no binary.
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

static int is_elf(struct span m)
{
	return m.n >= 4 && rd32(m.p) == 0x464c457fu;
}

enum occ_status ar_read(struct bin_ctx *c, struct span s)
{
	uint64_t off = 8;
	enum occ_status st;

	if (c->depth > 0)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p, "an archive inside "
				"a binary");
	while (off < s.n) {
		const uint8_t *h = s.p + off;
		struct span m;
		int64_t size;

		if (s.n - off < AR_HEADER)
			return bin_fail(c, OCC_ERR_CORRUPT, h, "archive member "
					"header cut short");
		if (h[58] != '`' || h[59] != '\n')
			return bin_fail(c, OCC_ERR_CORRUPT, h, "archive member "
					"header without its end marker");
		if ((size = member_size(h)) < 0)
			return bin_fail(c, OCC_ERR_CORRUPT, h, "archive member "
					"size is not a decimal number");
		if (span_sub(s, off + AR_HEADER, (uint64_t)size, &m) != 0)
			return bin_fail(c, OCC_ERR_CORRUPT, h, "archive member "
					"of %lld bytes past the end",
					(long long)size);
		if (h[0] != '/' || (h[1] != ' ' && h[1] != '/' && h[1] != 'S')) {
			/* Read as if named alone (depth 0): its fatbins'
			 * offsets stay the archive's, where --api loads them. */
			if (is_elf(m) && (st = bin_read_any(c, m)) != OCC_OK)
				return st;
		}
		off += AR_HEADER + (uint64_t)size + ((uint64_t)size & 1);
	}
	return OCC_OK;
}
