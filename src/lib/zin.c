/*
 * zin.c - plain or gzip input, member by member (zin.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zin.h"

#define ZIN_IN (1u << 16)

static int fail(struct occ_zin *z, enum occ_status st, uint64_t at,
		const char *what)
{
	if (z->st != OCC_OK)
		return -1;
	z->st = st;
	z->err_no = st == OCC_ERR_IO ? errno : 0;
	z->err_at = at;
	occ_copy_string(z->what, sizeof z->what, what);
	return -1;
}

/* More raw bytes after those unused: 1, 0 at the end, -1 on failure. */
static int fill(struct occ_zin *z)
{
	ssize_t got;

	if (z->eof)
		return 0;
	if (z->pos == z->len) {
		z->pos = z->len = 0;
	} else if (z->pos) {
		memmove(z->in, z->in + z->pos, z->len - z->pos);
		z->len -= z->pos;
		z->pos = 0;
	}
	do
		got = read(z->fd, z->in + z->len, ZIN_IN - z->len);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return fail(z, OCC_ERR_IO, z->in_off, strerror(errno));
	if (got == 0) {
		z->eof = 1;
		return 0;
	}
	z->len += (size_t)got;
	return 1;
}

int occ_zin_open(struct occ_zin *z, int fd)
{
	memset(z, 0, sizeof *z);
	z->fd = fd;
	z->in = malloc(ZIN_IN);
	if (!z->in)
		return fail(z, OCC_ERR_NOMEM, 0, "out of memory");
	while (z->len < 2 && fill(z) > 0)
		;
	if (z->st != OCC_OK)
		return -1;
	z->gzip = z->len >= 2 && z->in[0] == 0x1f && z->in[1] == 0x8b;
	if (z->gzip) {
		/* 16 + 15: gzip only (the magic is checked here), any
		 * window. */
		if (inflateInit2(&z->zs, 16 + 15) != Z_OK)
			return fail(z, OCC_ERR_NOMEM, 0, "out of memory");
		z->zinit = 1;
	}
	return 0;
}

/* After a member's end: 1 when another member starts, 0 at the end of
 * the input, -1 for anything else there. */
static int next_member(struct occ_zin *z)
{
	while (z->len - z->pos < 2 && fill(z) > 0)
		;
	if (z->st != OCC_OK)
		return -1;
	if (z->len == z->pos)
		return 0;
	if (z->len - z->pos < 2 || z->in[z->pos] != 0x1f ||
	    z->in[z->pos + 1] != 0x8b)
		return fail(z, OCC_ERR_CORRUPT, z->in_off,
			    "data after the gzip stream that is not gzip");
	inflateReset(&z->zs);
	z->member_done = 0;
	return 1;
}

static long inflate_some(struct occ_zin *z, unsigned char *buf, size_t n)
{
	size_t before;
	int ret, more;

	for (;;) {
		if (z->member_done) {
			more = next_member(z);
			if (more <= 0)
				return more;
		}
		if (z->pos == z->len && fill(z) < 0)
			return -1;
		before = z->len - z->pos;
		z->zs.next_in = z->in + z->pos;
		z->zs.avail_in = (uInt)before;
		z->zs.next_out = buf;
		z->zs.avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
		ret = inflate(&z->zs, Z_NO_FLUSH);
		z->pos += before - z->zs.avail_in;
		z->in_off += before - z->zs.avail_in;
		n = (size_t)(z->zs.next_out - buf);
		if (ret == Z_STREAM_END)
			z->member_done = 1;
		else if (ret == Z_MEM_ERROR)
			return fail(z, OCC_ERR_NOMEM, z->in_off,
				    "out of memory");
		else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT ||
			 ret == Z_STREAM_ERROR) {
			char what[64];

			snprintf(what, sizeof what, "gzip stream corrupt: %s",
				 z->zs.msg ? z->zs.msg : "bad data");
			return fail(z, OCC_ERR_CORRUPT, z->in_off, what);
		} else if (z->pos == z->len && z->eof && !n) {
			/* Ends inside a member: a file cut short, read up to
			 * the cut as a plain one is. */
			z->truncated = 1;
			return 0;
		}
		if (n)
			return (long)n;
	}
}

static long read_raw(struct occ_zin *z, unsigned char *buf, size_t n)
{
	size_t k;

	if (n > LONG_MAX)
		n = LONG_MAX;
	if (z->gzip)
		return inflate_some(z, buf, n);
	if (z->pos == z->len && fill(z) <= 0)
		return z->st != OCC_OK ? -1 : 0;
	k = z->len - z->pos < n ? z->len - z->pos : n;
	memcpy(buf, z->in + z->pos, k);
	z->pos += k;
	z->in_off += k;
	return (long)k;
}

long occ_zin_read(struct occ_zin *z, void *buf, size_t n)
{
	size_t k;

	if (z->st != OCC_OK)
		return -1;
	if (z->apos < z->alen) {
		k = z->alen - z->apos < n ? z->alen - z->apos : n;
		memcpy(buf, z->ahead + z->apos, k);
		z->apos += k;
		return (long)k;
	}
	return read_raw(z, buf, n);
}

const unsigned char *occ_zin_peek(struct occ_zin *z, size_t n, size_t *got)
{
	unsigned char *p;
	long k;

	if (z->apos) {
		memmove(z->ahead, z->ahead + z->apos, z->alen - z->apos);
		z->alen -= z->apos;
		z->apos = 0;
	}
	if (n > z->acap) {
		p = realloc(z->ahead, n);
		if (!p) {
			fail(z, OCC_ERR_NOMEM, z->in_off, "out of memory");
			return NULL;
		}
		z->ahead = p;
		z->acap = n;
	}
	while (z->alen < n &&
	       (k = read_raw(z, z->ahead + z->alen, n - z->alen)) > 0)
		z->alen += (size_t)k;
	if (z->st != OCC_OK)
		return NULL;
	*got = z->alen < n ? z->alen : n;
	return z->ahead;
}

void occ_zin_close(struct occ_zin *z)
{
	if (z->zinit)
		inflateEnd(&z->zs);
	free(z->in);
	free(z->ahead);
	z->in = z->ahead = NULL;
	z->zinit = 0;
}
