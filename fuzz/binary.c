/* binary.c - the binary reader (occ_bin_read): any bytes either read as
 * kernels whose fields are sane or are refused with a status and a message
 * saying why; never a crash, a hang or a read outside the buffer. Read
 * again on three threads, the same kernels come in the same order, and
 * the same refusal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "fuzz.h"

/* What a read delivered, folded in order (FNV-1a). */
struct seen {
	uint64_t hash, n;
};

static void fold(struct seen *s, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		s->hash = (s->hash ^ b[i]) * 0x100000001b3ull;
}

static int sane(const struct occ_bin_kernel *k, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	fold(s, k->mangled, strlen(k->mangled));
	fold(s, k->arch, sizeof k->arch);
	fold(s, &k->regs, sizeof k->regs);
	fold(s, &k->shared_section, sizeof k->shared_section);
	fold(s, &k->fatbin_offset, sizeof k->fatbin_offset);
	FUZZ_CHECK(k->mangled && k->mangled[0], "a kernel without a name");
	FUZZ_CHECK(memchr(k->arch, '\0', sizeof k->arch), "arch unterminated");
	FUZZ_CHECK(k->cc_major >= 1 && k->cc_minor >= 0 && k->cc_minor <= 9,
		   "compute capability %d.%d", k->cc_major, k->cc_minor);
	if (k->ptx_only)
		FUZZ_CHECK(k->regs == -1 && k->shared_section == -1,
			   "a PTX entry with resources");
	else
		FUZZ_CHECK(k->regs >= 0 && k->regs <= OCC_MAX_REGS_ANY_ARCH &&
			   k->barriers >= 0 && k->shared_section >= 0,
			   "regs %d, barriers %d, shared %lld", k->regs,
			   k->barriers, (long long)k->shared_section);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_bin_diag d, dj;
	struct occ_bin_opts jobs = { 3, NULL, NULL };
	struct seen one = { 0xcbf29ce484222325ull, 0 }, three = one;
	int fs;
	enum occ_status st = occ_bin_read(data, size, "fuzz", sane, &one, &fs,
					  &d), stj;

	FUZZ_CHECK(memchr(d.what, '\0', sizeof d.what), "diag unterminated");
	FUZZ_CHECK(st == OCC_OK || d.what[0], "a refusal that says not why");
	stj = occ_bin_read_opts(data, size, "fuzz", &jobs, sane, &three, &fs,
				&dj);
	FUZZ_CHECK(stj == st && one.n == three.n && one.hash == three.hash,
		   "three threads read otherwise: %d, %llu kernels; one: %d, "
		   "%llu", stj, (unsigned long long)three.n, st,
		   (unsigned long long)one.n);
	FUZZ_CHECK(st == OCC_OK || (dj.offset == d.offset &&
				    strcmp(dj.what, d.what) == 0),
		   "three threads refuse otherwise: %s", dj.what);
	return 0;
}
