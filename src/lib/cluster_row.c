/*
 * cluster_row.c - a configuration's cluster launch as a row shows it
 * (occcalc/cluster_row.h): the layout it is computed on, worded from the
 * target module's answer, and the launch: the clusters resident, the
 * sizes the layout recommends, what one GPC of each size holds.
 */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

/* ---- The layout ---- */

/* No layout measured, but NVIDIA's counts: each row's figures are the
 * most any layout with them allows (occ_layout_most_clusters). */
static void layout_bound(const struct occ_target *t,
			 struct occ_cluster_layout *L)
{
	const struct occ_gpc_counts *c = &t->counts;

	L->bound = 1;
	L->counts = *c;
	if (t->gpu && t->gpu->gpcs)
		snprintf(L->text, sizeof L->text, "not measured: %d SMs in at "
			 "least %d GPCs of at most %d", c->sms, c->gpcs,
			 c->sms_per_gpc_max);
	else
		snprintf(L->text, sizeof L->text, "not measured: %d SMs in GPCs "
			 "of at most %d", c->sms, c->sms_per_gpc_max);
}

/* Where the SMs of a layout of no GPCs came from. */
static void whole_source(const struct occ_target *t, const char *name,
			 struct occ_cluster_layout *L)
{
	if (t->gpu && t->gpu->sms)
		snprintf(L->source, sizeof L->source, "the GPU list (%s): %.200s",
			 name, t->source);
	else if (t->gpu)
		snprintf(L->source, sizeof L->source, "--sms (the GPU list has "
			 "no SM count for %s)", name);
	else
		snprintf(L->source, sizeof L->source, "--sms");
}

void occ_cluster_layout_text(struct occ_cluster_layout *L)
{
	if (!L->bound && !L->whole)
		occ_layout_format(&L->l, L->text, sizeof L->text);
}

enum occ_status occ_cluster_layout_of(const struct occ_target *t,
				      const char *name,
				      struct occ_cluster_layout *L)
{
	memset(L, 0, sizeof *L);
	L->cap_unknown = occ_cluster_cap_unknown(&t->arch);
	L->l = t->layout;
	switch (t->basis) {
	case OCC_LAYOUT_GIVEN:
		snprintf(L->source, sizeof L->source, "--layout");
		break;
	case OCC_LAYOUT_MEASURED:
		break;
	case OCC_LAYOUT_LISTED:
		L->from_list = 1;
		snprintf(L->source, sizeof L->source, "the GPU list (%s): %s",
			 name, t->source);
		break;
	case OCC_LAYOUT_BOUND:
		snprintf(L->source, sizeof L->source, "the GPU list (%s): %s",
			 name, t->source);
		layout_bound(t, L);
		break;
	case OCC_LAYOUT_WHOLE:
		L->whole = 1;
		snprintf(L->text, sizeof L->text, "not known: %d SMs, GPCs not "
			 "published", L->l.sms);
		whole_source(t, name, L);
		break;
	default:
		return OCC_ERR_INVALID_INPUT;
	}
	occ_cluster_layout_text(L);
	return OCC_OK;
}

int occ_cluster_layout_bound(const struct occ_cluster_layout *L)
{
	return L->bound || L->whole || L->cap_unknown || L->mps;
}

/* ---- A row's cluster launch ---- */

/* In a part with a measured layout: the runtime's answers there. */
static enum occ_status part_api(const struct occ_config_row *row,
				const struct occ_gpc_layout *api,
				struct occ_cluster_row *cl)
{
	enum occ_status st;

	if (!api)
		return OCC_OK;
	if ((st = occ_cluster_compute(row->a, &row->r, api, cl->shape.size,
				      &cl->part_api)) != OCC_OK ||
	    (st = occ_cluster_best(row->a, &row->r, api, 0,
				   &cl->part_api_portable)) != OCC_OK ||
	    (st = occ_cluster_best(row->a, &row->r, api, 1,
				   &cl->part_api_nonportable)) != OCC_OK)
		return st;
	cl->have_part_api = 1;
	return OCC_OK;
}

/* The model's figures: in a measured part, a size the runtime refuses
 * there has none (occ_cluster_part_compute). */
static enum occ_status model_best(const struct occ_config_row *row,
				  const struct occ_gpc_layout *l,
				  const struct occ_gpc_layout *api,
				  int nonportable, struct occ_cluster_best *b)
{
	return api ? occ_cluster_part_best(row->a, &row->r, l, api,
					   nonportable, b)
		   : occ_cluster_best(row->a, &row->r, l, nonportable, b);
}

static enum occ_status model_compute(const struct occ_config_row *row,
				     const struct occ_gpc_layout *l,
				     const struct occ_gpc_layout *api,
				     int size, struct occ_cluster_result *c)
{
	return api ? occ_cluster_part_compute(row->a, &row->r, l, api, size, c)
		   : occ_cluster_compute(row->a, &row->r, l, size, c);
}

/* What one GPC of each size holds, for a report's lines. */
static void gpc_kinds(const struct occ_config_row *row,
		      const struct occ_gpc_layout *l, struct occ_cluster_row *cl)
{
	int i, k;

	for (i = 0; i < l->n_gpcs; i++) {
		struct occ_gpc_layout one = { 1, { l->sms_per_gpc[i] },
					      l->sms_per_gpc[i] };
		struct occ_cluster_gpc *g;

		for (k = 0; k < cl->n_kinds; k++)
			if (cl->kinds[k].sms == l->sms_per_gpc[i])
				break;
		g = &cl->kinds[k];
		if (k < cl->n_kinds) {
			g->count++;
			continue;
		}
		if (occ_cluster_compute(row->a, &row->r, &one, cl->shape.size,
					&g->c) != OCC_OK)
			continue;
		g->sms = l->sms_per_gpc[i];
		g->count = 1;
		cl->n_kinds++;
	}
}

/* best: the portable size with the most CTAs (1 where none is
 * resident), the shape of its size. */
static void best_shape(struct occ_cluster_row *cl)
{
	int size = cl->portable.most_blocks ? cl->portable.most_blocks : 1;
	struct occ_cluster_shape one = { { size, 1, 1 }, size };

	cl->shape = one;
}

enum occ_status occ_cluster_row_compute(const struct occ_config_row *row,
					const struct occ_cluster_layout *L,
					const struct occ_cluster_query *q,
					struct occ_cluster_row *cl)
{
	const struct occ_gpc_layout *l = &L->l;
	enum occ_status st = OCC_OK;

	memset(cl, 0, sizeof *cl);
	cl->layout = L;
	cl->best = q->best;
	cl->source = q->source;
	cl->shape = q->shape;
	/* Without a layout, the one of the published counts that holds the
	 * most clusters of this size: an upper bound (cluster_bound). */
	if (L->bound) {
		st = occ_layout_most_clusters(row->a, &row->r, &L->counts,
					      cl->shape.size, &cl->own);
		l = &cl->own;
	}
	if (st == OCC_OK)
		st = model_best(row, l, q->api, 0, &cl->portable);
	if (st == OCC_OK)
		st = model_best(row, l, q->api, 1, &cl->nonportable);
	if (st == OCC_OK && q->best)
		best_shape(cl);
	if (st == OCC_OK)
		st = model_compute(row, l, q->api, cl->shape.size, &cl->c);
	if (st == OCC_OK)
		st = part_api(row, q->api, cl);
	if (st != OCC_OK)
		return st;
	gpc_kinds(row, l, cl);
	if (q->best || !q->name)
		occ_cluster_shape_format(&cl->shape, cl->name, sizeof cl->name);
	else
		snprintf(cl->name, sizeof cl->name, "%s", q->name);
	return OCC_OK;
}

void occ_cluster_row_waves(const struct occ_cluster_row *cl,
			   struct occ_config_row *row)
{
	row->have_waves = row->have_waves &&
			  occ_cluster_waves(&cl->c, row->grid, row->sms,
					    &row->w) == OCC_OK;
}

void occ_cluster_shape_format(const struct occ_cluster_shape *c, char *buf,
			      size_t n)
{
	if (c->dims[2] > 1)
		snprintf(buf, n, "%dx%dx%d", c->dims[0], c->dims[1], c->dims[2]);
	else if (c->dims[1] > 1)
		snprintf(buf, n, "%dx%d", c->dims[0], c->dims[1]);
	else
		snprintf(buf, n, "%d", c->dims[0]);
}

size_t occ_cluster_limiter_names(unsigned bits, const char *names[3])
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

enum occ_cluster_refusal occ_cluster_refused(const struct occ_arch *a,
					     int bound,
					     const struct occ_cluster_query *q)
{
	if (a->cc_major < 9)
		return OCC_CLUSTER_NO_CLUSTERS;
	if (occ_cluster_cap_unknown(a)) {
		if (q->best)
			return OCC_CLUSTER_BEST_CAP_UNKNOWN;
		if (q->shape.size > a->cluster_size_portable)
			return OCC_CLUSTER_ABOVE_PORTABLE;
	} else if (a->cluster_size_max == 0) {
		return OCC_CLUSTER_NO_FIGURES;
	} else if (!q->best && q->shape.size > a->cluster_size_max) {
		return OCC_CLUSTER_ABOVE_MAX;
	}
	return q->best && bound ? OCC_CLUSTER_BEST_BOUND : OCC_CLUSTER_ACCEPTED;
}
