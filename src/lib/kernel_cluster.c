/*
 * kernel_cluster.c - which cluster launch a kernel's row takes
 * (occcalc/kernel_row.h): a kernel whose binary records __cluster_dims__,
 * or that Triton launches with num_ctas above 1, always runs as a
 * cluster launch, so its rows are that launch; the caller's shape
 * (occcalc's --cluster) is for the others. A declared shape wins.
 */
#include "occcalc.h"

int occ_kernel_cluster_declared(const struct occ_kernel_in *k,
				const struct occ_triton_entry *launch,
				struct occ_cluster_shape *c,
				const char **source)
{
	const int *d = k->cluster[0] > 0 ? k->cluster
		       : launch && launch->launch.cluster[0] > 0
		       ? launch->launch.cluster : NULL;
	int i;

	if (!d || k->ptx_only)
		return 0;
	c->size = 1;
	for (i = 0; i < 3; i++) {
		c->dims[i] = d[i] > 0 ? d[i] : 1;
		c->size *= c->dims[i];
	}
	*source = k->cluster[0] > 0 ? "__cluster_dims__" : "num_ctas";
	return 1;
}

int occ_kernel_declares_cluster(const struct occ_tables *t,
				const struct occ_kernel_in *k,
				const struct occ_triton_entry *launch)
{
	const struct occ_arch *a;
	struct occ_cluster_shape c;
	const char *source;

	if (k->ptx_only)
		return 0;
	a = occ_tables_find(t, k->cc_major, k->cc_minor);
	return a && occ_cluster_size_limit(a) &&
	       occ_kernel_cluster_declared(k, launch, &c, &source);
}

enum occ_kernel_cluster occ_kernel_cluster_for(const struct occ_arch *a,
					       const struct occ_kernel_in *k,
					       const struct occ_triton_entry
					       *launch,
					       struct occ_cluster_shape *c,
					       const char **source)
{
	if (k->ptx_only || !occ_cluster_size_limit(a))
		return OCC_KERNEL_CLUSTER_NONE;
	if (!occ_kernel_cluster_declared(k, launch, c, source))
		return OCC_KERNEL_CLUSTER_GIVEN;
	/* More CTAs than the GPU's clusters take: it cannot launch as
	 * declared; its row stays the plain launch's. */
	if (c->size > occ_cluster_size_limit(a))
		return OCC_KERNEL_CLUSTER_NONE;
	return OCC_KERNEL_CLUSTER_DECLARED;
}
