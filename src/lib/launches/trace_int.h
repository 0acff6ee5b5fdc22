/*
 * trace_int.h - what trace.c's reader of occcalc's trace file and its
 * records' meaning (trace_records.c) share (internal): the table of
 * every key a record may hold, and the record of one line as it is
 * parsed.
 */
#ifndef OCC_TRACE_INT_H
#define OCC_TRACE_INT_H

#include "launches_int.h"

enum kind { KV_INT, KV_PCT, KV_STR, KV_DIM3, KV_SKIP };

/* Every key a record may hold: one table for the four types. */
#define KEYS(X) \
	X(TYPE, "type", KV_STR) X(FORMAT, "format", KV_STR) \
	X(VERSION, "version", KV_INT) X(PID, "pid", KV_INT) \
	X(RUN, "run", KV_STR) \
	X(ARGV, "argv", KV_SKIP) X(DEVICE, "device", KV_INT) \
	X(NAME, "name", KV_STR) X(UUID, "uuid", KV_STR) \
	X(MAJOR, "major", KV_INT) X(MINOR, "minor", KV_INT) \
	X(SMS, "multiProcessorCount", KV_INT) X(WARP, "warpSize", KV_INT) \
	X(THREADS_SM, "maxThreadsPerMultiProcessor", KV_INT) \
	X(THREADS_BLOCK, "maxThreadsPerBlock", KV_INT) \
	X(BLOCKS_SM, "maxBlocksPerMultiProcessor", KV_INT) \
	X(REGS_SM, "regsPerMultiprocessor", KV_INT) \
	X(REGS_BLOCK, "regsPerBlock", KV_INT) \
	X(SMEM_SM, "sharedMemPerMultiprocessor", KV_INT) \
	X(SMEM_BLOCK, "sharedMemPerBlock", KV_INT) \
	X(SMEM_OPTIN, "sharedMemPerBlockOptin", KV_INT) \
	X(SMEM_RESERVED, "reservedSharedMemPerBlock", KV_INT) \
	X(L2, "l2CacheSize", KV_INT) X(CONTEXT, "context", KV_INT) \
	X(STREAM, "stream", KV_INT) X(CORRELATION, "correlation", KV_INT) \
	X(KERNEL, "kernel", KV_STR) X(MANGLED, "mangled", KV_STR) \
	X(OP, "op", KV_STR) \
	X(GRID, "grid", KV_DIM3) X(BLOCK, "block", KV_DIM3) \
	X(CLUSTER, "cluster", KV_DIM3) X(REGS, "regs", KV_INT) \
	X(STATIC_SMEM, "static_smem", KV_INT) X(SMEM, "smem", KV_INT) \
	X(LOCAL_THREAD, "local_mem_per_thread", KV_INT) \
	X(LOCAL_TOTAL, "local_mem_total", KV_INT) \
	X(SMEM_CONFIG, "smem_limit_config", KV_STR) \
	X(SMEM_EXECUTED, "smem_executed", KV_INT) \
	X(CARVEOUT, "carveout_requested", KV_INT) \
	X(CACHE_CONFIG, "cache_config", KV_INT) \
	X(LAUNCH_TYPE, "launch_type", KV_STR) \
	X(GRAPH, "graph_id", KV_INT) X(GRAPH_NODE, "graph_node_id", KV_INT) \
	X(MAX_CLUSTERS, "max_active_clusters", KV_INT) \
	X(START, "start_ns", KV_INT) X(END, "end_ns", KV_INT) \
	X(ACHIEVED, "achieved_occupancy_pct", KV_PCT) \
	X(PROFILED, "profiled_duration_ns", KV_INT) \
	X(LAUNCHES, "launches", KV_INT) X(DROPPED, "dropped", KV_INT)

#define ENUM(id, name, kind) K_##id,
enum key { KEYS(ENUM) K_COUNT, K_UNKNOWN = K_COUNT };
#undef ENUM

struct key_desc {
	const char *name;
	enum kind kind;
};

/* The KEYS table, in trace.c. */
OCC_INTERNAL extern const struct key_desc trace_keys[K_COUNT];

#define BIT(k) (UINT64_C(1) << (k))

/* One line's values as they are parsed. */
struct record {
	uint64_t have;
	int64_t num[K_COUNT];
	double pct[K_COUNT];
	size_t str[K_COUNT];        /* offset of the text in strs */
	int64_t dim[K_COUNT][3];
	int n_dim;
	enum key dim_key;           /* the array being read */
	char *strs;                 /* the line's strings, NUL-ended */
	size_t strs_len;
};

struct trace_reader {
	struct launch_read *r;
	struct record rec;
	char *line;
	size_t len, cap;
	int64_t lineno;
	uint64_t line_offset;       /* of the line being assembled */
	int seen_header;
	int whole_line;             /* the line parsed ended in its newline */
};

/* The record of the line just parsed (t->rec) put where its type says:
 * the header checked, a device or a launch delivered, the end's counts. */
OCC_INTERNAL enum occ_status trace_record(struct trace_reader *t);

#endif
