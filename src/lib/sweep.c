/*
 * sweep.c - the values of one swept option (occcalc/sweep.h), generated
 * one at a time, so a sweep of any length runs in constant memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"


static enum occ_seq_error parse_value(const char *s, uint64_t min, uint64_t max,
				  uint64_t *v)
{
	if (*s == '\0')
		return OCC_SEQ_EMPTY;
	if (*s == '-')
		return OCC_SEQ_NEGATIVE;
	switch (occ_parse_size(s, v)) {
	case OCC_PARSE_SYNTAX:
	case OCC_PARSE_FRACTION:   /* not returned by occ_parse_size */
		return OCC_SEQ_NOT_NUMBER;
	case OCC_PARSE_RANGE:
		return OCC_SEQ_OVERFLOW;
	case OCC_PARSE_OK:
		break;
	}
	if (*v > max)
		return OCC_SEQ_TOO_LARGE;
	if (*v < min)
		return OCC_SEQ_TOO_SMALL;
	return OCC_SEQ_OK;
}

/* XxY or XxYxZ: the threads, the product, within [min, max]. */
static enum occ_seq_error parse_shape(char *item, uint64_t min, uint64_t max,
				  struct occ_seq_range *r)
{
	static const uint64_t most[3] = { OCC_BLOCK_MAX_XY, OCC_BLOCK_MAX_XY,
					  OCC_BLOCK_MAX_Z };
	uint64_t v, threads = 1;
	char *save = NULL, *d;
	int n = 0;
	enum occ_seq_error e;

	if (strchr(item, ':') || *item == 'x' || strstr(item, "xx") ||
	    item[strlen(item) - 1] == 'x')
		return OCC_SEQ_SHAPE;
	for (d = strtok_r(item, "x", &save); d; d = strtok_r(NULL, "x", &save)) {
		if (n == 3)
			return OCC_SEQ_SHAPE;
		e = parse_value(d, 0, UINT64_MAX, &v);
		if (e != OCC_SEQ_OK)
			return e == OCC_SEQ_NOT_NUMBER ? OCC_SEQ_SHAPE : e;
		if (v == 0)
			return OCC_SEQ_SHAPE_ZERO;
		if (v > most[n])
			return OCC_SEQ_SHAPE_LARGE;
		r->dim[n++] = (uint16_t)v;
		threads *= v;
	}
	if (threads > OCC_BLOCK_MAX_THREADS || threads > max)
		return OCC_SEQ_SHAPE_LARGE;
	if (threads < min)
		return OCC_SEQ_TOO_SMALL;
	r->start = r->end = threads;
	r->step = 1;
	return OCC_SEQ_OK;
}

void occ_seq_shape_text(char *buf, size_t n, const uint16_t dim[3])
{
	snprintf(buf, n, dim[2] ? "%ux%ux%u" : dim[1] ? "%ux%u" : "%u",
		 dim[0], dim[1], dim[2]);
}

/* START[:END[:STEP]] */
static enum occ_seq_error parse_item(char *item, uint64_t min, uint64_t max,
				 struct occ_seq_range *r)
{
	char *parts[3] = { item, NULL, NULL };
	int n = 1, i;
	uint64_t v[3] = { 0, 0, 1 };
	enum occ_seq_error e;

	for (char *p = item; *p; p++)
		if (*p == ':') {
			if (n == 3)
				return OCC_SEQ_NOT_NUMBER;
			*p = '\0';
			parts[n++] = p + 1;
		}
	for (i = 0; i < n; i++) {
		/* The step is a count, not a value of the option. */
		e = parse_value(parts[i], i == 2 ? 0 : min,
				i == 2 ? UINT64_MAX : max, &v[i]);
		if (e != OCC_SEQ_OK)
			return e;
	}
	if (n == 1)
		v[1] = v[0];
	if (v[2] == 0)
		return OCC_SEQ_STEP_ZERO;
	if (v[0] > v[1])
		return OCC_SEQ_REVERSED;
	r->start = v[0];
	r->end = v[1];
	r->step = v[2];
	return OCC_SEQ_OK;
}

static enum occ_seq_error parse(const char *s, uint64_t min, uint64_t max,
			    int shapes, struct occ_seq *out)
{
	size_t len = strlen(s), items = 1, i;
	char *copy, *item, *next;
	enum occ_seq_error e = OCC_SEQ_OK;

	memset(out, 0, sizeof *out);
	for (i = 0; i < len; i++)
		items += s[i] == ',';
	copy = strdup(s);
	out->ranges = calloc(items, sizeof *out->ranges);
	if (!copy || !out->ranges) {
		free(copy);
		occ_seq_free(out);
		return OCC_SEQ_NOMEM;
	}
	out->is_sweep = strchr(s, ',') || strchr(s, ':');
	for (item = copy; item && e == OCC_SEQ_OK; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		e = shapes && strchr(item, 'x')
			? parse_shape(item, min, max, &out->ranges[out->n])
			: parse_item(item, min, max, &out->ranges[out->n]);
		out->n++;
	}
	free(copy);
	if (e != OCC_SEQ_OK)
		occ_seq_free(out);
	return e;
}

static const char *error_text(enum occ_seq_error e)
{
	static const char *const text[] = {
		[OCC_SEQ_OK] = "", [OCC_SEQ_EMPTY] = "empty value",
		[OCC_SEQ_NOT_NUMBER] = "not a number",
		[OCC_SEQ_NEGATIVE] = "must not be negative",
		[OCC_SEQ_OVERFLOW] = "number too large",
		[OCC_SEQ_TOO_LARGE] = "above the maximum of",
		[OCC_SEQ_TOO_SMALL] = "below the minimum of",
		[OCC_SEQ_STEP_ZERO] = "a range's step must not be 0",
		[OCC_SEQ_REVERSED] = "range reversed: START must not exceed END",
		[OCC_SEQ_NOMEM] = "out of memory",
		[OCC_SEQ_SHAPE] = "a block shape is XxY or XxYxZ, whole numbers "
		"(16x16, 8x8x4; not a range)",
		[OCC_SEQ_SHAPE_ZERO] = "a block dimension must be at least 1",
		[OCC_SEQ_SHAPE_LARGE] = "beyond CUDA's block limits",
	};

	return (unsigned)e < sizeof text / sizeof text[0] ? text[e] : "";
}

void occ_seq_refusal(enum occ_seq_error e, uint64_t limit, char *buf,
		     size_t n)
{
	if (e == OCC_SEQ_SHAPE_LARGE)
		snprintf(buf, n, "%s (%d threads; x and y up to %d, z up to "
			 "%d)", error_text(e), OCC_BLOCK_MAX_THREADS,
			 OCC_BLOCK_MAX_XY, OCC_BLOCK_MAX_Z);
	else if (e == OCC_SEQ_TOO_LARGE || e == OCC_SEQ_TOO_SMALL)
		snprintf(buf, n, "%s %llu", error_text(e),
			 (unsigned long long)limit);
	else
		snprintf(buf, n, "%s", error_text(e));
}

/* The status of a refusal, for callers that need not word it. */
static enum occ_status status_of(enum occ_seq_error e)
{
	switch (e) {
	case OCC_SEQ_OK:
		return OCC_OK;
	case OCC_SEQ_EMPTY:
	case OCC_SEQ_NOT_NUMBER:
	case OCC_SEQ_SHAPE:
		return OCC_ERR_SYNTAX;
	case OCC_SEQ_STEP_ZERO:
	case OCC_SEQ_REVERSED:
		return OCC_ERR_INVALID_INPUT;
	case OCC_SEQ_NOMEM:
		return OCC_ERR_NOMEM;
	default:
		return OCC_ERR_RANGE;
	}
}

enum occ_status occ_seq_parse(const char *s, uint64_t min, uint64_t max,
			      unsigned flags, struct occ_seq *out,
			      enum occ_seq_error *why, struct occ_diag *diag)
{
	enum occ_seq_error e = parse(s, min, max, flags & OCC_SEQ_SHAPES, out);

	if (why)
		*why = e;
	if (diag && e != OCC_SEQ_OK) {
		memset(diag, 0, sizeof *diag);
		diag->limit = e == OCC_SEQ_TOO_SMALL ? min : max;
	}
	return status_of(e);
}

void occ_seq_free(struct occ_seq *s)
{
	free(s->ranges);
	s->ranges = NULL;
	s->n = 0;
}

int occ_seq_has_shape(const struct occ_seq *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->ranges[i].dim[0])
			return 1;
	return 0;
}

int occ_seq_first(struct occ_seq_iter *it, const struct occ_seq *s)
{
	it->s = s;
	it->range = 0;
	it->value = s->ranges[0].start;
	return 1;
}

int occ_seq_next(struct occ_seq_iter *it)
{
	const struct occ_seq_range *r = &it->s->ranges[it->range];

	if (r->end - it->value >= r->step) {
		it->value += r->step;
		return 1;
	}
	if (++it->range == it->s->n)
		return 0;
	it->value = it->s->ranges[it->range].start;
	return 1;
}

uint64_t occ_seq_count(const struct occ_seq *s)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		/* Values after the first: the whole 64-bit range has 2^64. */
		uint64_t n = (s->ranges[i].end - s->ranges[i].start) /
			     s->ranges[i].step;

		total = total + n < total || total + n == UINT64_MAX
			? UINT64_MAX : total + n + 1;
	}
	return total;
}
