/*
 * kernels_cluster.c - --kernels and thread-block clusters: a kernel whose
 * binary records __cluster_dims__, or that Triton launches with num_ctas
 * above 1, always runs as a cluster launch, so its rows are that launch
 * (cluster.c's model, as --cluster computes it); --cluster gives the
 * shape of the others. A declared shape wins over --cluster: the
 * library's rule (occ_kernel_cluster_for), which this calls.
 */
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* The cluster k declares into c (0 where it declares none): the
 * library's rule. */
static int declared(const struct kernel_info *k, struct occ_cluster_shape *c,
		    const char **source)
{
	struct occ_kernel_in in;

	kernel_in_of(k, &in);
	return occ_kernel_cluster_declared(&in, kernel_more(k)->launch, c,
					   source);
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

/* Whether k declares a cluster on its own table, which has clusters:
 * the library's rule. */
static int declares_with_clusters(struct session *s,
				  const struct kernel_info *k)
{
	struct occ_kernel_in in;

	kernel_in_of(k, &in);
	return occ_kernel_declares_cluster(session_tables(s), &in,
					   kernel_more(k)->launch);
}

size_t kernels_clusters_declared(struct session *s, const struct kernel_list *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += (size_t)declares_with_clusters(s, &l->k[i]);
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
	return kernels_clusters_never(s) ||
	       (s->o->cluster.n ? cluster_arch(s, k) != NULL
		: declares_with_clusters(s, k));
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
	struct occ_kernel_in in;

	req->n = 0;
	if (!on)
		return;
	memset(it, 0, sizeof *it);
	kernel_in_of(ki, &in);
	switch (occ_kernel_cluster_for(a, &in, kernel_more(ki)->launch,
				       &it->shape, &it->source)) {
	case OCC_KERNEL_CLUSTER_GIVEN:
		*req = o->cluster;
		break;
	case OCC_KERNEL_CLUSTER_DECLARED:
		occ_cluster_shape_format(&it->shape, it->name, sizeof it->name);
		req->n = 1;
		break;
	case OCC_KERNEL_CLUSTER_NONE:
		break;
	}
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
