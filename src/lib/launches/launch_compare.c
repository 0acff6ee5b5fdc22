/*
 * launch_compare.c - launches grouped and two sets matched: a group is
 * held, not its launches (a trace of millions of launches of a few
 * hundred kernels costs a few hundred groups), in a hash by key; its
 * occupancy is summed weighted by time as it comes.
 */
#include <stdlib.h>
#include <string.h>

#include "launches_int.h"

/* The limiters a group tells apart; past this many, counted under the
 * last (no kernel has more than a few). */
#define LIMITERS_MAX 8

struct limiter {
	char *name;
	int64_t time_ns;
	uint64_t launches;
};

struct group {
	struct occ_launch_group g;         /* g.key is key */
	char *key;
	double occ_time, occ_sum;          /* sum of pct x ns; of pct */
	uint64_t modelled_timed;
	struct limiter lim[LIMITERS_MAX];
	int n_lim;
};

struct occ_launch_groups {
	struct group *v;
	size_t n, cap;
	size_t *slot;                      /* hash: index + 1; 0 empty */
	size_t n_slot;
	struct occ_launch_group *list;     /* summarised, sorted */
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

struct occ_launch_groups *occ_launch_groups_new(void)
{
	return calloc(1, sizeof(struct occ_launch_groups));
}

void occ_launch_groups_free(struct occ_launch_groups *g)
{
	size_t i;
	int j;

	if (!g)
		return;
	for (i = 0; i < g->n; i++) {
		free(g->v[i].key);
		for (j = 0; j < g->v[i].n_lim; j++)
			free(g->v[i].lim[j].name);
	}
	free(g->v);
	free(g->slot);
	free(g->list);
	free(g);
}

static int rehash(struct occ_launch_groups *g, size_t n_slot)
{
	size_t *slot = calloc(n_slot, sizeof *slot), i, h;

	if (!slot)
		return -1;
	for (i = 0; i < g->n; i++) {
		for (h = hash(g->v[i].key) & (n_slot - 1); slot[h];
		     h = (h + 1) & (n_slot - 1))
			;
		slot[h] = i + 1;
	}
	free(g->slot);
	g->slot = slot;
	g->n_slot = n_slot;
	return 0;
}

static struct group *find_or_add(struct occ_launch_groups *g, const char *key,
				 enum occ_status *st)
{
	size_t h;
	struct group *v;

	*st = OCC_OK;
	if (g->n_slot && (h = hash(key) & (g->n_slot - 1), 1))
		for (; g->slot[h]; h = (h + 1) & (g->n_slot - 1))
			if (strcmp(g->v[g->slot[h] - 1].key, key) == 0)
				return &g->v[g->slot[h] - 1];
	if (g->n == OCC_LAUNCH_GROUPS_MAX) {
		*st = OCC_ERR_RANGE;
		return NULL;
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;

		v = realloc(g->v, cap * sizeof *v);
		if (!v)
			goto nomem;
		g->v = v;
		g->cap = cap;
	}
	v = &g->v[g->n];
	memset(v, 0, sizeof *v);
	if (!(v->key = strdup(key)))
		goto nomem;
	g->n++;
	if (2 * g->n > g->n_slot) {
		if (rehash(g, g->n_slot ? 2 * g->n_slot : 128) != 0) {
			g->n--;
			free(v->key);
			goto nomem;
		}
		return v;
	}
	for (h = hash(key) & (g->n_slot - 1); g->slot[h];
	     h = (h + 1) & (g->n_slot - 1))
		;
	g->slot[h] = g->n;
	return v;
nomem:
	*st = OCC_ERR_NOMEM;
	return NULL;
}

static enum occ_status limiter_add(struct group *v, const char *name,
				   int64_t ns)
{
	int i;

	for (i = 0; i < v->n_lim; i++)
		if (strcmp(v->lim[i].name, name) == 0)
			break;
	if (i == v->n_lim && v->n_lim < LIMITERS_MAX) {
		if (!(v->lim[i].name = strdup(name)))
			return OCC_ERR_NOMEM;
		v->n_lim++;
	}
	if (i == LIMITERS_MAX)
		i--;
	v->lim[i].time_ns += ns > 0 ? ns : 0;
	v->lim[i].launches++;
	return OCC_OK;
}

enum occ_status occ_launch_groups_add(struct occ_launch_groups *g,
				      const char *key,
				      const struct occ_launch_figures *f)
{
	enum occ_status st;
	struct group *v = find_or_add(g, key, &st);

	if (!v)
		return st;
	v->g.launches++;
	if (f->duration_ns >= 0) {
		v->g.timed++;
		v->g.gpu_time_ns += f->duration_ns;
	}
	if (!f->modelled)
		return OCC_OK;
	if (v->g.modelled == 0 || f->occupancy_pct < v->g.occupancy_min_pct)
		v->g.occupancy_min_pct = f->occupancy_pct;
	if (v->g.modelled == 0 || f->occupancy_pct > v->g.occupancy_max_pct)
		v->g.occupancy_max_pct = f->occupancy_pct;
	v->g.modelled++;
	v->occ_sum += f->occupancy_pct;
	if (f->duration_ns >= 0) {
		v->modelled_timed++;
		v->occ_time += f->occupancy_pct * (double)f->duration_ns;
	}
	return f->limiter && f->limiter[0]
	       ? limiter_add(v, f->limiter, f->duration_ns) : OCC_OK;
}

/* The limiter of the most time, then of the most launches, then the
 * first by name: the same whatever order the launches came in. */
static const char *main_limiter(const struct group *v)
{
	const struct limiter *best = NULL;
	int i;

	for (i = 0; i < v->n_lim; i++) {
		const struct limiter *l = &v->lim[i];

		if (!best || l->time_ns > best->time_ns ||
		    (l->time_ns == best->time_ns &&
		     (l->launches > best->launches ||
		      (l->launches == best->launches &&
		       strcmp(l->name, best->name) < 0))))
			best = l;
	}
	return best ? best->name : NULL;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct occ_launch_group *)a)->key,
		      ((const struct occ_launch_group *)b)->key);
}

size_t occ_launch_groups_list(struct occ_launch_groups *g,
			      const struct occ_launch_group **out)
{
	struct occ_launch_group *list;
	size_t i;

	*out = NULL;
	free(g->list);
	g->list = NULL;
	if (!g->n)
		return 0;
	if (!(list = malloc(g->n * sizeof *list)))
		return 0;
	for (i = 0; i < g->n; i++) {
		struct group *v = &g->v[i];
		double t = v->g.gpu_time_ns > 0 ? (double)v->g.gpu_time_ns : 0;

		list[i] = v->g;
		list[i].key = v->key;
		list[i].limiter = main_limiter(v);
		if (!v->g.modelled)
			list[i].occupancy_pct = -1;
		else if (v->modelled_timed == v->g.modelled && t > 0 &&
			 v->g.timed == v->g.launches)
			list[i].occupancy_pct = v->occ_time / t;
		else
			list[i].occupancy_pct = v->occ_sum / (double)v->g.modelled;
	}
	qsort(list, g->n, sizeof *list, by_key);
	g->list = list;
	*out = list;
	return g->n;
}

/* At the two decimals every output prints. */
static int occ_moved(double a, double b)
{
	if ((a < 0) != (b < 0))
		return 1;
	return (int64_t)(a * 100 + 0.5) != (int64_t)(b * 100 + 0.5);
}

static int str_differs(const char *a, const char *b)
{
	return (!a != !b) || (a && strcmp(a, b) != 0);
}

static unsigned moved(const struct occ_launch_group *a,
		      const struct occ_launch_group *b)
{
	return (occ_moved(a->occupancy_pct, b->occupancy_pct)
		? OCC_LAUNCH_MOVED_OCCUPANCY : 0) |
	       (str_differs(a->limiter, b->limiter)
		? OCC_LAUNCH_MOVED_LIMITER : 0) |
	       (a->launches != b->launches ? OCC_LAUNCH_MOVED_LAUNCHES : 0) |
	       (a->gpu_time_ns != b->gpu_time_ns || a->timed != b->timed
		? OCC_LAUNCH_MOVED_GPU_TIME : 0);
}

int occ_launch_groups_compare(struct occ_launch_groups *old,
			      struct occ_launch_groups *cur,
			      int (*fn)(void *ctx,
					const struct occ_launch_change *c),
			      void *ctx)
{
	const struct occ_launch_group *a, *b;
	size_t na = occ_launch_groups_list(old, &a),
	       nb = occ_launch_groups_list(cur, &b), i = 0, j = 0;
	struct occ_launch_change c;
	int k, r;

	while (i < na || j < nb) {
		k = i == na ? 1 : j == nb ? -1 : strcmp(a[i].key, b[j].key);
		memset(&c, 0, sizeof c);
		if (k <= 0)
			c.old = &a[i++];
		if (k >= 0)
			c.cur = &b[j++];
		if (c.old && c.cur)
			c.moved = moved(c.old, c.cur);
		c.changed = !c.old || !c.cur ||
			    (c.moved & ~(unsigned)OCC_LAUNCH_MOVED_GPU_TIME);
		if ((r = fn(ctx, &c)) != 0)
			return r;
	}
	return 0;
}
