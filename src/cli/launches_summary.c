/*
 * launches_summary.c - --launches' text: the kernels ranked by GPU time,
 * each with its launches, its distinct launch shapes, its occupancy
 * weighted by time, what limits it, the time it spends below 25 and 50 %
 * and in partial last waves; then the headroom of the top kernels. What
 * is kept grows with the kernels and their shapes, never the launches.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "launches.h"
#include "occupancy.h"

#define N_LIMITERS 5
static const enum occ_resource limiters[N_LIMITERS] = {
	OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS, OCC_RESOURCE_SHARED_MEMORY,
	OCC_RESOURCE_BLOCKS, OCC_RESOURCE_BARRIERS
};

/* Sums over launches, each weighted (by its time, or 1). */
struct acc {
	double all;             /* every launch */
	double modelled;        /* those with figures */
	double occ;             /* occupancy percent x weight */
	double lim[1 << N_LIMITERS];     /* by the set of limiters */
	double below25, below50;
	double tail;            /* the last, partial wave's share */
	double kineto, kineto_w;   /* Kineto's estimate where it gave one */
	/* Where --achieved measured the launch: the achieved occupancy, and
	 * the occupancy of the same launches, beside it. */
	double achieved, achieved_occ, achieved_w;
};

/* What the headroom depends on: not the grid. */
struct config {
	struct occ_launch_record l;      /* its numbers; names not kept */
	const struct launch_dev *dev;
	struct occ_result r;
	double weight;
};

/* What the summary holds is bounded whatever the traces hold (the man
 * page states the bound): kernels past SUMMARY_KERNELS count in the totals
 * and in one line, a name is kept up to NAME_KEPT bytes (told apart from
 * another by its whole length and hash), a kernel's configurations past
 * MAX_CONFIGS are not tracked for its headroom, and the distinct shapes
 * of all kernels together are counted up to SHAPES_MAX. */
#define SUMMARY_KERNELS 8192
#define NAME_KEPT 1024
#define MAX_CONFIGS 8
#define SHAPES_MAX (1u << 20)

struct ksum {
	char *name;                      /* up to NAME_KEPT bytes */
	size_t len;                      /* of the whole name */
	uint64_t hash;                   /* of the whole name */
	uint64_t launches, modelled;
	struct acc t, n;                 /* by time, by launch */
	size_t n_shapes;
	int shapes_capped;               /* more than n_shapes */
	struct config *configs;
	size_t n_configs, cap_configs;
	uint64_t configs_untracked;
	double rank;                     /* its weight, for the order */
};

#define MAX_DEVICES 64

struct launch_summary {
	struct ksum **slots;             /* open addressing by name */
	size_t cap, n;
	uint64_t launches, modelled;
	uint64_t untracked;              /* launches of kernels past
					    SUMMARY_KERNELS */
	struct acc t, n_acc;
	/* The (kernel, shape) pairs seen, as hashes (0: an empty slot). */
	uint64_t *shapes;
	size_t n_shapes, cap_shapes;
	const struct launch_dev *devs[MAX_DEVICES];
	size_t n_devs;
	size_t n_files;
	int failed;                      /* out of memory: said once */
};

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h;
}

#define FNV UINT64_C(0xcbf29ce484222325)

struct launch_summary *launch_summary_new(void)
{
	struct launch_summary *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
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
		     size_t len)
{
	size_t kept = len < NAME_KEPT ? len : NAME_KEPT;

	return k->hash == h && k->len == len &&
	       memcmp(k->name, name, kept) == 0;
}

/* The kernel's entry; NULL past SUMMARY_KERNELS (*full set) or out of
 * memory. */
static struct ksum *kernel_of(struct launch_summary *s, const char *name,
			      int *full)
{
	size_t len = strlen(name), kept = len < NAME_KEPT ? len : NAME_KEPT;
	uint64_t h = hash_bytes(FNV, name, len);
	size_t j;
	struct ksum *k;

	if (2 * (s->n + 1) > s->cap && !grow(s))
		return NULL;
	for (j = h & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1))
		if (same_name(s->slots[j], h, name, len))
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

static int same_config(const struct config *c, const struct launch_row *r)
{
	const struct occ_launch_record *a = &c->l, *b = r->l;

	return c->dev == r->dev && a->regs == b->regs &&
	       a->static_smem == b->static_smem &&
	       a->smem_total == b->smem_total &&
	       a->smem_executed == b->smem_executed &&
	       memcmp(a->block, b->block, sizeof a->block) == 0;
}

/* 0: out of memory. */
static int config_add(struct ksum *k, const struct launch_row *r, double w)
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
static unsigned limiter_set(const struct occ_result *r)
{
	unsigned set = 0;
	int i;

	for (i = 0; i < N_LIMITERS && r->blocks_per_sm; i++)
		if (r->limiters & limiters[i])
			set |= 1u << i;
	return set;
}

static void set_name(char *buf, size_t n, unsigned set)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < N_LIMITERS; i++)
		if (set & (1u << i))
			len += (size_t)snprintf(buf + len, len < n ? n - len : 0,
						"%s%s", len ? "+" : "",
						occ_resource_name(limiters[i]));
	if (!set)
		snprintf(buf, n, "cannot launch");
}

static void acc_add(struct acc *a, const struct launch_row *r, double w)
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

static void note_device(struct launch_summary *s, const struct launch_row *r)
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

void launch_summary_add(struct launch_summary *s, const struct launch_row *r)
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
	k = s->failed ? NULL : kernel_of(s, r->l->kernel, &full);
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

/* ---- Printing ---- */

/* By time where the traces timed launches, else by launch. */
static const struct acc *weights(const struct launch_summary *s,
				 const struct ksum *k)
{
	if (s->t.all > 0)
		return k ? &k->t : &s->t;
	return k ? &k->n : &s->n_acc;
}

static int by_rank(const void *x, const void *y)
{
	const struct ksum *a = *(const struct ksum *const *)x;
	const struct ksum *b = *(const struct ksum *const *)y;

	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

#define N_SETS (1 << N_LIMITERS)

/* What limits the kernel, by its time: the two sets of limiters that
 * hold the most, with their shares ("registers", "shared_memory 60%,
 * warps+registers 40%"). */
static void limiter_mix(char *buf, size_t n, const struct acc *a)
{
	unsigned first = 0, second = N_SETS, set;
	char name[96];
	size_t len;

	for (set = 1; set < N_SETS; set++)
		if (a->lim[set] > a->lim[first])
			first = set;
	for (set = 0; set < N_SETS; set++)
		if (set != first && a->lim[set] > 0 &&
		    (second == N_SETS || a->lim[set] > a->lim[second]))
			second = set;
	if (a->modelled <= 0) {
		snprintf(buf, n, "-");
		return;
	}
	set_name(name, sizeof name, first);
	if (a->lim[first] >= a->modelled) {
		snprintf(buf, n, "%s", name);
		return;
	}
	len = (size_t)snprintf(buf, n, "%s %.0f%%", name,
			       pct(a->lim[first], a->modelled));
	if (second < N_SETS) {
		set_name(name, sizeof name, second);
		snprintf(buf + len, len < n ? n - len : 0, ", %s %.0f%%", name,
			 pct(a->lim[second], a->modelled));
	}
}

#define NAME_WIDTH 44

/* The name escaped (escape_text), cut to NAME_WIDTH bytes. */
static void name_cell(char *buf, size_t n, const char *name)
{
	char e[NAME_WIDTH + 2];

	if (escape_text(e, sizeof e, name) <= NAME_WIDTH)
		snprintf(buf, n, "%s", e);
	else
		snprintf(buf, n, "%.*s...", NAME_WIDTH - 3, e);
}

static int any_kineto(const struct launch_summary *s)
{
	return weights(s, NULL)->kineto_w > 0;
}

static int any_achieved(const struct launch_summary *s)
{
	return weights(s, NULL)->achieved_w > 0;
}

/* The achieved occupancy of the kernel's measured launches, and their
 * occupancy in brackets: shown for the first top kernels (0: all). */
static void achieved_cell(char *buf, size_t n, const struct acc *a,
			  int shown)
{
	if (shown && a->achieved_w > 0)
		snprintf(buf, n, "%.2f%% (%.2f%%)", a->achieved / a->achieved_w,
			 a->achieved_occ / a->achieved_w);
	else
		snprintf(buf, n, "-");
}

static void kernel_line(FILE *f, const struct launch_summary *s,
			const struct ksum *k, int achieved_shown)
{
	const struct acc *a = weights(s, k), *all = weights(s, NULL);
	char name[NAME_WIDTH + 8], mix[256], occ[16], kin[16], ach[40];
	char shapes[24];

	name_cell(name, sizeof name, k->name);
	snprintf(shapes, sizeof shapes, "%zu%s", k->n_shapes,
		 k->shapes_capped ? "+" : "");
	limiter_mix(mix, sizeof mix, a);
	if (a->modelled > 0)
		snprintf(occ, sizeof occ, "%.2f%%", a->occ / a->modelled);
	else
		snprintf(occ, sizeof occ, "-");
	fprintf(f, "%-*s %8" PRIu64 " %6s %10.3f %6.1f%% %9s %5.1f%% %5.1f%% "
		"%5.1f%%", NAME_WIDTH, name, k->launches, shapes,
		k->t.all / 1e6, pct(a->all, all->all), occ,
		pct(a->below25, a->modelled), pct(a->below50, a->modelled),
		pct(a->tail, a->modelled));
	if (any_kineto(s)) {
		if (a->kineto_w > 0)
			snprintf(kin, sizeof kin, "%.2f%%", a->kineto / a->kineto_w);
		else
			snprintf(kin, sizeof kin, "-");
		fprintf(f, " %8s", kin);
	}
	if (any_achieved(s)) {
		achieved_cell(ach, sizeof ach, a, achieved_shown);
		fprintf(f, " %17s", ach);
	}
	fprintf(f, "  %s\n", mix);
}

/* "; in a partition: ..." after a device computed in a part of it. */
static void part_note(FILE *f, const struct launch_dev *d)
{
	const struct occ_partition_split *p = &d->part.split;
	char l[64];

	fprintf(f, "  in a partition: %s of %s%d group%s of %d SMs", d->part_name,
		p->groups_min == p->groups_max ? "" : "at most ", p->groups,
		plural(p->groups), p->group_sms);
	if (p->groups_min == p->groups_max)
		fprintf(f, ", %d left over", p->remaining_sms);
	fprintf(f, " (flags: %s): %d SMs", occ_partition_flags_name(d->part.flags),
		d->part.sms);
	if (d->part.measured) {
		occ_layout_format(&d->part.layout, l, sizeof l);
		fprintf(f, ", GPCs %s\n", l);
	} else {
		fprintf(f, ", GPCs not measured (no cluster figures)\n");
	}
}

static void header(FILE *f, const struct launch_summary *s)
{
	char dev[sizeof s->devs[0]->d.name * 4];
	size_t i;

	fprintf(f, "%" PRIu64 " launch%s of %zu kernel%s in %zu file%s, "
		"%.3f ms of GPU time\n", s->launches,
		s->launches == 1 ? "" : "es", s->n, plural((long long)s->n),
		s->n_files, plural((long long)s->n_files), s->t.all / 1e6);
	for (i = 0; i < s->n_devs; i++) {
		escape_text(dev, sizeof dev, s->devs[i]->d.name);
		fprintf(f, "  %s: %s, %d SMs%s\n", dev, s->devs[i]->tag,
			s->devs[i]->d.multiProcessorCount,
			launches_named_note(s->devs[i]));
		if (s->devs[i]->in_part)
			part_note(f, s->devs[i]);
	}
	if (s->t.all <= 0 && s->launches)
		fprintf(f, "No launch has a duration: shares are of launches, "
			"not of time.\n");
	fprintf(f, "\n%-*s %8s %6s %10s %7s %9s %6s %6s %6s", NAME_WIDTH,
		"kernel", "launches", "shapes", "GPU ms", "time", "occupancy",
		"<25%", "<50%", "tail");
	if (any_kineto(s))
		fprintf(f, " %8s", "kineto");
	if (any_achieved(s))
		fprintf(f, " %17s", "achieved");
	fprintf(f, "  limiter\n");
}

static const struct config *heaviest(const struct ksum *k)
{
	const struct config *best = NULL;
	size_t i;

	for (i = 0; i < k->n_configs; i++)
		if (!best || k->configs[i].weight > best->weight)
			best = &k->configs[i];
	return best;
}

#define TOP 5

static void headroom_of(FILE *f, const struct ksum *k)
{
	const struct config *c = heaviest(k);
	const struct occ_launch_record *l;
	struct occ_headroom h;
	char name[NAME_WIDTH + 8];

	if (!c || occ_launch_headroom(&c->dev->arch, &c->l, &h) != OCC_OK)
		return;
	l = &c->l;
	name_cell(name, sizeof name, k->name);
	fprintf(f, "\n%s: %s, block %" PRId64 "x%" PRId64 "x%" PRId64 ", %d "
		"registers, ", name, c->dev->tag, l->block[0], l->block[1],
		l->block[2], l->regs);
	if (l->static_smem >= 0)
		fprintf(f, "%" PRId64 " B static + %" PRId64 " B dynamic shared "
			"memory", l->static_smem, l->dynamic_smem);
	else
		fprintf(f, "%" PRId64 " B shared memory (taken as dynamic)",
			l->smem_total);
	fprintf(f, ": %d block%s per SM\n", c->r.blocks_per_sm,
		plural(c->r.blocks_per_sm));
	report_headroom_steps(f, &c->r, &h);
}

void launch_summary_print(FILE *f, struct launch_summary *s,
			  size_t achieved_top)
{
	struct ksum **order;
	size_t i, j = 0, shown = 0;

	if (s->failed)
		die("out of memory for the summary of %zu kernels", s->n);
	order = malloc((s->n ? s->n : 1) * sizeof *order);
	if (!order)
		die("out of memory for the summary of %zu kernels", s->n);
	for (i = 0; i < s->cap; i++)
		if (s->slots[i]) {
			order[j] = s->slots[i];
			order[j]->rank = weights(s, order[j])->all;
			j++;
		}
	qsort(order, s->n, sizeof *order, by_rank);
	header(f, s);
	for (i = 0; i < s->n; i++)
		kernel_line(f, s, order[i], !achieved_top || i < achieved_top);
	if (s->t.all > 0)
		fprintf(f, "\noccupancy: weighted by GPU time; <25%%, <50%%: "
			"the kernel's time in launches below\nthat occupancy; "
			"tail: its time in partial last waves (the waves taken "
			"as equally long).\n");
	else
		fprintf(f, "\noccupancy: weighted by launch; <25%%, <50%%: the "
			"kernel's launches below that\noccupancy; tail: the "
			"share of its launches' waves that are partial last "
			"ones.\n");
	if (any_kineto(s))
		fprintf(f, "kineto: Kineto's 'est. achieved occupancy %%', "
			"weighted alike.\n");
	if (any_achieved(s))
		fprintf(f, "achieved: measured (sm__warps_active.avg.pct_of_peak_"
			"sustained_active) in the\nlaunches --achieved measured, "
			"weighted alike; in brackets the occupancy of\nthe same "
			"launches.%s\n", achieved_top ? " Shown for the kernels "
			"with the most GPU time." : "");
	if (s->untracked)
		fprintf(f, "\n%" PRIu64 " launch%s of kernels past the first "
			"%d are in the totals, not listed\n(the summary holds "
			"at most %d kernels: -f csv gives every launch).\n",
			s->untracked, s->untracked == 1 ? "" : "es",
			SUMMARY_KERNELS, SUMMARY_KERNELS);
	if (s->n_shapes == SHAPES_MAX)
		fprintf(f, "\nshapes: counted up to %u for all kernels "
			"together; N+: more, not counted.\n", SHAPES_MAX);
	if (s->modelled < s->launches)
		fprintf(f, "\n%" PRIu64 " launch%s without occupancy figures "
			"(why: on standard error) count in the time, not in the "
			"percentages.\n", s->launches - s->modelled,
			s->launches - s->modelled == 1 ? "" : "es");
	for (i = 0; i < s->n && shown < TOP; i++) {
		if (!order[i]->modelled)
			continue;
		if (!shown++)
			fprintf(f, "\nHeadroom of the kernels with the most GPU "
				"time, at their heaviest\nconfiguration, the other "
				"inputs unchanged:\n");
		headroom_of(f, order[i]);
	}
	free(order);
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
