/* baseline.h - rows as name/value text, read from occcalc's own JSON or
 * JSON Lines (baseline.c) or taken from rows just computed (compare.c),
 * for --compare. Parsing never prints: errors carry line and column. */
#ifndef OCC_BASELINE_H
#define OCC_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One field of a row: its value as JSON's text would give it (numbers
 * as written, strings unescaped, true/false, arrays '+'-joined for
 * strings and ' '-joined for numbers); text NULL: null. */
struct base_field {
	char *name;
	char *text;
};

struct base_row {
	struct base_field *f;
	size_t n, cap;
	char *key;                  /* compare.c's: kernel, image, block */
	size_t order;               /* its place in the input */
};

struct baseline {
	struct base_row *rows;
	size_t n, cap;
};

struct base_error {
	size_t line, column;
	char msg[160];
};

/* A JSON array of objects (--format json) or one object a line
 * (--format jsonl), each object's values scalars or arrays of scalars:
 * 0, or -1 with err filled. b is filled either way (baseline_free). */
int baseline_parse(const char *text, size_t len, struct baseline *b,
		   struct base_error *err);
void baseline_free(struct baseline *b);
/* The field's value: 1 and *text (NULL for null), or 0 if absent. */
int base_get(const struct base_row *r, const char *name, const char **text);
/* Adds a field (copies of name and text, text NULL: null): 0, or -1
 * when out of memory. */
int base_add(struct base_row *r, const char *name, const char *text);
/* A new row at the end of b, or NULL when out of memory. */
struct base_row *base_new_row(struct baseline *b);

#ifdef __cplusplus
}
#endif

#endif
