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

/* No layout measured, but NVIDIA's counts: each row's figures are the
 * most any layout with them allows (occ_layout_most_clusters). */
static void layout_bound(struct session *s, const struct occ_target *t)
{
	struct session_layout *L = &s->layout;
	const struct occ_gpc_counts *c = &t->counts;
	int i;

	L->bound = 1;
	L->counts = *c;
	if (t->gpu->gpcs)
		snprintf(L->text, sizeof L->text, "not measured: %d SMs in at "
			 "least %d GPCs of at most %d", c->sms, c->gpcs,
			 c->sms_per_gpc_max);
	else
		snprintf(L->text, sizeof L->text, "not measured: %d SMs in GPCs "
			 "of at most %d", c->sms, c->sms_per_gpc_max);
	for (i = 0; i < s->o->cluster.n; i++)
		if (s->o->cluster.items[i].best)
			die_usage("--cluster best: the size with the most CTAs depends on "
				  "%s's GPC layout, which is not measured: give "
				  "sizes, or --layout", s->gpu_name);
}

/* Where the SMs of a layout of no GPCs came from. */
static void whole_source(const struct session *s, const struct occ_target *t,
			 char *buf, size_t n)
{
	if (t->gpu && t->gpu->sms)
		snprintf(buf, n, "the GPU list (%s): %.200s", s->gpu_name,
			 t->source);
	else if (t->gpu)
		snprintf(buf, n, "--sms (the GPU list has no SM count for %s)",
			 s->gpu_name);
	else
		snprintf(buf, n, "--sms");
}

/* The session's layout from the library's answer. */
static void layout_taken(struct session *s, const struct occ_target *t)
{
	struct session_layout *L = &s->layout;
	const struct occ_device *d = &s->dev;

	L->l = t->layout;
	switch (t->basis) {
	case OCC_LAYOUT_GIVEN:
		snprintf(L->source, sizeof L->source, "--layout");
		break;
	case OCC_LAYOUT_MEASURED:
		snprintf(L->source, sizeof L->source, "measured on device %d "
			 "(%s)", d->index, d->name);
		/* Under MPS this layout is not the GPU's (one GPC of all the
		 * client's SMs), cudaOccupancyMaxActiveClusters answered
		 * fewer clusters than it gives in 14 and 16 of 75 cases,
		 * never more, and launches held up to its figure, some more
		 * than the runtime's (docs/mps.md): the figures are upper
		 * bounds. */
		L->mps = d->mps;
		break;
	case OCC_LAYOUT_LISTED:
		L->from_list = 1;
		snprintf(L->source, sizeof L->source, "the GPU list (%s): %s",
			 s->gpu_name, t->source);
		break;
	case OCC_LAYOUT_BOUND:
		snprintf(L->source, sizeof L->source, "the GPU list (%s): %s",
			 s->gpu_name, t->source);
		layout_bound(s, t);
		break;
	case OCC_LAYOUT_WHOLE:
		L->whole = 1;
		snprintf(L->text, sizeof L->text, "not known: %d SMs, GPCs not "
			 "published", L->l.sms);
		whole_source(s, t, L->source, sizeof L->source);
		break;
	default:
		layout_none(s, t);
	}
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

/* A table with only the portable size: the sizes it bounds, no more,
 * and no "best", which needs the unknown cap to be chosen. */
static void cap_unknown_sizes(const struct options *o, const char *tag,
			      int portable)
{
	int i;

	for (i = 0; i < o->cluster.n; i++) {
		const struct cluster_item *it = &o->cluster.items[i];

		if (it->best)
			die_usage("--cluster best: on %s the size with the most "
				  "CTAs depends on a cluster launch's blocks per "
				  "SM (clusterBlocksPerMultiprocessor), neither "
				  "documented by NVIDIA nor measured here: give "
				  "sizes up to %d", tag, portable);
		if (it->shape.size > portable)
			die_usage("--cluster: '%s': %d CTAs, more than the %d "
				  "portable on %s; its largest non-portable size "
				  "(clusterSizeMax) is neither documented by "
				  "NVIDIA nor measured here", it->name,
				  it->shape.size, portable, tag);
	}
}

int cluster_upper_bound(const struct session_layout *L)
{
	return L->bound || L->whole || L->cap_unknown || L->mps;
}

void cluster_prepare(struct session *s, const struct occ_arch *a)
{
	struct options *o = s->o;
	char tag[16];
	int i;

	arch_tag(tag, sizeof tag, a);
	if (a->cc_major < 9)
		die_usage("--cluster: %s has no thread-block clusters (compute "
			  "capability 9.0 on)", tag);
	if (occ_cluster_cap_unknown(a))
		cap_unknown_sizes(o, tag, a->cluster_size_portable);
	else if (a->cluster_size_max == 0)
		die_usage("--cluster: the %s table has no cluster figures "
			  "(clusterSizeMax)", tag);
	for (i = 0; i < o->cluster.n && !occ_cluster_cap_unknown(a); i++)
		if (o->cluster.items[i].shape.size > a->cluster_size_max)
			die_usage("--cluster: '%s': %d CTAs, more than the %d a "
				  "cluster may have on %s",
				  o->cluster.items[i].name,
				  o->cluster.items[i].shape.size,
				  a->cluster_size_max, tag);
	memset(&s->layout, 0, sizeof s->layout);
	s->layout.cap_unknown = occ_cluster_cap_unknown(a);
	if (partition_cluster_layout(s))
		partition_best_check(s);
	else
		layout_find(s, a);
	if (!s->layout.bound && !s->layout.whole)
		occ_layout_format(&s->layout.l, s->layout.text,
				  sizeof s->layout.text);
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

	cl->m.clusters = larger(cl->c.max_active_clusters, cl->api.clusters) +
			 (int64_t)d->sms * row->c.r.blocks_per_sm / cl->c.size + 1;
	cl->m.spin_cycles = CLUSTER_SPIN_CYCLES;
	if (gpu_cluster_measure(&s->gpu, &row->c.k, &cl->shape,
				row->c.r.max_warps_per_sm, &cl->m, err,
				sizeof err) != 0)
		session_device_failed(s, err);
	cl->measured = 1;
}

/* The runtime and the launch say what the model says: in a part, the
 * runtime what its layout gives (partition_api_layout). */
static int agrees_exactly(const struct row_cluster *cl)
{
	const struct occ_cluster_result *c = cl->have_part_api ? &cl->part_api
							       : &cl->c;
	const struct occ_cluster_best *p = cl->have_part_api ?
		&cl->part_api_portable : &cl->portable;
	const struct occ_cluster_best *np = cl->have_part_api ?
		&cl->part_api_nonportable : &cl->nonportable;

	return cl->api.clusters == c->max_active_clusters &&
	       cl->api.potential == p->potential &&
	       cl->api.potential_nonportable == np->potential &&
	       (!cl->measured ||
		(cl->m.cres.max_clusters == cl->c.max_active_clusters &&
		 cl->m.residency.max_blocks_per_sm == cl->c.blocks_per_sm));
}

/* The layout the runtime counts in the part computed in, where measured
 * (partition_api_layout); NULL elsewhere. */
static const struct occ_gpc_layout *runtime_layout(const struct session *s)
{
	if (!s->partition.on || !s->partition.measured || s->layout.bound)
		return NULL;
	return &s->partition.part.api;
}

/* In a part with a measured layout: the runtime's answers there. */
static enum occ_status part_api(const struct session *s,
				const struct occ_row *row,
				struct row_cluster *cl)
{
	const struct occ_gpc_layout *l = runtime_layout(s);
	enum occ_status st;

	if (!l)
		return OCC_OK;
	if ((st = occ_cluster_compute(row->c.a, &row->c.r, l, cl->shape.size,
				      &cl->part_api)) != OCC_OK ||
	    (st = occ_cluster_best(row->c.a, &row->c.r, l, 0,
				   &cl->part_api_portable)) != OCC_OK ||
	    (st = occ_cluster_best(row->c.a, &row->c.r, l, 1,
				   &cl->part_api_nonportable)) != OCC_OK)
		return st;
	cl->have_part_api = 1;
	return OCC_OK;
}

/* The model's figures: in a measured part, a size the runtime refuses
 * there has none (occ_cluster_part_compute). */
static enum occ_status model_best(const struct session *s,
				  const struct occ_row *row,
				  const struct occ_gpc_layout *l, int nonportable,
				  struct occ_cluster_best *b)
{
	const struct occ_gpc_layout *api = runtime_layout(s);

	return api ? occ_cluster_part_best(row->c.a, &row->c.r, l, api,
					   nonportable, b)
		   : occ_cluster_best(row->c.a, &row->c.r, l, nonportable, b);
}

static enum occ_status model_compute(const struct session *s,
				     const struct occ_row *row,
				     const struct occ_gpc_layout *l, int size,
				     struct occ_cluster_result *c)
{
	const struct occ_gpc_layout *api = runtime_layout(s);

	return api ? occ_cluster_part_compute(row->c.a, &row->c.r, l, api, size, c)
		   : occ_cluster_compute(row->c.a, &row->c.r, l, size, c);
}

/* An upper bound agrees with answers that stay within it. */
static int within_bound(const struct row_cluster *cl)
{
	return cl->api.clusters <= cl->c.max_active_clusters &&
	       (!cl->measured ||
		(cl->m.cres.max_clusters <= cl->c.max_active_clusters &&
		 cl->m.residency.max_blocks_per_sm <= cl->c.blocks_per_sm));
}

static void cluster_on_gpu(struct session *s, const struct occ_row *row,
			   struct row_cluster *cl)
{
	char err[256];

	if (gpu_cluster_api(&s->gpu, &row->c.k, &cl->shape, &cl->api, err,
			    sizeof err) != 0)
		session_device_failed(s, err);
	cl->have_api = 1;
	if (s->o->measure && cl->c.max_active_clusters > 0 &&
	    cl->api.clusters > 0)
		cluster_measure(s, row, cl);
	cl->agrees = cluster_upper_bound(&s->layout) ? within_bound(cl)
						     : agrees_exactly(cl);
	if (!cl->agrees)
		s->disagreements++;
}

void cluster_shape_name(char *buf, size_t n,
			const struct occ_cluster_shape *c)
{
	if (c->dims[2] > 1)
		snprintf(buf, n, "%dx%dx%d", c->dims[0], c->dims[1], c->dims[2]);
	else if (c->dims[1] > 1)
		snprintf(buf, n, "%dx%d", c->dims[0], c->dims[1]);
	else
		snprintf(buf, n, "%d", c->dims[0]);
}

size_t cluster_limiter_names(unsigned bits, const char *names[3])
{
	static const enum occ_cluster_limit order[] = {
		OCC_CLUSTER_LIMIT_SM, OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS,
		OCC_CLUSTER_LIMIT_GPC
	};
	size_t i, n = 0;

	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (bits & order[i])
			names[n++] = occ_cluster_limit_name(order[i]);
	return n;
}

/* What one GPC of each size holds, for the report's lines. */
static void gpc_kinds(const struct occ_row *row,
		      const struct occ_gpc_layout *l, struct row_cluster *cl)
{
	int i, k;

	for (i = 0; i < l->n_gpcs; i++) {
		struct occ_gpc_layout one = { 1, { l->sms_per_gpc[i] },
					      l->sms_per_gpc[i] };
		struct gpc_kind *g;

		for (k = 0; k < cl->n_kinds; k++)
			if (cl->kinds[k].sms == l->sms_per_gpc[i])
				break;
		g = &cl->kinds[k];
		if (k < cl->n_kinds) {
			g->count++;
			continue;
		}
		if (occ_cluster_compute(row->c.a, &row->c.r, &one, cl->shape.size,
					&g->c) != OCC_OK)
			continue;
		g->sms = l->sms_per_gpc[i];
		g->count = 1;
		cl->n_kinds++;
	}
}

void cluster_compute(struct session *s, const struct occ_row *row,
		     const struct cluster_item *item, struct row_cluster *cl)
{
	const struct occ_gpc_layout *l = &s->layout.l;
	enum occ_status st = OCC_OK;

	memset(cl, 0, sizeof *cl);
	cl->layout = &s->layout;
	cl->best = item->best;
	cl->source = item->source;
	cl->shape = item->shape;
	/* Without a layout, the one of the published counts that holds the
	 * most clusters of this size: an upper bound (cluster_bound). */
	if (s->layout.bound) {
		st = occ_layout_most_clusters(row->c.a, &row->c.r, &s->layout.counts,
					      cl->shape.size, &cl->own);
		l = &cl->own;
	}
	if (st == OCC_OK)
		st = model_best(s, row, l, 0, &cl->portable);
	if (st == OCC_OK)
		st = model_best(s, row, l, 1, &cl->nonportable);
	if (st == OCC_OK && item->best) {
		int size = cl->portable.most_blocks ? cl->portable.most_blocks : 1;
		struct occ_cluster_shape one = { { size, 1, 1 }, size };

		cl->shape = one;
	}
	if (st == OCC_OK)
		st = model_compute(s, row, l, cl->shape.size, &cl->c);
	if (st == OCC_OK)
		st = part_api(s, row, cl);
	if (st != OCC_OK)
		die("--cluster %s: %s", item->name, occ_strerror(st));
	gpc_kinds(row, l, cl);
	if (item->best)
		cluster_shape_name(cl->name, sizeof cl->name, &cl->shape);
	else
		snprintf(cl->name, sizeof cl->name, "%s", item->name);
	if (s->o->api)
		cluster_on_gpu(s, row, cl);
}
