/* ptxas_jit.h - --ptxas-jit (ptxas_jit.c): the toolkit's ptxas on PTX the
 * driver would compile, for the GPU named. Included by kernel_list.h. */
#ifndef OCC_CLI_PTXAS_JIT_H
#define OCC_CLI_PTXAS_JIT_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"

/* One kernel as ptxas compiled it. */
struct ptxas_kernel {
	char *mangled;
	int regs, barriers;
	int64_t static_smem, stack;
};

/* ptxas's answers for the PTX image last compiled (one per fatbin). */
struct ptxas_jit {
	const char *file, *text;
	int64_t fatbin_offset;
	struct ptxas_kernel *k;
	size_t n;
	int failed;
};

/* The toolkit's ptxas on b's PTX for compute capability cc (major * 10 +
 * minor): b's kernel, or NULL (err says why the first time a fatbin's
 * PTX fails). */
const struct ptxas_kernel *ptxas_jit_find(struct ptxas_jit *j,
					  const struct occ_bin_kernel *b,
					  int cc, char *err, size_t errn);
void ptxas_jit_clear(struct ptxas_jit *j);

#endif
