/*
 * gpus.c - the list of common GPUs (gpus.txt beside the tables): a model
 * name gives a compute capability and an SM count.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "occcalc.h"
#include "util.h"

/* "NAME CC SMS SOURCE..." into *g; 0 on success. */
static int parse_gpu_line(char *line, struct occ_gpu *g)
{
	char *save = NULL, *name, *cc, *sms, *rest;
	const char *end;
	uint64_t n;

	name = strtok_r(line, " \t", &save);
	cc = strtok_r(NULL, " \t", &save);
	sms = strtok_r(NULL, " \t", &save);
	rest = strtok_r(NULL, "", &save);
	if (!name || !cc || !sms || !rest || strlen(name) >= sizeof g->name)
		return -1;
	rest = occ_trim(rest);
	if (strlen(rest) >= sizeof g->source)
		return -1;  /* refused, not cut short */
	if (occ_arch_parse_name(cc, &g->cc_major, &g->cc_minor) != OCC_OK ||
	    !strchr(cc, '.'))
		return -1;
	if (occ_parse_u64(sms, &n, &end) != OCC_PARSE_OK || *end ||
	    n < 1 || n > 1 << 20)
		return -1;
	g->sms = (int)n;
	strcpy(g->name, name);
	strcpy(g->source, rest);
	return 0;
}

#define GPU_LINE_CHARS 1024

enum occ_status occ_gpu_read(FILE *f, const char *path, const char *name,
			     struct occ_gpu *gpu, struct occ_diag *diag)
{
	struct occ_lines in;
	char buf[GPU_LINE_CHARS], *line;
	enum occ_status st;

	occ_diag_set(diag, path, 0, "");
	occ_lines_init(&in, f, buf, sizeof buf);
	while ((st = occ_lines_next(&in, &line)) == OCC_OK && line) {
		struct occ_gpu g;
		char *s;

		occ_strip_comment(line);
		s = occ_trim(line);
		/* Layout lines are layout.c's (occ_gpu_layout_find). */
		if (*s == '\0' || (strncmp(s, "layout", 6) == 0 &&
				    isspace((unsigned char)s[6])))
			continue;
		if (parse_gpu_line(s, &g) != 0) {
			st = OCC_ERR_SYNTAX;
			break;
		}
		if (strcasecmp(g.name, name) == 0) {
			*gpu = g;
			return OCC_OK;
		}
	}
	if (st == OCC_OK)
		return OCC_ERR_UNKNOWN_ARCH;
	occ_diag_set(diag, path, in.lineno, "");
	if (diag && st == OCC_ERR_LINE_TOO_LONG)
		diag->limit = sizeof buf - 1;
	return st;
}

enum occ_status occ_gpu_find(const char *path, const char *name,
			     struct occ_gpu *gpu, struct occ_diag *diag)
{
	FILE *f;
	enum occ_status st = occ_open_regular(path, &f);

	occ_diag_set(diag, path, 0, "");
	if (st != OCC_OK)
		return st;
	st = occ_gpu_read(f, path, name, gpu, diag);
	fclose(f);
	return st;
}
