/* triton.c - the Triton metadata reader (occ_triton_meta_parse): any bytes
 * either read as a launch whose values are within their ranges or are
 * refused with a status, an offset inside the input and a reason; never a
 * crash, a deep recursion or a read outside the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "fuzz.h"

static void sane(const struct occ_triton_meta *m)
{
	int i;

	FUZZ_CHECK(memchr(m->name, '\0', sizeof m->name), "name unterminated");
	FUZZ_CHECK(memchr(m->version, '\0', sizeof m->version),
		   "version unterminated");
	FUZZ_CHECK(m->num_warps >= -1 && m->num_warps <= OCC_TRITON_MAX_WARPS,
		   "num_warps %d", m->num_warps);
	FUZZ_CHECK(m->num_ctas >= -1 && m->num_ctas <= OCC_TRITON_MAX_CTAS,
		   "num_ctas %d", m->num_ctas);
	FUZZ_CHECK(m->shared >= -1 && (m->shared < 0 ||
		   (uint64_t)m->shared <= OCC_BYTES_MAX), "shared %lld",
		   (long long)m->shared);
	for (i = 0; i < 3; i++)
		FUZZ_CHECK(m->cluster_dims[i] >= 0 &&
			   m->cluster_dims[i] <= OCC_TRITON_MAX_CTAS,
			   "cluster_dims[%d] %d", i, m->cluster_dims[i]);
	FUZZ_CHECK(m->arch == -1 || (m->arch > 0 && m->arch < 1000),
		   "arch %d", m->arch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_triton_meta m;
	struct occ_bin_diag d;
	enum occ_status st = occ_triton_meta_parse((const char *)data, size,
						   &m, &d);

	FUZZ_CHECK(memchr(d.what, '\0', sizeof d.what), "diag unterminated");
	if (st == OCC_OK) {
		sane(&m);
		return 0;
	}
	FUZZ_CHECK(st == OCC_ERR_SYNTAX || st == OCC_ERR_BAD_VALUE ||
		   st == OCC_ERR_RANGE, "status %d", (int)st);
	FUZZ_CHECK(d.what[0], "a refusal that says not why");
	FUZZ_CHECK(d.offset <= size, "offset %llu past the input's %zu bytes",
		   (unsigned long long)d.offset, size);
	return 0;
}
