/*
 * kernels_cluster.c - --kernels and thread-block clusters: a kernel whose
 * binary records __cluster_dims__, or that Triton launches with num_ctas
 * above 1, always runs as a cluster launch, so its rows are that launch
 * (cluster.c's model, as --cluster computes it); --cluster gives the
 * shape of the others. A declared shape wins over --cluster.
 */
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* The cluster k declares into c (0 where it declares none). */
static int declared(const struct kernel_info *k, struct occ_cluster_shape *c,
		    const char **source)
{
	const struct kernel_more *m = kernel_more(k);
	const int *d = m->cluster[0] > 0 ? m->cluster
		       : m->launch && m->launch->launch.cluster[0] > 0
		       ? m->launch->launch.cluster : NULL;
	int i;

	if (!d || k->ptx_only)
		return 0;
	c->size = 1;
	for (i = 0; i < 3; i++) {
		c->dims[i] = d[i] > 0 ? d[i] : 1;
		c->size *= c->dims[i];
	}
	*source = m->cluster[0] > 0 ? "__cluster_dims__" : "num_ctas";
	return 1;
}

/* k's table, where it has clusters. */
static const struct occ_arch *cluster_arch(struct session *s,
					   const struct kernel_info *k)
{
	const struct occ_arch *a;

	if (k->ptx_only)
		return NULL;
	a = occ_tables_find(session_tables(s), k->cc_major, k->cc_minor);
	return a && occ_cluster_size_limit(a) ? a : NULL;
}

size_t kernels_declaring(const struct kernel_list *l)
{
	struct occ_cluster_shape c;
	const char *source;
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += (size_t)declared(&l->k[i], &c, &source);
	return n;
}

/* Whether a layout to compute cluster launches with is given. */
static int layout_given(const struct session *s)
{
	const struct options *o = s->o;

	return o->layout_text || o->gpu || o->gpu_list || s->have_dev;
}

size_t kernels_clusters_declared(struct session *s, const struct kernel_list *l)
{
	struct occ_cluster_shape c;
	const char *source;
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += cluster_arch(s, &l->k[i]) &&
		     declared(&l->k[i], &c, &source);
	return n;
}

void kernels_clusters_warn(size_t n)
{
	if (n)
		warn("%zu kernel%s declare%s a cluster launch: give --gpu NAME "
		     "or --layout LAYOUT to compute it (the rows are plain "
		     "launches)", n, plural(n), n == 1 ? "s" : "");
}

int kernels_clusters_never(const struct session *s)
{
	return !s->o->cluster.n && !layout_given(s);
}

int kernels_clusters_decides(struct session *s, const struct kernel_info *k)
{
	struct occ_cluster_shape c;
	const char *source;

	return kernels_clusters_never(s) ||
	       (cluster_arch(s, k) &&
		(s->o->cluster.n || declared(k, &c, &source)));
}

int kernels_clusters_prepare(struct session *s, const struct kernel_list *l,
			     const struct occ_arch *target)
{
	const struct options *o = s->o;
	const struct occ_arch *a = NULL, *ka;
	struct occ_cluster_shape c;
	const char *source;
	size_t i, n = 0;

	for (i = 0; i < l->n; i++) {
		if (!(ka = cluster_arch(s, &l->k[i])))
			continue;
		n += (size_t)declared(&l->k[i], &c, &source);
		a = a ? a : ka;
	}
	if (!o->cluster.n && !n)
		return 0;
	/* A GPU of a list: its own table, plain rows where it has none. */
	if (target)
		a = occ_cluster_size_limit(target) ? target : NULL;
	if (!a && o->cluster.n && !target)
		die_usage("--cluster: no kernel read is compiled for a GPU with "
			  "thread-block clusters (compute capability 9.0 on)");
	if (!a)
		return 0;
	if (!o->cluster.n && !layout_given(s)) {
		kernels_clusters_warn(n);
		return 0;
	}
	/* The layout and --cluster's sizes, checked against the first
	 * table with clusters (every one from 9.0 allows 8 portably). */
	cluster_prepare(s, a);
	return 1;
}

void kernels_cluster_for(const struct options *o, const struct occ_arch *a,
			 const struct kernel_info *ki, int on,
			 struct cluster_request *req)
{
	struct cluster_item *it = &req->items[0];

	req->n = 0;
	if (!on || ki->ptx_only || !occ_cluster_size_limit(a))
		return;
	memset(it, 0, sizeof *it);
	if (!declared(ki, &it->shape, &it->source)) {
		*req = o->cluster;
		return;
	}
	/* More CTAs than the GPU's clusters take: it cannot launch as
	 * declared; its row stays the plain launch's. */
	if (it->shape.size > occ_cluster_size_limit(a))
		return;
	occ_cluster_shape_format(&it->shape, it->name, sizeof it->name);
	req->n = 1;
}

void kernels_cluster_note(struct out *out, const struct kernel_list *l,
			  const struct options *o, int on)
{
	char line[512];
	size_t n = kernels_declaring(l);

	if (!on || !n)
		return;
	snprintf(line, sizeof line, "\nClusters: %zu kernel%s declare%s %s "
		 "cluster (__cluster_dims__, or Triton's num_ctas): %s rows are "
		 "that cluster launch%s.\n", n, plural(n),
		 n == 1 ? "s" : "", n == 1 ? "its" : "their",
		 n == 1 ? "its" : "their",
		 o->cluster.n ? ", not --cluster's (a declared shape wins)" : "");
	out_text(out, line);
}
