// A self-contained kernel, and one calling a device function defined in
// another translation unit: both compiled -rdc (relocatable).
__global__ void __launch_bounds__(256) selfcontained(float *a, int n)
{
	__shared__ float tile[512];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	tile[threadIdx.x] = i < n ? a[i] : 0.f;
	__syncthreads();
	if (i < n)
		a[i] = tile[(threadIdx.x * 7) % blockDim.x] * 2.f + tile[threadIdx.x];
}
