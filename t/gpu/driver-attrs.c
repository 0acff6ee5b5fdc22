/* driver-attrs.c - on a GPU: a cubin loaded through the driver API, each
 * kernel's attributes as the driver reports them beside occcalc's reading
 * of the same file and its model's blocks per SM. No kernel is launched.
 * Usage: driver-attrs CUBIN BLOCK  (CSV on stdout; OCCCALC_TABLES set) */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

struct run {
	CUmodule mod;
	const struct occ_arch *arch;
	int block;
};

static int attr(CUfunction f, CUfunction_attribute a)
{
	int v = -1;

	return cuFuncGetAttribute(&v, a, f) == CUDA_SUCCESS ? v : -1;
}

static int one(const struct occ_bin_kernel *k, void *ctx)
{
	struct run *r = ctx;
	CUfunction f;
	struct occ_kernel kk;
	struct occ_result res;
	int api = -1, block = r->block;

	if (cuModuleGetFunction(&f, r->mod, k->mangled) != CUDA_SUCCESS) {
		printf("%s,%s,not found\n", k->arch, k->mangled);
		return 0;
	}
	if (k->max_threads[0] && block > k->max_threads[0])
		block = k->max_threads[0];
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&api, f, block, 0);
	occ_kernel_init(&kk);
	kk.block_size = block;
	kk.regs_per_thread = k->regs;
	kk.static_smem = occ_bin_static_smem(r->arch, k);
	kk.barriers = k->barriers > 0 ? k->barriers : 1;
	if (occ_compute(r->arch, &kk, &res) != OCC_OK)
		res.blocks_per_sm = -1;
	printf("%s,%s,%d,%d,%d,%llu,%d,%lld,%d,%d,%d,%d,%d,%d\n", k->arch,
	       k->mangled, block, k->regs, attr(f, CU_FUNC_ATTRIBUTE_NUM_REGS),
	       (unsigned long long)kk.static_smem,
	       attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES), (long long)k->frame,
	       attr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), k->max_threads[0],
	       attr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
	       res.blocks_per_sm, api, res.blocks_per_sm == api);
	return 0;
}

int main(int argc, char **argv)
{
	struct occ_tables *t;
	struct occ_diag d;
	struct occ_bin_diag bd;
	struct run r;
	CUdevice dev;
	CUcontext ctx;
	FILE *f;
	static char buf[1 << 22];
	size_t n;
	int fs;

	if (argc != 3 || !getenv("OCCCALC_TABLES") ||
	    occ_tables_load(getenv("OCCCALC_TABLES"), &t, &d) != OCC_OK)
		return 2;
	if (!(f = fopen(argv[1], "rb")))
		return 1;
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
	    cuCtxSetCurrent(ctx) ||
	    cuModuleLoadData(&r.mod, buf) != CUDA_SUCCESS) {
		fprintf(stderr, "driver-attrs: cannot load %s\n", argv[1]);
		return 1;
	}
	r.arch = occ_tables_find(t, 9, 0);
	r.block = atoi(argv[2]);
	puts("arch,mangled,block,occcalc_regs,driver_regs,occcalc_static_smem,"
	     "driver_static_smem,occcalc_frame,driver_local,occcalc_max_threads,"
	     "driver_max_threads,model_blocks_per_sm,api_blocks_per_sm,agree");
	return occ_bin_read(buf, n, argv[1], one, &r, &fs, &bd) == OCC_OK ? 0 : 1;
}
