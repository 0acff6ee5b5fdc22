/*
 * model.c - a traced launch on the GPU it ran on: the table of its
 * compute capability under the properties the trace recorded, the
 * launch's own shared memory and the carveout the driver ran it with.
 */
#include <string.h>

#include "launches_int.h"

/* A traced device is modelled as any device is (occcalc/target.h):
 * one rule for what its properties put over its table. */
enum occ_status occ_launch_arch(const struct occ_tables *t,
				const struct occ_launch_device *d,
				struct occ_arch *arch)
{
	struct occ_target target;
	enum occ_status st = occ_target_device(t, d, 0, &target);

	if (st != OCC_ERR_UNKNOWN_ARCH)
		*arch = target.arch;
	return st;
}

const char *occ_launch_device_fault(const struct occ_tables *t,
				    const struct occ_launch_device *d)
{
	struct occ_target target;

	occ_target_device(t, d, 0, &target);
	return target.fault;
}

/* x * y * z of a launch's dimensions, or -1 beyond int64. */
static int64_t dims_product(const int64_t v[3])
{
	int64_t p;

	if (v[0] < 0 || v[1] < 0 || v[2] < 0 ||
	    __builtin_mul_overflow(v[0], v[1], &p) ||
	    __builtin_mul_overflow(p, v[2], &p))
		return -1;
	return p;
}

static void kernel_of(const struct occ_launch_record *l, struct occ_kernel *k,
		      unsigned *unknown)
{
	occ_kernel_init(k);
	k->regs_per_thread = l->regs;
	if (l->static_smem >= 0 && l->dynamic_smem >= 0) {
		k->static_smem = (uint64_t)l->static_smem;
		k->dynamic_smem = (uint64_t)l->dynamic_smem;
	} else {
		/* Kineto records the sum: as dynamic, which only the
		 * static-over-48-KB check could tell apart. */
		k->dynamic_smem = (uint64_t)l->smem_total;
		*unknown |= OCC_LAUNCH_UNKNOWN_SMEM_SPLIT;
	}
	/* It ran: over sharedMemPerBlock, it had opted in. */
	k->optin = 1;
}

/* A cluster launch the hardware would have refused: a dimension of 0
 * beside others, a grid the clusters do not tile, a cluster larger than
 * any of the architecture's. */
static int cluster_impossible(const struct occ_arch *a,
			      const struct occ_launch_record *l, int64_t size)
{
	int i, zeros = 0;

	for (i = 0; i < 3; i++)
		zeros += l->cluster[i] == 0;
	if (zeros == 3)
		return 0;
	if (zeros)
		return 1;
	for (i = 0; i < 3; i++)
		if (l->grid[i] % l->cluster[i] != 0)
			return 1;
	if (size <= 1)
		return 0;
	return !a->cluster_size_portable ||
	       size > (a->cluster_size_max ? a->cluster_size_max
					   : a->cluster_size_portable);
}

static enum occ_status cluster_of(const struct occ_arch *a,
				  const struct occ_launch_record *l,
				  const struct occ_gpc_layout *layout,
				  const struct occ_gpc_layout *api,
				  struct occ_launch_model *m)
{
	int64_t size = dims_product(l->cluster);

	if (l->cluster[0] < 0) {
		m->unknown |= OCC_LAUNCH_UNKNOWN_CLUSTER;
		return OCC_OK;
	}
	if (size < 0 || cluster_impossible(a, l, size)) {
		m->fault = OCC_LAUNCH_FAULT_CLUSTER;
		return OCC_ERR_INCONSISTENT;
	}
	if (size <= 1)
		return OCC_OK;
	m->cluster_size = (int)size;
	if (!layout) {
		m->unknown |= OCC_LAUNCH_UNKNOWN_LAYOUT;
		return OCC_OK;
	}
	m->has_cluster = (api ? occ_cluster_part_compute(a, &m->result,
					layout, api, m->cluster_size, &m->cluster)
			      : occ_cluster_compute(a, &m->result, layout,
					m->cluster_size, &m->cluster)) == OCC_OK;
	return OCC_OK;
}

static void waves_of(struct occ_launch_model *m)
{
	int64_t per_wave;

	if (m->result.blocks_per_sm < 1 || m->sms < 1)
		return;
	per_wave = (int64_t)m->result.blocks_per_sm * m->sms;
	m->waves_fraction = (double)m->blocks / (double)per_wave;
	if (m->blocks > INT32_MAX) {
		m->unknown |= OCC_LAUNCH_UNKNOWN_WAVES;
		return;
	}
	m->has_waves = occ_waves(&m->result, m->blocks, m->sms,
				 &m->waves) == OCC_OK;
}

/* A cluster launch's waves are of the blocks its resident clusters hold
 * (occ_cluster_waves), fewer than blocks per SM x SMs where the GPCs
 * leave SMs over; waves_fraction stays Nsight Compute's, per SM. */
static void cluster_waves_of(struct occ_launch_model *m)
{
	struct occ_waves w;

	if (m->has_cluster && m->blocks <= INT32_MAX &&
	    occ_cluster_waves(&m->cluster, m->blocks, m->sms, &w) == OCC_OK) {
		m->waves = w;
		m->has_waves = 1;
	}
}

/* Whether the SM could have run the launch with `executed` bytes of
 * shared memory: a carveout of the device's that holds one block. */
static int executed_possible(const struct occ_arch *a,
			     const struct occ_kernel *k, uint64_t executed)
{
	uint64_t block = occ_round_up(k->static_smem + k->dynamic_smem +
				      a->smem_reserved_per_block,
				      a->smem_alloc_unit);
	int i;

	if (executed > a->smem_per_sm || executed < block)
		return 0;
	for (i = 0; i < a->n_smem_carveouts; i++)
		if (a->smem_carveouts[i] == executed)
			return 1;
	return a->n_smem_carveouts == 0;
}

/* The architecture as the launch ran on it: the SM's shared memory the
 * carveout the driver chose, where recorded. A recorded carveout the
 * launch cannot have run with is not taken: the launch is modelled at
 * the largest, as where none is recorded. Nor is one of a launch the
 * range profiler measured (--achieved): CUPTI records 0, or carveouts
 * the launch did not run with. Measured on an H200
 * (docs/pytorch-traces): cunn_SoftMaxBackwardSmem, blocks of 16,448 B,
 * recorded 32 KB (1 block, 25 %) and achieved 83 %, where the same
 * launches outside the profiler ran with 132 KB (4 blocks, 100 %). */
static void arch_as_run(const struct occ_arch *arch,
			const struct occ_launch_record *l,
			const struct occ_kernel *k, struct occ_arch *a,
			unsigned *unknown)
{
	*a = *arch;
	if (l->smem_executed <= 0) {
		*unknown |= OCC_LAUNCH_UNKNOWN_CARVEOUT;
		return;
	}
	if (l->achieved_occupancy_pct >= 0 ||
	    !executed_possible(arch, k, (uint64_t)l->smem_executed)) {
		*unknown |= OCC_LAUNCH_UNKNOWN_CARVEOUT |
			    OCC_LAUNCH_UNKNOWN_SMEM_EXECUTED;
		return;
	}
	/* The SM ran with this much: no carveout left to choose. */
	a->smem_per_sm = (uint64_t)l->smem_executed;
	a->n_smem_carveouts = 0;
}

/* The kernel of a launch of a valid shape: OCC_ERR_INVALID_INPUT else. */
static enum occ_status launch_kernel(const struct occ_launch_record *l,
				     struct occ_launch_model *m)
{
	m->threads_per_block = dims_product(l->block);
	m->blocks = dims_product(l->grid);
	if (m->threads_per_block < 1 || m->threads_per_block > INT32_MAX ||
	    m->blocks < 1 || l->regs < 0 || l->smem_total < 0)
		return OCC_ERR_INVALID_INPUT;
	kernel_of(l, &m->kernel, &m->unknown);
	m->kernel.block_size = (int)m->threads_per_block;
	return OCC_OK;
}

enum occ_status occ_launch_headroom(const struct occ_arch *arch,
				    const struct occ_launch_record *l,
				    struct occ_headroom *h)
{
	struct occ_launch_model m;
	enum occ_status st;

	memset(&m, 0, sizeof m);
	st = launch_kernel(l, &m);
	if (st != OCC_OK)
		return st;
	/* Not at the carveout it ran with: with other resources the
	 * driver chooses another. */
	return occ_headroom(arch, &m.kernel, h);
}

/* api: in a measured part, the layout the runtime counts there (NULL
 * elsewhere). */
static enum occ_status compute(const struct occ_arch *arch, int sms,
			       const struct occ_launch_record *l,
			       const struct occ_gpc_layout *layout,
			       const struct occ_gpc_layout *api,
			       struct occ_launch_model *m)
{
	struct occ_arch a;
	enum occ_status st;

	memset(m, 0, sizeof *m);
	m->sms = sms;
	st = launch_kernel(l, m);
	if (st == OCC_OK && sms < 1)
		st = OCC_ERR_INVALID_INPUT;
	if (st != OCC_OK) {
		m->fault = OCC_LAUNCH_FAULT_SHAPE;
		return st;
	}
	arch_as_run(arch, l, &m->kernel, &a, &m->unknown);
	st = occ_compute(&a, &m->kernel, &m->result);
	if (st != OCC_OK) {
		m->fault = OCC_LAUNCH_FAULT_SHAPE;
		return st;
	}
	/* It ran, so a block of it fit: a model that says none does was
	 * given a record that contradicts itself or its device. */
	if (m->result.blocks_per_sm < 1) {
		m->fault = OCC_LAUNCH_FAULT_NO_FIT;
		return OCC_ERR_INCONSISTENT;
	}
	st = cluster_of(&a, l, layout, api, m);
	if (st != OCC_OK)
		return st;
	waves_of(m);
	cluster_waves_of(m);
	/* Refused at launch in the part: no wave of it runs there. */
	if (m->has_cluster && m->cluster.reason == OCC_CLUSTER_REFUSED_IN_PART)
		m->has_waves = 0;
	return OCC_OK;
}

enum occ_status occ_launch_compute(const struct occ_arch *arch, int sms,
				   const struct occ_launch_record *l,
				   const struct occ_gpc_layout *layout,
				   struct occ_launch_model *m)
{
	return compute(arch, sms, l, layout, NULL, m);
}

enum occ_status occ_launch_part_compute(const struct occ_arch *arch,
					const struct occ_launch_part *p,
					const struct occ_launch_record *l,
					struct occ_launch_model *m)
{
	return compute(arch, p->sms, l, p->measured ? &p->layout : NULL,
		       p->measured ? &p->api : NULL, m);
}
