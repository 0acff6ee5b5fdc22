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

/* A set or a list joined by sep. */
static void put_joined(struct out *o, const struct occ_val *v, char sep)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (i)
			put_char(o, sep);
		if (v->type == OCC_VAL_LIST)
			put_u64(o, v->list[i]);
		else
			put_str(o, v->strs[i]);
	}
}

void out_put_value(struct out *o, const struct occ_field *f,
		   const struct occ_val *v)
{
	switch (v->type) {
	case OCC_VAL_NULL:
		put_str(o, f->none ? f->none : "");
		break;
	case OCC_VAL_UINT:
		put_u64(o, v->u);
		break;
	case OCC_VAL_DEC:
		put_str(o, v->s);
		break;
	case OCC_VAL_STR:
		put_csv_string(o, v->s);
		break;
	case OCC_VAL_BOOL:
		put_str(o, v->u ? "true" : "false");
		break;
	case OCC_VAL_SET:
		put_joined(o, v, '+');
		break;
	case OCC_VAL_LIST:
		put_joined(o, v, ' ');
		break;
	}
}

/* JSON the library writes (a row, a value: occcalc/fields.h), into the
 * buffer where it fits, flushed first where it does not, and written
 * apart where it is longer than the buffer. The writer is called again
 * for the length it said: getters only read the row. */
#define JSON_INTO(o, call_into) do { \
	size_t n_ = call_into((o)->buf + (o)->len, sizeof (o)->buf - (o)->len); \
	char *big_; \
	if (n_ < sizeof (o)->buf - (o)->len) { \
		(o)->len += n_; \
		break; \
	} \
	out_flush(o); \
	if (n_ < sizeof (o)->buf) { \
		(o)->len = call_into((o)->buf, sizeof (o)->buf); \
		break; \
	} \
	if (!(big_ = malloc(n_ + 1))) \
		die("out of memory"); \
	call_into(big_, n_ + 1); \
	out_write(o, big_, n_); \
	free(big_); \
} while (0)

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
	struct occ_val v;
	size_t i;

	for (i = 0; i < o->sel->n; i++) {
		const struct occ_field *f = o->sel->f[i];

		if (i)
			put_char(o, ',');
		f->get(row, f, &v);
		out_put_value(o, f, &v);
	}
	put_char(o, '\n');
}

static void json_object(struct out *o, const void *row)
{
#define ROW_INTO(buf, cap) occ_row_json(o->sel->f, o->sel->n, row, buf, cap)
	JSON_INTO(o, ROW_INTO);
#undef ROW_INTO
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
	struct occ_val v = { .type = OCC_VAL_STR, .s = s };

#define VAL_INTO(buf, cap) occ_val_json(&v, buf, cap)
	JSON_INTO(o, VAL_INTO);
#undef VAL_INTO
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
