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
	char *save = NULL, *name, *cc, *sms, *end, *rest;
	long n;

	name = strtok_r(line, " \t", &save);
	cc = strtok_r(NULL, " \t", &save);
	sms = strtok_r(NULL, " \t", &save);
	rest = strtok_r(NULL, "", &save);
	if (!name || !cc || !sms || !rest || strlen(name) >= sizeof g->name)
		return -1;
	if (occ_arch_parse_name(cc, &g->cc_major, &g->cc_minor) != OCC_OK ||
	    !strchr(cc, '.'))
		return -1;
	n = strtol(sms, &end, 10);
	if (*end || n < 1 || n > 1 << 20)
		return -1;
	g->sms = (int)n;
	strcpy(g->name, name);
	occ_copy_string(g->source, sizeof g->source, occ_trim(rest));
	return 0;
}

enum occ_status occ_gpu_find(const char *path, const char *name,
			     struct occ_gpu *gpu, struct occ_diag *diag)
{
	char line[1024];
	int lineno = 0;
	enum occ_status st = OCC_ERR_UNKNOWN_ARCH;
	FILE *f = fopen(path, "r");

	occ_diag_set(diag, path, 0, "");
	if (!f)
		return OCC_ERR_IO;
	while (fgets(line, sizeof line, f)) {
		struct occ_gpu g;
		char *s;

		lineno++;
		occ_strip_comment(line);
		s = occ_trim(line);
		/* Layout lines are layout.c's (occ_gpu_layout_find). */
		if (*s == '\0' || (strncmp(s, "layout", 6) == 0 &&
				    isspace((unsigned char)s[6])))
			continue;
		if (parse_gpu_line(s, &g) != 0) {
			occ_diag_set(diag, path, lineno, "");
			st = OCC_ERR_SYNTAX;
			break;
		}
		if (strcasecmp(g.name, name) == 0) {
			*gpu = g;
			st = OCC_OK;
			break;
		}
	}
	fclose(f);
	return st;
}
