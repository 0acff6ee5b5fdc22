/*
 * trace.c - occcalc's trace file (docs/trace-format.md): JSON Lines, each
 * line one record parsed alone (the project's JSON reader, json.h), so
 * that a file cut short reads up to its last whole line and an error
 * names its line.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "launches_int.h"
#include "zin.h"

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

#define DESC(id, name, kind) { name, kind },
static const struct key_desc keys[] = { KEYS(DESC) };
#undef DESC

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

static enum key key_find(const char *s)
{
	int k;

	for (k = 0; s && k < K_COUNT; k++)
		if (strcmp(keys[k].name, s) == 0)
			return (enum key)k;
	return K_UNKNOWN;
}

static int bad(struct occ_json_reader *jr, const struct occ_json_event *e,
	       enum occ_status st, enum key k)
{
	return occ_json_fail(jr, st, e->offset, "%s", keys[k].name);
}

/* A percentage of 0 to 100 (a measured one may pass 100 by rounding:
 * up to 101 is taken). */
static int percent(const char *text, size_t len, double *out)
{
	char buf[64], *end;

	if (len >= sizeof buf)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return *end || !(*out >= 0 && *out <= 101) ? -1 : 0;
}

/* A member of the record (depth 1). */
static int member(struct trace_reader *t, struct occ_json_reader *jr,
		  const struct occ_json_event *e)
{
	struct record *c = &t->rec;
	enum key k = key_find(e->key);
	enum kind want = k == K_UNKNOWN ? KV_SKIP : keys[k].kind;
	int st;

	if (want == KV_SKIP)
		return 0;
	if (c->have & BIT(k))
		return bad(jr, e, OCC_ERR_DUPLICATE_KEY, k);
	if (want == KV_DIM3) {
		if (e->type != JSON_ARRAY)
			return bad(jr, e, OCC_ERR_BAD_VALUE, k);
		c->dim_key = k;
		c->n_dim = 0;
		return 0;
	}
	if (want == KV_STR && e->type == JSON_STRING) {
		/* The line's strings fit in its length. */
		c->str[k] = c->strs_len;
		memcpy(c->strs + c->strs_len, e->text, e->len + 1);
		c->strs_len += e->len + 1;
	} else if (want == KV_INT && e->type == JSON_NUMBER) {
		st = occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX,
				  &c->num[k]);
		if (st != 0)
			return bad(jr, e, st == -2 ? OCC_ERR_RANGE
					       : OCC_ERR_BAD_VALUE, k);
	} else if (want == KV_PCT && e->type == JSON_NUMBER) {
		if (percent(e->text, e->len, &c->pct[k]) != 0)
			return bad(jr, e, OCC_ERR_RANGE, k);
	} else
		return bad(jr, e, OCC_ERR_BAD_VALUE, k);
	c->have |= BIT(k);
	return 0;
}

/* An element of a dimension array (depth 2). */
static int dim_element(struct trace_reader *t, struct occ_json_reader *jr,
		       const struct occ_json_event *e)
{
	struct record *c = &t->rec;
	int st;

	if (e->type != JSON_NUMBER || c->n_dim == 3)
		return bad(jr, e, OCC_ERR_BAD_VALUE, c->dim_key);
	st = occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX,
			  &c->dim[c->dim_key][c->n_dim++]);
	return st ? bad(jr, e, st == -2 ? OCC_ERR_RANGE : OCC_ERR_BAD_VALUE,
			c->dim_key) : 0;
}

static int on_event(void *ctx, struct occ_json_reader *jr,
		    const struct occ_json_event *e)
{
	struct trace_reader *t = ctx;
	struct record *c = &t->rec;

	if (e->depth == 0)
		return e->type == JSON_OBJECT || e->type == JSON_END ? 0
		       : occ_json_fail(jr, OCC_ERR_SYNTAX, e->offset,
				       "not a JSON object");
	if (e->depth == 1 && e->type == JSON_END) {
		if (c->dim_key == K_UNKNOWN)
			return 0;
		if (c->n_dim != 3)
			return bad(jr, e, OCC_ERR_BAD_VALUE, c->dim_key);
		c->have |= BIT(c->dim_key);
		c->dim_key = K_UNKNOWN;
		return 0;
	}
	if (e->depth == 1)
		return member(t, jr, e);
	/* Inside a member: a dimension's elements, or skipped. */
	if (c->dim_key == K_UNKNOWN)
		return 0;
	if (e->depth == 2 && e->type != JSON_END)
		return dim_element(t, jr, e);
	return bad(jr, e, OCC_ERR_BAD_VALUE, c->dim_key);
}

/* ---- Records ---- */

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
			return fail_line(t, OCC_ERR_MISSING_KEY, keys[k].name);
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
	if (keys[k].kind == KV_DIM3) {
		for (i = 0; i < 3; i++)
			if (c->dim[k][i] < lo || c->dim[k][i] > hi)
				return fail_line(t, OCC_ERR_RANGE, keys[k].name);
		return OCC_OK;
	}
	if (c->num[k] < lo || c->num[k] > hi)
		return fail_line(t, OCC_ERR_RANGE, keys[k].name);
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
					 keys[K_SMEM_CONFIG].name);
		l->smem_limit = (enum occ_smem_limit)(i + 1);
	}
	if (c->have & BIT(K_LAUNCH_TYPE)) {
		i = word_index(str_of(c, K_LAUNCH_TYPE), types, 4);
		if (i < 0)
			return fail_line(t, OCC_ERR_BAD_VALUE,
					 keys[K_LAUNCH_TYPE].name);
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

static enum occ_status record(struct trace_reader *t)
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

static int blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/* Parses the line in t->line (t->len bytes) as one record. */
static enum occ_status line_parse(struct trace_reader *t)
{
	static const struct occ_json_limits lim = { 0, OCC_LAUNCH_LINE_MAX, 0,
						    0 };
	struct record *c = &t->rec;
	struct occ_json_err err;
	enum occ_status st;

	if (blank(t->line, t->len))
		return OCC_OK;
	memset(c, 0, offsetof(struct record, strs));
	c->dim_key = K_UNKNOWN;
	c->strs_len = 0;
	memset(&err, 0, sizeof err);
	st = occ_json_read_mem(t->line, t->len, &lim, on_event, t, &err);
	/* A whole line that ends inside its object: records spread over
	 * lines, as jq prints them without -c. */
	if (st != OCC_OK && err.cut_short && t->whole_line)
		return launch_fail(t->r, st, t->lineno, t->line_offset,
				   "a record spread over lines (one a line: "
				   "jq -c)");
	if (st != OCC_OK)
		return launch_fail(t->r, st, t->lineno,
				   t->line_offset + err.offset, err.what);
	return record(t);
}

/* Room for n more bytes of the line, and for its strings. */
static enum occ_status line_room(struct trace_reader *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 4096;
	char *p, *s;

	if (t->len + n > OCC_LAUNCH_LINE_MAX) {
		t->r->diag->limit = OCC_LAUNCH_LINE_MAX;
		/* The line being assembled: lineno counts whole ones. */
		return launch_fail(t->r, OCC_ERR_LINE_TOO_LONG, t->lineno + 1,
				   t->line_offset, NULL);
	}
	if (t->len + n + 1 <= t->cap)
		return OCC_OK;
	while (cap < t->len + n + 1)
		cap *= 2;
	p = realloc(t->line, cap);
	if (!p)
		return OCC_ERR_NOMEM;
	t->line = p;
	s = realloc(t->rec.strs, cap);
	if (!s)
		return OCC_ERR_NOMEM;
	t->rec.strs = s;
	t->cap = cap;
	return OCC_OK;
}

static enum occ_status trace_feed(struct trace_reader *t,
				  const unsigned char *p, size_t n)
{
	const unsigned char *chunk = p, *nl;
	enum occ_status st;
	size_t k;

	while (n > 0) {
		if (t->len == 0)
			t->line_offset = t->r->offset + (uint64_t)(p - chunk);
		nl = memchr(p, '\n', n);
		k = nl ? (size_t)(nl - p) : n;
		st = line_room(t, k);
		if (st != OCC_OK)
			return st;
		memcpy(t->line + t->len, p, k);
		t->len += k;
		p += k;
		n -= k;
		if (!nl)
			break;
		t->lineno++;
		t->whole_line = 1;
		st = line_parse(t);
		t->whole_line = 0;
		t->len = 0;
		if (st != OCC_OK)
			return st;
		p++;
		n--;
	}
	return OCC_OK;
}

static enum occ_status trace_finish(struct trace_reader *t)
{
	enum occ_status st;

	if (t->len > 0 && !blank(t->line, t->len)) {
		/* A last line without its newline: whole if it parses. */
		t->lineno++;
		st = line_parse(t);
		if (st == OCC_OK)
			return OCC_OK;
		if (st != OCC_ERR_SYNTAX)
			return st;
		t->r->info->cut_short = 1;
		launch_fail(t->r, OCC_OK, 0, 0, NULL);
	}
	if (!t->seen_header)
		return launch_fail(t->r, OCC_ERR_MISSING_KEY, 0, 0,
				   "header record");
	return OCC_OK;
}

enum occ_status trace_read(struct launch_read *r, struct occ_zin *z)
{
	struct trace_reader *t = calloc(1, sizeof *t);
	unsigned char *buf = malloc(LAUNCH_CHUNK);
	enum occ_status st = OCC_OK;
	long got = 0;

	if (!t || !buf)
		st = OCC_ERR_NOMEM;
	else
		t->r = r;
	while (st == OCC_OK && (got = occ_zin_read(z, buf, LAUNCH_CHUNK)) > 0) {
		st = trace_feed(t, buf, (size_t)got);
		r->offset += (uint64_t)got;
		r->info->bytes = r->offset;
	}
	if (st == OCC_OK && got < 0)
		st = launch_input_fail(r, z);
	if (st == OCC_OK)
		st = trace_finish(t);
	if (t) {
		free(t->line);
		free(t->rec.strs);
	}
	free(t);
	free(buf);
	return st;
}
