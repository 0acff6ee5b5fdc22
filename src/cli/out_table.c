/*
 * out_table.c - the text writer: a row's selected fields as a table's
 * line, padded to each field's column (struct occ_text_col), or one record
 * as 'key value' lines; a value as the table shows it (units, '-').
 */
#include <string.h>

#include "cli.h"
#include "out_int.h"

/* A value as a text table shows it, into buf. */
static void text_value(char *buf, size_t n, const struct occ_field *f,
		       const struct occ_val *v, int nounits)
{
	if (v->type == OCC_VAL_NULL) {
		snprintf(buf, n, "%s", f->text.flags & OCC_TXT_DASH ? "-"
			 : f->none ? f->none : "");
		return;
	}
	if (v->type == OCC_VAL_STR)
		escape_text(buf, n, v->s);
	else
		occ_val_format(buf, n, v);
	/* A list is one cell: 2048x1x1, as a grid is written, not numbers
	 * that read as columns of their own. */
	if (v->type == OCC_VAL_LIST && (f->text.flags & OCC_TXT_DIMS))
		for (char *p = buf; *p; p++)
			if (*p == ' ')
				*p = 'x';
	if ((f->text.flags & OCC_TXT_PCT) && !nounits)
		snprintf(buf + strlen(buf), n - strlen(buf), "%%");
}

/* A field without a column of its own (one --fields picks that the
 * default table lacks): as wide as its heading, two spaces before it,
 * numbers to the right, words to the left. */
static struct occ_text_col text_col(const struct occ_field *f)
{
	struct occ_text_col c = f->text;
	int n = (int)strlen(f->text.label ? f->text.label : f->name);

	if (c.width || c.gap || c.at)
		return c;
	c.width = f->type == OCC_FT_STR || f->type == OCC_FT_SET ? -n : n;
	c.gap = 2;
	return c;
}

/* One cell of a text table: the gap, then the text padded to the width;
 * at least one space from the cell before, however long either is. */
static void text_cell(struct out *o, const struct occ_field *f, const char *s,
		      size_t start)
{
	struct occ_text_col c = text_col(f);
	int w = c.width, len = (int)strlen(s), pad;
	int col = (int)(o->len - start), gap = col ? c.gap : 0;

	if (col && c.at > col + gap)
		gap = c.at - col;
	pad = (w < 0 ? -w : w) - len;
	if (col && gap == 0 && (w <= 0 || pad <= 0) &&
	    o->buf[o->len - 1] != ' ')
		gap = 1;
	for (; gap > 0; gap--)
		put_char(o, ' ');
	if (w > 0)
		for (; pad > 0; pad--)
			put_char(o, ' ');
	put_str(o, s);
	if (w < 0)
		for (; pad > 0; pad--)
			put_char(o, ' ');
}

/* Ends a text line without the spaces its last cell padded. */
static void text_end_line(struct out *o, size_t start)
{
	while (o->len > start && o->buf[o->len - 1] == ' ')
		o->len--;
	put_char(o, '\n');
}

static void text_begin_line(struct out *o)
{
	/* A line is trimmed in the buffer: keep it whole there. */
	if (o->len + 4096 > sizeof o->buf)
		out_flush(o);
}

void out_text_header(struct out *o)
{
	size_t i, start;

	text_begin_line(o);
	start = o->len;
	for (i = 0; i < o->sel->n; i++) {
		const struct occ_field *f = o->sel->f[i];

		text_cell(o, f, f->text.label ? f->text.label : f->name, start);
	}
	text_end_line(o, start);
}

void out_text_row(struct out *o, const void *row)
{
	char buf[2048];
	struct occ_val v;
	size_t i, start;

	text_begin_line(o);
	start = o->len;
	for (i = 0; i < o->sel->n; i++) {
		const struct occ_field *f = o->sel->f[i];

		(f->text.get ? f->text.get : f->get)(row, f, &v);
		text_value(buf, sizeof buf, f, &v,
			   (o->style & OUT_NOUNITS) != 0);
		text_cell(o, f, buf, start);
	}
	text_end_line(o, start);
}

/* One record as 'key value' lines (text) or 'key,value' rows (CSV). */
void out_record_row(struct out *o, const void *row)
{
	char buf[2048];
	struct occ_val v;
	size_t i;

	for (i = 0; i < o->sel->n; i++) {
		const struct occ_field *f = o->sel->f[i];

		f->get(row, f, &v);
		if (o->format == OUT_CSV) {
			put_str(o, f->name);
			put_char(o, ',');
			out_put_value(o, f, &v);
		} else {
			text_value(buf, sizeof buf, f, &v,
				   (o->style & OUT_NOUNITS) != 0);
			text_begin_line(o);
			put_str(o, f->name);
			for (size_t pad = strlen(f->name); pad < 34; pad++)
				put_char(o, ' ');
			put_str(o, buf);
		}
		put_char(o, '\n');
	}
}
