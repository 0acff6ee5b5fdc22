/*
 * bench.c - how fast occcalc is, printed as figures (not a test):
 *   1. model evaluations per second, occcalc's library against NVIDIA's
 *      cuda_occupancy.h, on the same random sm_90 configurations;
 *   2. equal work: a plain loop over cuda_occupancy.h printing, with
 *      printf, the sweep block 1..1024 x regs 1..255 as CSV in five
 *      columns to /dev/null, against the occcalc CLI printing the same
 *      five (--fields), process start and table loading included: first
 *      block, regs, smem, blocks_per_sm, limiter (integers and names,
 *      the same bytes from both: compared before timing), then block,
 *      regs, blocks_per_sm, limiter, occupancy_pct (the loop's %.2f is
 *      most of its cost);
 *   3. the CLI printing all its default columns, for scale.
 * Each figure is the best of several runs. Run it with 'make bench'.
 */
#include "config.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "occcalc.h"

#ifdef HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>

#include "cuda_reference.h"

extern char **environ;

#define CONFIGS 1000000
#define RUNS 7

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 20261122;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void bench_model(const struct occ_arch *a)
{
	struct occ_kernel *ks = calloc(CONFIGS, sizeof *ks);
	cudaOccFuncAttributes *attrs = calloc(CONFIGS, sizeof *attrs);
	cudaOccDeviceProp prop;
	cudaOccDeviceState state;
	double best_lib = 1e9, best_ref = 1e9;
	long sum_lib = 0, sum_ref = 0;
	int i, run;

	for (i = 0; i < CONFIGS; i++) {
		occ_kernel_init(&ks[i]);
		ks[i].block_size = 1 + (int)(rng() % 1024);
		ks[i].regs_per_thread = (int)(rng() % 256);
		ks[i].static_smem = rng() % 8192;
		ks[i].dynamic_smem = rng() % 65536;
		/* Both sides get their inputs ready-made: only the calls are
		 * timed. */
		reference_setup(a, &ks[i], &prop, &attrs[i], &state);
	}
	for (run = 0; run < RUNS; run++) {
		double t = now();

		sum_lib = 0;
		for (i = 0; i < CONFIGS; i++) {
			struct occ_result r;

			occ_compute(a, &ks[i], &r);
			sum_lib += r.blocks_per_sm;
		}
		t = now() - t;
		if (t < best_lib)
			best_lib = t;
		t = now();
		sum_ref = 0;
		for (i = 0; i < CONFIGS; i++) {
			cudaOccResult res;

			cudaOccMaxActiveBlocksPerMultiprocessor(&res, &prop, &attrs[i],
				&state, ks[i].block_size, ks[i].dynamic_smem);
			sum_ref += res.activeBlocksPerMultiprocessor;
		}
		t = now() - t;
		if (t < best_ref)
			best_ref = t;
	}
	printf("model, %d random sm_90 configurations (checksums %ld, %ld: %s)\n",
	       CONFIGS, sum_lib, sum_ref, sum_lib == sum_ref ? "equal" : "DIFFER");
	printf("  occcalc library     %7.1f ns/config  %6.2f M/s\n",
	       best_lib * 1e9 / CONFIGS, CONFIGS / best_lib / 1e6);
	printf("  cuda_occupancy.h    %7.1f ns/config  %6.2f M/s\n",
	       best_ref * 1e9 / CONFIGS, CONFIGS / best_ref / 1e6);
	printf("  occcalc is %.2fx the speed of cuda_occupancy.h\n",
	       best_ref / best_lib);
	free(ks);
	free(attrs);
}

static const char *limiter_name(unsigned bits)
{
	static char buf[64];

	buf[0] = '\0';
	if (bits & OCC_LIMIT_WARPS) strcat(buf, "warps+");
	if (bits & OCC_LIMIT_REGISTERS) strcat(buf, "registers+");
	if (bits & OCC_LIMIT_SHARED_MEMORY) strcat(buf, "shared_memory+");
	if (bits & OCC_LIMIT_BLOCKS) strcat(buf, "blocks+");
	if (bits & OCC_LIMIT_BARRIERS) strcat(buf, "barriers+");
	if (buf[0])
		buf[strlen(buf) - 1] = '\0';
	return buf;
}

/* The columns of each comparison, as --fields takes them. */
static const char *const COLS[2] = {
	"block,regs,smem,blocks_per_sm,limiter",
	"block,regs,blocks_per_sm,limiter,occupancy_pct"
};

/* The plain loop once into f: cuda_occupancy.h and printf, the five
 * columns of COLS[pct]. */
static void plain_loop(const struct occ_arch *a, FILE *f, int pct)
{
	cudaOccDeviceProp prop;
	cudaOccDeviceState state;
	cudaOccFuncAttributes attr;
	int block, regs;

	fprintf(f, "%s\n", COLS[pct]);
		for (block = 1; block <= 1024; block++)
			for (regs = 1; regs <= 255; regs++) {
				struct occ_kernel k;
				cudaOccResult res;
				int warps;

				occ_kernel_init(&k);
				k.regs_per_thread = regs;
				reference_setup(a, &k, &prop, &attr, &state);
				cudaOccMaxActiveBlocksPerMultiprocessor(&res, &prop,
					&attr, &state, block, 0);
				warps = res.activeBlocksPerMultiprocessor *
					((block + 31) / 32);
				if (pct)
					fprintf(f, "%d,%d,%d,%s,%.2f\n", block, regs,
						res.activeBlocksPerMultiprocessor,
						limiter_name(res.limitingFactors),
						100.0 * warps / 64);
				else
					fprintf(f, "%d,%d,%d,%d,%s\n", block, regs, 0,
						res.activeBlocksPerMultiprocessor,
						limiter_name(res.limitingFactors));
			}
	fflush(f);
}

static double bench_plain_loop(const struct occ_arch *a, int pct)
{
	double best = 1e9;
	int run;
	FILE *f = fopen("/dev/null", "w");

	for (run = 0; run < RUNS; run++) {
		double t = now();

		plain_loop(a, f, pct);
		t = now() - t;
		if (t < best)
			best = t;
	}
	fclose(f);
	return best;
}

/* The CLI's sweep with the fields given (NULL: its defaults) into out,
 * best of runs. */
static double bench_cli(const char *occcalc, const char *fields,
			const char *out, int runs)
{
	char *argv[] = { (char *)occcalc, "-a", "sm_90", "-b", "1:1024", "-r",
			 "1:255", "-f", "csv", "--fields", (char *)fields, NULL };
	posix_spawn_file_actions_t fa;
	double best = 1e9;
	int run;

	if (!fields)
		argv[9] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT |
					 O_TRUNC, 0600);
	for (run = 0; run < runs; run++) {
		double t = now();
		pid_t pid;
		int status;

		if (posix_spawn(&pid, occcalc, &fa, NULL, argv, environ) != 0 ||
		    waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench: %s failed\n", occcalc);
			exit(1);
		}
		t = now() - t;
		if (t < best)
			best = t;
	}
	posix_spawn_file_actions_destroy(&fa);
	return best;
}

/* Whether the plain loop and the CLI print the same bytes for COLS[pct]. */
static int same_bytes(const struct occ_arch *a, const char *occcalc, int pct)
{
	char loop[] = "/tmp/occcalc-bench-loop.XXXXXX";
	char cli[] = "/tmp/occcalc-bench-cli.XXXXXX";
	int fl = mkstemp(loop), fc = mkstemp(cli), same = 0;
	FILE *f = fl >= 0 ? fdopen(fl, "w+") : NULL, *g;
	int x, y;

	if (!f || fc < 0)
		return 0;
	close(fc);
	plain_loop(a, f, pct);
	bench_cli(occcalc, COLS[pct], cli, 1);
	if ((g = fopen(cli, "r")) != NULL) {
		rewind(f);
		do {
			x = getc(f);
			y = getc(g);
		} while (x == y && x != EOF);
		same = x == y;
		fclose(g);
	}
	fclose(f);
	unlink(loop);
	unlink(cli);
	return same;
}

static void bench_sweep(const struct occ_arch *a, const char *occcalc, int pct)
{
	const int rows = 1024 * 255;
	int same = same_bytes(a, occcalc, pct);
	double plain = bench_plain_loop(a, pct);
	double cli = bench_cli(occcalc, COLS[pct], "/dev/null", RUNS);

	printf("  %s (%s)\n", COLS[pct], same ? "the same bytes" : "OUTPUTS DIFFER");
	printf("    plain cuda_occupancy.h + printf loop  %6.1f ms  "
	       "%5.2f M rows/s\n", plain * 1e3, rows / plain / 1e6);
	printf("    occcalc CLI --fields                  %6.1f ms  "
	       "%5.2f M rows/s (process start and table loading included)\n",
	       cli * 1e3, rows / cli / 1e6);
	printf("    occcalc CLI is %.2fx the speed of the plain loop\n",
	       plain / cli);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("OCCCALC_TABLES");
	struct occ_tables *t;
	struct occ_diag d;
	double all;
	const int rows = 1024 * 255;

	if (argc != 2 || !dir || occ_tables_load(dir, &t, &d) != OCC_OK) {
		fprintf(stderr, "usage: OCCCALC_TABLES=DIR bench OCCCALC\n");
		return 2;
	}
	bench_model(occ_tables_find(t, 9, 0));
	printf("sweep block 1..1024 x regs 1..255 on sm_90, %d rows, CSV to "
	       "/dev/null, best of %d, five columns:\n", rows, RUNS);
	bench_sweep(occ_tables_find(t, 9, 0), argv[1], 0);
	bench_sweep(occ_tables_find(t, 9, 0), argv[1], 1);
	all = bench_cli(argv[1], NULL, "/dev/null", RUNS);
	printf("  occcalc CLI, all %s default columns          %6.1f ms  "
	       "%5.2f M rows/s\n", "36", all * 1e3, rows / all / 1e6);
	occ_tables_free(t);
	return 0;
}

#else

int main(void)
{
	fprintf(stderr, "bench: needs cuda_occupancy.h: configure --with-cuda\n");
	return 77;
}

#endif
