/*
 * size.c - fuzzing occ_parse_size and occ_parse_size_decimal: what they
 * return must equal the number written, computed here independently in
 * 128 bits, and must read back from its own decimal form; what they refuse
 * must be no size, too large, or (decimal) not a whole number of bytes.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "util.h"

/* The reference: digits then one of the suffixes, or -1 for no size;
 * *v saturates above 64 bits. */
static int reference(const char *s, unsigned __int128 *v)
{
	static const struct { const char *s; unsigned m; } sfx[] = {
		{ "", 1 }, { "K", 1024 }, { "k", 1024 }, { "KB", 1024 },
		{ "KiB", 1024 }, { "M", 1 << 20 }, { "MB", 1 << 20 },
		{ "MiB", 1 << 20 },
	};
	const unsigned __int128 cap = (unsigned __int128)1 << 100;
	size_t i;

	*v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		*v = *v >= cap ? cap : *v * 10 + (unsigned)(*s - '0');
	for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
		if (strcmp(s, sfx[i].s) == 0) {
			*v *= sfx[i].m;
			return 0;
		}
	return -1;
}

/* The reference for decimals: digits, a point and 1-9 digits, a suffix;
 * -1 for no size, -2 for a fraction of a byte. */
static int reference_decimal(const char *s, unsigned __int128 *v)
{
	const char *point = strchr(s, '.');
	unsigned __int128 whole, frac, scale = 1;
	char *head, sfx[16];
	size_t n, k;
	int bad;

	if (!point)
		return reference(s, v);
	n = (size_t)(point - s);
	for (k = 1; point[k] >= '0' && point[k] <= '9'; k++)
		scale *= 10;
	if (n == 0 || strspn(s, "0123456789") != n || k == 1 || k > 10 ||
	    strlen(point + k) > 4)
		return -1;   /* digits, the point, digits, a suffix */
	snprintf(sfx, sizeof sfx, "1%s", point + k);
	if (reference(sfx, v) != 0 || reference(point + 1, &frac) != 0)
		return -1;   /* *v: the multiplier; frac read multiplied */
	head = strndup(s, n);
	bad = !head || reference(head, &whole) != 0;
	free(head);
	if (bad)
		return -1;
	if (frac % scale != 0)
		return -2;
	*v = whole * *v + frac / scale;
	return 0;
}

static void check_decimal(const char *s)
{
	unsigned __int128 want;
	uint64_t v = 0;
	int ref = reference_decimal(s, &want);

	switch (occ_parse_size_decimal(s, &v)) {
	case OCC_PARSE_OK:
		FUZZ_CHECK(ref == 0 && want == v, "decimal '%s' read as %"
			   PRIu64, s, v);
		break;
	case OCC_PARSE_RANGE:
		FUZZ_CHECK(ref == 0 && want > UINT64_MAX,
			   "decimal '%s' refused as too large", s);
		break;
	case OCC_PARSE_FRACTION:
		FUZZ_CHECK(ref == -2, "decimal '%s' refused as a fraction", s);
		break;
	case OCC_PARSE_SYNTAX:
		FUZZ_CHECK(ref == -1, "decimal '%s' refused as no size", s);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), back[32];
	unsigned __int128 want;
	uint64_t v = 0, again = 0;
	int ref = reference(s, &want);

	switch (occ_parse_size(s, &v)) {
	case OCC_PARSE_OK:
		FUZZ_CHECK(ref == 0 && want == v, "'%s' read as %" PRIu64, s,
			   v);
		snprintf(back, sizeof back, "%" PRIu64, v);
		FUZZ_CHECK(occ_parse_size(back, &again) == OCC_PARSE_OK &&
			   again == v, "%" PRIu64 " does not read back", v);
		break;
	case OCC_PARSE_RANGE:
		FUZZ_CHECK(ref == 0 && want > UINT64_MAX,
			   "'%s' refused as too large", s);
		break;
	case OCC_PARSE_SYNTAX:
		FUZZ_CHECK(ref != 0, "'%s' refused as no size", s);
		break;
	case OCC_PARSE_FRACTION:
		FUZZ_CHECK(0, "'%s': a fraction from occ_parse_size", s);
		break;
	}
	check_decimal(s);
	free(s);
	return 0;
}
