/*
 * baseline.c - rows kept as name/value text for --compare (baseline.h):
 * the fields compare.c takes from a computed row or from a row of
 * occcalc's JSON read back by the library (occ_rows_read_file).
 */
#include <stdlib.h>
#include <string.h>

#include "baseline.h"

/* ---- Rows ---- */

struct base_row *base_new_row(struct baseline *b)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct base_row *r = realloc(b->rows, cap * sizeof *r);

		if (!r)
			return NULL;
		b->rows = r;
		b->cap = cap;
	}
	memset(&b->rows[b->n], 0, sizeof b->rows[0]);
	b->rows[b->n].order = b->n;
	return &b->rows[b->n++];
}

/* A field in the block: its name's pointer, 0 or 1 (a value), the value
 * and its NUL. */
int base_add(struct base_row *r, const char *name, const char *text)
{
	size_t n = sizeof name + 1 + (text ? strlen(text) : 0) + 1;
	char *f = realloc(r->fields, r->used + n), *p;

	if (!f)
		return -1;
	r->fields = f;
	p = f + r->used;
	memcpy(p, &name, sizeof name);
	p[sizeof name] = text != NULL;
	strcpy(p + sizeof name + 1, text ? text : "");
	r->used += n;
	return 0;
}

int base_get(const struct base_row *r, const char *name, const char **text)
{
	const char *p = r->fields, *end = p ? p + r->used : NULL, *n;

	for (; p < end; p += sizeof n + 2 + strlen(p + sizeof n + 1)) {
		memcpy(&n, p, sizeof n);
		if (strcmp(n, name) == 0) {
			*text = p[sizeof n] ? p + sizeof n + 1 : NULL;
			return 1;
		}
	}
	return 0;
}

static void row_free(struct base_row *r)
{
	free(r->fields);
}

void base_drop_last(struct baseline *b)
{
	if (b->n)
		row_free(&b->rows[--b->n]);
}

void baseline_free(struct baseline *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		row_free(&b->rows[i]);
	free(b->rows);
	memset(b, 0, sizeof *b);
}
