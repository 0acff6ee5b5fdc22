/*
 * device.c - a device's properties, asked of the CUDA driver the traced
 * program loaded (the injection library is loaded by it, so libcuda is
 * there): once per device, when its first launch is written. The
 * names are cudaDeviceProp's, as the trace format says.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>

#include "trace.h"

typedef CUresult (*get_attr_fn)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*get_dev_fn)(CUdevice *, int);
typedef CUresult (*get_name_fn)(char *, int, CUdevice);
typedef CUresult (*get_uuid_fn)(CUuuid *, CUdevice);

static const struct prop {
	const char *name;
	CUdevice_attribute attr;
} props[] = {
	{ "major", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR },
	{ "minor", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR },
	{ "multiProcessorCount", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT },
	{ "warpSize", CU_DEVICE_ATTRIBUTE_WARP_SIZE },
	{ "maxThreadsPerMultiProcessor",
	  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR },
	{ "maxThreadsPerBlock", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK },
	{ "maxBlocksPerMultiProcessor",
	  CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR },
	{ "regsPerMultiprocessor",
	  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR },
	{ "regsPerBlock", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK },
	{ "sharedMemPerMultiprocessor",
	  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR },
	{ "sharedMemPerBlock", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK },
	{ "sharedMemPerBlockOptin",
	  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN },
	{ "reservedSharedMemPerBlock",
	  CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK },
	{ "l2CacheSize", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE },
};

static void uuid_text(const CUuuid *u, char *out, size_t n)
{
	const unsigned char *b = (const unsigned char *)u->bytes;

	snprintf(out, n, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4],
		 b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

int trace_device_line(uint32_t id, struct line *l)
{
	void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
	get_attr_fn get_attr;
	get_dev_fn get_dev;
	get_name_fn get_name;
	get_uuid_fn get_uuid;
	CUdevice dev;
	CUuuid uuid;
	char name[256], uuid_s[64] = "";
	size_t i;
	int v, ok = 0;

	if (!cuda)
		return 0;
	get_attr = (get_attr_fn)dlsym(cuda, "cuDeviceGetAttribute");
	get_dev = (get_dev_fn)dlsym(cuda, "cuDeviceGet");
	get_name = (get_name_fn)dlsym(cuda, "cuDeviceGetName");
	get_uuid = (get_uuid_fn)dlsym(cuda, "cuDeviceGetUuid_v2");
	if (!get_uuid)
		get_uuid = (get_uuid_fn)dlsym(cuda, "cuDeviceGetUuid");
	if (!get_attr || !get_dev || !get_name ||
	    get_dev(&dev, (int)id) != CUDA_SUCCESS ||
	    get_name(name, sizeof name, dev) != CUDA_SUCCESS)
		goto out;
	if (get_uuid && get_uuid(&uuid, dev) == CUDA_SUCCESS)
		uuid_text(&uuid, uuid_s, sizeof uuid_s);
	line_raw(l, "{\"type\":\"device\"");
	line_int(l, "device", id);
	line_str(l, "name", name);
	line_str(l, "uuid", uuid_s);
	for (i = 0; i < sizeof props / sizeof props[0]; i++) {
		if (get_attr(&v, props[i].attr, dev) != CUDA_SUCCESS)
			goto out;
		line_int(l, props[i].name, v);
	}
	line_raw(l, "}\n");
	ok = 1;
out:
	dlclose(cuda);
	return ok;
}
