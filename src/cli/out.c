/*
 * out.c - the writers: a row's selected fields as a text table (or, for
 * one record, 'key value' lines: out_table.c), CSV (RFC 4180), JSON (an
 * array of objects) or JSON Lines (an object a line, streamed). One
 * escaper each.
 *
 * Rows are written by hand into a buffer: a sweep prints millions of them,
 * and printf's parsing would cost more than the model.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "out_int.h"

/* ---- Buffer ---- */

/* A piece's text, kept in memory until it is joined. Grown here rather
 * than through open_memstream, whose growth took as long as the rows'
 * formatting; a growth that fails drops the piece when it closes. */
static void mem_append(struct out *o, const char *s, size_t n)
{
	size_t cap = o->mem_cap ? o->mem_cap : (size_t)1 << 18;

	if (o->mem_failed)
		return;
	while (cap - o->mem_len < n && cap <= SIZE_MAX / 2)
		cap *= 2;
	if (cap - o->mem_len < n) {
		o->mem_failed = 1;
		return;
	}
	if (cap != o->mem_cap) {
		char *p = realloc(o->mem, cap);

		if (!p) {
			o->mem_failed = 1;
			return;
		}
		o->mem = p;
		o->mem_cap = cap;
	}
	memcpy(o->mem + o->mem_len, s, n);
	o->mem_len += n;
}

static void mem_drop(struct out *o)
{
	free(o->mem);
	o->mem = NULL;
	o->mem_len = o->mem_cap = 0;
}

void out_write(struct out *o, const char *s, size_t n)
{
	if (o->piece) {
		mem_append(o, s, n);
		return;
	}
	if (o->progress)
		progress_clear(o->progress);
	fwrite(s, 1, n, o->f);
}

void __attribute__((noinline)) out_flush(struct out *o)
{
	if (o->len) {
		out_write(o, o->buf, o->len);
		o->len = 0;
	}
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930"
	"31323334353637383940414243444546474849505152535455565758596061"
	"62636465666768697071727374757677787980818283848586878889909192"
	"93949596979899";

/* v in decimal, two digits at a time, ending at end; returns the start. */
static char *u64_text(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--end = digit_pairs[d + 1];
		*--end = digit_pairs[d];
	}
	if (v >= 10) {
		*--end = digit_pairs[v * 2 + 1];
		*--end = digit_pairs[v * 2];
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

static inline void put_u64(struct out *o, uint64_t v)
{
	char tmp[24], *s = u64_text(tmp + sizeof tmp, v);

	put(o, s, (size_t)(tmp + sizeof tmp - s));
}

void format_ratio_percent(char *buf, uint64_t num, uint64_t den)
{
	uint64_t hundredths, rem;
	char tmp[24], *s;

	/* Measured cycle counts can be large; a few low bits do not show in
	 * two decimals. */
	while (num > UINT64_MAX / 10000) {
		num >>= 1;
		den >>= 1;
	}
	hundredths = num * 10000 / den;
	rem = num * 10000 % den;
	/* A tie goes to the even digit, as printf("%.2f") rounds the exact
	 * binary fractions occupancy is made of: what Nsight Compute and
	 * nvprof print (65.625 % is 65.62, 3.125 % is 3.12). */
	if (2 * rem > den || (2 * rem == den && hundredths % 2))
		hundredths++;
	s = u64_text(tmp + sizeof tmp, hundredths / 100);
	memcpy(buf, s, (size_t)(tmp + sizeof tmp - s));
	buf += tmp + sizeof tmp - s;
	*buf++ = '.';
	*buf++ = (char)('0' + hundredths % 100 / 10);
	*buf++ = (char)('0' + hundredths % 10);
	*buf = '\0';
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* One rule for every decimal, so that a value reads the same in each
 * mode and format: a fixed count per unit, never trimmed (37.50, 25.00).
 * Percentages, ratios (speedup, sectors per request) and rates keep
 * hundredths, as the profilers print them; times keep a microsecond of a
 * millisecond; hitRatio keeps the plan's resolution, 1/10000. */
int out_decimals(const char *field_name)
{
	if (ends_with(field_name, "_ms") || ends_with(field_name, "_us"))
		return 3;
	if (strcmp(field_name, "hit_ratio") == 0)
		return 4;
	return 2;
}

void arch_tag(char *buf, size_t n, const struct occ_arch *a)
{
	snprintf(buf, n, "sm_%d%d", a->cc_major, a->cc_minor);
}

void flush_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error: %s", strerror(errno));
}

/* ---- Escapers ---- */

/* JSON: quotes, backslashes and every control character escaped. */
static void put_json_string(struct out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	put_char(o, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			put_char(o, '\\');
			put_char(o, (char)c);
		} else if (c < 0x20) {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4],
				      hex[c & 15] };

			put(o, e, sizeof e);
		} else {
			put_char(o, (char)c);
		}
	}
	put_char(o, '"');
}

/* CSV (RFC 4180): a cell holding a comma, a quote or a line break is
 * quoted, its quotes doubled. */
static void put_csv_string(struct out *o, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		put_str(o, s);
		return;
	}
	put_char(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			put_char(o, '"');
		put_char(o, *s);
	}
	put_char(o, '"');
}

/* ---- Values ---- */

/* A set or a list joined by sep, each member through put_member. */
static void put_joined(struct out *o, const struct val *v, char sep, int json)
{
	size_t i;

	if (json)
		put_char(o, '[');
	for (i = 0; i < v->n; i++) {
		if (i)
			put_char(o, json ? ',' : sep);
		if (v->type == VAL_LIST)
			put_u64(o, v->list[i]);
		else if (json)
			put_json_string(o, v->strs[i]);
		else
			put_str(o, v->strs[i]);
	}
	if (json)
		put_char(o, ']');
}

/* Whether s is a finite number as JSON writes one (not inf, nan). */
static int json_number(const char *s)
{
	s += *s == '-';
	if (*s < '0' || *s > '9')
		return 0;
	for (; *s; s++)
		if (!strchr("0123456789.eE+-", *s))
			return 0;
	return 1;
}

void out_put_value(struct out *o, const struct field *f,
		   const struct val *v, int json)
{
	switch (v->type) {
	case VAL_NULL:
		put_str(o, json ? "null" : f->none ? f->none : "");
		break;
	case VAL_UINT:
		put_u64(o, v->u);
		break;
	case VAL_DEC:
		/* A decimal written from a value read (a baseline's) is
		 * printed as it was only where it is a JSON number. */
		put_str(o, json && !json_number(v->s) ? "null" : v->s);
		break;
	case VAL_STR:
		if (json)
			put_json_string(o, v->s);
		else
			put_csv_string(o, v->s);
		break;
	case VAL_BOOL:
		put_str(o, v->u ? "true" : "false");
		break;
	case VAL_SET:
		put_joined(o, v, '+', json);
		break;
	case VAL_LIST:
		put_joined(o, v, ' ', json);
		break;
	}
}

void val_format(char *buf, size_t n, const struct val *v)
{
	size_t len = 0, i;

	buf[0] = '\0';
	switch (v->type) {
	case VAL_NULL:
		break;
	case VAL_UINT:
		snprintf(buf, n, "%llu", (unsigned long long)v->u);
		break;
	case VAL_DEC:
	case VAL_STR:
		snprintf(buf, n, "%s", v->s);
		break;
	case VAL_BOOL:
		snprintf(buf, n, "%s", v->u ? "true" : "false");
		break;
	case VAL_SET:
	case VAL_LIST:
		for (i = 0; i < v->n && len + 24 < n; i++)
			len += v->type == VAL_SET
			       ? (size_t)snprintf(buf + len, n - len, "%s%s",
						  i ? "+" : "", v->strs[i])
			       : (size_t)snprintf(buf + len, n - len, "%s%llu",
						  i ? " " : "",
						  (unsigned long long)v->list[i]);
		break;
	}
}

/* ---- CSV and JSON ---- */

static void csv_header(struct out *o)
{
	size_t i;

	if (o->record) {
		put_str(o, "key,value\n");
		return;
	}
	for (i = 0; i < o->sel->n; i++) {
		if (i)
			put_char(o, ',');
		put_str(o, o->sel->f[i]->name);
	}
	put_char(o, '\n');
}

static void csv_row(struct out *o, const void *row)
{
	struct val v;
	size_t i;

	for (i = 0; i < o->sel->n; i++) {
		const struct field *f = o->sel->f[i];

		if (i)
			put_char(o, ',');
		f->get(row, f, &v);
		out_put_value(o, f, &v, 0);
	}
	put_char(o, '\n');
}

static void json_object(struct out *o, const void *row)
{
	struct val v;
	size_t i;

	put_char(o, '{');
	for (i = 0; i < o->sel->n; i++) {
		const struct field *f = o->sel->f[i];

		if (i)
			put_char(o, ',');
		put_char(o, '"');
		put_str(o, f->name);
		put(o, "\":", 2);
		f->get(row, f, &v);
		out_put_value(o, f, &v, 1);
	}
	put_char(o, '}');
}

/* ---- The writer ---- */

void out_open(struct out *o, FILE *f, enum out_format format,
	      const struct fieldsel *sel)
{
	memset(o, 0, offsetof(struct out, buf));   /* not the 64 KB buffer */
	o->f = f;
	o->format = format;
	o->sel = sel;
}

void out_style(struct out *o, unsigned style)
{
	o->style = style;
}

static void out_header(struct out *o)
{
	if ((o->style & OUT_NOHEADER) && o->format != OUT_JSON)
		return;
	if (o->format == OUT_CSV)
		csv_header(o);
	else if (o->format == OUT_TEXT && !o->record)
		out_text_header(o);
	else if (o->format == OUT_JSON)
		put_char(o, '[');
}

void out_row(struct out *o, const void *row)
{
	if (o->check)
		check_judge(o->check, row);
	if (o->rows == 0 && !o->piece)
		out_header(o);
	switch (o->format) {
	case OUT_TEXT:
		if (o->record)
			out_record_row(o, row);
		else
			out_text_row(o, row);
		break;
	case OUT_CSV:
		if (o->record)
			out_record_row(o, row);
		else
			csv_row(o, row);
		break;
	case OUT_JSON:
		put_str(o, o->rows ? ",\n" : "\n");
		json_object(o, row);
		break;
	case OUT_JSONL:
		json_object(o, row);
		put_char(o, '\n');
		/* Rows that take long (measured ones) go out as they come. */
		if (o->stream)
			out_flush(o);
		break;
	}
	o->rows++;
}

void out_text(struct out *o, const char *s)
{
	put_str(o, s);
}

void out_close(struct out *o)
{
	if (o->rows == 0)
		out_header(o);
	if (o->format == OUT_JSON)
		put_str(o, "\n]\n");
	out_flush(o);
	if (fflush(o->f) != 0 || ferror(o->f))
		die("write error: %s", strerror(errno));
}

/* ---- JSON written by others (chrome.c: --annotate's Chrome trace) ---- */

void out_put(struct out *o, const char *s, size_t n)
{
	put(o, s, n);
}

void out_put_json_string(struct out *o, const char *s)
{
	put_json_string(o, s);
}

void out_object(struct out *o, const void *row)
{
	json_object(o, row);
}

const char *out_piece_take(struct out *o, size_t *len)
{
	out_flush(o);
	*len = o->mem_failed ? 0 : o->mem_len;
	o->mem_len = 0;
	return *len ? o->mem : NULL;
}

/* ---- Pieces of an output, made on other threads ---- */

int out_piece_open(struct out *o, const struct out *whole)
{
	out_open(o, NULL, whole->format, whole->sel);
	out_style(o, whole->style);
	o->record = whole->record;
	o->piece = 1;
	return 0;
}

int out_piece_close(struct out *o)
{
	out_flush(o);
	if (o->mem_failed) {     /* nothing of it is joined */
		mem_drop(o);
		o->rows = 0;
		return -1;
	}
	return 0;
}

/* The piece's rows after whole's: the header before the first, and in a
 * JSON array the comma the piece could not know it needed. */
void out_join(struct out *whole, struct out *piece)
{
	if (piece->rows && whole->rows == 0)
		out_header(whole);
	else if (piece->rows && whole->format == OUT_JSON)
		put_char(whole, ',');
	if (piece->mem_len)
		put(whole, piece->mem, piece->mem_len);
	whole->rows += piece->rows;
	mem_drop(piece);
}
