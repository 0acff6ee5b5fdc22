// trace_cluster.cu - the CUDA C++ kernel of t/gpu/trace_program.py: a
// kernel declared with __cluster_dims__ (clusters of 2 CTAs) that uses
// distributed shared memory, launched with opt-in dynamic shared memory
// (over sharedMemPerBlock) and without, so that a trace records both.
// Built by the program with nvcc into a shared library it loads with
// ctypes; the launch goes on the stream PyTorch gives it.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_mix(float *x, int n)
{
	extern __shared__ float buf[];
	cg::cluster_group cluster = cg::this_cluster();
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	buf[threadIdx.x] = i < n ? x[i] : 0.0f;
	cluster.sync();
	// The other CTA of the cluster's value for this thread.
	float *peer = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
	float v = peer[threadIdx.x];
	cluster.sync();
	if (i < n)
		x[i] = 0.5f * (x[i] + v);
}

// Launches cluster_mix over n floats with smem bytes of dynamic shared
// memory a block; returns the CUDA error.
extern "C" int launch_cluster_mix(float *x, int n, int smem, void *stream)
{
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	cudaError_t e;

	blocks += blocks & 1;        // a whole number of clusters
	e = cudaFuncSetAttribute(cluster_mix,
				 cudaFuncAttributeMaxDynamicSharedMemorySize,
				 smem);
	if (e != cudaSuccess)
		return (int)e;
	cluster_mix<<<blocks, threads, smem, (cudaStream_t)stream>>>(x, n);
	return (int)cudaGetLastError();
}
