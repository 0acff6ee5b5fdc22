/* binary.c - the binary reader (occ_bin_read): any bytes either read as
 * kernels whose fields are sane or are refused with a status and a message
 * saying why; never a crash, a hang or a read outside the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "fuzz.h"

static int sane(const struct occ_bin_kernel *k, void *ctx)
{
	(void)ctx;
	FUZZ_CHECK(k->mangled && k->mangled[0], "a kernel without a name");
	FUZZ_CHECK(memchr(k->arch, '\0', sizeof k->arch), "arch unterminated");
	FUZZ_CHECK(k->cc_major >= 1 && k->cc_minor >= 0 && k->cc_minor <= 9,
		   "compute capability %d.%d", k->cc_major, k->cc_minor);
	/* A PTX file states the shared memory its entries declare. */
	if (k->ptx_only && k->container == OCC_BIN_PTX)
		FUZZ_CHECK(k->regs == -1 && k->shared_section >= 0 &&
			   (uint64_t)k->shared_section <= OCC_BYTES_MAX,
			   "a PTX file's entry: regs %d, shared %lld", k->regs,
			   (long long)k->shared_section);
	else if (k->ptx_only)
		FUZZ_CHECK(k->regs == -1 && k->shared_section == -1,
			   "a PTX entry with resources");
	else
		FUZZ_CHECK(k->regs >= 0 && k->regs <= OCC_MAX_REGS_ANY_ARCH &&
			   k->barriers >= 0 && k->shared_section >= 0,
			   "regs %d, barriers %d, shared %lld", k->regs,
			   k->barriers, (long long)k->shared_section);
	return 0;
}

/* The same bytes read for a 9.0 device (one image of each fatbin, chosen
 * from the entries' headers), counted: the same guarantees, and a kernel
 * count that is what the callback saw. */
static int sane_counted(const struct occ_bin_kernel *k, void *ctx)
{
	++*(int *)ctx;
	FUZZ_CHECK(k->image >= OCC_IMAGE_ALL && k->image <= OCC_IMAGE_BESIDE &&
		   k->images_run <= k->images, "image %d, %d of %d run",
		   (int)k->image, k->images_run, k->images);
	return sane(k, ctx);
}

static int read_for_gpu(const uint8_t *data, size_t size)
{
	struct occ_bin_contents n;
	struct occ_bin_diag d;
	int fs, counted = 0;
	enum occ_status st;

	st = occ_bin_read_counted(data, size, "fuzz", 9, 0, sane_counted,
				  &counted, &fs, &n, &d);
	FUZZ_CHECK(st == OCC_OK || d.what[0], "a refusal that says not why");
	FUZZ_CHECK(n.kernels == (uint64_t)counted, "%llu kernels counted, "
		   "%d seen", (unsigned long long)n.kernels, counted);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_bin_diag d;
	int fs;
	enum occ_status st = occ_bin_read(data, size, "fuzz", sane, NULL, &fs,
					  &d);

	FUZZ_CHECK(memchr(d.what, '\0', sizeof d.what), "diag unterminated");
	FUZZ_CHECK(st == OCC_OK || d.what[0], "a refusal that says not why");
	return read_for_gpu(data, size);
}
