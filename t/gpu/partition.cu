/*
 * partition.cu - what the driver does with cuDevSmResourceSplitByCount,
 * and what the occupancy API answers inside the green contexts it makes.
 *
 *   nvcc -std=c++17 -O2 -arch=sm_90 -o partition t/gpu/partition.cu -lcuda
 *   partition OUTDIR [DEVICE]
 *
 * For every flag set (0, IGNORE_SM_COSCHEDULING, MAX_POTENTIAL_CLUSTER_SIZE,
 * both) and every minCount 0..smCount it splits the device's SMs, records
 * the groups and the remainder (splits.csv), makes a green context of each
 * part, launches a kernel there that records %smid in a bitmap (sms.csv),
 * and asks cudaOccupancyMaxActiveClusters and cuOccupancyMaxActiveClusters
 * for clusters of 1..16 of a 128-thread kernel whose dynamic shared memory
 * gives it 1..16 blocks per SM (occ.csv), with the potential cluster sizes
 * (potential.csv). Then it launches clusters there: of 2, 4, 8 and 16 CTAs
 * at one CTA per SM, joining the SMs that ran CTAs of one cluster (the
 * part's GPCs as the cluster scheduler sees them, layout.csv), and of 4,
 * 8 and 16 CTAs at 8 blocks per SM, counting the clusters live at once
 * (peaks.csv); and one cluster of each size 2..16 at one CTA per SM,
 * whatever the runtime answers, recording whether the launch was refused
 * or ran (refused.csv: issue 38). A part whose flags and SMs were asked
 * before is not asked again (occ.csv names the first). Launches only with
 * PARTITION_LAUNCH=1 (for the counts, a cluster the runtime says cannot
 * fit is not launched). Nothing is printed but progress on stderr; every
 * failure is a row, not an exit, but for a launch the runtime took that
 * never ran (refused.csv says "hung", and the program exits 2).
 */
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#define MASK_WORDS 64   /* %smid below 2048 */

__global__ void smid_kernel(unsigned *mask, unsigned long long spin_ns)
{
	if (threadIdx.x == 0) {
		unsigned sm;
		unsigned long long t0, t;

		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		atomicOr(&mask[(sm / 32) % MASK_WORDS], 1u << (sm % 32));
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
		do
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		while (t - t0 < spin_ns);
	}
}

__global__ void occ_kernel(float *p)
{
	extern __shared__ float s[];

	s[threadIdx.x] = p ? p[threadIdx.x] : 0.f;
	__syncthreads();
	if (p)
		p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

namespace cg = cooperative_groups;

/* counters[0]: clusters live; [1]: the most at once. sms: each CTA's SM,
 * by cluster and rank. */
__global__ void cluster_kernel(unsigned *counters, unsigned *sms,
			       unsigned long long spin_ns)
{
	cg::cluster_group cl = cg::this_cluster();
	unsigned sm, rank = cl.block_rank();
	unsigned long long t0, t;
	unsigned cluster = blockIdx.x / cl.num_blocks();

	asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
	cl.sync();
	if (threadIdx.x == 0) {
		sms[cluster * cl.num_blocks() + rank] = sm;
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

static const char *cu_name(CUresult r)
{
	const char *s = NULL;

	cuGetErrorName(r, &s);
	return s ? s : "?";
}

#define OCC_THREADS 128
#define MAX_CLUSTER 16
#define MAX_BPSM 16

struct occ_setting {
	int blocks;     /* per SM, asked */
	size_t smem;    /* dynamic shared memory giving that */
	int got;        /* what the whole-device API answers for it */
};

static FILE *open_csv(const char *dir, const char *name, const char *header)
{
	std::string path = std::string(dir) + "/" + name;
	FILE *f = fopen(path.c_str(), "w");

	if (!f) {
		perror(path.c_str());
		exit(1);
	}
	fprintf(f, "%s\n", header);
	return f;
}

/* Smallest dynamic shared memory (256-byte steps) at which the kernel
 * has at most b blocks per SM, on the current context. */
static void find_settings(std::vector<occ_setting> &v, size_t max_smem)
{
	for (int b = 1; b <= MAX_BPSM; b++) {
		size_t lo = 0, hi = max_smem / 256;
		int n;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			cudaOccupancyMaxActiveBlocksPerMultiprocessor(
				&n, occ_kernel, OCC_THREADS, mid * 256);
			if (n <= b)
				hi = mid;
			else
				lo = mid + 1;
		}
		cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&n, occ_kernel, OCC_THREADS, lo * 256);
		v.push_back({b, lo * 256, n});
	}
}

struct ctx_state {
	FILE *occ, *pot, *sms, *layout, *peaks, *refused;
	std::vector<occ_setting> settings;
	std::map<std::string, std::string> asked;  /* flags+SMs -> first */
	size_t max_smem;
	bool launch;    /* PARTITION_LAUNCH=1: launch clusters too */
};

static std::string sm_list(const unsigned *mask, int *count)
{
	std::string s;

	*count = 0;
	for (int i = 0; i < MASK_WORDS * 32; i++)
		if (mask[i / 32] & (1u << (i % 32))) {
			if (*count)
				s += " ";
			s += std::to_string(i);
			++*count;
		}
	return s;
}

/* The part's SMs, by launching on its green context's stream. */
static std::string part_sms(CUstream st, unsigned *dmask, int *count,
			    std::string *err)
{
	unsigned h[MASK_WORDS];

	cudaMemsetAsync(dmask, 0, sizeof h, st);
	smid_kernel<<<132 * 32, 32, 0, st>>>(dmask, 20000);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaMemcpyAsync(h, dmask, sizeof h, cudaMemcpyDeviceToHost, st);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(st);
	if (e != cudaSuccess) {
		*err = cudaGetErrorName(e);
		*count = -1;
		return "";
	}
	return sm_list(h, count);
}

static void ask_occupancy(ctx_state &cs, const std::string &tag,
			  CUstream st, CUfunction fn)
{
	for (const occ_setting &o : cs.settings) {
		for (int c = 1; c <= MAX_CLUSTER; c++) {
			cudaLaunchConfig_t cfg = {};
			cudaLaunchAttribute at[1];
			CUlaunchConfig dcfg = {};
			CUlaunchAttribute dat[1];
			int rt = -1, drv = -1;
			cudaError_t re;
			CUresult de;

			cfg.gridDim = dim3(c, 1, 1);
			cfg.blockDim = dim3(OCC_THREADS, 1, 1);
			cfg.dynamicSmemBytes = o.smem;
			cfg.stream = (cudaStream_t)st;
			at[0].id = cudaLaunchAttributeClusterDimension;
			at[0].val.clusterDim.x = c;
			at[0].val.clusterDim.y = 1;
			at[0].val.clusterDim.z = 1;
			cfg.attrs = at;
			cfg.numAttrs = 1;
			re = cudaOccupancyMaxActiveClusters(&rt, occ_kernel, &cfg);

			dcfg.gridDimX = c;
			dcfg.gridDimY = dcfg.gridDimZ = 1;
			dcfg.blockDimX = OCC_THREADS;
			dcfg.blockDimY = dcfg.blockDimZ = 1;
			dcfg.sharedMemBytes = (unsigned)o.smem;
			dcfg.hStream = st;
			dat[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
			dat[0].value.clusterDim.x = c;
			dat[0].value.clusterDim.y = 1;
			dat[0].value.clusterDim.z = 1;
			dcfg.attrs = dat;
			dcfg.numAttrs = 1;
			de = cuOccupancyMaxActiveClusters(&drv, fn, &dcfg);
			fprintf(cs.occ, "%s,%d,%zu,%d,%d,%d,%s,%d,%s\n",
				tag.c_str(), o.blocks, o.smem, o.got, c,
				re == cudaSuccess ? rt : -1,
				re == cudaSuccess ? "ok" : cudaGetErrorName(re),
				de == CUDA_SUCCESS ? drv : -1,
				de == CUDA_SUCCESS ? "ok" : cu_name(de));
		}
		for (int np = 0; np <= 1; np++) {
			cudaLaunchConfig_t cfg = {};
			int pot = -1;
			cudaError_t re;

			cudaFuncSetAttribute(occ_kernel,
				cudaFuncAttributeNonPortableClusterSizeAllowed, np);
			cfg.gridDim = dim3(1, 1, 1);
			cfg.blockDim = dim3(OCC_THREADS, 1, 1);
			cfg.dynamicSmemBytes = o.smem;
			cfg.stream = (cudaStream_t)st;
			re = cudaOccupancyMaxPotentialClusterSize(&pot, occ_kernel,
								  &cfg);
			fprintf(cs.pot, "%s,%d,%zu,%d,%d,%s\n", tag.c_str(),
				o.blocks, o.smem, np, re == cudaSuccess ? pot : -1,
				re == cudaSuccess ? "ok" : cudaGetErrorName(re));
		}
		cudaFuncSetAttribute(occ_kernel,
			cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	}
}

/* The launches in a part: launch_part(). */
#include "partition_launch.cuh"

/* One part: its green context, SMs, occupancy answers. */
static void measure_part(ctx_state &cs, CUdevice dev, unsigned flags,
			 unsigned min_count, const char *part,
			 CUdevResource *res, unsigned *dmask_primary)
{
	CUdevResourceDesc desc;
	CUgreenCtx g = NULL;
	CUcontext ctx = NULL, prev = NULL;
	CUstream st = NULL;
	CUresult r;
	std::string prefix = std::to_string(flags) + "," +
			     std::to_string(min_count) + "," + part;
	std::string err, list;
	int count = 0, mpc = -1;
	unsigned *dmask = NULL;
	CUdevResource got;
	unsigned got_sms = 0;
	CUfunction fn = NULL;

	(void)dmask_primary;
	cuCtxGetCurrent(&prev);
	if ((r = cuDevResourceGenerateDesc(&desc, res, 1)) != CUDA_SUCCESS ||
	    (r = cuGreenCtxCreate(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM))
		    != CUDA_SUCCESS ||
	    (r = cuCtxFromGreenCtx(&ctx, g)) != CUDA_SUCCESS ||
	    (r = cuCtxSetCurrent(ctx)) != CUDA_SUCCESS ||
	    (r = cuGreenCtxStreamCreate(&st, g, CU_STREAM_NON_BLOCKING, 0))
		    != CUDA_SUCCESS) {
		fprintf(cs.sms, "%s,%u,-1,-1,-1,%s,\n", prefix.c_str(),
			res->sm.smCount, cu_name(r));
		goto out;
	}
	if (cuGreenCtxGetDevResource(g, &got, CU_DEV_RESOURCE_TYPE_SM) ==
	    CUDA_SUCCESS)
		got_sms = got.sm.smCount;
	cudaDeviceGetAttribute(&mpc, cudaDevAttrMultiProcessorCount, 0);
	if (cudaMalloc(&dmask, MASK_WORDS * sizeof(unsigned)) != cudaSuccess) {
		fprintf(cs.sms, "%s,%u,%u,%d,-1,cudaMalloc,\n", prefix.c_str(),
			res->sm.smCount, got_sms, mpc);
		goto out;
	}
	list = part_sms(st, dmask, &count, &err);
	fprintf(cs.sms, "%s,%u,%u,%d,%d,%s,%s\n", prefix.c_str(),
		res->sm.smCount, got_sms, mpc, count,
		err.empty() ? "ok" : err.c_str(), list.c_str());
	if (count > 0) {
		std::string key = std::to_string(flags) + ":" + list;
		auto it = cs.asked.find(key);

		if (it != cs.asked.end()) {
			fprintf(cs.occ, "%s,same-as,%s,,,,,,\n", prefix.c_str(),
				it->second.c_str());
		} else {
			cs.asked[key] = std::to_string(min_count) + "/" + part;
			cudaFuncSetAttribute(occ_kernel,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				(int)cs.max_smem);
			cudaFuncSetAttribute(occ_kernel,
				cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
			cudaGetFuncBySymbol((cudaFunction_t *)&fn,
					    (const void *)occ_kernel);
			if (fn) {
				cuFuncSetAttribute(fn,
					CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					(int)cs.max_smem);
				cuFuncSetAttribute(fn,
					CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
					1);
			}
			ask_occupancy(cs, prefix, st, fn);
			cudaFuncSetAttribute(cluster_kernel,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				(int)cs.max_smem);
			cudaFuncSetAttribute(cluster_kernel,
				cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
			if (cs.launch)
				launch_part(cs, prefix, st, count);
		}
	}
out:
	if (dmask)
		cudaFree(dmask);
	if (st)
		cuStreamDestroy(st);
	cuCtxSetCurrent(prev);
	if (g)
		cuGreenCtxDestroy(g);
}

static std::string join_sizes(const std::vector<CUdevResource> &v, unsigned n)
{
	std::string s;

	for (unsigned i = 0; i < n; i++) {
		if (i)
			s += " ";
		s += std::to_string(v[i].sm.smCount);
	}
	return s;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	int devno = argc > 2 ? atoi(argv[2]) : 0;
	CUdevice dev;
	CUdevResource all;
	CUcontext primary;
	ctx_state cs;
	unsigned flag_sets[] = {0, CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING,
		CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE,
		CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING |
		CU_DEV_SM_RESOURCE_SPLIT_MAX_POTENTIAL_CLUSTER_SIZE};
	auto t0 = std::chrono::steady_clock::now();
	FILE *splits, *env;
	int optin = 0, drv = 0, rtv = 0;
	char name[256] = "";
	unsigned *dmask = NULL;

	if (cudaSetDevice(devno) != cudaSuccess || cudaFree(0) != cudaSuccess ||
	    cuDeviceGet(&dev, devno) != CUDA_SUCCESS ||
	    cuCtxGetCurrent(&primary) != CUDA_SUCCESS) {
		fprintf(stderr, "partition: no device %d\n", devno);
		return 1;
	}
	if (cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM) !=
	    CUDA_SUCCESS) {
		fprintf(stderr, "partition: cuDeviceGetDevResource failed\n");
		return 1;
	}
	cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
			       devno);
	cs.max_smem = (size_t)optin;
	cs.launch = getenv("PARTITION_LAUNCH") &&
		    strcmp(getenv("PARTITION_LAUNCH"), "1") == 0;
	cudaFuncSetAttribute(occ_kernel,
			     cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
	cudaFuncSetAttribute(occ_kernel,
			     cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	find_settings(cs.settings, cs.max_smem);
	cuDeviceGetName(name, sizeof name, dev);
	cuDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rtv);

	env = open_csv(dir, "device.txt", "# partition.cu: the device");
	fprintf(env, "name %s\ndriver_api %d\nruntime %d\nsmCount %u\n"
		"minSmPartitionSize %u\nsmCoscheduledAlignment %u\n"
		"sharedMemPerBlockOptin %d\n", name, drv, rtv, all.sm.smCount,
		all.sm.minSmPartitionSize, all.sm.smCoscheduledAlignment, optin);
	for (const occ_setting &o : cs.settings)
		fprintf(env, "setting blocks=%d smem=%zu api_blocks=%d\n",
			o.blocks, o.smem, o.got);
	fclose(env);

	splits = open_csv(dir, "splits.csv",
		"flags,min_count,rc,query_rc,query_groups,groups,group_sms,"
		"group_min_partition,group_alignment,remaining_sms,"
		"remaining_min_partition,remaining_alignment");
	cs.sms = open_csv(dir, "sms.csv",
		"flags,min_count,part,resource_sms,green_ctx_sms,"
		"multiProcessorCount,smid_count,status,smids");
	cs.occ = open_csv(dir, "occ.csv",
		"flags,min_count,part,blocks_per_sm,dynamic_smem,"
		"api_blocks_per_sm,cluster_size,runtime_clusters,runtime_status,"
		"driver_clusters,driver_status");
	cs.layout = open_csv(dir, "layout.csv",
		"flags,min_count,part,cluster_size,status,gpcs");
	cs.peaks = open_csv(dir, "peaks.csv",
		"flags,min_count,part,cluster_size,blocks_per_sm,api_clusters,"
		"launched_clusters,status,measured_clusters");
	cs.refused = open_csv(dir, "refused.csv",
		"flags,min_count,part,cluster_size,api_clusters,status");
	cs.pot = open_csv(dir, "potential.csv",
		"flags,min_count,part,blocks_per_sm,dynamic_smem,nonportable,"
		"potential_cluster_size,status");

	/* The whole device first, through the primary context. */
	{
		CUstream st;
		int count;
		std::string err, list;
		CUfunction fn = NULL;

		cudaMalloc(&dmask, MASK_WORDS * sizeof(unsigned));
		cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
		list = part_sms(st, dmask, &count, &err);
		fprintf(cs.sms, "-1,0,device,%u,%u,%d,%d,%s,%s\n",
			all.sm.smCount, all.sm.smCount, (int)all.sm.smCount,
			count, err.empty() ? "ok" : err.c_str(), list.c_str());
		cudaGetFuncBySymbol((cudaFunction_t *)&fn,
				    (const void *)occ_kernel);
		cuFuncSetAttribute(fn,
			CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin);
		cuFuncSetAttribute(fn,
			CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
		ask_occupancy(cs, "-1,0,device", st, fn);
		cudaFuncSetAttribute(cluster_kernel,
			cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
		cudaFuncSetAttribute(cluster_kernel,
			cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
		if (cs.launch)
			launch_part(cs, "-1,0,device", st, count);
		cuStreamDestroy(st);
	}

	for (unsigned flags : flag_sets) {
		for (unsigned m = 0; m <= all.sm.smCount; m++) {
			unsigned q = 0, n;
			CUresult qr, r;
			std::vector<CUdevResource> groups(all.sm.smCount + 1);
			CUdevResource rem;

			memset(&rem, 0, sizeof rem);
			qr = cuDevSmResourceSplitByCount(NULL, &q, &all, NULL,
							 flags, m);
			n = (unsigned)groups.size();
			r = cuDevSmResourceSplitByCount(groups.data(), &n, &all,
							&rem, flags, m);
			if (r != CUDA_SUCCESS)
				n = 0;
			fprintf(splits, "%u,%u,%s,%s,%u,%u,%s,%u,%u,%u,%u,%u\n",
				flags, m, cu_name(r), cu_name(qr), q, n,
				join_sizes(groups, n).c_str(),
				n ? groups[0].sm.minSmPartitionSize : 0,
				n ? groups[0].sm.smCoscheduledAlignment : 0,
				rem.type == CU_DEV_RESOURCE_TYPE_SM ?
					rem.sm.smCount : 0,
				rem.sm.minSmPartitionSize,
				rem.sm.smCoscheduledAlignment);
			fflush(splits);
			for (unsigned i = 0; i < n; i++)
				measure_part(cs, dev, flags, m,
					     std::to_string(i).c_str(),
					     &groups[i], dmask);
			if (r == CUDA_SUCCESS &&
			    rem.type == CU_DEV_RESOURCE_TYPE_SM &&
			    rem.sm.smCount > 0)
				measure_part(cs, dev, flags, m, "remaining",
					     &rem, dmask);
			fflush(cs.sms);
			fflush(cs.occ);
			fflush(cs.layout);
			fflush(cs.peaks);
			fflush(cs.refused);
		}
		fprintf(stderr, "partition: flags %u done at %.1f s\n", flags,
			std::chrono::duration<double>(
				std::chrono::steady_clock::now() - t0).count());
	}
	fclose(splits);
	fclose(cs.sms);
	fclose(cs.occ);
	fclose(cs.pot);
	fclose(cs.layout);
	fclose(cs.peaks);
	fclose(cs.refused);
	return 0;
}
