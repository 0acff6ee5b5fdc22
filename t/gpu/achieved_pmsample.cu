// achieved_pmsample.cu - the evaluation of CUPTI's PM sampling
// (cupti_pmsampling.h) for --achieved (docs/achieved-pmsampling.md):
// launches of known shape (achieved_probe.cu's spin kernel: a full wave,
// a partial last wave, one block, shared memory that limits it) at four
// lengths, first each alone with an idle gap around it, then the same
// launches back to back, sampled by the PM sampler without replay or
// serialisation; each launch's achieved occupancy is then taken from the
// samples its time covers. Nsight Compute and occcalc --trace --achieved
// run the same program with --no-sample, for the same launches.
//
//   achieved_pmsample [--no-sample] [--interval NS] [--gap-us US]
//
// Writes, per launch, a line
//   launch,INDEX,PHASE,SHAPE,CYCLES,GRID,BLOCK,SMEM,T0,T1,SAMPLES,TOUCH,WEIGHTED,SEGMENT
// T0/T1: the first block's start and the last block's end by the GPU's
// global timer (ns); TOUCH: warps active over cycles active summed over
// every sample that overlaps [T0, T1] (idle SMs count in neither, so an
// idle gap around a launch does not dilute it); WEIGHTED: each sample
// counted by the share of it inside [T0, T1]; SEGMENT (gapped launches
// only): the K-th run of samples with active SM cycles, independent of
// the timer's correlation with the samples' timestamps. The samples'
// clock was found offset from %globaltimer by 0.13 to 2.4 ms, varying
// by process: TOUCH and WEIGHTED here are uncorrected;
// achieved_pmsample.py moves T0/T1 by the offset the gapped launches
// show. A line per
// sample (sample,START,END,WARPS_ACTIVE_SUM,CYCLES_ACTIVE_SUM,PCT) goes
// to the file PMSAMPLE_SAMPLES names, if set.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vector>

#define WARPS_PER_SM 64          /* sm_90 */

static const char *metric_names[] = {
	"sm__warps_active.sum",
	"sm__cycles_active.sum",
	"sm__warps_active.avg.pct_of_peak_sustained_active",
};
enum { M_WARPS, M_CYCLES, M_PCT, N_METRICS };

extern "C" __global__ void spin(long long cycles, unsigned long long *span)
{
	extern __shared__ int pad[];
	long long t0 = clock64();
	unsigned long long g0, g1;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
	while (clock64() - t0 < cycles)
		;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
	if (threadIdx.x == 0) {
		atomicMin(&span[0], g0);
		atomicMax(&span[1], g1);
		if (cycles < 0)
			pad[0] = 0;      /* never: keeps the array */
	}
}

static void cuda_check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		fprintf(stderr, "achieved_pmsample: %s: %s\n", what,
			cudaGetErrorString(e));
		exit(1);
	}
}

static void cupti_check(CUptiResult r, const char *what)
{
	const char *s = "?";

	if (r != CUPTI_SUCCESS) {
		cuptiGetResultString(r, &s);
		fprintf(stderr, "achieved_pmsample: %s: %s\n", what, s);
		exit(1);
	}
}

struct launch {
	int phase;               /* 0 gapped, 1 back to back */
	int shape;
	long long cycles;
	int grid, block;
	size_t smem;
	unsigned long long t0, t1;
};

static const char *shape_names[] = { "full_wave", "partial_wave",
				     "one_block", "smem_limited" };

struct sampler {
	CUpti_Profiler_Host_Object *host;
	CUpti_PmSampling_Object *obj;
	std::vector<uint8_t> config, data, blank;
};

struct sample {
	uint64_t start, end;
	double v[N_METRICS];
};

static void sampler_open(struct sampler *s, int device, uint64_t interval)
{
	CUpti_Profiler_Initialize_Params pi = {
		CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
	CUpti_Device_GetChipName_Params chip = {
		CUpti_Device_GetChipName_Params_STRUCT_SIZE };
	CUpti_PmSampling_GetCounterAvailability_Params av = {
		CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_Initialize_Params hi = {
		CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_ConfigAddMetrics_Params add = {
		CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
		CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_GetConfigImage_Params ci = {
		CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
	CUpti_Profiler_Host_GetNumOfPasses_Params np = {
		CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE };
	CUpti_PmSampling_Enable_Params en = {
		CUpti_PmSampling_Enable_Params_STRUCT_SIZE };
	CUpti_PmSampling_GetCounterDataSize_Params ds = {
		CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE };
	CUpti_PmSampling_CounterDataImage_Initialize_Params di = {
		CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE };
	CUpti_PmSampling_SetConfig_Params sc = {
		CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE };
	std::vector<uint8_t> avail;

	cupti_check(cuptiProfilerInitialize(&pi), "cuptiProfilerInitialize");
	chip.deviceIndex = device;
	cupti_check(cuptiDeviceGetChipName(&chip), "chip name");
	av.deviceIndex = device;
	cupti_check(cuptiPmSamplingGetCounterAvailability(&av),
		    "counter availability size");
	avail.resize(av.counterAvailabilityImageSize);
	av.pCounterAvailabilityImage = avail.data();
	cupti_check(cuptiPmSamplingGetCounterAvailability(&av),
		    "counter availability");
	hi.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
	hi.pChipName = chip.pChipName;
	hi.pCounterAvailabilityImage = avail.data();
	cupti_check(cuptiProfilerHostInitialize(&hi), "host initialize");
	s->host = hi.pHostObject;
	add.pHostObject = s->host;
	add.ppMetricNames = metric_names;
	add.numMetrics = N_METRICS;
	cupti_check(cuptiProfilerHostConfigAddMetrics(&add), "add metrics");
	cs.pHostObject = s->host;
	cupti_check(cuptiProfilerHostGetConfigImageSize(&cs), "config size");
	s->config.resize(cs.configImageSize);
	ci.pHostObject = s->host;
	ci.configImageSize = s->config.size();
	ci.pConfigImage = s->config.data();
	cupti_check(cuptiProfilerHostGetConfigImage(&ci), "config image");
	np.configImageSize = s->config.size();
	np.pConfigImage = s->config.data();
	cupti_check(cuptiProfilerHostGetNumOfPasses(&np), "passes");
	printf("# chip %s, %zu pass(es), interval %llu ns\n", chip.pChipName,
	       np.numOfPasses, (unsigned long long)interval);

	en.deviceIndex = device;
	cupti_check(cuptiPmSamplingEnable(&en), "cuptiPmSamplingEnable");
	s->obj = en.pPmSamplingObject;
	ds.pPmSamplingObject = s->obj;
	ds.pMetricNames = metric_names;
	ds.numMetrics = N_METRICS;
	ds.maxSamples = 200000;
	cupti_check(cuptiPmSamplingGetCounterDataSize(&ds), "counter data size");
	s->data.resize(ds.counterDataSize);
	di.pPmSamplingObject = s->obj;
	di.counterDataSize = s->data.size();
	di.pCounterData = s->data.data();
	cupti_check(cuptiPmSamplingCounterDataImageInitialize(&di),
		    "counter data initialize");
	s->blank = s->data;
	sc.pPmSamplingObject = s->obj;
	sc.configSize = s->config.size();
	sc.pConfig = s->config.data();
	sc.samplingInterval = interval;
	sc.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
	sc.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
	/* The largest hardware buffer the driver grants, from 512 MiB. */
	for (size_t mib = 512;; mib /= 2) {
		CUptiResult r;

		sc.hardwareBufferSize = mib << 20;
		if ((r = cuptiPmSamplingSetConfig(&sc)) == CUPTI_SUCCESS) {
			printf("# hardware buffer %zu MiB\n", mib);
			break;
		}
		if (mib <= 8)
			cupti_check(r, "cuptiPmSamplingSetConfig");
	}
}

/* Every sample the hardware buffer holds, decoded image by image;
 * a refusal to decode is said, not fatal (WHEN: before or after the
 * sampler's stop). */
static void sampler_read(struct sampler *s, std::vector<struct sample> *out,
			 const char *when)
{
	for (;;) {
		CUpti_PmSampling_DecodeData_Params dd = {
			CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE };
		CUpti_PmSampling_GetCounterDataInfo_Params info = {
			CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE };

		s->data = s->blank;
		dd.pPmSamplingObject = s->obj;
		dd.pCounterDataImage = s->data.data();
		dd.counterDataImageSize = s->data.size();
		CUptiResult r = cuptiPmSamplingDecodeData(&dd);
		if (r != CUPTI_SUCCESS) {
			const char *m = "?";
			cuptiGetResultString(r, &m);
			printf("# decode %s: %s\n", when, m);
			return;
		}
		if (dd.overflow)
			printf("# hardware buffer overflow: samples lost\n");
		info.pCounterDataImage = s->data.data();
		info.counterDataImageSize = s->data.size();
		cupti_check(cuptiPmSamplingGetCounterDataInfo(&info),
			    "counter data info");
		printf("# decode %s: %zu samples completed\n", when,
		       info.numCompletedSamples);
		for (size_t i = 0; i < info.numCompletedSamples; i++) {
			CUpti_PmSampling_CounterData_GetSampleInfo_Params si = {
				CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE };
			CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
				CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
			struct sample x;

			si.pPmSamplingObject = s->obj;
			si.pCounterDataImage = s->data.data();
			si.counterDataImageSize = s->data.size();
			si.sampleIndex = i;
			cupti_check(cuptiPmSamplingCounterDataGetSampleInfo(&si),
				    "sample info");
			ev.pHostObject = s->host;
			ev.pCounterDataImage = s->data.data();
			ev.counterDataImageSize = s->data.size();
			ev.rangeIndex = i;
			ev.ppMetricNames = metric_names;
			ev.numMetrics = N_METRICS;
			ev.pMetricValues = x.v;
			cupti_check(cuptiProfilerHostEvaluateToGpuValues(&ev),
				    "evaluate");
			x.start = si.startTimestamp;
			x.end = si.endTimestamp;
			out->push_back(x);
		}
		if (dd.decodeStopReason !=
		    CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL)
			break;
	}
}

static double pct(double warps, double cycles)
{
	return cycles > 0 ? 100.0 * warps / (cycles * WARPS_PER_SM) : -1;
}

int main(int argc, char **argv)
{
	int sampling = 1, sms = 0, gap_us = 2000, i;
	uint64_t interval = 20000;
	long long lengths[] = { 10000000, 1000000, 100000, 10000 };
	std::vector<struct launch> launches;
	std::vector<struct sample> samples;
	unsigned long long *spans;
	struct sampler s;
	const char *dump = getenv("PMSAMPLE_SAMPLES");

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-sample"))
			sampling = 0;
		else if (!strcmp(argv[i], "--interval") && i + 1 < argc)
			interval = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--gap-us") && i + 1 < argc)
			gap_us = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: achieved_pmsample [--no-sample] "
				"[--interval NS] [--gap-us US]\n");
			return 2;
		}
	}
	cuda_check(cudaFree(0), "context");
	cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
					  0), "SM count");
	cuda_check(cudaFuncSetAttribute(spin,
		cudaFuncAttributeMaxDynamicSharedMemorySize, 100 << 10),
		   "opt-in shared memory");
	for (int phase = 0; phase < 2; phase++)
		for (int rep = 0; rep < 2; rep++)
			for (long long c : lengths)
				for (int sh = 0; sh < 4; sh++) {
					struct launch l = { phase, sh, c, 0, 256, 0, 0, 0 };

					l.grid = sh == 0 ? sms * 8 :
						sh == 1 ? sms * 8 + sms / 2 :
						sh == 2 ? 1 : sms * 4;
					if (sh == 3) {
						l.block = 128;
						l.smem = 100 << 10;
					}
					launches.push_back(l);
				}
	cuda_check(cudaMalloc(&spans, 2 * sizeof *spans * launches.size()),
		   "cudaMalloc");
	{
		std::vector<unsigned long long> init(2 * launches.size());
		for (size_t k = 0; k < launches.size(); k++) {
			init[2 * k] = ~0ull;
			init[2 * k + 1] = 0;
		}
		cuda_check(cudaMemcpy(spans, init.data(),
				      init.size() * sizeof init[0],
				      cudaMemcpyHostToDevice), "spans");
	}
	spin<<<1, 32>>>(1000, spans);    /* loaded and warm, not counted */
	cuda_check(cudaDeviceSynchronize(), "warm-up");
	{
		unsigned long long reset[2] = { ~0ull, 0 };
		cuda_check(cudaMemcpy(spans, reset, sizeof reset,
				      cudaMemcpyHostToDevice), "reset");
	}
	if (sampling) {
		CUpti_PmSampling_Start_Params st = {
			CUpti_PmSampling_Start_Params_STRUCT_SIZE };

		sampler_open(&s, 0, interval);
		st.pPmSamplingObject = s.obj;
		cupti_check(cuptiPmSamplingStart(&st), "cuptiPmSamplingStart");
	}
	usleep(gap_us);
	for (size_t k = 0; k < launches.size(); k++) {
		struct launch *l = &launches[k];

		spin<<<l->grid, l->block, l->smem>>>(l->cycles, spans + 2 * k);
		cuda_check(cudaGetLastError(), "launch");
		if (l->phase == 0) {
			cuda_check(cudaDeviceSynchronize(), "gapped launch");
			usleep(gap_us);
		}
	}
	cuda_check(cudaDeviceSynchronize(), "launches");
	usleep(gap_us);
	if (sampling) {
		CUpti_PmSampling_Stop_Params sp = {
			CUpti_PmSampling_Stop_Params_STRUCT_SIZE };

		sampler_read(&s, &samples, "before stop");
		sp.pPmSamplingObject = s.obj;
		cupti_check(cuptiPmSamplingStop(&sp), "cuptiPmSamplingStop");
		sampler_read(&s, &samples, "after stop");
	}
	{
		std::vector<unsigned long long> got(2 * launches.size());
		cuda_check(cudaMemcpy(got.data(), spans,
				      got.size() * sizeof got[0],
				      cudaMemcpyDeviceToHost), "spans back");
		for (size_t k = 0; k < launches.size(); k++) {
			launches[k].t0 = got[2 * k];
			launches[k].t1 = got[2 * k + 1];
		}
	}
	if (dump) {
		FILE *f = fopen(dump, "w");

		for (size_t j = 0; f && j < samples.size(); j++)
			fprintf(f, "sample,%llu,%llu,%.0f,%.0f,%.4f\n",
				(unsigned long long)samples[j].start,
				(unsigned long long)samples[j].end,
				samples[j].v[M_WARPS], samples[j].v[M_CYCLES],
				samples[j].v[M_PCT]);
		if (f)
			fclose(f);
	}

	/* Runs of samples with active SM cycles: one per gapped launch
	 * when the gaps are longer than the interval, then one for the
	 * launches back to back. */
	std::vector<std::pair<double, double>> segments;
	{
		int in = 0;
		for (const struct sample &x : samples) {
			if (x.v[M_CYCLES] > 0) {
				if (!in)
					segments.push_back({ 0, 0 });
				segments.back().first += x.v[M_WARPS];
				segments.back().second += x.v[M_CYCLES];
			}
			in = x.v[M_CYCLES] > 0;
		}
	}
	size_t gapped = 0;
	for (const struct launch &l : launches)
		gapped += l.phase == 0;
	printf("# %zu samples, %zu active segments, %zu gapped launches\n",
	       samples.size(), segments.size(), gapped);
	for (size_t j = 0; j < samples.size() && j < 3; j++)
		printf("# sample %zu: %llu to %llu\n", j,
		       (unsigned long long)samples[j].start,
		       (unsigned long long)samples[j].end);
	if (!samples.empty() && !launches.empty())
		printf("# first sample start %llu, first launch start %llu "
		       "(global timer), last sample end %llu\n",
		       (unsigned long long)samples.front().start,
		       launches.front().t0,
		       (unsigned long long)samples.back().end);
	printf("launch,index,phase,shape,cycles,grid,block,smem,t0,t1,samples,"
	       "touch,weighted,segment\n");
	for (size_t k = 0; k < launches.size(); k++) {
		const struct launch *l = &launches[k];
		double tw = 0, tc = 0, ww = 0, wc = 0;
		int n = 0;

		for (const struct sample &x : samples) {
			uint64_t a = x.start > l->t0 ? x.start : l->t0;
			uint64_t b = x.end < l->t1 ? x.end : l->t1;
			double share;

			if (b <= a || x.end <= x.start)
				continue;
			share = (double)(b - a) / (double)(x.end - x.start);
			n++;
			tw += x.v[M_WARPS];
			tc += x.v[M_CYCLES];
			ww += share * x.v[M_WARPS];
			wc += share * x.v[M_CYCLES];
		}
		printf("launch,%zu,%s,%s,%lld,%d,%d,%zu,%llu,%llu,%d,",
		       k, l->phase ? "back_to_back" : "gapped",
		       shape_names[l->shape], l->cycles, l->grid, l->block,
		       l->smem, l->t0, l->t1, n);
		if (sampling)
			printf("%.4f,%.4f,", pct(tw, tc), pct(ww, wc));
		else
			printf(",,");
		if (sampling && l->phase == 0 && segments.size() >= gapped)
			printf("%.4f\n", pct(segments[k].first,
					     segments[k].second));
		else
			printf("\n");
	}
	return 0;
}
