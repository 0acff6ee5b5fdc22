/*
 * kineto.c - a PyTorch profiler (Kineto) Chrome trace, read as one JSON
 * stream: its top-level "deviceProperties" describe the GPUs, and each
 * event of "traceEvents" whose "cat" is "kernel" is a launch, its figures
 * in "args" (libkineto's CuptiActivity.cpp writes them: "device",
 * "stream", "correlation", "registers per thread", "shared memory" as
 * static plus dynamic, "grid", "block", and its own estimate "blocks per
 * SM", "warps per SM", "est. achieved occupancy %"). The events come
 * from the project's JSON reader (json.h) as they are read: nothing is
 * kept but the event being read. A file that ends inside its
 * traceEvents was cut short: what it holds up to there is read, and
 * the file's information says so.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json.h"
#include "launches_int.h"
#include "zin.h"


enum role { R_TOP, R_DEVPROPS, R_DEVICE, R_EVENTS, R_EVENT, R_ARGS, R_DIM,
	    R_SHAPES, R_SKIP };

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

enum ekey { E_PH, E_CAT, E_NAME, E_TS, E_DUR, E_ARGS, E_PID, E_TID,
	    E_COUNT };
static const char *const ekeys[E_COUNT] = {
	"ph", "cat", "name", "ts", "dur", "args", "pid", "tid"
};

/* A cpu_op's "Input Dims" kept as JSON text up to this (longer: none). */
#define SHAPES_MAX 4096
#define MODULE_PREFIX "nn.Module: "

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
static const char *const akeys[A_COUNT] = {
	"device", "context", "stream", "correlation", "registers per thread",
	"shared memory", "grid", "block", "blocks per SM", "warps per SM",
	"est. achieved occupancy %", "est_occupancy_pct"
};


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


static int find(const char *const *names, int n, const char *key)
{
	int i;

	for (i = 0; key && i < n; i++)
		if (strcmp(names[i], key) == 0)
			return i;
	return NONE;
}

/* Microseconds written as a decimal (Kineto's ts and dur, "12.345")
 * into nanoseconds, exactly to three decimals: 0, or -1. */
static int us_to_ns(const char *s, size_t n, int64_t *out)
{
	size_t dot = 0, i, digits = 0;
	int64_t whole, frac = 0;

	while (dot < n && s[dot] != '.')
		dot++;
	if (occ_json_int(s, dot, INT64_MIN / 1000 + 1, INT64_MAX / 1000 - 1,
			 &whole) != 0)
		return -1;
	for (i = dot + 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;      /* an exponent: no time Kineto writes */
		if (digits < 3) {
			frac = frac * 10 + (s[i] - '0');
			digits++;
		}
	}
	for (; digits < 3; digits++)
		frac *= 10;
	*out = whole * 1000 + (s[0] == '-' ? -frac : frac);
	return 0;
}

/* A finite decimal within lo..hi: 0; -1 when no decimal; -2 when out
 * of range (1e400 reads as HUGE_VAL, which no JSON writer may print). */
static int decimal(const char *s, double lo, double hi, double *out)
{
	char *end;

	*out = strtod(s, &end);
	if (*end)
		return -1;
	return *out >= lo && *out <= hi ? 0 : -2;
}

/* ---- Values ---- */

static int dev_number(struct kineto *k, struct occ_json_reader *jr,
		      const struct occ_json_event *e)
{
	int key = find(dkeys, D_COUNT, e->key);
	uint64_t max = key >= D_SMEM_SM ? OCC_BYTES_MAX : INT32_MAX;
	uint64_t v;

	if (key == NONE)
		return 0;
	if (key == D_NAME || occ_json_uint(e->text, e->len, max, &v) != 0)
		return occ_json_fail(jr, key == D_NAME ? OCC_ERR_BAD_VALUE
				     : OCC_ERR_RANGE, e->offset, "%s",
				     dkeys[key]);
	k->dev_have |= BIT(key);
	switch (key) {
	case D_ID: k->dev.device = (int)v; break;
	case D_MAJOR: k->dev.major = (int)v; break;
	case D_MINOR: k->dev.minor = (int)v; break;
	case D_SMS: k->dev.multiProcessorCount = (int)v; break;
	case D_WARP: k->dev.warpSize = (int)v; break;
	case D_THREADS_SM: k->dev.maxThreadsPerMultiProcessor = (int)v; break;
	case D_THREADS_BLOCK: k->dev.maxThreadsPerBlock = (int)v; break;
	case D_REGS_SM: k->dev.regsPerMultiprocessor = (int)v; break;
	case D_REGS_BLOCK: k->dev.regsPerBlock = (int)v; break;
	case D_SMEM_SM: k->dev.sharedMemPerMultiprocessor = v; break;
	case D_SMEM_BLOCK: k->dev.sharedMemPerBlock = v; break;
	default: k->dev.sharedMemPerBlockOptin = v; break;
	}
	return 0;
}

static int dev_value(struct kineto *k, struct occ_json_reader *jr,
		     const struct occ_json_event *e)
{
	if (e->type == JSON_NUMBER)
		return dev_number(k, jr, e);
	if (find(dkeys, D_COUNT, e->key) == D_NAME) {
		if (e->type != JSON_STRING)
			return occ_json_fail(jr, OCC_ERR_BAD_VALUE, e->offset,
					     "name");
		k->dev_have |= BIT(D_NAME);
		occ_copy_string(k->dev.name, sizeof k->dev.name, e->text);
		return 0;
	}
	if (find(dkeys, D_COUNT, e->key) != NONE)
		return occ_json_fail(jr, OCC_ERR_BAD_VALUE, e->offset, "%s",
				     e->key);
	return 0;
}

/* The event's arguments: a wrong type is an error only if the event
 * turns out to be a kernel's, which its "cat" may say after them. */
static void arg_value(struct kineto *k, const struct occ_json_event *e)
{
	struct event *ev = &k->ev;
	int key = find(akeys, A_COUNT, e->key);
	int64_t v;
	int st;

	if (e->key && strcmp(e->key, "External id") == 0 &&
	    e->type == JSON_NUMBER &&
	    occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX, &v) == 0) {
		ev->ext = v;
		ev->have_ext = 1;
	}
	if (key == NONE)
		return;
	if (key == A_REGS || key == A_GRID || key == A_BLOCK)
		ev->kernel_like = 1;
	if (e->type != JSON_NUMBER || key == A_GRID || key == A_BLOCK) {
		ev->bad = akeys[key];
		return;
	}
	if (key >= A_BPS) {
		/* Kineto's estimate: floats, negative (-1, -100) where it had
		 * none; a percentage past 0..100 is not taken, and counted. */
		st = decimal(e->text, 0, key >= A_EST ? 100 : DBL_MAX,
			     &ev->dec[key]);
		if (st == -1)
			ev->bad = akeys[key];
		else if (st == 0)
			ev->args |= BIT(key);
		else if (key >= A_EST)
			ev->est_bad = 1;
		return;
	}
	if (occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX, &v) != 0)
		ev->bad = akeys[key];
	else {
		ev->num[key] = v;
		ev->args |= BIT(key);
	}
}

static void dim_value(struct kineto *k, const struct occ_json_event *e)
{
	struct event *ev = &k->ev;
	int64_t v;

	if (e->type != JSON_NUMBER || ev->n_dim == 3 ||
	    occ_json_int(e->text, e->len, 0, INT32_MAX, &v) != 0) {
		ev->bad = akeys[ev->dim_key];
		return;
	}
	ev->dim[ev->dim_key == A_GRID ? 0 : 1][ev->n_dim++] = v;
}

static int name_keep(struct kineto *k, struct occ_json_reader *jr,
		     const struct occ_json_event *e)
{
	size_t cap = k->name_cap ? k->name_cap : 256;
	char *p;

	if (e->len + 1 > k->name_cap) {
		while (cap < e->len + 1)
			cap *= 2;
		p = realloc(k->name, cap);
		if (!p)
			return occ_json_fail(jr, OCC_ERR_NOMEM, e->offset,
					     "out of memory");
		k->name = p;
		k->name_cap = cap;
	}
	memcpy(k->name, e->text, e->len + 1);
	k->ev.have |= BIT(E_NAME);
	return 0;
}

/* "kernel" with spaces around it: an edited trace's, not read but
 * counted. */
static int kernel_spelt(const char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == 6 && strncasecmp(s, "kernel", 6) == 0;
}

static int event_value(struct kineto *k, struct occ_json_reader *jr,
		       const struct occ_json_event *e)
{
	struct event *ev = &k->ev;
	int key = find(ekeys, E_COUNT, e->key);
	int64_t v;

	if ((key == E_PID || key == E_TID) && e->type == JSON_NUMBER &&
	    occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX, &v) == 0) {
		*(key == E_PID ? &ev->pid : &ev->tid) = v;
		ev->have |= BIT(key);
	} else if (key == E_CAT && e->type == JSON_STRING) {
		k->pytorch |= launch_pytorch_mark(e->text, 0);
		/* "kernel"; Kineto before 2021 wrote "Kernel". */
		ev->is_kernel = strcasecmp(e->text, "kernel") == 0;
		ev->is_cpu_op = strcmp(e->text, "cpu_op") == 0;
		ev->is_module = strcmp(e->text, "python_function") == 0;
		ev->kernel_like |= kernel_spelt(e->text);
	} else if (key == E_PH && e->type == JSON_STRING) {
		ev->is_complete = strcmp(e->text, "X") == 0;
	} else if (key == E_NAME && e->type == JSON_STRING) {
		return name_keep(k, jr, e);
	} else if (key == E_TS || key == E_DUR) {
		if (e->type != JSON_NUMBER ||
		    us_to_ns(e->text, e->len, key == E_TS ? &ev->ts
						      : &ev->dur) != 0)
			ev->bad = ekeys[key];
		else
			ev->have |= BIT(key);
	}
	return 0;
}

/* Input Dims as compact JSON text, ", " between elements as Python's
 * json.dumps writes them. */
static void shapes_put(struct kineto *k, const struct occ_json_event *e,
		       const char *text)
{
	struct event *ev = &k->ev;
	size_t n = strlen(text);

	if (ev->shapes_len == SHAPES_MAX)
		return;
	if (e->depth > 0 && e->index > 0 && e->type != JSON_END) {
		if (ev->shapes_len + 2 >= SHAPES_MAX) {
			ev->shapes_len = SHAPES_MAX;
			return;
		}
		memcpy(k->shapes + ev->shapes_len, ", ", 2);
		ev->shapes_len += 2;
	}
	if (ev->shapes_len + n >= SHAPES_MAX) {
		ev->shapes_len = SHAPES_MAX;
		return;
	}
	memcpy(k->shapes + ev->shapes_len, text, n + 1);
	ev->shapes_len += n;
}

/* The member occcalc --annotate adds to a kernel's args: a trace
 * annotated once is not annotated again. */
static int is_annotation(const struct occ_json_event *e)
{
	return e->key && strcmp(e->key, "occcalc") == 0;
}

/* ---- Containers ---- */

/* What a container opened at depth d is, from where it opens. */
static enum role role_of(const struct kineto *k,
			 const struct occ_json_event *e)
{
	int key;

	if (e->depth == 0)
		return R_TOP;
	switch (k->role[e->depth - 1]) {
	case R_TOP:
		if (e->type != JSON_ARRAY)
			return R_SKIP;
		key = find((const char *const[]){ "deviceProperties",
						 "traceEvents" }, 2, e->key);
		return key == 0 ? R_DEVPROPS : key == 1 ? R_EVENTS : R_SKIP;
	case R_DEVPROPS:
		return e->type == JSON_OBJECT ? R_DEVICE : R_SKIP;
	case R_EVENTS:
		return e->type == JSON_OBJECT ? R_EVENT : R_SKIP;
	case R_EVENT:
		return e->type == JSON_OBJECT &&
		       find(ekeys, E_COUNT, e->key) == E_ARGS ? R_ARGS : R_SKIP;
	case R_ARGS:
		key = find(akeys, A_COUNT, e->key);
		if (e->type == JSON_ARRAY && e->key &&
		    strcmp(e->key, "Input Dims") == 0)
			return R_SHAPES;
		return e->type == JSON_ARRAY && (key == A_GRID ||
						 key == A_BLOCK)
		       ? R_DIM : R_SKIP;
	case R_SHAPES:
		return e->type == JSON_ARRAY ? R_SHAPES : R_SKIP;
	default:
		return R_SKIP;
	}
}

static int open_container(struct kineto *k, struct occ_json_reader *jr,
			  const struct occ_json_event *e)
{
	enum role role = role_of(k, e), parent;

	if (e->depth == 0 && e->type == JSON_ARRAY)
		return occ_json_fail(jr, OCC_ERR_SYNTAX, e->offset, "neither "
				     "an occcalc trace nor a Chrome trace "
				     "object");
	/* A value of a known argument in the wrong shape. */
	if (role == R_DIM)
		k->ev.kernel_like = 1;
	parent = e->depth > 0 ? k->role[e->depth - 1] : R_SKIP;
	if (role == R_SKIP && parent == R_ARGS)
		arg_value(k, e);
	if (e->depth > 0 && parent == R_ARGS)
		k->ev.annotated |= is_annotation(e);
	if (role == R_SKIP && e->depth > 0 && parent == R_DIM)
		k->ev.bad = akeys[k->ev.dim_key];
	k->role[e->depth] = role;
	if (role == R_SHAPES || (e->depth > 0 && parent == R_SHAPES))
		shapes_put(k, e, role == R_SHAPES ? "[" : "null");
	if (e->depth == 1 && e->key)
		k->pytorch |= launch_pytorch_mark(e->key, 1);
	if (role == R_DEVPROPS && k->seen_events)
		k->late_props = 1;
	if (role == R_DEVICE) {
		memset(&k->dev, 0, sizeof k->dev);
		k->dev_have = 0;
	} else if (role == R_EVENT) {
		memset(&k->ev, 0, sizeof k->ev);
		k->ev.offset = e->offset;
	} else if (role == R_EVENTS) {
		k->seen_events = 1;
	} else if (role == R_DIM) {
		k->ev.n_dim = 0;
		k->ev.dim_key = find(akeys, A_COUNT, e->key);
	}
	return 0;
}

static int device_end(struct kineto *k, struct occ_json_reader *jr,
		      const struct occ_json_event *e)
{
	static const unsigned need = BIT(D_ID) | BIT(D_MAJOR) | BIT(D_MINOR) |
				     BIT(D_SMS);
	enum occ_status st;
	int d;

	for (d = 0; d < D_COUNT; d++)
		if ((need & BIT(d)) && !(k->dev_have & BIT(d)))
			return occ_json_fail(jr, OCC_ERR_MISSING_KEY, e->offset,
					     "%s", dkeys[d]);
	if (k->r->collect)
		return 0;
	st = launch_device(k->r, &k->dev);
	return st == OCC_OK ? 0 : occ_json_fail(jr, st, e->offset, "%s",
						  k->r->diag->key);
}

static void kineto_figures(const struct event *e, struct occ_launch_record *l)
{
	int est = (e->args & BIT(A_EST)) ? A_EST : A_EST_PCT;

	l->has_kineto = ((e->args & BIT(est)) ? OCC_KINETO_EST : 0) |
			((e->args & BIT(A_BPS)) ? OCC_KINETO_BLOCKS : 0) |
			((e->args & BIT(A_WPS)) ? OCC_KINETO_WARPS : 0);
	l->kineto_est_pct = e->dec[est];
	l->kineto_blocks_per_sm = e->dec[A_BPS];
	l->kineto_warps_per_sm = e->dec[A_WPS];
}

static enum occ_status kernel_check(const struct event *e, const char **what)
{
	static const unsigned need = BIT(A_DEVICE) | BIT(A_REGS) |
				     BIT(A_SMEM) | BIT(A_GRID) | BIT(A_BLOCK);
	int a;

	*what = e->bad;
	if (e->bad)
		return OCC_ERR_BAD_VALUE;
	for (a = 0; a < A_COUNT; a++)
		if ((need & BIT(a)) && !(e->args & BIT(a))) {
			*what = akeys[a];
			return OCC_ERR_MISSING_KEY;
		}
	*what = e->num[A_DEVICE] < 0 || e->num[A_DEVICE] > INT32_MAX
		? akeys[A_DEVICE]
		: e->num[A_REGS] < 0 || e->num[A_REGS] > 65535 ? akeys[A_REGS]
		: e->num[A_SMEM] < 0 || e->num[A_SMEM] > (int64_t)OCC_BYTES_MAX
		? akeys[A_SMEM] : NULL;
	return *what ? OCC_ERR_RANGE : OCC_OK;
}

static int described(const struct launch_read *r, int id)
{
	size_t i;

	for (i = 0; i < r->n_dev; i++)
		if (r->dev[i].device == id)
			return 1;
	return 0;
}

static int kernel_end(struct kineto *k, struct occ_json_reader *jr)
{
	const struct event *e = &k->ev;
	struct occ_launch_record l;
	const char *what;
	enum occ_status st;

	if (k->r->collect)
		return 0;
	st = kernel_check(e, &what);
	if (st != OCC_OK)
		return occ_json_fail(jr, st, e->offset, "%s", what);
	/* A launch on a device not yet described: its properties may come
	 * after the events (kineto_read reads them first, where it can). */
	if (!described(k->r, (int)e->num[A_DEVICE])) {
		if (k->r->start >= 0 && !k->r->devices_first) {
			k->restart = 1;
			return occ_json_fail(jr, OCC_ERR_UNSUPPORTED, e->offset,
					     "devices after events");
		}
		k->no_device++;
	}
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
	if (e->have_ext) {
		l.external_id = e->ext;
		if (!ops_find(k->r->ops, e->ext, &l.op, &l.op_shapes,
			      &l.module))
			k->r->info->kernels_without_op++;
	}
	k->r->args_close = e->args_close;
	k->r->args_annotated = e->annotated;
	if (e->est_bad && !(l.has_kineto & OCC_KINETO_EST))
		k->r->info->estimates_out_of_range++;
	st = launch_deliver(k->r, &l);
	return st == OCC_OK ? 0 : occ_json_fail(jr, st, e->offset, "%s",
						  k->r->diag->key);
}

/* A cpu_op, or an nn.Module's python_function, kept for the kernels. */
static void operator_end(struct kineto *k)
{
	const struct event *e = &k->ev;
	unsigned where = BIT(E_PID) | BIT(E_TID) | BIT(E_TS);

	if (!(e->have & BIT(E_NAME)))
		return;
	if (e->is_cpu_op && e->have_ext)
		ops_add_op(k->r->ops, e->ext, k->name,
			   e->have_shapes && e->shapes_len < SHAPES_MAX
			   ? k->shapes : NULL,
			   (e->have & BIT(E_PID)) ? e->pid : INT64_MIN,
			   (e->have & BIT(E_TID)) ? e->tid : INT64_MIN,
			   (e->have & BIT(E_TS)) ? e->ts : INT64_MIN);
	else if (e->is_module && (e->have & where) == where &&
		 strncmp(k->name, MODULE_PREFIX, strlen(MODULE_PREFIX)) == 0)
		ops_add_module(k->r->ops, k->name, e->pid, e->tid, e->ts,
			       (e->have & BIT(E_DUR)) ? e->dur : 0);
}

static int close_container(struct kineto *k, struct occ_json_reader *jr,
			   const struct occ_json_event *e)
{
	enum role role = k->role[e->depth];

	if (role == R_DIM) {
		if (k->ev.n_dim != 3)
			k->ev.bad = akeys[k->ev.dim_key];
		else
			k->ev.args |= BIT(k->ev.dim_key);
	}
	if (role == R_SHAPES) {
		shapes_put(k, e, "]");
		k->ev.have_shapes = e->depth > 0 &&
				    k->role[e->depth - 1] == R_ARGS;
	}
	if (role == R_ARGS)
		k->ev.args_close = e->offset;
	if (role == R_DEVICE)
		return device_end(k, jr, e);
	if (k->devices_only)
		return 0;
	if (role == R_EVENT && k->r->ops)
		operator_end(k);
	if (role == R_EVENT && k->ev.is_kernel && k->ev.is_complete)
		return kernel_end(k, jr);
	if (role == R_EVENT && (k->ev.is_kernel || k->ev.kernel_like))
		k->r->info->kernels_left_out++;
	else if (role == R_EVENT)
		k->r->info->skipped++;
	return 0;
}

/* What a whole read says beyond its launches: devices that came too
 * late for a pipe, a PyTorch trace without kernel events, and a Chrome
 * trace that is no PyTorch trace at all. */
static enum occ_status pass_end(struct launch_read *r, const struct kineto *k)
{
	if (k->late_props && k->no_device)
		r->info->devices_late = 1;
	if (r->info->launches || r->info->kernels_left_out || r->info->cut_short)
		return OCC_OK;
	if (k->pytorch) {
		r->info->no_kernel_events = 1;
		return OCC_OK;
	}
	r->info->not_trace = 1;
	return launch_fail(r, OCC_ERR_SYNTAX, 0, 0, "another tool's "
			   "Chrome trace: no kernel or PyTorch event");
}

static int on_event(void *ctx, struct occ_json_reader *jr,
		    const struct occ_json_event *e)
{
	struct kineto *k = ctx;

	if (e->type == JSON_OBJECT || e->type == JSON_ARRAY)
		return open_container(k, jr, e);
	if (e->type == JSON_END)
		return close_container(k, jr, e);
	if (e->depth == 0)
		return occ_json_fail(jr, OCC_ERR_SYNTAX, e->offset, "neither an "
				     "occcalc trace nor a Chrome trace object");
	switch (k->role[e->depth - 1]) {
	case R_DEVICE:
		return dev_value(k, jr, e);
	case R_EVENT:
		return event_value(k, jr, e);
	case R_ARGS:
		k->ev.annotated |= is_annotation(e);
		arg_value(k, e);
		return 0;
	case R_DIM:
		dim_value(k, e);
		return 0;
	case R_SHAPES:
		shapes_put(k, e, e->type == JSON_NUMBER ? e->text : "null");
		return 0;
	default:
		return 0;
	}
}

/* One pass over the input: devices and launches, or (devices_only) the
 * devices alone. *restart: stopped at a launch whose device may be
 * described after the events. */
enum occ_status kineto_pass(struct launch_read *r, struct occ_zin *z,
			    int devices_only, int *restart)
{
	struct occ_json_limits lim = { 0, LAUNCH_TOKEN_MAX, 0, 0 };
	struct occ_json_err err;
	struct kineto *k = calloc(1, sizeof *k);
	enum occ_status st;

	if (!k)
		return OCC_ERR_NOMEM;
	k->r = r;
	k->devices_only = devices_only;
	memset(&err, 0, sizeof err);
	st = occ_json_read_zin(z, &lim, on_event, k, &err);
	r->info->bytes = err.bytes;
	*restart = k->restart;
	if (k->restart)
		st = OCC_OK;
	else if (st != OCC_OK && err.input)
		st = launch_input_fail(r, z);
	else if (st != OCC_OK && err.cut_short && k->seen_events) {
		/* A file cut short (a job killed as the profiler wrote it, a
		 * copy broken off): the launches whose events ended before
		 * the cut are read, as an occcalc trace's whole lines are. */
		r->info->cut_short = 1;
		st = OCC_OK;
	} else if (st != OCC_OK)
		st = launch_json_fail(r, &err);
	else if (!k->seen_events) {
		r->info->not_trace = 1;
		st = launch_fail(r, OCC_ERR_SYNTAX, 0, 0, "a JSON object "
				 "without traceEvents");
	}
	if (st == OCC_OK && !k->restart && !devices_only)
		st = pass_end(r, k);
	free(k->name);
	free(k);
	return st;
}

