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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
};

struct gpu_loader {
	struct driver d;
	const void *image;       /* loaded as mod; NULL: none */
	CUmodule mod;
	int load_failed;         /* image did not load */
	char load_err[256];
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

/* image loaded as l->mod, or 1 with the reason. */
static int load(struct gpu_loader *l, const void *image, char *err, size_t n)
{
	CUresult r;

	if (l->image == image) {
		if (l->load_failed)
			snprintf(err, n, "%s", l->load_err);
		return l->load_failed;
	}
	if (l->image && !l->load_failed)
		l->d.unload(l->mod);
	l->image = image;
	r = l->d.load(&l->mod, image);
	l->load_failed = r != CUDA_SUCCESS;
	if (l->load_failed) {
		driver_error(&l->d, r, "cuModuleLoadData", l->load_err,
			     sizeof l->load_err);
		snprintf(err, n, "%s", l->load_err);
	}
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

void gpu_loader_close(struct gpu_loader *l)
{
	(void)l;
}

#endif
