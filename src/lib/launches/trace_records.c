/*
 * trace_records.c - what each record of occcalc's trace file means
 * (docs/trace-format.md), once trace.c has parsed its line: the keys its
 * type must hold, their ranges, and the header, device, launch or end it
 * makes. Apart from trace.c because reading lines and JSON is one thing
 * and a record's meaning another: a key or a type added to the format
 * changes this file and trace_int.h's KEYS.
 */
#include <string.h>

#include "trace_int.h"

static const char *str_of(const struct record *c, enum key k)
{
	return c->strs + c->str[k];
}

static enum occ_status fail_line(struct trace_reader *t, enum occ_status st,
				 const char *what)
{
	return launch_fail(t->r, st, t->lineno, t->line_offset, what);
}

/* The keys a record of its type must hold. */
static enum occ_status need(struct trace_reader *t, uint64_t bits)
{
	int k;

	for (k = 0; k < K_COUNT; k++)
		if ((bits & BIT(k)) && !(t->rec.have & BIT(k)))
			return fail_line(t, OCC_ERR_MISSING_KEY,
					 trace_keys[k].name);
	return OCC_OK;
}

/* A number within lo..hi, or the key named as out of range. */
static enum occ_status in_range(struct trace_reader *t, enum key k,
				int64_t lo, int64_t hi)
{
	const struct record *c = &t->rec;
	int i;

	if (!(c->have & BIT(k)))
		return OCC_OK;
	if (trace_keys[k].kind == KV_DIM3) {
		for (i = 0; i < 3; i++)
			if (c->dim[k][i] < lo || c->dim[k][i] > hi)
				return fail_line(t, OCC_ERR_RANGE,
						 trace_keys[k].name);
		return OCC_OK;
	}
	if (c->num[k] < lo || c->num[k] > hi)
		return fail_line(t, OCC_ERR_RANGE, trace_keys[k].name);
	return OCC_OK;
}

static enum occ_status ranges(struct trace_reader *t, const enum key *ks,
			      size_t n, int64_t lo, int64_t hi)
{
	enum occ_status st = OCC_OK;
	size_t i;

	for (i = 0; i < n && st == OCC_OK; i++)
		st = in_range(t, ks[i], lo, hi);
	return st;
}

#define N(a) (sizeof a / sizeof a[0])
#define BYTES_MAX ((int64_t)OCC_BYTES_MAX)

static enum occ_status header_record(struct trace_reader *t)
{
	const struct record *c = &t->rec;
	enum occ_status st = need(t, BIT(K_FORMAT) | BIT(K_VERSION));

	if (st != OCC_OK)
		return st;
	if (strcmp(str_of(c, K_FORMAT), "occcalc-trace") != 0)
		return fail_line(t, OCC_ERR_BAD_VALUE, "format");
	/* Later versions may change what a key means: refuse them. */
	if (c->num[K_VERSION] != 1)
		return fail_line(t, OCC_ERR_UNSUPPORTED, "version");
	if (c->have & BIT(K_PID))
		t->r->info->pid = c->num[K_PID];
	t->seen_header = 1;
	return OCC_OK;
}

static enum occ_status device_record(struct trace_reader *t)
{
	static const enum key ints[] = {
		K_MAJOR, K_MINOR, K_SMS, K_WARP, K_THREADS_SM, K_THREADS_BLOCK,
		K_BLOCKS_SM, K_REGS_SM, K_REGS_BLOCK
	};
	static const enum key bytes[] = {
		K_SMEM_SM, K_SMEM_BLOCK, K_SMEM_OPTIN, K_SMEM_RESERVED, K_L2
	};
	const struct record *c = &t->rec;
	struct occ_launch_device d;
	enum occ_status st = need(t, BIT(K_DEVICE) | BIT(K_MAJOR) |
				     BIT(K_MINOR) | BIT(K_SMS));

	if (st == OCC_OK)
		st = in_range(t, K_DEVICE, 0, INT32_MAX);
	if (st == OCC_OK)
		st = ranges(t, ints, N(ints), 0, INT32_MAX);
	if (st == OCC_OK)
		st = ranges(t, bytes, N(bytes), 0, BYTES_MAX);
	if (st != OCC_OK)
		return st;
	memset(&d, 0, sizeof d);
#define I(k) ((c->have & BIT(k)) ? (int)c->num[k] : 0)
#define U(k) ((c->have & BIT(k)) ? (uint64_t)c->num[k] : 0)
	d.device = I(K_DEVICE);
	if (c->have & BIT(K_NAME))
		occ_copy_string(d.name, sizeof d.name, str_of(c, K_NAME));
	if (c->have & BIT(K_UUID))
		occ_copy_string(d.uuid, sizeof d.uuid, str_of(c, K_UUID));
	d.major = I(K_MAJOR);
	d.minor = I(K_MINOR);
	d.multiProcessorCount = I(K_SMS);
	d.warpSize = I(K_WARP);
	d.maxThreadsPerMultiProcessor = I(K_THREADS_SM);
	d.maxThreadsPerBlock = I(K_THREADS_BLOCK);
	d.maxBlocksPerMultiProcessor = I(K_BLOCKS_SM);
	d.regsPerMultiprocessor = I(K_REGS_SM);
	d.regsPerBlock = I(K_REGS_BLOCK);
	d.sharedMemPerMultiprocessor = U(K_SMEM_SM);
	d.sharedMemPerBlock = U(K_SMEM_BLOCK);
	d.sharedMemPerBlockOptin = U(K_SMEM_OPTIN);
	d.reservedSharedMemPerBlock = U(K_SMEM_RESERVED);
	d.l2CacheSize = U(K_L2);
#undef I
#undef U
	return launch_device(t->r, &d);
}

static int word_index(const char *s, const char *const *words, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, words[i]) == 0)
			return i;
	return -1;
}

static enum occ_status launch_words(struct trace_reader *t,
				    struct occ_launch_record *l)
{
	static const char *const limits[] = { "default", "optin" };
	static const char *const types[] = {
		"regular", "cooperative_single", "cooperative_multi",
		"cbl_commandlist"
	};
	const struct record *c = &t->rec;
	int i;

	if (c->have & BIT(K_SMEM_CONFIG)) {
		i = word_index(str_of(c, K_SMEM_CONFIG), limits, 2);
		if (i < 0)
			return fail_line(t, OCC_ERR_BAD_VALUE,
					 trace_keys[K_SMEM_CONFIG].name);
		l->smem_limit = (enum occ_smem_limit)(i + 1);
	}
	if (c->have & BIT(K_LAUNCH_TYPE)) {
		i = word_index(str_of(c, K_LAUNCH_TYPE), types, 4);
		if (i < 0)
			return fail_line(t, OCC_ERR_BAD_VALUE,
					 trace_keys[K_LAUNCH_TYPE].name);
		l->launch_type = (enum occ_launch_type)(i + 1);
	}
	return OCC_OK;
}

static void launch_numbers(const struct record *c, struct occ_launch_record *l)
{
	int i;

#define OPT(k, dst) do { if (c->have & BIT(k)) (dst) = c->num[k]; } while (0)
	OPT(K_CONTEXT, l->context);
	OPT(K_STREAM, l->stream);
	OPT(K_CORRELATION, l->correlation);
	OPT(K_LOCAL_THREAD, l->local_mem_per_thread);
	OPT(K_LOCAL_TOTAL, l->local_mem_total);
	OPT(K_SMEM_EXECUTED, l->smem_executed);
	OPT(K_CACHE_CONFIG, l->cache_config);
	OPT(K_GRAPH, l->graph_id);
	OPT(K_GRAPH_NODE, l->graph_node_id);
	OPT(K_MAX_CLUSTERS, l->max_active_clusters);
	OPT(K_START, l->start_ns);
	OPT(K_END, l->end_ns);
	OPT(K_PROFILED, l->profiled_duration_ns);
#undef OPT
	if (c->have & BIT(K_ACHIEVED))
		l->achieved_occupancy_pct = c->pct[K_ACHIEVED];
	if (c->have & BIT(K_CARVEOUT))
		l->carveout_requested = (int)c->num[K_CARVEOUT];
	for (i = 0; i < 3; i++) {
		l->grid[i] = c->dim[K_GRID][i];
		l->block[i] = c->dim[K_BLOCK][i];
		if (c->have & BIT(K_CLUSTER))
			l->cluster[i] = c->dim[K_CLUSTER][i];
	}
	l->regs = (int)c->num[K_REGS];
	l->static_smem = c->num[K_STATIC_SMEM];
	l->dynamic_smem = c->num[K_SMEM];
	l->smem_total = l->static_smem + l->dynamic_smem;
	l->device = (int)c->num[K_DEVICE];
}

static enum occ_status launch_record(struct trace_reader *t)
{
	static const enum key dims[] = { K_GRID, K_BLOCK, K_CLUSTER };
	static const enum key bytes[] = {
		K_STATIC_SMEM, K_SMEM, K_SMEM_EXECUTED, K_LOCAL_THREAD,
		K_LOCAL_TOTAL
	};
	const struct record *c = &t->rec;
	struct occ_launch_record l;
	enum occ_status st = need(t, BIT(K_DEVICE) | BIT(K_KERNEL) |
				     BIT(K_GRID) | BIT(K_BLOCK) | BIT(K_REGS) |
				     BIT(K_STATIC_SMEM) | BIT(K_SMEM));

	if (st == OCC_OK)
		st = in_range(t, K_DEVICE, 0, INT32_MAX);
	if (st == OCC_OK)
		st = ranges(t, dims, N(dims), 0, INT32_MAX);
	if (st == OCC_OK)
		st = in_range(t, K_REGS, 0, 65535);
	if (st == OCC_OK)
		st = ranges(t, bytes, N(bytes), 0, BYTES_MAX);
	if (st == OCC_OK)
		st = in_range(t, K_CARVEOUT, -1, 100);
	if (st == OCC_OK)
		st = in_range(t, K_MAX_CLUSTERS, 0, INT32_MAX);
	if (st != OCC_OK)
		return st;
	launch_defaults(&l, OCC_LAUNCH_FORMAT_OCCCALC);
	l.line = t->lineno;
	l.offset = t->line_offset;
	l.kernel = str_of(c, K_KERNEL);
	l.mangled = (c->have & BIT(K_MANGLED)) ? str_of(c, K_MANGLED) : "";
	l.op = (c->have & BIT(K_OP)) ? str_of(c, K_OP) : NULL;
	launch_numbers(c, &l);
	st = launch_words(t, &l);
	return st == OCC_OK ? launch_deliver(t->r, &l) : st;
}

static enum occ_status end_record(struct trace_reader *t)
{
	const struct record *c = &t->rec;
	enum occ_status st = need(t, BIT(K_LAUNCHES) | BIT(K_DROPPED));

	if (st == OCC_OK)
		st = in_range(t, K_LAUNCHES, 0, INT64_MAX);
	if (st == OCC_OK)
		st = in_range(t, K_DROPPED, 0, INT64_MAX);
	if (st != OCC_OK)
		return st;
	t->r->info->complete = 1;
	t->r->info->declared = c->num[K_LAUNCHES];
	t->r->info->dropped = c->num[K_DROPPED];
	return OCC_OK;
}

enum occ_status trace_record(struct trace_reader *t)
{
	const char *type;
	enum occ_status st = need(t, BIT(K_TYPE));

	if (st != OCC_OK)
		return st;
	type = str_of(&t->rec, K_TYPE);
	/* Lines appended after the end (a second end record among them):
	 * read, nothing lost, and counted, for the end record's counts do
	 * not cover them. */
	if (t->r->info->complete) {
		t->r->info->after_end++;
		if (strcmp(type, "end") == 0)
			return OCC_OK;
	}
	if (!t->seen_header && strcmp(type, "header") != 0)
		return fail_line(t, OCC_ERR_MISSING_KEY, "header record");
	if (strcmp(type, "header") == 0)
		return t->seen_header ? fail_line(t, OCC_ERR_DUPLICATE_KEY,
						  "header record")
				      : header_record(t);
	if (strcmp(type, "device") == 0)
		return device_record(t);
	if (strcmp(type, "launch") == 0)
		return launch_record(t);
	if (strcmp(type, "end") == 0)
		return end_record(t);
	/* A type of a later writer: skipped, counted. */
	t->r->info->skipped++;
	return OCC_OK;
}
