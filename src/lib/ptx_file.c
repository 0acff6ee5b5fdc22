/*
 * ptx_file.c - a PTX file (nvcc -ptx, Triton's NAME.ptx): its kernels as
 * the text states them. The target comes from ".target sm_NN[a|f]"; each
 * .entry's performance directives are read as for PTX in a fatbin
 * (ptx.c); its static shared memory is the sum of the .shared variables
 * declared in its body (PTX ISA, "State Spaces": .shared, with the sizes
 * of the fundamental types). Registers, and shared memory declared at
 * module scope or .extern (dynamic), are known only once ptxas or the
 * driver compiles it: the kernel stays PTX only.
 */
#include <string.h>

#include "bin.h"

/* Comments and blank space before the first directive. */
static const char *skip(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
				   *p == '\r'))
			p++;
		if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		return p;
	}
}

int ptx_blank(const void *buf, size_t len)
{
	const char *p = buf;

	return skip(p, p + len) == p + len;
}

int ptx_file_sniff(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len;

	p = skip(p, end);
	return end - p >= 9 && memcmp(p, ".version", 8) == 0 &&
	       (p[8] == ' ' || p[8] == '\t');
}

/* ".target sm_90a" into sm and the fatbin-style flags; -1 if absent. */
static int target(const char *p, const char *end, uint64_t *flags)
{
	const char *t = ptx_find(p, end, ".target");
	long sm = 0;
	int digits = 0;

	*flags = 0;
	if (!t)
		return -1;
	t += 7;
	while (t < end && (*t == ' ' || *t == '\t'))
		t++;
	if (end - t < 3 || memcmp(t, "sm_", 3) != 0)
		return -1;
	for (t += 3; t < end && *t >= '0' && *t <= '9' && digits < 5;
	     t++, digits++)
		sm = sm * 10 + (*t - '0');
	if (digits == 0 || sm < 10)
		return -1;
	if (t < end && *t == 'a')
		*flags = FLAG_ARCH_SPECIFIC;   /* as a fatbin entry's */
	else if (t < end && *t == 'f')
		*flags = FLAG_FAMILY;
	return (int)sm;
}

/* The bytes of one fundamental type (.b32, .f64 ...); 0 if none. */
static uint64_t type_size(const char *p, const char *end)
{
	static const char *const types[] = { ".b8", ".u8", ".s8", ".b16",
		".u16", ".s16", ".f16", ".bf16", ".b32", ".u32", ".s32",
		".f32", ".b64", ".u64", ".s64", ".f64" };
	static const uint64_t sizes[] = { 1, 1, 1, 2, 2, 2, 2, 2, 4, 4, 4, 4,
					  8, 8, 8, 8 };
	size_t i, n;

	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		n = strlen(types[i]);
		if ((size_t)(end - p) > n && memcmp(p, types[i], n) == 0 &&
		    (p[n] == ' ' || p[n] == '\t'))
			return sizes[i];
	}
	return 0;
}

/* One declaration ".shared [.align N] .TYPE name[D]...;" at p: its
 * bytes, at most OCC_BYTES_MAX (a larger one cannot be compiled). */
static uint64_t declaration(const char *p, const char *end)
{
	/* No declaration is this long: the search stays bounded. */
	const char *lim = end - p > 4096 ? p + 4096 : end;
	const char *semi = memchr(p, ';', (size_t)(lim - p));
	uint64_t size = 0, count = 1, dim;

	if (!semi)
		return 0;
	for (; p < semi && !size; p++)
		if (*p == '.' && (size = type_size(p, semi)) != 0)
			break;
	for (; p < semi; p++) {
		if (*p != '[')
			continue;
		for (dim = 0, p++; p < semi && *p >= '0' && *p <= '9'; p++)
			dim = dim > OCC_BYTES_MAX ? dim : dim * 10 + (uint64_t)(*p - '0');
		count = dim > OCC_BYTES_MAX || count > OCC_BYTES_MAX / (dim ? dim : 1)
			? OCC_BYTES_MAX : count * dim;
	}
	return size && count <= OCC_BYTES_MAX / size ? size * count
						      : OCC_BYTES_MAX * !!size;
}

static int name_byte(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '$' || ch == '.';
}

/* The static shared memory the body of .entry name declares; *from: where
 * to look (entries come in text order), moved past it. The body ends at
 * its closing brace or, in text that has none, at the next .entry: each
 * byte is scanned once whatever the input. */
static uint64_t entry_shared(const char **from, const char *end,
			     const char *name)
{
	const char *p = *from, *body, *q;
	size_t n = strlen(name);
	uint64_t sum = 0;
	int depth = 0;

	while ((p = ptx_find(p, end, ".entry")) != NULL) {
		p += 6;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
			p++;
		/* The name ends where ptx.c's does: at a non-name byte. */
		if ((size_t)(end - p) > n && memcmp(p, name, n) == 0 &&
		    !name_byte(p[n]))
			break;
	}
	if (!p || !(body = memchr(p, '{', (size_t)(end - p))))
		return 0;
	*from = body + 1;
	for (q = body; q < end; q++) {
		depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
		if (depth == 0 || (q > body && *q == '.' && end - q > 6 &&
				   memcmp(q, ".entry", 6) == 0))
			break;
		if (*q == '.' && end - q > 8 && memcmp(q, ".shared", 7) == 0 &&
		    (q[7] == ' ' || q[7] == '\t') &&
		    !(q - body >= 8 && memcmp(q - 8, ".extern ", 8) == 0) &&
		    (sum += declaration(q, end)) > OCC_BYTES_MAX)
			sum = OCC_BYTES_MAX;
	}
	return sum;
}

struct shared_ctx {
	occ_bin_fn fn;
	void *ctx;
	const char *from, *end;  /* the text not yet searched */
};

static int with_shared(const struct occ_bin_kernel *k, void *ctx)
{
	struct shared_ctx *s = ctx;
	struct occ_bin_kernel e = *k;

	e.container = OCC_BIN_PTX;
	e.shared_section = (int64_t)entry_shared(&s->from, s->end, k->mangled);
	return s->fn(&e, s->ctx);
}

enum occ_status ptx_file_read(struct bin_ctx *c, struct span s)
{
	const char *p = (const char *)s.p, *end = p + s.n;
	struct shared_ctx sc = { c->fn, c->ctx, p, end };
	enum occ_status st;
	uint64_t flags;
	int sm = target(p, end, &flags);

	if (sm < 0)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p, "PTX without a "
				"'.target sm_NN' directive");
	c->fn = with_shared;
	c->ctx = &sc;
	c->container = OCC_BIN_PTX;
	st = ptx_read(c, s, sm, flags);
	c->fn = sc.fn;
	c->ctx = sc.ctx;
	return st;
}
