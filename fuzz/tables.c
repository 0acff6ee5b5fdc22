/*
 * tables.c - fuzzing the architecture table reader. A table it accepts
 * must read back identically from its own 'key = value' listing, and the
 * model on it must stay in its domain: blocks within 0 and the table's
 * block limit, occupancy within 0-100 %, and a headroom whose figures the
 * model agrees with at every point checked.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "occcalc.h"
#include "util.h"

static void write_table(FILE *f, const struct occ_arch *a)
{
	size_t i, n = occ_arch_key_count();
	int j;

	for (i = 0; i < n; i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (!occ_arch_has(a, k))
			continue;
		switch (k->type) {
		case OCC_KEY_CC:
			fprintf(f, "%s = %d.%d\n", k->name, a->cc_major,
				a->cc_minor);
			break;
		case OCC_KEY_STRING:
			fprintf(f, "%s = %s\n", k->name,
				strcmp(k->name, "name") == 0 ? a->name
							     : a->products);
			break;
		case OCC_KEY_INT:
		case OCC_KEY_BYTES:
			fprintf(f, "%s = %" PRIu64 "\n", k->name,
				occ_arch_value(a, k));
			break;
		case OCC_KEY_BYTES_LIST:
			fprintf(f, "%s =", k->name);
			for (j = 0; j < a->n_smem_carveouts; j++)
				fprintf(f, "%s %" PRIu64, j ? "," : "",
					a->smem_carveouts[j]);
			fputc('\n', f);
			break;
		}
	}
}

static void check_round_trip(const struct occ_arch *a)
{
	struct occ_arch b;
	struct occ_diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	write_table(f, a);
	fclose(f);
	f = fmemopen(text, len, "r");
	FUZZ_CHECK(occ_arch_read(f, "fuzz.arch", &b, &d) == OCC_OK,
		   "the table's own listing is refused at line %d (%s):\n%s",
		   d.line, d.key, text);
	fclose(f);
	free(text);
	FUZZ_CHECK(memcmp(a, &b, sizeof b) == 0,
		   "the table reads back differently from its listing");
}

static int blocks_at(const struct occ_arch *a, struct occ_kernel k, int smem,
		     uint64_t v)
{
	struct occ_result r;

	if (smem)
		k.dynamic_smem = v;
	else
		k.regs_per_thread = (int)v;
	FUZZ_CHECK(occ_compute(a, &k, &r) == OCC_OK, "a valid kernel refused");
	return r.blocks_per_sm;
}

static uint64_t mix(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return *s >> 17;
}

/* A point strictly inside [lo, hi], when there is one. */
static uint64_t inside(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + 1 + mix(s) % (hi - lo - 1);
}

static void check_step(const struct occ_arch *a, const struct occ_kernel *k,
		       int smem, const struct occ_step *st, uint64_t *s)
{
	int b = st->blocks, i;

	FUZZ_CHECK(blocks_at(a, *k, smem, st->value) == b &&
		   blocks_at(a, *k, smem, st->keep_max) == b &&
		   st->keep_max >= st->value, "headroom: keep_max");
	for (i = 0; i < 4 && st->keep_max - st->value > 1; i++)
		FUZZ_CHECK(blocks_at(a, *k, smem, inside(s, st->value,
			   st->keep_max)) == b, "headroom: a plateau point");
	if (st->has_drop) {
		FUZZ_CHECK(st->drop_from == st->keep_max + 1 &&
			   st->drop_to >= st->drop_from &&
			   st->drop_blocks != b &&
			   blocks_at(a, *k, smem, st->drop_from) ==
			   st->drop_blocks &&
			   blocks_at(a, *k, smem, st->drop_to) ==
			   st->drop_blocks, "headroom: the drop");
	}
	if (st->has_gain) {
		FUZZ_CHECK(st->gain_at < st->value && st->gain_blocks > b &&
			   blocks_at(a, *k, smem, st->gain_at) ==
			   st->gain_blocks, "headroom: the gain");
		for (i = 0; i < 4 && st->value - st->gain_at > 1; i++)
			FUZZ_CHECK(blocks_at(a, *k, smem, inside(s,
				   st->gain_at, st->value)) <= b,
				   "headroom: a point above the gain has more");
	} else {
		for (i = 0; i < 4 && st->value > 0; i++)
			FUZZ_CHECK(blocks_at(a, *k, smem, mix(s) % st->value)
				   <= b, "headroom: a gain missed");
	}
}

static void check_model(const struct occ_arch *a, uint64_t seed)
{
	int i;

	for (i = 0; i < 8; i++) {
		struct occ_kernel k;
		struct occ_result r;
		struct occ_headroom h;
		double pct;

		occ_kernel_init(&k);
		k.block_size = 1 + (int)(mix(&seed) %
					 (uint64_t)(a->max_threads_per_block + 64));
		k.regs_per_thread = (int)(mix(&seed) % 300);
		k.static_smem = mix(&seed) % (a->smem_per_block / 2 + 1);
		k.dynamic_smem = mix(&seed) % (a->smem_per_block_optin + 4096);
		k.carveout = (int)(mix(&seed) % 102) - 1;
		k.optin = (int)(mix(&seed) & 1);
		k.barriers = (int)(mix(&seed) % 17);
		FUZZ_CHECK(occ_compute(a, &k, &r) == OCC_OK, "valid kernel");
		pct = occ_percent(&r);
		FUZZ_CHECK(r.blocks_per_sm >= 0 &&
			   r.blocks_per_sm <= a->max_blocks_per_sm &&
			   r.warps_per_sm <= r.max_warps_per_sm &&
			   pct >= 0.0 && pct <= 100.0 &&
			   (r.blocks_per_sm > 0) == (r.reason == OCC_LAUNCHES),
			   "occupancy out of its domain: %d blocks, %.2f %%",
			   r.blocks_per_sm, pct);
		FUZZ_CHECK(occ_headroom(a, &k, &h) == OCC_OK, "headroom");
		check_step(a, &k, 0, &h.regs, &seed);
		check_step(a, &k, 1, &h.smem, &seed);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_arch a;
	struct occ_diag d;
	enum occ_status st;
	uint64_t seed = size;
	size_t i;
	FILE *f = fuzz_stream(data, size);

	if (!f)
		return 0;
	st = occ_arch_read(f, "fuzz.arch", &a, &d);
	fclose(f);
	if (st != OCC_OK) {
		FUZZ_CHECK(d.line >= 0 && strcmp(d.file, "fuzz.arch") == 0 &&
			   strcmp(occ_strerror(st), "unknown error") != 0,
			   "a refusal without a place or a message");
		return 0;
	}
	check_round_trip(&a);
	for (i = 0; i < size; i++)
		seed = seed * 31 + data[i];
	check_model(&a, seed);
	return 0;
}
