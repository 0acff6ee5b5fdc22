/*
 * traffic.c - fuzzing --traffic's reader (occ_kernel_parse_env, the
 * affine index forms of affine.c) and the traffic model over what it
 * accepts. The input is the text, read with --define's names (N, M) and a
 * launch of 4 blocks of 8 x 8 threads, as a grid of 4 and as one of 2 x 2
 * (blockIdx.y: tiled.c's count). Text refused says where, within it; text
 * accepted holds accesses within the limits, reads the same a second
 * time, and its traffic on a small launch is counted without a crash,
 * and within what the launch can touch.
 */
#include "occcalc.h"
#include "fuzz.h"

static const struct occ_arch *arch(void)
{
	static struct occ_tables *t;
	struct occ_diag d;

	if (!t && occ_tables_load(FUZZ_SRCDIR "/data/arch-tables", &t, &d) !=
	    OCC_OK)
		abort();
	return occ_tables_find(t, 9, 0);
}

static void check_accesses(const char *text, const struct occ_kernel_text *k)
{
	size_t i;

	FUZZ_CHECK(k->n >= 1 && k->n <= OCC_MAX_KERNEL_ACCESSES,
		   "%zu accesses", k->n);
	FUZZ_CHECK(k->n_arrays >= 1 && k->n_arrays <= OCC_MAX_KERNEL_ARRAYS,
		   "%d arrays", k->n_arrays);
	for (i = 0; i < k->n; i++) {
		const struct occ_kernel_access *a = &k->acc[i];

		FUZZ_CHECK(a->array >= 0 && a->array < k->n_arrays &&
			   k->names[a->array][0], "%s: access %zu: array %d",
			   text, i, a->array);
		FUZZ_CHECK(a->access.op == OCC_ACCESS_LOAD ||
			   a->access.op == OCC_ACCESS_STORE, "op %d",
			   (int)a->access.op);
		FUZZ_CHECK(a->access.lane_xor <= 31 && a->group >= 1 &&
			   a->group <= 32 && !(a->group & (a->group - 1)),
			   "%s: access %zu: xor %u, group %u", text, i,
			   a->access.lane_xor, a->group);
		FUZZ_CHECK(a->access.elem_size == 4 && a->access.threads == 32,
			   "elem %d, threads %d", a->access.elem_size,
			   a->access.threads);
	}
}

static void check_traffic(const char *text, const struct occ_kernel_text *k,
			  uint32_t grid_y)
{
	struct occ_launch l = { 4, 64, OCC_L1_DEFAULT, 8, 8, grid_y, 0 };
	struct occ_traffic t;
	enum occ_status st = occ_traffic_compute(arch(), &l, k->acc, k->n, &t);

	FUZZ_CHECK(st == OCC_OK || st == OCC_ERR_INVALID_INPUT ||
		   st == OCC_ERR_UNSUPPORTED, "%s: status %d", text, (int)st);
	if (st != OCC_OK)
		return;
	/* 256 threads, each access at most 2 sectors a thread (16 bytes
	 * across a sector boundary: 4-byte elements never are). */
	FUZZ_CHECK(t.threads == 256 && t.load.sectors <= 256 * k->n &&
		   t.store.sectors <= 256 * k->n &&
		   t.load.distinct <= t.load.l2_max &&
		   t.store.distinct <= t.store.l2_max,
		   "%s: %llu threads, sectors %llu + %llu", text,
		   (unsigned long long)t.threads,
		   (unsigned long long)t.load.sectors,
		   (unsigned long long)t.store.sectors);
}

/* The text read and counted over 4 blocks, a grid of grid_x x grid_y. */
static void one_grid(const char *text, uint64_t grid_x, uint64_t grid_y)
{
	struct occ_kernel_env env;
	struct occ_kernel_text k, again;
	enum occ_status st, st2;
	size_t where = 0, where2 = 0;

	memset(&env, 0, sizeof env);
	if (!occ_kernel_env_define(&env, "N", 4096) ||
	    !occ_kernel_env_define(&env, "M", -3))
		abort();
	env.block_dim[0] = 8;
	env.block_dim[1] = 8;
	env.block_dim[2] = 1;
	env.grid_dim = grid_x;
	env.grid_yz[0] = grid_y > 1 ? grid_y : 0;
	st = occ_kernel_parse_env(text, &env, &k, &where);
	st2 = occ_kernel_parse_env(text, &env, &again, &where2);
	FUZZ_CHECK(st == st2 && where == where2 && k.n == again.n &&
		   memcmp(k.acc, again.acc, k.n * sizeof k.acc[0]) == 0,
		   "%s: read twice, read otherwise", text);
	if (st != OCC_OK)
		FUZZ_CHECK(where <= strlen(text) &&
			   (st == OCC_ERR_SYNTAX || st == OCC_ERR_INVALID_INPUT ||
			    st == OCC_ERR_RANGE || st == OCC_ERR_DUPLICATE_KEY),
			   "%s: status %d at %zu", text, (int)st, where);
	else {
		check_accesses(text, &k);
		check_traffic(text, &k, grid_y > 1 ? (uint32_t)grid_y : 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size > 4096)
		return 0;   /* a command line's argument, not a file */
	text = fuzz_string(data, size);
	one_grid(text, 4, 1);
	one_grid(text, 2, 2);
	free(text);
	return 0;
}
