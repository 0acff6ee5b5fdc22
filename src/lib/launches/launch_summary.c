/*
 * launch_summary.c - launch rows summed by kernel (or operator) and GPU
 * (occcalc/launch_summary.h): launches, distinct launch shapes,
 * occupancy weighted by time, limiters, the time below 25 and 50 % and
 * in partial last waves, and the configurations for the headroom. What
 * is kept grows with the groups and their shapes, never the launches:
 * groups in a table open-addressed by name, shapes as hashes only.
 */
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

struct occ_launch_summary {
	struct occ_launch_totals t;
	struct occ_launch_summary_group **slots;   /* open addressing by
						      name */
	size_t cap;
	/* The (group, shape) pairs seen, as hashes (0: an empty slot). */
	uint64_t *shapes;
	size_t cap_shapes;
	/* What occ_launch_summary_groups hands over. */
	const struct occ_launch_summary_group **order;
	int failed;                            /* out of memory */
};

/* The launches that ran no known operator are one group of their own. */
static const char no_op[] = "(no op)";

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h;
}

#define FNV UINT64_C(0xcbf29ce484222325)

enum occ_status occ_launch_summary_new(enum occ_launch_by by,
				       struct occ_launch_summary **out)
{
	struct occ_launch_summary *s = calloc(1, sizeof *s);

	*out = NULL;
	if (!s)
		return OCC_ERR_NOMEM;
	s->t.by = by;
	s->cap = 256;
	s->slots = calloc(s->cap, sizeof *s->slots);
	if (!s->slots) {
		free(s);
		return OCC_ERR_NOMEM;
	}
	*out = s;
	return OCC_OK;
}

static int grow(struct occ_launch_summary *s)
{
	struct occ_launch_summary_group **old = s->slots;
	size_t i, j, cap = s->cap;

	s->slots = calloc(2 * cap, sizeof *s->slots);
	if (!s->slots) {
		s->slots = old;
		return 0;
	}
	s->cap = 2 * cap;
	for (i = 0; i < cap; i++) {
		if (!old[i])
			continue;
		for (j = old[i]->hash & (s->cap - 1); s->slots[j];
		     j = (j + 1) & (s->cap - 1))
			;
		s->slots[j] = old[i];
	}
	free(old);
	return 1;
}

static int same_name(const struct occ_launch_summary_group *k, uint64_t h,
		     const char *name, size_t len, int device, int unnamed)
{
	size_t kept = len < OCC_LAUNCH_SUMMARY_NAME_KEPT ? len
		      : OCC_LAUNCH_SUMMARY_NAME_KEPT;

	return k->hash == h && k->len == len && k->device == device &&
	       k->unnamed == unnamed && memcmp(k->name, name, kept) == 0;
}

/* The group of the name on its GPU: the same kernel on two GPUs is two
 * groups. NULL past OCC_LAUNCH_SUMMARY_GROUPS (*full set) or out of
 * memory. */
static struct occ_launch_summary_group *group_of(struct occ_launch_summary *s,
					 const char *name, int device,
					 int *full)
{
	int unnamed = !name;
	size_t len, kept, j;
	uint64_t h;
	struct occ_launch_summary_group *k;

	name = unnamed ? no_op : name;
	len = strlen(name);
	kept = len < OCC_LAUNCH_SUMMARY_NAME_KEPT ? len
	       : OCC_LAUNCH_SUMMARY_NAME_KEPT;
	h = hash_bytes(hash_bytes(FNV, name, len), &device, sizeof device);
	if (2 * (s->t.groups + 1) > s->cap && !grow(s))
		return NULL;
	for (j = h & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1))
		if (same_name(s->slots[j], h, name, len, device, unnamed))
			return s->slots[j];
	if (s->t.groups == OCC_LAUNCH_SUMMARY_GROUPS) {
		*full = 1;
		return NULL;
	}
	k = calloc(1, sizeof *k);
	if (!k || !(k->name = malloc(kept + 1))) {
		free(k);
		return NULL;
	}
	memcpy(k->name, name, kept);
	k->name[kept] = '\0';
	k->len = len;
	k->hash = h;
	k->device = device;
	k->unnamed = unnamed;
	s->slots[j] = k;
	s->t.groups++;
	return k;
}

/* A launch's shape: grid, block, cluster, registers, shared memory. */
static uint64_t shape_hash(const struct occ_launch_record *l)
{
	uint64_t h = FNV;

	h = hash_bytes(h, l->grid, sizeof l->grid);
	h = hash_bytes(h, l->block, sizeof l->block);
	h = hash_bytes(h, l->cluster, sizeof l->cluster);
	h = hash_bytes(h, &l->regs, sizeof l->regs);
	h = hash_bytes(h, &l->static_smem, sizeof l->static_smem);
	h = hash_bytes(h, &l->smem_total, sizeof l->smem_total);
	return h ? h : 1;
}

static int shapes_grow(struct occ_launch_summary *s)
{
	uint64_t *old = s->shapes;
	size_t i, j, cap = s->cap_shapes;

	s->cap_shapes = cap ? 2 * cap : 1024;
	s->shapes = calloc(s->cap_shapes, sizeof *s->shapes);
	if (!s->shapes) {
		s->shapes = old;
		s->cap_shapes = cap;
		return 0;
	}
	for (i = 0; i < cap; i++) {
		if (!old[i])
			continue;
		for (j = old[i] & (s->cap_shapes - 1); s->shapes[j];
		     j = (j + 1) & (s->cap_shapes - 1))
			;
		s->shapes[j] = old[i];
	}
	free(old);
	return 1;
}

/* Counts the launch's shape under its group if not seen before: 0 out
 * of memory. */
static int shape_add(struct occ_launch_summary *s,
		     struct occ_launch_summary_group *k,
		     const struct occ_launch_record *l)
{
	uint64_t h = shape_hash(l);
	size_t j;

	h = hash_bytes(h, &k->hash, sizeof k->hash);
	h = h ? h : 1;
	if (2 * (s->t.n_shapes + 1) > s->cap_shapes &&
	    s->t.n_shapes < OCC_LAUNCH_SUMMARY_SHAPES && !shapes_grow(s))
		return 0;
	for (j = h & (s->cap_shapes - 1); s->shapes[j];
	     j = (j + 1) & (s->cap_shapes - 1))
		if (s->shapes[j] == h)
			return 1;
	if (s->t.n_shapes == OCC_LAUNCH_SUMMARY_SHAPES) {
		k->shapes_capped = 1;
		return 1;
	}
	s->shapes[j] = h;
	s->t.n_shapes++;
	k->n_shapes++;
	return 1;
}

static int same_config(const struct occ_launch_config *c,
		       const struct occ_launch_row *r)
{
	const struct occ_launch_record *a = &c->l, *b = r->l;

	return c->dev == r->dev && a->regs == b->regs &&
	       a->static_smem == b->static_smem &&
	       a->smem_total == b->smem_total &&
	       a->smem_executed == b->smem_executed &&
	       memcmp(a->block, b->block, sizeof a->block) == 0;
}

/* 0: out of memory. */
static int config_add(struct occ_launch_summary_group *k,
		      const struct occ_launch_row *r, double w)
{
	struct occ_launch_config *c;
	size_t i;

	for (i = 0; i < k->n_configs; i++)
		if (same_config(&k->configs[i], r)) {
			k->configs[i].weight += w;
			return 1;
		}
	if (k->n_configs == OCC_LAUNCH_SUMMARY_CONFIGS) {
		k->configs_untracked++;
		return 1;
	}
	if (k->n_configs == k->cap_configs) {
		size_t cap = k->cap_configs ? 2 * k->cap_configs : 1;

		c = realloc(k->configs, cap * sizeof *c);
		if (!c)
			return 0;
		k->configs = c;
		k->cap_configs = cap;
	}
	c = &k->configs[k->n_configs++];
	c->l = *r->l;
	/* The record's strings last only as long as its row. */
	c->l.kernel = c->l.mangled = NULL;
	c->l.op = c->l.op_shapes = c->l.module = NULL;
	c->dev = r->dev;
	c->r = r->m.result;
	c->weight = w;
	return 1;
}

static const enum occ_resource limiters[OCC_LAUNCH_LIMITERS] = {
	OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS, OCC_RESOURCE_SHARED_MEMORY,
	OCC_RESOURCE_BLOCKS, OCC_RESOURCE_BARRIERS
};

unsigned occ_launch_limiter_set(const struct occ_result *r)
{
	unsigned set = 0;
	int i;

	for (i = 0; i < OCC_LAUNCH_LIMITERS && r->blocks_per_sm; i++)
		if (r->limiters & limiters[i])
			set |= 1u << i;
	return set;
}

unsigned occ_launch_limiter_resources(unsigned set)
{
	unsigned res = 0;
	int i;

	for (i = 0; i < OCC_LAUNCH_LIMITERS; i++)
		if (set & (1u << i))
			res |= (unsigned)limiters[i];
	return res;
}

int occ_launch_limiter_mix(const struct occ_launch_acc *a, unsigned *first,
			   unsigned *second)
{
	unsigned set;

	*first = 0;
	*second = OCC_LAUNCH_LIMITER_SETS;
	for (set = 1; set < OCC_LAUNCH_LIMITER_SETS; set++)
		if (a->lim[set] > a->lim[*first])
			*first = set;
	for (set = 0; set < OCC_LAUNCH_LIMITER_SETS; set++)
		if (set != *first && a->lim[set] > 0 &&
		    (*second == OCC_LAUNCH_LIMITER_SETS ||
		     a->lim[set] > a->lim[*second]))
			*second = set;
	return *second < OCC_LAUNCH_LIMITER_SETS;
}

static void acc_add(struct occ_launch_acc *a, const struct occ_launch_row *r,
		    double w)
{
	double occ;

	a->all += w;
	if (r->l->has_kineto & OCC_KINETO_EST) {
		a->kineto += r->l->kineto_est_pct * w;
		a->kineto_w += w;
	}
	if (r->not_modelled)
		return;
	occ = occ_percent(&r->m.result);
	if (r->l->achieved_occupancy_pct >= 0) {
		a->achieved += r->l->achieved_occupancy_pct * w;
		a->achieved_occ += occ * w;
		a->achieved_w += w;
	}
	a->modelled += w;
	a->occ += occ * w;
	a->lim[occ_launch_limiter_set(&r->m.result)] += w;
	if (occ < 25)
		a->below25 += w;
	if (occ < 50)
		a->below50 += w;
	if (r->m.has_waves && r->m.waves.tail_blocks > 0)
		a->tail += w / (double)r->m.waves.waves;
}

static double duration(const struct occ_launch_record *l)
{
	int64_t ns = occ_launch_duration_ns(l);

	return ns > 0 ? (double)ns : 0;
}

void occ_launch_summary_file(struct occ_launch_summary *s)
{
	s->t.files++;
}

static void note_device(struct occ_launch_totals *t,
			const struct occ_launch_row *r)
{
	size_t i;

	if (!r->dev)
		return;
	for (i = 0; i < t->n_devs; i++)
		if (strcmp(t->devs[i]->d.name, r->dev->d.name) == 0 &&
		    t->devs[i]->d.multiProcessorCount ==
		    r->dev->d.multiProcessorCount &&
		    strcmp(t->devs[i]->tag, r->dev->tag) == 0)
			return;
	if (t->n_devs < OCC_LAUNCH_SUMMARY_DEVICES)
		t->devs[t->n_devs++] = r->dev;
}

enum occ_status occ_launch_summary_add(struct occ_launch_summary *s,
				       const struct occ_launch_row *r)
{
	struct occ_launch_summary_group *k;
	double ns = duration(r->l);
	int full = 0;

	s->t.launches++;
	note_device(&s->t, r);
	acc_add(&s->t.t, r, ns);
	acc_add(&s->t.n, r, 1);
	if (!r->not_modelled)
		s->t.modelled++;
	if (s->failed)
		return OCC_ERR_NOMEM;
	k = group_of(s, s->t.by == OCC_LAUNCH_BY_OP ? r->l->op : r->l->kernel,
		     r->l->device, &full);
	if (full) {
		s->t.untracked++;
		return OCC_OK;
	}
	if (!k || !shape_add(s, k, r->l)) {
		s->failed = 1;
		return OCC_ERR_NOMEM;
	}
	k->launches++;
	acc_add(&k->t, r, ns);
	acc_add(&k->n, r, 1);
	if (r->not_modelled)
		return OCC_OK;
	k->modelled++;
	if (!config_add(k, r, ns > 0 ? ns : 1)) {
		s->failed = 1;
		return OCC_ERR_NOMEM;
	}
	return OCC_OK;
}

const struct occ_launch_totals *
occ_launch_summary_totals(const struct occ_launch_summary *s)
{
	return &s->t;
}

const struct occ_launch_acc *
occ_launch_summary_weights(const struct occ_launch_totals *t,
			   const struct occ_launch_summary_group *g)
{
	if (t->t.all > 0)
		return g ? &g->t : &t->t;
	return g ? &g->n : &t->n;
}

static int by_rank(const void *x, const void *y)
{
	const struct occ_launch_summary_group *a =
		*(const struct occ_launch_summary_group *const *)x;
	const struct occ_launch_summary_group *b =
		*(const struct occ_launch_summary_group *const *)y;

	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

enum occ_status
occ_launch_summary_groups(struct occ_launch_summary *s,
			  const struct occ_launch_summary_group *const **groups,
			  size_t *n)
{
	size_t i, j = 0;

	*groups = NULL;
	*n = 0;
	if (s->failed)
		return OCC_ERR_NOMEM;
	free(s->order);
	s->order = malloc((s->t.groups ? s->t.groups : 1) * sizeof *s->order);
	if (!s->order)
		return OCC_ERR_NOMEM;
	for (i = 0; i < s->cap; i++)
		if (s->slots[i]) {
			struct occ_launch_summary_group *g = s->slots[i];

			g->rank = occ_launch_summary_weights(&s->t, g)->all;
			s->order[j++] = g;
		}
	qsort(s->order, j, sizeof *s->order, by_rank);
	*groups = s->order;
	*n = j;
	return OCC_OK;
}

const struct occ_launch_config *
occ_launch_summary_heaviest(const struct occ_launch_summary_group *g)
{
	const struct occ_launch_config *best = NULL;
	size_t i;

	for (i = 0; i < g->n_configs; i++)
		if (!best || g->configs[i].weight > best->weight)
			best = &g->configs[i];
	return best;
}

void occ_launch_summary_free(struct occ_launch_summary *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->cap; i++)
		if (s->slots[i]) {
			free(s->slots[i]->name);
			free(s->slots[i]->configs);
			free(s->slots[i]);
		}
	free(s->slots);
	free(s->shapes);
	free(s->order);
	free(s);
}
