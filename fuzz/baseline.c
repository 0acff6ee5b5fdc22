/*
 * baseline.c - fuzzing --compare's reader of occcalc's JSON and JSON
 * Lines (src/cli/baseline.c). A refused file must say why at a line and
 * column within it; an accepted one, written back as JSON (every value a
 * string, null kept), must read back the same rows, fields and values.
 */
#include "fuzz.h"
#include "baseline.h"

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

static char *write_back(const struct baseline *b, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	size_t i, j;

	if (!f)
		abort();
	fputc('[', f);
	for (i = 0; i < b->n; i++) {
		fputs(i ? ",{" : "{", f);
		for (j = 0; j < b->rows[i].n; j++) {
			if (j)
				fputc(',', f);
			put_string(f, b->rows[i].f[j].name);
			fputc(':', f);
			if (b->rows[i].f[j].text)
				put_string(f, b->rows[i].f[j].text);
			else
				fputs("null", f);
		}
		fputc('}', f);
	}
	fputc(']', f);
	fclose(f);
	return text;
}

static void same(const struct baseline *a, const struct baseline *b)
{
	size_t i, j;

	FUZZ_CHECK(a->n == b->n, "%zu rows read back as %zu", a->n, b->n);
	for (i = 0; i < a->n; i++) {
		FUZZ_CHECK(a->rows[i].n == b->rows[i].n, "row %zu: %zu fields, "
			   "then %zu", i, a->rows[i].n, b->rows[i].n);
		for (j = 0; j < a->rows[i].n; j++) {
			const struct base_field *x = &a->rows[i].f[j],
						*y = &b->rows[i].f[j];

			FUZZ_CHECK(strcmp(x->name, y->name) == 0 &&
				   !x->text == !y->text &&
				   (!x->text || strcmp(x->text, y->text) == 0),
				   "row %zu field %zu differs read back", i, j);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct baseline b, again;
	struct base_error err;
	size_t len;
	char *text;

	if (baseline_parse((const char *)data, size, &b, &err) != 0) {
		FUZZ_CHECK(err.msg[0] && err.line >= 1 && err.line <= size + 1,
			   "refused at line %zu: '%s'", err.line, err.msg);
		baseline_free(&b);
		return 0;
	}
	text = write_back(&b, &len);
	FUZZ_CHECK(baseline_parse(text, len, &again, &err) == 0,
		   "written back, refused: %zu:%zu %s", err.line, err.column,
		   err.msg);
	same(&b, &again);
	baseline_free(&again);
	baseline_free(&b);
	free(text);
	return 0;
}
