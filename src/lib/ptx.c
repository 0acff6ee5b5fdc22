/*
 * ptx.c - the kernels of a PTX entry in a fatbin. PTX is compiled by the
 * driver when loaded, so it says nothing of registers or shared memory;
 * what it does say are the performance directives the source asked for
 * (PTX ISA, "Performance-Tuning Directives" and "Cluster Dimension
 * Directives"): .maxntid and .minnctapersm (__launch_bounds__), .maxnreg
 * (__maxnreg__), .reqntid, .reqnctapercluster (__cluster_dims__) and
 * .maxclusterrank, written between an .entry's parameters and its body.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *ptx_find(const char *p, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; (size_t)(end - p) >= n; p++)
		if (memcmp(p, what, n) == 0)
			return p;
	return NULL;
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
				 const char *end, struct occ_bin_kernel *k,
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

enum occ_status ptx_read(struct bin_ctx *c, struct span s, int sm,
			 uint64_t entry_flags)
{
	const char *p = (const char *)s.p, *end = p + s.n, *q;
	struct occ_bin_kernel k;
	enum occ_status st;

	bin_kernel_init(&k);
	k.ptx_only = 1;
	k.regs = k.barriers = -1;
	k.shared_section = k.frame = k.stack = -1;
	k.min_blocks = 0;
	k.cc_major = sm / 10;
	k.cc_minor = sm % 10;
	/* The text without the NUL padding an entry may end in. */
	k.ptx_text = (const char *)s.p;
	for (k.ptx_len = s.n; k.ptx_len && s.p[k.ptx_len - 1] == 0;)
		k.ptx_len--;
	snprintf(k.arch, sizeof k.arch, "compute_%d%s", sm % 10000,
		 entry_flags & FLAG_ARCH_SPECIFIC ? "a" :
		 entry_flags & FLAG_FAMILY ? "f" : "");
	if (sm < 10)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p, "PTX entry for no "
				"architecture (%d)", sm);
	while ((q = ptx_find(p, end, ".entry")) != NULL) {
		p = q + strlen(".entry");
		if ((q > (const char *)s.p && !is_space(q[-1])) ||
		    p >= end || !is_space(*p))
			continue;          /* part of another word */
		if ((st = one_entry(c, p, end, &k, &p)) != OCC_OK)
			return st;
	}
	return OCC_OK;
}
