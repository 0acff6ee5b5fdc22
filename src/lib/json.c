/*
 * json.c - the JSON reader over yajl (json.h). yajl parses without
 * recursion and hands each token over as it ends; this file keeps the
 * depth, the keys and the offsets, and scans each slice ahead of yajl
 * (json_scan.c) for what yajl would let through: a \u0000, a lone
 * UTF-16 surrogate (yajl writes '?' for one, and pairs a high surrogate
 * with any escape after it), and tokens longer than the limit (yajl
 * holds a token that spans slices whole). yajl reads a slice only up to
 * the first such fault, so the failure reported is always the first in
 * the text (json_errors.c says where it is).
 */
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "zin.h"

/* yajl is given the text a slice at a time; the fuzz build makes the
 * first ones small, so that tokens and escapes across slices are fuzzed
 * too. They double up to SLICE_MAX: yajl lexes a token cut by a slice
 * again from its start, so a long token in slices of 7 bytes took time
 * quadratic in its length (fuzz: a 890 KB string, 53 s). */
#define SLICE_MAX 65536
#ifndef OCC_JSON_SLICE
#define OCC_JSON_SLICE SLICE_MAX
#endif
#define SLICE OCC_JSON_SLICE

static size_t next_slice(size_t n)
{
	return n < SLICE_MAX / 2 ? 2 * n : SLICE_MAX;
}

/* ---- Events ---- */

static uint64_t token_end(struct occ_json_reader *r)
{
	return r->base + yajl_get_bytes_consumed(r->h);
}

static int deliver(struct occ_json_reader *r, enum occ_json_type type,
		   const char *text, size_t len, uint64_t at)
{
	struct occ_json_event e;
	struct level *up = r->depth ? &r->lv[r->depth] : NULL;

	e.type = type;
	e.text = text;
	e.len = len;
	e.offset = at;
	e.depth = r->depth;
	e.key = up && !up->array ? up->key : NULL;
	e.index = up && up->array ? up->index++ : -1;
	if (r->fn(r->ctx, r, &e) != 0) {
		if (!r->failed)
			occ_json_fail(r, OCC_ERR_BAD_VALUE, at, "refused");
		return 0;
	}
	return 1;
}

static int y_null(void *c)
{
	struct occ_json_reader *r = c;

	return deliver(r, JSON_NULL, NULL, 0, token_end(r) - 4);
}

static int y_boolean(void *c, int b)
{
	struct occ_json_reader *r = c;

	return deliver(r, JSON_BOOL, b ? "true" : "false", b ? 4 : 5,
		       token_end(r) - (b ? 4 : 5));
}

/* text (n bytes) into the reader's own buffer, NUL-terminated. */
static const char *own(struct occ_json_reader *r, const void *text, size_t n)
{
	if (n + 1 > r->tmp_cap) {
		char *t = realloc(r->tmp, n + 1);

		if (!t)
			return NULL;
		r->tmp = t;
		r->tmp_cap = n + 1;
	}
	memcpy(r->tmp, text, n);
	r->tmp[n] = '\0';
	return r->tmp;
}

static int y_number(void *c, const char *s, size_t n)
{
	struct occ_json_reader *r = c;
	const char *t = own(r, s, n);

	if (!t)
		return occ_json_fail(r, OCC_ERR_NOMEM, token_end(r) - n,
				     "out of memory"), 0;
	return deliver(r, JSON_NUMBER, t, n, token_end(r) - n);
}

/* A string's text, checked and owned: NULL with the failure set. */
static const char *string_text(struct occ_json_reader *r,
			       const unsigned char *s, size_t n, uint64_t at)
{
	const char *t;

	if (!occ_json_utf8_ok(s, n)) {
		occ_json_fail(r, OCC_ERR_SYNTAX, at, "a string that is no "
			      "UTF-8");
		return NULL;
	}
	if (!(t = own(r, s, n)))
		occ_json_fail(r, OCC_ERR_NOMEM, at, "out of memory");
	return t;
}

static int y_string(void *c, const unsigned char *s, size_t n)
{
	struct occ_json_reader *r = c;
	uint64_t at = occ_json_pop_start(r);
	const char *t = string_text(r, s, n, at);

	return t ? deliver(r, JSON_STRING, t, n, at) : 0;
}

static int y_map_key(void *c, const unsigned char *s, size_t n)
{
	struct occ_json_reader *r = c;
	struct level *lv = &r->lv[r->depth];
	uint64_t at = occ_json_pop_start(r);
	const char *t = string_text(r, s, n, at);

	if (!t)
		return 0;
	if (n + 1 > lv->cap) {
		char *k = realloc(lv->key, n + 1);

		if (!k)
			return occ_json_fail(r, OCC_ERR_NOMEM, at,
					     "out of memory"), 0;
		lv->key = k;
		lv->cap = n + 1;
	}
	memcpy(lv->key, t, n + 1);
	return 1;
}

static int open_container(struct occ_json_reader *r, int array)
{
	uint64_t at = token_end(r) - 1;
	struct level *lv;

	if (r->depth >= r->lim.depth)
		return occ_json_fail(r, OCC_ERR_RANGE, at, "nested deeper "
				     "than %d levels", r->lim.depth), 0;
	if (!deliver(r, array ? JSON_ARRAY : JSON_OBJECT, NULL, 0, at))
		return 0;
	lv = &r->lv[++r->depth];
	lv->array = array;
	lv->index = 0;
	if (lv->key)
		lv->key[0] = '\0';
	return 1;
}

static int close_container(struct occ_json_reader *r)
{
	uint64_t at = token_end(r) - 1;

	r->depth--;
	/* The end is told with the container's own key or index: deliver()
	 * counts the index again. */
	if (r->depth && r->lv[r->depth].array)
		r->lv[r->depth].index--;
	return deliver(r, JSON_END, NULL, 0, at);
}

static int y_start_map(void *c) { return open_container(c, 0); }
static int y_start_array(void *c) { return open_container(c, 1); }
static int y_end(void *c) { return close_container(c); }

static const yajl_callbacks callbacks = {
	y_null, y_boolean, NULL, NULL, y_number, y_string,
	y_start_map, y_map_key, y_end, y_start_array, y_end
};

/* ---- Reading ---- */

static int init(struct occ_json_reader *r, const struct occ_json_limits *lim,
		occ_json_event_fn fn, void *ctx, struct occ_json_err *err)
{
	memset(r, 0, sizeof *r);
	memset(err, 0, sizeof *err);
	r->fn = fn;
	r->ctx = ctx;
	r->err = err;
	if (lim)
		r->lim = *lim;
	if (r->lim.depth <= 0 || r->lim.depth > OCC_JSON_DEPTH_MAX)
		r->lim.depth = OCC_JSON_DEPTH_MAX;
	if (!r->lim.string)
		r->lim.string = OCC_JSON_STRING_MAX;
	if (!(r->h = yajl_alloc(&callbacks, NULL, r)))
		return occ_json_fail(r, OCC_ERR_NOMEM, 0, "out of memory");
	yajl_config(r->h, yajl_allow_multiple_values, r->lim.multiple ? 1 : 0);
	return 0;
}

static void release(struct occ_json_reader *r)
{
	int i;

	if (r->h)
		yajl_free(r->h);
	for (i = 0; i < OCC_JSON_DEPTH_MAX + 2; i++)
		free(r->lv[i].key);
	free(r->starts);
	free(r->tmp);
}

/* The next slice of the text: scanned, then parsed up to the first fault
 * the scan found. 0, or -1 with the failure set. */
static int feed(struct occ_json_reader *r, const unsigned char *s, size_t n)
{
	size_t i, upto = n;
	yajl_status st;

	r->slice = s;
	r->slice_len = n;
	if (r->lim.bytes && r->base + n > r->lim.bytes)
		return occ_json_fail(r, OCC_ERR_RANGE, r->lim.bytes,
				     "more than %llu bytes", (unsigned long long)
				     r->lim.bytes);
	r->total = r->base + n;
	for (i = 0; i < n && !r->failed; i++)
		occ_json_scan_byte(r, s[i], r->base + i);
	if (r->failed) {
		upto = r->err->offset > r->base ? r->err->offset - r->base : 0;
		/* yajl's failure, if it comes first, is the one to tell. */
		r->failed = 0;
		st = yajl_parse(r->h, s, upto);
		if (st == yajl_status_error)
			occ_json_yajl_failed(r);
		r->failed = 1;
		return -1;
	}
	st = yajl_parse(r->h, s, n);
	if (st == yajl_status_error)
		occ_json_yajl_failed(r);
	if (r->failed)
		return -1;
	for (i = 0; i < n; i++)
		if (s[i] == '\n')
			r->lines++, r->line_start = r->base + i + 1;
	r->base += n;
	return 0;
}

static int finish(struct occ_json_reader *r)
{
	yajl_status st;

	r->slice = NULL;
	r->slice_len = 0;
	r->at_end = 1;
	st = yajl_complete_parse(r->h);
	if (st == yajl_status_error)
		occ_json_yajl_failed(r);
	return r->failed ? -1 : 0;
}

enum occ_status occ_json_read_mem(const char *text, size_t len,
				  const struct occ_json_limits *lim,
				  occ_json_event_fn fn, void *ctx,
				  struct occ_json_err *err)
{
	struct occ_json_reader r;
	size_t at = 0, n, slice = SLICE;

	if (init(&r, lim, fn, ctx, err) == 0) {
		while (at < len) {
			n = len - at < slice ? len - at : slice;
			if (feed(&r, (const unsigned char *)text + at, n) != 0)
				break;
			at += n;
			slice = next_slice(slice);
		}
		if (!r.failed)
			finish(&r);
	}
	err->bytes = r.base;
	release(&r);
	return r.failed ? err->st : OCC_OK;
}

enum occ_status occ_json_read_zin(struct occ_zin *z,
				  const struct occ_json_limits *lim,
				  occ_json_event_fn fn, void *ctx,
				  struct occ_json_err *err)
{
	struct occ_json_reader r;
	unsigned char *buf = malloc(SLICE_MAX);
	size_t slice = SLICE;
	long got = 0;

	if (init(&r, lim, fn, ctx, err) == 0) {
		if (!buf)
			occ_json_fail(&r, OCC_ERR_NOMEM, 0, "out of memory");
		while (!r.failed && (got = occ_zin_read(z, buf, slice)) > 0) {
			feed(&r, buf, (size_t)got);
			slice = next_slice(slice);
		}
		if (!r.failed && got < 0) {
			occ_json_fail(&r, z->st, r.base, "%s", z->what);
			err->input = 1;
		}
		if (!r.failed)
			finish(&r);
	}
	err->bytes = r.base;
	free(buf);
	release(&r);
	return r.failed ? err->st : OCC_OK;
}

enum occ_status occ_json_read_fd(int fd, const struct occ_json_limits *lim,
				 occ_json_event_fn fn, void *ctx,
				 struct occ_json_err *err)
{
	struct occ_zin z;
	enum occ_status st;

	if (occ_zin_open(&z, fd) != 0) {
		memset(err, 0, sizeof *err);
		err->st = z.st;
		err->input = 1;
		occ_copy_string(err->what, sizeof err->what, z.what);
		st = z.st;
	} else
		st = occ_json_read_zin(&z, lim, fn, ctx, err);
	occ_zin_close(&z);
	return st;
}

const char *occ_json_key_at(const struct occ_json_reader *r, int depth)
{
	if (depth < 1 || depth > r->depth || r->lv[depth].array)
		return NULL;
	return r->lv[depth].key ? r->lv[depth].key : "";
}

/* ---- Integers ---- */

int occ_json_uint(const char *text, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len || memchr(text, '.', len) || memchr(text, 'e', len) ||
	    memchr(text, 'E', len))
		return -1;
	if (text[0] == '-') {       /* -0 is 0; any other is below 0 */
		for (i = 1; i < len && text[i] == '0'; i++)
			;
		if (len == 1 || (i < len && (text[i] < '1' || text[i] > '9')))
			return -1;
		if (i < len)
			return -2;
		*out = 0;
		return 0;
	}
	for (i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(text[i] - '0')) / 10)
			return -2;
		v = v * 10 + (uint64_t)(text[i] - '0');
	}
	if (v > max)
		return -2;
	*out = v;
	return 0;
}

int occ_json_int(const char *text, size_t len, int64_t min, int64_t max,
		 int64_t *out)
{
	int neg = len && text[0] == '-', st;
	uint64_t mag;

	st = occ_json_uint(text + neg, len - (size_t)neg, UINT64_MAX, &mag);
	if (st != 0)
		return st;
	if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return -2;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	if (*out < min || *out > max)
		return -2;
	return 0;
}

