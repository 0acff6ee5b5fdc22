/*
 * achieved_noprivs.c - a stand-in, preloaded (LD_PRELOAD), for a driver
 * that keeps the GPU's performance counters to administrators
 * (NVreg_RestrictProfilingToAdminUsers=1, the default, for a user without
 * CAP_SYS_ADMIN): CUPTI's profiler, the first call of it that
 * --achieved makes, answers CUPTI_ERROR_INSUFFICIENT_PRIVILEGES as CUPTI
 * does there. The device machine lets every user count, so the refusal
 * is made here (t/gpu/achieved.sh).
 */
#include <cupti_result.h>

CUptiResult cuptiProfilerInitialize(void *params);

CUptiResult cuptiProfilerInitialize(void *params)
{
	(void)params;
	return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
}
