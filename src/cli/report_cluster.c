/*
 * report_cluster.c - the report's section on a cluster launch: the layout
 * and where it comes from, the blocks per SM, the clusters each kind of
 * GPC holds, what limits them, the sizes the runtime and the model
 * recommend, and what the GPU said. Computed before (struct row_cluster);
 * this file only writes.
 */
#include <string.h>

#include "cli.h"
#include "occupancy.h"

static void format_cluster_limiters(char *buf, size_t n, unsigned bits)
{
	const char *names[3];
	size_t i, k = occ_cluster_limiter_names(bits, names), len = 0;

	buf[0] = '\0';
	for (i = 0; i < k; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					i ? "+" : "", names[i]);
}

#define INDENT 24
#define WIDTH 78

/* Text from column INDENT, words wrapped before column WIDTH. */
static void wrapped(FILE *f, const char *s)
{
	int col = INDENT;

	fprintf(f, "%*s", INDENT, "");
	while (*s) {
		size_t w = strcspn(s, " ");

		if (col > INDENT && col + 1 + (int)w > WIDTH) {
			fprintf(f, "\n%*s", INDENT, "");
			col = INDENT;
		} else if (col > INDENT) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, s);
		col += (int)w;
		s += w;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}

/* A layout that is not measured, as the list or --sms gives it. */
static void layout_said(FILE *f, const struct occ_cluster_layout *L)
{
	char text[1024];

	fprintf(f, "  GPC layout            %s\n", L->text);
	snprintf(text, sizeof text, "source: %s", L->source);
	wrapped(f, text);
}

/* Without a measured layout: what the figures are, and are not. */
static void bound_lines(FILE *f, const struct occ_cluster_row *cl)
{
	char own[512], text[1024];

	occ_layout_format(&cl->own, own, sizeof own);
	layout_said(f, cl->layout);
	snprintf(text, sizeof text, "The figures below are upper bounds: "
		 "those of %s, the layout with these counts that holds the "
		 "most. A chip may hold fewer: the H100s and H200s measured "
		 "keep 4 pairs of SMs apart from their GPCs "
		 "(docs/cluster-h100). Measure on the GPU itself (no --arch) "
		 "or give --layout.", own);
	wrapped(f, text);
}

static void layout_lines(FILE *f, const struct occ_cluster_layout *L)
{
	char from[sizeof L->source + 8];

	fprintf(f, "  GPC layout            %s (%d GPC%s, %d SM%s)\n", L->text,
		L->l.n_gpcs, plural(L->l.n_gpcs), L->l.sms, plural(L->l.sms));
	snprintf(from, sizeof from, "source: %s", L->source);
	wrapped(f, from);
	if (L->from_list)
		wrapped(f, "Chips of one product have different SMs disabled: "
			"this is the layout of the chips measured. On the GPU "
			"itself (no --arch) occcalc measures its own; --layout "
			"gives another.");
}

/* The one line of what is unknown, and that the figures bound it. */
static void unknown_line(FILE *f, const struct occ_cluster_layout *L,
			 const char *tag)
{
	if (L->cap_unknown)
		fprintf(f, "  Upper bound: unknown on %s: the cluster blocks/SM "
			"cap, non-portable sizes\n", tag);
	else if (L->whole)
		fprintf(f, "  Upper bound: unknown: the GPCs (every cluster must "
			"fit on the SMs)\n");
	else if (L->mps)
		fprintf(f, "  Upper bound: an MPS client: the runtime may answer "
			"fewer clusters (docs/mps.md)\n");
}

/* No GPCs known (all SMs as one), or no cap known. */
static void unknown_lines(FILE *f, const struct occ_cluster_layout *L,
			  const char *tag)
{
	if (L->whole)
		layout_said(f, L);
	else
		layout_lines(f, L);
	unknown_line(f, L, tag);
}

/* The clusters each size of GPC holds: "16 SMs x5: 32 each". */
static void gpc_lines(FILE *f, const struct occ_cluster_row *cl)
{
	int i;

	fprintf(f, "  Per GPC               ");
	for (i = 0; i < cl->n_kinds; i++) {
		const struct occ_cluster_gpc *g = &cl->kinds[i];

		fprintf(f, "%*s%d SM%s", i ? INDENT : 0, "", g->sms,
			plural(g->sms));
		if (g->count > 1)
			fprintf(f, " x%d", g->count);
		if (g->c.reason == OCC_CLUSTER_LARGER_THAN_GPCS)
			fprintf(f, ": none, fewer SMs than CTAs");
		else
			fprintf(f, ": %d cluster%s%s", g->c.max_active_clusters,
				plural(g->c.max_active_clusters),
				g->count > 1 ? " each" : "");
		if (g->c.idle_slots > 0 && g->c.max_active_clusters > 0)
			fprintf(f, ", %lld block slot%s left empty",
				(long long)g->c.idle_slots,
				plural(g->c.idle_slots));
		fputc('\n', f);
	}
}

static void none_fits(FILE *f, const struct occ_cluster_row *cl)
{
	if (cl->c.reason == OCC_CLUSTER_NO_BLOCKS)
		fprintf(f, "No cluster fits: the kernel cannot launch.\n");
	else if (cl->c.reason == OCC_CLUSTER_REFUSED_IN_PART)
		fprintf(f, "No cluster runs: the part's largest GPC has %d SMs, "
			"but cudaOccupancyMaxActiveClusters\ncounts 0 clusters "
			"of %d there, and the runtime refuses the launch\n"
			"(cudaErrorInvalidClusterSize; docs/partition.md).\n",
			cl->c.largest_gpc, cl->c.size);
	else
		fprintf(f, "No cluster fits: a cluster of %d CTA%s runs on %d "
			"SM%s of one GPC, and the largest GPC has %d.\n",
			cl->c.size, plural(cl->c.size), cl->c.size,
			plural(cl->c.size), cl->c.largest_gpc);
}

static void portability(FILE *f, const struct occ_arch *a, int size)
{
	if (size <= a->cluster_size_portable)
		return;
	fprintf(f, "Note: more than %d CTAs is not portable: the kernel must "
		"allow it with\n      cudaFuncSetAttribute(kernel, "
		"cudaFuncAttributeNonPortableClusterSizeAllowed, 1).\n",
		a->cluster_size_portable);
}

/* The runtime's potential size beside the size with the most CTAs. */
static void recommendation(FILE *f, const struct occ_cluster_row *cl)
{
	const struct occ_cluster_best *p = &cl->portable;

	fprintf(f, "\nCluster sizes\n");
	fprintf(f, "  Largest resident      %d, %d non-portable (what "
		"cudaOccupancyMaxPotential-\n%*sClusterSize answers)\n",
		p->potential, cl->nonportable.potential, INDENT, "");
	if (p->most_blocks)
		fprintf(f, "  Most CTAs resident    %d: %lld CTA%s at once (the "
			"largest size of those that tie; portable)\n",
			p->most_blocks,
			(long long)p->most_blocks_result.active_blocks,
			plural(p->most_blocks_result.active_blocks));
}

void report_cluster(FILE *f, const struct occ_row *row, int recommend)
{
	const struct occ_cluster_row *cl = &row->cl->model;
	const struct occ_cluster_result *c = &cl->c;
	char lim[96], pct[32], tag[16];

	fprintf(f, "\nClusters of %d CTA%s", c->size, plural(c->size));
	if (cl->shape.dims[1] * cl->shape.dims[2] > 1)
		fprintf(f, " (%s)", cl->name);
	fprintf(f, "%s, %s\n", cl->best ? ", the size with the most CTAs" : "",
		c->portable ? "portable" : "NOT portable");
	arch_tag(tag, sizeof tag, row->c.a);
	if (cl->layout->bound) {
		bound_lines(f, cl);
		unknown_line(f, cl->layout, tag);
	} else if (occ_cluster_layout_bound(cl->layout)) {
		unknown_lines(f, cl->layout, tag);
	}
	else
		layout_lines(f, cl->layout);
	if (cl->layout->cap_unknown)
		fprintf(f, "  Blocks per SM         at most %d in a cluster launch "
			"(as in a plain one)\n", c->blocks_per_sm);
	else
		fprintf(f, "  Blocks per SM         %d in a cluster launch (at "
			"most %d; %d in a plain one)\n", c->blocks_per_sm,
			row->c.a->cluster_blocks_per_sm, row->c.r.blocks_per_sm);
	if (c->blocks_per_sm > 0 && !cl->layout->whole)
		gpc_lines(f, cl);
	occ_format_percent(pct, (uint64_t)c->active_warps,
			     (uint64_t)c->warp_slots);
	format_cluster_limiters(lim, sizeof lim, c->limiters);
	fprintf(f, "  Clusters at once      %s%d (%lld CTA%s)\n",
		occ_cluster_layout_bound(cl->layout) ? "at most " : "",
		c->max_active_clusters,
		(long long)c->active_blocks, plural(c->active_blocks));
	if (cl->have_part_api)
		fprintf(f, "                        (cudaOccupancyMaxActiveClusters "
			"answers %d in the part%s)\n",
			cl->part_api.max_active_clusters,
			cl->part_api.max_active_clusters < c->max_active_clusters
			? ":\n                        it counts smaller GPCs than "
			  "launches use" : "");
	fprintf(f, "  Occupancy of the GPU  %s%s %%\n",
		occ_cluster_layout_bound(cl->layout) ? "at most " : "", pct);
	fprintf(f, "  Limited by            %s\n", c->max_active_clusters
		? lim : occ_cluster_reason_name(c->reason));
	if (c->max_active_clusters == 0)
		none_fits(f, cl);
	portability(f, row->c.a, c->size);
	if (recommend && !occ_cluster_layout_bound(cl->layout))
		recommendation(f, cl);
}

void report_cluster_gpu(FILE *f, const struct occ_device *d,
			const struct occ_row *row)
{
	const struct row_cluster *cl = row->cl;
	const struct gpu_cluster_measured *m = &cl->m;
	char pct[32];

	fprintf(f, "\nOn device %d (%s), a calibrated cluster kernel with %d "
		"registers:\n", d->index, d->name, cl->api.kernel_regs);
	fprintf(f, "  cudaOccupancyMaxActiveClusters        %d\n",
		cl->api.clusters);
	fprintf(f, "  cudaOccupancyMaxPotentialClusterSize  %d (%d non-portable)"
		"\n", cl->api.potential, cl->api.potential_nonportable);
	if (cl->measured) {
		occ_format_percent(pct, m->residency.warp_cycles,
				     (uint64_t)m->residency.max_warps_per_sm *
				     m->residency.active_cycles);
		fprintf(f, "  Measured              %d cluster%s resident at "
			"once, %d block%s per SM,\n                        %s %% "
			"achieved occupancy (%lld cluster%s, %.1f ms)\n",
			m->cres.max_clusters, plural(m->cres.max_clusters),
			m->residency.max_blocks_per_sm,
			plural(m->residency.max_blocks_per_sm), pct,
			(long long)m->clusters, plural(m->clusters), m->ms);
	}
	fprintf(f, "  %s\n", !cl->agrees ? "DISAGREES with the model."
		: cl->measured ? "All agree with the model."
			       : "It agrees with the model.");
}
