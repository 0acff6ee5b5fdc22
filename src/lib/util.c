/* util.c - small helpers shared by the library and the CLI. */
#include <ctype.h>
#include <string.h>

#include "util.h"

static uint64_t suffix_multiplier(const char *s)
{
	static const struct { const char *s; uint64_t m; } sfx[] = {
		{ "", 1 }, { "K", 1024 }, { "k", 1024 }, { "KB", 1024 },
		{ "KiB", 1024 }, { "M", 1 << 20 }, { "MB", 1 << 20 },
		{ "MiB", 1 << 20 },
	};
	size_t i;

	for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
		if (strcmp(s, sfx[i].s) == 0)
			return sfx[i].m;
	return 0;
}

enum occ_parse_status occ_parse_u64(const char *s, uint64_t *out,
				    const char **end)
{
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return OCC_PARSE_SYNTAX;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return OCC_PARSE_RANGE;
		v = v * 10 + d;
	}
	*out = v;
	if (end)
		*end = s;
	return OCC_PARSE_OK;
}

enum occ_parse_status occ_parse_size(const char *s, uint64_t *out)
{
	enum occ_parse_status st;
	const char *end = s;
	uint64_t v, mult;

	/* Not a size at all is told before too large a one. */
	while (*end >= '0' && *end <= '9')
		end++;
	mult = suffix_multiplier(end);
	if (end == s || mult == 0)
		return OCC_PARSE_SYNTAX;
	st = occ_parse_u64(s, &v, NULL);
	if (st != OCC_PARSE_OK)
		return st;
	if (v > UINT64_MAX / mult)
		return OCC_PARSE_RANGE;
	*out = v * mult;
	return OCC_PARSE_OK;
}

#define FRACTION_DIGITS_MAX 9

/* The digits after a point at *s: their value and 10^count; -1 if there
 * are none or more than FRACTION_DIGITS_MAX. */
static int read_fraction(const char **s, uint64_t *frac, uint64_t *scale)
{
	int n = 0;

	*frac = 0;
	*scale = 1;
	for (; **s >= '0' && **s <= '9'; (*s)++, n++) {
		if (n == FRACTION_DIGITS_MAX)
			return -1;
		*frac = *frac * 10 + (uint64_t)(**s - '0');
		*scale *= 10;
	}
	return n ? 0 : -1;
}

enum occ_parse_status occ_parse_size_decimal(const char *s, uint64_t *out)
{
	const char *p = s, *point;
	uint64_t whole, frac, scale, mult, v;
	enum occ_parse_status st;

	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != '.')
		return occ_parse_size(s, out);
	point = p++;
	if (point == s || read_fraction(&p, &frac, &scale) != 0 ||
	    (mult = suffix_multiplier(p)) == 0)
		return OCC_PARSE_SYNTAX;
	/* frac < 10^9 and mult <= 2^20: the product fits in 64 bits. */
	if ((frac * mult) % scale != 0)
		return OCC_PARSE_FRACTION;
	st = occ_parse_u64(s, &whole, NULL);   /* stops at the point */
	if (st != OCC_PARSE_OK)
		return st;
	if (whole > UINT64_MAX / mult)
		return OCC_PARSE_RANGE;
	v = whole * mult;
	if (v > UINT64_MAX - frac * mult / scale)
		return OCC_PARSE_RANGE;
	*out = v + frac * mult / scale;
	return OCC_PARSE_OK;
}

void occ_trim_end(char *s)
{
	char *end = s + strlen(s);

	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
}

char *occ_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	occ_trim_end(s);
	return s;
}

void occ_strip_comment(char *s)
{
	char *hash = strchr(s, '#');

	if (hash)
		*hash = '\0';
}

void occ_copy_string(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void occ_diag_set(struct occ_diag *d, const char *file, int line,
		  const char *key)
{
	if (!d)
		return;
	occ_copy_string(d->file, sizeof d->file, file);
	d->line = line;
	occ_copy_string(d->key, sizeof d->key, key);
	d->limit = 0;
}
