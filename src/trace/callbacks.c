/*
 * callbacks.c - the launches as the program makes them, from CUPTI's
 * callback API (OCCCALC_TRACE_MODE=callbacks, occcalc --trace-mode
 * callbacks): each driver launch call is seen on the launching thread,
 * its grid, block, dynamic shared memory and clusters read from the
 * call's parameters and the function's registers, static shared memory
 * and name asked of the driver once per function. No kernel activity is
 * enabled, so no GPU timestamps and no carveout are recorded: what it
 * saves is the activity records' cost (docs/trace-overhead.md). The
 * runtime's launches reach the driver's launch calls too.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>   /* with generated_cuda_meta.h: the calls' parameters */

#include "trace.h"

typedef CUresult (*func_attr_fn)(int *, CUfunction_attribute, CUfunction);
typedef CUresult (*func_name_fn)(const char **, CUfunction);
typedef CUresult (*ctx_device_fn)(CUdevice *);
typedef CUresult (*stream_id_fn)(CUstream, unsigned long long *);
typedef CUresult (*kernel_func_fn)(CUfunction *, CUkernel);

static struct {
	func_attr_fn attr;
	func_name_fn name;
	ctx_device_fn device;
	stream_id_fn stream;
	kernel_func_fn kernel_func;
	pthread_mutex_t lock;
	struct func *funcs;          /* open addressing by CUfunction */
	size_t n, cap;
} D = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* What the driver says of a function once. */
struct func {
	CUfunction f;
	const char *name;
	int regs, static_smem, local;
	unsigned cluster[3];         /* compile-time cluster dims, or 0s */
};

static size_t slot_of(CUfunction f, size_t cap)
{
	uintptr_t h = (uintptr_t)f;

	h ^= h >> 17;
	h *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (cap - 1);
}

static int funcs_grow(void)
{
	size_t cap = D.cap ? 2 * D.cap : 1024, i, j;
	struct func *n = calloc(cap, sizeof *n);

	if (!n)
		return -1;
	for (i = 0; i < D.cap; i++) {
		if (!D.funcs[i].f)
			continue;
		for (j = slot_of(D.funcs[i].f, cap); n[j].f; j = (j + 1) & (cap - 1))
			;
		n[j] = D.funcs[i];
	}
	free(D.funcs);
	D.funcs = n;
	D.cap = cap;
	return 0;
}

static int attr(CUfunction f, CUfunction_attribute a)
{
	int v = 0;

	return D.attr(&v, a, f) == CUDA_SUCCESS ? v : 0;
}

/* The function's entry, asked of the driver the first time; a copy, so
 * that it stays valid once the lock is let go. */
static int func_of(CUfunction f, struct func *out)
{
	struct func *e;
	size_t j;
	int st = 0;

	pthread_mutex_lock(&D.lock);
	if (2 * (D.n + 1) > D.cap && funcs_grow() != 0)
		st = -1;
	for (j = st ? 0 : slot_of(f, D.cap); !st && D.funcs[j].f;
	     j = (j + 1) & (D.cap - 1))
		if (D.funcs[j].f == f)
			break;
	if (!st && !D.funcs[j].f) {
		e = &D.funcs[j];
		e->f = f;
		/* The runtime launches a CUkernel (its context-independent
		 * loading) in the CUfunction's place: its function in the
		 * current context answers for it. */
		if (D.name(&e->name, f) != CUDA_SUCCESS && D.kernel_func &&
		    D.kernel_func(&f, (CUkernel)e->f) == CUDA_SUCCESS &&
		    D.name(&e->name, f) != CUDA_SUCCESS)
			e->name = NULL;
		if (!e->name)
			e->name = "";
		e->regs = attr(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
		e->static_smem = attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
		e->local = attr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
		e->cluster[0] = (unsigned)attr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
		e->cluster[1] = (unsigned)attr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT);
		e->cluster[2] = (unsigned)attr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH);
		D.n++;
	}
	if (!st)
		*out = D.funcs[j];
	pthread_mutex_unlock(&D.lock);
	return st;
}

static void dims(unsigned out[3], unsigned x, unsigned y, unsigned z)
{
	out[0] = x;
	out[1] = y;
	out[2] = z;
}

/* A launch call's parameters; 0 for a call that is none. */
static int params(CUpti_CallbackId id, const void *p, CUfunction *f,
		  struct api_launch *a, CUstream *s)
{
	const cuLaunchKernel_params *k = p;
	const cuLaunchKernelEx_params *x = p;
	const CUlaunchConfig *c;
	unsigned i;

	switch (id) {
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
		a->launch_type = "cooperative_single";
		__attribute__((fallthrough));  /* the same leading parameters */
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
		*f = k->f;
		dims(a->grid, k->gridDimX, k->gridDimY, k->gridDimZ);
		dims(a->block, k->blockDimX, k->blockDimY, k->blockDimZ);
		a->smem = (int)k->sharedMemBytes;
		*s = k->hStream;
		return 1;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
		c = x->config;
		*f = x->f;
		dims(a->grid, c->gridDimX, c->gridDimY, c->gridDimZ);
		dims(a->block, c->blockDimX, c->blockDimY, c->blockDimZ);
		a->smem = (int)c->sharedMemBytes;
		*s = c->hStream;
		for (i = 0; i < c->numAttrs; i++) {
			if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
				dims(a->cluster, c->attrs[i].value.clusterDim.x,
				     c->attrs[i].value.clusterDim.y,
				     c->attrs[i].value.clusterDim.z);
			else if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE &&
				 c->attrs[i].value.cooperative)
				a->launch_type = "cooperative_single";
		}
		return 1;
	default:
		return 0;
	}
}

static void CUPTIAPI on_call(void *user, CUpti_CallbackDomain domain,
			     CUpti_CallbackId id, const void *data)
{
	const CUpti_CallbackData *cb = data;
	struct api_launch a;
	unsigned long long sid = 0;
	struct func fn;
	CUfunction f = NULL;
	CUstream s = NULL;
	CUdevice dev = 0;

	(void)user;
	if (domain == CUPTI_CB_DOMAIN_NVTX) {
		nvtx_callback(id, data);
		return;
	}
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API ||
	    cb->callbackSite != CUPTI_API_ENTER)
		return;
	memset(&a, 0, sizeof a);
	a.launch_type = "regular";
	if (!params(id, cb->functionParams, &f, &a, &s) || !f ||
	    func_of(f, &fn) != 0)
		return;
	if (!a.cluster[0] && fn.cluster[0])
		memcpy(a.cluster, fn.cluster, sizeof a.cluster);
	if (D.device(&dev) == CUDA_SUCCESS)
		a.device = (uint32_t)dev;
	if (D.stream && D.stream(s, &sid) == CUDA_SUCCESS)
		a.stream = sid;
	a.context = cb->contextUid;
	a.correlation = cb->correlationId;
	a.regs = fn.regs;
	a.static_smem = fn.static_smem;
	a.local = fn.local;
	a.optin = a.smem + a.static_smem > 48 * 1024;
	a.op = nvtx_current();
	trace_api_launch(fn.name, &a);
}

void callbacks_enable_launches(void *subscriber)
{
	static const CUpti_CallbackId ids[] = {
		CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
		CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
		CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
		CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
	};
	size_t i;

	for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
		cuptiEnableCallback(1, (CUpti_SubscriberHandle)subscriber,
				    CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
}

int callbacks_start(void)
{
	void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
	CUpti_SubscriberHandle sub;

	if (cuda) {
		D.attr = (func_attr_fn)dlsym(cuda, "cuFuncGetAttribute");
		D.name = (func_name_fn)dlsym(cuda, "cuFuncGetName");
		D.device = (ctx_device_fn)dlsym(cuda, "cuCtxGetDevice");
		D.stream = (stream_id_fn)dlsym(cuda, "cuStreamGetId");
		D.kernel_func = (kernel_func_fn)dlsym(cuda,
						     "cuKernelGetFunction");
	}
	if (!D.attr || !D.name || !D.device) {
		fprintf(stderr, "occcalc trace: the driver has no "
			"cuFuncGetName (CUDA 12.3 on): this process is not "
			"traced\n");
		return -1;
	}
	if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_call, NULL) !=
	    CUPTI_SUCCESS) {
		fprintf(stderr, "occcalc trace: CUPTI's callbacks are taken "
			"(another tool?): this process is not traced\n");
		return -1;
	}
	callbacks_enable_launches(sub);
	cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_NVTX);
	return 0;
}
