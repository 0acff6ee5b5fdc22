/*
 * gpus.c - fuzzing the GPU list reader (gpus.txt). Every GPU it accepts
 * must have a compute capability and an SM count in range (0: not known),
 * an L2 in range (its 'l2' line's), must read back
 * the same from its own line, and must be what its own name matches. A
 * list accepted has every layout line well formed: the layout reader
 * (occ_gpu_layout_find, which --cluster uses) finds each GPU's. A list
 * refused names its line, and the limit where it says one.
 */
#include <ctype.h>
#include <strings.h>
#include <unistd.h>

#include "fuzz.h"
#include "occcalc.h"
#include "util.h"

static enum occ_status read_list(const char *text, size_t len,
				 struct occ_gpus **l, struct occ_diag *d)
{
	FILE *f = fmemopen((void *)text, len, "r");
	enum occ_status st = occ_gpus_read(f, "gpus.txt", l, d);

	fclose(f);
	return st;
}

static void check_reads_back(const struct occ_gpu *g)
{
	struct occ_gpus *back;
	struct occ_diag d;
	const struct occ_gpu *b;
	char line[512], sms[16];
	int n;

	snprintf(sms, sizeof sms, g->sms ? "%d" : "-", g->sms);
	n = snprintf(line, sizeof line, "%s %d.%d %s %s\n", g->name,
		     g->cc_major, g->cc_minor, sms, g->source);
	FUZZ_CHECK(read_list(line, (size_t)n, &back, &d) == OCC_OK &&
		   occ_gpus_count(back) == 1,
		   "a GPU's own line is refused: %s", line);
	b = occ_gpus_get(back, 0);
	FUZZ_CHECK(strcmp(b->name, g->name) == 0 &&
		   b->cc_major == g->cc_major && b->cc_minor == g->cc_minor &&
		   b->sms == g->sms && strcmp(b->source, g->source) == 0,
		   "a GPU reads back differently from its line: %s", line);
	occ_gpus_free(back);
}

static void check_gpu(const struct occ_gpus *l, const struct occ_gpu *g)
{
	struct occ_gpu_match m;

	FUZZ_CHECK(g->cc_major > 0 && g->cc_minor >= 0 && g->cc_minor <= 9 &&
		   g->sms >= 0 && g->sms <= 1 << 20, "%s: %d.%d, %d SMs",
		   g->name, g->cc_major, g->cc_minor, g->sms);
	/* An L2 is whole, within the limit, its set-aside within it. */
	FUZZ_CHECK(g->l2_size <= OCC_BYTES_MAX &&
		   g->l2_persisting_max <= g->l2_size &&
		   g->l2_window_max <= OCC_BYTES_MAX &&
		   (!g->l2_size || g->l2_source[0]) &&
		   (g->l2_size || (!g->l2_persisting_max && !g->l2_window_max)),
		   "%s: L2 %llu, set-aside %llu, window %llu", g->name,
		   (unsigned long long)g->l2_size,
		   (unsigned long long)g->l2_persisting_max,
		   (unsigned long long)g->l2_window_max);
	/* Published GPCs: as many as SMs at most, each of at most the most,
	 * and only for a GPU whose SMs are known. */
	FUZZ_CHECK(!g->sms_per_gpc_max ||
		   (g->sms > 0 && g->gpcs >= 0 && g->gpcs <= g->sms &&
		    g->gpcs <= 128 && g->sms_per_gpc_max <= 256 &&
		    g->sms <= 128 * g->sms_per_gpc_max && g->gpcs_source[0]),
		   "%s: %d SMs, %d GPCs of at most %d", g->name, g->sms,
		   g->gpcs, g->sms_per_gpc_max);
	FUZZ_CHECK(occ_gpus_match(l, g->name, &m) == OCC_OK &&
		   m.gpu[0] == g, "%s does not find itself", g->name);
	check_reads_back(g);
}

/* Each "layout NAME ..." line of an accepted list is found by the layout
 * reader, as the list is, from a file. */
static void check_layouts(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/occcalc-fuzz-gpus-XXXXXX", name[1024];
	char *text = fuzz_string(data, size), *line, *save = NULL;
	struct occ_gpu_layout out;
	struct occ_diag d;
	enum occ_status st;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(text);
		return;
	}
	close(fd);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (isspace((unsigned char)*line))
			line++;
		size_t at, n;

		if (strncmp(line, "layout", 6) != 0 ||
		    (line[6] != ' ' && line[6] != '\t'))
			continue;
		at = 6 + strspn(line + 6, " \t");
		n = strcspn(line + at, " \t");   /* as the readers cut */
		if (n == 0 || n >= sizeof name)
			continue;      /* a comment's, or no GPU's name */
		memcpy(name, line + at, n);
		name[n] = '\0';
		if (strchr(name, '#'))
			continue;
		st = occ_gpu_layout_find(path, name, &out, &d);
		FUZZ_CHECK(st == OCC_OK, "list accepted, layout of %s: "
			   "status %d at line %d", name, (int)st, d.line);
	}
	unlink(path);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_gpus *l;
	struct occ_diag d;
	enum occ_status st;
	size_t i;

	if (size == 0)
		return 0;
	st = read_list((const char *)data, size, &l, &d);
	if (st != OCC_OK) {
		FUZZ_CHECK(d.line > 0 || st == OCC_ERR_NOMEM,
			   "a refusal that names no line");
		FUZZ_CHECK(!d.key[0] || strcmp(d.key, "layout") == 0 ||
			   d.limit > 0, "a refusal for %s names no limit",
			   d.key);
		return 0;
	}
	for (i = 0; i < occ_gpus_count(l); i++)
		check_gpu(l, occ_gpus_get(l, i));
	occ_gpus_free(l);
	check_layouts(data, size);
	return 0;
}
