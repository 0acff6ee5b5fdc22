/*
 * json_scan.c - the JSON reader's scan ahead of yajl (json.c runs it
 * over each slice before yajl reads it): strings checked for what yajl
 * lets through (a \u0000, a lone UTF-16 surrogate, bytes that are no
 * UTF-8), tokens for the length limit, and each string's start kept for
 * yajl's callback, which is not told it. Apart from json.c because it
 * is a state machine of its own over the bytes, whatever yajl makes of
 * them.
 */
#include <stdlib.h>

#include "json_int.h"

/* ---- Strings: checked, and where they start ---- */

/* Whether s is UTF-8 as RFC 3629 has it: no overlong form, no
 * surrogate, nothing past U+10FFFF. */
int occ_json_utf8_ok(const unsigned char *s, size_t n)
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

uint64_t occ_json_pop_start(struct occ_json_reader *r)
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
int occ_json_scan_byte(struct occ_json_reader *r, unsigned c,
		       uint64_t at)
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
