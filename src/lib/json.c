/*
 * json.c - the JSON reader over yajl (json.h). yajl parses without
 * recursion and hands each token over as it ends; this file keeps the
 * depth, the keys and the offsets, and scans each slice ahead of yajl
 * for what yajl would let through: a \u0000, a lone UTF-16 surrogate (yajl
 * writes '?' for one, and pairs a high surrogate with any escape after
 * it), and tokens longer than the limit (yajl holds a token that spans
 * slices whole). yajl reads a slice only up to the first such fault, so
 * the failure reported is always the first in the text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "json.h"
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

/* The scan ahead of yajl: where it is in the text. */
enum scan_state { S_OUT, S_STR, S_ESC, S_HEX, S_WANT_BS, S_WANT_U };

struct scan {
	enum scan_state state;
	int hex, low;               /* digits left; a low surrogate due */
	unsigned u;
	uint64_t str_at, esc_at, high_at, run;
};

/* An open container: its members' key or next index. */
struct level {
	int array;
	int64_t index;
	char *key;
	size_t cap;
};

struct occ_json_reader {
	yajl_handle h;
	occ_json_event_fn fn;
	void *ctx;
	struct occ_json_limits lim;
	struct occ_json_err *err;
	int failed;
	int at_end;                 /* all of the text given: yajl finishes */
	/* The slice yajl reads, where it starts, the lines before it. */
	const unsigned char *slice;
	size_t slice_len;
	uint64_t base, total, lines, line_start;
	struct scan sc;
	/* Where each string scanned and not yet delivered starts. */
	uint64_t *starts;
	size_t head, count, cap;
	/* Containers open: lv[d] holds what is at depth d (1 ..). */
	int depth;
	struct level lv[OCC_JSON_DEPTH_MAX + 2];
	char *tmp;                  /* a number's text, NUL-terminated */
	size_t tmp_cap;
};

/* ---- Errors and positions ---- */

static void position(struct occ_json_reader *r, uint64_t off)
{
	uint64_t lines = r->lines, start = r->line_start, i;

	if (off > r->total)
		off = r->total;
	for (i = r->base; r->slice && i < off && i - r->base < r->slice_len;
	     i++)
		if (r->slice[i - r->base] == '\n')
			lines++, start = i + 1;
	r->err->offset = off;
	r->err->line = lines + 1;
	r->err->column = off >= start ? off - start + 1 : 1;
}

int occ_json_fail(struct occ_json_reader *r, enum occ_status st,
		  uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return -1;
	r->failed = 1;
	r->err->st = st;
	va_start(ap, fmt);
	vsnprintf(r->err->what, sizeof r->err->what, fmt, ap);
	va_end(ap);
	position(r, offset);
	return -1;
}

static int is_word_char(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

/* Where the token yajl's parser refused starts (it stands past it, or on
 * a string's closing quote): a string refused is the first one scanned
 * and not delivered; a number's or a word's start is found in the slice. */
static uint64_t token_start(struct occ_json_reader *r, uint64_t end)
{
	uint64_t at = end;

	if (r->count && r->starts[r->head] < end)
		return r->starts[r->head];
	if (!r->slice || end <= r->base || end - r->base > r->slice_len)
		return end;
	if (!is_word_char(r->slice[end - r->base - 1]))
		return end - 1;
	while (at > r->base && is_word_char(r->slice[at - r->base - 1]))
		at--;
	return at;
}

/* yajl's words for its errors, in the project's where they differ. */
static void yajl_failed(struct occ_json_reader *r)
{
	static const char *const say[][2] = {
		{ "premature EOF", "the text ends inside a JSON value" },
		{ "trailing garbage", "text after the JSON value" },
		{ "invalid object key (must be a string)",
		  "expected a field name in quotes" },
		{ "object key and value must be separated by a colon (':')",
		  "expected ':' after a key" },
		{ "after key and value, inside map, I expect ',' or '}'",
		  "expected ',' or '}' in an object" },
		{ "after array element, I expect ',' or ']'",
		  "expected ',' or ']' in an array" },
		{ "unallowed token at this point in JSON text",
		  "not a JSON value here" },
		{ "invalid char in json text", "a character JSON has not "
		  "here" },
		{ "invalid bytes in UTF8 string", "a string that is no UTF-8" },
		{ "invalid character inside string",
		  "a control character in a string" },
		{ "inside a string, '\\' occurs before a character which it "
		  "may not", "an unknown escape in a string" },
		{ "invalid (non-hex) character occurs after '\\u' inside "
		  "string", "a \\u escape without four hex digits" },
		{ "probable comment found in input text, comments are not "
		  "enabled", "a comment: JSON has none" },
	};
	unsigned char *e = yajl_get_error(r->h, 0, NULL, 0);
	const char *text = e ? (const char *)e : "not JSON", *colon;
	uint64_t at = r->base + yajl_get_bytes_consumed(r->h);
	char what[160];
	size_t i, n;
	int cut;

	/* yajl's lexer stands past the byte it refused, its parser past
	 * the token. */
	if (strncmp(text, "lexical", 7) == 0 && at > r->base)
		at--;
	else if (strncmp(text, "parse", 5) == 0)
		at = token_start(r, at);

	if ((colon = strstr(text, ": ")) != NULL)
		text = colon + 2;
	n = strcspn(text, "\n");
	while (n && text[n - 1] == '.')
		n--;
	snprintf(what, sizeof what, "%.*s", (int)n, text);
	/* At the end of the text, yajl refuses the token it holds: a
	 * number cut after its '.' or 'e' is the text cut short too, as a
	 * string cut anywhere is (yajl's "premature EOF"). */
	cut = !r->failed && (strcmp(what, say[0][0]) == 0 ||
			     (r->at_end && strncmp(e ? (const char *)e : "",
						   "lexical", 7) == 0));
	for (i = 0; i < sizeof say / sizeof say[0]; i++)
		if (strcmp(what, say[i][0]) == 0)
			snprintf(what, sizeof what, "%s", say[i][1]);
	if (e)
		yajl_free_error(r->h, e);
	occ_json_fail(r, OCC_ERR_SYNTAX, at, "%s", what);
	r->err->cut_short = cut;
}

/* ---- Strings: checked, and where they start ---- */

/* Whether s is UTF-8 as RFC 3629 has it: no overlong form, no
 * surrogate, nothing past U+10FFFF. */
static int utf8_ok(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], cp, k, j;

		if (c < 0x80) {
			i++;
			continue;
		}
		k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (!k || c > 0xf4 || n - i <= k)
			return 0;
		cp = c & (0x3f >> k);
		for (j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) ||
		    (k == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp < 0xe000))
			return 0;
		i += k + 1;
	}
	return 1;
}

static int push_start(struct occ_json_reader *r, uint64_t at)
{
	if (r->count == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256, i;
		uint64_t *s = malloc(cap * sizeof *s);

		if (!s)
			return -1;
		for (i = 0; i < r->count; i++)
			s[i] = r->starts[(r->head + i) % r->cap];
		free(r->starts);
		r->starts = s;
		r->cap = cap;
		r->head = 0;
	}
	r->starts[(r->head + r->count++) % r->cap] = at;
	return 0;
}

static uint64_t pop_start(struct occ_json_reader *r)
{
	uint64_t at;

	if (!r->count)
		return r->base;
	at = r->starts[r->head];
	r->head = (r->head + 1) % r->cap;
	r->count--;
	return at;
}

static int hexval(unsigned c)
{
	return c >= '0' && c <= '9' ? (int)(c - '0') : c >= 'a' && c <= 'f'
	       ? (int)(c - 'a' + 10) : c >= 'A' && c <= 'F'
	       ? (int)(c - 'A' + 10) : -1;
}

/* A \uXXXX just read: 0, or -1 with the failure set. */
static int escape_done(struct occ_json_reader *r)
{
	struct scan *sc = &r->sc;
	unsigned u = sc->u;

	sc->state = S_STR;
	if (sc->low) {
		sc->low = 0;
		if (u >= 0xdc00 && u < 0xe000)
			return 0;
		return occ_json_fail(r, OCC_ERR_SYNTAX, sc->high_at,
				     "a lone UTF-16 surrogate in a string");
	}
	if (u == 0)
		return occ_json_fail(r, OCC_ERR_SYNTAX, sc->esc_at,
				     "\\u0000 (a NUL character) in a string");
	if (u >= 0xdc00 && u < 0xe000)
		return occ_json_fail(r, OCC_ERR_SYNTAX, sc->esc_at,
				     "a lone UTF-16 surrogate in a string");
	if (u >= 0xd800 && u < 0xdc00) {
		sc->high_at = sc->esc_at;
		sc->state = S_WANT_BS;
	}
	return 0;
}

static int is_number_char(unsigned c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
	       c == 'e' || c == 'E';
}

/* One byte at offset at: 0, or -1 with the failure set. */
static int scan_byte(struct occ_json_reader *r, unsigned c, uint64_t at)
{
	struct scan *sc = &r->sc;
	size_t max = r->lim.string;

	if (sc->state == S_OUT) {
		if (c == '"') {
			sc->state = S_STR;
			sc->run = 0;
			sc->str_at = at;
			if (push_start(r, at) != 0)
				return occ_json_fail(r, OCC_ERR_NOMEM, at,
						     "out of memory");
			return 0;
		}
		sc->run = is_number_char(c) ? sc->run + 1 : 0;
		if (sc->run > max)
			return occ_json_fail(r, OCC_ERR_RANGE, at - max,
					     "a number longer than %zu bytes",
					     max);
		return 0;
	}
	if (++sc->run > max + 1)
		return occ_json_fail(r, OCC_ERR_RANGE, sc->str_at,
				     "a string longer than %zu bytes", max);
	switch (sc->state) {
	case S_STR:
		if (c == '"')
			sc->state = S_OUT, sc->run = 0;
		else if (c == '\\')
			sc->state = S_ESC, sc->esc_at = at;
		return 0;
	case S_ESC:
		sc->state = c == 'u' ? S_HEX : S_STR;
		sc->hex = 4;
		sc->u = 0;
		return 0;
	case S_HEX:
		if (hexval(c) < 0) {    /* yajl refuses it */
			sc->state = S_STR;
			sc->low = 0;
			return 0;
		}
		sc->u = sc->u * 16 + (unsigned)hexval(c);
		return --sc->hex ? 0 : escape_done(r);
	case S_WANT_BS:
	case S_WANT_U:
		if (c == (sc->state == S_WANT_BS ? '\\' : 'u')) {
			if (sc->state == S_WANT_BS) {
				sc->state = S_WANT_U;
				sc->esc_at = at;
			} else {
				sc->state = S_HEX;
				sc->hex = 4;
				sc->u = 0;
				sc->low = 1;
			}
			return 0;
		}
		return occ_json_fail(r, OCC_ERR_SYNTAX, sc->high_at,
				     "a lone UTF-16 surrogate in a string");
	default:
		return 0;
	}
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

	if (!utf8_ok(s, n)) {
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
	uint64_t at = pop_start(r);
	const char *t = string_text(r, s, n, at);

	return t ? deliver(r, JSON_STRING, t, n, at) : 0;
}

static int y_map_key(void *c, const unsigned char *s, size_t n)
{
	struct occ_json_reader *r = c;
	struct level *lv = &r->lv[r->depth];
	uint64_t at = pop_start(r);
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
		scan_byte(r, s[i], r->base + i);
	if (r->failed) {
		upto = r->err->offset > r->base ? r->err->offset - r->base : 0;
		/* yajl's failure, if it comes first, is the one to tell. */
		r->failed = 0;
		st = yajl_parse(r->h, s, upto);
		if (st == yajl_status_error)
			yajl_failed(r);
		r->failed = 1;
		return -1;
	}
	st = yajl_parse(r->h, s, n);
	if (st == yajl_status_error)
		yajl_failed(r);
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
		yajl_failed(r);
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
