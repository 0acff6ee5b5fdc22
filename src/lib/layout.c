/*
 * layout.c - GPC layouts: how many SMs each GPC offers the cluster
 * scheduler, written as "8,16x5,18x2,2x4", read from the GPU list, or
 * found from where a launch's clusters ran.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#include "occcalc.h"
#include "util.h"

/* A decimal number of at most 6 digits at s[*i]; -1 if there is none or
 * it is longer (no value that long is in range anywhere here). */
static long read_number(const char *s, size_t *i)
{
	long v = 0;
	size_t start = *i;

	while (isdigit((unsigned char)s[*i]) && *i - start < 7)
		v = v * 10 + (s[(*i)++] - '0');
	if (*i == start || isdigit((unsigned char)s[*i]))
		return -1;
	return v;
}

static enum occ_status bad_at(size_t *pos, size_t i)
{
	if (pos)
		*pos = i + 1;
	return OCC_ERR_INVALID_INPUT;
}

/* One entry, N or NxK, at s[*i], appended to l. */
static enum occ_status parse_entry(const char *s, size_t *i,
				   struct occ_gpc_layout *l, size_t *pos)
{
	size_t at = *i, k_at;
	long n = read_number(s, i), k = 1;

	if (n < 1 || n > OCC_MAX_SMS_PER_GPC)
		return bad_at(pos, at);
	if (s[*i] == 'x') {
		k_at = ++*i;
		k = read_number(s, i);
		if (k < 1 || k > OCC_MAX_GPCS)
			return bad_at(pos, k_at);
	}
	if (l->n_gpcs + k > OCC_MAX_GPCS)
		return bad_at(pos, at);
	while (k-- > 0) {
		l->sms_per_gpc[l->n_gpcs++] = (int)n;
		l->sms += (int)n;
	}
	return OCC_OK;
}

enum occ_status occ_layout_parse(const char *s, struct occ_gpc_layout *l,
				 size_t *pos)
{
	size_t i = 0;
	enum occ_status st;

	l->n_gpcs = 0;
	l->sms = 0;
	for (;;) {
		if ((st = parse_entry(s, &i, l, pos)) != OCC_OK)
			return st;
		if (s[i] == '\0')
			return OCC_OK;
		if (s[i] != ',')
			return bad_at(pos, i);
		i++;
	}
}

/* snprintf at buf + *len, keeping *len the length the whole would have. */
static void append(char *buf, size_t n, int *len, const char *sep, int sms,
		   int run)
{
	size_t at = (size_t)*len < n ? (size_t)*len : n;
	size_t room = n - at;
	char *p = room ? buf + at : buf;   /* nothing is written when full */

	*len += run > 1 ? snprintf(p, room, "%s%dx%d", sep, sms, run)
			: snprintf(p, room, "%s%d", sep, sms);
}

int occ_layout_format(const struct occ_gpc_layout *l, char *buf, size_t n)
{
	int i = 0, len = 0;

	if (n > 0)
		buf[0] = '\0';
	while (i < l->n_gpcs) {
		int run = 1;

		while (i + run < l->n_gpcs &&
		       l->sms_per_gpc[i + run] == l->sms_per_gpc[i])
			run++;
		append(buf, n, &len, i ? "," : "", l->sms_per_gpc[i], run);
		i += run;
	}
	return len;
}

/* "layout NAME LAYOUT SOURCE...": 1 if it is such a line for name (out
 * filled), 0 if it is another line, -1 if it is a malformed layout line. */
static int layout_line(char *line, const char *name,
		       struct occ_gpu_layout *out)
{
	char *save = NULL, *word, *gpu, *spec, *rest;

	word = strtok_r(line, " \t", &save);
	if (!word || strcmp(word, "layout") != 0)
		return 0;
	gpu = strtok_r(NULL, " \t", &save);
	spec = strtok_r(NULL, " \t", &save);
	rest = strtok_r(NULL, "", &save);
	if (!gpu || !spec || !rest || *occ_trim(rest) == '\0' ||
	    occ_layout_parse(spec, &out->layout, NULL) != OCC_OK)
		return -1;
	if (strcasecmp(gpu, name) != 0)
		return 0;
	occ_copy_string(out->source, sizeof out->source, occ_trim(rest));
	return 1;
}

int occ_layout_line_check(char *line)
{
	struct occ_gpu_layout unused;

	/* The word the layout reader cuts at a space or a tab: a line it
	 * would pass over as another's ("layout\vNAME") is malformed. */
	if (strncmp(line, "layout", 6) != 0 ||
	    (line[6] != ' ' && line[6] != '\t'))
		return -1;
	return layout_line(line, "", &unused) < 0 ? -1 : 0;
}

#define LAYOUT_LINE_CHARS 1024

enum occ_status occ_gpu_layout_find(const char *path, const char *name,
				    struct occ_gpu_layout *out,
				    struct occ_diag *diag)
{
	char buf[LAYOUT_LINE_CHARS], *line;
	struct occ_lines in;
	int found = 0;
	enum occ_status st;
	FILE *f;

	occ_diag_set(diag, path, 0, "");
	if ((st = occ_open_regular(path, &f)) != OCC_OK)
		return st;
	occ_lines_init(&in, f, buf, sizeof buf);
	while (!found && (st = occ_lines_next(&in, &line)) == OCC_OK && line) {
		occ_strip_comment(line);
		found = layout_line(occ_trim(line), name, out);
	}
	fclose(f);
	if (found < 0)
		st = OCC_ERR_SYNTAX;
	if (st != OCC_OK) {
		occ_diag_set(diag, path, in.lineno, found < 0 ? "layout" : "");
		if (diag && st == OCC_ERR_LINE_TOO_LONG)
			diag->limit = sizeof buf - 1;
		return st;
	}
	return found ? OCC_OK : OCC_ERR_UNKNOWN_ARCH;
}

/* ---- The most clusters published counts allow ---- */

#define COUNTS_SMS_MAX 1024

/* The clusters one GPC of n SMs holds, n = 1..max, into f[n]. */
static enum occ_status per_gpc(const struct occ_arch *arch,
			       const struct occ_result *r, int max, int size,
			       int *f)
{
	struct occ_cluster_result c;
	enum occ_status st;
	int n;

	for (n = 1; n <= max; n++) {
		struct occ_gpc_layout one = { 1, { n }, n };

		if ((st = occ_cluster_compute(arch, r, &one, size, &c)) != OCC_OK)
			return st;
		f[n] = c.max_active_clusters;
	}
	return OCC_OK;
}

/* best[k][s]: the most clusters k GPCs of s SMs hold (-1: none such);
 * pick[k][s]: the last GPC's SMs there. Rows of stride sms + 1. */
static void fill_best(const struct occ_gpc_counts *c, int kmax, const int *f,
		      int *best, int *pick)
{
	int w = c->sms + 1, k, s, n;

	for (s = 0; s < (kmax + 1) * w; s++)
		best[s] = -1;
	best[0] = 0;
	for (k = 1; k <= kmax; k++)
		for (s = 1; s <= c->sms; s++)
			for (n = s < c->sms_per_gpc_max ? s : c->sms_per_gpc_max;
			     n >= 1; n--) {
				int prev = best[(k - 1) * w + s - n];

				if (prev >= 0 && prev + f[n] > best[k * w + s]) {
					best[k * w + s] = prev + f[n];
					pick[k * w + s] = n;
				}
			}
}

static int counts_valid(const struct occ_gpc_counts *c)
{
	return c->sms >= 1 && c->sms <= COUNTS_SMS_MAX && c->gpcs >= 1 &&
	       c->gpcs <= OCC_MAX_GPCS && c->gpcs <= c->sms &&
	       c->sms_per_gpc_max >= 1 &&
	       c->sms_per_gpc_max <= OCC_MAX_SMS_PER_GPC &&
	       c->sms <= OCC_MAX_GPCS * c->sms_per_gpc_max;
}

enum occ_status occ_layout_most_clusters(const struct occ_arch *arch,
					 const struct occ_result *r,
					 const struct occ_gpc_counts *c,
					 int size, struct occ_gpc_layout *out)
{
	int kmax, w, k, s, top = 0, *f, *best, *pick;
	enum occ_status st = OCC_ERR_NOMEM;

	if (!counts_valid(c))
		return OCC_ERR_INVALID_INPUT;
	kmax = c->sms < OCC_MAX_GPCS ? c->sms : OCC_MAX_GPCS;
	w = c->sms + 1;
	f = calloc((size_t)c->sms_per_gpc_max + 1, sizeof *f);
	best = malloc((size_t)(kmax + 1) * (size_t)w * sizeof *best);
	pick = calloc((size_t)(kmax + 1) * (size_t)w, sizeof *pick);
	if (f && best && pick &&
	    (st = per_gpc(arch, r, c->sms_per_gpc_max, size, f)) == OCC_OK) {
		fill_best(c, kmax, f, best, pick);
		for (k = c->gpcs; k <= kmax; k++)
			if (best[k * w + c->sms] > (top ? best[top * w + c->sms]
						       : -1))
				top = k;
		st = top ? OCC_OK : OCC_ERR_INVALID_INPUT;
		out->n_gpcs = top;
		out->sms = c->sms;
		for (k = top, s = c->sms; k > 0; s -= pick[k * w + s], k--)
			out->sms_per_gpc[k - 1] = pick[k * w + s];
	}
	free(f);
	free(best);
	free(pick);
	return st;
}

/* ---- The layout a launch reveals ---- */

struct member {
	uint32_t cluster, sm;
};

static int by_cluster(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;

	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	return (a->sm > b->sm) - (a->sm < b->sm);
}

static int root(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

/* Joins the SMs of each cluster in parent; -1 if an SM is out of range. */
static int join(const struct occ_cta_sample *s, size_t n, int sms,
		int *parent, int *seen)
{
	struct member *m = malloc(n * sizeof *m);
	size_t i;

	if (!m)
		return -2;
	for (i = 0; i < n; i++) {
		if (s[i].sm >= (uint32_t)sms) {
			free(m);
			return -1;
		}
		m[i].cluster = s[i].cluster;
		m[i].sm = s[i].sm;
		seen[s[i].sm] = 1;
	}
	qsort(m, n, sizeof *m, by_cluster);
	for (i = 1; i < n; i++)
		if (m[i].cluster == m[i - 1].cluster)
			parent[root(parent, (int)m[i].sm)] =
				root(parent, (int)m[i - 1].sm);
	free(m);
	return 0;
}

/* Numbers the groups by their lowest SM and counts their SMs. */
static enum occ_status number_groups(int *parent, const int *seen, int sms,
				     struct occ_gpc_layout *l, int *gpc_of)
{
	int *index = malloc((size_t)sms * sizeof *index);
	int sm;

	if (!index)
		return OCC_ERR_NOMEM;
	l->n_gpcs = 0;
	l->sms = 0;
	for (sm = 0; sm < sms; sm++)
		index[sm] = -1;
	for (sm = 0; sm < sms; sm++) {
		int r = root(parent, sm);

		if (gpc_of)
			gpc_of[sm] = -1;
		if (!seen[sm])
			continue;
		if (index[r] < 0) {
			if (l->n_gpcs == OCC_MAX_GPCS) {
				free(index);
				return OCC_ERR_INVALID_INPUT;
			}
			index[r] = l->n_gpcs;
			l->sms_per_gpc[l->n_gpcs++] = 0;
		}
		l->sms_per_gpc[index[r]]++;
		l->sms++;
		if (gpc_of)
			gpc_of[sm] = index[r];
	}
	free(index);
	return OCC_OK;
}

enum occ_status occ_layout_from_samples(const struct occ_cta_sample *s,
					size_t n, int sms,
					struct occ_gpc_layout *l, int *gpc_of)
{
	int *parent, *seen, sm, st;
	enum occ_status status;

	if (n == 0 || sms < 1)
		return OCC_ERR_INVALID_INPUT;
	parent = malloc((size_t)sms * sizeof *parent);
	seen = calloc((size_t)sms, sizeof *seen);
	if (!parent || !seen) {
		free(parent);
		free(seen);
		return OCC_ERR_NOMEM;
	}
	for (sm = 0; sm < sms; sm++)
		parent[sm] = sm;
	st = join(s, n, sms, parent, seen);
	status = st == -2 ? OCC_ERR_NOMEM
		 : st < 0 ? OCC_ERR_INVALID_INPUT
			  : number_groups(parent, seen, sms, l, gpc_of);
	free(parent);
	free(seen);
	return status;
}
