/* out_int.h - what out.c's writers and the text table's (out_table.c)
 * share: the buffer's puts, inline as rows are written by hand. */
#ifndef OCC_CLI_OUT_INT_H
#define OCC_CLI_OUT_INT_H

#include <string.h>

#include "out.h"

/* The buffer out to the file, or to a piece's memory (out.c). */
void out_flush(struct out *o);
/* n bytes past the buffer, straight to where it goes. */
void out_write(struct out *o, const char *s, size_t n);

static inline void put(struct out *o, const char *s, size_t n)
{
	if (__builtin_expect(o->len + n > sizeof o->buf, 0)) {
		out_flush(o);
		if (n > sizeof o->buf) {
			out_write(o, s, n);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void put_char(struct out *o, char c)
{
	if (__builtin_expect(o->len + 1 > sizeof o->buf, 0))
		out_flush(o);
	o->buf[o->len++] = c;
}

static inline void put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* A value as CSV and text write it (out.c). */
void out_put_value(struct out *o, const struct occ_field *f,
		   const struct occ_val *v);

/* ---- The text table and record (out_table.c) ---- */

void out_text_header(struct out *o);
void out_text_row(struct out *o, const void *row);
/* One record as 'key value' lines (text) or 'key,value' rows (CSV). */
void out_record_row(struct out *o, const void *row);

#endif
