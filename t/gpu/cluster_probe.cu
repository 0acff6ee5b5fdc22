/*
 * cluster_probe.cu - research probe: how many thread-block clusters a
 * Hopper GPU holds at once, by the runtime's API and by measurement.
 *
 * Standalone (no occcalc code): nvcc -std=c++17 -O3 -arch=sm_90
 *   cluster_probe OUTDIR        layout runs, the API sweep, measured sweep
 *   cluster_probe --ncu         one launch per configuration of a subset,
 *                               to run under ncu
 *
 * Each CTA records its SM (%smid), its cluster (%clusterid, rank), its SM
 * clock (clock64, comparable within one SM only) and %globaltimer
 * (comparable across SMs, coarse) at start and at end, and keeps atomic
 * counters of live CTAs, live clusters and live CTAs per SM whose peaks
 * are the co-residency (a counter is decremented before the resources it
 * stands for are released, so a peak never counts a successor).
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, \
		cudaGetErrorString(e_)); exit(1); } } while (0)

struct Rec {
	unsigned long long c0, c1, g0, g1;
	unsigned sm, cl, rank, nrank;
};

enum { LIVE_CTA, PEAK_CTA, LIVE_CL, PEAK_CL, CTR_SM = 8 };
#define MAX_SM 256

struct Args {
	Rec *rec;
	unsigned long long spin;
	unsigned smem_words;
	unsigned *sink;
	unsigned *ctr;   /* CTR_SM + 2 * MAX_SM */
};

__device__ __forceinline__ unsigned long long gtimer()
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

template <int R>
__global__ void __maxnreg__(R) kclus(Args a)
{
	long long start = clock64();
	unsigned long long g0 = gtimer();
	extern __shared__ unsigned smem[];
	unsigned sm, rank, nrank, clid;
	constexpr int N = R + 8;
	unsigned v[N];
	unsigned seed = (unsigned)start ^ threadIdx.x, sum = 0;

	asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
	asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
	{
		unsigned x, y, z, nx, ny;
		asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(x));
		asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(y));
		asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(z));
		asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(nx));
		asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(ny));
		clid = x + nx * (y + ny * z);
	}
	if (threadIdx.x == 0) {
		unsigned o = atomicAdd(&a.ctr[LIVE_CTA], 1);
		atomicMax(&a.ctr[PEAK_CTA], o + 1);
		o = atomicAdd(&a.ctr[CTR_SM + sm], 1);
		atomicMax(&a.ctr[CTR_SM + MAX_SM + sm], o + 1);
		if (rank == 0) {
			o = atomicAdd(&a.ctr[LIVE_CL], 1);
			atomicMax(&a.ctr[PEAK_CL], o + 1);
		}
	}
#pragma unroll
	for (int i = 0; i < N; i++)
		v[i] = seed * (2 * i + 1) + (seed >> (i & 31));
	do {
#pragma unroll
		for (int i = 0; i < N; i++)
			v[i] = v[i] * v[(i + 1) % N] + i;
	} while ((unsigned long long)(clock64() - start) < a.spin);
#pragma unroll
	for (int i = 0; i < N; i++)
		sum += v[i];
	if (a.smem_words)
		smem[threadIdx.x % a.smem_words] = sum;
	__syncthreads();
	if (a.smem_words && sum == 0x9e3779b9u)
		*a.sink = smem[(threadIdx.x + 1) % a.smem_words];
	if (threadIdx.x == 0 && rank == 0) {
		atomicSub(&a.ctr[LIVE_CL], 1);
		__threadfence();
	}
	/* The cluster ends together: no CTA leaves before all arrive. */
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
		     "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	long long end = clock64();
	unsigned long long g1 = gtimer();
	if (threadIdx.x == 0) {
		unsigned bid = blockIdx.x + gridDim.x *
			(blockIdx.y + gridDim.y * blockIdx.z);
		Rec r = { (unsigned long long)start, (unsigned long long)end,
			  g0, g1, sm, clid, rank, nrank };
		a.rec[bid] = r;
		atomicSub(&a.ctr[LIVE_CTA], 1);
		atomicSub(&a.ctr[CTR_SM + sm], 1);
		__threadfence();
	}
}

struct Variant { int regs; const void *fn; int got; };
static std::vector<Variant> variants = {
	{ 32, (const void *)kclus<32>, 0 },
	{ 40, (const void *)kclus<40>, 0 },
	{ 64, (const void *)kclus<64>, 0 },
	{ 96, (const void *)kclus<96>, 0 },
	{ 128, (const void *)kclus<128>, 0 },
	{ 168, (const void *)kclus<168>, 0 },
	{ 255, (const void *)kclus<255>, 0 },
};

static const void *fn_for(int regs)
{
	for (auto &v : variants)
		if (v.regs == regs)
			return v.fn;
	fprintf(stderr, "no variant %d\n", regs);
	exit(1);
}

static int nsm, optin_smem;
static unsigned long long spin_cycles = 1000000;

/* Sets the attributes a configuration needs. */
static void prepare(const void *fn, int smem, int csize)
{
	CK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
				std::max(smem, 48 * 1024)));
	CK(cudaFuncSetAttribute(fn,
		cudaFuncAttributeNonPortableClusterSizeAllowed, csize > 8));
}

static cudaLaunchConfig_t make_cfg(dim3 grid, int block, int smem,
				   dim3 cl, cudaLaunchAttribute *attr)
{
	cudaLaunchConfig_t cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.gridDim = grid;
	cfg.blockDim = dim3(block, 1, 1);
	cfg.dynamicSmemBytes = smem;
	attr[0].id = cudaLaunchAttributeClusterDimension;
	attr[0].val.clusterDim.x = cl.x;
	attr[0].val.clusterDim.y = cl.y;
	attr[0].val.clusterDim.z = cl.z;
	cfg.attrs = attr;
	cfg.numAttrs = 1;
	return cfg;
}

struct Api { int bpsm, clusters; cudaError_t err; };

static Api api_query(int regs, int block, int smem, dim3 cl)
{
	const void *fn = fn_for(regs);
	int csize = cl.x * cl.y * cl.z;
	cudaLaunchAttribute attr[1];
	Api r = { 0, -1, cudaSuccess };

	prepare(fn, smem, csize);
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.bpsm, fn, block,
							 smem));
	cudaLaunchConfig_t cfg = make_cfg(dim3(cl.x * 4, cl.y, cl.z), block,
					  smem, cl, attr);
	r.err = cudaOccupancyMaxActiveClusters(&r.clusters, fn, &cfg);
	if (r.err != cudaSuccess) {
		(void)cudaGetLastError();
		r.clusters = -1;
	}
	return r;
}

/* The potential cluster size, portable and not. */
static void potential(int regs, int block, int smem, int *port, int *nonport)
{
	const void *fn = fn_for(regs);
	cudaLaunchAttribute attr[1];
	cudaLaunchConfig_t cfg = make_cfg(dim3(16, 1, 1), block, smem,
					  dim3(1, 1, 1), attr);
	cfg.numAttrs = 0;
	prepare(fn, smem, 1);
	if (cudaOccupancyMaxPotentialClusterSize(port, fn, &cfg) != cudaSuccess) {
		(void)cudaGetLastError();
		*port = -1;
	}
	prepare(fn, smem, 16);
	if (cudaOccupancyMaxPotentialClusterSize(nonport, fn, &cfg) !=
	    cudaSuccess) {
		(void)cudaGetLastError();
		*nonport = -1;
	}
}

struct Meas {
	cudaError_t err;
	std::vector<Rec> rec;
	unsigned peak_cta, peak_cl, peak_sm;
};

static Meas launch(int regs, int block, int smem, dim3 cl, int nclusters)
{
	const void *fn = fn_for(regs);
	int csize = cl.x * cl.y * cl.z;
	cudaLaunchAttribute attr[1];
	Meas m;
	Args a;
	size_t nct = (size_t)nclusters * csize;
	std::vector<unsigned> ctr(CTR_SM + 2 * MAX_SM);

	prepare(fn, smem, csize);
	CK(cudaMalloc(&a.rec, nct * sizeof(Rec)));
	CK(cudaMalloc(&a.ctr, ctr.size() * sizeof(unsigned)));
	CK(cudaMalloc(&a.sink, sizeof(unsigned)));
	CK(cudaMemset(a.ctr, 0, ctr.size() * sizeof(unsigned)));
	a.spin = spin_cycles;
	a.smem_words = smem / 4;
	void *params[] = { &a };
	cudaLaunchConfig_t cfg = make_cfg(dim3(cl.x * nclusters, cl.y, cl.z),
					  block, smem, cl, attr);
	m.err = cudaLaunchKernelExC(&cfg, fn, params);
	if (m.err == cudaSuccess)
		m.err = cudaDeviceSynchronize();
	if (m.err == cudaSuccess) {
		m.rec.resize(nct);
		CK(cudaMemcpy(m.rec.data(), a.rec, nct * sizeof(Rec),
			      cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(ctr.data(), a.ctr, ctr.size() * sizeof(unsigned),
			      cudaMemcpyDeviceToHost));
		m.peak_cta = ctr[PEAK_CTA];
		m.peak_cl = ctr[PEAK_CL];
		m.peak_sm = 0;
		for (int s = 0; s < MAX_SM; s++)
			m.peak_sm = std::max(m.peak_sm, ctr[CTR_SM + MAX_SM + s]);
	} else {
		(void)cudaGetLastError();
	}
	cudaFree(a.rec);
	cudaFree(a.ctr);
	cudaFree(a.sink);
	return m;
}

/* Most half-open intervals [s, e) open at once. */
static int max_overlap(std::vector<std::pair<unsigned long long,
				       unsigned long long>> iv)
{
	std::vector<std::pair<unsigned long long, int>> ev;
	for (auto &p : iv) {
		ev.push_back({ p.first, 1 });
		ev.push_back({ std::max(p.second, p.first + 1), -1 });
	}
	/* At equal times, ends (-1) before starts. */
	std::sort(ev.begin(), ev.end());
	int open = 0, most = 0;
	for (auto &e : ev) {
		open += e.second;
		most = std::max(most, open);
	}
	return most;
}

/* ---- GPC layout: SMs that co-host a cluster, joined ---- */

static std::vector<int> uf(MAX_SM);
static int find(int x) { return uf[x] == x ? x : uf[x] = find(uf[x]); }

static void join_clusters(const std::vector<Rec> &rec)
{
	std::map<unsigned, int> first;
	for (auto &r : rec) {
		auto it = first.find(r.cl);
		if (it == first.end())
			first[r.cl] = r.sm;
		else
			uf[find(r.sm)] = find(it->second);
	}
}

static std::vector<std::vector<int>> components(const std::vector<int> &seen)
{
	std::map<int, std::vector<int>> g;
	for (int s = 0; s < nsm; s++)
		if (seen[s])
			g[find(s)].push_back(s);
	std::vector<std::vector<int>> out;
	for (auto &kv : g)
		out.push_back(kv.second);
	std::sort(out.begin(), out.end());
	return out;
}

static std::vector<int> comp_of(MAX_SM, -1);
static std::vector<int> gpc_sizes;

struct Analysis {
	int bpsm_iv, clusters_iv, shared_sm, sms_used, cross;
	std::string per_gpc;   /* clusters of the first wave in each GPC */
};

static Analysis analyse(const std::vector<Rec> &rec)
{
	Analysis an = { 0, 0, 0, 0, 0, "" };
	std::map<unsigned, std::vector<std::pair<unsigned long long,
		unsigned long long>>> by_sm;
	std::map<unsigned, std::vector<const Rec *>> by_cl;
	for (auto &r : rec) {
		by_sm[r.sm].push_back({ r.c0, r.c1 });
		by_cl[r.cl].push_back(&r);
	}
	for (auto &kv : by_sm)
		an.bpsm_iv = std::max(an.bpsm_iv, max_overlap(kv.second));
	an.sms_used = (int)by_sm.size();
	std::vector<std::pair<unsigned long long, unsigned long long>> civ;
	unsigned long long first_end = ~0ull;
	for (auto &kv : by_cl) {
		unsigned long long s = ~0ull, e = 0;
		std::vector<unsigned> sms;
		for (auto *r : kv.second) {
			s = std::min(s, r->g0);
			e = std::max(e, r->g1);
			sms.push_back(r->sm);
		}
		civ.push_back({ s, e });
		first_end = std::min(first_end, e);
		std::sort(sms.begin(), sms.end());
		if (std::adjacent_find(sms.begin(), sms.end()) != sms.end())
			an.shared_sm++;
		for (auto sm : sms)
			if (comp_of[sm] != comp_of[sms[0]]) {
				an.cross++;
				break;
			}
	}
	an.clusters_iv = max_overlap(civ);
	std::vector<int> wave(gpc_sizes.size());
	for (auto &kv : by_cl) {
		unsigned long long s = ~0ull;
		for (auto *r : kv.second)
			s = std::min(s, r->g0);
		int g = comp_of[kv.second[0]->sm];
		if (s < first_end && g >= 0)
			wave[g]++;
	}
	for (size_t g = 0; g < wave.size(); g++)
		an.per_gpc += (g ? "/" : "") + std::to_string(wave[g]);
	return an;
}

static int model_gpc(int bpsm, int csize)
{
	int n = 0;
	for (int s : gpc_sizes)
		n += s * bpsm / csize;
	return n;
}

struct Kern { int regs, block, smem; };

/* Resource mixes giving 1-32 blocks per SM under every limiter. */
static const Kern kerns[] = {
	{ 32, 32, 0 }, { 32, 64, 0 }, { 32, 96, 0 }, { 32, 128, 0 },
	{ 32, 192, 0 }, { 32, 256, 0 }, { 32, 384, 0 }, { 32, 512, 0 },
	{ 32, 640, 0 }, { 32, 768, 0 }, { 32, 1024, 0 }, { 64, 1024, 0 },
	{ 128, 256, 0 }, { 255, 128, 0 }, { 255, 256, 0 }, { 64, 128, 0 },
	{ 96, 128, 0 }, { 40, 128, 0 }, { 168, 128, 0 },
	{ 32, 128, 100 << 10 }, { 32, 128, 227 << 10 }, { 32, 64, 60 << 10 },
	{ 32, 128, 40 << 10 }, { 32, 128, 20 << 10 }, { 32, 32, 8 << 10 },
	{ 32, 128, 75 << 10 }, { 32, 512, 50 << 10 }, { 32, 1024, 113 << 10 },
	{ 96, 768, 150 << 10 }, { 40, 352, 30 << 10 },
};

static const dim3 shapes[] = {
	dim3(1, 2, 1), dim3(2, 2, 1), dim3(4, 2, 1), dim3(2, 2, 2),
	dim3(4, 4, 1), dim3(8, 2, 1), dim3(3, 3, 1), dim3(5, 3, 1),
	dim3(1, 1, 7), dim3(2, 3, 2),
};

static FILE *open_out(const char *dir, const char *name)
{
	std::string p = std::string(dir) + "/" + name;
	FILE *f = fopen(p.c_str(), "w");
	if (!f) {
		perror(p.c_str());
		exit(1);
	}
	return f;
}

static void layout_runs(const char *dir)
{
	FILE *f = open_out(dir, "layout-ctas.csv");
	struct { int c, n; } runs[] = { { 2, 660 }, { 4, 330 }, { 8, 160 },
					{ 16, 80 }, { 3, 440 }, { 7, 190 } };
	std::vector<int> seen(MAX_SM);

	fprintf(f, "run,cluster_size,cta,sm,cluster,rank,nrank,clock_start,"
		"clock_end,gtimer_start,gtimer_end\n");
	for (int s = 0; s < MAX_SM; s++)
		uf[s] = s;
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		Meas m = launch(32, 128, 200 << 10, dim3(runs[i].c, 1, 1),
				runs[i].n);
		if (m.err != cudaSuccess) {
			printf("layout run c=%d: %s\n", runs[i].c,
			       cudaGetErrorString(m.err));
			continue;
		}
		join_clusters(m.rec);
		for (size_t k = 0; k < m.rec.size(); k++) {
			const Rec &r = m.rec[k];
			seen[r.sm] = 1;
			fprintf(f, "%zu,%d,%zu,%u,%u,%u,%u,%llu,%llu,%llu,%llu\n",
				i, runs[i].c, k, r.sm, r.cl, r.rank, r.nrank,
				r.c0, r.c1, r.g0, r.g1);
		}
		printf("layout run c=%d: %zu CTAs, peak clusters %u, peak CTAs/SM %u\n",
		       runs[i].c, m.rec.size(), m.peak_cl, m.peak_sm);
	}
	fclose(f);
	auto comps = components(seen);
	printf("GPCs (SMs that co-host clusters): %zu\n", comps.size());
	for (size_t g = 0; g < comps.size(); g++) {
		printf("  GPC %zu: %zu SMs:", g, comps[g].size());
		for (int s : comps[g]) {
			printf(" %d", s);
			comp_of[s] = (int)g;
		}
		printf("\n");
		gpc_sizes.push_back((int)comps[g].size());
	}
}

static void api_sweep(const char *dir)
{
	FILE *f = open_out(dir, "api-sweep.csv");
	int regs[] = { 32, 40, 64, 96, 128, 168, 255 };
	int smems[] = { 0, 1 << 10, 8 << 10, 20 << 10, 33 << 10, 48 << 10,
			60 << 10, 75 << 10, 100 << 10, 113 << 10, 150 << 10,
			227 << 10 };
	int rows = 0, agree = 0;

	fprintf(f, "regs,block,smem,cluster_size,api_blocks_per_sm,"
		"api_clusters,model_gpc,potential_portable,potential_nonportable\n");
	for (int r : regs)
		for (int b = 32; b <= 1024; b += 32)
			for (int s : smems) {
				int port, nonport;
				potential(r, b, s, &port, &nonport);
				for (int c = 1; c <= 16; c++) {
					Api a = api_query(r, b, s, dim3(c, 1, 1));
					int m = model_gpc(a.bpsm, c);
					fprintf(f, "%d,%d,%d,%d,%d,%d,%d,%d,%d\n",
						r, b, s, c, a.bpsm, a.clusters,
						m, port, nonport);
					rows++;
					agree += a.clusters == m ||
						 (a.clusters <= 0 && m == 0);
				}
			}
	fclose(f);
	printf("API sweep: %d configurations, model_gpc = API in %d\n", rows,
	       agree);
}

static void measure_one(FILE *f, const Kern &k, dim3 cl, const Api &a,
			int *ok)
{
	int c = cl.x * cl.y * cl.z;
	int mg = model_gpc(a.bpsm, c), mf = nsm * a.bpsm / c;
	int ncl = std::max(a.clusters, 0) + mf + 1;
	Meas m = launch(k.regs, k.block, k.smem, cl, ncl);
	Analysis an = { 0, 0, 0, 0, 0, "" };

	if (m.err == cudaSuccess) {
		an = analyse(m.rec);
		join_clusters(m.rec);
	} else {
		m.peak_cl = m.peak_cta = m.peak_sm = 0;
	}
	fprintf(f, "%d,%d,%d,%u,%u,%u,%d,%d,%d,%s,%d,%d,%d,%s,%u,%d,%u,"
		"%u,%d,%d,%d,%d,%s\n", k.regs, k.block, k.smem, cl.x,
		cl.y, cl.z, c, a.bpsm, a.clusters,
		a.err == cudaSuccess ? "" : cudaGetErrorName(a.err), mg,
		mf, ncl,
		m.err == cudaSuccess ? "" : cudaGetErrorName(m.err),
		m.peak_cl, an.clusters_iv, m.peak_cta, m.peak_sm,
		an.bpsm_iv, an.shared_sm, an.sms_used, an.cross,
		an.per_gpc.c_str());
	fflush(f);
	*ok += m.err == cudaSuccess && (int)m.peak_cl == a.clusters &&
	       an.clusters_iv == a.clusters && mg == a.clusters &&
	       (int)m.peak_sm == a.bpsm;
}

static void measured_sweep(const char *dir)
{
	FILE *f = open_out(dir, "measured.csv");
	std::vector<std::pair<Kern, dim3>> cfgs, empty;
	int rows = 0, ok = 0;

	for (auto &k : kerns)
		for (int c = 1; c <= 16; c++)
			cfgs.push_back({ k, dim3(c, 1, 1) });
	for (int i = 0; i < 6; i++)
		for (auto &s : shapes)
			cfgs.push_back({ kerns[i * 5], s });
	fprintf(f, "regs,block,smem,cx,cy,cz,cluster_size,api_blocks_per_sm,"
		"api_clusters,api_err,model_gpc,model_flat,nclusters,launch_err,"
		"peak_clusters,clusters_interval,peak_ctas,peak_cta_per_sm,"
		"bpsm_interval,shared_sm_clusters,sms_used,cross_gpc,first_wave_per_gpc\n");
	/* Configurations the API gives no cluster are launched last: if
	 * such a launch never starts, the rest is already written. */
	for (auto &kc : cfgs) {
		Api a = api_query(kc.first.regs, kc.first.block, kc.first.smem,
				  kc.second);
		if (a.clusters <= 0) {
			empty.push_back(kc);
			continue;
		}
		measure_one(f, kc.first, kc.second, a, &ok);
		rows++;
	}
	printf("measured sweep: %d configurations, all four agree in %d\n",
	       rows, ok);
	fflush(stdout);
	for (auto &kc : empty) {
		Api a = api_query(kc.first.regs, kc.first.block, kc.first.smem,
				  kc.second);
		measure_one(f, kc.first, kc.second, a, &ok);
	}
	fclose(f);
	printf("launched %zu configurations the API gives 0 clusters\n",
	       empty.size());
}

/* Under ncu: one launch per configuration of a subset, one wave. */
static void ncu_subset(void)
{
	int cs[] = { 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16 };
	int ks[] = { 0, 3, 11, 13, 19, 20 };
	spin_cycles = 20000;
	for (int ki : ks)
		for (int c : cs) {
			const Kern &k = kerns[ki];
			Api a = api_query(k.regs, k.block, k.smem, dim3(c, 1, 1));
			int ncl = std::max(a.clusters, 1);
			Meas m = launch(k.regs, k.block, k.smem, dim3(c, 1, 1), ncl);
			printf("ncu,%d,%d,%d,%d,%d,%d,%s\n", k.regs, k.block,
			       k.smem, c, a.bpsm, a.clusters,
			       m.err == cudaSuccess ? "ok"
						    : cudaGetErrorName(m.err));
		}
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;
	int drv = 0, rt = 0;

	CK(cudaGetDeviceProperties(&p, 0));
	CK(cudaDriverGetVersion(&drv));
	CK(cudaRuntimeGetVersion(&rt));
	nsm = p.multiProcessorCount;
	optin_smem = (int)p.sharedMemPerBlockOptin;
	printf("device: %s, cc %d.%d, %d SMs, optin smem %d, driver API %d, "
	       "runtime %d\n", p.name, p.major, p.minor, nsm,
	       optin_smem, drv, rt);
	for (auto &v : variants) {
		cudaFuncAttributes fa;
		CK(cudaFuncGetAttributes(&fa, v.fn));
		v.got = fa.numRegs;
		printf("variant %d: numRegs %d, localSize %zu\n", v.regs,
		       fa.numRegs, fa.localSizeBytes);
	}
	if (argc > 1 && strcmp(argv[1], "--ncu") == 0) {
		for (int s = 0; s < MAX_SM; s++)
			uf[s] = s;
		ncu_subset();
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: cluster_probe OUTDIR | --ncu\n");
		return 2;
	}
	layout_runs(argv[1]);
	/* A cluster of more than 8 without the attribute: the API's answer. */
	{
		const void *fn = fn_for(32);
		cudaLaunchAttribute attr[1];
		cudaLaunchConfig_t cfg = make_cfg(dim3(12, 1, 1), 128, 0,
						  dim3(12, 1, 1), attr);
		int n = -1;
		CK(cudaFuncSetAttribute(fn,
			cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
		cudaError_t e = cudaOccupancyMaxActiveClusters(&n, fn, &cfg);
		printf("cluster 12 without the non-portable attribute: %s, %d\n",
		       cudaGetErrorName(e), n);
		(void)cudaGetLastError();
		cfg = make_cfg(dim3(17, 1, 1), 128, 0, dim3(17, 1, 1), attr);
		CK(cudaFuncSetAttribute(fn,
			cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
		e = cudaOccupancyMaxActiveClusters(&n, fn, &cfg);
		printf("cluster 17 with it: %s, %d\n", cudaGetErrorName(e), n);
		(void)cudaGetLastError();
	}
	api_sweep(argv[1]);
	fflush(stdout);
	measured_sweep(argv[1]);
	std::vector<int> seen(MAX_SM, 1);
	auto comps = components(seen);
	printf("GPCs after every launch joined: %zu:", comps.size());
	for (auto &g : comps)
		printf(" %zu", g.size());
	printf("\n");
	return 0;
}
