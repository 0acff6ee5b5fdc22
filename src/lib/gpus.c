/*
 * gpus.c - the list of common GPUs (gpus.txt beside the tables): a model
 * name gives a compute capability and an SM count. Names match loosely
 * (occ_gpus_match), so that the device name the runtime prints and the
 * short forms people type find the same entry.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "occcalc.h"
#include "util.h"

/* Names found by hashing, not by comparing with every GPU listed above
 * (a list of n lines took n^2 comparisons): each slot holds a GPU's
 * number + 1, 0 when empty. */
struct name_index {
	size_t *slot;
	size_t cap;              /* a power of two, at least 2 x used */
	size_t used;
};

struct occ_gpus {
	struct occ_gpu *gpu;
	size_t n, cap;
	/* While reading: the GPUs by exact name, and by each normalised
	 * name and alias (keys[] holds those, slot k's key is keys[k]). */
	struct name_index exact, loose;
	char (*keys)[64];
	size_t n_keys, keys_cap;
};

/* Why a line is refused, beyond "malformed": add_line's codes. */
enum { LINE_BAD = -1, LINE_NOMEM = -2, LINE_LONG_SOURCE = -3,
       LINE_LONG_NAME = -4, LINE_LONG_ALIAS = -5, LINE_LAYOUT = -6,
       LINE_TOO_MANY = -7 };

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
	if (!name || !cc || !sms || !rest)
		return LINE_BAD;
	if (strlen(name) >= sizeof g->name)
		return LINE_LONG_NAME;
	rest = occ_trim(rest);
	if (strlen(rest) >= sizeof g->source)
		return LINE_LONG_SOURCE;  /* refused, not cut short */
	if (occ_arch_parse_name(cc, &g->cc_major, &g->cc_minor) != OCC_OK ||
	    !strchr(cc, '.'))
		return -1;
	if (strcmp(sms, "-") == 0)
		n = 0;  /* not known: the list says so, --sms gives it */
	else if (occ_parse_u64(sms, &n, &end) != OCC_PARSE_OK || *end ||
		 n < 1 || n > 1 << 20)
		return -1;
	g->sms = (int)n;
	strcpy(g->name, name);
	strcpy(g->source, rest);
	return 0;
}

/* The words dropped from names: vendor and brand, not the model. */
static const char *const noise_words[] = { "nvidia", "geforce", "tesla" };

/* s normalised into buf: its words' letters and digits, lower case,
 * without the noise words. */
static void normalise(const char *s, char *buf, size_t n)
{
	size_t len = 0, wl, i;
	const char *w;

	while (*s) {
		while (*s && !isalnum((unsigned char)*s))
			s++;
		for (w = s; isalnum((unsigned char)*s); s++)
			;
		wl = (size_t)(s - w);
		for (i = 0; i < sizeof noise_words / sizeof noise_words[0]; i++)
			if (wl == strlen(noise_words[i]) &&
			    strncasecmp(w, noise_words[i], wl) == 0)
				break;
		if (i < sizeof noise_words / sizeof noise_words[0])
			continue;
		for (; w < s && len + 1 < n; w++)
			buf[len++] = (char)tolower((unsigned char)*w);
	}
	buf[len] = '\0';
}

/* How a GPU's names (its name, then its aliases) compare with q. */
enum name_test { NAME_EQUAL, NAME_ENDS, NAME_CONTAINS, NAME_PREFIX };

static size_t name_test(const struct occ_gpu *g, const char *q,
			enum name_test t)
{
	char norm[64];
	size_t best = 0, p, nl, ql = strlen(q);
	int i;

	for (i = -1; i < g->n_aliases; i++) {
		normalise(i < 0 ? g->name : g->aliases[i], norm, sizeof norm);
		if (t == NAME_EQUAL && strcmp(norm, q) == 0)
			return 1;
		nl = strlen(norm);
		if (t == NAME_ENDS && nl >= ql && strcmp(norm + nl - ql, q) == 0)
			return 1;
		if (t == NAME_CONTAINS && strstr(norm, q))
			return 1;
		for (p = 0; t == NAME_PREFIX && norm[p] && norm[p] == q[p]; p++)
			;
		if (t == NAME_PREFIX && p > best)
			best = p;
	}
	return best;
}

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (size_t)(h ^ h >> 29);
}

/* The slot of key in ix, or the empty one where it would go; key_of
 * gives the key of a slot's value. */
static size_t *ix_find(const struct name_index *ix, const char *key,
		       const char *(*key_of)(const struct occ_gpus *, size_t),
		       const struct occ_gpus *l)
{
	size_t i = hash(key) & (ix->cap - 1);

	while (ix->slot[i] && strcmp(key_of(l, ix->slot[i] - 1), key) != 0)
		i = (i + 1) & (ix->cap - 1);
	return &ix->slot[i];
}

/* Room for one more value in ix: 0 when memory runs out. */
static int ix_room(struct name_index *ix,
		   const char *(*key_of)(const struct occ_gpus *, size_t),
		   const struct occ_gpus *l)
{
	struct name_index grown = { NULL, ix->cap ? 2 * ix->cap : 64, 0 };
	size_t i;

	if (2 * (ix->used + 1) <= ix->cap)
		return 1;
	if (!(grown.slot = calloc(grown.cap, sizeof *grown.slot)))
		return 0;
	for (i = 0; i < ix->cap; i++)
		if (ix->slot[i])
			*ix_find(&grown, key_of(l, ix->slot[i] - 1), key_of,
				 l) = ix->slot[i];
	grown.used = ix->used;
	free(ix->slot);
	*ix = grown;
	return 1;
}

static const char *exact_key(const struct occ_gpus *l, size_t v)
{
	return l->gpu[v].name;
}

static const char *loose_key(const struct occ_gpus *l, size_t v)
{
	return l->keys[v];
}

/* A name or alias that reads like one already listed, or like nothing. */
static int name_taken(const struct occ_gpus *l, const char *name)
{
	char q[64];

	normalise(name, q, sizeof q);
	return q[0] == '\0' ||
	       (l->loose.cap && *ix_find(&l->loose, q, loose_key, l));
}

/* name (a GPU's, or an alias) known from now on as taken. */
static int name_take(struct occ_gpus *l, const char *name)
{
	char (*grown)[64];

	if (l->n_keys == l->keys_cap) {
		l->keys_cap = l->keys_cap ? 2 * l->keys_cap : 64;
		grown = realloc(l->keys, l->keys_cap * sizeof *grown);
		if (!grown)
			return LINE_NOMEM;
		l->keys = grown;
	}
	normalise(name, l->keys[l->n_keys], sizeof l->keys[0]);
	if (!ix_room(&l->loose, loose_key, l))
		return LINE_NOMEM;
	*ix_find(&l->loose, l->keys[l->n_keys], loose_key, l) = l->n_keys + 1;
	l->n_keys++;
	l->loose.used++;
	return 0;
}

static void index_free(struct occ_gpus *l)
{
	free(l->exact.slot);
	free(l->loose.slot);
	free(l->keys);
	memset(&l->exact, 0, sizeof l->exact);
	memset(&l->loose, 0, sizeof l->loose);
	l->keys = NULL;
	l->n_keys = l->keys_cap = 0;
}

/* The GPU named exactly name, listed above; NULL if none. */
static struct occ_gpu *listed(struct occ_gpus *l, const char *name)
{
	size_t v;

	if (!name || !l->exact.cap)
		return NULL;
	v = *ix_find(&l->exact, name, exact_key, l);
	return v ? &l->gpu[v - 1] : NULL;
}

/* "alias NAME DEVICE NAME": another name for the GPU NAME, listed above. */
static int parse_alias(char *line, struct occ_gpus *l)
{
	char *save = NULL, *target, *alias;
	struct occ_gpu *g;

	strtok_r(line, " \t", &save);
	target = strtok_r(NULL, " \t", &save);
	alias = strtok_r(NULL, "", &save);
	if (!target || !alias)
		return -1;
	alias = occ_trim(alias);
	g = listed(l, target);
	if (g && strlen(alias) >= sizeof g->aliases[0])
		return LINE_LONG_ALIAS;
	if (!g || g->n_aliases == OCC_GPU_MAX_ALIASES || name_taken(l, alias))
		return LINE_BAD;
	strcpy(g->aliases[g->n_aliases++], alias);
	return name_take(l, alias);
}

/* An L2 figure: a size ("50M", "31.25M"), or '-' (not known: 0) where
 * dash_ok. 0 on success. */
static int l2_figure(const char *w, int dash_ok, uint64_t *v)
{
	if (!w)
		return -1;
	if (dash_ok && strcmp(w, "-") == 0) {
		*v = 0;
		return 0;
	}
	return occ_parse_size_decimal(w, v) == OCC_PARSE_OK && *v > 0 &&
	       *v <= OCC_BYTES_MAX ? 0 : -1;
}

/* "l2 NAME SIZE MAX WINDOW SOURCE": the L2 of the GPU NAME, listed above;
 * MAX (the set-aside's largest) and WINDOW may be '-', not known. */
static int parse_l2(char *line, struct occ_gpus *l)
{
	char *save = NULL, *rest;
	struct occ_gpu *g;
	uint64_t size, max, window;

	strtok_r(line, " \t", &save);
	g = listed(l, strtok_r(NULL, " \t", &save));
	if (!g || g->l2_size || l2_figure(strtok_r(NULL, " \t", &save), 0,
					  &size) != 0 ||
	    l2_figure(strtok_r(NULL, " \t", &save), 1, &max) != 0 ||
	    l2_figure(strtok_r(NULL, " \t", &save), 1, &window) != 0 ||
	    max > size)
		return -1;
	rest = strtok_r(NULL, "", &save);
	if (!rest || !*(rest = occ_trim(rest)) ||
	    strlen(rest) >= sizeof g->l2_source)
		return -1;
	g->l2_size = size;
	g->l2_persisting_max = max;
	g->l2_window_max = window;
	strcpy(g->l2_source, rest);
	return 0;
}

/* "gpcs NAME GPCS MAX SOURCE": the GPU NAME's published GPCs ('-': not
 * published) and the most SMs one has. */
static int parse_gpcs(char *line, struct occ_gpus *l)
{
	char *save = NULL, *w, *rest;
	struct occ_gpu *g;
	uint64_t gpcs = 0, max;
	const char *end;

	strtok_r(line, " \t", &save);
	g = listed(l, strtok_r(NULL, " \t", &save));
	if (!g || g->sms_per_gpc_max || !g->sms)
		return -1;
	w = strtok_r(NULL, " \t", &save);
	if (!w || (strcmp(w, "-") != 0 &&
		   (occ_parse_u64(w, &gpcs, &end) != OCC_PARSE_OK || *end ||
		    gpcs < 1 || gpcs > (uint64_t)g->sms || gpcs > 128)))
		return -1;
	w = strtok_r(NULL, " \t", &save);
	if (!w || occ_parse_u64(w, &max, &end) != OCC_PARSE_OK || *end ||
	    max < 1 || max > 256 || max * 128 < (uint64_t)g->sms)
		return -1;
	rest = strtok_r(NULL, "", &save);
	if (!rest || !*(rest = occ_trim(rest)) ||
	    strlen(rest) >= sizeof g->gpcs_source)
		return -1;
	g->gpcs = (int)gpcs;
	g->sms_per_gpc_max = (int)max;
	strcpy(g->gpcs_source, rest);
	return 0;
}

/* A line beginning with the word w. */
static int starts(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 && isspace((unsigned char)s[n]);
}

static int add_line(char *s, struct occ_gpus *l)
{
	struct occ_gpu g, *grown;
	int st;

	if (starts(s, "alias"))
		return parse_alias(s, l);
	if (starts(s, "l2"))
		return parse_l2(s, l);
	if (starts(s, "gpcs"))
		return parse_gpcs(s, l);
	if (starts(s, "layout"))   /* read by layout.c, checked here */
		return occ_layout_line_check(s) == 0 ? 0 : LINE_LAYOUT;
	memset(&g, 0, sizeof g);
	if ((st = parse_gpu_line(s, &g)) != 0)
		return st;
	if (name_taken(l, g.name))
		return LINE_BAD;
	if (l->n == OCC_GPUS_MAX)
		return LINE_TOO_MANY;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		grown = realloc(l->gpu, l->cap * sizeof *grown);
		if (!grown)
			return LINE_NOMEM;
		l->gpu = grown;
	}
	l->gpu[l->n++] = g;
	if (!ix_room(&l->exact, exact_key, l))
		return LINE_NOMEM;
	*ix_find(&l->exact, g.name, exact_key, l) = l->n;
	l->exact.used++;
	return name_take(l, g.name);
}

#define GPU_LINE_CHARS 1024


enum occ_status occ_gpus_read(FILE *f, const char *path,
			      struct occ_gpus **out, struct occ_diag *diag)
{
	struct occ_lines in;
	char buf[GPU_LINE_CHARS], *line;
	struct occ_gpus *l = calloc(1, sizeof *l);
	enum occ_status st = OCC_OK;
	int bad = 0;

	*out = NULL;
	occ_diag_set(diag, path, 0, "");
	if (!l)
		return OCC_ERR_NOMEM;
	occ_lines_init(&in, f, buf, sizeof buf);
	while (!bad && (st = occ_lines_next(&in, &line)) == OCC_OK && line) {
		char *s;

		occ_strip_comment(line);
		s = occ_trim(line);
		if (*s)
			bad = add_line(s, l);
	}
	index_free(l);
	if (bad)
		st = bad == LINE_NOMEM ? OCC_ERR_NOMEM : OCC_ERR_SYNTAX;
	if (st != OCC_OK) {
		occ_diag_set(diag, path, in.lineno,
			     bad == LINE_LONG_SOURCE ? "SOURCE"
			     : bad == LINE_LONG_NAME ? "NAME"
			     : bad == LINE_LONG_ALIAS ? "DEVICE NAME"
			     : bad == LINE_LAYOUT ? "layout"
			     : bad == LINE_TOO_MANY ? "GPUs" : "");
		if (diag && st == OCC_ERR_LINE_TOO_LONG)
			diag->limit = sizeof buf - 1;
		if (diag && bad == LINE_LONG_SOURCE)
			diag->limit = sizeof l->gpu[0].source - 1;
		if (diag && bad == LINE_LONG_NAME)
			diag->limit = sizeof l->gpu[0].name - 1;
		if (diag && bad == LINE_TOO_MANY)
			diag->limit = OCC_GPUS_MAX;
		if (diag && bad == LINE_LONG_ALIAS)
			diag->limit = sizeof l->gpu[0].aliases[0] - 1;
		occ_gpus_free(l);
		return st;
	}
	*out = l;
	return OCC_OK;
}

enum occ_status occ_gpus_load(const char *path, struct occ_gpus **out,
			      struct occ_diag *diag)
{
	FILE *f;
	enum occ_status st = occ_open_regular(path, &f);

	*out = NULL;
	occ_diag_set(diag, path, 0, "");
	if (st != OCC_OK)
		return st;
	st = occ_gpus_read(f, path, out, diag);
	fclose(f);
	return st;
}

void occ_gpus_free(struct occ_gpus *l)
{
	if (l)
		free(l->gpu);
	free(l);
}

size_t occ_gpus_count(const struct occ_gpus *l)
{
	return l->n;
}

const struct occ_gpu *occ_gpus_get(const struct occ_gpus *l, size_t i)
{
	return i < l->n ? &l->gpu[i] : NULL;
}

static void match_add(struct occ_gpu_match *m, const struct occ_gpu *g)
{
	if (m->n < OCC_GPU_MAX_MATCHES)
		m->gpu[m->n++] = g;
	else
		m->more++;
}

/* The GPUs whose names pass test t: OCC_OK if exactly one. */
static enum occ_status match_all(const struct occ_gpus *l, const char *q,
				 enum name_test t, struct occ_gpu_match *m)
{
	size_t i;

	memset(m, 0, sizeof *m);
	for (i = 0; q[0] && i < l->n; i++)
		if (name_test(&l->gpu[i], q, t))
			match_add(m, &l->gpu[i]);
	m->ambiguous = m->n > 1;
	return m->n == 1 ? OCC_OK : OCC_ERR_UNKNOWN_ARCH;
}

/* Exact beats partial: the GPU named q, else the one whose name ends with
 * it ("1080": GTX-1080, not GTX-1080-Ti), else those containing it, else
 * (no match) the closest, by the longest beginning shared with q. */
enum occ_status occ_gpus_match(const struct occ_gpus *l, const char *name,
			       struct occ_gpu_match *m)
{
	static const enum name_test tests[] = { NAME_EQUAL, NAME_ENDS,
						NAME_CONTAINS };
	char q[64];
	size_t i, p, best = 1;

	normalise(name, q, sizeof q);
	for (i = 0; i < sizeof tests / sizeof tests[0]; i++)
		if (match_all(l, q, tests[i], m) == OCC_OK || m->ambiguous)
			return m->ambiguous ? OCC_ERR_UNKNOWN_ARCH : OCC_OK;
	for (i = 0; q[0] && i < l->n; i++)
		if ((p = name_test(&l->gpu[i], q, NAME_PREFIX)) > best)
			best = p;
	for (i = 0; best > 1 && i < l->n; i++)
		if (name_test(&l->gpu[i], q, NAME_PREFIX) == best)
			match_add(m, &l->gpu[i]);
	return OCC_ERR_UNKNOWN_ARCH;
}

enum occ_status occ_gpu_find(const char *path, const char *name,
			     struct occ_gpu *gpu, struct occ_diag *diag)
{
	struct occ_gpus *l;
	struct occ_gpu_match m;
	enum occ_status st = occ_gpus_load(path, &l, diag);

	if (st != OCC_OK)
		return st;
	st = occ_gpus_match(l, name, &m);
	if (st == OCC_OK)
		*gpu = *m.gpu[0];
	occ_gpus_free(l);
	return st;
}
