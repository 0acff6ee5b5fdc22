/*
 * ptx.c - the kernels of a PTX entry in a fatbin. PTX is compiled by the
 * driver when loaded, so it says nothing of registers or shared memory;
 * what it does say are the performance directives the source asked for
 * (PTX ISA, "Performance-Tuning Directives" and "Cluster Dimension
 * Directives"): .maxntid and .minnctapersm (__launch_bounds__), .maxnreg
 * (__maxnreg__), .reqntid, .reqnctapercluster (__cluster_dims__) and
 * .maxclusterrank, written between an .entry's parameters and its body.
 */
#define _GNU_SOURCE 1  /* memmem */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bin.h"

static int is_name_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '$' || ch == '.';
}

static int is_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Up to three comma-separated decimals after a directive; missing ones
 * are 1 (PTX's default for absent dimensions). -1 if none is there. */
static int numbers(const char *p, const char *end, int out[3])
{
	int n = 0;

	out[0] = out[1] = out[2] = 1;
	while (n < 3) {
		long v = 0;
		int digits = 0;

		while (p < end && (is_space(*p) || (n > 0 && *p == ',')))
			p++;
		while (p < end && *p >= '0' && *p <= '9' && digits < 10) {
			v = v * 10 + (*p++ - '0');
			digits++;
		}
		if (!digits)
			break;
		out[n++] = v > INT32_MAX ? INT32_MAX : (int)v;
	}
	return n ? 0 : -1;
}

/* The first of what in [p, end). A library's PTX runs to hundreds of
 * megabytes, searched for ".entry" throughout: where SSE2 is there, the
 * places whose bytes match what's first and last are found 16 at a time
 * (about three times glibc's memmem on toolkit PTX) and only they are
 * compared; memmem takes the rest. */
const char *ptx_find(const char *p, const char *end, const char *what)
{
	size_t m = strlen(what), n = p < end ? (size_t)(end - p) : 0, i = 0;

#ifdef __SSE2__
	if (m >= 2 && n >= m + 15) {
		__m128i first = _mm_set1_epi8(what[0]);
		__m128i last = _mm_set1_epi8(what[m - 1]);

		for (; i + m - 1 + 16 <= n; i += 16) {
			__m128i a = _mm_loadu_si128((const __m128i *)(p + i));
			__m128i b = _mm_loadu_si128((const __m128i *)
						    (p + i + m - 1));
			unsigned hits = (unsigned)_mm_movemask_epi8(
				_mm_and_si128(_mm_cmpeq_epi8(a, first),
					      _mm_cmpeq_epi8(b, last)));

			for (; hits; hits &= hits - 1) {
				size_t at = i + (size_t)__builtin_ctz(hits);

				if (!memcmp(p + at + 1, what + 1, m - 2))
					return p + at;
			}
		}
	}
#endif
	return i < n ? memmem(p + i, n - i, what, m) : NULL;
}

/* The directives in [p, end): the span between parameters and body. */
static void directives(const char *p, const char *end,
		       struct occ_bin_kernel *k)
{
	static const struct {
		const char *name;
		size_t field;
	} dir[] = {
		{ ".maxntid", offsetof(struct occ_bin_kernel, max_threads) },
		{ ".reqntid", offsetof(struct occ_bin_kernel, req_threads) },
		{ ".reqnctapercluster", offsetof(struct occ_bin_kernel, cluster) },
	};
	const char *d;
	int v[3];

	for (size_t i = 0; i < sizeof dir / sizeof dir[0]; i++)
		if ((d = ptx_find(p, end, dir[i].name)) &&
		    !numbers(d + strlen(dir[i].name), end, v))
			memcpy((char *)k + dir[i].field, v, sizeof v);
	if ((d = ptx_find(p, end, ".minnctapersm")) &&
	    !numbers(d + strlen(".minnctapersm"), end, v))
		k->min_blocks = v[0];
	if ((d = ptx_find(p, end, ".maxnreg")) &&
	    !numbers(d + strlen(".maxnreg"), end, v))
		k->max_regs = v[0];
	if ((d = ptx_find(p, end, ".maxclusterrank")) &&
	    !numbers(d + strlen(".maxclusterrank"), end, v))
		k->max_cluster_rank = v[0];
}

/* One .entry at p: its name, and the directives before its body. */
static enum occ_status one_entry(struct bin_ctx *c, const char *p,
				 const char *end, const struct occ_bin_kernel *k,
				 const char **next)
{
	const char *name, *body;
	struct occ_bin_kernel e = *k;
	char *copy;
	enum occ_status st;

	while (p < end && is_space(*p))
		p++;
	for (name = p; p < end && is_name_char(*p); p++)
		;
	if (p == name)
		return bin_fail(c, OCC_ERR_CORRUPT, name, "PTX .entry without "
				"a name");
	body = memchr(p, '{', (size_t)(end - p));
	if (!body)
		return bin_fail(c, OCC_ERR_CORRUPT, name, "PTX .entry %.*s has "
				"no body", (int)(p - name > 200 ? 200 : p - name),
				name);
	directives(memchr(p, ')', (size_t)(body - p)) ?
		   (const char *)memchr(p, ')', (size_t)(body - p)) : p,
		   body, &e);
	if (!(copy = malloc((size_t)(p - name) + 1)))
		return OCC_ERR_NOMEM;
	memcpy(copy, name, (size_t)(p - name));
	copy[p - name] = '\0';
	e.mangled = copy;
	st = bin_emit(c, &e);
	free(copy);
	*next = body + 1;
	return st;
}

/* The row every kernel of a PTX entry for sm starts from; a failure
 * (at the entry's bytes at) for no architecture. */
static enum occ_status ptx_row(struct bin_ctx *c, const void *at,
			       struct occ_bin_kernel *k, int sm,
			       uint64_t entry_flags)
{
	if (sm < 10)
		return bin_fail(c, OCC_ERR_CORRUPT, at, "PTX entry for no "
				"architecture (%d)", sm);
	bin_kernel_init(k);
	k->ptx_only = 1;
	k->regs = k->barriers = -1;
	k->shared_section = k->frame = k->stack = -1;
	k->min_blocks = 0;
	k->cc_major = sm / 10;
	k->cc_minor = sm % 10;
	snprintf(k->arch, sizeof k->arch, "compute_%d%s", sm % 10000,
		 entry_flags & FLAG_ARCH_SPECIFIC ? "a" :
		 entry_flags & FLAG_FAMILY ? "f" : "");
	return OCC_OK;
}

/* The .entry kernels in [p, end), the text from its start when first.
 * Unless last, an .entry whose body has not begun by end is left, and
 * *stop says where the next piece of text must be joined on (a
 * character before any .entry that may be cut by end); [p, braceless)
 * is known to hold no '{' (so that an .entry whose body is far away is
 * not searched again for each piece). */
static enum occ_status scan(struct bin_ctx *c, const struct occ_bin_kernel *k,
			    const char *p, const char *end, int first,
			    int last, const char *braceless, const char **stop)
{
	const char *start = p, *q, *after, *from;
	enum occ_status st;

	while ((q = ptx_find(p, end, ".entry")) != NULL) {
		after = q + strlen(".entry");
		from = braceless > after ? braceless : after;
		if (!last && (from >= end ||
			      !memchr(from, '{', (size_t)(end - from))))
			break;
		p = after;
		if (((q > start || !first) && !is_space(q[-1])) ||
		    p >= end || !is_space(*p))
			continue;          /* part of another word */
		if ((st = one_entry(c, p, end, k, &p)) != OCC_OK)
			return st;
	}
	if (stop) {
		if (!q)                    /* an .entry may begin in the tail */
			q = (size_t)(end - p) > strlen(".entry")
			    ? end - strlen(".entry") : p;
		*stop = q > start ? q - 1 : q;
	}
	return OCC_OK;
}

enum occ_status ptx_read(struct bin_ctx *c, struct span s, int sm,
			 uint64_t entry_flags)
{
	const char *p = (const char *)s.p;
	struct occ_bin_kernel k;
	enum occ_status st = ptx_row(c, s.p, &k, sm, entry_flags);

	if (st != OCC_OK)
		return st;
	/* The text without the NUL padding an entry may end in. */
	k.ptx_text = p;
	for (k.ptx_len = s.n; k.ptx_len && s.p[k.ptx_len - 1] == 0;)
		k.ptx_len--;
	return scan(c, &k, p, p + s.n, 1, 1, NULL, NULL);
}

/* A PTX text arriving in pieces: what is not yet scanned is kept. */
struct ptx_pieces {
	struct bin_ctx *c;
	struct occ_bin_kernel k;
	struct bin_buf kept;
	size_t n;                 /* bytes in kept */
	size_t braceless;         /* its first bytes, known to hold no '{' */
	int first;                /* kept starts the text */
	uint64_t len;             /* the whole text's */
};

/* The text kept joined with the piece p of n bytes: in the room before
 * the piece (the stream's STREAM_FRONT) when it fits, as it does unless
 * an .entry waits long for its body; else the piece is copied after it. */
static char *joined(struct ptx_pieces *pp, uint8_t *p, size_t n)
{
	if (pp->n <= STREAM_FRONT) {
		if (pp->n)
			memcpy(p - pp->n, pp->kept.p, pp->n);
		return (char *)p - pp->n;
	}
	if (buf_extend(&pp->kept, pp->n, pp->n + n))
		return NULL;
	memcpy(pp->kept.p + pp->n, p, n);
	return (char *)pp->kept.p;
}

static enum occ_status ptx_piece(void *ctx, uint64_t pos, uint8_t *p,
				 size_t n)
{
	struct ptx_pieces *pp = ctx;
	char *text = joined(pp, p, n);
	const char *stop;
	size_t len = pp->n + n;
	int last = pos + n == pp->len;
	enum occ_status st;

	if (!text)
		return OCC_ERR_NOMEM;
	st = scan(pp->c, &pp->k, text, text + len, pp->first, last,
		  text + pp->braceless, &stop);
	if (st != OCC_OK || last)
		return st;
	/* Kept from stop: an .entry waiting for its body, searched to the
	 * end for '{' (or a tail with none, where it does not matter). */
	if (stop > text) {
		len -= (size_t)(stop - text);
		pp->first = 0;
	}
	if (text != (char *)pp->kept.p && buf_reserve(&pp->kept, len))
		return OCC_ERR_NOMEM;
	memmove(pp->kept.p, stop > text ? stop : text, len);
	pp->n = len;
	pp->braceless = pp->n;
	return OCC_OK;
}

enum occ_status ptx_stream(struct bin_ctx *c, const struct bin_entry *en,
			   struct span in)
{
	struct ptx_pieces pp;
	const char *why = NULL;
	enum occ_status st;

	memset(&pp, 0, sizeof pp);
	pp.c = c;
	pp.first = 1;
	pp.len = en->usize;
	if ((st = ptx_row(c, in.p, &pp.k, (int)en->sm, en->flags)) != OCC_OK)
		return st;
	st = zstd_stream(c->scratch, c->src, en->off, in, en->usize,
			 ptx_piece, &pp, &why);
	buf_free(&pp.kept);
	return stream_fail(c, en, in.p, st, why);
}
