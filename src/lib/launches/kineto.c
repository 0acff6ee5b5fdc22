/*
 * kineto.c - a PyTorch profiler (Kineto) Chrome trace, read as one JSON
 * stream: its top-level "deviceProperties" describe the GPUs, and each
 * event of "traceEvents" whose "cat" is "kernel" is a launch, its figures
 * in "args" (libkineto's CuptiActivity.cpp writes them: "device",
 * "stream", "correlation", "registers per thread", "shared memory" as
 * static plus dynamic, "grid", "block", and its own estimate "blocks per
 * SM", "warps per SM", "est. achieved occupancy %"). Nothing else is
 * kept: an event is held while it is read, then dropped.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "launches_int.h"

enum role { R_TOP, R_DEVPROPS, R_DEVICE, R_EVENTS, R_EVENT, R_ARGS, R_DIM,
	    R_SKIP };

/* Keys of a device's properties and of a kernel event. */
enum dkey { D_ID, D_NAME, D_MAJOR, D_MINOR, D_SMS, D_WARP, D_THREADS_SM,
	    D_THREADS_BLOCK, D_REGS_SM, D_REGS_BLOCK, D_SMEM_SM, D_SMEM_BLOCK,
	    D_SMEM_OPTIN, D_COUNT };
static const char *const dkeys[D_COUNT] = {
	"id", "name", "computeMajor", "computeMinor", "numSms", "warpSize",
	"maxThreadsPerMultiprocessor", "maxThreadsPerBlock",
	"regsPerMultiprocessor", "regsPerBlock", "sharedMemPerMultiprocessor",
	"sharedMemPerBlock", "sharedMemPerBlockOptin"
};

enum ekey { E_PH, E_CAT, E_NAME, E_TS, E_DUR, E_ARGS, E_COUNT };
static const char *const ekeys[E_COUNT] = {
	"ph", "cat", "name", "ts", "dur", "args"
};

enum akey { A_DEVICE, A_CONTEXT, A_STREAM, A_CORRELATION, A_REGS, A_SMEM,
	    A_GRID, A_BLOCK, A_BPS, A_WPS, A_EST, A_COUNT };
static const char *const akeys[A_COUNT] = {
	"device", "context", "stream", "correlation", "registers per thread",
	"shared memory", "grid", "block", "blocks per SM", "warps per SM",
	"est. achieved occupancy %"
};

#define NONE (-1)
#define BIT(k) (1u << (k))

struct event {
	unsigned have;              /* E_ bits */
	unsigned args;              /* A_ bits */
	int is_kernel, is_complete;
	int64_t ts, dur;
	int64_t num[A_COUNT];
	double dec[A_COUNT];
	int64_t dim[2][3];
	int n_dim;
	int dim_key;                /* A_GRID or A_BLOCK, being read */
	const char *bad;            /* a key of the wrong type */
	uint64_t offset;            /* where the event starts */
};

struct kineto_reader {
	struct launch_read *r;
	struct json_stream js;
	enum role stack[OCC_LAUNCH_DEPTH_MAX + 1];
	int depth;
	int key;                    /* the current map's key (NONE: other) */
	int top_key;                /* 0 deviceProperties, 1 traceEvents */
	int seen_events;
	struct occ_launch_device dev;
	unsigned dev_have;
	struct event ev;
	char *name;                 /* the event's name */
	size_t name_len, name_cap;
};

static uint64_t here(const struct kineto_reader *k)
{
	return k->r->offset + json_stream_at(&k->js);
}

static int stop(struct kineto_reader *k, enum occ_status st, const char *what)
{
	k->js.st = st;
	launch_fail(k->r, st, 0, here(k), what);
	return 0;
}

static int find(const char *const *names, int n, const unsigned char *s,
		size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
			return i;
	return NONE;
}

static enum role role_here(const struct kineto_reader *k)
{
	return k->stack[k->depth];
}

/* ---- Values ---- */

static int dev_number(struct kineto_reader *k, const char *s, size_t n)
{
	int64_t v;

	if (k->key == NONE || k->key == D_NAME)
		return 1;
	if (json_int(s, n, &v) != 0 || v < 0 ||
	    v > (k->key >= D_SMEM_SM ? (int64_t)OCC_BYTES_MAX : INT32_MAX))
		return stop(k, OCC_ERR_RANGE, dkeys[k->key]);
	k->dev_have |= BIT(k->key);
	switch (k->key) {
	case D_ID: k->dev.device = (int)v; break;
	case D_MAJOR: k->dev.major = (int)v; break;
	case D_MINOR: k->dev.minor = (int)v; break;
	case D_SMS: k->dev.multiProcessorCount = (int)v; break;
	case D_WARP: k->dev.warpSize = (int)v; break;
	case D_THREADS_SM: k->dev.maxThreadsPerMultiProcessor = (int)v; break;
	case D_THREADS_BLOCK: k->dev.maxThreadsPerBlock = (int)v; break;
	case D_REGS_SM: k->dev.regsPerMultiprocessor = (int)v; break;
	case D_REGS_BLOCK: k->dev.regsPerBlock = (int)v; break;
	case D_SMEM_SM: k->dev.sharedMemPerMultiprocessor = (uint64_t)v; break;
	case D_SMEM_BLOCK: k->dev.sharedMemPerBlock = (uint64_t)v; break;
	default: k->dev.sharedMemPerBlockOptin = (uint64_t)v; break;
	}
	return 1;
}

static void arg_number(struct kineto_reader *k, const char *s, size_t n)
{
	struct event *e = &k->ev;
	int64_t v;

	if (k->key == NONE)
		return;
	if (k->key == A_GRID || k->key == A_BLOCK) {
		e->bad = akeys[k->key];     /* a number where a list is */
		return;
	}
	if (k->key >= A_BPS) {
		/* Kineto's estimate: floats, and -1 where it had none. */
		if (json_double(s, n, &e->dec[k->key]) != 0)
			e->bad = akeys[k->key];
		else
			e->args |= BIT(k->key);
		return;
	}
	if (json_int(s, n, &v) != 0)
		e->bad = akeys[k->key];
	else {
		e->num[k->key] = v;
		e->args |= BIT(k->key);
	}
}

static void dim_number(struct kineto_reader *k, const char *s, size_t n)
{
	struct event *e = &k->ev;
	int which = e->dim_key == A_GRID ? 0 : 1;
	int64_t v;

	if (e->n_dim == 3 || json_int(s, n, &v) != 0 || v < 0 ||
	    v > INT32_MAX) {
		e->bad = akeys[e->dim_key];
		return;
	}
	e->dim[which][e->n_dim++] = v;
}

static int on_number(void *ctx, const char *s, size_t n)
{
	struct kineto_reader *k = ctx;
	struct event *e = &k->ev;
	int st;

	json_stream_touch(&k->js);
	switch (role_here(k)) {
	case R_DEVICE:
		return dev_number(k, s, n);
	case R_EVENT:
		if (k->key != E_TS && k->key != E_DUR)
			return 1;
		st = json_us_to_ns(s, n, k->key == E_TS ? &e->ts : &e->dur);
		if (st != 0)
			e->bad = ekeys[k->key];
		else
			e->have |= BIT(k->key);
		return 1;
	case R_ARGS:
		arg_number(k, s, n);
		return 1;
	case R_DIM:
		dim_number(k, s, n);
		return 1;
	default:
		return 1;
	}
}

static int name_keep(struct kineto_reader *k, const unsigned char *s,
		     size_t n)
{
	size_t cap = k->name_cap ? k->name_cap : 256;
	char *p;

	if (n + 1 > k->name_cap) {
		while (cap < n + 1)
			cap *= 2;
		p = realloc(k->name, cap);
		if (!p)
			return stop(k, OCC_ERR_NOMEM, NULL);
		k->name = p;
		k->name_cap = cap;
	}
	memcpy(k->name, s, n);
	k->name[n] = '\0';
	k->name_len = n;
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	struct kineto_reader *k = ctx;
	struct event *e = &k->ev;

	json_stream_touch(&k->js);
	switch (role_here(k)) {
	case R_DEVICE:
		if (k->key == D_NAME) {
			k->dev_have |= BIT(D_NAME);
			if (n >= sizeof k->dev.name)
				n = sizeof k->dev.name - 1;
			memcpy(k->dev.name, s, n);
			k->dev.name[n] = '\0';
		} else if (k->key != NONE)
			return stop(k, OCC_ERR_BAD_VALUE, dkeys[k->key]);
		return 1;
	case R_EVENT:
		if (k->key == E_CAT) {
			/* "kernel"; Kineto before 2021 wrote "Kernel". */
			e->is_kernel = n == 6 &&
				       strncasecmp((const char *)s, "kernel",
						   6) == 0;
			e->have |= BIT(E_CAT);
		} else if (k->key == E_PH) {
			e->is_complete = n == 1 && s[0] == 'X';
			e->have |= BIT(E_PH);
		} else if (k->key == E_NAME) {
			e->have |= BIT(E_NAME);
			return name_keep(k, s, n);
		} else if (k->key == E_TS || k->key == E_DUR)
			e->bad = ekeys[k->key];
		return 1;
	case R_ARGS:
		if (k->key != NONE)
			e->bad = akeys[k->key];
		return 1;
	case R_DIM:
		e->bad = akeys[e->dim_key];
		return 1;
	default:
		return 1;
	}
}

static int on_other(void *ctx)
{
	struct kineto_reader *k = ctx;

	json_stream_touch(&k->js);
	if (role_here(k) == R_ARGS && k->key != NONE)
		k->ev.bad = akeys[k->key];
	if (role_here(k) == R_DIM)
		k->ev.bad = akeys[k->ev.dim_key];
	return 1;
}

static int on_bool(void *ctx, int b)
{
	(void)b;
	return on_other(ctx);
}

static int on_map_key(void *ctx, const unsigned char *s, size_t n)
{
	struct kineto_reader *k = ctx;

	json_stream_touch(&k->js);
	switch (role_here(k)) {
	case R_TOP:
		k->key = find((const char *const[]){ "deviceProperties",
						    "traceEvents" }, 2, s, n);
		break;
	case R_DEVICE:
		k->key = find(dkeys, D_COUNT, s, n);
		break;
	case R_EVENT:
		k->key = find(ekeys, E_COUNT, s, n);
		break;
	case R_ARGS:
		k->key = find(akeys, A_COUNT, s, n);
		break;
	default:
		k->key = NONE;
	}
	return 1;
}

/* ---- Containers ---- */

/* What a container opened here is, from where it opens. */
static enum role role_of_child(const struct kineto_reader *k, int is_array)
{
	if (k->depth == 0)
		return is_array ? R_SKIP : R_TOP;
	switch (role_here(k)) {
	case R_TOP:
		if (!is_array || k->key == NONE)
			return R_SKIP;
		return k->key == 0 ? R_DEVPROPS : R_EVENTS;
	case R_DEVPROPS:
		return is_array ? R_SKIP : R_DEVICE;
	case R_EVENTS:
		return is_array ? R_SKIP : R_EVENT;
	case R_EVENT:
		return !is_array && k->key == E_ARGS ? R_ARGS : R_SKIP;
	case R_ARGS:
		return is_array && (k->key == A_GRID || k->key == A_BLOCK)
		       ? R_DIM : R_SKIP;
	default:
		return R_SKIP;
	}
}

static int enter(struct kineto_reader *k, int is_array)
{
	enum role role = role_of_child(k, is_array);

	json_stream_touch(&k->js);
	if (k->depth == 0 && is_array)
		return stop(k, OCC_ERR_SYNTAX, "neither an occcalc trace nor "
			    "a Chrome trace object");
	if (k->depth == OCC_LAUNCH_DEPTH_MAX)
		return stop(k, OCC_ERR_RANGE, "nesting");
	/* A value of a known key in the wrong shape. */
	if (role == R_SKIP && role_here(k) == R_ARGS && k->key != NONE)
		k->ev.bad = akeys[k->key];
	if (role == R_SKIP && role_here(k) == R_DIM)
		k->ev.bad = akeys[k->ev.dim_key];
	if (role == R_DIM)
		k->ev.dim_key = k->key;
	k->stack[++k->depth] = role;
	if (role == R_DEVICE) {
		memset(&k->dev, 0, sizeof k->dev);
		k->dev_have = 0;
	} else if (role == R_EVENT) {
		memset(&k->ev, 0, sizeof k->ev);
		k->ev.offset = here(k);
		k->name_len = 0;
	} else if (role == R_EVENTS) {
		k->seen_events = 1;
	} else if (role == R_DIM) {
		k->ev.n_dim = 0;
	}
	k->key = NONE;
	return 1;
}

static int on_start_map(void *ctx) { return enter(ctx, 0); }
static int on_start_array(void *ctx) { return enter(ctx, 1); }

static int device_end(struct kineto_reader *k)
{
	static const unsigned need = BIT(D_ID) | BIT(D_MAJOR) | BIT(D_MINOR) |
				     BIT(D_SMS);
	int d;

	for (d = 0; d < D_COUNT; d++)
		if ((need & BIT(d)) && !(k->dev_have & BIT(d)))
			return stop(k, OCC_ERR_MISSING_KEY, dkeys[d]);
	k->js.st = launch_device(k->r, &k->dev);
	return k->js.st == OCC_OK;
}

static void kineto_figures(const struct event *e, struct occ_launch_record *l)
{
	l->has_kineto = ((e->args & BIT(A_EST)) ? OCC_KINETO_EST : 0) |
			((e->args & BIT(A_BPS)) ? OCC_KINETO_BLOCKS : 0) |
			((e->args & BIT(A_WPS)) ? OCC_KINETO_WARPS : 0);
	l->kineto_est_pct = e->dec[A_EST];
	l->kineto_blocks_per_sm = e->dec[A_BPS];
	l->kineto_warps_per_sm = e->dec[A_WPS];
}

static int kernel_end(struct kineto_reader *k)
{
	static const unsigned need = BIT(A_DEVICE) | BIT(A_REGS) |
				     BIT(A_SMEM) | BIT(A_GRID) | BIT(A_BLOCK);
	const struct event *e = &k->ev;
	struct occ_launch_record l;
	int a;

	if (e->bad)
		return stop(k, OCC_ERR_BAD_VALUE, e->bad);
	for (a = 0; a < A_COUNT; a++)
		if ((need & BIT(a)) && !(e->args & BIT(a)))
			return stop(k, OCC_ERR_MISSING_KEY, akeys[a]);
	if (e->num[A_DEVICE] < 0 || e->num[A_DEVICE] > INT32_MAX)
		return stop(k, OCC_ERR_RANGE, akeys[A_DEVICE]);
	if (e->num[A_REGS] < 0 || e->num[A_REGS] > 65535)
		return stop(k, OCC_ERR_RANGE, akeys[A_REGS]);
	if (e->num[A_SMEM] < 0 || e->num[A_SMEM] > (int64_t)OCC_BYTES_MAX)
		return stop(k, OCC_ERR_RANGE, akeys[A_SMEM]);
	launch_defaults(&l, OCC_LAUNCH_FORMAT_KINETO);
	l.offset = e->offset;
	l.kernel = (e->have & BIT(E_NAME)) ? k->name : "";
	l.device = (int)e->num[A_DEVICE];
	l.context = (e->args & BIT(A_CONTEXT)) ? e->num[A_CONTEXT] : -1;
	l.stream = (e->args & BIT(A_STREAM)) ? e->num[A_STREAM] : -1;
	l.correlation = (e->args & BIT(A_CORRELATION)) ? e->num[A_CORRELATION]
						       : -1;
	l.regs = (int)e->num[A_REGS];
	l.smem_total = e->num[A_SMEM];
	memcpy(l.grid, e->dim[0], sizeof l.grid);
	memcpy(l.block, e->dim[1], sizeof l.block);
	if (e->have & BIT(E_TS)) {
		l.start_ns = e->ts;
		if ((e->have & BIT(E_DUR)) && e->dur >= 0 &&
		    e->ts <= INT64_MAX - e->dur)
			l.end_ns = e->ts + e->dur;
	}
	kineto_figures(e, &l);
	k->js.st = launch_deliver(k->r, &l);
	if (k->js.st != OCC_OK)
		return 0;
	return 1;
}

static int on_end(void *ctx)
{
	struct kineto_reader *k = ctx;
	enum role role = role_here(k);

	json_stream_touch(&k->js);
	k->depth--;
	k->key = NONE;
	if (role == R_DIM) {
		if (k->ev.n_dim != 3)
			k->ev.bad = akeys[k->ev.dim_key];
		else
			k->ev.args |= BIT(k->ev.dim_key);
	}
	if (role == R_DEVICE)
		return device_end(k);
	if (role == R_EVENT && k->ev.is_kernel && k->ev.is_complete)
		return kernel_end(k);
	if (role == R_EVENT)
		k->r->info->skipped++;
	return 1;
}

static const yajl_callbacks callbacks = {
	on_other, on_bool, NULL, NULL, on_number, on_string,
	on_start_map, on_map_key, on_end, on_start_array, on_end
};

enum occ_status kineto_open(struct kineto_reader **out, struct launch_read *r)
{
	struct kineto_reader *k = calloc(1, sizeof *k);
	enum occ_status st;

	*out = k;
	if (!k)
		return OCC_ERR_NOMEM;
	k->r = r;
	k->key = NONE;
	st = json_stream_open(&k->js, &callbacks, k, 0);
	return st;
}

enum occ_status kineto_feed(struct kineto_reader *k, const unsigned char *p,
			    size_t n)
{
	enum occ_status st;
	size_t at;

	st = json_stream_feed(&k->js, p, n, &at);
	if (st == OCC_ERR_SYNTAX && k->js.st == OCC_OK)
		return launch_fail(k->r, st, 0, k->r->offset + at,
				   "not JSON");
	if (st == OCC_ERR_RANGE && k->js.st == OCC_OK) {
		k->r->diag->limit = LAUNCH_TOKEN_MAX;
		return launch_fail(k->r, st, 0, k->r->offset + at,
				   "JSON token");
	}
	return st;
}

enum occ_status kineto_finish(struct kineto_reader *k)
{
	enum occ_status st = json_stream_finish(&k->js);

	if (st != OCC_OK)
		return k->js.st != OCC_OK ? st
		       : launch_fail(k->r, st, 0, k->r->offset,
				     "JSON ends before the document does");
	if (!k->seen_events)
		return launch_fail(k->r, OCC_ERR_MISSING_KEY, 0, 0,
				   "traceEvents");
	return OCC_OK;
}

void kineto_close(struct kineto_reader *k)
{
	if (!k)
		return;
	json_stream_close(&k->js);
	free(k->name);
	free(k);
}
