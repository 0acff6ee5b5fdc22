/*
 * config_fields.c - the fields of one configuration's row (struct
 * occ_config_row, occcalc/config.h): one entry each, its name, type,
 * description, and how to read it from the row. The command line's
 * occupancy rows are these, and its own fields (the kernel read, the GPU,
 * clusters, a partition) after them.
 */
#include <stddef.h>
#include <stdio.h>

#include "occcalc.h"

#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define ROW const struct occ_config_row *r = p; (void)f
/* The model's values: absent from a row without one (PTX only). */
#define MODEL_ROW ROW; if (r->no_model) { v->type = OCC_VAL_NULL; return; }
/* A number of the row, always there. */
#define UINT_GETTER(fn, expr) GETTER(fn) { MODEL_ROW; v->type = OCC_VAL_UINT; \
	v->u = (uint64_t)(expr); }
/* A number there when cond holds, else absent. */
#define OPT_GETTER(fn, cond, expr) GETTER(fn) { MODEL_ROW; \
	v->type = (cond) ? OCC_VAL_UINT : OCC_VAL_NULL; \
	if (cond) v->u = (uint64_t)(expr); }
#define BOOL_GETTER(fn, expr) GETTER(fn) { MODEL_ROW; v->type = OCC_VAL_BOOL; \
	v->u = (expr) != 0; }

static void set_str(struct occ_val *v, const char *s)
{
	v->type = OCC_VAL_STR;
	v->s = s;
}

GETTER(get_arch) { ROW; set_str(v, r->arch); }
UINT_GETTER(get_block, r->k.block_size)
GETTER(get_block_shape)
{
	ROW;
	if (r->block_shape[0])
		set_str(v, r->block_shape);
	else
		v->type = OCC_VAL_NULL;
}
UINT_GETTER(get_regs, r->k.regs_per_thread)
UINT_GETTER(get_smem, r->k.dynamic_smem)
UINT_GETTER(get_static_smem, r->k.static_smem)
/* The model's result, where the row has one (not PTX only). */
static const struct occ_result *row_result(const void *p)
{
	const struct occ_config_row *r = p;

	return r->no_model ? NULL : &r->r;
}
OCC_RESULT_GETTERS(row_result)

/* In a text table, a configuration that cannot launch shows why. */
GETTER(text_limiter)
{
	ROW;
	if (r->r.blocks_per_sm) {
		get_result_limiter(p, f, v);
	} else if (r->r.reason == OCC_ABOVE_LAUNCH_BOUNDS) {
		snprintf(v->buf, sizeof v->buf, "cannot launch: "
			 "__launch_bounds__(%d)", r->k.max_threads);
		set_str(v, v->buf);
	} else {
		set_str(v, occ_reason_name(r->r.reason));
	}
}

OPT_GETTER(get_carveout, r->k.carveout != OCC_CARVEOUT_DEFAULT, r->k.carveout)
BOOL_GETTER(get_optin, r->k.optin)
BOOL_GETTER(get_needs_optin, r->r.needs_optin)
UINT_GETTER(get_barriers, r->k.barriers)
GETTER(get_reason)
{
	ROW;
	if (r->no_image) {
		set_str(v, "no_image");
		return;
	}
	if (r->no_model)
		v->type = OCC_VAL_NULL;
	else if (r->r.reason == OCC_LAUNCHES)
		v->type = OCC_VAL_NULL;
	else
		set_str(v, occ_reason_name(r->r.reason));
}
OPT_GETTER(get_min_grid, r->sms,
	   (uint64_t)r->r.blocks_per_sm * (uint64_t)r->sms)
GETTER(get_ties)
{
	MODEL_ROW;
	v->type = r->have_best ? OCC_VAL_LIST : OCC_VAL_NULL;
	v->list = r->ties;
	v->n = r->have_best ? (size_t)r->best.n_ties : 0;
}
OPT_GETTER(get_grid, r->grid, r->grid)
OPT_GETTER(get_waves, r->have_waves, r->w.waves)
OPT_GETTER(get_tail, r->have_waves, r->w.tail_blocks)
GETTER(get_launch_occupancy)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->have_waves)
		occ_val_pct(v, (uint64_t)r->w.grid * (uint64_t)r->r.warps_per_block,
			(uint64_t)r->w.waves * (uint64_t)r->w.sms *
			(uint64_t)r->r.max_warps_per_sm);
}

/* No image it loads, or a block that does not fit: false; PTX the
 * driver would compile: unknown until then. */
GETTER(get_can_launch)
{
	ROW;
	v->type = OCC_VAL_BOOL;
	if (r->no_image)
		v->u = 0;
	else if (r->no_model)
		v->type = OCC_VAL_NULL;
	else
		v->u = r->r.blocks_per_sm > 0;
}

OPT_GETTER(get_max_dyn, r->have_max_dyn, r->max_dyn)



/* Headroom: one getter for both steps' members. */

enum step_member { KEEP_MAX, GAIN_AT, GAIN_BLOCKS, DROP_FROM, DROP_TO,
		   DROP_BLOCKS };

GETTER(get_step)
{
	ROW;
	const struct occ_step *s = f->arg & 8 ? &r->h.smem : &r->h.regs;
	int gain = s->has_gain, drop = s->has_drop;

	v->type = OCC_VAL_NULL;
	if (!r->have_headroom)
		return;
	switch ((enum step_member)(f->arg & 7)) {
	case KEEP_MAX: v->u = s->keep_max; break;
	case GAIN_AT: v->u = s->gain_at; if (!gain) return; break;
	case GAIN_BLOCKS: v->u = (uint64_t)s->gain_blocks; if (!gain) return; break;
	case DROP_FROM: v->u = s->drop_from; if (!drop) return; break;
	case DROP_TO: v->u = s->drop_to; if (!drop) return; break;
	case DROP_BLOCKS: v->u = (uint64_t)s->drop_blocks; if (!drop) return; break;
	}
	v->type = OCC_VAL_UINT;
}

#define LIMIT(name, member, desc) { name, OCC_FT_INT, desc, get_result_limit, \
	NULL, { 0 }, 0, OCC_RESULT_AT(member) }
/* A field of the model's result, shown as text columns show it. */
#define RESULT(name, type, desc, get, member, text) { name, type, desc, get, \
	NULL, text, 0, OCC_RESULT_AT(member) }
#define COL(label, width, gap, flags, get) { label, width, gap, flags, get, 0 }
#define STEP(name, member, desc) { name, OCC_FT_INT, desc, get_step, NULL, \
	{ 0 }, OCC_CONFIG_HEADROOM, member }
#define PLAIN(name, type, desc, get) { name, type, desc, get, NULL, { 0 }, 0, 0 }
#define SMEM_STEP 8

static const struct occ_field fields[] = {
	{ "arch", OCC_FT_STR, "the architecture, sm_XY", get_arch, NULL,
	  { NULL, -7, 2, 0, NULL, 0 }, 0, 0 },
	{ "block", OCC_FT_INT, "threads per block", get_block, NULL,
	  { NULL, 6, 1, 0, NULL, 0 }, 0, 0 },
	{ "block_shape", OCC_FT_STR, "the block's shape as --block gave it, "
	  "16x16 or 8x8x4 (absent: a thread count)", get_block_shape, NULL,
	  { "shape", -8, 2, OCC_TXT_DASH, NULL, 0 }, 0, 0 },
	{ "regs", OCC_FT_INT, "registers per thread", get_regs, NULL,
	  { NULL, 5, 1, 0, NULL, 0 }, 0, 0 },
	{ "smem", OCC_FT_INT, "dynamic shared memory per block, bytes", get_smem,
	  NULL, { "dyn smem", 9, 1, 0, NULL, 0 }, 0, 0 },
	{ "static_smem", OCC_FT_INT, "static shared memory per block, bytes",
	  get_static_smem, NULL, { "static", 9, 1, 0, NULL, 0 }, 0, 0 },
	RESULT("blocks_per_sm", OCC_FT_INT, "active blocks per SM", get_result_int,
	       blocks_per_sm, COL("blocks", 7, 1, 0, NULL)),
	RESULT("warps_per_sm", OCC_FT_INT, "active warps per SM", get_result_int,
	       warps_per_sm, COL("warps", 6, 1, 0, NULL)),
	RESULT("occupancy_pct", OCC_FT_DEC, "active warps over the SM's warp "
	       "slots, percent", get_result_occupancy, warps_per_sm,
	       COL("occupancy", 10, 1, OCC_TXT_PCT, NULL)),
	RESULT("limiter", OCC_FT_SET, "the resources that limit blocks_per_sm: "
	       "warps, registers, shared_memory, blocks, barriers",
	       get_result_limiter, limiters, COL(NULL, 0, 2, 0, text_limiter)),
	RESULT("max_warps_per_sm", OCC_FT_INT, "the SM's warp slots",
	       get_result_int, max_warps_per_sm, COL(NULL, 0, 0, 0, NULL)),
	RESULT("warps_per_block", OCC_FT_INT, "warps of one block",
	       get_result_int, warps_per_block, COL(NULL, 0, 0, 0, NULL)),
	OCC_LIMIT_FIELDS,
	RESULT("regs_per_block", OCC_FT_INT, "registers allocated to a block",
	       get_result_int, regs_per_block, COL(NULL, 0, 0, 0, NULL)),
	RESULT("smem_per_block", OCC_FT_INT, "shared memory allocated to a block, "
	       "the driver's reserve included, bytes", get_result_bytes,
	       smem_per_block, COL(NULL, 0, 0, 0, NULL)),
	RESULT("smem_per_sm", OCC_FT_INT, "shared memory the SM runs with (the "
	       "carveout), bytes", get_result_bytes, smem_per_sm,
	       COL(NULL, 0, 0, 0, NULL)),
	{ "carveout", OCC_FT_INT, "the carveout preference, percent (absent: "
	  "default; CSV says default)", get_carveout, "default", { 0 }, 0, 0 },
	PLAIN("optin", OCC_FT_BOOL, "whether the kernel may opt in above "
	      "sharedMemPerBlock", get_optin),
	PLAIN("needs_optin", OCC_FT_BOOL, "whether its shared memory exceeds "
	      "sharedMemPerBlock", get_needs_optin),
	PLAIN("barriers", OCC_FT_INT, "block barriers the kernel uses",
	      get_barriers),
	PLAIN("reason", OCC_FT_STR, "why it cannot launch (absent: it launches)",
	      get_reason),
	PLAIN("can_launch", OCC_FT_BOOL, "whether it can launch: an image the GPU "
	      "loads, and a block that fits (absent: PTX the driver compiles)",
	      get_can_launch),
	PLAIN("min_grid_size", OCC_FT_INT, "blocks that fill the GPU, "
	      "blocks_per_sm x SMs (absent: no --sms)", get_min_grid),
	PLAIN("ties", OCC_FT_LIST, "the block sizes with the best occupancy, "
	      "largest first (absent: --block given)", get_ties),
	PLAIN("grid", OCC_FT_INT, "blocks launched (--grid)", get_grid),
	PLAIN("waves", OCC_FT_INT, "waves the grid runs in (a cluster launch: "
	      "waves of the blocks its resident clusters hold; none for a "
	      "grid that is no multiple of the cluster's size, which CUDA "
	      "refuses)", get_waves),
	PLAIN("tail_blocks", OCC_FT_INT, "blocks of the last, partial wave",
	      get_tail),
	PLAIN("launch_occupancy_pct", OCC_FT_DEC, "occupancy averaged over the "
	      "launch's waves, percent", get_launch_occupancy),

	{ "max_dynamic_smem_per_block", OCC_FT_INT, "the most dynamic shared "
	  "memory a block can take and keep blocks_per_sm, bytes",
	  get_max_dyn, NULL, { "max smem", 9, 1, 0, NULL, 0 },
	  OCC_CONFIG_MAX_DYN, 0 },
	STEP("regs_keep_max", KEEP_MAX, "the most registers per thread with "
	     "as many blocks"),
	STEP("regs_gain_at", GAIN_AT, "the most registers that give more "
	     "blocks"),
	STEP("regs_gain_blocks", GAIN_BLOCKS, "blocks per SM at regs_gain_at"),
	STEP("regs_drop_from", DROP_FROM, "the first register count with "
	     "fewer blocks"),
	STEP("regs_drop_to", DROP_TO, "the last register count with "
	     "regs_drop_blocks"),
	STEP("regs_drop_blocks", DROP_BLOCKS, "blocks per SM from "
	     "regs_drop_from"),
	STEP("smem_keep_max", SMEM_STEP | KEEP_MAX, "the most dynamic shared "
	     "memory with as many blocks, bytes"),
	STEP("smem_gain_at", SMEM_STEP | GAIN_AT, "the most dynamic shared "
	     "memory that gives more blocks"),
	STEP("smem_gain_blocks", SMEM_STEP | GAIN_BLOCKS,
	     "blocks per SM at smem_gain_at"),
	STEP("smem_drop_from", SMEM_STEP | DROP_FROM, "the first dynamic "
	     "shared memory with fewer blocks"),
	STEP("smem_drop_to", SMEM_STEP | DROP_TO, "the last with "
	     "smem_drop_blocks"),
	STEP("smem_drop_blocks", SMEM_STEP | DROP_BLOCKS,
	     "blocks per SM from smem_drop_from"),
};

const struct occ_row_kind occ_config_kind = {
	"occupancy", fields, sizeof fields / sizeof fields[0], NULL
};
