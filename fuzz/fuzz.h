/*
 * fuzz.h - shared by the libFuzzer harnesses (fuzz/NAME.c). Each harness
 * feeds one reader or parser, and then checks what no sanitizer sees: that
 * what it accepted is within its domain and reads back the same when
 * written out again. A failed check aborts, which libFuzzer reports as a
 * finding, and which fails the replay of t/fuzz-repro/ in make check.
 */
#ifndef OCC_FUZZ_H
#define OCC_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz check failed at %s:%d: ", \
				__FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a stream; NULL for an empty one (fmemopen needs a byte). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
	return size ? fmemopen((void *)data, size, "r") : NULL;
}

/* The input as a C string (up to its first NUL), to free. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
