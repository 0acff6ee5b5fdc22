/* words.h - words for the user (words.c): the names nearest a misspelt
 * one, for "did you mean", and plurals. Included by cli.h. */
#ifndef OCC_WORDS_H
#define OCC_WORDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NEAREST_MAX 3

struct nearest {
	const char *typed;
	size_t len;
	const char *name[NEAREST_MAX];   /* nearest first */
	int dist[NEAREST_MAX];
	size_t n;
};

void nearest_init(struct nearest *nr, const char *typed, size_t len);
/* Offers one name of the table; the NEAREST_MAX nearest are kept. */
void nearest_offer(struct nearest *nr, const char *name);
/* "a, b or c" into buf. */
void nearest_text(const struct nearest *nr, char *buf, size_t n);
/* "s" unless n is 1: "%d block%s", n, plural(n) reads "1 block". */
const char *plural(long long n);

#ifdef __cplusplus
}
#endif

#endif
