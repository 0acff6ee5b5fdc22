/*
 * row_set.c - one side of --compare (occcalc/row_compare.h): rows kept
 * as name/value text, the fields that name a kernel and those compared
 * only, from a row of occcalc's JSON read back (occ_rows_read) or a
 * program's; then keyed by kernel, image and (if asked) block, their
 * numbers checked, and sorted, for row_compare.c to merge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "row_compare_int.h"

/* What a row keeps: the names that key it, then the fields compared. */
static const char *const kept[3 + OCC_COMPARE_N] = {
	"kernel", "mangled", "arch",
	"block", "regs", "spill_stores", "spill_loads", "stack", "static_smem",
	"smem", "blocks_per_sm", "warps_per_sm", "occupancy_pct", "limiter",
};
#define TEXT_FIELD (3 + OCC_COMPARE_N - 1)

const char *occ_compare_field(size_t i, int *numeric)
{
	if (i >= OCC_COMPARE_N)
		return NULL;
	if (numeric)
		*numeric = 3 + i != TEXT_FIELD;
	return kept[3 + i];
}

/* The kept name equal to name (static: it outlives the reader's), or
 * NULL. */
static const char *kept_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (strcmp(name, kept[i]) == 0)
			return kept[i];
	return NULL;
}

/* ---- Rows ---- */

enum occ_status occ_row_set_new(struct occ_row_set **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? OCC_OK : OCC_ERR_NOMEM;
}

size_t occ_row_set_count(const struct occ_row_set *s)
{
	return s->n;
}

static struct occ_row_set_row *new_row(struct occ_row_set *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct occ_row_set_row *r = realloc(s->rows, cap * sizeof *r);

		if (!r)
			return NULL;
		s->rows = r;
		s->cap = cap;
	}
	memset(&s->rows[s->n], 0, sizeof s->rows[0]);
	s->rows[s->n].order = s->n;
	return &s->rows[s->n++];
}

/* A field in the block: its name's pointer, 0 or 1 (a value), the value
 * and its NUL. */
static int add_field(struct occ_row_set_row *r, const char *name,
		     const char *text)
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

/* The field named: 1 and *text (NULL for null), or 0 if absent. */
static int find_field(const struct occ_row_set_row *r, const char *name,
		      const char **text)
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

const char *row_set_get(const struct occ_row_set_row *r, const char *name)
{
	const char *t = NULL;

	return r && find_field(r, name, &t) ? t : NULL;
}

enum occ_status occ_row_set_add(struct occ_row_set *s,
				const struct occ_rows_row *row)
{
	struct occ_row_set_row *r;
	const char *name, *t;
	size_t i;

	if (s->n >= OCC_ROW_SET_MAX)
		return OCC_ERR_RANGE;
	if (!(r = new_row(s)))
		return OCC_ERR_NOMEM;
	s->prepared = 0;
	for (i = 0; i < row->n; i++)
		if ((name = kept_name(row->f[i].name)) != NULL &&
		    !find_field(r, name, &t) &&
		    add_field(r, name, row->f[i].text) != 0) {
			free(r->fields);
			s->n--;
			return OCC_ERR_NOMEM;
		}
	return OCC_OK;
}

static int add_read(const struct occ_rows_row *row, void *ctx)
{
	return (int)occ_row_set_add(ctx, row);
}

enum occ_status occ_row_set_add_json(struct occ_row_set *s, const char *text,
				     size_t len, struct occ_rows_diag *diag)
{
	int st = OCC_OK;
	enum occ_status read = occ_rows_read(text, len, add_read, s, &st,
					     diag);

	if (read == OCC_OK && st != OCC_OK)
		snprintf(diag->what, sizeof diag->what, "%s",
			 st == OCC_ERR_RANGE ? "more rows than a set holds"
			 : "out of memory");
	return read != OCC_OK ? read : (enum occ_status)st;
}

void occ_row_set_free(struct occ_row_set *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->rows[i].fields);
	free(s->rows);
	free(s);
}

/* ---- Keys ---- */

static enum occ_status make_key(struct occ_row_set_row *r, unsigned flags,
				struct occ_compare_diag *diag)
{
	const char *k = row_set_get(r, "mangled"), *a = row_set_get(r, "arch"),
		   *b = row_set_get(r, "block");

	if (!k)
		k = row_set_get(r, "kernel");
	if (!k || !a) {
		snprintf(diag->field, sizeof diag->field, "%s",
			 k ? "arch" : "kernel or mangled");
		return OCC_ERR_MISSING_KEY;
	}
	r->key[0] = k;
	r->key[1] = a;
	r->key[2] = (flags & OCC_COMPARE_BY_BLOCK) && b ? b : "";
	return OCC_OK;
}

int row_set_key_cmp(const struct occ_row_set_row *x,
		    const struct occ_row_set_row *y)
{
	int i, c;

	for (i = 0; i < 3; i++)
		if ((c = strcmp(x->key[i], y->key[i])) != 0)
			return c;
	return 0;
}

/* Its numbers must read as numbers, or no delta could be exact. */
static enum occ_status check_numbers(const struct occ_row_set_row *r,
				     struct occ_compare_diag *diag)
{
	struct occ_decimal x;
	const char *t;
	size_t j, used;

	for (j = 3; j < TEXT_FIELD; j++)
		if ((t = row_set_get(r, kept[j])) != NULL &&
		    (occ_decimal_parse(t, strlen(t), &x, &used) != 0 ||
		     t[used])) {
			snprintf(diag->field, sizeof diag->field, "%s",
				 kept[j]);
			snprintf(diag->value, sizeof diag->value, "%.40s", t);
			return OCC_ERR_BAD_VALUE;
		}
	return OCC_OK;
}

static int by_key(const void *a, const void *b)
{
	const struct occ_row_set_row *x = a, *y = b;
	int c = row_set_key_cmp(x, y);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

enum occ_status row_set_prepare(struct occ_row_set *s, unsigned flags,
				struct occ_compare_diag *diag)
{
	enum occ_status st;
	size_t i;

	if (s->prepared == flags + 1)
		return OCC_OK;
	for (i = 0; i < s->n; i++) {
		diag->row = s->rows[i].order;
		if ((st = make_key(&s->rows[i], flags, diag)) != OCC_OK ||
		    (st = check_numbers(&s->rows[i], diag)) != OCC_OK)
			return st;
	}
	if (s->n)       /* an empty side has no rows to sort */
		qsort(s->rows, s->n, sizeof s->rows[0], by_key);
	s->prepared = flags + 1;
	return OCC_OK;
}
