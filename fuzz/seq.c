/*
 * seq.c - fuzzing the command line's lists and ranges (occ_seq_parse in
 * src/lib/sweep.c): every value a sequence yields lies within the bounds
 * it was parsed with, and it yields as many as seq_count says.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Bounds as the options use them. */
	static const uint64_t bounds[][2] = {
		{ 1, INT32_MAX }, { 0, 255 }, { 0, UINT64_C(1) << 48 },
		{ 0, UINT64_MAX }, { 1, 32 }, { 1, 16 },
	};
	const uint64_t *b;
	struct seq q;
	struct seq_iter it;
	uint64_t n = 0, count;
	char *s;

	if (size == 0)
		return 0;
	b = bounds[data[0] % (sizeof bounds / sizeof bounds[0])];
	s = fuzz_string(data + 1, size - 1);
	if (occ_seq_parse(s, b[0], b[1], 0, &q, NULL, NULL) == OCC_OK) {
		count = seq_count(&q);
		FUZZ_CHECK(q.n >= 1 && count >= 1, "'%s': an empty sequence", s);
		for (seq_first(&it, &q); n < 100000; n++) {
			FUZZ_CHECK(it.value >= b[0] && it.value <= b[1],
				   "'%s': %" PRIu64 " outside %" PRIu64 "..%"
				   PRIu64, s, it.value, b[0], b[1]);
			if (!seq_next(&it))
				break;
		}
		FUZZ_CHECK(n == 100000 || n + 1 == count,
			   "'%s': %" PRIu64 " values, seq_count %" PRIu64, s,
			   n + 1, count);
		seq_free(&q);
	}
	free(s);
	return 0;
}
