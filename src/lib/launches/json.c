/*
 * json.c - JSON as the launch readers take it: yajl's streaming parser
 * with a bound on what it may hold (one token, a nesting depth), and
 * numbers read from their text, so that a figure beyond 64 bits is
 * refused by name rather than rounded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "launches_int.h"

int json_int(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0, lim;
	size_t i = 0;
	int neg = n > 0 && s[0] == '-';

	i = neg;
	if (i == n)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if (v > (lim - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int json_double(const char *s, size_t n, double *out)
{
	char buf[64];
	char *end;

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	return *end || errno == ERANGE ? -1 : 0;
}

int json_us_to_ns(const char *s, size_t n, int64_t *out)
{
	size_t dot = 0, i, digits = 0;
	int64_t whole, frac = 0;
	double d;
	int st;

	while (dot < n && s[dot] != '.' && s[dot] != 'e' && s[dot] != 'E')
		dot++;
	if (dot < n && s[dot] != '.') {
		/* An exponent: rare (a huge or tiny figure); as a double. */
		if (json_double(s, n, &d) != 0 || !(d * 1e3 < 9.2e18) ||
		    !(d * 1e3 > -9.2e18))
			return -2;
		*out = (int64_t)(d * 1e3);
		return 0;
	}
	st = json_int(s, dot, &whole);
	if (st != 0)
		return st;
	for (i = dot + 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (digits < 3) {
			frac = frac * 10 + (s[i] - '0');
			digits++;
		}
	}
	for (; digits < 3; digits++)
		frac *= 10;
	if (whole > INT64_MAX / 1000 - 1 || whole < INT64_MIN / 1000 + 1)
		return -2;
	*out = whole * 1000 + (s[0] == '-' ? -frac : frac);
	return 0;
}

enum occ_status json_stream_open(struct json_stream *js,
				 const yajl_callbacks *cb, void *ctx,
				 int multiple)
{
	memset(js, 0, sizeof *js);
	js->h = yajl_alloc(cb, NULL, ctx);
	if (!js->h)
		return OCC_ERR_NOMEM;
	if (multiple)
		yajl_config(js->h, yajl_allow_multiple_values, 1);
	return OCC_OK;
}

size_t json_stream_at(const struct json_stream *js)
{
	return js->base + yajl_get_bytes_consumed(js->h);
}

void json_stream_touch(struct json_stream *js)
{
	js->called = 1;
}

static enum occ_status json_status(struct json_stream *js, yajl_status ys)
{
	if (ys == yajl_status_ok)
		return OCC_OK;
	if (ys == yajl_status_client_canceled)
		return js->st != OCC_OK ? js->st : OCC_ERR_SYNTAX;
	return OCC_ERR_SYNTAX;
}

/* yajl is given at most this much at once, so that a token longer than
 * LAUNCH_TOKEN_MAX is seen before yajl has held much more. */
#define PIECE (1u << 16)

enum occ_status json_stream_feed(struct json_stream *js,
				 const unsigned char *p, size_t n,
				 size_t *at)
{
	size_t done = 0, k;
	enum occ_status st;

	*at = 0;
	while (done < n) {
		k = n - done < PIECE ? n - done : PIECE;
		js->called = 0;
		js->base = done;
		st = json_status(js, yajl_parse(js->h, p + done, k));
		if (st != OCC_OK) {
			*at = done + yajl_get_bytes_consumed(js->h);
			return st;
		}
		js->quiet = js->called ? 0 : js->quiet + k;
		if (js->quiet > LAUNCH_TOKEN_MAX) {
			*at = done + k;
			return OCC_ERR_RANGE;
		}
		done += k;
	}
	return OCC_OK;
}

enum occ_status json_stream_finish(struct json_stream *js)
{
	return json_status(js, yajl_complete_parse(js->h));
}

void json_stream_close(struct json_stream *js)
{
	if (js->h)
		yajl_free(js->h);
	js->h = NULL;
}
