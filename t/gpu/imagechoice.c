/* imagechoice.c - on the GPU machine: which image of each fatbin the driver
 * loads. Each FILE is loaded with cuModuleLoadData; the kernel `probe` is
 * looked up and its attributes printed: static shared memory (the image's
 * tag times 256 bytes, see t/fixtures/imagechoice), registers, and the
 * binary and PTX versions. A fatbin the driver refuses prints the error.
 * Usage: imagechoice FILE...   Output: one line per file:
 *   FILE tag=N smem=B regs=R binary=V ptx=V   or   FILE error=NAME */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)n + 1)) ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "imagechoice: cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return buf;
}

static int attr(CUfunction fn, CUfunction_attribute a)
{
	int v = -1;

	cuFuncGetAttribute(&v, a, fn);
	return v;
}

static void probe(const char *path)
{
	char *img = slurp(path);
	CUmodule m;
	CUfunction fn;
	const char *name = "?";
	CUresult r = cuModuleLoadData(&m, img);

	if (r == CUDA_SUCCESS)
		r = cuModuleGetFunction(&fn, m, "probe");
	if (r != CUDA_SUCCESS) {
		cuGetErrorName(r, &name);
		printf("%s error=%s\n", path, name);
	} else {
		int smem = attr(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
		printf("%s tag=%d smem=%d regs=%d binary=%d ptx=%d\n", path,
		       smem / 256, smem, attr(fn, CU_FUNC_ATTRIBUTE_NUM_REGS),
		       attr(fn, CU_FUNC_ATTRIBUTE_BINARY_VERSION),
		       attr(fn, CU_FUNC_ATTRIBUTE_PTX_VERSION));
		cuModuleUnload(m);
	}
	free(img);
}

int main(int argc, char **argv)
{
	CUdevice dev;
	CUcontext ctx;
	int i, major = 0, minor = 0, drv = 0;

	if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
	    cuCtxSetCurrent(ctx)) {
		fprintf(stderr, "imagechoice: no CUDA device\n");
		return 1;
	}
	cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	cuDriverGetVersion(&drv);
	printf("# device cc %d.%d, driver API %d\n", major, minor, drv);
	for (i = 1; i < argc; i++)
		probe(argv[i]);
	return 0;
}
