/*
 * kernel_row_compute.c - a kernel's row computed (occcalc/kernel_row.h):
 * its resources over the launch's defaults, Triton's launch where the
 * caller does not give one, the rows without the model's figures (PTX
 * only, no image running on the GPU named), and the whole row on the
 * table occ_kernel_table chooses.
 */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

void occ_kernel_row_resources(const struct occ_kernel_in *k,
			      int barriers_given, struct occ_kernel *kk)
{
	kk->regs_per_thread = k->regs;
	kk->static_smem = k->static_smem > 0 ? (uint64_t)k->static_smem : 0;
	kk->max_threads = k->max_threads;
	if (k->barriers >= 0 && !barriers_given)
		kk->barriers = k->barriers > OCC_MAX_BARRIERS_PER_BLOCK
			       ? OCC_MAX_BARRIERS_PER_BLOCK : k->barriers;
}

unsigned occ_kernel_row_launch(const struct occ_triton_entry *L,
			       int block_given, int smem_given,
			       uint64_t *block, uint64_t *smem)
{
	unsigned set = 0;

	if (!L)
		return 0;
	if (!smem_given) {
		*smem = (uint64_t)L->launch.dynamic_smem;
		set |= OCC_KERNEL_LAUNCH_SMEM;
	}
	if (!block_given) {
		*block = (uint64_t)L->launch.block;
		set |= OCC_KERNEL_LAUNCH_BLOCK;
	}
	return set;
}

void occ_kernel_row_no_image(struct occ_config_row *c)
{
	memset(c, 0, sizeof *c);
	c->no_model = c->no_image = 1;
}

int occ_kernel_row_bare(const struct occ_kernel_in *k, int block,
			struct occ_config_row *c)
{
	if (k->image != OCC_IMAGE_NONE && !k->ptx_only)
		return 0;
	if (k->image == OCC_IMAGE_NONE) {
		occ_kernel_row_no_image(c);
		return 1;
	}
	memset(c, 0, sizeof *c);
	c->no_model = 1;
	snprintf(c->arch, sizeof c->arch, "%s", k->arch);
	c->k.block_size = block;
	return 1;
}

enum occ_status occ_kernel_row_compute(const struct occ_kernel_query *q,
				       const struct occ_kernel_of *o,
				       struct occ_kernel_row *row)
{
	struct occ_config_query cq = q->q;
	const struct occ_arch *a;
	uint64_t block = (uint64_t)cq.k.block_size;
	enum occ_status st;

	row->of = *o;
	row->of.c = &row->c;
	if (occ_kernel_row_bare(o->k, q->block_given ? cq.k.block_size : 0,
				&row->c))
		return OCC_OK;
	if ((st = occ_kernel_table(q->tables, q->named, q->named_cc_major,
				   q->named_cc_minor, o->k, &a)) != OCC_OK)
		return st;
	occ_kernel_row_resources(o->k, q->barriers_given, &cq.k);
	if (occ_kernel_row_launch(o->launch, q->block_given, q->smem_given,
				  &block, &cq.growth.fixed) &
	    OCC_KERNEL_LAUNCH_BLOCK)
		cq.k.block_size = (int)block;
	cq.k.dynamic_smem = cq.growth.fixed;
	if ((st = occ_config_compute(a, &cq, &row->c)) != OCC_OK)
		return st;
	snprintf(row->c.arch, sizeof row->c.arch, "%s", o->k->arch);
	return OCC_OK;
}
