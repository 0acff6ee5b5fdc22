/*
 * achieved_range.h - CUPTI's range profiler on one context, as
 * achieved.c measures a launch with it (achieved_range.c): opened on the
 * context's first measured launch, started before a launch call and
 * read after it, the launch its one range.
 */
#ifndef OCC_TRACE_ACHIEVED_RANGE_H
#define OCC_TRACE_ACHIEVED_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cupti.h>
#include <cupti_range_profiler.h>

#include "achieved.h"

/* The range profiler on one context. */
struct prof {
	CUcontext ctx;
	CUpti_RangeProfiler_Object *object;
	struct achieved_host host;
	uint8_t *data;                   /* the counter data image */
	size_t data_size;
};

/* The profiler on ctx, its configuration image (ACHIEVED_METRIC and
 * DURATION_METRIC) and its counter data image made; CUPTI's profiler
 * started first where it is not yet. */
CUptiResult achieved_prof_open(struct prof *p, CUcontext ctx);
/* What achieved_prof_open made, released (p->object NULL after). */
void achieved_prof_close(struct prof *p);
/* The profiler started, on a fresh counter data image: the next launch
 * is range 0. */
CUptiResult achieved_prof_start(struct prof *p);
/* The profiler stopped and the launch's figures read into values
 * (ACHIEVED_N_METRICS of them); CUPTI_ERROR_INVALID_OPERATION when no
 * kernel ran. */
CUptiResult achieved_prof_read(struct prof *p, double *values);

#endif
