/*
 * occcalc/launch_summary.h - a trace's launches summed by kernel (or by
 * the PyTorch operator that launched them) and GPU: launches, distinct
 * launch shapes, occupancy weighted by GPU time, what limits it, the
 * time below 25 and 50 % and in partial last waves, and the heaviest
 * configuration with its headroom. It is the summary `occcalc
 * --launches FILE` ends its text with, and occ_launch_summary_kind the
 * rows of `--summary -f json`. Launch rows (occcalc/launch_rows.h) are
 * fed in as they stream; what is kept grows with the kernels and their
 * shapes, never with the launches, and is bounded (below).
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_LAUNCH_SUMMARY_H
#define OCCCALC_LAUNCH_SUMMARY_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/launch_summary.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The bounds, whatever the traces hold: launches of groups past
 * OCC_LAUNCH_SUMMARY_GROUPS count in the totals only (untracked); a name
 * is kept up to NAME_KEPT bytes (told apart from another by its whole
 * length and hash); a group's configurations past CONFIGS are not
 * tracked for its headroom; the distinct shapes of all groups together
 * are counted up to SHAPES; devices past DEVICES are not listed. */
#define OCC_LAUNCH_SUMMARY_GROUPS 8192
#define OCC_LAUNCH_SUMMARY_NAME_KEPT 8192
#define OCC_LAUNCH_SUMMARY_CONFIGS 8
#define OCC_LAUNCH_SUMMARY_SHAPES (1u << 20)
#define OCC_LAUNCH_SUMMARY_DEVICES 64

/* The limiting resources a summary tells apart, as a set: bit i for the
 * i-th of warps, registers, shared memory, blocks, barriers (0: the
 * launch cannot run). */
#define OCC_LAUNCH_LIMITERS 5
#define OCC_LAUNCH_LIMITER_SETS (1 << OCC_LAUNCH_LIMITERS)

/* The set of a result's limiters (0: it does not launch). */
unsigned occ_launch_limiter_set(const struct occ_result *r);
/* A set's limiters as enum occ_resource bits (occ_val_limiters). */
unsigned occ_launch_limiter_resources(unsigned set);

struct occ_launch_acc;
/* The two sets of limiters that hold the most of a's modelled weight
 * (a->modelled; none where it is 0): *first, and *second where another
 * set holds any, which it returns (0: one set holds it all). */
int occ_launch_limiter_mix(const struct occ_launch_acc *a, unsigned *first,
			   unsigned *second);

/* Sums over launches, each weighted (by its GPU time in ns, or 1). */
struct occ_launch_acc {
	double all;             /* every launch */
	double modelled;        /* those with figures */
	double occ;             /* occupancy percent x weight */
	double lim[OCC_LAUNCH_LIMITER_SETS];   /* by the set of limiters */
	double below25, below50;
	double tail;            /* the last, partial wave's share */
	double kineto, kineto_w;   /* Kineto's estimate where it gave one */
	/* Where --achieved measured the launch: the achieved occupancy, and
	 * the occupancy of the same launches beside it. */
	double achieved, achieved_occ, achieved_w;
};

/* A configuration of a group (what its headroom depends on: not the
 * grid), with the weight of its launches. */
struct occ_launch_config {
	struct occ_launch_record l;      /* its numbers; names not kept */
	const struct occ_launch_dev *dev;
	struct occ_result r;
	double weight;
};

/* A kernel (or operator) on one GPU of the traces. */
struct occ_launch_summary_group {
	char *name;                      /* up to NAME_KEPT bytes */
	int unnamed;                     /* by op: launches of no op */
	int device;                      /* the trace's id of its GPU */
	size_t len;                      /* of the whole name */
	uint64_t hash;                   /* of the whole name and device */
	uint64_t launches, modelled;
	struct occ_launch_acc t, n;      /* by time, by launch */
	size_t n_shapes;
	int shapes_capped;               /* more than n_shapes */
	struct occ_launch_config *configs;
	size_t n_configs, cap_configs;
	uint64_t configs_untracked;
	double rank;                     /* its weight, for the order */
};

enum occ_launch_by { OCC_LAUNCH_BY_KERNEL, OCC_LAUNCH_BY_OP };

/* What every launch fed adds up to. */
struct occ_launch_totals {
	enum occ_launch_by by;
	uint64_t launches, modelled;
	uint64_t untracked;              /* launches of groups past
					    OCC_LAUNCH_SUMMARY_GROUPS */
	struct occ_launch_acc t, n;      /* by time, by launch */
	size_t groups;
	size_t n_shapes;                 /* SHAPES: counting stopped */
	/* The distinct devices (name, SMs, architecture) the launches were
	 * modelled on, as the rows point at them. */
	const struct occ_launch_dev *devs[OCC_LAUNCH_SUMMARY_DEVICES];
	size_t n_devs;
	size_t files;
};

struct occ_launch_summary;

enum occ_status occ_launch_summary_new(enum occ_launch_by by,
				       struct occ_launch_summary **out);
void occ_launch_summary_free(struct occ_launch_summary *s);
/* Counts a row (modelled or not) under its group. OCC_ERR_NOMEM: the
 * summary is incomplete, and every later call says so too. The devices
 * rows point at must outlast the summary (their reader's). */
enum occ_status occ_launch_summary_add(struct occ_launch_summary *s,
				       const struct occ_launch_row *r);
/* Counts a file read. */
void occ_launch_summary_file(struct occ_launch_summary *s);
const struct occ_launch_totals *
occ_launch_summary_totals(const struct occ_launch_summary *s);
/* The groups ranked by their weight (GPU time where the launches were
 * timed, else launches), then name, into *groups (*n of them), valid
 * until the next add or free. OCC_ERR_NOMEM, also where an add failed. */
enum occ_status
occ_launch_summary_groups(struct occ_launch_summary *s,
			  const struct occ_launch_summary_group *const **groups,
			  size_t *n);
/* The sums a group's percentages are of (g NULL: the totals'): by GPU
 * time where any launch was timed, else by launch. */
const struct occ_launch_acc *
occ_launch_summary_weights(const struct occ_launch_totals *t,
			   const struct occ_launch_summary_group *g);
/* The group's configuration of the most weight, or NULL (none modelled,
 * or none tracked). */
const struct occ_launch_config *
occ_launch_summary_heaviest(const struct occ_launch_summary_group *g);

/* A group as a row of occ_launch_summary_kind: the group, the totals it
 * is a share of, and its heaviest configuration's headroom. */
struct occ_launch_summary_row {
	const struct occ_launch_totals *t;
	const struct occ_launch_summary_group *g;
	const struct occ_launch_config *c;     /* heaviest; NULL: none */
	int has_headroom;
	struct occ_headroom h;
};
/* The row of g (one of t's groups). */
void occ_launch_summary_row_make(const struct occ_launch_totals *t,
				 const struct occ_launch_summary_group *g,
				 struct occ_launch_summary_row *row);

/* Its fields, under the command line's names (occcalc/fields.h). */
extern const struct occ_row_kind occ_launch_summary_kind;

/* The fields of a summary row unless others are asked for, by kernel
 * and by op: all of them but the other's name. */
#define OCC_LAUNCH_SUMMARY_FIELDS_TAIL "device,launches,launches_modelled," \
	"shapes,shapes_capped,gpu_time_ms,weighted_by,time_pct," \
	"occupancy_pct,below_25_pct,below_50_pct,tail_pct,limiter," \
	"limiter_pct,second_limiter,second_limiter_pct,kineto_est_pct," \
	"achieved_occupancy_pct,achieved_modelled_pct,arch,block,regs," \
	"static_smem,dynamic_smem,smem_total,blocks_per_sm,headroom_regs," \
	"headroom_dynamic_smem"
#define OCC_LAUNCH_SUMMARY_FIELDS "kernel," OCC_LAUNCH_SUMMARY_FIELDS_TAIL
#define OCC_LAUNCH_SUMMARY_FIELDS_OP "op," OCC_LAUNCH_SUMMARY_FIELDS_TAIL

#ifdef __cplusplus
}
#endif

#endif
