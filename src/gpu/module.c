/*
 * module.c - the user's own code on the GPU, through the driver API:
 * a cubin or fatbin loaded with cuModuleLoadData, each function's
 * attributes and the driver's occupancy answer. Nothing is launched (the
 * kernels take arguments occcalc cannot know). The driver's functions
 * come from cudaGetDriverEntryPointByVersion: the runtime is linked
 * statically and libcuda is not, so a machine without the driver gets a
 * message, not a loader failure. Built without CUDA, it says so.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"

#ifdef HAVE_CUDART
#include <cuda.h>
#include <cuda_runtime_api.h>

/* The driver API as of CUDA 12.0: the signatures asked for. */
#define DRIVER_API_VERSION 12000

struct driver {
	CUresult (*load)(CUmodule *, const void *);
	CUresult (*unload)(CUmodule);
	CUresult (*get_function)(CUfunction *, CUmodule, const char *);
	CUresult (*get_attribute)(int *, CUfunction_attribute, CUfunction);
	CUresult (*set_attribute)(CUfunction, CUfunction_attribute, int);
	CUresult (*occupancy)(int *, CUfunction, int, size_t);
	CUresult (*error_string)(CUresult, const char **);
	CUresult (*ctx_get)(CUcontext *);
	CUresult (*ctx_set)(CUcontext);
};

/* An image loaded ahead, on a thread of the preload (gpu_loader_preload). */
struct slot {
	const void *image;
	CUmodule mod;
	int state;               /* 0 waiting, 1 loading, 2 loaded or failed */
	int taken;               /* handed to load(): its module is l->mod */
	int failed;
	char err[256];
};

/* Images loaded on threads ahead of the rows that ask for them: the
 * driver compiling a fatbin's PTX takes seconds (cuSPARSELt's 760
 * fatbins: minutes on one thread, docs/listing-probe). */
struct preload {
	struct slot *slot;
	size_t n, next, cursor, window, done;
	pthread_t *th;
	int nth, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	CUcontext ctx;
	const struct driver *d;
	void (*tick)(void *, size_t, size_t);   /* while a query waits */
	void *tick_ctx;
};

struct gpu_loader {
	struct driver d;
	const void *image;       /* loaded as mod; NULL: none */
	CUmodule mod;
	int load_failed;         /* image did not load */
	char load_err[256];
	struct preload *pre;     /* NULL: each image loaded when asked */
};

static const struct entry {
	const char *name;
	size_t off;
} entries[] = {
	{ "cuModuleLoadData", offsetof(struct driver, load) },
	{ "cuModuleUnload", offsetof(struct driver, unload) },
	{ "cuModuleGetFunction", offsetof(struct driver, get_function) },
	{ "cuFuncGetAttribute", offsetof(struct driver, get_attribute) },
	{ "cuFuncSetAttribute", offsetof(struct driver, set_attribute) },
	{ "cuOccupancyMaxActiveBlocksPerMultiprocessor",
	  offsetof(struct driver, occupancy) },
	{ "cuGetErrorString", offsetof(struct driver, error_string) },
	{ "cuCtxGetCurrent", offsetof(struct driver, ctx_get) },
	{ "cuCtxSetCurrent", offsetof(struct driver, ctx_set) },
};

static void driver_error(const struct driver *d, CUresult r, const char *call,
			 char *err, size_t n)
{
	const char *s = NULL;

	if (d->error_string(r, &s) != CUDA_SUCCESS || !s)
		s = "unknown error";
	snprintf(err, n, "%s: %s", call, s);
}

struct gpu_loader *gpu_loader_open(struct gpu_ctx *g, char *err, size_t n)
{
	struct gpu_loader *l = calloc(1, sizeof *l);
	enum cudaDriverEntryPointQueryResult q;
	cudaError_t e;
	size_t i;

	if (!l) {
		snprintf(err, n, "out of memory");
		return NULL;
	}
	/* The runtime makes the device's primary context current. */
	e = cudaSetDevice(g->device);
	if (e == cudaSuccess)
		e = cudaFree(NULL);
	for (i = 0; e == cudaSuccess && i < sizeof entries / sizeof *entries;
	     i++) {
		void **fp = (void **)((char *)&l->d + entries[i].off);

		e = cudaGetDriverEntryPointByVersion(entries[i].name, fp,
						     DRIVER_API_VERSION,
						     cudaEnableDefault, &q);
		if (e == cudaSuccess && (q != cudaDriverEntryPointSuccess || !*fp)) {
			snprintf(err, n, "the NVIDIA driver lacks %s",
				 entries[i].name);
			free(l);
			return NULL;
		}
	}
	if (e != cudaSuccess) {
		snprintf(err, n, "%s", cudaGetErrorString(e));
		free(l);
		return NULL;
	}
	return l;
}

/* ---- Loading ahead ---- */

static void *preload_worker(void *arg)
{
	struct preload *p = arg;
	struct slot *sl;
	CUresult r;

	(void)p->d->ctx_set(p->ctx);
	pthread_mutex_lock(&p->mu);
	while (!p->stop && p->next < p->n) {
		if (p->next >= p->cursor + p->window) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		sl = &p->slot[p->next++];
		sl->state = 1;
		pthread_mutex_unlock(&p->mu);
		r = p->d->load(&sl->mod, sl->image);
		if (r != CUDA_SUCCESS)
			driver_error(p->d, r, "cuModuleLoadData", sl->err,
				     sizeof sl->err);
		pthread_mutex_lock(&p->mu);
		sl->failed = r != CUDA_SUCCESS;
		sl->state = 2;
		p->done++;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Stops the threads; unloads what was loaded and not handed out. */
static void preload_stop(struct gpu_loader *l)
{
	struct preload *p = l->pre;
	size_t i;
	int t;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (t = 0; t < p->nth; t++)
		pthread_join(p->th[t], NULL);
	for (i = 0; i < p->n; i++)
		if (p->slot[i].state == 2 && !p->slot[i].failed &&
		    !p->slot[i].taken)
			l->d.unload(p->slot[i].mod);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p->slot);
	free(p->th);
	free(p);
	l->pre = NULL;
}

int gpu_loader_preload(struct gpu_loader *l, const void *const *images,
		       size_t n, int threads,
		       void (*tick)(void *ctx, size_t done, size_t total),
		       void *tick_ctx)
{
	struct preload *p;
	size_t i;

	preload_stop(l);
	if (n < 2 || threads < 1)
		return 0;
	if (!(p = calloc(1, sizeof *p)))
		return -1;
	p->slot = calloc(n, sizeof *p->slot);
	p->th = calloc((size_t)threads, sizeof *p->th);
	if (!p->slot || !p->th || l->d.ctx_get(&p->ctx) != CUDA_SUCCESS) {
		free(p->slot);
		free(p->th);
		free(p);
		return -1;
	}
	for (i = 0; i < n; i++)
		p->slot[i].image = images[i];
	p->n = n;
	/* Loaded modules wait in the driver's memory: a few per thread. */
	p->window = 2 * (size_t)threads;
	p->d = &l->d;
	p->tick = tick;
	p->tick_ctx = tick_ctx;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	l->pre = p;
	for (p->nth = 0; p->nth < threads; p->nth++)
		if (pthread_create(&p->th[p->nth], NULL, preload_worker, p))
			break;
	return 0;
}

void gpu_loader_progress(const struct gpu_loader *l, size_t *done,
			 size_t *total)
{
	*done = *total = 0;
	if (l->pre) {
		pthread_mutex_lock(&l->pre->mu);
		*done = l->pre->done;
		*total = l->pre->n;
		pthread_mutex_unlock(&l->pre->mu);
	}
}

/* Waits a fifth of a second at most for a slot, then says how far the
 * loading is. Lock held. */
static void wait_ticking(struct preload *p)
{
	struct timespec t;
	size_t done = p->done;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += 200000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	(void)pthread_cond_timedwait(&p->cv, &p->mu, &t);
	if (p->tick) {
		pthread_mutex_unlock(&p->mu);
		p->tick(p->tick_ctx, done, p->n);
		pthread_mutex_lock(&p->mu);
	}
}

/* The slot loading image, waited for, or NULL: not loaded ahead. */
static struct slot *preloaded(struct preload *p, const void *image)
{
	struct slot *sl = NULL;
	size_t i;

	pthread_mutex_lock(&p->mu);
	for (i = p->cursor; i < p->n && !sl; i++)
		if (p->slot[i].image == image)
			sl = &p->slot[i];
	if (sl) {
		/* Nothing left waiting when no thread runs (none started). */
		if (sl->state == 0 && p->nth == 0) {
			sl = NULL;
		} else {
			/* The window moves up to it, or no thread would. */
			p->cursor = (size_t)(sl - p->slot);
			pthread_cond_broadcast(&p->cv);
			while (sl->state != 2)
				wait_ticking(p);
			sl->taken = 1;
			p->cursor++;
			pthread_cond_broadcast(&p->cv);
		}
	}
	pthread_mutex_unlock(&p->mu);
	return sl;
}

/* image loaded as l->mod, or 1 with the reason. */
static int load(struct gpu_loader *l, const void *image, char *err, size_t n)
{
	struct slot *sl;
	CUresult r;

	if (l->image == image) {
		if (l->load_failed)
			snprintf(err, n, "%s", l->load_err);
		return l->load_failed;
	}
	if (l->image && !l->load_failed)
		l->d.unload(l->mod);
	l->image = image;
	if (l->pre && (sl = preloaded(l->pre, image))) {
		l->mod = sl->mod;
		l->load_failed = sl->failed;
		snprintf(l->load_err, sizeof l->load_err, "%s", sl->err);
	} else {
		r = l->d.load(&l->mod, image);
		l->load_failed = r != CUDA_SUCCESS;
		if (l->load_failed)
			driver_error(&l->d, r, "cuModuleLoadData", l->load_err,
				     sizeof l->load_err);
	}
	if (l->load_failed)
		snprintf(err, n, "%s", l->load_err);
	return l->load_failed;
}

static int attribute(const struct driver *d, CUfunction f,
		     CUfunction_attribute a, int *v, char *err, size_t n)
{
	CUresult r = d->get_attribute(v, a, f);

	if (r != CUDA_SUCCESS)
		driver_error(d, r, "cuFuncGetAttribute", err, n);
	return r == CUDA_SUCCESS ? 0 : -1;
}

int gpu_loader_query(struct gpu_loader *l, const void *image,
		     const char *mangled, int block, uint64_t dyn,
		     struct gpu_func *out, char *err, size_t n)
{
	const struct driver *d = &l->d;
	CUfunction f;
	CUresult r;

	if (load(l, image, err, n))
		return 2;
	r = d->get_function(&f, l->mod, mangled);
	if (r != CUDA_SUCCESS) {
		driver_error(d, r, "cuModuleGetFunction", err, n);
		return 1;
	}
	if (attribute(d, f, CU_FUNC_ATTRIBUTE_NUM_REGS, &out->regs, err, n) ||
	    attribute(d, f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
		      &out->static_smem, err, n) ||
	    attribute(d, f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &out->local,
		      err, n) ||
	    attribute(d, f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
		      &out->max_threads, err, n))
		return -1;
	/* No block given (a PTX row): the attributes alone. */
	out->blocks = -1;
	if (block <= 0)
		return 0;
	/* Dynamic memory above the default limit needs the opt-in. */
	if (dyn > 0 && dyn <= INT32_MAX)
		(void)d->set_attribute(f,
			CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn);
	r = d->occupancy(&out->blocks, f, block, (size_t)dyn);
	if (r != CUDA_SUCCESS) {
		driver_error(d, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
			     err, n);
		return -1;
	}
	return 0;
}

void gpu_loader_forget(struct gpu_loader *l)
{
	if (l->image && !l->load_failed)
		l->d.unload(l->mod);
	l->image = NULL;
	preload_stop(l);
}

void gpu_loader_close(struct gpu_loader *l)
{
	if (l)
		gpu_loader_forget(l);
	free(l);
}

#else

struct gpu_loader {
	int unused;
};

struct gpu_loader *gpu_loader_open(struct gpu_ctx *g, char *err, size_t n)
{
	(void)g;
	snprintf(err, n, "this occcalc was built without the CUDA runtime");
	return NULL;
}

int gpu_loader_query(struct gpu_loader *l, const void *image,
		     const char *mangled, int block, uint64_t dyn,
		     struct gpu_func *out, char *err, size_t n)
{
	(void)l; (void)image; (void)mangled; (void)block; (void)dyn;
	(void)out;
	snprintf(err, n, "this occcalc was built without the CUDA runtime");
	return -1;
}

void gpu_loader_forget(struct gpu_loader *l)
{
	(void)l;
}

int gpu_loader_preload(struct gpu_loader *l, const void *const *images,
		       size_t n, int threads,
		       void (*tick)(void *ctx, size_t done, size_t total),
		       void *tick_ctx)
{
	(void)l; (void)images; (void)n; (void)threads; (void)tick;
	(void)tick_ctx;
	return 0;
}

void gpu_loader_progress(const struct gpu_loader *l, size_t *done,
			 size_t *total)
{
	(void)l;
	*done = *total = 0;
}

void gpu_loader_close(struct gpu_loader *l)
{
	(void)l;
}

#endif
