/*
 * line.c - a record's JSON, formatted by pieces into a fixed buffer (a
 * line longer than the buffer is cut at a piece and marked, never
 * overrun).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

static void put(struct line *l, const char *s, size_t n)
{
	if (l->len + n >= l->cap) {
		l->len = l->cap;           /* full: the line is dropped */
		return;
	}
	memcpy(l->p + l->len, s, n);
	l->len += n;
}

void line_raw(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

static void key(struct line *l, const char *k)
{
	if (l->len && l->len < l->cap && l->p[l->len - 1] != '{')
		put(l, ",", 1);
	put(l, "\"", 1);
	line_raw(l, k);
	put(l, "\":", 2);
}

static void number(struct line *l, int64_t v)
{
	char b[24];
	int n = snprintf(b, sizeof b, "%" PRId64, v);

	put(l, b, (size_t)n);
}

void line_int(struct line *l, const char *k, int64_t v)
{
	key(l, k);
	number(l, v);
}

void line_escaped(struct line *l, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(l, run, (size_t)(s - run));
		if (c == '"' || c == '\\') {
			e[1] = (char)c;
			put(l, e, 2);
		} else {
			put(l, e, 6);
		}
		run = s + 1;
	}
	put(l, run, (size_t)(s - run));
}

void line_str(struct line *l, const char *k, const char *v)
{
	key(l, k);
	put(l, "\"", 1);
	line_escaped(l, v);
	put(l, "\"", 1);
}

void line_triple(struct line *l, const char *k, int64_t x, int64_t y,
		 int64_t z)
{
	key(l, k);
	put(l, "[", 1);
	number(l, x);
	put(l, ",", 1);
	number(l, y);
	put(l, ",", 1);
	number(l, z);
	put(l, "]", 1);
}
