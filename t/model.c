/*
 * model.c - the occupancy model, behaviour by behaviour, on worked cases
 * (the occupancy study of "CUDA Programming: Basics and Practice",
 * section 6.3.2, and the CUDA Programming Guide's rules).
 */
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"


static struct occ_kernel kernel(int block, int regs, uint64_t static_smem,
				uint64_t dyn)
{
	struct occ_kernel k;

	occ_kernel_init(&k);
	k.block_size = block;
	k.regs_per_thread = regs;
	k.static_smem = static_smem;
	k.dynamic_smem = dyn;
	return k;
}

static struct occ_result run(int major, int minor, int block, int regs,
			     uint64_t static_smem, uint64_t dyn)
{
	struct occ_kernel k = kernel(block, regs, static_smem, dyn);
	struct occ_result r;

	if (occ_compute(arch(major, minor), &k, &r) != OCC_OK)
		r.blocks_per_sm = -1;
	return r;
}

static struct occ_result run_k(int major, int minor, const struct occ_kernel *k)
{
	struct occ_result r;

	if (occ_compute(arch(major, minor), k, &r) != OCC_OK)
		r.blocks_per_sm = -1;
	return r;
}

static void test_hopper_example(void)
{
	struct occ_result r = run(9, 0, 128, 40, 0, 0);

	tap_ok(r.blocks_per_sm == 12 && r.warps_per_sm == 48 &&
	       occ_percent(&r) == 75.0,
	       "sm_90, 128 threads, 40 registers: 12 blocks, 48 warps, 75 %%");
	tap_ok(r.limiters == OCC_RESOURCE_REGISTERS,
	       "sm_90, 128 threads, 40 registers: limited by registers alone");
	tap_ok(r.regs_per_block == 5120,
	       "40 registers x 32 threads = 1280 per warp, 5120 per 4-warp block");
}

static void test_register_granularity(void)
{
	struct occ_result r = run(9, 0, 32, 33, 0, 0);

	tap_ok(r.regs_per_block == 1280,
	       "33 registers per thread round up to 1280 per warp (unit 256)");
	r = run(9, 0, 128, 0, 0, 0);
	tap_ok(r.limit_registers == OCC_UNLIMITED,
	       "a kernel using no registers is not limited by them");
}

/* The occupancy study, 6.3.2 (1): block size alone. */
static void test_block_size_alone(void)
{
	struct occ_result r = run(7, 0, 64, 0, 0, 0);

	tap_ok(occ_percent(&r) == 100.0,
	       "sm_70: a block of Nt/Nb = 2048/32 = 64 threads reaches 100 %%");
	r = run(7, 0, 32, 0, 0, 0);
	tap_ok(occ_percent(&r) == 50.0 && r.limiters == OCC_RESOURCE_BLOCKS,
	       "sm_70: 32-thread blocks stop at 32 blocks: 50 %%, block slots");
	r = run(7, 5, 64, 0, 0, 0);
	tap_ok(occ_percent(&r) == 100.0 && r.blocks_per_sm == 16,
	       "sm_75: 1024/16 = 64 threads per block reach 100 %% in 16 blocks");
	r = run(7, 0, 100, 0, 0, 0);
	tap_ok(r.warps_per_block == 4,
	       "a 100-thread block occupies 4 warps, the last one partial");
}

/* The occupancy study, 6.3.2 (2): registers. */
static void test_register_limits(void)
{
	struct occ_result r = run(7, 0, 128, 32, 0, 0);

	tap_ok(occ_percent(&r) == 100.0,
	       "sm_70: 32 registers per thread allow all 2048 threads (100 %%)");
	r = run(7, 0, 128, 64, 0, 0);
	tap_ok(occ_percent(&r) == 50.0 && r.limiters == OCC_RESOURCE_REGISTERS,
	       "sm_70: 64 registers per thread give exactly 50 %%");
	r = run(7, 0, 128, 65, 0, 0);
	tap_ok(occ_percent(&r) < 50.0,
	       "sm_70: more than 64 registers per thread fall below 50 %%");
	r = run(7, 0, 128, 128, 0, 0);
	tap_ok(occ_percent(&r) == 25.0,
	       "sm_70: 128 registers per thread give exactly 25 %%");
	r = run(7, 0, 128, 129, 0, 0);
	tap_ok(occ_percent(&r) < 25.0,
	       "sm_70: more than 128 registers per thread fall below 25 %%");
	r = run(7, 5, 128, 64, 0, 0);
	tap_ok(occ_percent(&r) == 100.0,
	       "sm_75 (1024 threads per SM): 64 registers still give 100 %%");
}

/* The occupancy study, 6.3.2 (3): shared memory on compute
 * capability 3.5. */
static void test_kepler_shared_memory(void)
{
	struct occ_result r = run(3, 5, 128, 0, 0, 3 * 1024);

	tap_ok(r.blocks_per_sm == 16 && occ_percent(&r) == 100.0,
	       "sm_35, 128 threads: 3 KB per block still fits 16 blocks, 100 %%");
	r = run(3, 5, 128, 0, 0, 3 * 1024 + 1);
	tap_ok(r.blocks_per_sm == 14 && r.smem_per_block == 3328 &&
	       r.limiters == OCC_RESOURCE_SHARED_MEMORY,
	       "sm_35: 1 byte more rounds up to 3328 B (unit 256): 14 blocks");
	r = run(3, 5, 128, 0, 0, 6 * 1024);
	tap_ok(occ_percent(&r) == 50.0, "sm_35: 6 KB per block give 50 %%");
	r = run(3, 5, 128, 0, 0, 12 * 1024);
	tap_ok(occ_percent(&r) == 25.0, "sm_35: 12 KB per block give 25 %%");
	r = run(3, 5, 128, 0, 0, 48 * 1024 + 1);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_SMEM_TOO_LARGE,
	       "sm_35: more than 48 KB per block cannot launch");
}

static void test_reserved_shared_memory(void)
{
	struct occ_result r = run(8, 0, 128, 0, 0, 0);

	tap_ok(r.smem_per_block == 1024,
	       "sm_80: every block holds the 1 KB the driver reserves");
	r = run(8, 0, 128, 0, 1, 0);
	tap_ok(r.smem_per_block == 1152,
	       "sm_80: 1 B of static shared memory allocates 1024 + 128 B");
	r = run(7, 5, 128, 0, 0, 0);
	tap_ok(r.limit_shared_memory == OCC_UNLIMITED && r.smem_per_block == 0,
	       "sm_75: no shared memory, no reservation, no limit");
}

static void test_carveout(void)
{
	struct occ_kernel k;
	struct occ_result r;

	occ_kernel_init(&k);
	k.block_size = 128;
	k.dynamic_smem = 10 * 1024;
	k.carveout = 50;
	r = run_k(9, 0, &k);
	tap_ok(r.smem_per_sm == 132 * 1024 && r.limit_shared_memory == 12,
	       "sm_90: carveout 50 %% (114 KB) rounds up to 132 KB: 12 blocks "
	       "of 11 KB");
	k.carveout = 0;
	r = run_k(9, 0, &k);
	tap_ok(r.smem_per_sm == 16 * 1024 && r.limit_shared_memory == 1,
	       "sm_90: carveout 0 yields to the smallest capacity that holds "
	       "one block (16 KB)");
	k.carveout = 0;
	r = run_k(7, 5, &k);
	tap_ok(r.smem_per_sm == 32 * 1024,
	       "sm_75: carveout 0 still gives 32 KB, Turing's smallest split");
	k.carveout = 0;
	r = run_k(6, 1, &k);
	tap_ok(r.smem_per_sm == 96 * 1024,
	       "sm_61: the carveout preference has no effect before Volta");
}

static void test_optin(void)
{
	struct occ_kernel k;
	struct occ_result r;

	occ_kernel_init(&k);
	k.block_size = 256;
	k.dynamic_smem = 100 * 1024;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 2 && r.needs_optin,
	       "sm_90: 100 KB dynamic needs the opt-in and then fits 2 blocks");
	k.optin = 0;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_SMEM_NEEDS_OPTIN,
	       "sm_90: without the opt-in, more than 48 KB cannot launch");
	k.optin = 1;
	k.dynamic_smem = 227 * 1024;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 1 && r.smem_per_block == 228 * 1024,
	       "sm_90: exactly sharedMemPerBlockOptin (227 KB) fits one block");
	k.dynamic_smem = 227 * 1024 + 1;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_SMEM_TOO_LARGE,
	       "sm_90: one byte above sharedMemPerBlockOptin cannot launch");
	k.dynamic_smem = 0;
	k.static_smem = 48 * 1024 + 1;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_STATIC_SMEM_TOO_LARGE,
	       "static shared memory above 48 KB cannot launch, opt-in or not");
}

static void test_cannot_launch(void)
{
	struct occ_result r = run(9, 0, 1025, 0, 0, 0);

	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_BLOCK_TOO_LARGE &&
	       (r.limiters & OCC_RESOURCE_WARPS),
	       "a block above maxThreadsPerBlock cannot launch");
	r = run(3, 0, 128, 64, 0, 0);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_TOO_MANY_REGS_THREAD,
	       "sm_30 allows 63 registers per thread, not 64");
	r = run(3, 5, 128, 255, 0, 0);
	tap_ok(r.blocks_per_sm > 0, "sm_35 allows 255 registers per thread");
	r = run(9, 0, 1024, 65, 0, 0);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_TOO_MANY_REGS_BLOCK,
	       "1024 threads x 65 registers exceed regsPerBlock");
	/* GP100 has 2 register sub-partitions but refuses what GP10x (4)
	 * refuses: 22 warps of 2816 registers round to 24 warps there. */
	r = run(6, 0, 704, 88, 0, 0);
	tap_ok(r.blocks_per_sm == 0 && r.limit_registers == 0,
	       "sm_60 refuses a block GP10x could not launch");
	r = run(6, 1, 704, 88, 0, 0);
	tap_ok(r.blocks_per_sm == 0, "sm_61 refuses the same block itself");
}

static void test_launch_bounds(void)
{
	struct occ_kernel k = kernel(512, 32, 0, 0);
	struct occ_smem_growth none = { 0, 0, 0 };
	struct occ_best best;
	struct occ_result r;

	k.max_threads = 256;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 0 && r.reason == OCC_ABOVE_LAUNCH_BOUNDS &&
	       r.limiters == 0 && strcmp(occ_reason_name(r.reason),
					 "launch_bounds") == 0,
	       "a block above __launch_bounds__(256) cannot launch: 0 blocks, "
	       "reason launch_bounds");
	k.block_size = 256;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 8, "at the bound it launches as without one "
	       "(256 threads x 32 registers: 8 blocks on sm_90)");
	k.regs_per_thread = 16;
	tap_ok(occ_best_block_size(arch(9, 0), &k, &none, &best) == OCC_OK &&
	       best.block_size == 256 && best.ties[0] == 256,
	       "the best block size stays within the bound (256, not 1024)");
	k.max_threads = 100;
	k.static_smem = 48 * 1024;
	tap_ok(occ_best_block_size(arch(9, 0), &k, &none, &best) == OCC_OK &&
	       best.block_size == 100 && best.result.blocks_per_sm == 4,
	       "a bound that is no multiple of the warp is itself tried: 100 "
	       "threads, when shared memory allows 4 blocks of any size");
	k.static_smem = 0;
	k.max_threads = 16;
	tap_ok(occ_best_block_size(arch(9, 0), &k, &none, &best) == OCC_OK &&
	       best.block_size == 16 && best.result.blocks_per_sm == 32,
	       "a bound below the warp size: 16 threads, 32 blocks per SM");
}

static void test_barriers(void)
{
	struct occ_kernel k;
	struct occ_result r;

	occ_kernel_init(&k);
	k.block_size = 32;
	k.barriers = 3;
	r = run_k(9, 0, &k);
	tap_ok(r.blocks_per_sm == 21 && r.limiters == OCC_RESOURCE_BARRIERS,
	       "sm_90: 3 barriers per block, 64 per SM: 21 blocks, barriers "
	       "alone limit");
	r = run_k(12, 0, &k);
	tap_ok(r.blocks_per_sm == 8, "sm_120: 24 barriers per SM, 3 per block: 8");
	r = run_k(8, 0, &k);
	tap_ok(r.limit_barriers == OCC_UNLIMITED,
	       "before Hopper barriers do not limit occupancy");
	k.barriers = 1;
	r = run_k(12, 0, &k);
	tap_ok(r.limiters == (OCC_RESOURCE_BLOCKS | OCC_RESOURCE_BARRIERS),
	       "sm_120: 24 block slots and 24 barriers limit together");
}

static void test_invalid_input(void)
{
	struct occ_kernel k;
	struct occ_result r;
	const struct occ_arch *a = arch(9, 0);

	occ_kernel_init(&k);
	k.block_size = 0;
	tap_ok(occ_compute(a, &k, &r) == OCC_ERR_INVALID_INPUT,
	       "a block of 0 threads is refused");
	k.block_size = 32;
	k.carveout = 101;
	tap_ok(occ_compute(a, &k, &r) == OCC_ERR_INVALID_INPUT,
	       "a carveout above 100 %% is refused");
	k.carveout = OCC_CARVEOUT_DEFAULT;
	k.barriers = 17;
	tap_ok(occ_compute(a, &k, &r) == OCC_ERR_INVALID_INPUT,
	       "more than 16 barriers per block are refused");
	k.barriers = 1;
	k.regs_per_thread = -1;
	tap_ok(occ_compute(a, &k, &r) == OCC_ERR_INVALID_INPUT,
	       "a negative register count is refused");
}

static void test_arch_names(void)
{
	static const struct { const char *s; int major, minor; } good[] = {
		{ "sm_90", 9, 0 }, { "90", 9, 0 }, { "9.0", 9, 0 },
		{ "sm_90a", 9, 0 }, { "compute_90", 9, 0 }, { "sm_100f", 10, 0 },
		{ "100", 10, 0 }, { "10.0", 10, 0 }, { "sm_121", 12, 1 },
	};
	static const char *const bad[] = {
		"", "9", "sm_9", "abc", "9.", ".0", "sm_90x", "9.10", "sm_",
		"1000", "0.0", "-90",
	};
	size_t i;
	int ok = 1, major, minor;

	for (i = 0; i < sizeof good / sizeof good[0]; i++)
		ok &= occ_arch_parse_name(good[i].s, &major, &minor) == OCC_OK &&
		      major == good[i].major && minor == good[i].minor;
	tap_ok(ok, "architecture names: sm_90, 90, 9.0, sm_90a, compute_90, "
	       "sm_100f, 100, 10.0, sm_121");
	ok = 1;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ok &= occ_arch_parse_name(bad[i], &major, &minor) ==
		      OCC_ERR_BAD_ARCH_NAME;
	tap_ok(ok, "not architecture names: '', 9, sm_9, abc, 9., .0, sm_90x, "
	       "9.10, sm_, 1000, 0.0, -90");
}

static struct occ_headroom headroom(int major, int minor, int block, int regs,
				    uint64_t dyn)
{
	struct occ_kernel k = kernel(block, regs, 0, dyn);
	struct occ_headroom h;

	occ_headroom(arch(major, minor), &k, &h);
	return h;
}

static void test_headroom(void)
{
	struct occ_headroom h = headroom(9, 0, 128, 40, 0);

	tap_ok(h.regs.blocks == 12 && h.regs.keep_max == 40,
	       "sm_90, 128 threads: 40 registers is the most that keeps 12 blocks");
	tap_ok(h.regs.has_gain && h.regs.gain_at == 32 && h.regs.gain_blocks == 16,
	       "registers: 32 or fewer gives 16 blocks");
	tap_ok(h.regs.has_drop && h.regs.drop_from == 41 && h.regs.drop_to == 48 &&
	       h.regs.drop_blocks == 10,
	       "registers: 41 to 48 drop to 10 blocks");
	tap_ok(h.smem.keep_max == 18432 && h.smem.drop_from == 18433 &&
	       h.smem.drop_to == 20096 && h.smem.drop_blocks == 11,
	       "shared memory: 18432 B keeps 12 blocks (19456 B allocated each), "
	       "up to 20096 B gives 11");
	h = headroom(9, 0, 128, 40, 10000);
	tap_ok(h.smem.keep_max == 18432 && !h.smem.has_gain,
	       "from 10000 B: the same 12-block plateau, no gain below (registers "
	       "limit)");
	h = headroom(9, 0, 1024, 64, 0);
	tap_ok(h.regs.has_drop && h.regs.drop_blocks == 0 &&
	       h.smem.keep_max == 227 * 1024 && h.smem.drop_blocks == 0,
	       "the last cliff: above 64 registers, or 227 KB, nothing launches");
	h = headroom(9, 0, 128, 0, 102400);
	tap_ok(h.smem.has_gain && h.smem.gain_at == 76800 &&
	       h.smem.gain_blocks == 3,
	       "100 KB per block: 76800 B or less gives a third block");
}

static void test_waves(void)
{
	struct occ_result r = run(9, 0, 128, 40, 0, 0);
	struct occ_waves w;

	tap_ok(occ_waves(&r, 2000, 132, &w) == OCC_OK && w.per_wave == 1584 &&
	       w.full_waves == 1 && w.tail_blocks == 416 && w.waves == 2,
	       "2000 blocks of 12 per SM on 132 SMs: one wave of 1584, a tail "
	       "of 416");
	tap_ok(w.same_waves_blocks == 8,
	       "8 blocks per SM (1056 a wave) would finish in the same 2 waves");
	tap_ok(w.max_resident_per_sm == 12,
	       "a grid of more than a wave fills its SMs (12 at once)");
	tap_ok(occ_waves(&r, 1584, 132, &w) == OCC_OK && w.tail_blocks == 0 &&
	       w.waves == 1 && w.same_waves_blocks == 12,
	       "a grid of exactly one wave has no tail and nothing to trade");
	tap_ok(occ_waves(&r, 1000, 132, &w) == OCC_OK &&
	       w.max_resident_per_sm == 8,
	       "1000 blocks spread over 132 SMs: at most 8 per SM at once "
	       "(got %d)", w.max_resident_per_sm);
	tap_ok(occ_waves(&r, 100, 132, &w) == OCC_OK &&
	       w.max_resident_per_sm == 1,
	       "fewer blocks than SMs: one per SM (got %d)",
	       w.max_resident_per_sm);
	tap_ok(occ_waves(&r, 0, 132, &w) == OCC_ERR_INVALID_INPUT &&
	       occ_waves(&r, (int64_t)INT32_MAX + 1, 132, &w) ==
	       OCC_ERR_INVALID_INPUT,
	       "a grid of 0 or beyond 2^31-1 blocks is refused");
	r = run(9, 0, 2048, 0, 0, 0);
	tap_ok(occ_waves(&r, 100, 132, &w) == OCC_ERR_INVALID_INPUT,
	       "a configuration that cannot launch has no waves");
}

static void test_tables_cover_every_shipped_cc(void)
{
	static const char *const ccs[] = {
		"3.0", "3.2", "3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1",
		"6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0",
		"10.0", "10.1", "10.3", "11.0", "12.0", "12.1",
	};
	size_t i;
	int ok = 1, major, minor;

	for (i = 0; i < sizeof ccs / sizeof ccs[0]; i++) {
		occ_arch_parse_name(ccs[i], &major, &minor);
		if (!occ_tables_find(tables, major, minor)) {
			tap_diag("no table for %s", ccs[i]);
			ok = 0;
		}
	}
	tap_ok(ok, "a table for every compute capability from 3.0 to 12.1");
}

int main(void)
{
	load_tables();
	test_hopper_example();
	test_register_granularity();
	test_block_size_alone();
	test_register_limits();
	test_kepler_shared_memory();
	test_reserved_shared_memory();
	test_carveout();
	test_optin();
	test_cannot_launch();
	test_launch_bounds();
	test_barriers();
	test_invalid_input();
	test_arch_names();
	test_headroom();
	test_waves();
	test_tables_cover_every_shipped_cc();
	printf("1..%d\n", tap_n);
	occ_tables_free(tables);
	return tap_done();
}
