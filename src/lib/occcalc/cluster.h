/*
 * occcalc/cluster.h - thread-block clusters: how many a GPU holds at once.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_CLUSTER_H
#define OCCCALC_CLUSTER_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/cluster.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Thread-block clusters (compute capability 9.0 on) ---- */

/* A cluster's CTAs run at once on distinct SMs of one GPC; a layout lists
 * the SMs each GPC offers the cluster scheduler. */
#define OCC_MAX_GPCS 128
#define OCC_MAX_SMS_PER_GPC 256

struct occ_gpc_layout {
	int n_gpcs;
	int sms_per_gpc[OCC_MAX_GPCS];  /* in the order given or measured */
	int sms;                        /* their sum */
};

/* Parses a layout: comma-separated entries, each N (one GPC of N SMs) or
 * NxK (K GPCs of N SMs each), e.g. "8,16x5,18x2,2x4". N is 1-256, at most
 * 128 GPCs in all, no spaces. OCC_ERR_INVALID_INPUT with *pos the 1-based
 * column of the first character that is wrong (pos may be NULL). */
enum occ_status occ_layout_parse(const char *s, struct occ_gpc_layout *l,
				 size_t *pos);

/* The layout in that syntax, runs of equal GPCs as NxK; as snprintf. */
int occ_layout_format(const struct occ_gpc_layout *l, char *buf, size_t n);

/* A GPU's layout from the GPU list ("layout NAME LAYOUT SOURCE"). */
struct occ_gpu_layout {
	struct occ_gpc_layout layout;
	char source[256];
};

/* OCC_ERR_UNKNOWN_ARCH when the list has no layout for name (any case);
 * OCC_ERR_SYNTAX (diag: the line) for a malformed layout line;
 * OCC_ERR_LINE_TOO_LONG (diag: the line and the limit);
 * OCC_ERR_NOT_REGULAR for a list that is not a regular file; OCC_ERR_IO. */
enum occ_status occ_gpu_layout_find(const char *path, const char *name,
				    struct occ_gpu_layout *out,
				    struct occ_diag *diag);

/* What NVIDIA publishes of a GPU's GPCs where no layout was measured:
 * its SMs (1-1024), how many GPCs hold them at least (1-128: each
 * published GPC is one or more of the groups the cluster scheduler sees),
 * and the most SMs one GPC has (the full chip's, 1-256). */
struct occ_gpc_counts {
	int sms, gpcs, sms_per_gpc_max;
};

/* The layout with those counts (at least `gpcs` GPCs of 1 to
 * sms_per_gpc_max SMs, `sms` in all) that holds the most clusters of
 * `size` CTAs of the kernel r, in *out (of equals, the fewest GPCs). No
 * chip with those counts holds more: a GPC split into groups never holds
 * more clusters than whole. It may hold fewer: measured H100s and H200s
 * keep 4 pairs of SMs apart from their 8 GPCs (docs/cluster-h100), so no
 * lower bound follows from the counts. Errors as occ_cluster_compute, and
 * OCC_ERR_INVALID_INPUT for counts out of range or that no layout has. */
enum occ_status occ_layout_most_clusters(const struct occ_arch *arch,
					 const struct occ_result *r,
					 const struct occ_gpc_counts *counts,
					 int size, struct occ_gpc_layout *out);

/* A cluster's shape: x, y, z CTAs; size is their product. */
struct occ_cluster_shape {
	int dims[3];
	int size;
};

/* Parses "N", "AxB" or "AxBxC" (each 1-1024); errors as occ_layout_parse.
 * Whether the size is allowed is occ_cluster_compute's to say. */
enum occ_status occ_cluster_parse(const char *s, struct occ_cluster_shape *c,
				  size_t *pos);

/* What limits the clusters resident at once, as bits: the SM's resources
 * (occ_result.limiters say which), the most blocks an SM holds in a
 * cluster launch, and GPCs (a cluster stays in one: slots are left over in
 * a GPC, or a GPC has fewer SMs than the cluster has CTAs). */
enum occ_cluster_limit {
	OCC_CLUSTER_LIMIT_SM = 1 << 0,
	OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS = 1 << 1,
	OCC_CLUSTER_LIMIT_GPC = 1 << 2
};

/* Why no cluster is resident (max_active_clusters == 0). */
enum occ_cluster_reason {
	OCC_CLUSTER_FITS = 0,
	OCC_CLUSTER_NO_BLOCKS,          /* the kernel does not launch at all */
	OCC_CLUSTER_LARGER_THAN_GPCS,   /* more CTAs than any GPC has SMs */
	OCC_CLUSTER_REFUSED_IN_PART     /* in a part (green context) the
					   runtime counts 0 of and refuses */
};

struct occ_cluster_result {
	int size, portable;        /* CTAs; size <= clusterSizePortable */
	int blocks_per_sm;         /* an SM's blocks in a cluster launch */
	int max_active_clusters;   /* resident on the GPU at once */
	int64_t active_blocks;     /* max_active_clusters x size */
	unsigned limiters;         /* enum occ_cluster_limit bits */
	enum occ_cluster_reason reason;
	int gpcs_used, gpcs_too_small;  /* holding a cluster; below size */
	int64_t idle_slots;        /* cluster-launch block slots left empty */
	int largest_gpc;           /* SMs */
	int64_t active_warps;      /* active_blocks x warps per block */
	int64_t warp_slots;        /* the GPU's: SMs x max warps per SM */
};

/* Clusters of `size` CTAs of a kernel whose plain occupancy is r, on a GPU
 * of that layout: each GPC of n >= size SMs holds floor(n x b / size), b
 * being r's blocks per SM capped at clusterBlocksPerMultiprocessor (the
 * runtime's rule, which an H200 reaches: docs/cluster-research.md).
 * A table that gives only clusterSizePortable (Blackwell: NVIDIA documents
 * neither clusterBlocksPerMultiprocessor nor clusterSizeMax there) takes
 * sizes up to the portable one and b uncapped, r's own: a cluster launch
 * holds no more blocks per SM than the plain launch, and the clusters a
 * GPC holds grow with b, so the result is an upper bound whatever the
 * unknown cap (occ_cluster_cap_unknown).
 * OCC_ERR_UNSUPPORTED below compute capability 9.0 or for a table without
 * cluster figures; OCC_ERR_INVALID_INPUT for a size outside
 * 1..clusterSizeMax (clusterSizePortable without it) or a bad layout. */
enum occ_status occ_cluster_compute(const struct occ_arch *arch,
				    const struct occ_result *r,
				    const struct occ_gpc_layout *layout,
				    int size, struct occ_cluster_result *out);

/* Whether arch has clusters whose blocks-per-SM cap (and largest
 * non-portable size) its table does not give: occ_cluster_compute's
 * figures are then upper bounds. */
int occ_cluster_cap_unknown(const struct occ_arch *arch);
/* The most CTAs a cluster computed on arch may have: clusterSizeMax, or
 * where the table gives only the portable size (Blackwell), that; 0 where
 * arch has no clusters. */
int occ_cluster_size_limit(const struct occ_arch *arch);

/* Occupancy over the whole GPU, percent: active warps over warp slots. */
double occ_cluster_percent(const struct occ_cluster_result *c);

/* Waves of a grid of `grid` blocks launched in clusters of c->size, on
 * sms SMs: a wave is the blocks of the clusters resident at once
 * (c->active_blocks), fewer than a plain launch's blocks per SM x SMs
 * where GPCs leave SMs over or the cluster cap binds (H100 SXM, 40
 * registers, 128 threads, clusters of 4: 992 blocks, not 1,584). Its
 * per-SM figures are the cluster launch's (c->blocks_per_sm): the
 * fewest blocks per SM finishing in as many waves is not sought.
 * OCC_ERR_INVALID_INPUT for a grid outside 1..2^31-1 or not a multiple
 * of the cluster's size (CUDA refuses such a launch), fewer than 1 SM,
 * or a launch with no cluster resident. */
enum occ_status occ_cluster_waves(const struct occ_cluster_result *c,
				  int64_t grid, int sms, struct occ_waves *w);

/* potential: what cudaOccupancyMaxPotentialClusterSize answers, the
 * largest size (up to clusterSizePortable, or clusterSizeMax when
 * non-portable sizes are allowed) with a cluster resident (0: none);
 * most_blocks: the size with the most CTAs resident (of equals, the
 * largest). */
struct occ_cluster_best {
	int potential;
	struct occ_cluster_result potential_result;
	int most_blocks;
	struct occ_cluster_result most_blocks_result;
};

enum occ_status occ_cluster_best(const struct occ_arch *arch,
				 const struct occ_result *r,
				 const struct occ_gpc_layout *layout,
				 int nonportable, struct occ_cluster_best *b);

/* ---- Inside a part of the GPU (a green context) ---- */

/* Clusters of `size` CTAs in a part whose two layouts are measured
 * (occ_partition_part): hw, the GPCs its clusters run in, and api, the
 * one cudaOccupancyMaxActiveClusters counts there. The runtime refuses
 * to launch (cudaErrorInvalidClusterSize) every size it counts 0 of, even
 * where hw's GPCs have the SMs: measured on an H200 (docs/partition.md),
 * 75 of 75 such launches refused. So a size no GPC of api holds has no
 * cluster (reason OCC_CLUSTER_REFUSED_IN_PART); any other is
 * occ_cluster_compute's on hw, which launches reach. Errors as
 * occ_cluster_compute's, and OCC_ERR_INVALID_INPUT where the two layouts
 * have different SM counts. */
enum occ_status occ_cluster_part_compute(const struct occ_arch *arch,
					 const struct occ_result *r,
					 const struct occ_gpc_layout *hw,
					 const struct occ_gpc_layout *api,
					 int size,
					 struct occ_cluster_result *out);
/* occ_cluster_best in such a part: its sizes are occ_cluster_part_compute's,
 * so that the potential size is the largest that launches there (what
 * cudaOccupancyMaxPotentialClusterSize answers in the part). */
enum occ_status occ_cluster_part_best(const struct occ_arch *arch,
				      const struct occ_result *r,
				      const struct occ_gpc_layout *hw,
				      const struct occ_gpc_layout *api,
				      int nonportable,
				      struct occ_cluster_best *b);

/* A CTA of a measured cluster launch: SM, cluster, and when it started and
 * ended by a clock common to all SMs (%globaltimer, ns). */
struct occ_cta_sample {
	uint64_t start, end;
	uint32_t sm, cluster;
};

struct occ_cluster_residency {
	/* The most clusters resident at once: a cluster is resident from its
	 * first CTA's start to its last CTA's end; one that starts when
	 * another ends is not beside it. */
	int max_clusters;
	int clusters;              /* clusters seen */
	int shared_sm;             /* clusters with two CTAs on one SM */
};

/* Reorders s. OCC_ERR_INVALID_INPUT for n == 0 or a sample ending before
 * it starts; OCC_ERR_NOMEM. */
enum occ_status occ_cluster_residency(struct occ_cta_sample *s, size_t n,
				      struct occ_cluster_residency *out);

/* The layout that launches reveal: SMs below `sms` that ever held CTAs of
 * one cluster are joined into one GPC; GPCs are ordered by their lowest
 * SM. gpc_of (sms entries, or NULL) receives each SM's GPC, -1 for an SM
 * no sample ran on. OCC_ERR_INVALID_INPUT for an SM number >= sms or more
 * than OCC_MAX_GPCS groups; OCC_ERR_NOMEM. */
enum occ_status occ_layout_from_samples(const struct occ_cta_sample *s,
					size_t n, int sms,
					struct occ_gpc_layout *l, int *gpc_of);

const char *occ_cluster_limit_name(enum occ_cluster_limit bit);
const char *occ_cluster_reason_name(enum occ_cluster_reason reason);

#ifdef __cplusplus
}
#endif

#endif
