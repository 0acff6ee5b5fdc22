/*
 * occcalc/cluster_row.h - a configuration's cluster launch as occcalc's
 * occupancy rows show it (`occcalc --gpu NAME --cluster SHAPE`): the GPC
 * layout it is computed on and where that comes from, the clusters
 * resident at once, the sizes the layout recommends; occ_cluster_kind
 * holds its fields under the command line's names (occcalc/fields.h).
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_CLUSTER_ROW_H
#define OCCCALC_CLUSTER_ROW_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/cluster_row.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The GPC layout a run's cluster launches are computed on, as their
 * rows say it. */
struct occ_cluster_layout {
	struct occ_gpc_layout l;         /* bound: only its SMs (each row
					    finds its own); whole: the SMs
					    as one GPC */
	char text[512];                  /* 8,16x5,18x2,2x4, or what is
					    known */
	char source[320];                /* where it comes from */
	int from_list;                   /* the GPU list's: one chip's */
	int bound;                       /* not measured: each row's is the
					    most the counts allow */
	int whole;                       /* no GPCs known */
	int cap_unknown;                 /* no cluster blocks-per-SM cap in
					    the table (occ_cluster_cap_unknown) */
	int mps;                         /* measured by an MPS client, whose
					    runtime answers fewer */
	struct occ_gpc_counts counts;    /* bound: the list's counts */
};

/* The layout of t (occ_target_layout's answer) for clusters on t->arch,
 * worded as occcalc words it: given (source "--layout"), the list's
 * ("the GPU list (NAME): SOURCE"), bounded by its counts, or its SMs as
 * one group (from the list, or "--sms"); name is the GPU's in the list.
 * A measured layout's source is the caller's to word (and its mps).
 * OCC_ERR_INVALID_INPUT where t has none (OCC_LAYOUT_NONE). */
enum occ_status occ_cluster_layout_of(const struct occ_target *t,
				      const char *name,
				      struct occ_cluster_layout *L);
/* The layout's text for exact GPCs (not bound, not whole): l's. */
void occ_cluster_layout_text(struct occ_cluster_layout *L);
/* Whether rows on L are upper bounds: no layout measured, no GPCs known,
 * no cluster blocks-per-SM cap known, or an MPS client's. */
int occ_cluster_layout_bound(const struct occ_cluster_layout *L);

/* The GPCs of one size of a layout and what one of them holds alone. */
struct occ_cluster_gpc {
	int sms, count;
	struct occ_cluster_result c;
};

/* What a row's cluster launch is. */
struct occ_cluster_query {
	struct occ_cluster_shape shape;  /* ignored with best */
	int best;                        /* the portable size with the most
					    CTAs resident */
	const char *name;                /* as given ("2x2"); NULL: the
					    shape's */
	const char *source;              /* what set it (__cluster_dims__,
					    num_ctas); NULL: given (occcalc's
					    --cluster) */
	/* In a part of the GPU (a green context) measured: the GPCs the
	 * runtime counts there, whose refusals the model's figures follow
	 * (occ_cluster_part_compute); NULL elsewhere. */
	const struct occ_gpc_layout *api;
};

struct occ_cluster_row {
	struct occ_cluster_shape shape;
	char name[24];                   /* "2x2", "4" */
	int best;
	const char *source;
	struct occ_cluster_result c;     /* an upper bound where
					    occ_cluster_layout_bound */
	struct occ_gpc_layout own;       /* bound: the layout that gives c */
	struct occ_cluster_gpc kinds[OCC_MAX_GPCS];   /* the layout's order */
	int n_kinds;
	struct occ_cluster_best portable, nonportable;
	/* With q->api: what the runtime answers in the part. */
	int have_part_api;
	struct occ_cluster_result part_api;
	struct occ_cluster_best part_api_portable, part_api_nonportable;
	const struct occ_cluster_layout *layout;   /* L, which must outlive
						      the row */
};

/* The cluster launch q of the configuration row (occ_config_compute) on
 * L: OCC_OK; errors of occ_layout_most_clusters, occ_cluster_best and
 * occ_cluster_compute (a size the table refuses: OCC_ERR_INVALID_INPUT). */
enum occ_status occ_cluster_row_compute(const struct occ_config_row *row,
					const struct occ_cluster_layout *L,
					const struct occ_cluster_query *q,
					struct occ_cluster_row *cl);
/* The configuration's waves in that launch: what its clusters hold at
 * once (occ_cluster_waves); none where it has none or they fail. */
void occ_cluster_row_waves(const struct occ_cluster_row *cl,
			   struct occ_config_row *row);

/* A cluster shape as occcalc writes it: "4", "2x2", "2x2x2". */
void occ_cluster_shape_format(const struct occ_cluster_shape *c, char *buf,
			      size_t n);
/* The names of the limits set in bits (enum occ_cluster_limit), in one
 * order for every output; how many (at most 3). */
size_t occ_cluster_limiter_names(unsigned bits, const char *names[3]);

/* The fields of a cluster launch (struct occ_cluster_row rows): cluster,
 * cluster_size, max_active_clusters, ..., layout, layout_source,
 * cluster_bound. An occupancy row with one is occ_config_kind's fields of
 * the configuration (its waves occ_cluster_row_waves'), then these. */
extern const struct occ_row_kind occ_cluster_kind;
/* That row's object: the configuration's fields, then the cluster
 * launch's, into buf as occ_row_json. */
size_t occ_cluster_config_json(const struct occ_config_row *row,
			       const struct occ_cluster_row *cl, char *buf,
			       size_t cap);

/* The fields' entries, for a table of rows that hold a cluster launch
 * elsewhere (occcalc's): a table defines OCC_CLUSTER_FIELD(name, type,
 * desc, getter, text column...) and OCC_CLUSTER_TEXT(getter) to make its
 * entries; getter names the library's. */
#define OCC_CLUSTER_FIELDS \
	OCC_CLUSTER_FIELD("cluster", OCC_FT_STR, "the cluster's shape, CTAs " \
		"in x, y and z (--cluster)", get_cluster, \
		{ NULL, 8, 2, 0, NULL, 0 }) \
	OCC_CLUSTER_FIELD("cluster_size", OCC_FT_INT, "CTAs per cluster", \
		get_cluster_size, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_source", OCC_FT_STR, "what set the " \
		"cluster: __cluster_dims__ or num_ctas (the kernel declares " \
		"it), or --cluster", get_cluster_source, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_portable", OCC_FT_BOOL, "whether the size " \
		"is portable (false: it needs cudaFuncAttributeNonPortable" \
		"ClusterSizeAllowed)", get_cluster_portable, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_blocks_per_sm", OCC_FT_INT, "blocks per SM " \
		"in a cluster launch: blocks_per_sm, at most " \
		"clusterBlocksPerMultiprocessor", get_cluster_blocks, \
		{ "cl.blocks", 9, 1, 0, NULL, 0 }) \
	OCC_CLUSTER_FIELD("max_active_clusters", OCC_FT_INT, "clusters the " \
		"GPU holds at once (what cudaOccupancyMaxActiveClusters " \
		"answers)", get_max_active_clusters, \
		{ "clusters", 9, 1, 0, NULL, 0 }) \
	OCC_CLUSTER_FIELD("cluster_active_blocks", OCC_FT_INT, "CTAs " \
		"resident at once, max_active_clusters x cluster_size", \
		get_cluster_active_blocks, { "ctas", 6, 1, 0, NULL, 0 }) \
	OCC_CLUSTER_FIELD("cluster_occupancy_pct", OCC_FT_DEC, "active warps " \
		"over all the GPU's warp slots in a cluster launch, percent", \
		get_cluster_occupancy, { "gpu occ", 8, 1, OCC_TXT_PCT, NULL, 0 }) \
	OCC_CLUSTER_FIELD("cluster_limiter", OCC_FT_SET, "what limits " \
		"max_active_clusters: sm (the SM's resources), " \
		"cluster_blocks_per_sm, gpc (slots a GPC leaves empty)", \
		get_cluster_limiter, { "cluster limiter", -28, 2, 0, \
		OCC_CLUSTER_TEXT(text_cluster_limiter), 0 }) \
	OCC_CLUSTER_FIELD("cluster_reason", OCC_FT_STR, "why no cluster is " \
		"resident (absent: one is): kernel_does_not_launch, " \
		"cluster_larger_than_gpcs, runtime_refuses_in_part " \
		"(--partition: the runtime refuses the size in this part, " \
		"cudaOccupancyMaxActiveClusters answers 0)", \
		get_cluster_reason, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_gpcs_used", OCC_FT_INT, "GPCs holding a " \
		"cluster", get_cluster_gpcs_used, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_idle_slots", OCC_FT_INT, "block slots of " \
		"the cluster launch left empty", get_cluster_idle_slots, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_potential_size", OCC_FT_INT, "the largest " \
		"portable size with a cluster resident (--partition: that " \
		"launches in the part), as cudaOccupancyMaxPotentialCluster" \
		"Size answers (0: none)", get_potential, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_potential_size_nonportable", OCC_FT_INT, \
		"the same, non-portable sizes allowed", get_potential_np, \
		{ 0 }) \
	OCC_CLUSTER_FIELD("cluster_best_size", OCC_FT_INT, "the portable size " \
		"with the most CTAs resident, the largest of sizes that tie " \
		"(0: none)", get_best_size, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_best_active_blocks", OCC_FT_INT, "CTAs " \
		"resident at that size", get_best_blocks, { 0 }) \
	OCC_CLUSTER_FIELD("layout", OCC_FT_STR, "the GPC layout: SMs per GPC, " \
		"NxK for K alike", get_layout, { 0 }) \
	OCC_CLUSTER_FIELD("layout_source", OCC_FT_STR, "where the layout " \
		"comes from", get_layout_source, { 0 }) \
	OCC_CLUSTER_FIELD("cluster_bound", OCC_FT_BOOL, "true where the " \
		"cluster figures are an upper bound: no layout measured (the " \
		"most any layout with NVIDIA's published GPC and SM counts, " \
		"or the SMs as one, allows), or no cluster blocks-per-SM cap " \
		"known (Blackwell)", get_cluster_bound, { 0 })

/* Why a cluster launch is refused before any figure: the architecture
 * has no clusters, best's or a size's figures need what its table does
 * not know, a size above the largest, best on a layout that only bounds
 * the figures. */
enum occ_cluster_refusal {
	OCC_CLUSTER_ACCEPTED = 0,
	OCC_CLUSTER_NO_CLUSTERS,        /* below compute capability 9.0 */
	OCC_CLUSTER_BEST_CAP_UNKNOWN,   /* best, the blocks-per-SM cap unknown */
	OCC_CLUSTER_ABOVE_PORTABLE,     /* above the portable size, the cap
					   and clusterSizeMax unknown */
	OCC_CLUSTER_NO_FIGURES,         /* no clusterSizeMax in the table */
	OCC_CLUSTER_ABOVE_MAX,          /* above clusterSizeMax */
	OCC_CLUSTER_BEST_BOUND          /* best, the layout not measured */
};

/* Whether q may be computed on a (bound: the layout only bounds the
 * figures, occ_cluster_layout's bound), and if not, why; checked in the
 * order above. */
enum occ_cluster_refusal occ_cluster_refused(const struct occ_arch *a,
					     int bound,
					     const struct occ_cluster_query *q);

#ifdef __cplusplus
}
#endif

#endif
