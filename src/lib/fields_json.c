/*
 * fields_json.c - a value and a row as JSON (occcalc/fields.h): the one
 * writer of them, which the command line's JSON and JSON Lines and a
 * program's rows share. Written by hand, not with printf: a sweep writes
 * millions of rows.
 */
#include <string.h>

#include "occcalc.h"

/* Text written into buf as far as cap allows, counted whole. */
struct sink {
	char *buf;
	size_t cap, len;
};

static void put(struct sink *s, const char *p, size_t n)
{
	if (s->len < s->cap) {
		size_t room = s->cap - s->len;

		memcpy(s->buf + s->len, p, n < room ? n : room);
	}
	s->len += n;
}

static void put_char(struct sink *s, char c)
{
	if (s->len < s->cap)
		s->buf[s->len] = c;
	s->len++;
}

static void put_str(struct sink *s, const char *p)
{
	put(s, p, strlen(p));
}

static void put_u64(struct sink *s, uint64_t v)
{
	char tmp[24], *end = tmp + sizeof tmp, *p = end;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	put(s, p, (size_t)(end - p));
}

/* Quotes, backslashes and every control character escaped. */
static void put_string(struct sink *s, const char *p)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = p;

	put_char(s, '"');
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		put(s, run, (size_t)(p - run));
		run = p + 1;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };

			put(s, e, 2);
		} else {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4],
				      hex[c & 15] };

			put(s, e, 6);
		}
	}
	put(s, run, (size_t)(p - run));
	put_char(s, '"');
}

/* Whether t is a finite number as JSON writes one (not inf, nan). */
static int json_number(const char *t)
{
	t += *t == '-';
	if (*t < '0' || *t > '9')
		return 0;
	for (; *t; t++)
		if (!strchr("0123456789.eE+-", *t))
			return 0;
	return 1;
}

static void put_val(struct sink *s, const struct occ_val *v)
{
	size_t i;

	switch (v->type) {
	case OCC_VAL_NULL:
		put_str(s, "null");
		break;
	case OCC_VAL_UINT:
		put_u64(s, v->u);
		break;
	case OCC_VAL_DEC:
		/* A decimal read back (a baseline's) may be no number. */
		put_str(s, json_number(v->s) ? v->s : "null");
		break;
	case OCC_VAL_STR:
		put_string(s, v->s);
		break;
	case OCC_VAL_BOOL:
		put_str(s, v->u ? "true" : "false");
		break;
	case OCC_VAL_SET:
	case OCC_VAL_LIST:
		put_char(s, '[');
		for (i = 0; i < v->n; i++) {
			if (i)
				put_char(s, ',');
			if (v->type == OCC_VAL_LIST)
				put_u64(s, v->list[i]);
			else
				put_string(s, v->strs[i]);
		}
		put_char(s, ']');
		break;
	}
}

static size_t end(struct sink *s)
{
	if (s->cap)
		s->buf[s->len < s->cap ? s->len : s->cap - 1] = '\0';
	return s->len;
}

size_t occ_val_json(const struct occ_val *v, char *buf, size_t cap)
{
	struct sink s = { buf, cap, 0 };

	put_val(&s, v);
	return end(&s);
}

size_t occ_row_json(const struct occ_field *const *f, size_t n,
		    const void *row, char *buf, size_t cap)
{
	struct sink s = { buf, cap, 0 };
	struct occ_val v;
	size_t i;

	put_char(&s, '{');
	for (i = 0; i < n; i++) {
		if (i)
			put_char(&s, ',');
		put_string(&s, f[i]->name);
		put_char(&s, ':');
		f[i]->get(row, f[i], &v);
		put_val(&s, &v);
	}
	put_char(&s, '}');
	return end(&s);
}
