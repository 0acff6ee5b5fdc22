/* fuzz_binary.c - libFuzzer harness for the binary reader: any bytes given
 * to occ_bin_read either read as kernels whose fields are sane or are
 * refused with a status and a message; never a crash, a hang or a read
 * outside the buffer (run under AddressSanitizer).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/lib -I_build \
 *     fuzz/fuzz_binary.c src/lib/binary.c src/lib/elf.c src/lib/cubin.c \
 *     src/lib/fatbin.c src/lib/ptx.c src/lib/decompress.c src/lib/util.c \
 *     -DHAVE_ZSTD -lzstd -o fuzz_binary
 *   ./fuzz_binary -max_total_time=300 corpus t/fixtures/bin
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

static int sane(const struct occ_bin_kernel *k, void *ctx)
{
	(void)ctx;
	if (!k->mangled || !k->mangled[0] || !memchr(k->arch, '\0', sizeof k->arch))
		abort();
	if (k->cc_major < 1 || k->cc_minor < 0 || k->cc_minor > 9)
		abort();
	if (!k->ptx_only && (k->regs < 0 || k->regs > OCC_MAX_REGS_ANY_ARCH ||
			     k->barriers < 0 || k->shared_section < 0))
		abort();
	if (k->ptx_only && (k->regs != -1 || k->shared_section != -1))
		abort();
	if (strlen(k->mangled) == 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_bin_diag d;
	int fs;
	enum occ_status st = occ_bin_read(data, size, "fuzz", sane, NULL, &fs,
					  &d);

	if (st != OCC_OK && !d.what[0])
		abort();                  /* a refusal always says why */
	if (memchr(d.what, '\0', sizeof d.what) == NULL)
		abort();
	return 0;
}
