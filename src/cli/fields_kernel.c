/*
 * fields_kernel.c - the getters of a kernel's own fields (--kernels):
 * the library's (occ_kernel_value, occcalc/kernel_row.h) read from the
 * row's kernel, and the driver's reading.
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

void kernel_in_of(const struct kernel_info *k, struct occ_kernel_in *in)
{
	const struct kernel_more *m = kernel_more(k);

	memset(in, 0, sizeof *in);
	in->mangled = k->mangled;
	in->file = k->file;
	snprintf(in->arch, sizeof in->arch, "%s", k->arch ? k->arch : "");
	in->cc_major = k->cc_major;
	in->cc_minor = k->cc_minor;
	in->source = (enum occ_kernel_source)k->source;
	in->regs = k->regs;
	in->static_smem = k->static_smem;
	in->barriers = k->barriers;
	in->stack = k->stack;
	in->max_threads = k->max_threads;
	in->min_blocks = k->min_blocks;
	in->max_regs = k->max_regs;
	in->bounds_known = k->bounds_known;
	memcpy(in->req_threads, m->req_threads, sizeof in->req_threads);
	memcpy(in->cluster, m->cluster, sizeof in->cluster);
	in->spill_stores = m->spill_stores;
	in->spill_loads = m->spill_loads;
	in->line = m->line;
	in->fatbin_offset = k->fatbin_offset;
	in->image = (enum occ_bin_image)k->image;
	in->sole_image = k->sole_image;
	in->ptx_only = k->ptx_only;
	in->relocatable = k->relocatable;
}

/* The library's view of row r's kernel (in: its record). */
static void kernel_of(const struct occ_row *r, struct occ_kernel_of *o,
		      struct occ_kernel_in *in)
{
	memset(o, 0, sizeof *o);
	o->c = &r->c;
	if (!r->ki)
		return;
	kernel_in_of(r->ki, in);
	o->k = in;
	o->name = r->ki->name;
	o->from_ptxas = r->ki->from_ptxas;
	o->launch = kernel_more(r->ki)->launch;
}

GETTER(get_kernel_field)
{
	struct occ_kernel_of o;
	struct occ_kernel_in in;
	const struct occ_row *r = p;

	kernel_of(r, &o, &in);
	occ_kernel_value(&o, f->arg, v);
}

GETTER(text_kernel_field)
{
	struct occ_kernel_of o;
	struct occ_kernel_in in;
	const struct occ_row *r = p;

	kernel_of(r, &o, &in);
	occ_kernel_text(&o, f->arg, v);
}

#define FN r->gpu->func
#define HAVE_FN (r->gpu && r->gpu->have_func)
KOPT_GETTER(get_api_regs, HAVE_FN, FN.regs)
KOPT_GETTER(get_api_static_smem, HAVE_FN, FN.static_smem)
KOPT_GETTER(get_api_stack, HAVE_FN, FN.local)
KOPT_GETTER(get_api_max_threads, HAVE_FN, FN.max_threads)
#undef FN
#undef HAVE_FN
