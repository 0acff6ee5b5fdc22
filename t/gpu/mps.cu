/*
 * mps.cu - the SMs a process really has, as the runtime reports them and
 * as its kernels run: under an MPS server with an active-thread
 * percentage (t/gpu/mps.sh runs it there) or on a whole GPU.
 *
 *   nvcc -std=c++17 -O2 -arch=sm_90 -o mps t/gpu/mps.cu -lcuda
 *   mps LABEL            (one CSV line on stdout, no header)
 *
 * It reads cudaDevAttrMultiProcessorCount, cudaGetDeviceProperties'
 * multiProcessorCount and the context's execution affinity
 * (cuCtxGetExecAffinity, CU_EXEC_AFFINITY_TYPE_SM_COUNT); launches
 * 16 x 132 x 4 blocks that each spin 50 us at one block per SM (all its
 * shared memory), recording each block's %smid and start and end
 * (%globaltimer): the distinct SMs that ran a block and the most blocks
 * running at once; asks cudaOccupancyMaxActiveBlocksPerMultiprocessor and
 * cudaOccupancyMaxActiveClusters (clusters of 1, 2, 4, 8, 16 of a
 * 128-thread kernel without shared memory, 16 blocks per SM) and the
 * nonportable potential cluster size. Fields (mps.sh writes the header):
 * label, attr_sms, prop_sms, affinity_sms, distinct_sms, peak_blocks,
 * blocks_per_sm_128t, clusters_1, _2, _4, _8, _16, potential_nonportable,
 * env_pct, error; then a 128-thread cluster kernel's blocks per SM, and
 * for clusters of 2, 4, 8, 16 the runtime's answer for it and the most
 * clusters live at once when three times that many are launched.
 */
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

struct rec {
	unsigned sm;
	unsigned long long t0, t1;
};

__global__ void spin_kernel(rec *out, unsigned long long spin_ns)
{
	extern __shared__ char big[];

	if (threadIdx.x == 0) {
		rec r;
		unsigned long long t;

		asm volatile("mov.u32 %0, %%smid;" : "=r"(r.sm));
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r.t0));
		big[0] = (char)r.sm;
		do
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		while (t - r.t0 < spin_ns);
		r.t1 = t + (unsigned long long)big[0] * 0;
		out[blockIdx.x] = r;
	}
}

namespace cg = cooperative_groups;

/* counters[0]: clusters live; [1]: the most at once. */
__global__ void cluster_kernel(unsigned *counters, unsigned long long spin_ns)
{
	cg::cluster_group cl = cg::this_cluster();
	unsigned rank = cl.block_rank();
	unsigned long long t0, t;

	cl.sync();
	if (threadIdx.x == 0) {
		if (rank == 0)
			atomicMax(&counters[1], atomicAdd(&counters[0], 1) + 1);
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
		do
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		while (t - t0 < spin_ns);
	}
	cl.sync();
	if (threadIdx.x == 0 && rank == 0)
		atomicSub(&counters[0], 1);
}

__global__ void occ_kernel(float *p)
{
	if (p)
		p[threadIdx.x] += 1.f;
}

static void fail(const char *label, const char *what, int code)
{
	const char *env = getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");

	printf("%s,,,,,,,,,,,,,%s,%s %d\n", label, env ? env : "", what, code);
	exit(1);
}

#define RT(x, what) do { cudaError_t e_ = (x); \
	if (e_ != cudaSuccess) fail(label, what, (int)e_); } while (0)

/* The most intervals [t0, t1) open at once. */
static int peak(const std::vector<rec> &v)
{
	std::vector<std::pair<unsigned long long, int>> ev;
	int n = 0, best = 0;

	for (const rec &r : v) {
		ev.push_back({ r.t0, 1 });
		ev.push_back({ r.t1, -1 });
	}
	std::sort(ev.begin(), ev.end());  /* an end before a start at a tie */
	for (auto &e : ev)
		best = std::max(best, n += e.second);
	return best;
}

/* Clusters of `size` CTAs of cluster_kernel (128 threads): the runtime's
 * answer in *api, and the most live at once when three times that many
 * run, 0.3 ms each, in *peak (-1: not launched). */
static void cluster_peak(int size, int *api, int *peak)
{
	cudaLaunchConfig_t cfg;
	cudaLaunchAttribute attr;
	unsigned *d, h[2] = { 0, 0 };

	*api = *peak = -1;
	memset(&cfg, 0, sizeof cfg);
	cfg.blockDim = dim3(128);
	attr.id = cudaLaunchAttributeClusterDimension;
	attr.val.clusterDim.x = size;
	attr.val.clusterDim.y = 1;
	attr.val.clusterDim.z = 1;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	cfg.gridDim = dim3(size);
	if (cudaOccupancyMaxActiveClusters(api, cluster_kernel, &cfg) !=
	    cudaSuccess || *api < 1) {
		(void)cudaGetLastError();
		return;
	}
	cfg.gridDim = dim3(size * *api * 3);
	if (cudaMalloc(&d, sizeof h) != cudaSuccess)
		return;
	cudaMemset(d, 0, sizeof h);
	if (cudaLaunchKernelEx(&cfg, cluster_kernel, d, 300000ull) ==
	    cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
	    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess)
		*peak = (int)h[1];
	(void)cudaGetLastError();
	cudaFree(d);
}

static int clusters(const char *label, int size)
{
	cudaLaunchConfig_t cfg;
	cudaLaunchAttribute attr;
	int n = -1;

	memset(&cfg, 0, sizeof cfg);
	cfg.gridDim = dim3(size * 64);
	cfg.blockDim = dim3(128);
	attr.id = cudaLaunchAttributeClusterDimension;
	attr.val.clusterDim.x = size;
	attr.val.clusterDim.y = 1;
	attr.val.clusterDim.z = 1;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	if (cudaOccupancyMaxActiveClusters(&n, occ_kernel, &cfg) != cudaSuccess) {
		(void)cudaGetLastError();
		return -1;
	}
	(void)label;
	return n;
}

int main(int argc, char **argv)
{
	const char *label = argc > 1 ? argv[1] : "run";
	const char *env = getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
	cudaDeviceProp p;
	CUexecAffinityParam aff;
	int attr = 0, bps = 0, pot = -1, aff_sms = -1, dev = 0;
	size_t smem;
	rec *d;

	RT(cudaSetDevice(dev), "cudaSetDevice");
	RT(cudaFree(0), "context");
	RT(cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, dev),
	   "attr");
	RT(cudaGetDeviceProperties(&p, dev), "props");
	if (cuCtxGetExecAffinity(&aff, CU_EXEC_AFFINITY_TYPE_SM_COUNT) ==
	    CUDA_SUCCESS)
		aff_sms = (int)aff.param.smCount.val;

	/* One block per SM: more shared memory than half the SM holds. */
	smem = p.sharedMemPerBlockOptin;
	RT(cudaFuncSetAttribute(spin_kernel,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				(int)smem), "smem attr");
	int per_sm = 0;
	RT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, spin_kernel,
							 32, smem), "spin occ");
	int blocks = 4 * p.multiProcessorCount * (per_sm > 0 ? per_sm : 1);
	RT(cudaMalloc(&d, blocks * sizeof(rec)), "malloc");
	spin_kernel<<<blocks, 32, smem>>>(d, 50000ull);
	RT(cudaGetLastError(), "launch");
	RT(cudaDeviceSynchronize(), "sync");
	std::vector<rec> h(blocks);
	RT(cudaMemcpy(h.data(), d, blocks * sizeof(rec),
		      cudaMemcpyDeviceToHost), "copy");
	std::set<unsigned> sms;
	for (const rec &r : h)
		sms.insert(r.sm);

	RT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, occ_kernel, 128,
							 0), "occ");
	RT(cudaFuncSetAttribute(occ_kernel,
				cudaFuncAttributeNonPortableClusterSizeAllowed,
				1), "nonportable");
	{
		cudaLaunchConfig_t cfg;

		memset(&cfg, 0, sizeof cfg);
		cfg.gridDim = dim3(1024);
		cfg.blockDim = dim3(128);
		if (cudaOccupancyMaxPotentialClusterSize(&pot, occ_kernel,
							 &cfg) != cudaSuccess) {
			(void)cudaGetLastError();
			pot = -1;
		}
	}
	printf("%s,%d,%d,%d,%zu,%d,%d", label, attr, p.multiProcessorCount,
	       aff_sms, sms.size(), peak(h), bps);
	for (int c : { 1, 2, 4, 8, 16 })
		printf(",%d", clusters(label, c));
	printf(",%d,%s,", pot, env ? env : "");
	/* Real cluster launches: what the runtime answers, what ran. */
	cudaFuncSetAttribute(cluster_kernel,
			     cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	int ck = 0;
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ck, cluster_kernel, 128,
						      0);
	printf(",%d", ck);
	for (int c : { 2, 4, 8, 16 }) {
		int api, pk;

		cluster_peak(c, &api, &pk);
		printf(",%d,%d", api, pk);
	}
	printf("\n");
	cudaFree(d);
	return 0;
}
