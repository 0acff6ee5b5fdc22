/* launches_sum.h - what the summary of --launches (launches_summary.c)
 * keeps and prints from (launches_summary_print.c); its names
 * (launches_names.c). Internal to those files. */
#ifndef OCC_CLI_LAUNCHES_SUM_H
#define OCC_CLI_LAUNCHES_SUM_H

#include "launches.h"

#define N_LIMITERS 5
static const enum occ_resource limiters[N_LIMITERS] = {
	OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS, OCC_RESOURCE_SHARED_MEMORY,
	OCC_RESOURCE_BLOCKS, OCC_RESOURCE_BARRIERS
};

/* Sums over launches, each weighted (by its time, or 1). */
struct acc {
	double all;             /* every launch */
	double modelled;        /* those with figures */
	double occ;             /* occupancy percent x weight */
	double lim[1 << N_LIMITERS];     /* by the set of limiters */
	double below25, below50;
	double tail;            /* the last, partial wave's share */
	double kineto, kineto_w;   /* Kineto's estimate where it gave one */
	/* Where --achieved measured the launch: the achieved occupancy, and
	 * the occupancy of the same launches, beside it. */
	double achieved, achieved_occ, achieved_w;
};

/* What the headroom depends on: not the grid. */
struct config {
	struct occ_launch_record l;      /* its numbers; names not kept */
	const struct occ_launch_dev *dev;
	struct occ_result r;
	double weight;
};

/* What the summary holds is bounded whatever the traces hold (the man
 * page states the bound): kernels past SUMMARY_KERNELS count in the totals
 * and in one line, a name is kept up to NAME_KEPT bytes (told apart from
 * another by its whole length and hash), a kernel's configurations past
 * MAX_CONFIGS are not tracked for its headroom, and the distinct shapes
 * of all kernels together are counted up to SHAPES_MAX. */
#define SUMMARY_KERNELS 8192
#define NAME_KEPT 1024
#define MAX_CONFIGS 8
#define SHAPES_MAX (1u << 20)

struct ksum {
	char *name;                      /* up to NAME_KEPT bytes */
	int device;                      /* the trace's id of its GPU */
	size_t len;                      /* of the whole name */
	uint64_t hash;                   /* of the whole name */
	uint64_t launches, modelled;
	struct acc t, n;                 /* by time, by launch */
	size_t n_shapes;
	int shapes_capped;               /* more than n_shapes */
	struct config *configs;
	size_t n_configs, cap_configs;
	uint64_t configs_untracked;
	double rank;                     /* its weight, for the order */
};

#define MAX_DEVICES 64

struct launch_summary {
	struct ksum **slots;             /* open addressing by name */
	size_t cap, n;
	uint64_t launches, modelled;
	uint64_t untracked;              /* launches of kernels past
					    SUMMARY_KERNELS */
	struct acc t, n_acc;
	/* The (kernel, shape) pairs seen, as hashes (0: an empty slot). */
	uint64_t *shapes;
	size_t n_shapes, cap_shapes;
	const struct occ_launch_dev *devs[MAX_DEVICES];
	size_t n_devs;
	size_t n_files;
	int failed;                      /* out of memory: said once */
	int by_op;                       /* rows by operator, not kernel */
	int wide;                        /* full names */
};

/* The limiters of a result as bits in limiters[]' order (0: none). */
unsigned limiter_set(const struct occ_result *r);

/* ---- Names (launches_names.c) ---- */

/* Each of the n names as people recognise it: a C++ function's own name
 * without its namespaces, return type and parameters, its template
 * arguments cut in the middle ("vectorized_elementwise_kernel<8, …>");
 * names that would read alike keep more, up to the whole. out[i] is
 * allocated (free each); 0 when out of memory. */
int names_shorten(const char *const *names, size_t n, char **out);
/* The columns a UTF-8 text takes. */
size_t name_columns(const char *s);

#endif
