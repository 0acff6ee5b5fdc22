/*
 * kineto_values.c - the values of a Kineto trace's members, as kineto.c
 * hands them over: a device's properties, an event's keys, a kernel's
 * args (its grid and block), a cpu_op's Input Dims. Each is put in the
 * device or the event being read; kineto.c decides, at its end, what
 * the event was.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kineto_int.h"

const char *const kineto_dkeys[D_COUNT] = {
	"id", "name", "computeMajor", "computeMinor", "numSms", "warpSize",
	"maxThreadsPerMultiprocessor", "maxThreadsPerBlock",
	"regsPerMultiprocessor", "regsPerBlock", "sharedMemPerMultiprocessor",
	"sharedMemPerBlock", "sharedMemPerBlockOptin"
};

const char *const kineto_ekeys[E_COUNT] = {
	"ph", "cat", "name", "ts", "dur", "args", "pid", "tid"
};

const char *const kineto_akeys[A_COUNT] = {
	"device", "context", "stream", "correlation", "registers per thread",
	"shared memory", "grid", "block", "blocks per SM", "warps per SM",
	"est. achieved occupancy %", "est_occupancy_pct"
};

int kineto_find(const char *const *names, int n, const char *key)
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
	int key = kineto_find(kineto_dkeys, D_COUNT, e->key);
	uint64_t max = key >= D_SMEM_SM ? OCC_BYTES_MAX : INT32_MAX;
	uint64_t v;

	if (key == NONE)
		return 0;
	if (key == D_NAME || occ_json_uint(e->text, e->len, max, &v) != 0)
		return occ_json_fail(jr, key == D_NAME ? OCC_ERR_BAD_VALUE
				     : OCC_ERR_RANGE, e->offset, "%s",
				     kineto_dkeys[key]);
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

int kineto_dev_value(struct kineto *k, struct occ_json_reader *jr,
		     const struct occ_json_event *e)
{
	if (e->type == JSON_NUMBER)
		return dev_number(k, jr, e);
	if (kineto_find(kineto_dkeys, D_COUNT, e->key) == D_NAME) {
		if (e->type != JSON_STRING)
			return occ_json_fail(jr, OCC_ERR_BAD_VALUE, e->offset,
					     "name");
		k->dev_have |= BIT(D_NAME);
		occ_copy_string(k->dev.name, sizeof k->dev.name, e->text);
		return 0;
	}
	if (kineto_find(kineto_dkeys, D_COUNT, e->key) != NONE)
		return occ_json_fail(jr, OCC_ERR_BAD_VALUE, e->offset, "%s",
				     e->key);
	return 0;
}

/* The event's arguments: a wrong type is an error only if the event
 * turns out to be a kernel's, which its "cat" may say after them. */
void kineto_arg_value(struct kineto *k, const struct occ_json_event *e)
{
	struct event *ev = &k->ev;
	int key = kineto_find(kineto_akeys, A_COUNT, e->key);
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
		ev->bad = kineto_akeys[key];
		return;
	}
	if (key >= A_BPS) {
		/* Kineto's estimate: floats, negative (-1, -100) where it had
		 * none; a percentage past 0..100 is not taken, and counted. */
		st = decimal(e->text, 0, key >= A_EST ? 100 : DBL_MAX,
			     &ev->dec[key]);
		if (st == -1)
			ev->bad = kineto_akeys[key];
		else if (st == 0)
			ev->args |= BIT(key);
		else if (key >= A_EST)
			ev->est_bad = 1;
		return;
	}
	if (occ_json_int(e->text, e->len, INT64_MIN, INT64_MAX, &v) != 0)
		ev->bad = kineto_akeys[key];
	else {
		ev->num[key] = v;
		ev->args |= BIT(key);
	}
}

void kineto_dim_value(struct kineto *k, const struct occ_json_event *e)
{
	struct event *ev = &k->ev;
	int64_t v;

	if (e->type != JSON_NUMBER || ev->n_dim == 3 ||
	    occ_json_int(e->text, e->len, 0, INT32_MAX, &v) != 0) {
		ev->bad = kineto_akeys[ev->dim_key];
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

int kineto_event_value(struct kineto *k, struct occ_json_reader *jr,
		       const struct occ_json_event *e)
{
	struct event *ev = &k->ev;
	int key = kineto_find(kineto_ekeys, E_COUNT, e->key);
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
			ev->bad = kineto_ekeys[key];
		else
			ev->have |= BIT(key);
	}
	return 0;
}

/* Input Dims as compact JSON text, ", " between elements as Python's
 * json.dumps writes them. */
void kineto_shapes_put(struct kineto *k, const struct occ_json_event *e,
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
int kineto_is_annotation(const struct occ_json_event *e)
{
	return e->key && strcmp(e->key, "occcalc") == 0;
}
