/*
 * baseline.c - --compare's baseline when it is a file occcalc wrote:
 * --format json (an array of objects) or jsonl (an object a line). A
 * small JSON reader for exactly that shape: objects of scalars and arrays
 * of scalars, nothing nested deeper, so that it needs no recursion and a
 * hostile file can only be refused. (The file is read by check.c's
 * text_file_read, which cannot block on a FIFO.)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"

struct jp {
	const char *s;
	size_t len, pos;
	struct base_error *err;
	char *buf;                  /* a value's text as it is built */
	size_t blen, bcap;
};

static int fail(struct jp *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct jp *p, const char *fmt, ...)
{
	va_list ap;
	size_t i, line = 1, col = 1;

	if (p->err->msg[0])
		return -1;
	for (i = 0; i < p->pos && i < p->len; i++, col++)
		if (p->s[i] == '\n')
			line++, col = 0;
	p->err->line = line;
	p->err->column = col;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_ws(struct jp *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t'
	       || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int peek(struct jp *p)
{
	skip_ws(p);
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int put(struct jp *p, const char *s, size_t n)
{
	if (p->blen + n + 1 > p->bcap) {
		size_t cap = (p->blen + n + 1) * 2;
		char *b = realloc(p->buf, cap);

		if (!b)
			return fail(p, "out of memory");
		p->buf = b;
		p->bcap = cap;
	}
	memcpy(p->buf + p->blen, s, n);
	p->blen += n;
	p->buf[p->blen] = '\0';
	return 0;
}

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

int base_add(struct base_row *r, const char *name, const char *text)
{
	struct base_field *f;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;

		if (!(f = realloc(r->f, cap * sizeof *f)))
			return -1;
		r->f = f;
		r->cap = cap;
	}
	f = &r->f[r->n];
	f->name = strdup(name);
	f->text = text ? strdup(text) : NULL;
	if (!f->name || (text && !f->text)) {
		free(f->name);
		free(f->text);
		return -1;
	}
	r->n++;
	return 0;
}

int base_get(const struct base_row *r, const char *name, const char **text)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->f[i].name, name) == 0) {
			*text = r->f[i].text;
			return 1;
		}
	return 0;
}

void baseline_free(struct baseline *b)
{
	size_t i, j;

	for (i = 0; i < b->n; i++) {
		for (j = 0; j < b->rows[i].n; j++) {
			free(b->rows[i].f[j].name);
			free(b->rows[i].f[j].text);
		}
		free(b->rows[i].f);
		free(b->rows[i].key);
	}
	free(b->rows);
	memset(b, 0, sizeof *b);
}

/* ---- Scalars ---- */

static int hex4(struct jp *p, unsigned *u)
{
	size_t i;

	*u = 0;
	for (i = 0; i < 4; i++, p->pos++) {
		char c = p->pos < p->len ? p->s[p->pos] : 0;

		*u = *u * 16 + (unsigned)(c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99);
		if (*u > 0xffff)
			return fail(p, "a \\u escape needs four hex digits");
	}
	return 0;
}

/* \uXXXX as UTF-8 (a surrogate pair as one code point). */
static int escape_u(struct jp *p)
{
	unsigned u, lo;
	char b[4];
	size_t n;

	if (hex4(p, &u) != 0)
		return -1;
	if (u >= 0xd800 && u < 0xdc00) {
		if (p->pos + 2 > p->len || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u')
			return fail(p, "a lone UTF-16 surrogate");
		p->pos += 2;
		if (hex4(p, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff)
			return fail(p, "a lone UTF-16 surrogate");
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	} else if (u >= 0xdc00 && u < 0xe000) {
		return fail(p, "a lone UTF-16 surrogate");
	}
	if (u == 0)
		return fail(p, "a NUL character in a string");
	n = u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
	b[0] = (char)(n == 1 ? u : n == 2 ? 0xc0 | u >> 6 : n == 3
		      ? 0xe0 | u >> 12 : 0xf0 | u >> 18);
	if (n > 3) b[n - 3] = (char)(0x80 | ((u >> 12) & 0x3f));
	if (n > 2) b[n - 2] = (char)(0x80 | ((u >> 6) & 0x3f));
	if (n > 1) b[n - 1] = (char)(0x80 | (u & 0x3f));
	return put(p, b, n);
}

/* A string's contents, appended to buf. */
static int string(struct jp *p)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";

	for (p->pos++; p->pos < p->len; ) {
		unsigned char c = (unsigned char)p->s[p->pos++];
		const char *e;

		if (c == '"')
			return 0;
		if (c < 0x20)
			return fail(p, "a control character in a string");
		if (c != '\\') {
			if (put(p, (const char *)&c, 1) != 0)
				return -1;
			continue;
		}
		c = p->pos < p->len ? (unsigned char)p->s[p->pos++] : 0;
		if (c == 'u') {
			if (escape_u(p) != 0)
				return -1;
		} else if (c && (e = strchr(from, c)) != NULL) {
			if (put(p, &to[e - from], 1) != 0)
				return -1;
		} else {
			return fail(p, "a bad escape in a string");
		}
	}
	return fail(p, "a string that does not end");
}

/* A number as JSON writes it, its text appended to buf. */
static int number(struct jp *p)
{
	size_t start = p->pos;
	const char *s = p->s;
	int digits = 0;

#define DIGITS() for (digits = 0; p->pos < p->len && s[p->pos] >= '0' && \
		      s[p->pos] <= '9'; p->pos++) digits++
	if (s[p->pos] == '-')
		p->pos++;
	DIGITS();
	if (!digits)
		return fail(p, "not a JSON value");
	if (p->pos < p->len && s[p->pos] == '.') {
		p->pos++;
		DIGITS();
		if (!digits)
			return fail(p, "a number without digits after '.'");
	}
	if (p->pos < p->len && (s[p->pos] == 'e' || s[p->pos] == 'E'))
		return fail(p, "a number with an exponent: occcalc writes none");
#undef DIGITS
	return put(p, s + start, p->pos - start);
}

/* A scalar: 1 (appended to buf), 0 for null, -1 on error. */
static int scalar(struct jp *p, int *is_num)
{
	static const char *const words[] = { "true", "false", "null" };
	size_t i;
	int c = peek(p);

	*is_num = 0;
	if (c == '"')
		return string(p) == 0 ? 1 : -1;
	if (c == '-' || (c >= '0' && c <= '9')) {
		*is_num = 1;
		return number(p) == 0 ? 1 : -1;
	}
	for (i = 0; i < 3; i++)
		if (p->len - p->pos >= strlen(words[i]) &&
		    strncmp(p->s + p->pos, words[i], strlen(words[i])) == 0) {
			p->pos += strlen(words[i]);
			return i == 2 ? 0 : put(p, words[i], strlen(words[i]))
					    == 0 ? 1 : -1;
		}
	if (c == '{' || c == '[')
		return fail(p, "a value nested deeper than occcalc writes");
	return fail(p, c < 0 ? "the file ends where a value should be"
		    : "not a JSON value");
}

/* An array of scalars: strings '+'-joined (a set), numbers ' '-joined. */
static int array(struct jp *p)
{
	int c, is_num, n = 0, st;

	p->pos++;
	if (peek(p) == ']') {
		p->pos++;
		return 1;
	}
	for (;;) {
		size_t sep = p->blen;

		if (n++ && put(p, " ", 1) != 0)
			return -1;
		if ((st = scalar(p, &is_num)) < 0)
			return -1;
		if (st == 0)
			return fail(p, "null inside an array");
		if (!is_num && n > 1)
			p->buf[sep] = '+';
		c = peek(p);
		p->pos++;
		if (c == ']')
			return 1;
		if (c != ',')
			return fail(p, "expected ',' or ']' in an array");
	}
}

/* ---- Objects and the file ---- */

static int member(struct jp *p, struct base_row *r)
{
	char *name;
	int st, is_num;

	if (peek(p) != '"')
		return fail(p, "expected a field name in quotes");
	p->blen = 0;
	if (put(p, "", 0) != 0 || string(p) != 0)
		return -1;
	if (!(name = strdup(p->buf)))
		return fail(p, "out of memory");
	if (peek(p) != ':') {
		free(name);
		return fail(p, "expected ':' after a field name");
	}
	p->pos++;
	p->blen = 0;
	p->buf[0] = '\0';
	st = peek(p) == '[' ? array(p) : scalar(p, &is_num);
	if (st >= 0 && base_add(r, name, st ? p->buf : NULL) != 0)
		st = fail(p, "out of memory");
	free(name);
	return st < 0 ? -1 : 0;
}

static int object(struct jp *p, struct baseline *b)
{
	struct base_row *r;
	int c;

	if (peek(p) != '{')
		return fail(p, "expected a row, '{'");
	p->pos++;
	if (!(r = base_new_row(b)))
		return fail(p, "out of memory");
	if (peek(p) == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (member(p, r) != 0)
			return -1;
		c = peek(p);
		p->pos++;
		if (c == '}')
			return 0;
		if (c != ',')
			return fail(p, "expected ',' or '}' in a row");
	}
}

static int rows(struct jp *p, struct baseline *b)
{
	int c, array_form = peek(p) == '[';

	if (array_form) {
		p->pos++;
		if (peek(p) == ']') {
			p->pos++;
			return 0;
		}
	}
	for (;;) {
		if (object(p, b) != 0)
			return -1;
		c = peek(p);
		if (!array_form && c < 0)
			return 0;
		if (!array_form)
			continue;
		p->pos++;
		if (c == ']')
			return 0;
		if (c != ',')
			return fail(p, "expected ',' or ']' between rows");
	}
}

int baseline_parse(const char *text, size_t len, struct baseline *b,
		   struct base_error *err)
{
	struct jp p = { text, len, 0, err, NULL, 0, 0 };
	int st;

	memset(b, 0, sizeof *b);
	memset(err, 0, sizeof *err);
	st = rows(&p, b);
	if (st == 0 && peek(&p) >= 0)
		st = fail(&p, "more after the rows' closing ']'");
	free(p.buf);
	return st;
}
