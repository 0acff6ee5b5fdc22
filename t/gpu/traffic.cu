// traffic.cu - launches described on stdin, one kernel each, for
// t/gpu/traffic.py to profile: every thread loads up to two elements and
// stores one, each access with its own array and pattern, exactly as the
// traffic model reads them (occcalc.h, struct occ_kernel_access).
//
// A line: ELEM GRID BLOCK THREADS ACTIVE NLOADS, then for each load and
// the store: ARRAY STRIDE OFFSET GROUP XOR. THREADS 0: every thread of
// the grid; else threads with index below it (a thread count).
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

struct access {
	int array;
	unsigned lane_xor;
	unsigned long long stride, offset, group;
};

struct args {
	char *base[3];
	int nloads, active;
	unsigned long long threads;
	access ld[2], st;
};

template <typename T> __device__ static T sum(T a, T b) { return a + b; }
__device__ static uint4 sum(uint4 a, uint4 b)
{
	return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// Thread t of the block at `first` uses first + (t ^ xor), as the model.
template <typename T>
__device__ static T *element(const args &a, const access &x,
			     unsigned long long first, unsigned t)
{
	unsigned long long i = first + (t ^ x.lane_xor);

	return (T *)a.base[x.array] + x.offset + i / x.group * x.stride;
}

template <typename T> __global__ void traffic(args a)
{
	unsigned t = threadIdx.x;
	unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x;
	T v = T();

	if ((int)(t % 32) >= a.active || (a.threads && first + t >= a.threads))
		return;
	for (int k = 0; k < a.nloads; k++)
		v = sum(v, *element<T>(a, a.ld[k], first, t));
	*element<T>(a, a.st, first, t) = v;
}

static const void *kernel(int elem)
{
	switch (elem) {
	case 1: return (const void *)traffic<uint8_t>;
	case 2: return (const void *)traffic<uint16_t>;
	case 4: return (const void *)traffic<uint32_t>;
	case 8: return (const void *)traffic<uint64_t>;
	case 16: return (const void *)traffic<uint4>;
	}
	return nullptr;
}

static bool read_access(access *x)
{
	return scanf("%d %llu %llu %llu %u", &x->array, &x->stride, &x->offset,
		     &x->group, &x->lane_xor) == 5 && x->array >= 0 &&
	       x->array < 3 && x->group > 0;
}

// Bytes each array needs: past the largest index any thread can use.
static void sizes(const args &a, int elem, unsigned long long n,
		  unsigned long long bytes[3])
{
	for (int k = 0; k <= a.nloads; k++) {
		const access &x = k < a.nloads ? a.ld[k] : a.st;
		unsigned long long end =
			(x.offset + (n + 31) / x.group * x.stride + 1) * elem;

		if (end > bytes[x.array])
			bytes[x.array] = end;
	}
}

static int launch_one(int line)
{
	args a = {};
	int elem;
	unsigned long long grid, block, bytes[3] = { 0, 0, 0 };

	if (scanf("%d %llu %llu %llu %d %d", &elem, &grid, &block, &a.threads,
		  &a.active, &a.nloads) != 6)
		return 0;
	for (int k = 0; k < a.nloads; k++)
		if (a.nloads > 2 || !read_access(&a.ld[k]))
			return -line;
	if (!read_access(&a.st) || !kernel(elem))
		return -line;
	sizes(a, elem, grid * block, bytes);
	for (int i = 0; i < 3; i++)
		if (bytes[i] && (cudaMalloc(&a.base[i], bytes[i]) ||
				 cudaMemset(a.base[i], 0, bytes[i])))
			return -line;
	void *params[] = { &a };
	if (cudaLaunchKernel(kernel(elem), dim3((unsigned)grid),
			     dim3((unsigned)block), params, 0, 0) ||
	    cudaDeviceSynchronize())
		return -line;
	for (int i = 0; i < 3; i++)
		cudaFree(a.base[i]);
	return 1;
}

int main()
{
	int line = 1, st;

	while ((st = launch_one(line)) > 0)
		line++;
	if (st < 0) {
		fprintf(stderr, "traffic: launch %d failed or is malformed\n",
			-st);
		return 1;
	}
	return 0;
}
