/*
 * occcalc/partition.h - SM partitions (green contexts): how the driver
 * splits a GPU's SMs with cuDevSmResourceSplitByCount, and the GPC layout
 * each part gets, which decides the clusters it holds.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_PARTITION_H
#define OCCCALC_PARTITION_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/partition.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* cuDevSmResourceSplitByCount's useFlags, by the same bits. */
enum occ_partition_flag {
	OCC_PARTITION_IGNORE_COSCHEDULING = 1 << 0,   /* ..._IGNORE_SM_COSCHEDULING */
	OCC_PARTITION_MAX_CLUSTER_SIZE = 1 << 1       /* ..._MAX_POTENTIAL_CLUSTER_SIZE */
};

/* The split of a GPU of `sms` SMs for minCount `min_sms`. The size of a
 * group is minCount raised to the minimum partition and rounded up to the
 * alignment (9.0 on: 8 and 8, with IGNORE_COSCHEDULING 2 and 2; 8.x: 4
 * and 2; 6.x and 7.x: 2 and 2, as cuda.h's guideline says), all the SMs
 * where that is more than the GPU has. The groups, measured on H100 and
 * H200 (docs/partition.md): with IGNORE_COSCHEDULING floor(SMs / size);
 * otherwise groups of the alignment are whole units of it inside one GPC
 * (the GPC layout's sum of floor(n / alignment)), and larger groups share
 * floor(SMs / alignment) units, floor(that / (size / alignment)) groups.
 * Without a layout (NULL) groups of the alignment are bounded:
 * groups_min 0, groups_max floor(SMs / alignment). */
struct occ_partition_split {
	int min_sms, alignment;     /* the rule's */
	int group_sms;              /* SMs of each group */
	int groups;                 /* cuDevSmResourceSplitByCount's nbGroups */
	int groups_min, groups_max; /* equal to groups where it is exact */
	int remaining_sms;          /* the SMs no group has (with groups_max:
				     * the fewest) */
};

/* OCC_ERR_UNSUPPORTED below compute capability 6.0 (no green contexts),
 * or MAX_CLUSTER_SIZE below 9.0; OCC_ERR_INVALID_INPUT for both flags at
 * once (the driver answers CUDA_ERROR_INVALID_VALUE), other bits, sms
 * outside 1..1024 or min_sms outside 0..sms. */
enum occ_status occ_partition_split(const struct occ_arch *arch, int sms,
				    const struct occ_gpc_layout *layout,
				    unsigned flags, int min_sms,
				    struct occ_partition_split *out);

/* A part: group `group` (0 on) of a split, or the remainder (group -1). */
#define OCC_PARTITION_REMAINING (-1)

/* The SMs of part `group` of split s: a group's, or the SMs left over.
 * OCC_ERR_RANGE for a group the split does not make (group >=
 * groups_max) or a remainder of no SMs; OCC_ERR_UNSUPPORTED for the
 * remainder of a split that is a bound (groups_min < groups_max: the
 * GPC layout, not known, decides it); OCC_ERR_INVALID_INPUT for a group
 * below OCC_PARTITION_REMAINING. */
enum occ_status occ_partition_part_sms(const struct occ_partition_split *s,
				       int group, int *sms);

/* The GPC layout a part's SMs form, measured ("part" lines of
 * partitions.txt): `hw`, as clusters run there (a cluster's CTAs stay in
 * one GPC: what the hardware holds), and `api`, the layout that
 * reproduces every answer of cudaOccupancyMaxActiveClusters inside the
 * part's green context (the runtime counts some GPCs' SMs as smaller
 * groups than the hardware does, so it may answer fewer clusters). */
struct occ_partition_part {
	struct occ_gpc_layout hw, api;
	char source[256];
};

/* The part of GPU `name` (any case) split with those flags into groups of
 * group_sms (the first such line). OCC_ERR_UNKNOWN_ARCH when the file has
 * no such part; OCC_ERR_SYNTAX (diag: the line) for a malformed part line
 * anywhere in it; file errors as occ_gpu_layout_find. */
enum occ_status occ_partition_part_find(const char *path, const char *name,
					unsigned flags, int group_sms,
					int group,
					struct occ_partition_part *out,
					struct occ_diag *diag);

/* ---- MPS ---- */

/* The SMs an MPS client whose active-thread percentage is `pct` (1-100,
 * CUDA_MPS_ACTIVE_THREAD_PERCENTAGE or its server's) gets of a GPU of
 * gpu_sms SMs: its share rounded down to whole TPCs (2 SMs), at least 8
 * (or all the GPU's where it has fewer): max(8, 2 floor(pct x SMs /
 * 200)). Measured on an H100 (132 SMs, driver 580: docs/mps.md), where
 * cudaDevAttrMultiProcessorCount says this count and the client's
 * kernels run on exactly that many SMs; other GPUs are not measured.
 * OCC_ERR_INVALID_INPUT for pct outside 1..100 or gpu_sms outside
 * 1..1024. */
enum occ_status occ_mps_sms(int gpu_sms, int pct, int *sms);

/* "default", "ignore-coscheduling", "max-cluster-size" as partitions.txt
 * and occcalc write the flags (NULL for bits that are not one of these). */
const char *occ_partition_flags_name(unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
