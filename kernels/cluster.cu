/*
 * cluster.cu - calibrated cluster kernels: the registers asked for (to
 * the allocation granule), the launch's block size, dynamic shared memory
 * and cluster shape, one barrier. See cluster.h.
 */
#include <utility>

#include "cluster.h"

static __device__ __forceinline__ unsigned long long global_timer()
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

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

template <int R>
__global__ void __maxnreg__(R) occ_cluster(struct cluster_args a)
{
	/* First, so the warp's interval covers all it does. */
	long long start = clock64();
	unsigned long long t0 = global_timer();
	extern __shared__ unsigned smem[];
	/* More values live across the loop than R registers hold. */
	constexpr int N = R + 8;
	unsigned v[N];
	unsigned seed = (unsigned)start ^ threadIdx.x, sum = 0, sm, rank;

#pragma unroll
	for (int i = 0; i < N; i++)
		v[i] = seed * (2 * i + 1) + (seed >> (i & 31));
	do {
#pragma unroll
		for (int i = 0; i < N; i++)
			v[i] = v[i] * v[(i + 1) % N] + i;
	} while ((unsigned long long)(clock64() - start) < a.spin_cycles);
#pragma unroll
	for (int i = 0; i < N; i++)
		sum += v[i];
	if (a.smem_words)
		smem[threadIdx.x % a.smem_words] = sum;
	__syncthreads();
	if (a.smem_words && sum == 0x9e3779b9u)
		*a.sink = smem[(threadIdx.x + 1) % a.smem_words];
	/* No CTA leaves before the cluster's last arrives: the cluster's
	 * resources are released together, as its interval says. */
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
		     "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	long long end = clock64();
	unsigned long long t1 = global_timer();
	if (threadIdx.x % warpSize == 0) {
		unsigned block = blockIdx.x + gridDim.x *
				 (blockIdx.y + gridDim.y * blockIdx.z);
		struct cluster_warp_record *w = a.warps +
			(size_t)block * ((blockDim.x + warpSize - 1) / warpSize) +
			threadIdx.x / warpSize;

		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
		w->clock_start = (unsigned long long)start;
		w->clock_end = (unsigned long long)end;
		w->timer_start = t0;
		w->timer_end = t1;
		w->sm = sm;
		w->block = block;
		w->cluster = cluster_index();
		w->rank = rank;
	}
}

/* 24 (the fewest ptxas allocates), 32, ..., 248, then 255. */
constexpr int fewest = 24, granule = 8, counts = (248 - fewest) / granule + 1;

template <int... I>
static const void *const *kernel_table(std::integer_sequence<int, I...>)
{
	static const void *const k[] = {
		(const void *)occ_cluster<fewest + granule * I>...,
		(const void *)occ_cluster<255>
	};
	return k;
}

extern "C" const void *occ_cluster_kernel(int regs)
{
	static const void *const *k =
		kernel_table(std::make_integer_sequence<int, counts>());

	if (regs < 1 || regs > 255)
		return nullptr;
	if (regs <= fewest)
		return k[0];
	if (regs > 248)
		return k[counts];
	return k[(regs - fewest + granule - 1) / granule];
}
