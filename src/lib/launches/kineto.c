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
#include <stdlib.h>
#include <string.h>

#include "kineto_int.h"
#include "zin.h"

#define MODULE_PREFIX "nn.Module: "

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
		key = kineto_find((const char *const[]){
			"deviceProperties", "traceEvents" }, 2, e->key);
		return key == 0 ? R_DEVPROPS : key == 1 ? R_EVENTS : R_SKIP;
	case R_DEVPROPS:
		return e->type == JSON_OBJECT ? R_DEVICE : R_SKIP;
	case R_EVENTS:
		return e->type == JSON_OBJECT ? R_EVENT : R_SKIP;
	case R_EVENT:
		return e->type == JSON_OBJECT &&
		       kineto_find(kineto_ekeys, E_COUNT, e->key) == E_ARGS
		       ? R_ARGS : R_SKIP;
	case R_ARGS:
		key = kineto_find(kineto_akeys, A_COUNT, e->key);
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
		kineto_arg_value(k, e);
	if (e->depth > 0 && parent == R_ARGS)
		k->ev.annotated |= kineto_is_annotation(e);
	if (role == R_SKIP && e->depth > 0 && parent == R_DIM)
		k->ev.bad = kineto_akeys[k->ev.dim_key];
	k->role[e->depth] = role;
	if (role == R_SHAPES || (e->depth > 0 && parent == R_SHAPES))
		kineto_shapes_put(k, e, role == R_SHAPES ? "[" : "null");
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
		k->ev.dim_key = kineto_find(kineto_akeys, A_COUNT, e->key);
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
					     "%s", kineto_dkeys[d]);
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
			*what = kineto_akeys[a];
			return OCC_ERR_MISSING_KEY;
		}
	*what = e->num[A_DEVICE] < 0 || e->num[A_DEVICE] > INT32_MAX
		? kineto_akeys[A_DEVICE]
		: e->num[A_REGS] < 0 || e->num[A_REGS] > 65535
		? kineto_akeys[A_REGS]
		: e->num[A_SMEM] < 0 || e->num[A_SMEM] > (int64_t)OCC_BYTES_MAX
		? kineto_akeys[A_SMEM] : NULL;
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
			k->ev.bad = kineto_akeys[k->ev.dim_key];
		else
			k->ev.args |= BIT(k->ev.dim_key);
	}
	if (role == R_SHAPES) {
		kineto_shapes_put(k, e, "]");
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
		return kineto_dev_value(k, jr, e);
	case R_EVENT:
		return kineto_event_value(k, jr, e);
	case R_ARGS:
		k->ev.annotated |= kineto_is_annotation(e);
		kineto_arg_value(k, e);
		return 0;
	case R_DIM:
		kineto_dim_value(k, e);
		return 0;
	case R_SHAPES:
		kineto_shapes_put(k, e, e->type == JSON_NUMBER ? e->text
							       : "null");
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

