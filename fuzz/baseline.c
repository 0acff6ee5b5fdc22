/*
 * baseline.c - fuzzing the reader of occcalc's own JSON and JSON Lines
 * rows (occ_rows_read, src/lib/rows.c, over the library's JSON reader):
 * a refused text must say why at a byte, line and column within it; an
 * accepted one, written back as JSON (every value a string, null kept),
 * must read back the same rows, fields and values.
 */
#include "fuzz.h"
#include "occcalc.h"

struct kept_field {
	char *name, *text;
};

struct rows {
	struct kept_field *f;
	size_t *ends;               /* each row's end in f */
	size_t nf, nr;
};

static int keep(const struct occ_rows_row *row, void *ctx)
{
	struct rows *r = ctx;
	size_t i;

	FUZZ_CHECK(row->index == r->nr, "row %llu came as the %zu-th",
		   (unsigned long long)row->index, r->nr);
	r->f = realloc(r->f, (r->nf + row->n + 1) * sizeof *r->f);
	r->ends = realloc(r->ends, (r->nr + 1) * sizeof *r->ends);
	if (!r->f || !r->ends)
		abort();
	for (i = 0; i < row->n; i++) {
		r->f[r->nf].name = strdup(row->f[i].name);
		r->f[r->nf].text = row->f[i].text ? strdup(row->f[i].text)
			: NULL;
		FUZZ_CHECK(!strchr(row->f[i].name, '\0') ||
			   strlen(row->f[i].name) < 1u << 20, "name too long");
		r->nf++;
	}
	r->ends[r->nr++] = r->nf;
	return 0;
}

static void rows_free(struct rows *r)
{
	size_t i;

	for (i = 0; i < r->nf; i++) {
		free(r->f[i].name);
		free(r->f[i].text);
	}
	free(r->f);
	free(r->ends);
	memset(r, 0, sizeof *r);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static char *write_back(const struct rows *r, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	size_t i, j = 0;

	if (!f)
		abort();
	fputc('[', f);
	for (i = 0; i < r->nr; i++) {
		fputs(i ? ",{" : "{", f);
		for (; j < r->ends[i]; j++) {
			if (j > (i ? r->ends[i - 1] : 0))
				fputc(',', f);
			put_string(f, r->f[j].name);
			fputc(':', f);
			if (r->f[j].text)
				put_string(f, r->f[j].text);
			else
				fputs("null", f);
		}
		fputc('}', f);
	}
	fputc(']', f);
	fclose(f);
	return text;
}

static void same(const struct rows *a, const struct rows *b)
{
	size_t i;

	FUZZ_CHECK(a->nr == b->nr && a->nf == b->nf, "%zu rows of %zu fields "
		   "read back as %zu of %zu", a->nr, a->nf, b->nr, b->nf);
	for (i = 0; i < a->nr; i++)
		FUZZ_CHECK(a->ends[i] == b->ends[i], "row %zu: its fields "
			   "differ read back", i);
	for (i = 0; i < a->nf; i++)
		FUZZ_CHECK(strcmp(a->f[i].name, b->f[i].name) == 0 &&
			   !a->f[i].text == !b->f[i].text &&
			   (!a->f[i].text ||
			    strcmp(a->f[i].text, b->f[i].text) == 0),
			   "field %zu differs read back", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rows r, again;
	struct occ_rows_diag d;
	enum occ_status st;
	size_t len;
	char *text;

	memset(&r, 0, sizeof r);
	memset(&again, 0, sizeof again);
	st = occ_rows_read((const char *)data, size, keep, &r, NULL, &d);
	if (st != OCC_OK) {
		FUZZ_CHECK(st == OCC_ERR_SYNTAX || st == OCC_ERR_RANGE,
			   "status %d", (int)st);
		FUZZ_CHECK(d.what[0] && d.line >= 1 && d.line <= size + 1 &&
			   d.column >= 1 && d.offset <= size,
			   "refused at %llu:%llu (byte %llu of %zu): '%s'",
			   (unsigned long long)d.line,
			   (unsigned long long)d.column,
			   (unsigned long long)d.offset, size, d.what);
		rows_free(&r);
		return 0;
	}
	text = write_back(&r, &len);
	st = occ_rows_read(text, len, keep, &again, NULL, &d);
	FUZZ_CHECK(st == OCC_OK, "written back, refused: %llu:%llu %s",
		   (unsigned long long)d.line, (unsigned long long)d.column,
		   d.what);
	same(&r, &again);
	rows_free(&again);
	rows_free(&r);
	free(text);
	return 0;
}
