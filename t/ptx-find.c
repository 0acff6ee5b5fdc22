/*
 * ptx-find.c - the search for ".entry" and the directives in PTX text
 * (ptx_find in src/lib/ptx.c): the first place the word starts, as
 * memmem finds it, wherever the word lies against the 16-byte blocks it
 * is searched in, among bytes that match its first or last byte.
 */
#define _GNU_SOURCE 1  /* memmem */
#include <string.h>

#include "bin.h"
#include "tap.h"

#define MAX_LEN 96

/* A text of n bytes with look-alikes of what: its first byte, its last,
 * both at the word's distance, and all but its last byte. */
static void decoys(char *b, size_t n, const char *what)
{
	size_t m = strlen(what), i;

	for (i = 0; i < n; i++)
		b[i] = "ab \t.\n%"[i % 7];
	for (i = 0; i + m <= n; i += m + 3) {
		memcpy(b + i, what, m);
		b[i + (i / (m + 3) % m)] = '#';
	}
}

/* ptx_find against memmem on every text of up to MAX_LEN bytes with the
 * word at every place in it, and with none; the first difference. */
static int agrees_everywhere(const char *what, char *why, size_t whysz)
{
	char b[MAX_LEN + 1];
	size_t m = strlen(what), n, at;

	for (n = 0; n <= MAX_LEN; n++)
		for (at = 0; at <= n; at++) {
			const char *want, *got;

			decoys(b, n, what);
			if (at + m <= n)
				memcpy(b + at, what, m);
			want = memmem(b, n, what, m);
			got = ptx_find(b, b + n, what);
			if (got != want) {
				snprintf(why, whysz, "text of %zu bytes, word "
					 "at %zu: found at %td, memmem %td", n,
					 at, got ? got - b : -1,
					 want ? want - b : -1);
				return 0;
			}
		}
	return 1;
}

static void finds_as_memmem(const char *what)
{
	char why[160] = "";

	tap_ok(agrees_everywhere(what, why, sizeof why), "\"%s\" is found "
	       "first where memmem finds it, at every place in texts of up "
	       "to %d bytes %s", what, MAX_LEN, why);
}

static void finds_the_first_of_two(void)
{
	char b[80];
	const char *got;

	memset(b, ' ', sizeof b);
	memcpy(b + 20, ".entry", 6);
	memcpy(b + 21 + 16, ".entry", 6);
	got = ptx_find(b, b + sizeof b, ".entry");
	tap_ok(got == b + 20, "of two .entry words in one block and the "
	       "next, the first");
}

static void nothing_past_the_end(void)
{
	char b[64];

	memset(b, ' ', sizeof b);
	memcpy(b + 40, ".entry", 6);
	tap_ok(ptx_find(b, b + 45, ".entry") == NULL &&
	       ptx_find(b + 45, b + 40, ".entry") == NULL,
	       "a word cut by the end of the text, or a text that ends "
	       "before it starts, is not found");
}

int main(void)
{
	tap_plan(6);
	finds_as_memmem(".entry");
	finds_as_memmem(".reqnctapercluster");
	finds_as_memmem(".e");
	finds_as_memmem("{");
	finds_the_first_of_two();
	nothing_past_the_end();
	return tap_done();
}
