/*
 * launch_target.c - which GPU a traced launch is modelled on, and a
 * launch as it would run on a GPU other than its own (a what-if): there
 * the driver would choose the carveout afresh, and a launch that does
 * not fit is one that cannot run, not a record that contradicts itself.
 */
#include <string.h>

#include "launches_int.h"

enum occ_launch_basis occ_launch_basis_of(const struct occ_launch_device *traced,
					  const struct occ_launch_device *named,
					  const struct occ_launch_device **on)
{
	enum occ_launch_basis b = named && traced ? OCC_LAUNCH_BASIS_WHAT_IF
				  : named ? OCC_LAUNCH_BASIS_NAMED
				  : traced ? OCC_LAUNCH_BASIS_TRACED
				  : OCC_LAUNCH_BASIS_NONE;

	if (on)
		*on = named ? named : traced;
	return b;
}

enum occ_status occ_launch_device_of_gpu(const struct occ_gpu *g, int id,
					 struct occ_launch_device *d)
{
	memset(d, 0, sizeof *d);
	if (g->sms < 1)
		return OCC_ERR_INVALID_INPUT;
	d->device = id;
	occ_copy_string(d->name, sizeof d->name, g->name);
	d->major = g->cc_major;
	d->minor = g->cc_minor;
	d->multiProcessorCount = g->sms;
	return OCC_OK;
}

/* Whether arch runs clusters of the launch's size at all: a what-if on
 * an older GPU, or one whose largest cluster is smaller. */
static int clusters_run(const struct occ_arch *a,
			const struct occ_launch_record *l)
{
	int64_t size = 1;
	int i;

	if (l->cluster[0] <= 0)
		return 1;
	for (i = 0; i < 3; i++)
		size *= l->cluster[i] > 0 ? l->cluster[i] : 1;
	if (size <= 1)
		return 1;
	return a->cluster_size_portable &&
	       size <= (a->cluster_size_max ? a->cluster_size_max
					    : a->cluster_size_portable);
}

enum occ_status occ_launch_compute_on(enum occ_launch_basis basis,
				      const struct occ_arch *arch, int sms,
				      const struct occ_launch_record *l,
				      const struct occ_gpc_layout *layout,
				      struct occ_launch_model *m)
{
	struct occ_launch_record w;
	enum occ_status st;

	if (basis != OCC_LAUNCH_BASIS_WHAT_IF)
		return occ_launch_compute(arch, sms, l, layout, m);
	/* The carveout and the profiler's figures are of the GPU it ran on. */
	w = *l;
	w.smem_executed = -1;
	w.achieved_occupancy_pct = -1;
	if (!clusters_run(arch, &w)) {
		memset(m, 0, sizeof *m);
		m->sms = sms;
		m->fault = OCC_LAUNCH_FAULT_CLUSTER;
		return OCC_ERR_UNSUPPORTED;
	}
	st = occ_launch_compute(arch, sms, &w, layout, m);
	/* No carveout was recorded for this GPU: the model's choice is
	 * the driver's, nothing unknown. */
	m->unknown &= ~(unsigned)OCC_LAUNCH_UNKNOWN_CARVEOUT;
	if (st == OCC_ERR_INCONSISTENT && m->fault == OCC_LAUNCH_FAULT_NO_FIT) {
		m->fault = OCC_LAUNCH_FAULT_NONE;
		return OCC_OK;
	}
	return st;
}
