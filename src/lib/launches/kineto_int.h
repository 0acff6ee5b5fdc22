/* kineto_int.h - what kineto.c's reader and its value handlers
 * (kineto_values.c) share (internal). */
#ifndef OCC_KINETO_INT_H
#define OCC_KINETO_INT_H

#include "json.h"
#include "launches_int.h"

enum role { R_TOP, R_DEVPROPS, R_DEVICE, R_EVENTS, R_EVENT, R_ARGS, R_DIM,
	    R_SHAPES, R_SKIP };

/* Keys of a device's properties and of a kernel event. */
enum dkey { D_ID, D_NAME, D_MAJOR, D_MINOR, D_SMS, D_WARP, D_THREADS_SM,
	    D_THREADS_BLOCK, D_REGS_SM, D_REGS_BLOCK, D_SMEM_SM, D_SMEM_BLOCK,
	    D_SMEM_OPTIN, D_COUNT };
OCC_INTERNAL extern const char *const kineto_dkeys[D_COUNT];

enum ekey { E_PH, E_CAT, E_NAME, E_TS, E_DUR, E_ARGS, E_PID, E_TID,
	    E_COUNT };
OCC_INTERNAL extern const char *const kineto_ekeys[E_COUNT];

/* A cpu_op's "Input Dims" kept as JSON text up to this (longer: none). */
#define SHAPES_MAX 4096

/* A_EST_PCT: PyTorch's name for Kineto's estimate since 2026
 * ("est_occupancy_pct", pytorch#180275), taken where the older is
 * absent. Kineto's "occupancy" object (kineto#1330: cudaOccResult's
 * activeBlocksPerMultiprocessor, limitingFactors, blockLimitRegs,
 * blockLimitSharedMem, blockLimitWarps, blockLimitBlocks,
 * blockLimitBarriers, allocatedRegistersPerBlock,
 * allocatedSharedMemPerBlock) is the cause of the estimate, which
 * occcalc computes itself: accepted, not read. */
enum akey { A_DEVICE, A_CONTEXT, A_STREAM, A_CORRELATION, A_REGS, A_SMEM,
	    A_GRID, A_BLOCK, A_BPS, A_WPS, A_EST, A_EST_PCT, A_COUNT };
OCC_INTERNAL extern const char *const kineto_akeys[A_COUNT];

#define NONE (-1)
#define BIT(k) (1u << (k))

struct event {
	unsigned have;              /* E_ bits */
	unsigned args;              /* A_ bits */
	int is_kernel, is_complete;
	int kernel_like;            /* a kernel's arguments, or its category
	                               spelt otherwise */
	int64_t ts, dur;
	int64_t num[A_COUNT];
	double dec[A_COUNT];
	int64_t dim[2][3];
	int n_dim;
	int dim_key;                /* A_GRID or A_BLOCK, being read */
	const char *bad;            /* a key of the wrong type */
	/* What links a kernel to its operator (ops.c). */
	int is_cpu_op, is_module;
	int have_ext;
	int64_t ext, pid, tid;
	size_t shapes_len;          /* in kineto's shapes; SHAPES_MAX: too
	                               long, not kept */
	int have_shapes;
	int est_bad;                /* an estimate out of range */
	uint64_t offset, line;      /* where the event starts */
	uint64_t args_close;        /* its args' '}' (--annotate splices
	                               before it) */
	int annotated;              /* its args hold "occcalc" already */
};

struct kineto {
	struct launch_read *r;
	/* What each open container is: role[d] for the one whose members
	 * are at depth d + 1. */
	enum role role[OCC_JSON_DEPTH_MAX + 2];
	int seen_events;
	struct occ_launch_device dev;
	unsigned dev_have;
	struct event ev;
	char *name;                 /* the event's name */
	char shapes[SHAPES_MAX];    /* its Input Dims (not in struct event,
	                               which is cleared at every event) */
	size_t name_cap;
	int devices_only;           /* the pass that reads devices alone */
	int restart;                /* stopped: devices come after events */
	int late_props;             /* deviceProperties after traceEvents */
	uint64_t no_device;         /* launches delivered without one */
	int pytorch;                /* PyTorch's keys or CPU events seen */
};

/* ---- Values (kineto_values.c) ---- */

/* The index of key in names (n of them), or NONE. */
OCC_INTERNAL int kineto_find(const char *const *names, int n, const char *key);
/* A member of a device's properties, of an event, of its args, of its
 * grid or block, of its Input Dims (text as it goes in, compact JSON). */
OCC_INTERNAL int kineto_dev_value(struct kineto *k, struct occ_json_reader *jr,
				  const struct occ_json_event *e);
OCC_INTERNAL int kineto_event_value(struct kineto *k,
				    struct occ_json_reader *jr,
				    const struct occ_json_event *e);
OCC_INTERNAL void kineto_arg_value(struct kineto *k,
				   const struct occ_json_event *e);
OCC_INTERNAL void kineto_dim_value(struct kineto *k,
				   const struct occ_json_event *e);
OCC_INTERNAL void kineto_shapes_put(struct kineto *k,
				    const struct occ_json_event *e,
				    const char *text);
/* Whether e is the member occcalc --annotate adds to a kernel's args. */
OCC_INTERNAL int kineto_is_annotation(const struct occ_json_event *e);

#endif
