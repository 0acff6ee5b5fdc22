/*
 * achieved.h - occcalc --trace --achieved in the injection library:
 * achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_active)
 * of the first launches of each kernel, measured with CUPTI's range
 * profiler (auto range, kernel replay: one range per launch) around the
 * launch call itself, and written as a key of that launch's record.
 */
#ifndef OCC_TRACE_ACHIEVED_H
#define OCC_TRACE_ACHIEVED_H

#include <stddef.h>
#include <stdint.h>

#include <cupti_result.h>

#include "trace.h"

/* What occcalc --achieved sets: the launches of each kernel to measure
 * (a number from 1), absent: nothing measured. */
#define TRACE_ENV_ACHIEVED "OCCCALC_ACHIEVED"
/* What is measured of a launch: its achieved occupancy, and its
 * duration (CUPTI's activity record of a launch the profiler ran holds
 * no timestamps). */
#define ACHIEVED_METRIC "sm__warps_active.avg.pct_of_peak_sustained_active"
#define DURATION_METRIC "gpu__time_duration.sum"
#define ACHIEVED_KEY "achieved_occupancy_pct"
#define DURATION_KEY "profiled_duration_ns"
#define ACHIEVED_N_METRICS 2

/* Starts measuring where the environment asks it: 0, or -1 when it
 * cannot (said on standard error; the trace goes on without). */
int achieved_init(void);

/* For write_launch, with the launch's line formatted up to its closing
 * brace: ACHIEVED_WRITE when the caller writes it (the measured figure
 * added where known), ACHIEVED_HELD when the launch is being measured
 * still and the line is kept until it is (achieved.c writes it then). */
enum { ACHIEVED_WRITE, ACHIEVED_HELD };
int achieved_launch(uint32_t correlation, struct line *l);

/* At exit, before the end record: lines still held are written without
 * the figure; the counts for the end record. */
void achieved_finish(void);
void achieved_end_keys(struct line *l);
void achieved_after_fork(void);

/* inject.c's: writes a finished line (with its newline) to the trace. */
void trace_put_finished(const char *s, size_t n);

/* The host side (achieved_host.cc): a chip's configuration image for
 * one metric, and a decoded range's value. */
struct achieved_host {
	void *object;            /* CUpti_Profiler_Host_Object */
	uint8_t *config;
	size_t config_size;
	size_t passes;           /* kernel replay's passes per launch */
};
#ifdef __cplusplus
extern "C" {
#endif
CUptiResult achieved_host_config(const char *chip, const uint8_t *avail,
				 const char *const *metrics, size_t n,
				 struct achieved_host *h);
CUptiResult achieved_host_eval(const struct achieved_host *h,
			       const uint8_t *data, size_t size, size_t range,
			       const char *const *metrics, size_t n,
			       double *values);
void achieved_host_free(struct achieved_host *h);
#ifdef __cplusplus
}
#endif

#endif
