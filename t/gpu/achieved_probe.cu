// achieved_probe.cu - launches whose achieved occupancy is known in
// shape, for the --achieved check on the device (t/gpu/achieved.sh):
// a kernel that spins a fixed number of cycles per block, launched as
// a full wave of the GPU, as a partial last wave, as one block, and
// with shared memory that limits it, on the runtime's and the driver's
// launch calls. Each launch is made twice.
//   achieved_probe [SPIN_CYCLES]
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" __global__ void spin(long long cycles, int *out)
{
	extern __shared__ int pad[];
	long long t0 = clock64();

	while (clock64() - t0 < cycles)
		;
	if (threadIdx.x == 0 && out)
		out[blockIdx.x] = (int)sizeof pad[0];
}

static int check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		fprintf(stderr, "achieved_probe: %s: %s\n", what,
			cudaGetErrorString(e));
		exit(1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long long cycles = argc > 1 ? atoll(argv[1]) : 200000;
	int sms = 0, rep, i;
	int *out;
	CUfunction f;
	struct { int grid, block; size_t smem; } shapes[] = {
		{ 0, 256, 0 },           /* grid: filled below */
		{ 0, 256, 0 },
		{ 1, 256, 0 },
		{ 0, 128, 100 << 10 },
	};

	check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0),
	      "SM count");
	shapes[0].grid = sms * 8;        /* 8 x 256 threads: a full SM */
	shapes[1].grid = sms * 8 + sms / 2;   /* and half an SM's worth */
	shapes[3].grid = sms * 4;
	check(cudaMalloc(&out, sizeof(int) * sms * 16), "cudaMalloc");
	check(cudaFuncSetAttribute(spin,
		cudaFuncAttributeMaxDynamicSharedMemorySize, 100 << 10),
	      "opt-in shared memory");
	check(cudaGetFuncBySymbol((cudaFunction_t *)&f, (const void *)spin),
	      "cudaGetFuncBySymbol");
	for (rep = 0; rep < 2; rep++)
		for (i = 0; i < 4; i++) {
			void *args[] = { &cycles, &out };

			if (i % 2 == 0)
				spin<<<shapes[i].grid, shapes[i].block,
					shapes[i].smem>>>(cycles, out);
			else if (cuLaunchKernel(f, shapes[i].grid, 1, 1,
						 shapes[i].block, 1, 1,
						 (unsigned)shapes[i].smem, 0,
						 args, NULL) != CUDA_SUCCESS) {
				fprintf(stderr, "achieved_probe: cuLaunchKernel "
					"failed\n");
				return 1;
			}
			check(cudaGetLastError(), "launch");
		}
	check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	return 0;
}
