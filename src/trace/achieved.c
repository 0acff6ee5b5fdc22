/*
 * achieved.c - achieved occupancy of the launches a traced program
 * makes, measured in the same run: CUPTI's callback API brings each
 * kernel launch call; for the first OCCCALC_ACHIEVED launches of each
 * kernel (by mangled name) the range profiler is started on entry and
 * stopped on exit, in auto range mode with kernel replay, so that the
 * launch is one range and its figure is that launch's alone, as Nsight
 * Compute's kernel replay gives it. Launches outside the budget run as
 * they would under --trace alone (the profiler is not started for them).
 * The profiler's own calls, on one context, are achieved_range.c's.
 *
 * The figure reaches the trace as a key of the launch's own record: the
 * activity record of a measured launch may be handed over before or
 * after the measurement ends, so a launch line met while its
 * measurement is under way is held here and written when it ends.
 *
 * Launches are measured at the outermost launch call that knows its
 * stream (the runtime's, else the driver's it makes), never one that is
 * being captured into a graph (the profiler synchronises), and one at a
 * time in the process: a launch on another thread meanwhile is not
 * measured (nor counted against its kernel's budget).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cupti.h>

#include "achieved_range.h"

#define CONTEXTS_MAX 64

/* A measured launch: its correlation ids (the runtime call's and the
 * driver call's it made, where both), its figure, and its launch line
 * while held. */
struct measure {
	uint32_t corr[2];
	int state;                       /* M_PENDING, M_DONE, M_FAILED */
	double values[ACHIEVED_N_METRICS];
	char *held;
	size_t held_len;
	struct measure *next;
};
enum { M_PENDING, M_DONE, M_FAILED };

/* The launches measured of one kernel. */
struct budget {
	char *name;
	long used;
};

typedef CUresult (*is_capturing_fn)(CUstream, CUstreamCaptureStatus *);

static struct achieved {
	pthread_mutex_t lock;            /* all of the below */
	pthread_mutex_t busy;            /* held while a launch is measured */
	int on;
	long per_kernel;
	CUpti_SubscriberHandle sub;
	is_capturing_fn is_capturing;
	struct prof profs[CONTEXTS_MAX];
	int n_profs;
	struct budget *names;            /* open addressing */
	size_t names_cap, names_len;
	struct measure *measures;
	uint64_t measured, failed, unmatched;
	uint64_t at_runtime, at_driver;  /* where measurements started */
} A = { .lock = PTHREAD_MUTEX_INITIALIZER,
	.busy = PTHREAD_MUTEX_INITIALIZER };

/* What this thread's launch call is doing. */
static _Thread_local struct {
	int rt_depth;                    /* in a runtime launch call */
	uint32_t rt_corr;
	struct measure *rt_m;            /* measured at the runtime call */
	struct measure *drv_m;           /* measured at the driver call */
	struct prof *p;
} tl;

/* ---- Messages: one line, then silence ---- */

static void stop_measuring(const char *what, CUptiResult r)
{
	const char *s = NULL;

	if (!A.on)
		return;
	A.on = 0;
	cuptiGetResultString(r, &s);
	if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
		fprintf(stderr, "occcalc trace: achieved occupancy not measured: "
			"the GPU's performance counters are restricted to "
			"administrators here (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); "
			"run as root, load the nvidia module with "
			"NVreg_RestrictProfilingToAdminUsers=0, or give the "
			"container --cap-add SYS_ADMIN; the trace is still "
			"written\n");
	else
		fprintf(stderr, "occcalc trace: achieved occupancy not measured: "
			"%s: %s; the trace is still written\n", what,
			s ? s : "error");
}

/* ---- Budgets by kernel name ---- */

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct budget *budget_find(struct budget *t, size_t cap,
				  const char *name)
{
	size_t i = hash(name) & (cap - 1);

	while (t[i].name && strcmp(t[i].name, name) != 0)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int budget_grow(void)
{
	size_t cap = A.names_cap ? 2 * A.names_cap : 256, i;
	struct budget *t = calloc(cap, sizeof *t);

	if (!t)
		return -1;
	for (i = 0; i < A.names_cap; i++)
		if (A.names[i].name)
			*budget_find(t, cap, A.names[i].name) = A.names[i];
	free(A.names);
	A.names = t;
	A.names_cap = cap;
	return 0;
}

/* The kernel's entry, made where new; NULL without memory. */
static struct budget *budget_of(const char *name)
{
	struct budget *b;

	if (2 * (A.names_len + 1) > A.names_cap && budget_grow() != 0)
		return NULL;
	b = budget_find(A.names, A.names_cap, name);
	if (!b->name) {
		if (!(b->name = strdup(name)))
			return NULL;
		A.names_len++;
	}
	return b;
}

/* ---- The profiler of a context ---- */

/* A function of the driver that loaded the library: the runtime may
 * have opened libcuda without making its symbols global. */
static void *driver_symbol(const char *name)
{
	void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *f = cuda ? dlsym(cuda, name) : NULL;

	if (cuda)
		dlclose(cuda);           /* the driver stays: the process holds it */
	return f ? f : dlsym(RTLD_DEFAULT, name);
}

/* The context's profiler, opened on its first measured launch; NULL
 * when it cannot be (measuring stops, said once). */
static struct prof *prof_of(CUcontext ctx)
{
	struct prof *p;
	CUptiResult r;
	int i;

	for (i = 0; i < A.n_profs; i++)
		if (A.profs[i].ctx == ctx)
			return A.profs[i].object ? &A.profs[i] : NULL;
	if (A.n_profs == CONTEXTS_MAX)
		return NULL;
	p = &A.profs[A.n_profs++];
	if ((r = achieved_prof_open(p, ctx)) != CUPTI_SUCCESS) {
		stop_measuring("the range profiler did not start", r);
		achieved_prof_close(p);
		return NULL;
	}
	return p;
}

/* ---- A measured launch ---- */

static int capturing(CUstream s)
{
	CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;

	/* The legacy stream cannot be asked during a capture; a launch into
	 * it then is the program's error already. */
	if (!s || s == CU_STREAM_LEGACY)
		return 0;
	if (!A.is_capturing || A.is_capturing(s, &st) != CUDA_SUCCESS)
		return 1;                /* unknown: leave it alone */
	return st != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* The kernel's budget where it has launches left to measure; with
 * A.lock held. */
static struct budget *budget_left(const char *name)
{
	struct budget *b;

	if (!A.on || !name || !*name)
		return NULL;
	b = budget_of(name);
	return b && b->used < A.per_kernel ? b : NULL;
}

static struct measure *measure_begin(CUcontext ctx, const char *name,
				     CUstream stream, uint32_t corr)
{
	struct measure *m = NULL;
	struct budget *b;
	struct prof *p = NULL;
	CUptiResult r;

	if (!ctx || !A.on || pthread_mutex_trylock(&A.busy) != 0)
		return NULL;
	pthread_mutex_lock(&A.lock);
	b = budget_left(name);
	pthread_mutex_unlock(&A.lock);
	/* Asked of the driver only for a launch that would be measured. */
	if (b && !capturing(stream)) {
		pthread_mutex_lock(&A.lock);
		if ((p = prof_of(ctx)) && (m = calloc(1, sizeof *m))) {
			b->used++;
			m->corr[0] = corr;
			m->state = M_PENDING;
			m->next = A.measures;
			A.measures = m;
		}
		pthread_mutex_unlock(&A.lock);
	}
	if (!m) {
		pthread_mutex_unlock(&A.busy);
		return NULL;
	}
	r = achieved_prof_start(p);
	if (r != CUPTI_SUCCESS) {
		pthread_mutex_lock(&A.lock);
		stop_measuring("the range profiler did not start", r);
		m->state = M_FAILED;
		pthread_mutex_unlock(&A.lock);
		pthread_mutex_unlock(&A.busy);
		return NULL;
	}
	tl.p = p;
	return m;
}

/* The measured keys, as they follow a launch's last key. */
static int measured_keys(char *buf, size_t cap, const double *v)
{
	return snprintf(buf, cap, ",\"" ACHIEVED_KEY "\":%.4f,\""
			DURATION_KEY "\":%.0f", v[0], v[1]);
}

#define KEYS_MAX 96

static void finish_line(char *held, size_t len, const double *v)
{
	int n = v ? measured_keys(held + len, KEYS_MAX, v) : 0;

	/* held has room for the keys and "}\n" (achieved_launch). */
	memcpy(held + len + (size_t)n, "}\n", 2);
	trace_put_finished(held, len + (size_t)n + 2);
}

static void measure_end(struct measure *m)
{
	double v[ACHIEVED_N_METRICS] = { 0 };
	CUptiResult r = achieved_prof_read(tl.p, v);
	char *held;
	size_t len;

	pthread_mutex_lock(&A.lock);
	if (r == CUPTI_SUCCESS) {
		m->state = M_DONE;
		memcpy(m->values, v, sizeof v);
		A.measured++;
	} else {
		m->state = M_FAILED;
		A.failed++;
		if (r != CUPTI_ERROR_INVALID_OPERATION)
			stop_measuring("the range profiler's data", r);
	}
	held = m->held;
	len = m->held_len;
	m->held = NULL;
	pthread_mutex_unlock(&A.lock);
	pthread_mutex_unlock(&A.busy);
	tl.p = NULL;
	if (held) {
		finish_line(held, len, r == CUPTI_SUCCESS ? v : NULL);
		free(held);
	}
}

/* ---- The launch calls ---- */

static CUstream runtime_stream(CUpti_CallbackId id, const void *params)
{
	switch (id) {
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
		return (CUstream)((const cudaLaunchKernel_v7000_params *)
				  params)->stream;
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
		return (CUstream)((const cudaLaunchCooperativeKernel_v9000_params *)
				  params)->stream;
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
	case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
		return (CUstream)((const cudaLaunchKernelExC_v11060_params *)
				  params)->config->stream;
	default:
		return (CUstream)-1;     /* not known */
	}
}

static CUstream driver_stream(CUpti_CallbackId id, const void *params)
{
	switch (id) {
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
		return ((const cuLaunchKernel_params *)params)->hStream;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
		return ((const cuLaunchCooperativeKernel_params *)params)->hStream;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
		return ((const cuLaunchKernelEx_params *)params)->config->hStream;
	default:
		return (CUstream)-1;
	}
}

static void on_runtime(CUpti_CallbackId id, const CUpti_CallbackData *d)
{
	CUstream s = runtime_stream(id, d->functionParams);

	if (d->callbackSite == CUPTI_API_ENTER) {
		if (tl.rt_depth++)
			return;
		tl.rt_corr = d->correlationId;
		tl.rt_m = s == (CUstream)-1 ? NULL :
			measure_begin(d->context, d->symbolName, s,
				      d->correlationId);
		if (tl.rt_m)
			A.at_runtime++;
		return;
	}
	if (!tl.rt_depth || --tl.rt_depth)
		return;
	if (tl.rt_m)
		measure_end(tl.rt_m);
	tl.rt_m = NULL;
}

static void on_driver(CUpti_CallbackId id, const CUpti_CallbackData *d)
{
	if (d->callbackSite == CUPTI_API_ENTER) {
		if (tl.rt_m) {           /* measured at the runtime's call */
			pthread_mutex_lock(&A.lock);
			tl.rt_m->corr[1] = d->correlationId;
			pthread_mutex_unlock(&A.lock);
			return;
		}
		if (tl.drv_m)
			return;
		tl.drv_m = measure_begin(d->context, d->symbolName,
					 driver_stream(id, d->functionParams),
					 d->correlationId);
		if (tl.drv_m)
			A.at_driver++;
		if (tl.drv_m && tl.rt_depth) {
			pthread_mutex_lock(&A.lock);
			tl.drv_m->corr[1] = tl.rt_corr;
			pthread_mutex_unlock(&A.lock);
		}
		return;
	}
	if (tl.drv_m) {
		measure_end(tl.drv_m);
		tl.drv_m = NULL;
	}
}

static void CUPTIAPI on_callback(void *ud, CUpti_CallbackDomain domain,
				 CUpti_CallbackId id, const void *data)
{
	(void)ud;
	if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
		on_runtime(id, data);
	else if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
		on_driver(id, data);
}

static const CUpti_CallbackId runtime_launches[] = {
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
#if CUPTI_API_VERSION >= 130000
	CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
	CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
#endif
};

static const CUpti_CallbackId driver_launches[] = {
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};

/* ---- With the trace ---- */

/* The launch calls' callbacks: those this CUPTI knows (an older one
 * may not know the newest calls). */
static int enable(CUpti_CallbackDomain domain, const CUpti_CallbackId *ids,
		  size_t n)
{
	size_t i;
	int on = 0;

	for (i = 0; i < n; i++)
		on += cuptiEnableCallback(1, A.sub, domain, ids[i]) ==
			CUPTI_SUCCESS;
	return on;
}

int achieved_init(void)
{
	const char *env = getenv(TRACE_ENV_ACHIEVED);
	char *end;
	long n;
	CUptiResult r;

	if (!env || !*env)
		return 0;
	n = strtol(env, &end, 10);
	if (*end || n < 1) {
		fprintf(stderr, "occcalc trace: %s='%s' is not a number of "
			"launches; achieved occupancy not measured\n",
			TRACE_ENV_ACHIEVED, env);
		return -1;
	}
	A.per_kernel = n;
	A.on = 1;
	A.is_capturing = (is_capturing_fn)driver_symbol("cuStreamIsCapturing");
	if ((r = cuptiSubscribe(&A.sub, on_callback, NULL)) != CUPTI_SUCCESS) {
		stop_measuring("CUPTI's callbacks (another subscriber?)", r);
		return -1;
	}
	if (!enable(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_launches,
		    sizeof runtime_launches / sizeof *runtime_launches) +
	    !enable(CUPTI_CB_DOMAIN_DRIVER_API, driver_launches,
		    sizeof driver_launches / sizeof *driver_launches) == 2) {
		stop_measuring("CUPTI's launch callbacks",
			       CUPTI_ERROR_NOT_SUPPORTED);
		return -1;
	}
	return 0;
}

static struct measure **measure_find(uint32_t corr)
{
	struct measure **m;

	for (m = &A.measures; *m; m = &(*m)->next)
		if ((*m)->corr[0] == corr || ((*m)->corr[1] &&
					      (*m)->corr[1] == corr))
			return m;
	return NULL;
}

int achieved_launch(uint32_t correlation, struct line *l)
{
	struct measure **pm, *m;
	int verdict = ACHIEVED_WRITE;
	char keys[KEYS_MAX];

	if (!A.per_kernel)
		return ACHIEVED_WRITE;
	pthread_mutex_lock(&A.lock);
	pm = measure_find(correlation);
	if (pm) {
		m = *pm;
		if (m->state == M_PENDING) {
			m->held = malloc(l->len + KEYS_MAX + 2);
			if (m->held) {
				memcpy(m->held, l->p, l->len);
				m->held_len = l->len;
				verdict = ACHIEVED_HELD;
			}
		} else {
			if (m->state == M_DONE) {
				measured_keys(keys, sizeof keys, m->values);
				line_raw(l, keys);
			}
			*pm = m->next;
			free(m);
		}
	}
	pthread_mutex_unlock(&A.lock);
	return verdict;
}

void achieved_finish(void)
{
	struct measure *m, *next;

	if (!A.per_kernel)
		return;
	pthread_mutex_lock(&A.lock);
	m = A.measures;
	A.measures = NULL;
	pthread_mutex_unlock(&A.lock);
	for (; m; m = next) {
		next = m->next;
		if (m->held)             /* its measurement never ended */
			finish_line(m->held, m->held_len, NULL);
		else if (m->state == M_DONE)
			A.unmatched++;
		free(m->held);
		free(m);
	}
}

/* A child forked while another thread measured holds the locks as the
 * parent left them: new ones. */
void achieved_after_fork(void)
{
	pthread_mutex_init(&A.lock, NULL);
	pthread_mutex_init(&A.busy, NULL);
}

void achieved_end_keys(struct line *l)
{
	if (!A.per_kernel)
		return;
	line_int(l, "achieved_per_kernel", A.per_kernel);
	line_int(l, "achieved_measured", (int64_t)A.measured);
	line_int(l, "achieved_failed", (int64_t)A.failed);
	line_int(l, "achieved_unmatched", (int64_t)A.unmatched);
	line_int(l, "achieved_at_runtime", (int64_t)A.at_runtime);
	line_int(l, "achieved_at_driver", (int64_t)A.at_driver);
	line_int(l, "achieved_passes", A.n_profs ?
		 (int64_t)A.profs[0].host.passes : 0);
}
