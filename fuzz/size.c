/*
 * size.c - fuzzing occ_parse_size: what it returns must equal the number
 * written, computed here independently in 128 bits, and must read back
 * from its own decimal form; what it refuses must be no size or too large.
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
	}
	free(s);
	return 0;
}
