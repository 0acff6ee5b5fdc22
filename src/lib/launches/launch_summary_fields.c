/*
 * launch_summary_fields.c - the fields of a summary's row (struct
 * occ_launch_summary_row, occcalc/launch_summary.h): a kernel's (or
 * operator's) launches on one GPU, summed. What `occcalc --launches
 * --summary -f json` prints and a program reads; the text summary shows
 * the same figures.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

#define ROW const struct occ_launch_summary_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
/* The sums the row's percentages are of. */
#define ACC const struct occ_launch_acc *a = \
	occ_launch_summary_weights(r->t, r->g)

void occ_launch_summary_row_make(const struct occ_launch_totals *t,
				 const struct occ_launch_summary_group *g,
				 struct occ_launch_summary_row *row)
{
	memset(row, 0, sizeof *row);
	row->t = t;
	row->g = g;
	row->c = occ_launch_summary_heaviest(g);
	row->has_headroom = row->c &&
		occ_launch_headroom(&row->c->dev->arch, &row->c->l,
				    &row->h) == OCC_OK;
}

static void set_str(struct occ_val *v, const char *s)
{
	v->type = s ? OCC_VAL_STR : OCC_VAL_NULL;
	v->s = s;
}

/* A weighted mean, sum over weight; absent where nothing weighs. */
static void set_mean(struct occ_val *v, const struct occ_field *f,
		     double sum, double weight)
{
	if (weight > 0)
		occ_val_dec(v, f, sum / weight);
	else
		v->type = OCC_VAL_NULL;
}

/* part of whole in percent, as the text summary computes it. */
static void set_pct(struct occ_val *v, const struct occ_field *f,
		    double part, double whole)
{
	set_mean(v, f, 100 * part, whole);
}

static void set_int(struct occ_val *v, int64_t x)
{
	v->type = x < 0 ? OCC_VAL_NULL : OCC_VAL_UINT;
	v->u = (uint64_t)x;
}

GETTER(get_kernel)
{
	ROW;
	set_str(v, r->t->by == OCC_LAUNCH_BY_KERNEL ? r->g->name : NULL);
}
GETTER(get_op)
{
	ROW;
	set_str(v, r->t->by == OCC_LAUNCH_BY_OP && !r->g->unnamed ? r->g->name
							     : NULL);
}
GETTER(get_device) { ROW; set_int(v, r->g->device); }
GETTER(get_launches) { ROW; occ_val_uint(v, r->g->launches); }
GETTER(get_modelled) { ROW; occ_val_uint(v, r->g->modelled); }
GETTER(get_shapes) { ROW; occ_val_uint(v, r->g->n_shapes); }
GETTER(get_shapes_capped)
{
	ROW;
	v->type = OCC_VAL_BOOL;
	v->u = (uint64_t)r->g->shapes_capped;
}
GETTER(get_gpu_time) { ROW; occ_val_dec(v, f, r->g->t.all / 1e6); }
GETTER(get_weighted_by)
{
	ROW;
	set_str(v, r->t->t.all > 0 ? "time" : "launch");
}
GETTER(get_time)
{
	ROW;
	ACC;
	set_pct(v, f, a->all, occ_launch_summary_weights(r->t, NULL)->all);
}
GETTER(get_occupancy)
{
	ROW;
	ACC;
	set_mean(v, f, a->occ, a->modelled);
}
GETTER(get_below25) { ROW; ACC; set_pct(v, f, a->below25, a->modelled); }
GETTER(get_below50) { ROW; ACC; set_pct(v, f, a->below50, a->modelled); }
GETTER(get_tail) { ROW; ACC; set_pct(v, f, a->tail, a->modelled); }

/* The first (arg 0) or second (arg 1) set of limiters by weight, and
 * its share (the _pct fields). */
static int limiter_of(const struct occ_launch_summary_row *r,
		      const struct occ_field *f, unsigned *set, double *pct)
{
	const struct occ_launch_acc *a = occ_launch_summary_weights(r->t, r->g);
	unsigned first, second;
	int two = occ_launch_limiter_mix(a, &first, &second);

	if (a->modelled <= 0 || (f->arg && !two))
		return 0;
	*set = f->arg ? second : first;
	*pct = 100 * a->lim[*set] / a->modelled;
	return 1;
}
GETTER(get_limiter)
{
	unsigned set;
	double pct;

	ROW;
	if (limiter_of(r, f, &set, &pct))
		occ_val_limiters(v, occ_launch_limiter_resources(set));
	else
		v->type = OCC_VAL_NULL;
}
GETTER(get_limiter_pct)
{
	unsigned set;
	double pct;

	ROW;
	if (limiter_of(r, f, &set, &pct))
		occ_val_dec(v, f, pct);
	else
		v->type = OCC_VAL_NULL;
}
GETTER(get_kineto)
{
	ROW;
	ACC;
	set_mean(v, f, a->kineto, a->kineto_w);
}
GETTER(get_achieved)
{
	ROW;
	ACC;
	set_mean(v, f, a->achieved, a->achieved_w);
}
GETTER(get_achieved_modelled)
{
	ROW;
	ACC;
	set_mean(v, f, a->achieved_occ, a->achieved_w);
}

/* The heaviest configuration's. */
static const struct occ_launch_record *
config_of(const struct occ_launch_summary_row *r)
{
	return r->c ? &r->c->l : NULL;
}
#define C config_of(r)
GETTER(get_arch)
{
	ROW;
	set_str(v, r->c && r->c->dev->arch_status == OCC_OK ? r->c->dev->tag
							    : NULL);
}
GETTER(get_block)
{
	int i;

	ROW;
	if (!C || C->block[0] < 0) {
		v->type = OCC_VAL_NULL;
		return;
	}
	for (i = 0; i < 3; i++)
		v->nums[i] = (uint64_t)C->block[i];
	v->type = OCC_VAL_LIST;
	v->list = v->nums;
	v->n = 3;
}
GETTER(get_regs) { ROW; set_int(v, C ? C->regs : -1); }
GETTER(get_static_smem) { ROW; set_int(v, C ? C->static_smem : -1); }
GETTER(get_dynamic_smem)
{
	ROW;
	set_int(v, C && C->static_smem >= 0 ? C->dynamic_smem : -1);
}
GETTER(get_smem_total) { ROW; set_int(v, C ? C->smem_total : -1); }
GETTER(get_blocks_per_sm) { ROW; set_int(v, r->c ? r->c->r.blocks_per_sm : -1); }
GETTER(get_headroom_regs)
{
	ROW;
	set_int(v, r->has_headroom ? (int64_t)r->h.regs.keep_max : -1);
}
GETTER(get_headroom_smem)
{
	ROW;
	set_int(v, r->has_headroom ? (int64_t)r->h.smem.keep_max : -1);
}

#define F(name, type, desc, get) { name, type, desc, get, NULL, \
	{ NULL, 0, 2, OCC_TXT_DASH, NULL, 0 }, 0, 0 }
#define NTH(name, type, desc, get, n) { name, type, desc, get, NULL, \
	{ NULL, 0, 2, OCC_TXT_DASH, NULL, 0 }, 0, n }

static const struct occ_field fields[] = {
	F("kernel", OCC_FT_STR, "the kernel's name, demangled (--by kernel; "
	  "its first 8192 bytes)", get_kernel),
	F("op", OCC_FT_STR, "the operator that launched the kernels (--by op; "
	  "absent: launches of no known operator)", get_op),
	F("device", OCC_FT_INT, "the device they ran on, as the trace numbers it",
	  get_device),
	F("launches", OCC_FT_INT, "its launches", get_launches),
	F("launches_modelled", OCC_FT_INT, "those with occupancy figures",
	  get_modelled),
	F("shapes", OCC_FT_INT, "distinct launch shapes (grid, block, cluster, "
	  "registers, shared memory)", get_shapes),
	F("shapes_capped", OCC_FT_BOOL, "more shapes than counted (counting stops "
	  "at 1048576, all rows together)", get_shapes_capped),
	F("gpu_time_ms", OCC_FT_DEC, "the GPU time of its launches, ms",
	  get_gpu_time),
	F("weighted_by", OCC_FT_STR, "what the percentages weigh launches by: "
	  "time, or launch where no launch has a duration", get_weighted_by),
	F("time_pct", OCC_FT_DEC, "its share of all launches' GPU time (or of "
	  "the launches), percent", get_time),
	F("occupancy_pct", OCC_FT_DEC, "occupancy of its modelled launches, "
	  "weighted, percent", get_occupancy),
	F("below_25_pct", OCC_FT_DEC, "the weight of its launches below 25 % "
	  "occupancy, percent of the modelled", get_below25),
	F("below_50_pct", OCC_FT_DEC, "the weight of its launches below 50 % "
	  "occupancy, percent of the modelled", get_below50),
	F("tail_pct", OCC_FT_DEC, "the weight in partial last waves (the waves "
	  "taken as equally long), percent of the modelled", get_tail),
	NTH("limiter", OCC_FT_SET, "the set of limiting resources that holds the "
	    "most weight ([]: cannot launch)", get_limiter, 0),
	NTH("limiter_pct", OCC_FT_DEC, "its share of the modelled weight, percent",
	    get_limiter_pct, 0),
	NTH("second_limiter", OCC_FT_SET, "the set that holds the most after it",
	    get_limiter, 1),
	NTH("second_limiter_pct", OCC_FT_DEC, "its share, percent",
	    get_limiter_pct, 1),
	F("kineto_est_pct", OCC_FT_DEC, "Kineto's 'est. achieved occupancy %' "
	  "where it gave one, weighted alike", get_kineto),
	F("achieved_occupancy_pct", OCC_FT_DEC, "the achieved occupancy of the "
	  "launches --trace --achieved measured, weighted alike", get_achieved),
	F("achieved_modelled_pct", OCC_FT_DEC, "the occupancy of the same "
	  "launches, weighted alike", get_achieved_modelled),
	F("arch", OCC_FT_STR, "the architecture of its heaviest configuration "
	  "(block, registers, shared memory: the most weight)", get_arch),
	F("block", OCC_FT_LIST, "that configuration's block, [x, y, z] threads",
	  get_block),
	F("regs", OCC_FT_INT, "its registers per thread", get_regs),
	F("static_smem", OCC_FT_INT, "its static shared memory per block, bytes "
	  "(absent: not recorded apart)", get_static_smem),
	F("dynamic_smem", OCC_FT_INT, "its dynamic shared memory per block, bytes "
	  "(absent: not recorded apart)", get_dynamic_smem),
	F("smem_total", OCC_FT_INT, "its static plus dynamic shared memory per "
	  "block, bytes", get_smem_total),
	F("blocks_per_sm", OCC_FT_INT, "its active blocks per SM",
	  get_blocks_per_sm),
	F("headroom_regs", OCC_FT_INT, "the most registers per thread that keep "
	  "its blocks per SM", get_headroom_regs),
	F("headroom_dynamic_smem", OCC_FT_INT, "the most dynamic shared memory "
	  "per block that keeps them, bytes", get_headroom_smem),
};

const struct occ_row_kind occ_launch_summary_kind = {
	"launch_summary", fields, sizeof fields / sizeof fields[0], NULL
};
