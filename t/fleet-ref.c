/*
 * fleet-ref.c - occcalc's --kernels rows for one GPU against NVIDIA's
 * cuda_occupancy.h computed with that GPU's properties (t/fleet.sh).
 *
 * Usage: fleet-ref MAJOR.MINOR < rows.csv, the rows written with
 * --fields block,regs,static_smem,smem,barriers,max_threads,optin,
 * blocks_per_sm,limit_warps,limit_registers,limit_shared_memory,
 * limit_blocks,limit_barriers,regs_per_block,smem_per_block (header
 * first). The GPU's compute capability is the GPU list's, given here, never
 * the row's image's: code compiled for sm_80 runs on an 8.9 GPU with 8.9's
 * limits. Prints "ROWS DISAGREE" and, on stderr, the first disagreements;
 * exits 0, or 2 when it cannot run. Environment: OCCCALC_TABLES.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

#ifdef HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>

#include "cuda_reference.h"

enum { BLOCK, REGS, STATIC, DYN, BARRIERS, MAX_THREADS, OPTIN, BLOCKS,
       L_WARPS, L_REGS, L_SMEM, L_BLOCKS, L_BARRIERS, REGS_ALLOC, SMEM_ALLOC,
       N_COLS };

/* The row's columns, split at commas (no field here holds one); an empty
 * one is -1, "true" 1, "false" 0. */
static int split(char *line, long long *v)
{
	char *p = line, *end;
	int i;

	for (i = 0; i < N_COLS; i++) {
		size_t len = strcspn(p, ",\n");

		if (len == 0)
			v[i] = -1;
		else if (strncmp(p, "true", len) == 0)
			v[i] = 1;
		else if (strncmp(p, "false", len) == 0)
			v[i] = 0;
		else if ((v[i] = strtoll(p, &end, 10)), end != p + len)
			return 0;
		p += len;
		if (*p != ',')
			return i == N_COLS - 1;
		p++;
	}
	return 0;
}

/* Whether the row agrees with cuda_occupancy.h on GPU table a. */
static int agrees(const struct occ_arch *a, const long long *v)
{
	struct occ_kernel k;
	cudaOccDeviceProp prop;
	cudaOccFuncAttributes attr;
	cudaOccDeviceState state;
	cudaOccResult c;
	cudaOccError err;

	/* A block above __launch_bounds__ does not launch (the driver
	 * refuses it); cuda_occupancy.h does not check the bound. */
	if (v[MAX_THREADS] > 0 && v[BLOCK] > v[MAX_THREADS])
		return v[BLOCKS] == 0;
	occ_kernel_init(&k);
	k.block_size = (int)v[BLOCK];
	k.regs_per_thread = (int)v[REGS];
	k.static_smem = (uint64_t)v[STATIC];
	k.dynamic_smem = (uint64_t)v[DYN];
	k.barriers = (int)v[BARRIERS];
	k.max_threads = v[MAX_THREADS] > 0 ? (int)v[MAX_THREADS] : 0;
	k.optin = (int)v[OPTIN];
	reference_setup(a, &k, &prop, &attr, &state);
	memset(&c, 0, sizeof c);
	err = cudaOccMaxActiveBlocksPerMultiprocessor(&c, &prop, &attr, &state,
						      k.block_size,
						      k.dynamic_smem);
	/* A configuration the reference refuses launches nothing. */
	if (err != CUDA_OCC_SUCCESS || v[BLOCKS] == 0)
		return v[BLOCKS] == (err == CUDA_OCC_SUCCESS
				     ? c.activeBlocksPerMultiprocessor : 0);
	return v[BLOCKS] == c.activeBlocksPerMultiprocessor &&
	       v[L_WARPS] == c.blockLimitWarps &&
	       v[L_REGS] == c.blockLimitRegs &&
	       v[L_SMEM] == c.blockLimitSharedMem &&
	       v[L_BLOCKS] == c.blockLimitBlocks &&
	       /* Empty where the barriers do not limit. */
	       (v[L_BARRIERS] == c.blockLimitBarriers ||
		(v[L_BARRIERS] < 0 && c.blockLimitBarriers >=
				       c.activeBlocksPerMultiprocessor)) &&
	       v[REGS_ALLOC] == c.allocatedRegistersPerBlock &&
	       v[SMEM_ALLOC] == (long long)c.allocatedSharedMemPerBlock;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("OCCCALC_TABLES");
	struct occ_tables *t;
	const struct occ_arch *a;
	struct occ_diag diag;
	char line[4096];
	long long v[N_COLS];
	unsigned long rows = 0, bad = 0;
	int major, minor;

	if (argc != 2 || sscanf(argv[1], "%d.%d", &major, &minor) != 2) {
		fprintf(stderr, "usage: fleet-ref MAJOR.MINOR < rows.csv\n");
		return 2;
	}
	if (!dir || occ_tables_load(dir, &t, &diag) != OCC_OK ||
	    !(a = occ_tables_find(t, major, minor))) {
		fprintf(stderr, "fleet-ref: no table for %d.%d in "
			"OCCCALC_TABLES\n", major, minor);
		return 2;
	}
	if (!fgets(line, sizeof line, stdin))
		return 2;                 /* the header */
	while (fgets(line, sizeof line, stdin)) {
		rows++;
		if (!split(line, v) || !agrees(a, v)) {
			if (bad++ < 5)
				fprintf(stderr, "# %d.%d disagrees: %s", major,
					minor, line);
		}
	}
	printf("%lu %lu\n", rows, bad);
	occ_tables_free(t);
	return 0;
}

#else

int main(void)
{
	printf("no cuda_occupancy.h\n");
	return 0;
}

#endif
