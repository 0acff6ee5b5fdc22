/*
 * headroom.c - occ_headroom against a brute-force reference: every value of
 * registers per thread and of dynamic shared memory computed one by one,
 * on random configurations of every shipped table; and configurations far
 * out (shared memory near 4 GiB, registers near 2^31), where only the
 * answer's shape can be checked value by value.
 */
#include <inttypes.h>
#include <string.h>

#include "tap.h"
#include "arch.h"

/* Blocks per SM at value v of one axis: registers or dynamic shared memory. */
static int blocks_at(const struct occ_arch *a, struct occ_kernel k, int smem,
		     uint64_t v)
{
	struct occ_result r;

	if (smem)
		k.dynamic_smem = v;
	else
		k.regs_per_thread = (int)v;
	if (occ_compute(a, &k, &r) != OCC_OK)
		return -1;
	return r.blocks_per_sm;
}

/* The definition of struct occ_step, applied value by value over
 * [0, max]; b[v] holds the block count at v. */
static void reference_step(const int *b, uint64_t max, uint64_t value,
			   struct occ_step *s)
{
	uint64_t v;

	memset(s, 0, sizeof *s);
	s->value = value;
	s->blocks = b[value];
	for (v = value; v < max && b[v + 1] == s->blocks; v++)
		;
	s->keep_max = v;
	if (v < max) {
		s->has_drop = 1;
		s->drop_from = v + 1;
		s->drop_blocks = b[v + 1];
		for (v = v + 1; v < max && b[v + 1] == s->drop_blocks; v++)
			;
		s->drop_to = v;
	}
	for (v = value; v > 0; v--)
		if (b[v - 1] > s->blocks) {
			s->has_gain = 1;
			s->gain_at = v - 1;
			s->gain_blocks = b[v - 1];
			break;
		}
}

static int same_step(const struct occ_step *x, const struct occ_step *y)
{
	return x->value == y->value && x->blocks == y->blocks &&
	       x->keep_max == y->keep_max && x->has_gain == y->has_gain &&
	       (!x->has_gain || (x->gain_at == y->gain_at &&
				 x->gain_blocks == y->gain_blocks)) &&
	       x->has_drop == y->has_drop &&
	       (!x->has_drop || (x->drop_from == y->drop_from &&
				 x->drop_to == y->drop_to &&
				 x->drop_blocks == y->drop_blocks));
}

static void print_step(const char *what, const struct occ_step *s)
{
	tap_diag("%s: value %" PRIu64 " blocks %d keep_max %" PRIu64
		 " gain %d@%" PRIu64 "=%d drop %d %" PRIu64 "-%" PRIu64 "=%d",
		 what, s->value, s->blocks, s->keep_max, s->has_gain,
		 s->gain_at, s->gain_blocks, s->has_drop, s->drop_from,
		 s->drop_to, s->drop_blocks);
}

/* The axis occ_headroom scans: up to the first value that cannot launch
 * for its own sake, or the configuration's value if beyond. */
static uint64_t axis_max(const struct occ_arch *a, const struct occ_kernel *k,
			 int smem)
{
	uint64_t limit, max;

	if (!smem)
		return (uint64_t)k->regs_per_thread > (uint64_t)a->max_regs_per_thread
		       ? (uint64_t)k->regs_per_thread
		       : (uint64_t)a->max_regs_per_thread;
	limit = k->optin ? a->smem_per_block_optin : a->smem_per_block;
	max = (limit > k->static_smem ? limit - k->static_smem : 0) + 1;
	return k->dynamic_smem > max ? k->dynamic_smem : max;
}

static int check_axis(const struct occ_arch *a, const struct occ_kernel *k,
		      int smem, const struct occ_step *got, int *b)
{
	uint64_t v, max = axis_max(a, k, smem);
	struct occ_step want;

	for (v = 0; v <= max; v++)
		b[v] = blocks_at(a, *k, smem, v);
	reference_step(b, max, smem ? k->dynamic_smem
				    : (uint64_t)k->regs_per_thread, &want);
	if (same_step(got, &want))
		return 1;
	tap_diag("sm_%d%d block %d regs %d static %" PRIu64 " dynamic %" PRIu64
		 " carveout %d optin %d barriers %d", a->cc_major, a->cc_minor,
		 k->block_size, k->regs_per_thread, k->static_smem,
		 k->dynamic_smem, k->carveout, k->optin, k->barriers);
	print_step("want", &want);
	print_step("got ", got);
	return 0;
}

static uint64_t rng_state = 13;

static uint64_t rnd(uint64_t n)
{
	rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
	return (rng_state >> 33) % n;
}

static void random_kernel(const struct occ_arch *a, struct occ_kernel *k)
{
	occ_kernel_init(k);
	k->block_size = 1 + (int)rnd((uint64_t)a->max_threads_per_block + 64);
	k->regs_per_thread = (int)rnd((uint64_t)a->max_regs_per_thread + 8);
	k->static_smem = rnd(4) ? rnd(a->smem_per_block / 4)
				: rnd(a->smem_per_block + 2048);
	k->dynamic_smem = rnd(a->smem_per_block_optin + 4096);
	k->carveout = rnd(3) ? OCC_CARVEOUT_DEFAULT : (int)rnd(101);
	k->optin = (int)rnd(4) != 0;
	k->barriers = (int)rnd(OCC_MAX_BARRIERS_PER_BLOCK + 1);
}

/* Random configurations on every table, against the reference. */
static void test_random(int per_table)
{
	size_t i, n = occ_tables_count(tables);
	static int b[(64 << 20) + 2];
	int good = 1, tried = 0, j;

	for (i = 0; i < n; i++) {
		const struct occ_arch *a = occ_tables_get(tables, i);

		for (j = 0; j < per_table; j++) {
			struct occ_kernel k;
			struct occ_headroom h;

			random_kernel(a, &k);
			if (occ_headroom(a, &k, &h) != OCC_OK)
				continue;
			tried++;
			good &= check_axis(a, &k, 0, &h.regs, b) &&
				check_axis(a, &k, 1, &h.smem, b);
		}
	}
	tap_ok(good && tried > 0, "%d random configurations over %zu tables: "
	       "the headroom equals the value-by-value reference", tried, n);
}

/* Shared memory near 4 GiB: nothing launches from the per-block limit on;
 * the gain is the largest value that launches, one block. */
static void test_huge_smem(void)
{
	const struct occ_arch *a = arch(9, 0);
	struct occ_kernel k;
	struct occ_headroom h;
	uint64_t last;
	int fine;

	occ_kernel_init(&k);
	k.block_size = 128;
	k.regs_per_thread = 32;
	k.dynamic_smem = (UINT64_C(1) << 32) - 40;
	/* sm_90: 227 KB opt-in, 1 KB reserved, 128 B units: 232448 B is the
	 * most one block may ask for, as occ_compute says. */
	last = a->smem_per_block_optin;
	fine = occ_headroom(a, &k, &h) == OCC_OK;
	tap_ok(fine && h.smem.blocks == 0 && h.smem.keep_max == k.dynamic_smem &&
	       !h.smem.has_drop && h.smem.has_gain && h.smem.gain_at == last &&
	       h.smem.gain_blocks == 1 && blocks_at(a, k, 1, last) == 1 &&
	       blocks_at(a, k, 1, last + 1) == 0,
	       "dynamic shared memory 4 GiB - 40 B: 0 blocks, and %" PRIu64
	       " B or less gives one", last);
	k.dynamic_smem = OCC_BYTES_MAX;
	fine = occ_headroom(a, &k, &h) == OCC_OK;
	tap_ok(fine && h.smem.blocks == 0 && h.smem.gain_at == last,
	       "dynamic shared memory at OCC_BYTES_MAX: the same answer");
}

/* Registers near 2^31: beyond every table, nothing launches; the gain is
 * the table's maximum. */
static void test_huge_regs(void)
{
	const struct occ_arch *a = arch(9, 0);
	struct occ_kernel k;
	struct occ_headroom h;
	int fine;

	occ_kernel_init(&k);
	k.block_size = 32;
	k.regs_per_thread = INT32_MAX;
	fine = occ_headroom(a, &k, &h) == OCC_OK;
	tap_ok(fine && h.regs.blocks == 0 && !h.regs.has_drop &&
	       h.regs.has_gain && h.regs.gain_at == 255 &&
	       h.regs.keep_max == INT32_MAX,
	       "2^31 - 1 registers per thread: 0 blocks, 255 or fewer launch");
}

int main(void)
{
	load_tables();
	tap_plan(4);
	test_random(30);
	test_huge_smem();
	test_huge_regs();
	occ_tables_free(tables);
	return tap_done();
}
