/*
 * calib.cu - the calibrated kernel: one kernel, compiled to PTX at build
 * time and by the driver at run time for each register count asked (the
 * count is the JIT's register cap). See calib.h.
 */
#include "calib.h"

/* More values live across the loop than the most registers a thread can
 * have (255): under any cap the compiler uses every register it is given
 * and spills the rest, so the loaded kernel has exactly the cap. */
#define LIVE (255 + 8)

static __device__ __forceinline__ unsigned long long global_timer()
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

static __device__ __forceinline__ unsigned linear_block()
{
	return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* The warp's slot in a per-warp array. */
static __device__ __forceinline__ size_t warp_slot()
{
	return (size_t)linear_block() * ((blockDim.x + warpSize - 1) /
					 warpSize) + threadIdx.x / warpSize;
}

#if __CUDA_ARCH__ >= 900
/* The cluster's linear index in the grid of clusters. */
static __device__ __forceinline__ unsigned cluster_index()
{
	unsigned x, y, z, nx, ny;

	asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(x));
	asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(y));
	asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(z));
	asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(nx));
	asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(ny));
	return x + nx * (y + ny * z);
}

/* No CTA leaves before its cluster's last arrives, then the warp says
 * where it ran and when. */
static __device__ __forceinline__ void cluster_record(
	const struct calib_args &a, long long start, unsigned long long t0)
{
	unsigned sm, rank;

	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
		     "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	long long end = clock64();
	unsigned long long t1 = global_timer();
	if (threadIdx.x % warpSize == 0) {
		struct calib_cluster_record *w = a.clusters + warp_slot();

		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
		w->clock_start = (unsigned long long)start;
		w->clock_end = (unsigned long long)end;
		w->timer_start = t0;
		w->timer_end = t1;
		w->sm = sm;
		w->block = linear_block();
		w->cluster = cluster_index();
		w->rank = rank;
	}
}
#endif

extern "C" __global__ void occ_calib(struct calib_args a)
{
	/* First, so the warp's interval covers all it does. */
	long long start = clock64();
	unsigned long long t0 = global_timer();
	extern __shared__ unsigned smem[];
	unsigned v[LIVE];
	unsigned seed = (unsigned)start ^ threadIdx.x, sum = 0, sm;

#pragma unroll
	for (int i = 0; i < LIVE; i++)
		v[i] = seed * (2 * i + 1) + (seed >> (i & 31));
	do {
#pragma unroll
		for (int i = 0; i < LIVE; i++)
			v[i] = v[i] * v[(i + 1) % LIVE] + i;
	} while ((unsigned long long)(clock64() - start) < a.spin_cycles);
#pragma unroll
	for (int i = 0; i < LIVE; i++)
		sum += v[i];
	if (a.smem_words)
		smem[threadIdx.x % a.smem_words] = sum;
	__syncthreads();
	if (a.smem_words && sum == 0x9e3779b9u)
		*a.sink = smem[(threadIdx.x + 1) % a.smem_words];
#if __CUDA_ARCH__ >= 900
	if (a.clusters) {
		cluster_record(a, start, t0);
		return;
	}
#endif
	long long end = clock64();
	if (threadIdx.x % warpSize == 0) {
		struct occ_warp_sample *s = a.samples + warp_slot();

		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		s->start = (unsigned long long)start;
		s->end = (unsigned long long)end;
		s->sm = sm;
		s->block = linear_block();
	}
}
