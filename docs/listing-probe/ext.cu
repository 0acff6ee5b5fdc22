extern __device__ float external_scale(float);
__global__ void calls_external(float *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] = external_scale(a[i]);
}
