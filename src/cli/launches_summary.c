/*
 * launches_summary.c - --launches' text summary: what it keeps of the
 * launches, by kernel (or operator, --by op) and GPU: their launches,
 * distinct launch shapes, occupancy weighted by time, limiters, the time
 * below 25 and 50 % and in partial last waves, and the configurations
 * for the headroom; printed by launches_summary_print.c. What is kept
 * grows with the kernels and their shapes, never the launches.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "launches_sum.h"
#include "occupancy.h"

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h;
}

#define FNV UINT64_C(0xcbf29ce484222325)

struct launch_summary *launch_summary_new(int by_op, int wide)
{
	struct launch_summary *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->by_op = by_op;
	s->wide = wide;
	s->cap = 256;
	s->slots = calloc(s->cap, sizeof *s->slots);
	if (!s->slots) {
		free(s);
		return NULL;
	}
	return s;
}

static int grow(struct launch_summary *s)
{
	struct ksum **old = s->slots;
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

static int same_name(const struct ksum *k, uint64_t h, const char *name,
		     size_t len, int device)
{
	size_t kept = len < NAME_KEPT ? len : NAME_KEPT;

	return k->hash == h && k->len == len && k->device == device &&
	       memcmp(k->name, name, kept) == 0;
}

/* The entry of the kernel (or operator) on its GPU: the same kernel on
 * two GPUs is two rows. NULL past SUMMARY_KERNELS (*full set) or out of
 * memory. */
static struct ksum *kernel_of(struct launch_summary *s, const char *name,
			      int device, int *full)
{
	size_t len = strlen(name), kept = len < NAME_KEPT ? len : NAME_KEPT;
	uint64_t h = hash_bytes(hash_bytes(FNV, name, len), &device,
				sizeof device);
	size_t j;
	struct ksum *k;

	if (2 * (s->n + 1) > s->cap && !grow(s))
		return NULL;
	for (j = h & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1))
		if (same_name(s->slots[j], h, name, len, device))
			return s->slots[j];
	if (s->n == SUMMARY_KERNELS) {
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
	s->slots[j] = k;
	s->n++;
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

static int shapes_grow(struct launch_summary *s)
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

/* Counts the launch's shape under its kernel if not seen before: 0 out
 * of memory. */
static int shape_add(struct launch_summary *s, struct ksum *k,
		     const struct occ_launch_record *l)
{
	uint64_t h = shape_hash(l);
	size_t j;

	h = hash_bytes(h, &k->hash, sizeof k->hash);
	h = h ? h : 1;
	if (2 * (s->n_shapes + 1) > s->cap_shapes &&
	    s->n_shapes < SHAPES_MAX && !shapes_grow(s))
		return 0;
	for (j = h & (s->cap_shapes - 1); s->shapes[j];
	     j = (j + 1) & (s->cap_shapes - 1))
		if (s->shapes[j] == h)
			return 1;
	if (s->n_shapes == SHAPES_MAX) {
		k->shapes_capped = 1;
		return 1;
	}
	s->shapes[j] = h;
	s->n_shapes++;
	k->n_shapes++;
	return 1;
}

static int same_config(const struct config *c, const struct occ_launch_row *r)
{
	const struct occ_launch_record *a = &c->l, *b = r->l;

	return c->dev == r->dev && a->regs == b->regs &&
	       a->static_smem == b->static_smem &&
	       a->smem_total == b->smem_total &&
	       a->smem_executed == b->smem_executed &&
	       memcmp(a->block, b->block, sizeof a->block) == 0;
}

/* 0: out of memory. */
static int config_add(struct ksum *k, const struct occ_launch_row *r, double w)
{
	struct config *c;
	size_t i;

	for (i = 0; i < k->n_configs; i++)
		if (same_config(&k->configs[i], r)) {
			k->configs[i].weight += w;
			return 1;
		}
	if (k->n_configs == MAX_CONFIGS) {
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
	c->l.kernel = c->l.mangled = NULL;
	c->dev = r->dev;
	c->r = r->m.result;
	c->weight = w;
	return 1;
}

/* The limiters of a result as bits in limiters[]' order (0: none, it
 * does not launch). */
unsigned limiter_set(const struct occ_result *r)
{
	unsigned set = 0;
	int i;

	for (i = 0; i < N_LIMITERS && r->blocks_per_sm; i++)
		if (r->limiters & limiters[i])
			set |= 1u << i;
	return set;
}

static void acc_add(struct acc *a, const struct occ_launch_row *r, double w)
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
	a->lim[limiter_set(&r->m.result)] += w;
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

void launch_summary_file(struct launch_summary *s)
{
	s->n_files++;
}

static void note_device(struct launch_summary *s, const struct occ_launch_row *r)
{
	size_t i;

	if (!r->dev)
		return;
	for (i = 0; i < s->n_devs; i++)
		if (strcmp(s->devs[i]->d.name, r->dev->d.name) == 0 &&
		    s->devs[i]->d.multiProcessorCount ==
		    r->dev->d.multiProcessorCount &&
		    strcmp(s->devs[i]->tag, r->dev->tag) == 0)
			return;
	if (s->n_devs < MAX_DEVICES)
		s->devs[s->n_devs++] = r->dev;
}

void launch_summary_add(struct launch_summary *s, const struct occ_launch_row *r)
{
	struct ksum *k;
	double ns = duration(r->l);
	int full = 0;

	s->launches++;
	note_device(s, r);
	acc_add(&s->t, r, ns);
	acc_add(&s->n_acc, r, 1);
	if (!r->not_modelled)
		s->modelled++;
	/* Launches no operator is known for are one row of their own. */
	k = s->failed ? NULL
	    : kernel_of(s, !s->by_op ? r->l->kernel : r->l->op ? r->l->op
			: "(no op)", r->l->device, &full);
	if (full) {
		s->untracked++;
		return;
	}
	if (!k || !shape_add(s, k, r->l)) {
		s->failed = 1;
		return;
	}
	k->launches++;
	acc_add(&k->t, r, ns);
	acc_add(&k->n, r, 1);
	if (r->not_modelled)
		return;
	k->modelled++;
	if (!config_add(k, r, ns > 0 ? ns : 1))
		s->failed = 1;
}

void launch_summary_free(struct launch_summary *s)
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
	free(s);
}
