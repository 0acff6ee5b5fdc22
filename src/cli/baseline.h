/* baseline.h - rows as name/value text, for --compare: the baseline's
 * read back from occcalc's own JSON or JSON Lines (the library's
 * occ_rows_read_file) or either side's taken from rows just computed
 * (compare.c). */
#ifndef OCC_BASELINE_H
#define OCC_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A row's fields, kept in one block for the millions a baseline may
 * hold: each a name (not the row's: it must outlive it, a field table's),
 * whether it is null, and its value as JSON's text would give it (see
 * occcalc/rows.h). */
struct base_row {
	char *fields;
	size_t used;
	const char *key[3];         /* compare.c's: kernel, image, block,
	                               in its fields once they are all in */
	size_t order;               /* its place in the input */
};

struct baseline {
	struct base_row *rows;
	size_t n, cap;
};

void baseline_free(struct baseline *b);
/* The field's value: 1 and *text (NULL for null), or 0 if absent. */
int base_get(const struct base_row *r, const char *name, const char **text);
/* Adds a field (name kept as it is, a copy of text; text NULL: null): 0,
 * or -1 when out of memory. */
int base_add(struct base_row *r, const char *name, const char *text);
/* A new row at the end of b, or NULL when out of memory. */
struct base_row *base_new_row(struct baseline *b);
/* Takes back the last row of b. */
void base_drop_last(struct baseline *b);

#ifdef __cplusplus
}
#endif

#endif
