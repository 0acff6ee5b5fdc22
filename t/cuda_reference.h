/* cuda_reference.h - occcalc's tables and kernels as NVIDIA's
 * cuda_occupancy.h takes them, for the tests and the benchmark that
 * compare against it. Include after <cuda_occupancy.h>. */
#ifndef OCC_CUDA_REFERENCE_H
#define OCC_CUDA_REFERENCE_H

#include <string.h>

#include "occcalc.h"

/* The reference's view of a kernel: device properties from the table, and
 * the function's attributes as the runtime converts cudaFuncAttributes. An
 * opted-in kernel has raised its dynamic limit as far as it goes. */
static inline void reference_setup(const struct occ_arch *a, const struct occ_kernel *k,
			    cudaOccDeviceProp *prop, cudaOccFuncAttributes *attr,
			    cudaOccDeviceState *state)
{
	uint64_t limit = k->optin ? a->smem_per_block_optin : a->smem_per_block;

	memset(prop, 0, sizeof *prop);
	memset(attr, 0, sizeof *attr);
	memset(state, 0, sizeof *state);
	prop->computeMajor = a->cc_major;
	prop->computeMinor = a->cc_minor;
	prop->maxThreadsPerBlock = a->max_threads_per_block;
	prop->maxThreadsPerMultiprocessor = a->max_threads_per_sm;
	prop->regsPerBlock = a->regs_per_block;
	prop->regsPerMultiprocessor = a->regs_per_sm;
	prop->warpSize = a->warp_size;
	prop->sharedMemPerBlock = a->smem_per_block;
	prop->sharedMemPerMultiprocessor = a->smem_per_sm;
	prop->numSms = 1;
	prop->sharedMemPerBlockOptin = a->smem_per_block_optin;
	prop->reservedSharedMemPerBlock = a->smem_reserved_per_block;

	attr->maxThreadsPerBlock = k->max_threads > 0 ? k->max_threads : INT_MAX;
	attr->numRegs = k->regs_per_thread;
	attr->sharedSizeBytes = k->static_smem;
	attr->partitionedGCConfig = PARTITIONED_GC_OFF;
	attr->shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
	attr->maxDynamicSharedSizeBytes = limit > k->static_smem
					  ? limit - k->static_smem : 0;
	attr->numBlockBarriers = k->barriers;

	state->cacheConfig = CACHE_PREFER_NONE;
	state->carveoutConfig = k->carveout;
}

#endif
