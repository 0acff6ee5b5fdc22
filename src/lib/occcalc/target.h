/*
 * occcalc/target.h - the GPU being modelled: its architecture (a table,
 * or a device's properties over its table), its SMs and its GPC layout,
 * each found by one rule whichever way the GPU was named (a compute
 * capability's table, a device, a name of the GPU list), and a part of
 * its SMs (a green context's). Part of the
 * occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_TARGET_H
#define OCCCALC_TARGET_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/target.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Where a target's GPC layout came from (occ_target_layout), in the
 * order they are tried. */
enum occ_layout_basis {
	OCC_LAYOUT_NONE = 0,    /* not known, nor the SMs as one group */
	OCC_LAYOUT_GIVEN,       /* the caller's (occcalc --layout) */
	OCC_LAYOUT_MEASURED,    /* measured on the device */
	OCC_LAYOUT_LISTED,      /* the GPU list's 'layout' line */
	OCC_LAYOUT_BOUND,       /* not measured: the list's 'gpcs' counts,
	                           which bound each figure
	                           (occ_layout_most_clusters) */
	OCC_LAYOUT_WHOLE        /* no GPCs known: all the SMs as one group,
	                           which bounds each figure */
};

/* Whether a basis gives the GPCs themselves (given, measured, listed),
 * not a bound on them. */
int occ_layout_basis_exact(enum occ_layout_basis b);

/* The GPU modelled. */
struct occ_target {
	struct occ_arch arch;            /* what the model computes with */
	const struct occ_arch *table;    /* the table under it */
	int borrowed;                    /* table is of a lower compute
	                                    capability: the GPU's has none */
	const char *fault;               /* occ_target_device: the property
	                                    (cudaDeviceProp's name) no GPU
	                                    of its compute capability has */
	int sms;                         /* 0: not known; the caller may
	                                    set it (occcalc --sms) */
	const struct occ_gpu *gpu;       /* its entry in the GPU list (in
	                                    the caller's list), or NULL */
	/* occ_target_layout's answer. layout: the GPCs (exact bases); for
	 * BOUND only its sms; for WHOLE one GPC of all the SMs; for NONE
	 * its sms are those known (0: none), too many for one group. */
	enum occ_layout_basis basis;
	struct occ_gpc_layout layout;
	struct occ_gpc_counts counts;    /* BOUND: the list's */
	char source[256];                /* LISTED, BOUND, WHOLE of the list's
	                                    SMs: the list line's source; "" */
	/* The first candidate passed over because its SMs are not the
	 * target's (NONE: none), and its SMs. */
	enum occ_layout_basis mismatch;
	int mismatch_sms;
};

/* A table as it is: the target of a compute capability (--arch). */
void occ_target_table(const struct occ_arch *table, struct occ_target *t);

/* A GPU of the list by name (as occ_gpus_match finds it): its compute
 * capability's table, its SMs, its entry (a pointer into gpus).
 * OCC_ERR_UNKNOWN_ARCH unless exactly one GPU matches or when no table
 * has its compute capability. */
enum occ_status occ_target_gpu(const struct occ_tables *tables,
			       const struct occ_gpus *gpus, const char *name,
			       struct occ_target *t);

/* Flags of occ_target_device. */
enum occ_target_flag {
	/* A device whose compute capability has no table takes what it
	 * does not report (allocation units, carveouts, barriers...) from
	 * the newest table below it (t->borrowed), its own compute
	 * capability kept; without it, OCC_ERR_UNKNOWN_ARCH. */
	OCC_TARGET_BORROW = 1u << 0
};

/* A device as its properties describe it (struct occ_launch_device:
 * cudaDeviceProp's names; 0 for a property not known): the table of its
 * compute capability with each property it gives put over the table's,
 * the carveouts clipped to its shared memory where that is less than
 * the table's, its SMs its multiProcessorCount. OCC_ERR_UNKNOWN_ARCH
 * when no table serves it; OCC_ERR_INCONSISTENT (t->fault names the
 * property) when the properties cannot be those of an NVIDIA GPU of
 * that compute capability: outside a table's range or contradicting
 * each other (occ_arch_check), a warp other than the table's, no SMs or
 * more than 65536. t->arch holds the merge either way. */
enum occ_status occ_target_device(const struct occ_tables *tables,
				  const struct occ_launch_device *d,
				  unsigned flags, struct occ_target *t);

/* Whether a device's properties give this table key (the device's value
 * wins over the table's). */
int occ_target_device_key(const struct occ_key *key);

/* What is known of the target's GPCs, for occ_target_layout. */
struct occ_layout_request {
	const struct occ_gpc_layout *given;     /* or NULL */
	/* Measured on the device: taken whatever its SMs (those that ran
	 * clusters), or NULL. */
	const struct occ_gpc_layout *measured;
	/* The GPU list and its file (the 'layout' lines): the entry of
	 * `name` (a device's name) is looked for there where t->gpu is
	 * NULL. Either may be NULL: no list. */
	const struct occ_gpus *gpus;
	const char *gpus_path;
	const char *name;
	unsigned flags;                         /* enum occ_layout_flag */
	/* The list's layout of the entry, read already (occ_gpu_layout_find
	 * once, for a caller that asks many times): taken for gpus_path's,
	 * which is then not read. */
	const struct occ_gpu_layout *listed;
};

enum occ_layout_flag {
	/* A candidate whose SMs are not the target's is an error
	 * (OCC_ERR_INCONSISTENT, t->mismatch saying which), not passed
	 * over. */
	OCC_LAYOUT_SMS_STRICT = 1u << 0
};

/* The target's GPC layout, the first of: given, measured, the list's
 * layout of its entry, the list's GPC counts of it (BOUND), all its SMs
 * as one group of at most OCC_MAX_SMS_PER_GPC (WHOLE: the entry's SMs,
 * else t->sms), else NONE. A candidate of other SMs than a known
 * t->sms is passed over (t->mismatch), the whole taken of t->sms. Where
 * t->sms is 0 it becomes the layout's. OCC_OK (t->basis says which,
 * NONE included); errors of the list as occ_gpu_layout_find (diag),
 * never passed over; OCC_ERR_INCONSISTENT as above. */
enum occ_status occ_target_layout(struct occ_target *t,
				  const struct occ_layout_request *r,
				  struct occ_diag *diag);

/* Part `group` (or OCC_PARTITION_REMAINING) of the target's t->sms SMs
 * split with flags (enum occ_partition_flag) into groups of at least
 * min_sms, as cuDevSmResourceSplitByCount makes it (occ_partition_split,
 * its alignment's groups decided by t's layout where exact and of its
 * SMs, else their count a bound), and the part's GPCs where
 * partitions.txt (parts_path, NULL: none) measured that part of t's
 * entry, of its compute capability, with no layout given (p->measured;
 * a part line of other SMs is another chip's). Then
 * occ_launch_part_compute computes a launch in the part. Errors: those
 * of occ_partition_split (p->split.group_sms 0; min_sms above the SMs:
 * OCC_ERR_INVALID_INPUT), of occ_partition_part_sms, and of
 * occ_partition_part_find other than no such part (diag). */
enum occ_status occ_target_part(const struct occ_target *t,
				const char *parts_path, unsigned flags,
				int min_sms, int group,
				struct occ_launch_part *p, struct occ_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
