/*
 * achieved_host.cc - the host side of CUPTI's profiler for achieved.c:
 * the configuration image of one metric for a chip, and the evaluation
 * of a decoded range. C++ only because NVIDIA's cupti_profiler_host.h
 * includes <string>; the functions are C's (achieved.h).
 */
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_host.h>

#include "achieved.h"

extern "C" CUptiResult achieved_host_config(const char *chip,
					    const uint8_t *avail,
					    const char *const *metrics,
					    size_t n, struct achieved_host *h)
{
	CUpti_Profiler_Host_Initialize_Params in;
	CUpti_Profiler_Host_ConfigAddMetrics_Params add;
	CUpti_Profiler_Host_GetConfigImageSize_Params size;
	CUpti_Profiler_Host_GetConfigImage_Params image;
	CUptiResult r;

	memset(h, 0, sizeof *h);
	memset(&in, 0, sizeof in);
	in.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
	in.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	in.pChipName = chip;
	in.pCounterAvailabilityImage = avail;
	if ((r = cuptiProfilerHostInitialize(&in)) != CUPTI_SUCCESS)
		return r;
	h->object = in.pHostObject;

	memset(&add, 0, sizeof add);
	add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
	add.pHostObject = in.pHostObject;
	add.ppMetricNames = const_cast<const char **>(metrics);
	add.numMetrics = n;
	if ((r = cuptiProfilerHostConfigAddMetrics(&add)) != CUPTI_SUCCESS)
		return r;

	memset(&size, 0, sizeof size);
	size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
	size.pHostObject = in.pHostObject;
	if ((r = cuptiProfilerHostGetConfigImageSize(&size)) != CUPTI_SUCCESS)
		return r;
	h->config = (uint8_t *)calloc(1, size.configImageSize);
	if (!h->config)
		return CUPTI_ERROR_OUT_OF_MEMORY;
	h->config_size = size.configImageSize;

	memset(&image, 0, sizeof image);
	image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
	image.pHostObject = in.pHostObject;
	image.configImageSize = h->config_size;
	image.pConfigImage = h->config;
	if ((r = cuptiProfilerHostGetConfigImage(&image)) != CUPTI_SUCCESS)
		return r;

	/* Passes above one are replays of each measured launch. */
	CUpti_Profiler_Host_GetNumOfPasses_Params passes;
	memset(&passes, 0, sizeof passes);
	passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
	passes.configImageSize = h->config_size;
	passes.pConfigImage = h->config;
	if ((r = cuptiProfilerHostGetNumOfPasses(&passes)) != CUPTI_SUCCESS)
		return r;
	h->passes = passes.numOfPasses;
	return CUPTI_SUCCESS;
}

extern "C" CUptiResult achieved_host_eval(const struct achieved_host *h,
					  const uint8_t *data, size_t size,
					  size_t range,
					  const char *const *metrics, size_t n,
					  double *values)
{
	CUpti_Profiler_Host_EvaluateToGpuValues_Params ev;
	memset(&ev, 0, sizeof ev);
	ev.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
	ev.pHostObject = (CUpti_Profiler_Host_Object *)h->object;
	ev.pCounterDataImage = data;
	ev.counterDataImageSize = size;
	ev.rangeIndex = range;
	ev.ppMetricNames = const_cast<const char **>(metrics);
	ev.numMetrics = n;
	ev.pMetricValues = values;
	return cuptiProfilerHostEvaluateToGpuValues(&ev);
}

extern "C" void achieved_host_free(struct achieved_host *h)
{
	if (h->object) {
		CUpti_Profiler_Host_Deinitialize_Params de;

		memset(&de, 0, sizeof de);
		de.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
		de.pHostObject = (CUpti_Profiler_Host_Object *)h->object;
		cuptiProfilerHostDeinitialize(&de);
	}
	free(h->config);
	memset(h, 0, sizeof *h);
}
