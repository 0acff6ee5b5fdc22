/*
 * occcalc/partition_row.h - a configuration computed in a part of the
 * GPU, as `occcalc --partition MIN_SMS` computes it: the split a green
 * context is made from, the part's SMs (those of min_grid_size, waves and
 * clusters) and GPCs where measured; occ_partition_kind holds its fields
 * under the command line's names (occcalc/fields.h).
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_PARTITION_ROW_H
#define OCCCALC_PARTITION_ROW_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/partition_row.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct occ_partition_row {
	struct occ_launch_part part;     /* occ_target_part's: the split,
					    the part's SMs and GPCs */
	char name[24];                   /* "group 0", "remaining" */
	int gpu_sms;                     /* the whole GPU's */
	int bound_remaining;             /* the remainder not known */
	int bound;                       /* the groups or the part's layout
					    not measured */
	int largest_gpc;                 /* the GPU's largest GPC, which
					    bounds a cluster in a part not
					    measured (0: not known) */
};

/* The part `group` (or OCC_PARTITION_REMAINING) of target t (its layout
 * found: occ_target_layout) split with flags into groups of at least
 * min_sms, parts measured read from parts_path (partitions.txt, or NULL),
 * into p. OCC_ERR_MISSING_KEY where t's SMs are not known and
 * OCC_ERR_RANGE for min_sms above them (p->gpu_sms says which; the
 * split not made); else occ_target_part's statuses (p->part.split's
 * group_sms 0: the split refused, else the part or the file). */
enum occ_status occ_partition_row_compute(const struct occ_target *t,
					  const char *parts_path,
					  unsigned flags, int min_sms,
					  int group,
					  struct occ_partition_row *p,
					  struct occ_diag *diag);

/* The GPC layout clusters run on in the part, for occ_cluster_row_compute
 * (its cap and text set): the part's measured one (its source naming
 * gpu, the GPU of the list), else the most an arrangement of its SMs in
 * GPCs of p->largest_gpc allows, else its SMs as one group. */
void occ_partition_cluster_layout(const struct occ_arch *a,
				  const struct occ_partition_row *p,
				  const char *gpu,
				  struct occ_cluster_layout *L);
/* The GPCs the runtime counts in the part, where measured and L (its
 * cluster layout) not a bound: occ_cluster_query's api; else NULL. */
const struct occ_gpc_layout *
occ_partition_api_layout(const struct occ_partition_row *p,
			 const struct occ_cluster_layout *L);

/* --partition-flags' words, comma-separated (ignore-coscheduling,
 * max-cluster-size, default) into *flags. OCC_ERR_SYNTAX for an empty
 * word, OCC_ERR_UNKNOWN_KEY for another (diag: it), OCC_ERR_INVALID_INPUT
 * for both flags (the driver refuses the pair), OCC_ERR_RANGE for a text
 * of 128 characters or more. */
enum occ_status occ_partition_flags_parse(const char *s, unsigned *flags,
					  struct occ_diag *diag);
/* --partition-part's: "group" (0), "group:N" (0-1023) or "remaining"
 * (OCC_PARTITION_REMAINING); OCC_ERR_SYNTAX else, OCC_ERR_RANGE for an N
 * above 1023. */
enum occ_status occ_partition_part_parse(const char *s, int *group);

/* The fields of a part (struct occ_partition_row rows): partition_part,
 * partition_flags, partition_groups, ... partition_bound. A row computed
 * in a part is occ_config_kind's fields (the part's SMs its sms), then
 * with a cluster occ_cluster_kind's, then these. */
extern const struct occ_row_kind occ_partition_kind;
/* The fields a row computed in a part adds by default. */
#define OCC_PARTITION_FIELDS_DEFAULT "partition_part,partition_groups," \
	"partition_sms,partition_part_sms"

/* The fields' entries, for a table of rows that hold a part elsewhere
 * (occcalc's, which puts the runtime's clusters in the part between the
 * two): a table defines OCC_PARTITION_FIELD(name, type, desc, getter);
 * getter names the library's. */
#define OCC_PARTITION_FIELDS \
	OCC_PARTITION_FIELD("partition_part", OCC_FT_STR, "the part of the " \
		"split computed in (--partition): group N or remaining", \
		get_partition_part) \
	OCC_PARTITION_FIELD("partition_flags", OCC_FT_STR, "the split's " \
		"flags: default, ignore-coscheduling, max-cluster-size", \
		get_partition_flags) \
	OCC_PARTITION_FIELD("partition_groups", OCC_FT_INT, "groups the " \
		"split makes, cuDevSmResourceSplitByCount's nbGroups (the " \
		"most, where partition_bound)", get_partition_groups) \
	OCC_PARTITION_FIELD("partition_sms", OCC_FT_INT, "SMs of each group", \
		get_partition_sms) \
	OCC_PARTITION_FIELD("partition_remaining_sms", OCC_FT_INT, "SMs no " \
		"group has (absent: not known without the GPC layout)", \
		get_partition_remaining_sms) \
	OCC_PARTITION_FIELD("partition_part_sms", OCC_FT_INT, "SMs of the " \
		"part computed in: the SMs of min_grid_size, waves and " \
		"clusters", get_partition_part_sms) \
	OCC_PARTITION_FIELD("partition_layout", OCC_FT_STR, "the part's SMs " \
		"per GPC, as its clusters run (absent: not measured)", \
		get_partition_layout) \
	OCC_PARTITION_FIELD("partition_api_layout", OCC_FT_STR, "the GPCs " \
		"cudaOccupancyMaxActiveClusters counts in the part", \
		get_partition_api_layout)
#define OCC_PARTITION_BOUND_FIELDS \
	OCC_PARTITION_FIELD("partition_bound", OCC_FT_BOOL, "true where the " \
		"split or the part's layout is not measured: the figures are " \
		"the most it allows", get_partition_bound)

#ifdef __cplusplus
}
#endif

#endif
