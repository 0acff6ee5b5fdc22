/*
 * device.c - the GPUs of this machine, through the CUDA runtime: their
 * properties, which the library puts over the architecture table
 * (occ_target_device). The runtime is linked statically, so a machine
 * without the driver gets an error message, not a loader failure. Built
 * without CUDA, every call says so.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"

#ifdef HAVE_CUDART
#include <cuda_runtime_api.h>

static int fail(char *err, size_t n, cudaError_t e)
{
	int driver = 0, runtime = 0;

	/* The runtime says "insufficient" both for an old driver and none;
	 * the driver's version tells them apart (0: none). */
	if (e == cudaErrorInsufficientDriver &&
	    cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0 &&
	    cudaRuntimeGetVersion(&runtime) == cudaSuccess)
		snprintf(err, n, "the NVIDIA driver supports CUDA %d.%d, older "
			 "than this occcalc's runtime (CUDA %d.%d): update the "
			 "driver", driver / 1000, driver % 1000 / 10,
			 runtime / 1000, runtime % 1000 / 10);
	else if (e == cudaErrorInsufficientDriver)
		snprintf(err, n, "no NVIDIA driver found");
	else
		snprintf(err, n, "%s", cudaGetErrorString(e));
	return -1;
}

int device_count(int *count, char *err, size_t n)
{
	cudaError_t e = cudaGetDeviceCount(count);

	if (e == cudaErrorNoDevice) {
		*count = 0;
		return 0;
	}
	return e == cudaSuccess ? 0 : fail(err, n, e);
}

/* cudaDeviceProp has no field for it; a MIG instance is named with its
 * profile ("NVIDIA A100-SXM4-40GB MIG 1g.5gb"), and a process is given one
 * by its MIG UUID in CUDA_VISIBLE_DEVICES. */
static int is_mig(const char *name)
{
	const char *v = getenv("CUDA_VISIBLE_DEVICES");

	return strstr(name, " MIG ") != NULL || (v && strstr(v, "MIG-"));
}

/* A client of a running MPS server: its control pipe exists, where the
 * environment or the default says. */
static int is_mps(void)
{
	const char *dir = getenv("CUDA_MPS_PIPE_DIRECTORY");
	char path[512];

	snprintf(path, sizeof path, "%s/control", dir && *dir ? dir
		 : "/tmp/nvidia-mps");
	return access(path, F_OK) == 0;
}

/* The share of the threads an MPS client may use, as its environment
 * sets it (the control daemon's own limit, if lower, is not visible). */
static int mps_percentage(void)
{
	const char *v = getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
	char *end;
	long p;

	if (!v || !*v)
		return 0;
	p = strtol(v, &end, 10);
	return *end || p < 1 || p > 100 ? 0 : (int)p;
}

static int attribute(enum cudaDeviceAttr attr, int index)
{
	int v = 0;

	if (cudaDeviceGetAttribute(&v, attr, index) != cudaSuccess)
		return 0;
	return v;
}

/* What the model takes of the properties, in cudaDeviceProp's names. */
static void props_of(const struct cudaDeviceProp *p, int index,
		     struct occ_launch_device *d)
{
	d->device = index;
	snprintf(d->name, sizeof d->name, "%s", p->name);
	d->major = p->major;
	d->minor = p->minor;
	d->multiProcessorCount = p->multiProcessorCount;
	d->warpSize = p->warpSize;
	d->maxThreadsPerMultiProcessor = p->maxThreadsPerMultiProcessor;
	d->maxThreadsPerBlock = p->maxThreadsPerBlock;
	d->maxBlocksPerMultiProcessor = p->maxBlocksPerMultiProcessor;
	d->regsPerMultiprocessor = p->regsPerMultiprocessor;
	d->regsPerBlock = p->regsPerBlock;
	d->sharedMemPerMultiprocessor = p->sharedMemPerMultiprocessor;
	d->sharedMemPerBlock = p->sharedMemPerBlock;
	d->sharedMemPerBlockOptin = p->sharedMemPerBlockOptin;
	d->reservedSharedMemPerBlock = p->reservedSharedMemPerBlock;
	d->l2CacheSize = (uint64_t)p->l2CacheSize;
}

int device_query(int index, struct occ_device *d, char *err, size_t n)
{
	struct cudaDeviceProp p;
	cudaError_t e = cudaGetDeviceProperties(&p, index);

	if (e != cudaSuccess)
		return fail(err, n, e);
	memset(d, 0, sizeof *d);
	d->index = index;
	snprintf(d->name, sizeof d->name, "%s", p.name);
	d->cc_major = p.major;
	d->cc_minor = p.minor;
	d->sms = p.multiProcessorCount;
	d->total_mem = p.totalGlobalMem;
	d->l2_cache = (uint64_t)p.l2CacheSize;
	d->persisting_l2_max = (uint64_t)p.persistingL2CacheMaxSize;
	d->access_policy_max_window = (uint64_t)p.accessPolicyMaxWindowSize;
	d->bus_width = p.memoryBusWidth;
	d->clock_khz = attribute(cudaDevAttrClockRate, index);
	d->mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, index);
	props_of(&p, index, &d->props);
	d->mig = is_mig(p.name);
	d->mps = is_mps();
	d->mps_pct = d->mps ? mps_percentage() : 0;
	return 0;
}

#else

int device_count(int *count, char *err, size_t n)
{
	*count = 0;
	snprintf(err, n, "this occcalc was built without the CUDA runtime");
	return -1;
}

int device_query(int index, struct occ_device *d, char *err, size_t n)
{
	(void)index;
	(void)d;
	snprintf(err, n, "this occcalc was built without the CUDA runtime");
	return -1;
}

#endif
