/*
 * inject.c - InitializeInjection, which the CUDA driver calls when a
 * process sets CUDA_INJECTION64_PATH to this library: enable CUPTI's
 * concurrent-kernel activity records (they do not serialise kernels, as
 * CUPTI_ACTIVITY_KIND_KERNEL does), give CUPTI large buffers, and write
 * each buffer's launches to the trace file as CUPTI completes it, so
 * that the host memory held stays a few buffers whatever the run's
 * length. At exit the records still in flight are flushed and the count
 * CUPTI dropped is written in the end record.
 *
 * The state is one static: CUPTI's buffer callbacks carry no pointer of
 * ours, and the driver loads the library once per process.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cupti.h>

#include "achieved.h"
#include "trace.h"

/* The kernel record of the CUPTI this is built with: the newest struct
 * its CUPTI_API_VERSION defines (cupti_version.h lists the versions;
 * from CUDA 13.0 the number is xxyyzz). */
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kernel_record;
#define HAVE_MAX_ACTIVE_CLUSTERS 1
#elif CUPTI_API_VERSION >= 19
typedef CUpti_ActivityKernel9 kernel_record;
#define HAVE_MAX_ACTIVE_CLUSTERS 1
#elif CUPTI_API_VERSION >= 18
typedef CUpti_ActivityKernel8 kernel_record;
#define HAVE_MAX_ACTIVE_CLUSTERS 0
#else
#error "occcalc's trace needs CUPTI from CUDA 11.8 on (cluster dimensions)"
#endif

/* Large buffers: fewer callbacks, and room for bursts of small kernels
 * between the worker's deliveries. */
#define BUFFER_BYTES (8u << 20)
/* How often CUPTI hands over buffers not yet full, in ms: a process
 * killed loses at most about this much. */
#define FLUSH_PERIOD_MS 1000u
#define LINE_BYTES (64u << 10)

static struct tracer {
	pthread_mutex_t lock;
	int on;                          /* initialised in this process */
	int floor;                       /* TRACE_ENV_FLOOR: buffers dropped */
	int nvtx;                        /* launches named by NVTX ranges */
	struct trace_file file;
	struct name_cache *names;
	uint64_t launches, dropped;
	unsigned char described[TRACE_DEVICES_MAX];  /* device line written */
	char line[LINE_BYTES];
} T = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void say(const char *what, CUptiResult r)
{
	const char *s = NULL;

	cuptiGetResultString(r, &s);
	fprintf(stderr, "occcalc trace: %s: %s; this process is not traced\n",
		what, s ? s : "error");
}

static uint64_t now_ns(void)
{
	uint64_t t = 0;

	cuptiGetTimestamp(&t);
	return t;
}

/* ---- Records ---- */

static const char *launch_type(uint8_t t)
{
	switch (t) {
	case CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR: return "regular";
	case CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE:
		return "cooperative_single";
	case CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE:
		return "cooperative_multi";
	case CUPTI_ACTIVITY_LAUNCH_TYPE_CBL_COMMANDLIST:
		return "cbl_commandlist";
	default: return "unknown";
	}
}

static void put_line(const struct line *l)
{
	if (l->len < l->cap)          /* a line cut short is never written */
		trace_file_put(&T.file, l->p, l->len);
}

static void describe(uint32_t device)
{
	struct line l = { T.line, 0, sizeof T.line };

	if (device < TRACE_DEVICES_MAX && T.described[device])
		return;
	if (device < TRACE_DEVICES_MAX)
		T.described[device] = 1;
	if (trace_device_line(device, &l))
		put_line(&l);
	else
		fprintf(stderr, "occcalc trace: device %u: the driver did not "
			"give its properties\n", device);
}

static void write_launch(const kernel_record *k)
{
	struct line l = { T.line, 0, sizeof T.line };
	const char *op;
	const char *names = name_cache_get(T.names, k->name);

	describe(k->deviceId);
	line_raw(&l, "{\"type\":\"launch\"");
	line_int(&l, "device", k->deviceId);
	line_int(&l, "context", k->contextId);
	line_int(&l, "stream", k->streamId);
	line_int(&l, "correlation", k->correlationId);
	if (names) {
		line_raw(&l, ",");
		line_raw(&l, names);
	} else {                         /* out of memory: undemangled */
		line_str(&l, "kernel", k->name ? k->name : "");
		line_str(&l, "mangled", k->name ? k->name : "");
	}
	line_triple(&l, "grid", k->gridX, k->gridY, k->gridZ);
	line_triple(&l, "block", k->blockX, k->blockY, k->blockZ);
	line_triple(&l, "cluster", k->clusterX, k->clusterY, k->clusterZ);
	line_int(&l, "regs", k->registersPerThread);
	line_int(&l, "static_smem", k->staticSharedMemory);
	line_int(&l, "smem", k->dynamicSharedMemory);
	line_int(&l, "local_mem_per_thread", k->localMemoryPerThread);
	line_int(&l, "local_mem_total", (int64_t)k->localMemoryTotal_v2);
	line_str(&l, "smem_limit_config",
		 k->shmemLimitConfig == CUPTI_FUNC_SHMEM_LIMIT_OPTIN ?
		 "optin" : "default");
	line_int(&l, "smem_executed", k->sharedMemoryExecuted);
	line_int(&l, "carveout_requested", k->isSharedMemoryCarveoutRequested ?
		 k->sharedMemoryCarveoutRequested : -1);
	line_int(&l, "cache_config", k->cacheConfig.config.executed);
	line_str(&l, "launch_type", launch_type(k->launchType));
	line_int(&l, "graph_id", k->graphId);
	line_int(&l, "graph_node_id", (int64_t)k->graphNodeId);
#if HAVE_MAX_ACTIVE_CLUSTERS
	line_int(&l, "max_active_clusters", k->maxActiveClusters);
#else
	line_int(&l, "max_active_clusters", 0);
#endif
	line_int(&l, "start_ns", (int64_t)k->start);
	line_int(&l, "end_ns", (int64_t)k->end);
	if (T.nvtx && (op = nvtx_take(k->correlationId)) != NULL)
		line_str(&l, "op", op);
	T.launches++;
	if (achieved_launch(k->correlationId, &l) == ACHIEVED_HELD)
		return;                  /* written when measured */
	line_raw(&l, "}\n");
	put_line(&l);
}

void trace_api_launch(const char *mangled, const struct api_launch *a)
{
	struct line l = { T.line, 0, sizeof T.line };
	const char *names;

	pthread_mutex_lock(&T.lock);
	if (!T.on || T.file.owner != getpid()) {
		pthread_mutex_unlock(&T.lock);
		return;
	}
	names = name_cache_get(T.names, mangled);
	describe(a->device);
	line_raw(&l, "{\"type\":\"launch\"");
	line_int(&l, "device", a->device);
	line_int(&l, "context", a->context);
	line_int(&l, "stream", (int64_t)a->stream);
	line_int(&l, "correlation", (int64_t)a->correlation);
	if (names) {
		line_raw(&l, ",");
		line_raw(&l, names);
	} else {
		line_str(&l, "kernel", mangled);
		line_str(&l, "mangled", mangled);
	}
	line_triple(&l, "grid", a->grid[0], a->grid[1], a->grid[2]);
	line_triple(&l, "block", a->block[0], a->block[1], a->block[2]);
	line_triple(&l, "cluster", a->cluster[0], a->cluster[1],
		    a->cluster[2]);
	line_int(&l, "regs", a->regs);
	line_int(&l, "static_smem", a->static_smem);
	line_int(&l, "smem", a->smem);
	line_int(&l, "local_mem_per_thread", a->local);
	line_str(&l, "smem_limit_config", a->optin ? "optin" : "default");
	line_str(&l, "launch_type", a->launch_type);
	if (a->op)
		line_str(&l, "op", a->op);
	line_raw(&l, "}\n");
	T.launches++;
	put_line(&l);
	pthread_mutex_unlock(&T.lock);
}

void trace_put_finished(const char *s, size_t n)
{
	pthread_mutex_lock(&T.lock);
	if (T.on && T.file.owner == getpid())
		trace_file_put(&T.file, s, n);
	pthread_mutex_unlock(&T.lock);
}

static void write_header(void)
{
	struct line l = { T.line, 0, sizeof T.line };
	char args[8192];
	FILE *f = fopen("/proc/self/cmdline", "re");
	size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0, i;
	uint32_t version = 0;

	if (f)
		fclose(f);
	args[n] = '\0';
	cuptiGetVersion(&version);
	line_raw(&l, "{\"type\":\"header\"");
	line_str(&l, "format", "occcalc-trace");
	line_int(&l, "version", 1);
	if (T.file.run[0])
		line_str(&l, "run", T.file.run);
	line_int(&l, "pid", getpid());
	line_int(&l, "ppid", getppid());
	line_raw(&l, ",\"argv\":[");
	for (i = 0; i < n; i += strlen(args + i) + 1) {
		if (i)
			line_raw(&l, ",");
		line_raw(&l, "\"");
		line_escaped(&l, args + i);
		line_raw(&l, "\"");
	}
	line_raw(&l, "]");
	line_int(&l, "cupti_api_version", version);
	line_int(&l, "start_ns", (int64_t)now_ns());
	line_raw(&l, "}\n");
	put_line(&l);
}

static void write_end(void)
{
	struct line l = { T.line, 0, sizeof T.line };

	line_raw(&l, "{\"type\":\"end\"");
	line_int(&l, "launches", (int64_t)T.launches);
	line_int(&l, "dropped", (int64_t)T.dropped);
	achieved_end_keys(&l);
	line_int(&l, "end_ns", (int64_t)now_ns());
	line_raw(&l, "}\n");
	put_line(&l);
}

/* ---- CUPTI's buffers ---- */

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size,
				      size_t *max_records)
{
	/* CUPTI wants 8-byte aligned buffers; malloc's are 16. */
	*buf = malloc(BUFFER_BYTES);
	*size = *buf ? BUFFER_BYTES : 0;
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream,
				      uint8_t *buf, size_t size, size_t valid)
{
	CUpti_Activity *r = NULL;
	size_t dropped = 0;

	pthread_mutex_lock(&T.lock);
	if (T.on && !T.floor && T.file.owner == getpid()) {
		while (cuptiActivityGetNextRecord(buf, valid, &r) ==
		       CUPTI_SUCCESS)
			if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
			    r->kind == CUPTI_ACTIVITY_KIND_KERNEL)
				write_launch((const kernel_record *)r);
		if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) ==
		    CUPTI_SUCCESS)
			T.dropped += dropped;
		trace_file_flush(&T.file);
	}
	pthread_mutex_unlock(&T.lock);
	(void)size;
	free(buf);
}

/* ---- The process's life ---- */

static void at_exit(void)
{
	/* A child forked after CUDA started inherits this handler and the
	 * file: only the process that opened it writes. */
	if (!T.on || T.file.owner != getpid())
		return;
	cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	achieved_finish();
	pthread_mutex_lock(&T.lock);
	write_end();
	trace_file_close(&T.file);
	name_cache_free(T.names);
	T.names = NULL;
	T.on = 0;
	pthread_mutex_unlock(&T.lock);
}

/* The fork's child holds the lock as the parent left it: a new one. */
static void after_fork_child(void)
{
	pthread_mutex_init(&T.lock, NULL);
	achieved_after_fork();
}

__attribute__((visibility("default"))) int InitializeInjection(void);

int InitializeInjection(void)
{
	const char *floor_env = getenv(TRACE_ENV_FLOOR), *mode;
	uint32_t version = 0;
	CUptiResult r;

	if (T.on)
		return 1;
	T.floor = floor_env && *floor_env && strcmp(floor_env, "0") != 0;
	if (cuptiGetVersion(&version) != CUPTI_SUCCESS ||
	    version < CUPTI_API_VERSION) {
		fprintf(stderr, "occcalc trace: CUPTI %u is older than the %u "
			"this library was built with; this process is not "
			"traced\n", version, (unsigned)CUPTI_API_VERSION);
		return 0;
	}
	T.names = name_cache_new();
	if (!T.names || trace_file_open(&T.file) != 0) {
		fprintf(stderr, "occcalc trace: cannot write %s: %m; this "
			"process is not traced\n", T.file.path[0] ?
			T.file.path : "the trace file");
		name_cache_free(T.names);
		T.names = NULL;
		return 0;
	}
	write_header();
	trace_file_flush(&T.file);
	nvtx_inject();
	mode = getenv(TRACE_ENV_MODE);
	if (mode && strcmp(mode, "callbacks") == 0) {
		if (callbacks_start() != 0) {
			trace_file_close(&T.file);
			unlink(T.file.path);
			return 0;
		}
		T.on = 1;
		pthread_atfork(NULL, NULL, after_fork_child);
		atexit(at_exit);
		return 1;
	}
	r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
	if (r == CUPTI_SUCCESS)
		r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	if (r != CUPTI_SUCCESS) {
		say("cannot record kernel launches", r);
		trace_file_close(&T.file);
		unlink(T.file.path);
		return 0;
	}
	cuptiActivityFlushPeriod(FLUSH_PERIOD_MS);
	T.on = 1;
	/* --achieved's subscriber is CUPTI's one: no ranges with it. */
	if (!getenv(TRACE_ENV_ACHIEVED))
		T.nvtx = nvtx_start() == 0;
	achieved_init();                 /* said there where it cannot */
	pthread_atfork(NULL, NULL, after_fork_child);
	atexit(at_exit);
	return 1;
}
