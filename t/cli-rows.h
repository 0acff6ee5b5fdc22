/* cli-rows.h - the command line's rows for the C tests that compare the
 * library's JSON of a row with what occcalc prints (internal to t/). */
#ifndef OCC_TEST_CLI_ROWS_H
#define OCC_TEST_CLI_ROWS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

/* The lines `$OCCCALC ARGS -f jsonl` prints, one object each. */
struct cli_lines {
	char *text;
	char *line[512];
	size_t n;
};

static inline int cli_jsonl(struct cli_lines *c, const char *args)
{
	const char *occcalc = getenv("OCCCALC");
	char cmd[16384], *p;
	size_t len = 0, cap = 1 << 16;
	FILE *f;

	c->n = 0;
	c->text = malloc(cap);
	if (!occcalc || !c->text)
		return -1;
	snprintf(cmd, sizeof cmd, "'%s' %s -f jsonl", occcalc, args);
	if (!(f = popen(cmd, "r")))
		return -1;
	for (;;) {
		size_t got;

		if (cap - len < 4096) {
			if (!(p = realloc(c->text, cap * 2)))
				break;
			c->text = p;
			cap *= 2;
		}
		if ((got = fread(c->text + len, 1, cap - 1 - len, f)) == 0)
			break;
		len += got;
	}
	c->text[len] = '\0';
	if (pclose(f) != 0)
		return -1;
	for (p = strtok(c->text, "\n"); p && c->n < 512; p = strtok(NULL, "\n"))
		c->line[c->n++] = p;
	return 0;
}

static inline void cli_lines_free(struct cli_lines *c)
{
	free(c->text);
}

/* A row's object of every field of kind (its base's first). */
static inline size_t kind_json(const struct occ_row_kind *kind,
			       const void *row, char *buf, size_t cap)
{
	const struct occ_field *f[256];
	size_t i, n = occ_row_kind_count(kind);

	for (i = 0; i < n && i < 256; i++)
		f[i] = occ_row_kind_field(kind, i);
	return occ_row_json(f, i, row, buf, cap);
}

/* How many of the n rows (size bytes each) have kind's object equal to
 * the line the command line printed for them; the others shown. */
static inline size_t rows_same(const struct occ_row_kind *kind,
			       const void *rows, size_t size, size_t n,
			       const struct cli_lines *c)
{
	static char buf[1 << 16];
	size_t i, same = 0;

	for (i = 0; i < n && i < c->n; i++) {
		kind_json(kind, (const char *)rows + i * size, buf, sizeof buf);
		if (strcmp(buf, c->line[i]) == 0)
			same++;
		else
			printf("# %s\n# %s\n", buf, c->line[i]);
	}
	return same;
}

/* --fields naming every field of kind, for the command line. */
static inline void kind_field_list(const struct occ_row_kind *kind,
				   char *buf, size_t cap)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < occ_row_kind_count(kind) && len + 64 < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s",
					i ? "," : "",
					occ_row_kind_field(kind, i)->name);
}

#endif
