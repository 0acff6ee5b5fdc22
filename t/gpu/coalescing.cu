// coalescing.cu - the five kernels the coalescing study profiles (add1-add5),
// written from its description for t/gpu/memory.py and traffic.py: z = x + y
// over 8M floats of 32M-float arrays, 64-thread blocks, a grid of N / 256 blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add1(const float *x, const float *y, float *z)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	z[i] = x[i] + y[i];
}

__global__ void add2(const float *x, const float *y, float *z)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
	z[i] = x[i] + y[i];
}

__global__ void add3(const float *x, const float *y, float *z)
{
	int i = blockIdx.x * blockDim.x + (threadIdx.x ^ 1);
	z[i] = x[i] + y[i];
}

__global__ void add4(const float *x, const float *y, float *z)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	z[i] = x[i] + y[i];
}

__global__ void add5(const float *x, const float *y, float *z)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
	z[i] = x[i] + y[i];
}

int main()
{
	const int n = 32 * 1024 * 1024;
	float *x, *y, *z;

	if (cudaMalloc(&x, n * sizeof *x) || cudaMalloc(&y, n * sizeof *y) ||
	    cudaMalloc(&z, n * sizeof *z)) {
		fprintf(stderr, "coalescing: cudaMalloc failed\n");
		return 1;
	}
	cudaMemset(x, 0, n * sizeof *x);
	cudaMemset(y, 0, n * sizeof *y);
	add1<<<n / 256, 64>>>(x, y, z);
	add2<<<n / 256, 64>>>(x, y, z);
	add3<<<n / 256, 64>>>(x, y, z);
	add4<<<n / 256, 64>>>(x, y, z);
	add5<<<n / 256, 64>>>(x, y, z);
	if (cudaDeviceSynchronize() != cudaSuccess) {
		fprintf(stderr, "coalescing: a kernel failed\n");
		return 1;
	}
	cudaFree(x);
	cudaFree(y);
	cudaFree(z);
	return 0;
}
