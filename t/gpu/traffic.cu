// traffic.cu - launches described on stdin, one kernel each, for
// t/gpu/traffic.py to profile: every thread loads up to two elements and
// stores one, each access with its own array and pattern, exactly as the
// traffic model reads them (occcalc.h, struct occ_kernel_access).
//
// A line: ELEM GX GY GZ BX BY BZ THREADS ACTIVE NLOADS, then for each
// load and the store: ARRAY STRIDE OFFSET GROUP XOR TX TY TZ BID DX DY DZ.
// The grid is GX x GY x GZ blocks, numbered b = blockIdx.x + GX
// (blockIdx.y + GY blockIdx.z); the block BX x BY x BZ; THREADS 0: every
// thread of the grid; else threads with index below it (a thread count).
// Thread t of its block (threadIdx.x fastest) uses i = b * threads per
// block + (t ^ XOR) and touches element OFFSET + i / GROUP * STRIDE +
// TX threadIdx.x + TY threadIdx.y + TZ threadIdx.z + BID b + DX blockIdx.x
// + DY blockIdx.y + DZ blockIdx.z (a tile of a 2-D grid), every factor
// signed;
// each array's element 0 is on a 128-byte line, with room below it for
// the elements a negative index reaches.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

struct access {
	int array;
	unsigned lane_xor;
	long long stride, offset, tid[3], bid, bdim[3];
	unsigned long long group;
};

struct args {
	char *base[3], *alloc[3];
	int nloads, active;
	unsigned long long threads;
	access ld[2], st;
};

template <typename T> __device__ static T sum(T a, T b) { return a + b; }
__device__ static uint4 sum(uint4 a, uint4 b)
{
	return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// Thread t of block b, its first thread `first`, uses first + (t ^ xor),
// as the model.
template <typename T>
__device__ static T *element(const args &a, const access &x,
			     unsigned long long b, unsigned long long first,
			     unsigned t)
{
	unsigned long long i = first + (t ^ x.lane_xor);
	long long e = x.offset + (long long)(i / x.group) * x.stride +
		      x.tid[0] * threadIdx.x + x.tid[1] * threadIdx.y +
		      x.tid[2] * threadIdx.z + x.bid * (long long)b +
		      x.bdim[0] * blockIdx.x + x.bdim[1] * blockIdx.y +
		      x.bdim[2] * blockIdx.z;

	return (T *)a.base[x.array] + e;
}

template <typename T> __global__ void traffic(args a)
{
	unsigned t = threadIdx.x + blockDim.x * (threadIdx.y +
						 blockDim.y * threadIdx.z);
	unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x *
				   (blockIdx.y + (unsigned long long)gridDim.y *
						 blockIdx.z);
	unsigned long long first = b * (blockDim.x * blockDim.y * blockDim.z);
	T v = T();

	if ((int)(t % 32) >= a.active || (a.threads && first + t >= a.threads))
		return;
	for (int k = 0; k < a.nloads; k++)
		v = sum(v, *element<T>(a, a.ld[k], b, first, t));
	*element<T>(a, a.st, b, first, t) = v;
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
	return scanf("%d %lld %lld %llu %u %lld %lld %lld %lld %lld %lld %lld",
		     &x->array, &x->stride, &x->offset, &x->group,
		     &x->lane_xor, &x->tid[0], &x->tid[1], &x->tid[2], &x->bid,
		     &x->bdim[0], &x->bdim[1], &x->bdim[2]) == 12 &&
	       x->array >= 0 && x->array < 3 && x->group > 0;
}

// Each term's extremes: the lowest and highest element x can touch.
static void bounds(const access &x, unsigned long long n,
		   const unsigned long long dim[3],
		   const unsigned long long grid[3], long long *lo,
		   long long *hi)
{
	long long f[8] = { x.stride, x.tid[0], x.tid[1], x.tid[2], x.bid,
			   x.bdim[0], x.bdim[1], x.bdim[2] };
	long long top[8] = { (long long)((n + 31) / x.group),
			     (long long)dim[0] - 1, (long long)dim[1] - 1,
			     (long long)dim[2] - 1,
			     (long long)(grid[0] * grid[1] * grid[2]) - 1,
			     (long long)grid[0] - 1, (long long)grid[1] - 1,
			     (long long)grid[2] - 1 };

	*lo = *hi = x.offset;
	for (int j = 0; j < 8; j++)
		*(f[j] < 0 ? lo : hi) += f[j] * top[j];
}

// Each array's lowest and highest element over its accesses.
static void sizes(const args &a, unsigned long long n,
		  const unsigned long long dim[3],
		  const unsigned long long grid[3],
		  long long lo[3], long long hi[3], bool used[3])
{
	for (int k = 0; k <= a.nloads; k++) {
		const access &x = k < a.nloads ? a.ld[k] : a.st;
		long long l, h;

		bounds(x, n, dim, grid, &l, &h);
		if (!used[x.array] || l < lo[x.array])
			lo[x.array] = l;
		if (!used[x.array] || h > hi[x.array])
			hi[x.array] = h;
		used[x.array] = true;
	}
}

static int launch_one(int line)
{
	args a = {};
	int elem;
	unsigned long long grid[3], dim[3];
	long long lo[3], hi[3];
	bool used[3] = { false, false, false };

	if (scanf("%d %llu %llu %llu %llu %llu %llu %llu %d %d", &elem,
		  &grid[0], &grid[1], &grid[2], &dim[0], &dim[1], &dim[2],
		  &a.threads, &a.active, &a.nloads) != 10)
		return 0;
	for (int k = 0; k < a.nloads; k++)
		if (a.nloads > 2 || !read_access(&a.ld[k]))
			return -line;
	if (!read_access(&a.st) || !kernel(elem))
		return -line;
	sizes(a, grid[0] * grid[1] * grid[2] * dim[0] * dim[1] * dim[2], dim,
	      grid, lo, hi, used);
	for (int i = 0; i < 3; i++) {
		if (!used[i])
			continue;
		/* element 0 on a line, lines enough below it */
		long long below = lo[i] < 0 ? (-lo[i] * elem + 127) / 128 * 128
					    : 0;
		unsigned long long bytes = below + (hi[i] + 1) * elem + 128;

		if (cudaMalloc(&a.alloc[i], bytes) ||
		    cudaMemset(a.alloc[i], 0, bytes))
			return -line;
		a.base[i] = a.alloc[i] + below;
	}
	void *params[] = { &a };
	if (cudaLaunchKernel(kernel(elem),
			     dim3((unsigned)grid[0], (unsigned)grid[1],
				  (unsigned)grid[2]),
			     dim3((unsigned)dim[0], (unsigned)dim[1],
				  (unsigned)dim[2]), params, 0, 0) ||
	    cudaDeviceSynchronize())
		return -line;
	for (int i = 0; i < 3; i++)
		cudaFree(a.alloc[i]);
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
