// bound-launch.cu - on the GPU: what a launch above __launch_bounds__ does,
// beside what the runtime's and the driver's occupancy APIs answer for it.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(192) bounded(int *p) { p[threadIdx.x] = 1; }

int main()
{
	int *p, n = -1, d = -1;
	cudaFuncAttributes a;
	cudaMalloc(&p, 4096);
	cudaFuncGetAttributes(&a, bounded);
	printf("maxThreadsPerBlock %d numRegs %d\n", a.maxThreadsPerBlock, a.numRegs);
	for (int block : {192, 224, 512}) {
		cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, bounded, block, 0);
		void *fp = nullptr;
		cudaDriverEntryPointQueryResult q;
		cudaGetDriverEntryPointByVersion("cuOccupancyMaxActiveBlocksPerMultiprocessor", &fp, 12000, cudaEnableDefault, &q);
		CUfunction f;
		cudaGetFuncBySymbol(&f, (const void *)bounded);
		((CUresult (*)(int *, CUfunction, int, size_t))fp)(&d, f, block, 0);
		bounded<<<1, block>>>(p);
		cudaError_t l = cudaGetLastError();
		cudaError_t s = cudaDeviceSynchronize();
		printf("block %d: runtime occupancy %d (%s), driver occupancy %d, launch: %s, sync: %s\n",
		       block, n, cudaGetErrorString(e), d, cudaGetErrorString(l), cudaGetErrorString(s));
	}
	return 0;
}
