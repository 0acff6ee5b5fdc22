/*
 * trace.c - occcalc's trace file (docs/trace-format.md): JSON Lines, each
 * line one record parsed alone (the project's JSON reader, json.h), so
 * that a file cut short reads up to its last whole line and an error
 * names its line. A line's values are checked and put in its record
 * here; what a record of each type means is trace_records.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "trace_int.h"
#include "zin.h"

#define DESC(id, name, kind) { name, kind },
const struct key_desc trace_keys[K_COUNT] = { KEYS(DESC) };
#undef DESC

static enum key key_find(const char *s)
{
	int k;

	for (k = 0; s && k < K_COUNT; k++)
		if (strcmp(trace_keys[k].name, s) == 0)
			return (enum key)k;
	return K_UNKNOWN;
}

static int bad(struct occ_json_reader *jr, const struct occ_json_event *e,
	       enum occ_status st, enum key k)
{
	return occ_json_fail(jr, st, e->offset, "%s", trace_keys[k].name);
}

/* A percentage of 0 to 100 (a measured one may pass 100 by rounding:
 * up to 101 is taken). */
static int percent(const char *text, size_t len, double *out)
{
	char buf[64], *end;

	if (len >= sizeof buf)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return *end || !(*out >= 0 && *out <= 101) ? -1 : 0;
}

/* A member of the record (depth 1). */
static int member(struct trace_reader *t, struct occ_json_reader *jr,
		  const struct occ_json_event *e)
{
	struct record *c = &t->rec;
	enum key k = key_find(e->key);
	enum kind want = k == K_UNKNOWN ? KV_SKIP : trace_keys[k].kind;
	int st;

	if (want == KV_SKIP)
		return 0;
	if (c->have & BIT(k))
		return bad(jr, e, OCC_ERR_DUPLICATE_KEY, k);
	if (want == KV_DIM3) {
		if (e->type != JSON_ARRAY)
			return bad(jr, e, OCC_ERR_BAD_VALUE, k);
		c->dim_key = k;
		c->n_dim = 0;
		return 0;
	}
	if (want == KV_STR && e->type == JSON_STRING) {
		/* The line's strings fit in its length. */
		c->str[k] = c->strs_len;
		memcpy(c->strs + c->strs_len, e->text, e->len + 1);
		c->strs_len += e->len + 1;
	} else if (want == KV_INT && e->type == JSON_NUMBER) {
		st = occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX,
				  &c->num[k]);
		if (st != 0)
			return bad(jr, e, st == -2 ? OCC_ERR_RANGE
					       : OCC_ERR_BAD_VALUE, k);
	} else if (want == KV_PCT && e->type == JSON_NUMBER) {
		if (percent(e->text, e->len, &c->pct[k]) != 0)
			return bad(jr, e, OCC_ERR_RANGE, k);
	} else
		return bad(jr, e, OCC_ERR_BAD_VALUE, k);
	c->have |= BIT(k);
	return 0;
}

/* An element of a dimension array (depth 2). */
static int dim_element(struct trace_reader *t, struct occ_json_reader *jr,
		       const struct occ_json_event *e)
{
	struct record *c = &t->rec;
	int st;

	if (e->type != JSON_NUMBER || c->n_dim == 3)
		return bad(jr, e, OCC_ERR_BAD_VALUE, c->dim_key);
	st = occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX,
			  &c->dim[c->dim_key][c->n_dim++]);
	return st ? bad(jr, e, st == -2 ? OCC_ERR_RANGE : OCC_ERR_BAD_VALUE,
			c->dim_key) : 0;
}

static int on_event(void *ctx, struct occ_json_reader *jr,
		    const struct occ_json_event *e)
{
	struct trace_reader *t = ctx;
	struct record *c = &t->rec;

	if (e->depth == 0)
		return e->type == JSON_OBJECT || e->type == JSON_END ? 0
		       : occ_json_fail(jr, OCC_ERR_SYNTAX, e->offset,
				       "not a JSON object");
	if (e->depth == 1 && e->type == JSON_END) {
		if (c->dim_key == K_UNKNOWN)
			return 0;
		if (c->n_dim != 3)
			return bad(jr, e, OCC_ERR_BAD_VALUE, c->dim_key);
		c->have |= BIT(c->dim_key);
		c->dim_key = K_UNKNOWN;
		return 0;
	}
	if (e->depth == 1)
		return member(t, jr, e);
	/* Inside a member: a dimension's elements, or skipped. */
	if (c->dim_key == K_UNKNOWN)
		return 0;
	if (e->depth == 2 && e->type != JSON_END)
		return dim_element(t, jr, e);
	return bad(jr, e, OCC_ERR_BAD_VALUE, c->dim_key);
}
static int blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/* Parses the line in t->line (t->len bytes) as one record. */
static enum occ_status line_parse(struct trace_reader *t)
{
	static const struct occ_json_limits lim = { 0, OCC_LAUNCH_LINE_MAX, 0,
						    0 };
	struct record *c = &t->rec;
	struct occ_json_err err;
	enum occ_status st;

	if (blank(t->line, t->len))
		return OCC_OK;
	memset(c, 0, offsetof(struct record, strs));
	c->dim_key = K_UNKNOWN;
	c->strs_len = 0;
	memset(&err, 0, sizeof err);
	st = occ_json_read_mem(t->line, t->len, &lim, on_event, t, &err);
	/* A whole line that ends inside its object: records spread over
	 * lines, as jq prints them without -c. */
	if (st != OCC_OK && err.cut_short && t->whole_line)
		return launch_fail(t->r, st, t->lineno, t->line_offset,
				   "a record spread over lines (one a line: "
				   "jq -c)");
	if (st != OCC_OK)
		return launch_fail(t->r, st, t->lineno,
				   t->line_offset + err.offset, err.what);
	return trace_record(t);
}

/* Room for n more bytes of the line, and for its strings. */
static enum occ_status line_room(struct trace_reader *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 4096;
	char *p, *s;

	if (t->len + n > OCC_LAUNCH_LINE_MAX) {
		t->r->diag->limit = OCC_LAUNCH_LINE_MAX;
		/* The line being assembled: lineno counts whole ones. */
		return launch_fail(t->r, OCC_ERR_LINE_TOO_LONG, t->lineno + 1,
				   t->line_offset, NULL);
	}
	if (t->len + n + 1 <= t->cap)
		return OCC_OK;
	while (cap < t->len + n + 1)
		cap *= 2;
	p = realloc(t->line, cap);
	if (!p)
		return OCC_ERR_NOMEM;
	t->line = p;
	s = realloc(t->rec.strs, cap);
	if (!s)
		return OCC_ERR_NOMEM;
	t->rec.strs = s;
	t->cap = cap;
	return OCC_OK;
}

static enum occ_status trace_feed(struct trace_reader *t,
				  const unsigned char *p, size_t n)
{
	const unsigned char *chunk = p, *nl;
	enum occ_status st;
	size_t k;

	while (n > 0) {
		if (t->len == 0)
			t->line_offset = t->r->offset + (uint64_t)(p - chunk);
		nl = memchr(p, '\n', n);
		k = nl ? (size_t)(nl - p) : n;
		st = line_room(t, k);
		if (st != OCC_OK)
			return st;
		memcpy(t->line + t->len, p, k);
		t->len += k;
		p += k;
		n -= k;
		if (!nl)
			break;
		t->lineno++;
		t->whole_line = 1;
		st = line_parse(t);
		t->whole_line = 0;
		t->len = 0;
		if (st != OCC_OK)
			return st;
		p++;
		n--;
	}
	return OCC_OK;
}

static enum occ_status trace_finish(struct trace_reader *t)
{
	enum occ_status st;

	if (t->len > 0 && !blank(t->line, t->len)) {
		/* A last line without its newline: whole if it parses. */
		t->lineno++;
		st = line_parse(t);
		if (st == OCC_OK)
			return OCC_OK;
		if (st != OCC_ERR_SYNTAX)
			return st;
		t->r->info->cut_short = 1;
		launch_fail(t->r, OCC_OK, 0, 0, NULL);
	}
	if (!t->seen_header)
		return launch_fail(t->r, OCC_ERR_MISSING_KEY, 0, 0,
				   "header record");
	return OCC_OK;
}

enum occ_status trace_read(struct launch_read *r, struct occ_zin *z)
{
	struct trace_reader *t = calloc(1, sizeof *t);
	unsigned char *buf = malloc(LAUNCH_CHUNK);
	enum occ_status st = OCC_OK;
	long got = 0;

	if (!t || !buf)
		st = OCC_ERR_NOMEM;
	else
		t->r = r;
	while (st == OCC_OK && (got = occ_zin_read(z, buf, LAUNCH_CHUNK)) > 0) {
		st = trace_feed(t, buf, (size_t)got);
		r->offset += (uint64_t)got;
		r->info->bytes = r->offset;
	}
	if (st == OCC_OK && got < 0)
		st = launch_input_fail(r, z);
	if (st == OCC_OK)
		st = trace_finish(t);
	if (t) {
		free(t->line);
		free(t->rec.strs);
	}
	free(t);
	free(buf);
	return st;
}
