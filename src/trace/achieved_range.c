/*
 * achieved_range.c - CUPTI's range profiler on one context, for
 * achieved.c: its configuration for the metrics measured
 * (achieved_host.cc builds it), a counter data image of one range, set
 * up anew in auto range mode with kernel replay before each measured
 * launch, and that range decoded after it. Apart from achieved.c
 * because it is the CUPTI profiler API alone: no launch, budget or
 * trace line here, nor any of achieved.c's state.
 */
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include "achieved_range.h"

static const char *const metrics[ACHIEVED_N_METRICS] = {
	ACHIEVED_METRIC, DURATION_METRIC
};

static CUptiResult counter_availability(CUcontext ctx, uint8_t **image)
{
	CUpti_Profiler_GetCounterAvailability_Params p;
	CUptiResult r;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
	p.ctx = ctx;
	if ((r = cuptiProfilerGetCounterAvailability(&p)) != CUPTI_SUCCESS)
		return r;
	if (!(*image = calloc(1, p.counterAvailabilityImageSize)))
		return CUPTI_ERROR_OUT_OF_MEMORY;
	p.pCounterAvailabilityImage = *image;
	return cuptiProfilerGetCounterAvailability(&p);
}

static CUptiResult counter_data(struct prof *p)
{
	CUpti_RangeProfiler_GetCounterDataSize_Params sz;
	CUptiResult r;

	memset(&sz, 0, sizeof sz);
	sz.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
	sz.pRangeProfilerObject = p->object;
	sz.pMetricNames = (const char **)metrics;
	sz.numMetrics = ACHIEVED_N_METRICS;
	sz.maxNumOfRanges = 1;
	sz.maxNumRangeTreeNodes = 1;
	if ((r = cuptiRangeProfilerGetCounterDataSize(&sz)) != CUPTI_SUCCESS)
		return r;
	if (!(p->data = calloc(1, sz.counterDataSize)))
		return CUPTI_ERROR_OUT_OF_MEMORY;
	p->data_size = sz.counterDataSize;
	return CUPTI_SUCCESS;
}

/* A fresh counter data image and the configuration: before each
 * measured launch, so that the launch is range 0. */
static CUptiResult prof_arm(struct prof *p)
{
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params in;
	CUpti_RangeProfiler_SetConfig_Params sc;
	CUptiResult r;

	memset(&in, 0, sizeof in);
	in.structSize =
		CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
	in.pRangeProfilerObject = p->object;
	in.counterDataSize = p->data_size;
	in.pCounterData = p->data;
	if ((r = cuptiRangeProfilerCounterDataImageInitialize(&in)) !=
	    CUPTI_SUCCESS)
		return r;
	memset(&sc, 0, sizeof sc);
	sc.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
	sc.pRangeProfilerObject = p->object;
	sc.configSize = p->host.config_size;
	sc.pConfig = p->host.config;
	sc.counterDataImageSize = p->data_size;
	sc.pCounterDataImage = p->data;
	sc.range = CUPTI_AutoRange;
	sc.replayMode = CUPTI_KernelReplay;
	sc.maxRangesPerPass = 1;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	return cuptiRangeProfilerSetConfig(&sc);
}
/* CUPTI's profiler, started once, on the first measured launch: the
 * driver is not yet initialised when the injection is. */
static CUptiResult profiler_start(void)
{
	static int started;
	CUpti_Profiler_Initialize_Params pi;
	CUptiResult r;

	if (started)
		return CUPTI_SUCCESS;
	memset(&pi, 0, sizeof pi);
	pi.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
	if ((r = cuptiProfilerInitialize(&pi)) == CUPTI_SUCCESS)
		started = 1;
	return r;
}

CUptiResult achieved_prof_open(struct prof *p, CUcontext ctx)
{
	CUpti_Device_GetChipName_Params chip;
	CUpti_RangeProfiler_Enable_Params en;
	uint8_t *avail = NULL;
	uint32_t device = 0;
	CUptiResult r;

	memset(p, 0, sizeof *p);
	p->ctx = ctx;
	if ((r = profiler_start()) != CUPTI_SUCCESS ||
	    (r = cuptiGetDeviceId(ctx, &device)) != CUPTI_SUCCESS)
		return r;
	memset(&chip, 0, sizeof chip);
	chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
	chip.deviceIndex = device;
	if ((r = cuptiDeviceGetChipName(&chip)) != CUPTI_SUCCESS)
		return r;
	r = counter_availability(ctx, &avail);
	if (r == CUPTI_SUCCESS)
		r = achieved_host_config(chip.pChipName, avail, metrics,
					 ACHIEVED_N_METRICS, &p->host);
	free(avail);
	if (r != CUPTI_SUCCESS)
		return r;
	memset(&en, 0, sizeof en);
	en.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
	en.ctx = ctx;
	if ((r = cuptiRangeProfilerEnable(&en)) != CUPTI_SUCCESS)
		return r;
	p->object = en.pRangeProfilerObject;
	return counter_data(p);
}
void achieved_prof_close(struct prof *p)
{
	achieved_host_free(&p->host);
	free(p->data);
	p->object = NULL;
}

CUptiResult achieved_prof_start(struct prof *p)
{
	CUpti_RangeProfiler_Start_Params st;
	CUptiResult r = prof_arm(p);

	if (r == CUPTI_SUCCESS) {
		memset(&st, 0, sizeof st);
		st.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
		st.pRangeProfilerObject = p->object;
		r = cuptiRangeProfilerStart(&st);
	}
	return r;
}

/* The figure of the launch just made: range 0 of the image. */
CUptiResult achieved_prof_read(struct prof *p, double *values)
{
	CUpti_RangeProfiler_Stop_Params sp;
	CUpti_RangeProfiler_DecodeData_Params dd;
	CUpti_RangeProfiler_GetCounterDataInfo_Params info;
	CUptiResult r;

	memset(&sp, 0, sizeof sp);
	sp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
	sp.pRangeProfilerObject = p->object;
	if ((r = cuptiRangeProfilerStop(&sp)) != CUPTI_SUCCESS)
		return r;
	memset(&dd, 0, sizeof dd);
	dd.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
	dd.pRangeProfilerObject = p->object;
	if ((r = cuptiRangeProfilerDecodeData(&dd)) != CUPTI_SUCCESS)
		return r;
	memset(&info, 0, sizeof info);
	info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
	info.pCounterDataImage = p->data;
	info.counterDataImageSize = p->data_size;
	if ((r = cuptiRangeProfilerGetCounterDataInfo(&info)) != CUPTI_SUCCESS)
		return r;
	if (info.numTotalRanges < 1)
		return CUPTI_ERROR_INVALID_OPERATION;   /* no kernel ran */
	return achieved_host_eval(&p->host, p->data, p->data_size, 0,
				  metrics, ACHIEVED_N_METRICS, values);
}

