/*
 * kernel_row.c - a kernel's own fields (occcalc/kernel_row.h): one rule
 * each, read from struct occ_kernel_of, so that the library's kernel rows
 * and occcalc's occupancy table (which holds the kernel elsewhere) read
 * them alike; the text table's cells where they differ; and which table
 * a kernel's rows are computed with.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

typedef void (*kernel_val_fn)(const struct occ_kernel_of *o,
			      struct occ_val *v);

#define K o->k
#define VAL(fn) static void fn(const struct occ_kernel_of *o, struct occ_val *v)

static void set_str(struct occ_val *v, const char *s)
{
	v->type = OCC_VAL_STR;
	v->s = s;
}

static void set_opt(struct occ_val *v, int there, int64_t x)
{
	v->type = OCC_VAL_NULL;
	if (there)
		occ_val_uint(v, (uint64_t)x);
}

/* Absent where the kernel is not known; else whether cond holds. */
static void set_bool(struct occ_val *v, int known, int cond)
{
	v->type = known ? OCC_VAL_BOOL : OCC_VAL_NULL;
	v->u = known && cond;
}

VAL(val_kernel)
{
	v->type = OCC_VAL_NULL;
	if (K)
		set_str(v, o->name ? o->name : K->mangled);
}
VAL(val_mangled) { v->type = OCC_VAL_NULL; if (K) set_str(v, K->mangled); }
VAL(val_stack) { set_opt(v, K && K->stack >= 0, K ? K->stack : 0); }
VAL(val_spill_stores)
{
	set_opt(v, K && K->spill_stores >= 0, K ? K->spill_stores : 0);
}
VAL(val_spill_loads)
{
	set_opt(v, K && K->spill_loads >= 0, K ? K->spill_loads : 0);
}
VAL(val_file) { v->type = OCC_VAL_NULL; if (K) set_str(v, K->file); }
VAL(val_container)
{
	static const char *const names[] = {
		[OCC_KSRC_PTXAS] = "ptxas", [OCC_KSRC_CUOBJDUMP] = "cuobjdump",
		[OCC_KSRC_CUBIN] = "cubin", [OCC_KSRC_FATBIN] = "fatbin",
		[OCC_KSRC_ELF] = "elf", [OCC_KSRC_PTX] = "ptx"
	};

	v->type = OCC_VAL_NULL;
	if (K && (unsigned)K->source < sizeof names / sizeof names[0])
		set_str(v, names[K->source]);
}
VAL(val_ptx_only) { set_bool(v, K != NULL, K && K->ptx_only); }
VAL(val_relocatable) { set_bool(v, K != NULL, K && K->relocatable); }
VAL(val_from_ptxas) { set_bool(v, K != NULL, o->from_ptxas); }
VAL(val_bounds_known) { set_bool(v, K != NULL, K && K->bounds_known); }
/* With a GPU named: the kind of image the driver loads there. */
VAL(val_image)
{
	v->type = OCC_VAL_NULL;
	if (K && K->image == OCC_IMAGE_SASS)
		set_str(v, "sass");
	else if (K && K->image == OCC_IMAGE_PTX)
		set_str(v, "ptx");
}

static struct occ_kernel_image image_of(const struct occ_kernel_in *k)
{
	struct occ_kernel_image im = { k->arch, k->cc_major, k->cc_minor,
				       k->ptx_only, k->relocatable,
				       k->sole_image, k->image };

	return im;
}

/* No GPU named, or not from a fatbin: no choice to explain. */
VAL(val_image_why)
{
	struct occ_kernel_image im;
	const char *why;

	v->type = OCC_VAL_NULL;
	if (!K)
		return;
	im = image_of(K);
	if ((why = occ_kernel_image_why(&im)))
		set_str(v, why);
}
VAL(val_max_threads)
{
	set_opt(v, K && K->max_threads > 0, K ? K->max_threads : 0);
}
VAL(val_min_blocks)
{
	set_opt(v, K && K->min_blocks > 0, K ? K->min_blocks : 0);
}
VAL(val_reaches_min)
{
	int known = K && K->min_blocks > 0 && !o->c->no_model;

	set_bool(v, known, known && o->c->r.blocks_per_sm >= K->min_blocks);
}
VAL(val_max_regs) { set_opt(v, K && K->max_regs > 0, K ? K->max_regs : 0); }
VAL(val_ptx_shared)
{
	set_opt(v, K && K->source == OCC_KSRC_PTX && K->static_smem >= 0,
		K ? K->static_smem : 0);
}

/* x y z, or absent when x is 0. */
static void dims(struct occ_val *v, const int d[3])
{
	int i;

	v->type = d[0] > 0 ? OCC_VAL_LIST : OCC_VAL_NULL;
	for (i = 0; i < 3; i++)
		v->nums[i] = d[i] > 0 ? (uint64_t)d[i] : 1;
	v->list = v->nums;
	v->n = 3;
}

static const int no_dims[3];

VAL(val_required_block) { dims(v, K ? K->req_threads : no_dims); }
VAL(val_cluster_dims) { dims(v, K ? K->cluster : no_dims); }

/* Triton's launch, from its cache's metadata. */
#define L o->launch
VAL(val_triton_kernel)
{
	v->type = OCC_VAL_NULL;
	if (K && L && L->name[0])
		set_str(v, L->name);
}
VAL(val_triton_version)
{
	v->type = OCC_VAL_NULL;
	if (K && L && L->version[0])
		set_str(v, L->version);
}
VAL(val_triton_entry)
{
	v->type = OCC_VAL_NULL;
	if (K && L)
		set_str(v, L->entry);
}
VAL(val_num_warps) { set_opt(v, K && L, L ? L->launch.num_warps : 0); }
VAL(val_num_ctas) { set_opt(v, K && L, L ? L->launch.num_ctas : 0); }
#undef L

static const kernel_val_fn vals[OCC_KF_COUNT] = {
	[OCC_KF_KERNEL] = val_kernel, [OCC_KF_MANGLED] = val_mangled,
	[OCC_KF_STACK] = val_stack, [OCC_KF_SPILL_STORES] = val_spill_stores,
	[OCC_KF_SPILL_LOADS] = val_spill_loads, [OCC_KF_FILE] = val_file,
	[OCC_KF_CONTAINER] = val_container, [OCC_KF_PTX_ONLY] = val_ptx_only,
	[OCC_KF_IMAGE] = val_image, [OCC_KF_IMAGE_WHY] = val_image_why,
	[OCC_KF_RELOCATABLE] = val_relocatable,
	[OCC_KF_FROM_PTXAS] = val_from_ptxas,
	[OCC_KF_BOUNDS_KNOWN] = val_bounds_known,
	[OCC_KF_MAX_THREADS] = val_max_threads,
	[OCC_KF_MIN_BLOCKS] = val_min_blocks,
	[OCC_KF_REACHES_MIN] = val_reaches_min,
	[OCC_KF_MAX_REGS] = val_max_regs, [OCC_KF_PTX_SHARED] = val_ptx_shared,
	[OCC_KF_REQUIRED_BLOCK] = val_required_block,
	[OCC_KF_CLUSTER_DIMS] = val_cluster_dims,
	[OCC_KF_TRITON_KERNEL] = val_triton_kernel,
	[OCC_KF_TRITON_VERSION] = val_triton_version,
	[OCC_KF_TRITON_ENTRY] = val_triton_entry,
	[OCC_KF_NUM_WARPS] = val_num_warps, [OCC_KF_NUM_CTAS] = val_num_ctas
};

/* A row saying no image runs names the kernel and its file: what its
 * images hold is not what runs, so nothing else of them is shown. */
static void no_image_of(const struct occ_kernel_in *k,
			struct occ_kernel_in *only)
{
	memset(only, 0, sizeof *only);
	only->mangled = k->mangled;
	only->file = k->file;
	only->source = k->source;
	only->image = OCC_IMAGE_NONE;
	only->stack = -1;
	only->static_smem = only->fatbin_offset = -1;
	only->min_blocks = only->barriers = -1;
	only->spill_stores = only->spill_loads = -1;
	only->bounds_known = 1;
}

/* o as its row shows it: a row saying no image runs shows no_image_of's
 * record (none and only: its room). */
static const struct occ_kernel_of *shown(const struct occ_kernel_of *o,
					 struct occ_kernel_of *none,
					 struct occ_kernel_in *only)
{
	if (!o->k || !o->c || !o->c->no_image)
		return o;
	no_image_of(o->k, only);
	*none = *o;
	none->k = only;
	none->from_ptxas = 0;
	none->launch = NULL;
	return none;
}

void occ_kernel_value(const struct occ_kernel_of *o, size_t id,
		      struct occ_val *v)
{
	struct occ_kernel_of none;
	struct occ_kernel_in only;

	v->type = OCC_VAL_NULL;
	if (id < OCC_KF_COUNT)
		vals[id](shown(o, &none, &only), v);
}

/* ---- The text table's cells ---- */

/* Stored/loaded bytes in one column. */
VAL(text_spills)
{
	v->type = OCC_VAL_NULL;
	if (!K || K->spill_stores < 0)
		return;
	snprintf(v->buf, sizeof v->buf, "%lld/%lld",
		 (long long)K->spill_stores, (long long)K->spill_loads);
	set_str(v, v->buf);
}
/* '?' where the input cannot say (a compiler report). */
VAL(text_max_threads)
{
	val_max_threads(o, v);
	if (K && !K->bounds_known)
		set_str(v, "?");
}
/* The minimum, '!' after it when the prediction falls short; where a
 * cubin keeps only the register cap, the cap: r64. */
VAL(text_min_blocks)
{
	v->type = OCC_VAL_NULL;
	if (K && K->min_blocks > 0)
		snprintf(v->buf, sizeof v->buf, "%d%s", K->min_blocks,
			 o->c->r.blocks_per_sm < K->min_blocks ? "!" : "");
	else if (K && K->max_regs > 0 && o->c->a &&
		 K->max_regs < o->c->a->max_regs_per_thread)
		snprintf(v->buf, sizeof v->buf, "r%d", K->max_regs);
	else if (K && !K->bounds_known)
		snprintf(v->buf, sizeof v->buf, "?");
	else
		return;
	set_str(v, v->buf);
}
#undef K

void occ_kernel_text(const struct occ_kernel_of *o, size_t id,
		     struct occ_val *v)
{
	struct occ_kernel_of none;
	struct occ_kernel_in only;
	const struct occ_kernel_of *s = shown(o, &none, &only);

	if (id == OCC_KF_SPILL_STORES)
		text_spills(s, v);
	else if (id == OCC_KF_MAX_THREADS)
		text_max_threads(s, v);
	else if (id == OCC_KF_MIN_BLOCKS)
		text_min_blocks(s, v);
	else
		occ_kernel_value(o, id, v);
}

/* ---- The kind ---- */

static void get_kernel_field(const void *p, const struct occ_field *f,
			     struct occ_val *v)
{
	occ_kernel_value(&((const struct occ_kernel_row *)p)->of, f->arg, v);
}

static void text_kernel_field(const void *p, const struct occ_field *f,
			      struct occ_val *v)
{
	occ_kernel_text(&((const struct occ_kernel_row *)p)->of, f->arg, v);
}

#define OCC_KERNEL_TEXT(fn) fn
#define OCC_KERNEL_FIELD(name, type, desc, get, id, ...) \
	{ name, type, desc, get, NULL, __VA_ARGS__, 0, id },

static const struct occ_field fields[] = {
	{ "kernel", OCC_FT_STR, OCC_KERNEL_NAME_DESC, get_kernel_field, NULL,
	  { NULL, 0, 2, 0, NULL, 0 }, 0, OCC_KF_KERNEL },
	OCC_KERNEL_FIELDS
};

const struct occ_row_kind occ_kernel_kind = {
	"kernels", fields, sizeof fields / sizeof fields[0], &occ_config_kind
};

/* ---- Its table ---- */

enum occ_status occ_kernel_table(const struct occ_tables *t,
				 const struct occ_arch *named,
				 int named_cc_major, int named_cc_minor,
				 const struct occ_kernel_in *k,
				 const struct occ_arch **a)
{
	struct occ_kernel_image im = image_of(k);

	*a = named;
	if (named && occ_kernel_runs_on(&im, named_cc_major, named_cc_minor))
		return OCC_OK;
	*a = t ? occ_tables_find(t, k->cc_major, k->cc_minor) : NULL;
	return *a ? OCC_OK : OCC_ERR_UNKNOWN_ARCH;
}
