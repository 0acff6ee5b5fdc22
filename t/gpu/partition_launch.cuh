/*
 * partition_launch.cuh - partition.cu's launches inside a part (included
 * there, after its kernels and ctx_state): the GPCs clusters reveal, the
 * clusters live at once, and which cluster sizes the runtime refuses.
 */

static int find_root(std::vector<int> &up, int i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

/* Launches `clusters` clusters of c CTAs with the setting's shared memory
 * on st; the most live at once in *peak, each CTA's SM in sms. */
static cudaError_t launch_clusters(const occ_setting &o, int c, int clusters,
				   unsigned long long spin_ns, cudaStream_t st,
				   unsigned *dcount, unsigned *dsms,
				   std::vector<unsigned> &sms, unsigned *peak)
{
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at[1];
	unsigned h[2];
	cudaError_t e;

	cfg.gridDim = dim3(c * clusters, 1, 1);
	cfg.blockDim = dim3(OCC_THREADS, 1, 1);
	cfg.dynamicSmemBytes = o.smem;
	cfg.stream = st;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = c;
	at[0].val.clusterDim.y = 1;
	at[0].val.clusterDim.z = 1;
	cfg.attrs = at;
	cfg.numAttrs = 1;
	cudaMemsetAsync(dcount, 0, 2 * sizeof(unsigned), st);
	e = cudaLaunchKernelEx(&cfg, cluster_kernel, dcount, dsms, spin_ns);
	if (e != cudaSuccess)
		return e;
	sms.resize((size_t)c * clusters);
	cudaMemcpyAsync(h, dcount, sizeof h, cudaMemcpyDeviceToHost, st);
	cudaMemcpyAsync(sms.data(), dsms, sms.size() * sizeof(unsigned),
			cudaMemcpyDeviceToHost, st);
	e = cudaStreamSynchronize(st);
	*peak = h[1];
	return e;
}

#define MAX_LAUNCH_CTAS 65536

/* What the runtime answers for cluster_kernel itself (-1: an error). */
static int api_clusters(const occ_setting &o, int c, cudaStream_t st)
{
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at[1];
	int n = -1;

	cfg.gridDim = dim3(c, 1, 1);
	cfg.blockDim = dim3(OCC_THREADS, 1, 1);
	cfg.dynamicSmemBytes = o.smem;
	cfg.stream = st;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = c;
	at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
	cfg.attrs = at;
	cfg.numAttrs = 1;
	if (cudaOccupancyMaxActiveClusters(&n, cluster_kernel, &cfg) !=
	    cudaSuccess)
		return -1;
	return n;
}

/* One cluster of c CTAs at one CTA per SM, launched whatever the runtime
 * answers: "ok" (it ran), the launch's error (refused), or "hung" (taken,
 * never placed: the process cannot go on, so it exits). Issue 38: in a
 * part, the runtime refuses every size it counts 0 of. */
static const char *launch_once(const occ_setting &o, int c, cudaStream_t st,
			       unsigned *dcount, unsigned *dsms)
{
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at[1];
	cudaError_t e;

	cfg.gridDim = dim3(c, 1, 1);
	cfg.blockDim = dim3(OCC_THREADS, 1, 1);
	cfg.dynamicSmemBytes = o.smem;
	cfg.stream = st;
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = c;
	at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
	cfg.attrs = at;
	cfg.numAttrs = 1;
	e = cudaLaunchKernelEx(&cfg, cluster_kernel, dcount, dsms, 1000ull);
	if (e != cudaSuccess) {
		cudaGetLastError();
		return cudaGetErrorName(e);
	}
	auto t0 = std::chrono::steady_clock::now();
	while ((e = cudaStreamQuery(st)) == cudaErrorNotReady)
		if (std::chrono::steady_clock::now() - t0 >
		    std::chrono::seconds(5))
			return "hung";
	if (e != cudaSuccess)
		cudaGetLastError();
	return e == cudaSuccess ? "ok" : cudaGetErrorName(e);
}

static void refusals(ctx_state &cs, const std::string &prefix,
		     cudaStream_t st, unsigned *dcount, unsigned *dsms)
{
	for (int c = 2; c <= MAX_CLUSTER; c++) {
		int api = api_clusters(cs.settings[0], c, st);
		const char *r = launch_once(cs.settings[0], c, st, dcount, dsms);

		fprintf(cs.refused, "%s,%d,%d,%s\n", prefix.c_str(), c, api, r);
		if (strcmp(r, "hung") == 0) {
			fflush(NULL);
			fprintf(stderr, "partition: %s: a cluster of %d was taken "
				"and never ran\n", prefix.c_str(), c);
			exit(2);
		}
	}
}

/* The part's GPCs as clusters reveal them, and the clusters live at once. */
static void launch_part(ctx_state &cs, const std::string &prefix,
			CUstream cst, int count)
{
	cudaStream_t st = (cudaStream_t)cst;
	unsigned *dcount = NULL, *dsms = NULL, peak;
	std::vector<unsigned> sms;
	std::vector<int> up(MASK_WORDS * 32);
	const int layout_sizes[] = {2, 4, 8, 16}, peak_sizes[] = {4, 8, 16};

	if (cudaMalloc(&dcount, 2 * sizeof(unsigned)) != cudaSuccess ||
	    cudaMalloc(&dsms, MAX_LAUNCH_CTAS * sizeof(unsigned)) != cudaSuccess)
		goto out;
	for (size_t i = 0; i < up.size(); i++)
		up[i] = (int)i;
	for (int c : layout_sizes) {
		int clusters = 4 * count / c + 1;
		cudaError_t e;

		/* a cluster that cannot fit might wait for ever */
		if (api_clusters(cs.settings[0], c, st) <= 0) {
			fprintf(cs.layout, "%s,%d,none-fit,\n", prefix.c_str(), c);
			continue;
		}
		e = launch_clusters(cs.settings[0], c, clusters, 20000, st, dcount,
				    dsms, sms, &peak);
		if (e != cudaSuccess) {
			fprintf(cs.layout, "%s,%d,%s,\n", prefix.c_str(), c,
				cudaGetErrorName(e));
			cudaGetLastError();
			continue;
		}
		for (size_t k = 0; k < sms.size(); k += c)
			for (int j = 1; j < c; j++) {
				int a = find_root(up, sms[k] % up.size());
				int b = find_root(up, sms[k + j] % up.size());
				up[a] = b;
			}
		fprintf(cs.layout, "%s,%d,ok,", prefix.c_str(), c);
		/* groups so far: SMs seen, joined by root */
		std::map<int, std::string> groups;
		std::vector<bool> seen(up.size());
		for (unsigned s : sms)
			seen[s % up.size()] = true;
		for (size_t i = 0; i < up.size(); i++)
			if (seen[i]) {
				std::string &g = groups[find_root(up, (int)i)];
				g += (g.empty() ? "" : " ") + std::to_string(i);
			}
		bool first = true;
		for (auto &kv : groups) {
			fprintf(cs.layout, "%s%s", first ? "" : ";",
				kv.second.c_str());
			first = false;
		}
		fprintf(cs.layout, "\n");
	}
	for (int c : peak_sizes) {
		const occ_setting &o = cs.settings[7];  /* 8 blocks per SM */
		int api = api_clusters(o, c, st), clusters;
		cudaError_t e;

		if (api <= 0) {
			fprintf(cs.peaks, "%s,%d,%d,%d,0,none-fit,\n",
				prefix.c_str(), c, o.blocks, api);
			continue;
		}
		clusters = (api > 0 ? api : 0) + count * 8 / c + 1;
		if (clusters * c > MAX_LAUNCH_CTAS)
			clusters = MAX_LAUNCH_CTAS / c;
		e = launch_clusters(o, c, clusters, 300000, st, dcount, dsms, sms,
				    &peak);
		fprintf(cs.peaks, "%s,%d,%d,%d,%d,%s,%d\n", prefix.c_str(), c,
			o.blocks, api, clusters,
			e == cudaSuccess ? "ok" : cudaGetErrorName(e),
			e == cudaSuccess ? (int)peak : -1);
		if (e != cudaSuccess)
			cudaGetLastError();
	}
	refusals(cs, prefix, st, dcount, dsms);
out:
	if (dcount)
		cudaFree(dcount);
	if (dsms)
		cudaFree(dsms);
}

