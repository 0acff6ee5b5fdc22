/*
 * nvtx.c - the operator a launch belongs to, from NVTX: the innermost
 * range open on the launching thread when it calls the driver
 * (PyTorch's torch.autograd.profiler.emit_nvtx pushes one per operator:
 * "aten::mm, seq = 12, ..."; a program's own nvtxRangePush names work
 * alike). CUPTI sees NVTX calls once NVTX_INJECTION64_PATH names it,
 * which this library sets for its process before the program's first
 * NVTX call it can (a program that used NVTX before starting CUDA is
 * not seen). Kernel activity records arrive later on CUPTI's thread:
 * their launch calls' correlation ids carry the name until then.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include "trace.h"

#define DEPTH 64                  /* ranges a thread may nest, tracked */
#define NAMES_MAX 65536           /* distinct names kept */
#define NAME_BYTES 256            /* of a name: up to its first ", " */
#define PENDING (1u << 18)        /* launches between call and record */

static __thread const char *stack[DEPTH];
static __thread int depth;

static struct {
	pthread_mutex_t lock;
	char **names;                 /* interned, open addressing */
	size_t n, cap;
	struct { uint32_t id; const char *name; } pending[PENDING];
	CUpti_SubscriberHandle sub;
} N = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

/* The name as kept for the run: its text up to ", " (PyTorch's sequence
 * number and shapes follow); NULL past NAMES_MAX or out of memory. */
static const char *intern(const char *msg)
{
	const char *comma = strstr(msg, ", ");
	size_t len = comma ? (size_t)(comma - msg) : strlen(msg), j;
	char **slots, *s = NULL;

	if (len >= NAME_BYTES)
		len = NAME_BYTES - 1;
	pthread_mutex_lock(&N.lock);
	if (2 * (N.n + 1) > N.cap && N.n < NAMES_MAX) {
		size_t cap = N.cap ? 2 * N.cap : 1024, i;

		slots = calloc(cap, sizeof *slots);
		for (i = 0; slots && i < N.cap; i++) {
			if (!N.names[i])
				continue;
			for (j = hash(N.names[i], strlen(N.names[i])) & (cap - 1);
			     slots[j]; j = (j + 1) & (cap - 1))
				;
			slots[j] = N.names[i];
		}
		if (slots) {
			free(N.names);
			N.names = slots;
			N.cap = cap;
		}
	}
	for (j = N.cap ? hash(msg, len) & (N.cap - 1) : 0; N.cap && N.names[j];
	     j = (j + 1) & (N.cap - 1))
		if (strlen(N.names[j]) == len && memcmp(N.names[j], msg, len) == 0)
			break;
	if (N.cap && N.names[j])
		s = N.names[j];
	else if (N.cap && N.n < NAMES_MAX && 2 * (N.n + 1) <= N.cap &&
		 (s = malloc(len + 1)) != NULL) {
		memcpy(s, msg, len);
		s[len] = '\0';
		N.names[j] = s;
		N.n++;
	}
	pthread_mutex_unlock(&N.lock);
	return s;
}

void nvtx_callback(uint32_t id, const void *data)
{
	const CUpti_NvtxData *d = data;
	const nvtxEventAttributes_t *a;
	const char *msg = NULL;

	if (id == CUPTI_CBID_NVTX_nvtxRangePop) {
		if (depth > 0)
			depth--;
		return;
	}
	if (id == CUPTI_CBID_NVTX_nvtxRangePushA)
		msg = ((const nvtxRangePushA_params *)d->functionParams)->message;
	else if (id == CUPTI_CBID_NVTX_nvtxRangePushEx) {
		a = ((const nvtxRangePushEx_params *)d->functionParams)->eventAttrib;
		if (a && a->messageType == NVTX_MESSAGE_TYPE_ASCII)
			msg = a->message.ascii;
	} else
		return;
	if (depth < DEPTH)
		stack[depth] = msg ? intern(msg) : NULL;
	depth++;
}

const char *nvtx_current(void)
{
	int d = depth < DEPTH ? depth : DEPTH;

	return d > 0 ? stack[d - 1] : NULL;
}

void nvtx_note(uint32_t correlation, const char *name)
{
	size_t j = correlation & (PENDING - 1);

	pthread_mutex_lock(&N.lock);
	N.pending[j].id = correlation;
	N.pending[j].name = name;
	pthread_mutex_unlock(&N.lock);
}

const char *nvtx_take(uint32_t correlation)
{
	size_t j = correlation & (PENDING - 1);
	const char *name = NULL;

	pthread_mutex_lock(&N.lock);
	if (N.pending[j].id == correlation && N.pending[j].name) {
		name = N.pending[j].name;
		N.pending[j].name = NULL;
	}
	pthread_mutex_unlock(&N.lock);
	return name;
}

void nvtx_inject(void)
{
	Dl_info info;

	if (getenv("NVTX_INJECTION64_PATH"))
		return;                  /* another tool's, or set already */
	if (dladdr((void *)cuptiSubscribe, &info) && info.dli_fname)
		setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}

/* Activity mode: the launch calls' correlation ids, noted with the range
 * they are made in. The runtime's call and the driver's it makes have
 * ids of their own: both are noted. */
static void CUPTIAPI on_call(void *user, CUpti_CallbackDomain domain,
			     CUpti_CallbackId id, const void *data)
{
	const CUpti_CallbackData *cb = data;
	const char *name;

	(void)user;
	if (domain == CUPTI_CB_DOMAIN_NVTX) {
		nvtx_callback(id, data);
		return;
	}
	if (cb->callbackSite != CUPTI_API_ENTER || !(name = nvtx_current()))
		return;
	nvtx_note(cb->correlationId, name);
}

int nvtx_start(void)
{
	static const CUpti_CallbackId runtime[] = {
		CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
		CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
		CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
		CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
		CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
	};
	size_t i;

	if (cuptiSubscribe(&N.sub, (CUpti_CallbackFunc)on_call, NULL) !=
	    CUPTI_SUCCESS)
		return -1;
	cuptiEnableDomain(1, N.sub, CUPTI_CB_DOMAIN_NVTX);
	for (i = 0; i < sizeof runtime / sizeof *runtime; i++)
		cuptiEnableCallback(1, N.sub, CUPTI_CB_DOMAIN_RUNTIME_API,
				    runtime[i]);
	callbacks_enable_launches(N.sub);
	return 0;
}
