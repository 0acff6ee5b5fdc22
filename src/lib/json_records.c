/*
 * json_records.c - whole objects out of the JSON reader's events, their
 * members flattened (json.h, "Records"): a trace's events, a baseline's
 * rows. Memory is one record's, within the caller's bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ---- Records ---- */

/* Room for n more bytes of names and texts, within the record's bound. */
static int room(struct occ_json_records *rc, struct occ_json_reader *r,
		size_t n)
{
	size_t max = rc->max_bytes ? rc->max_bytes : OCC_JSON_STRING_MAX;

	if (rc->used + n + (rc->n + 1) * sizeof *rc->m > max)
		return occ_json_fail(r, OCC_ERR_RANGE, rc->rec.offset,
				     "an object larger than %zu bytes", max);
	if (rc->used + n > rc->size) {
		size_t size = (rc->used + n) * 2;
		char *b = realloc(rc->buf, size);

		if (!b)
			return occ_json_fail(r, OCC_ERR_NOMEM, rc->rec.offset,
					     "out of memory");
		rc->buf = b;
		rc->size = size;
	}
	if (rc->n == rc->cap) {
		size_t cap = rc->cap ? 2 * rc->cap : 32;
		struct occ_json_member *m = realloc(rc->m, cap * sizeof *m);

		if (!m)
			return occ_json_fail(r, OCC_ERR_NOMEM, rc->rec.offset,
					     "out of memory");
		rc->m = m;
		rc->cap = cap;
	}
	return 0;
}

/* Copies s (n bytes and a NUL) to the record's text: its offset there. */
static size_t keep(struct occ_json_records *rc, const char *s, size_t n)
{
	size_t at = rc->used;

	memcpy(rc->buf + at, s, n);
	rc->buf[at + n] = '\0';
	rc->used += n + 1;
	return at;
}

/* Names and texts are kept as offsets while the buffer may move. */
#define OFF(p) ((size_t)(uintptr_t)(p))

static int add_member(struct occ_json_records *rc, struct occ_json_reader *r,
		      const struct occ_json_event *e)
{
	int d = e->depth - rc->depth - 1;
	const char *up = d ? rc->buf + rc->path[d - 1] : "";
	size_t lu = strlen(up), lk = e->key ? strlen(e->key) : 0,
	       ln = d && e->key ? lu + 1 + lk : d ? lu : lk;
	struct occ_json_member *m;
	size_t name;

	if (room(rc, r, ln + 1 + (e->text ? e->len + 1 : 0)) != 0)
		return -1;
	up = d ? rc->buf + rc->path[d - 1] : "";
	name = rc->used;
	if (d && e->key) {
		memcpy(rc->buf + name, up, lu);
		rc->buf[name + lu] = '.';
		memcpy(rc->buf + name + lu + 1, e->key, lk + 1);
		rc->used += ln + 1;
	} else {
		keep(rc, d ? up : e->key ? e->key : "", ln);
	}
	if (e->type == JSON_OBJECT || e->type == JSON_ARRAY)
		rc->path[d] = name;
	m = &rc->m[rc->n++];
	m->name = (const char *)(uintptr_t)name;
	m->type = e->type;
	m->text = e->text ? (const char *)(uintptr_t)keep(rc, e->text, e->len)
		: NULL;
	m->len = e->len;
	m->offset = e->offset;
	m->depth = d;
	m->index = e->index;
	return 0;
}

static int close_record(struct occ_json_records *rc, struct occ_json_reader *r)
{
	size_t i;

	for (i = 0; i < rc->n; i++) {
		rc->m[i].name = rc->buf + OFF(rc->m[i].name);
		if (rc->m[i].text)
			rc->m[i].text = rc->buf + OFF(rc->m[i].text);
	}
	rc->rec.m = rc->m;
	rc->rec.n = rc->n;
	rc->open = 0;
	return rc->record(rc->ctx, r, &rc->rec);
}

int occ_json_records_event(void *ctx, struct occ_json_reader *r,
			   const struct occ_json_event *e)
{
	struct occ_json_records *rc = ctx;

	if (rc->open) {
		if (e->depth == rc->depth)      /* its end */
			return close_record(rc, r);
		return e->type == JSON_END ? 0 : add_member(rc, r, e);
	}
	if (e->type == JSON_OBJECT && rc->select(rc->ctx, r, e)) {
		rc->open = 1;
		rc->depth = e->depth;
		rc->n = rc->used = 0;
		memset(&rc->rec, 0, sizeof rc->rec);
		rc->rec.offset = e->offset;
		rc->rec.depth = e->depth;
		rc->rec.key = e->key;
		rc->rec.index = e->index;
		return 0;
	}
	return rc->other ? rc->other(rc->ctx, r, e) : 0;
}

void occ_json_records_free(struct occ_json_records *rc)
{
	free(rc->m);
	free(rc->buf);
	rc->m = NULL;
	rc->buf = NULL;
	rc->n = rc->cap = rc->used = rc->size = 0;
	rc->open = 0;
}

const struct occ_json_member *occ_json_get(const struct occ_json_record *rec,
					   const char *name)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		if (strcmp(rec->m[i].name, name) == 0)
			return &rec->m[i];
	return NULL;
}
