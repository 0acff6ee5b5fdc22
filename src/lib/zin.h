/*
 * zin.h - a file descriptor's bytes, plain or gzip, as the trace and
 * JSON readers take them (internal). zlib's gzread stops without a word
 * at the first byte after a gzip member that starts no other member, so
 * an appended line or garbage would be dropped: here members are
 * inflated one by one, members that follow are read, and anything else
 * after one is an error at its byte. Reads go through read(2) only, so a
 * pipe reads as a file does; what peek looks at is read again.
 */
#ifndef OCC_ZIN_H
#define OCC_ZIN_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "util.h"

struct occ_zin {
	int fd;
	int gzip;                   /* the input starts a gzip member */
	int member_done, zinit, eof;
	z_stream zs;
	unsigned char *in;          /* raw bytes read, in[pos .. len) unused */
	size_t pos, len;
	uint64_t in_off;            /* raw bytes before in[pos] */
	unsigned char *ahead;       /* peeked, ahead[apos .. alen) unread */
	size_t apos, alen, acap;
	int truncated;              /* the gzip stream ends inside a member */
	/* The failure: OCC_ERR_IO (err_no), OCC_ERR_CORRUPT, OCC_ERR_NOMEM,
	 * at raw byte err_at, what says it. */
	enum occ_status st;
	int err_no;
	uint64_t err_at;
	char what[64];
};

/* 0, or -1 with z->st set. */
OCC_INTERNAL int occ_zin_open(struct occ_zin *z, int fd);
/* Up to n bytes of the text: their count, 0 at its end, -1 with z->st. */
OCC_INTERNAL long occ_zin_read(struct occ_zin *z, void *buf, size_t n);
/* Up to n bytes from where the next read starts, without consuming them:
 * the bytes (*got of them, fewer only at the end), or NULL with z->st. */
OCC_INTERNAL const unsigned char *occ_zin_peek(struct occ_zin *z, size_t n,
					       size_t *got);
OCC_INTERNAL void occ_zin_close(struct occ_zin *z);

#endif
