/*
 * gpus.c - fuzzing the GPU list reader (gpus.txt). A GPU it finds must be
 * the one asked for, with a compute capability and an SM count in range,
 * and must read back the same from its own line.
 */
#include <strings.h>

#include "fuzz.h"
#include "occcalc.h"
#include "util.h"

static enum occ_status find(const char *text, size_t len, const char *name,
			    struct occ_gpu *g, struct occ_diag *d)
{
	FILE *f = fmemopen((void *)text, len, "r");
	enum occ_status st = occ_gpu_read(f, "gpus.txt", name, g, d);

	fclose(f);
	return st;
}

static void check_gpu(const struct occ_gpu *g, const char *name)
{
	struct occ_gpu back;
	struct occ_diag d;
	char line[512];
	int n;

	FUZZ_CHECK(strcasecmp(g->name, name) == 0, "found %s for %s",
		   g->name, name);
	FUZZ_CHECK(g->cc_major > 0 && g->cc_minor >= 0 && g->cc_minor <= 9 &&
		   g->sms >= 1 && g->sms <= 1 << 20, "%s: %d.%d, %d SMs",
		   g->name, g->cc_major, g->cc_minor, g->sms);
	n = snprintf(line, sizeof line, "%s %d.%d %d %s\n", g->name,
		     g->cc_major, g->cc_minor, g->sms, g->source);
	FUZZ_CHECK(find(line, (size_t)n, g->name, &back, &d) == OCC_OK &&
		   strcmp(back.name, g->name) == 0 &&
		   back.cc_major == g->cc_major &&
		   back.cc_minor == g->cc_minor && back.sms == g->sms &&
		   strcmp(back.source, g->source) == 0,
		   "a GPU reads back differently from its line: %s", line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Names in the real list, and one in none (the whole file is read). */
	static const char *const names[] = { "H100", "A100", "RTX4090", "" };
	struct occ_gpu g;
	struct occ_diag d;
	enum occ_status st;
	size_t i;

	if (size == 0)
		return 0;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		st = find((const char *)data, size, names[i], &g, &d);
		if (st == OCC_OK)
			check_gpu(&g, names[i]);
		else
			FUZZ_CHECK(st == OCC_ERR_UNKNOWN_ARCH || d.line > 0,
				   "a refusal that names no line");
	}
	return 0;
}
