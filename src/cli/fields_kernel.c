/*
 * fields_kernel.c - the getters of a kernel's own fields (--kernels):
 * where it came from, its stack and spills, its launch bounds, and the
 * driver's reading.
 * Their entries are in the occupancy rows' one field table
 * (fields_occupancy.c), which getters.h declares them to.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"
#include "getters.h"

/* Defined here, used by that table. */
#undef GETTER
#define GETTER(fn) GETTER_SIG(fn)

#define K r->ki
KOPT_GETTER(get_stack, K && K->stack >= 0, K->stack)
KOPT_GETTER(get_spill_stores, K && kernel_more(K)->spill_stores >= 0,
	    kernel_more(K)->spill_stores)
KOPT_GETTER(get_spill_loads, K && kernel_more(K)->spill_loads >= 0,
	    kernel_more(K)->spill_loads)
/* The text table: stored/loaded bytes in one column. */
GETTER(text_spills)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (!K || kernel_more(K)->spill_stores < 0)
		return;
	snprintf(v->buf, sizeof v->buf, "%lld/%lld",
		 (long long)kernel_more(K)->spill_stores,
		 (long long)kernel_more(K)->spill_loads);
	set_str(v, v->buf);
}
GETTER(get_file) { ROW; v->type = OCC_VAL_NULL; if (K) set_str(v, K->file); }
GETTER(get_container)
{
	static const char *const names[] = {
		[OCC_KSRC_PTXAS] = "ptxas", [OCC_KSRC_CUOBJDUMP] = "cuobjdump",
		[OCC_KSRC_CUBIN] = "cubin", [OCC_KSRC_FATBIN] = "fatbin",
		[OCC_KSRC_ELF] = "elf", [OCC_KSRC_PTX] = "ptx"
	};
	ROW;
	v->type = OCC_VAL_NULL;
	if (K)
		set_str(v, names[K->source]);
}
KBOOL_GETTER(get_ptx_only, K, K->ptx_only)
KBOOL_GETTER(get_bounds_known, K, K->bounds_known)
KBOOL_GETTER(get_relocatable, K, K->relocatable)
KBOOL_GETTER(get_from_ptxas, K, K->from_ptxas)
/* With a GPU named: the kind of image the driver loads there. */
GETTER(get_image)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (K && K->image == OCC_IMAGE_SASS)
		set_str(v, "sass");
	else if (K && K->image == OCC_IMAGE_PTX)
		set_str(v, "ptx");
}
GETTER(get_image_why)
{
	const char *why;

	ROW;
	v->type = OCC_VAL_NULL;
	/* No GPU named, or not from a fatbin: no choice to explain. */
	if (K && (why = kernel_image_why(K)))
		set_str(v, why);
}
KOPT_GETTER(get_max_threads, K && K->max_threads > 0, K->max_threads)
/* The text table: '?' where the input cannot say (a compiler report). */
GETTER(text_max_threads)
{
	ROW;
	get_max_threads(p, f, v);
	if (K && !K->bounds_known)
		set_str(v, "?");
}
KOPT_GETTER(get_min_blocks, K && K->min_blocks > 0, K->min_blocks)
KBOOL_GETTER(get_reaches_min, K && K->min_blocks > 0 && !r->c.no_model,
	     r->c.r.blocks_per_sm >= K->min_blocks)
/* The text table: the minimum, '!' after it when the prediction falls
 * short; where a cubin keeps only the register cap, the cap: r64. */
GETTER(text_min_blocks)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (K && K->min_blocks > 0)
		snprintf(v->buf, sizeof v->buf, "%d%s", K->min_blocks,
			 r->c.r.blocks_per_sm < K->min_blocks ? "!" : "");
	else if (K && K->max_regs > 0 && r->c.a &&
		 K->max_regs < r->c.a->max_regs_per_thread)
		snprintf(v->buf, sizeof v->buf, "r%d", K->max_regs);
	else if (K && !K->bounds_known)
		snprintf(v->buf, sizeof v->buf, "?");
	else
		return;
	set_str(v, v->buf);
}
KOPT_GETTER(get_max_regs, K && K->max_regs > 0, K->max_regs)
KOPT_GETTER(get_ptx_shared, K && K->source == OCC_KSRC_PTX && K->static_smem >= 0,
	    K->static_smem)
/* x y z, or absent when x is 0. */
static void dims(struct occ_val *v, const int d[3])
{
	uint64_t *l = v->nums;
	int i;

	v->type = d[0] > 0 ? OCC_VAL_LIST : OCC_VAL_NULL;
	for (i = 0; i < 3; i++)
		l[i] = d[i] > 0 ? (uint64_t)d[i] : 1;
	v->list = l;
	v->n = 3;
}
GETTER(get_required_block)
{
	static const int none[3];
	ROW;
	dims(v, K ? kernel_more(K)->req_threads : none);
}
GETTER(get_cluster_dims)
{
	static const int none[3];
	ROW;
	dims(v, K ? kernel_more(K)->cluster : none);
}
/* Triton's launch, from its cache's metadata. */
#define L kernel_more(r->ki)->launch
#define HAVE_L (r->ki && kernel_more(r->ki)->launch)
GETTER(get_triton_kernel) { ROW; v->type = OCC_VAL_NULL;
	if (HAVE_L && L->name[0]) set_str(v, L->name); }
GETTER(get_triton_version) { ROW; v->type = OCC_VAL_NULL;
	if (HAVE_L && L->version[0]) set_str(v, L->version); }
GETTER(get_triton_entry) { ROW; v->type = OCC_VAL_NULL;
	if (HAVE_L) set_str(v, L->entry); }
KOPT_GETTER(get_num_warps, HAVE_L, L->launch.num_warps)
KOPT_GETTER(get_num_ctas, HAVE_L, L->launch.num_ctas)
#undef L
#undef HAVE_L
#define FN r->gpu->func
#define HAVE_FN (r->gpu && r->gpu->have_func)
KOPT_GETTER(get_api_regs, HAVE_FN, FN.regs)
KOPT_GETTER(get_api_static_smem, HAVE_FN, FN.static_smem)
KOPT_GETTER(get_api_stack, HAVE_FN, FN.local)
KOPT_GETTER(get_api_max_threads, HAVE_FN, FN.max_threads)
#undef FN
#undef HAVE_FN
#undef K
