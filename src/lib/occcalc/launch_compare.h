/*
 * occcalc/launch_compare.h - two sets of launches set side by side
 * (a trace before and after a change): launches grouped by a key (a
 * kernel's name, an operator's), each group summarised (launches, GPU
 * time, occupancy weighted by time, the limiter of most time), and the
 * groups of the two sets matched by key, with what moved.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_LAUNCH_COMPARE_H
#define OCCCALC_LAUNCH_COMPARE_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/launch_compare.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One launch's figures, as a group takes them. */
struct occ_launch_figures {
	int modelled;              /* occupancy_pct and limiter hold it */
	double occupancy_pct;
	const char *limiter;       /* '+'-joined resources; NULL: none */
	int64_t duration_ns;       /* -1: not timed */
};

/* A group's summary. */
struct occ_launch_group {
	const char *key;
	uint64_t launches, modelled, timed;
	int64_t gpu_time_ns;       /* the timed launches' */
	/* Weighted by each launch's time where the modelled launches are
	 * all timed (what the GPU spent at that occupancy), else their
	 * mean; -1 where none is modelled. */
	double occupancy_pct;
	double occupancy_min_pct, occupancy_max_pct;
	const char *limiter;       /* of the most time (launches where
	                              untimed); NULL: none */
};

struct occ_launch_groups;

/* The most groups one set holds (kernels, operators). */
#define OCC_LAUNCH_GROUPS_MAX 1000000

struct occ_launch_groups *occ_launch_groups_new(void);
void occ_launch_groups_free(struct occ_launch_groups *g);
/* Counts launch f under key (copied). OCC_ERR_NOMEM; OCC_ERR_RANGE past
 * OCC_LAUNCH_GROUPS_MAX groups. */
enum occ_status occ_launch_groups_add(struct occ_launch_groups *g,
				      const char *key,
				      const struct occ_launch_figures *f);
/* The groups summarised, in key order (strcmp), into *out; their count.
 * Valid until the next add or the free. */
size_t occ_launch_groups_list(struct occ_launch_groups *g,
			      const struct occ_launch_group **out);

/* What moved between the two sides of a group. */
enum occ_launch_moved {
	OCC_LAUNCH_MOVED_OCCUPANCY = 1 << 0,  /* at two decimals */
	OCC_LAUNCH_MOVED_LIMITER = 1 << 1,
	OCC_LAUNCH_MOVED_LAUNCHES = 1 << 2,
	/* GPU time differs: two runs' times always do a little, so this
	 * alone does not make a group changed. */
	OCC_LAUNCH_MOVED_GPU_TIME = 1 << 3
};

struct occ_launch_change {
	const struct occ_launch_group *old, *cur;   /* NULL: absent there */
	unsigned moved;                             /* enum occ_launch_moved */
	/* 1 where the group was added, removed, or moved in occupancy,
	 * limiter or launches. */
	int changed;
};

/* Matches old's and cur's groups by key, in key order, handing each
 * pair to fn; a nonzero return stops, and is returned. */
int occ_launch_groups_compare(struct occ_launch_groups *old,
			      struct occ_launch_groups *cur,
			      int (*fn)(void *ctx,
					const struct occ_launch_change *c),
			      void *ctx);

#ifdef __cplusplus
}
#endif

#endif
