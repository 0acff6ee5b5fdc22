/*
 * cluster.c - --cluster and --layout: their arguments, the GPC layout a
 * run computes with (given, measured on the device, or the GPU list's),
 * and each row's cluster launch: the model, and with --api and --measure
 * the runtime's answers and a measured launch.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "occupancy.h"

/* Each warp of a measured cluster launch works this long, about 0.5 ms on
 * Hopper: long beside the time a wave of clusters takes to be placed, so
 * that every cluster that fits is resident at once (as in
 * docs/cluster-research.md, which found the rule with it). */
#define CLUSTER_SPIN_CYCLES 1000000

/* ---- Arguments ---- */

static void add_item(const char *arg, struct options *o,
		     const struct cluster_item *it)
{
	struct cluster_request *c = &o->cluster;

	if (c->n == MAX_CLUSTER_ITEMS)
		die_usage("--cluster: '%s': more than %d cluster shapes", arg,
			  MAX_CLUSTER_ITEMS);
	c->items[c->n++] = *it;
}

/* "AxB" or "AxBxC": one shape. */
static void add_shape(const char *arg, const char *tok, size_t at,
		      struct options *o)
{
	struct cluster_item it = { .best = 0 };
	size_t pos = 0;

	if (occ_cluster_parse(tok, &it.shape, &pos) != OCC_OK)
		die_usage("--cluster: '%s': not a cluster shape at column %zu "
			  "(N, AxB or AxBxC, each 1-1024)", arg, at + pos);
	snprintf(it.name, sizeof it.name, "%s", tok);
	add_item(arg, o, &it);
}

/* "4", "1:16", "2:8:2": sizes, as the other kernel options' lists. */
static void add_sizes(const char *arg, const char *tok, struct options *o)
{
	struct cluster_item it = { .best = 0 };
	struct seq_iter i;
	struct seq s;

	arg_seq("cluster", tok, 1, 1024, &s);
	/* Refused before the list is walked, so that nothing is held. */
	if (seq_count(&s) > (uint64_t)(MAX_CLUSTER_ITEMS - o->cluster.n)) {
		seq_free(&s);
		die_usage("--cluster: '%s': more than %d cluster shapes", arg,
			  MAX_CLUSTER_ITEMS);
	}
	for (seq_first(&i, &s); ; ) {
		it.shape.dims[0] = (int)i.value;
		it.shape.dims[1] = it.shape.dims[2] = 1;
		it.shape.size = (int)i.value;
		snprintf(it.name, sizeof it.name, "%d", it.shape.size);
		add_item(arg, o, &it);
		if (!seq_next(&i))
			break;
	}
	seq_free(&s);
}

void arg_cluster(const char *opt, const char *arg, struct options *o)
{
	char buf[256], *tok, *save = NULL;
	struct cluster_item best = { .best = 1, .name = "best" };

	(void)opt;
	o->cluster.n = 0;
	if (strlen(arg) >= sizeof buf)
		die_usage("--cluster: '%.40s...': too long", arg);
	if (!*arg || strstr(arg, ",,") || *arg == ',' ||
	    arg[strlen(arg) - 1] == ',')
		die_usage("--cluster: '%s': empty value", arg);
	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "best") == 0)
			add_item(arg, o, &best);
		else if (strchr(tok, 'x'))
			add_shape(arg, tok, (size_t)(tok - buf), o);
		else
			add_sizes(arg, tok, o);
	}
}

void arg_layout(const char *opt, const char *arg, struct options *o)
{
	size_t pos = 0;

	(void)opt;
	if (occ_layout_parse(arg, &o->layout, &pos) != OCC_OK)
		die_usage("--layout: '%s': not a GPC layout at column %zu (SMs "
			  "per GPC, comma-separated, NxK for K alike, e.g. "
			  "8,16x5,18x2,2x4)", arg, pos);
	o->layout_text = arg;
}

/* ---- The layout ---- */

/* The device's layout, measured: a failure is the run's. */
static void layout_measure(struct session *s, struct occ_gpc_layout *l)
{
	const struct occ_device *d = &s->dev;
	char err[256];

	if (gpu_cluster_layout(&s->gpu, l, NULL, 0, err, sizeof err) != 0)
		die("device %d: its GPC layout could not be measured (%s); give "
		    "it with --layout", d->index, err);
	if (l->sms != d->sms)
		warn("device %d: %d of its %d SMs ran clusters of 2 or more; the "
		     "layout holds those", d->index, l->sms, d->sms);
}

/* A layout whose SMs are not the GPU's (occ_target_layout's mismatch). */
static _Noreturn void layout_disagrees(const struct session *s,
				       const struct occ_target *t)
{
	const struct options *o = s->o;

	if (t->mismatch == OCC_LAYOUT_GIVEN)
		die_usage("--layout %s has %d SMs, the GPU %llu (--sms, --gpu or "
			  "the device)", o->layout_text, t->mismatch_sms,
			  (unsigned long long)o->sms);
	die_usage("--sms %llu: the GPU list's %s%s has %d SMs",
		  (unsigned long long)o->sms, t->mismatch == OCC_LAYOUT_LISTED
		  ? "layout of " : "", s->gpu_name, t->mismatch_sms);
}

/* No layout at all: what would give one. */
static _Noreturn void layout_none(const struct session *s,
				  const struct occ_target *t)
{
	if (t->layout.sms)
		die_usage("--cluster: %d SMs and no GPC layout: give it with "
			  "--layout", t->layout.sms);
	if (s->o->gpu || s->o->gpu_list)
		die_usage("--cluster needs the GPU's GPC layout or SM count, and "
			  "the GPU list has neither for %s: give --sms or "
			  "--layout", s->gpu_name);
	die_usage("--cluster needs the GPU's GPC layout: --layout LAYOUT "
		  "(e.g. 8,16x5,18x2,2x4), --gpu NAME, or the GPU itself "
		  "(no --arch)");
}

/* No layout measured, only NVIDIA's counts: each row's figures are the
 * most any layout with them allows, and no size has the most CTAs. */
static void bound_best_check(const struct session *s)
{
	int i;

	for (i = 0; i < s->o->cluster.n; i++)
		if (s->o->cluster.items[i].best)
			die_usage("--cluster best: the size with the most CTAs depends on "
				  "%s's GPC layout, which is not measured: give "
				  "sizes, or --layout", s->gpu_name);
}

/* The session's layout from the library's answer, worded by it but for
 * a layout measured here. */
static void layout_taken(struct session *s, const struct occ_target *t)
{
	struct occ_cluster_layout *L = &s->layout;
	const struct occ_device *d = &s->dev;

	if (occ_cluster_layout_of(t, s->gpu_name, L) != OCC_OK)
		layout_none(s, t);
	if (t->basis == OCC_LAYOUT_MEASURED) {
		snprintf(L->source, sizeof L->source, "measured on device %d "
			 "(%s)", d->index, d->name);
		/* Under MPS this layout is not the GPU's (one GPC of all the
		 * client's SMs), cudaOccupancyMaxActiveClusters answered
		 * fewer clusters than it gives in 14 and 16 of 75 cases,
		 * never more, and launches held up to its figure, some more
		 * than the runtime's (docs/mps.md): the figures are upper
		 * bounds. */
		L->mps = d->mps;
	}
	if (L->bound)
		bound_best_check(s);
}

/* The GPC layout by the library's rule (occ_target_layout): --layout,
 * measured on the device, or --gpu's in the GPU list, bounded by its
 * GPC counts or its SMs as one group; SMs that disagree are refused. */
static void layout_find(struct session *s, const struct occ_arch *a)
{
	struct options *o = s->o;
	struct occ_layout_request r = { .flags = OCC_LAYOUT_SMS_STRICT };
	struct occ_gpc_layout measured;
	struct occ_target t;
	struct occ_diag d;
	char path[1024];
	enum occ_status st;

	occ_target_table(a, &t);
	t.sms = (int)o->sms;
	if (o->layout_text) {
		r.given = &o->layout;
	} else if (s->have_dev) {
		layout_measure(s, &measured);
		r.measured = &measured;
	}
	if (o->gpu || o->gpu_list) {
		/* By the list's own name: --gpu may have been a device name;
		 * --gpu LIST: this target's entry, for its GPC counts. */
		session_gpus_path(s, path, sizeof path);
		r.gpus = session_gpus(s);
		r.gpus_path = path;
		r.name = s->gpu_name;
	}
	errno = 0;
	st = occ_target_layout(&t, &r, &d);
	if (t.mismatch != OCC_LAYOUT_NONE)
		layout_disagrees(s, &t);
	if (st != OCC_OK)
		session_gpus_failed(st, &d, errno);
	if (t.gpu)
		s->listed = *t.gpu;
	layout_taken(s, &t);
}

/* --cluster best in a part whose layout is a bound: refused, as without
 * a measured layout. */
static void partition_best_check(const struct session *s)
{
	int i;

	for (i = 0; i < s->o->cluster.n && s->layout.bound; i++)
		if (s->o->cluster.items[i].best)
			die_usage("--cluster best: the size with the most CTAs "
				  "depends on the part's GPC layout, which is not "
				  "measured: give sizes");
}

/* The library's refusal of an item (occ_cluster_refused), worded. */
static void item_refused(const struct occ_arch *a, const char *tag,
			 const struct cluster_item *it)
{
	struct occ_cluster_query q = { .shape = it->shape, .best = it->best };

	switch (occ_cluster_refused(a, 0, &q)) {
	case OCC_CLUSTER_NO_CLUSTERS:
		die_usage("--cluster: %s has no thread-block clusters (compute "
			  "capability 9.0 on)", tag);
	case OCC_CLUSTER_BEST_CAP_UNKNOWN:
		die_usage("--cluster best: on %s the size with the most "
			  "CTAs depends on a cluster launch's blocks per "
			  "SM (clusterBlocksPerMultiprocessor), neither "
			  "documented by NVIDIA nor measured here: give "
			  "sizes up to %d", tag, a->cluster_size_portable);
	case OCC_CLUSTER_ABOVE_PORTABLE:
		die_usage("--cluster: '%s': %d CTAs, more than the %d "
			  "portable on %s; its largest non-portable size "
			  "(clusterSizeMax) is neither documented by "
			  "NVIDIA nor measured here", it->name,
			  it->shape.size, a->cluster_size_portable, tag);
	case OCC_CLUSTER_NO_FIGURES:
		die_usage("--cluster: the %s table has no cluster figures "
			  "(clusterSizeMax)", tag);
	case OCC_CLUSTER_ABOVE_MAX:
		die_usage("--cluster: '%s': %d CTAs, more than the %d a "
			  "cluster may have on %s", it->name, it->shape.size,
			  a->cluster_size_max, tag);
	default:
		break;
	}
}

void cluster_prepare(struct session *s, const struct occ_arch *a)
{
	struct options *o = s->o;
	char tag[16];
	int i;

	arch_tag(tag, sizeof tag, a);
	for (i = 0; i < o->cluster.n; i++)
		item_refused(a, tag, &o->cluster.items[i]);
	memset(&s->layout, 0, sizeof s->layout);
	if (partition_cluster_layout(s, a))
		partition_best_check(s);
	else
		layout_find(s, a);
	s->layout.cap_unknown = occ_cluster_cap_unknown(a);
	occ_cluster_layout_text(&s->layout);
	if (!o->sms)
		o->sms = (uint64_t)s->layout.l.sms;
}

/* ---- A row's cluster launch ---- */

static int larger(int a, int b)
{
	return a > b ? a : b;
}

/* More clusters than could fit, as cluster-research.md launched: the
 * most either answer allows, plus what the SMs' plain block slots would
 * hold, plus one. */
static void cluster_measure(struct session *s, const struct occ_row *row,
			    struct row_cluster *cl)
{
	const struct occ_device *d = &s->dev;
	char err[256];

	cl->m.clusters = larger(cl->model.c.max_active_clusters,
			       cl->api.clusters) +
			 (int64_t)d->sms * row->c.r.blocks_per_sm /
			 cl->model.c.size + 1;
	cl->m.spin_cycles = CLUSTER_SPIN_CYCLES;
	if (gpu_cluster_measure(&s->gpu, &row->c.k, &cl->model.shape,
				row->c.r.max_warps_per_sm, &cl->m, err,
				sizeof err) != 0)
		session_device_failed(s, err);
	cl->measured = 1;
}

/* The runtime and the launch say what the model says: in a part, the
 * runtime what its layout gives (partition_api_layout). */
static int agrees_exactly(const struct row_cluster *cl)
{
	const struct occ_cluster_row *k = &cl->model;
	const struct occ_cluster_result *c = k->have_part_api ? &k->part_api
							      : &k->c;
	const struct occ_cluster_best *p = k->have_part_api ?
		&k->part_api_portable : &k->portable;
	const struct occ_cluster_best *np = k->have_part_api ?
		&k->part_api_nonportable : &k->nonportable;

	return cl->api.clusters == c->max_active_clusters &&
	       cl->api.potential == p->potential &&
	       cl->api.potential_nonportable == np->potential &&
	       (!cl->measured ||
		(cl->m.cres.max_clusters == k->c.max_active_clusters &&
		 cl->m.residency.max_blocks_per_sm == k->c.blocks_per_sm));
}

/* The layout the runtime counts in the part computed in, where measured
 * (partition_api_layout); NULL elsewhere. */
static const struct occ_gpc_layout *runtime_layout(const struct session *s)
{
	if (!s->partition.on)
		return NULL;
	return occ_partition_api_layout(&s->partition.m, &s->layout);
}

/* An upper bound agrees with answers that stay within it. */
static int within_bound(const struct row_cluster *cl)
{
	const struct occ_cluster_result *c = &cl->model.c;

	return cl->api.clusters <= c->max_active_clusters &&
	       (!cl->measured ||
		(cl->m.cres.max_clusters <= c->max_active_clusters &&
		 cl->m.residency.max_blocks_per_sm <= c->blocks_per_sm));
}

static void cluster_on_gpu(struct session *s, const struct occ_row *row,
			   struct row_cluster *cl)
{
	char err[256];

	if (gpu_cluster_api(&s->gpu, &row->c.k, &cl->model.shape, &cl->api, err,
			    sizeof err) != 0)
		session_device_failed(s, err);
	cl->have_api = 1;
	if (s->o->measure && cl->model.c.max_active_clusters > 0 &&
	    cl->api.clusters > 0)
		cluster_measure(s, row, cl);
	cl->agrees = occ_cluster_layout_bound(&s->layout) ? within_bound(cl)
							  : agrees_exactly(cl);
	if (!cl->agrees)
		s->disagreements++;
}

void cluster_compute(struct session *s, const struct occ_row *row,
		     const struct cluster_item *item, struct row_cluster *cl)
{
	struct occ_cluster_query q = {
		.shape = item->shape, .best = item->best, .name = item->name,
		.source = item->source, .api = runtime_layout(s)
	};
	enum occ_status st;

	memset(cl, 0, sizeof *cl);
	if ((st = occ_cluster_row_compute(&row->c, &s->layout, &q,
					  &cl->model)) != OCC_OK)
		die("--cluster %s: %s", item->name, occ_strerror(st));
	if (s->o->api)
		cluster_on_gpu(s, row, cl);
}
