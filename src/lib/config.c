/*
 * config.c - one configuration's row (occcalc/config.h): the occupancy at
 * the block size given, or the best one, and what follows from it: the
 * sizes that tie, the waves of a grid, the headroom, the most dynamic
 * shared memory. What the command line prints as an occupancy row, and a
 * program computes the same way.
 */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

static void shape_text(char *buf, size_t n, const uint16_t dim[3])
{
	if (!dim[0])
		buf[0] = '\0';
	else
		snprintf(buf, n, dim[2] ? "%ux%ux%u" : dim[1] ? "%ux%u" : "%u",
			 dim[0], dim[1], dim[2]);
}

/* The occupancy at q's block size, its dynamic shared memory as q's
 * growth gives it there. */
static enum occ_status at_block(const struct occ_arch *a,
				const struct occ_config_query *q,
				struct occ_config_row *row)
{
	row->k.dynamic_smem = occ_smem_growth_at(&q->growth, a,
						 q->k.block_size);
	if (row->k.dynamic_smem > OCC_BYTES_MAX)
		return OCC_ERR_RANGE;
	return occ_compute(a, &row->k, &row->r);
}

static enum occ_status at_best(const struct occ_arch *a,
			       const struct occ_config_query *q,
			       struct occ_config_row *row)
{
	struct occ_best *best = &row->best;
	enum occ_status st;
	int i;

	if ((st = occ_best_block_size(a, &q->k, &q->growth, best)) != OCC_OK)
		return st;
	row->k.block_size = best->block_size ? best->block_size
					      : a->warp_size;
	row->k.dynamic_smem = best->dynamic_smem;
	row->r = best->result;
	row->have_best = 1;
	for (i = 0; i < best->n_ties; i++)
		row->ties[i] = (uint64_t)best->ties[i];
	return OCC_OK;
}

enum occ_status occ_config_compute(const struct occ_arch *a,
				   const struct occ_config_query *q,
				   struct occ_config_row *row)
{
	enum occ_status st;

	if (!a || !q || !row)
		return OCC_ERR_INVALID_INPUT;
	memset(row, 0, sizeof *row);
	row->a = a;
	snprintf(row->arch, sizeof row->arch, "sm_%d%d", a->cc_major,
		 a->cc_minor);
	row->k = q->k;
	st = q->k.block_size ? at_block(a, q, row) : at_best(a, q, row);
	if (st != OCC_OK)
		return st;
	row->sms = q->sms;
	row->grid = q->grid;
	row->regs_assumed = q->regs_assumed;
	shape_text(row->block_shape, sizeof row->block_shape, q->shape);
	row->have_waves = row->grid && row->sms &&
			  occ_waves(&row->r, row->grid, row->sms, &row->w) ==
			  OCC_OK;
	if (q->needs & OCC_CONFIG_HEADROOM)
		row->have_headroom = occ_headroom(a, &row->k, &row->h) == OCC_OK;
	if (q->needs & OCC_CONFIG_MAX_DYN)
		row->have_max_dyn = occ_max_dynamic_smem(a, &row->k,
							 &row->max_dyn) == OCC_OK;
	return OCC_OK;
}

void occ_config_default_fields(const struct occ_config_query *q,
			       unsigned with, char *buf, size_t n)
{
	const char *rest = OCC_CONFIG_FIELDS + sizeof "arch,block" - 1;

	snprintf(buf, n, "arch,block%s%s%s", q->shape[0] ? ",block_shape" : "",
		 rest, with & OCC_CONFIG_HEADROOM ? OCC_CONFIG_HEADROOM_FIELDS
						  : "");
}
