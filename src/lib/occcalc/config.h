/*
 * occcalc/config.h - one launch configuration's row: the model's answer
 * for a kernel's resources at a block size (or the best one), and what
 * follows from it for a grid on a GPU (waves), the headroom of its
 * registers and shared memory, and the most dynamic shared memory it may
 * take. It is the row `occcalc --arch ARCH --block N ...` prints, and
 * occ_config_kind holds its fields under the command line's names, so a
 * program reads the same values (occcalc/fields.h).
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_CONFIG_H
#define OCCCALC_CONFIG_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/config.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What a configuration's row computes besides the occupancy, as its
 * fields ask (struct occ_field's needs, in occ_config_kind). */
#define OCC_CONFIG_HEADROOM 1u     /* the registers' and smem's steps */
#define OCC_CONFIG_MAX_DYN 2u      /* max_dynamic_smem_per_block */
/* The name of the need 1u << i ("OCC_CONFIG_HEADROOM"), NULL past the
 * last: a binding's constants, read from the library. */
const char *occ_config_need_name(unsigned i);

struct occ_config_query {
	/* The kernel: registers, static shared memory, barriers, carveout,
	 * opt-in, launch bounds; block_size 0 asks for the best block size,
	 * and dynamic_smem is replaced by growth's at the block size. */
	struct occ_kernel k;
	struct occ_smem_growth growth;   /* dynamic shared memory: fixed
					    bytes + per thread + per warp */
	uint16_t shape[3];               /* the block's shape as given (0 0
					    0: a thread count) */
	int sms;                         /* the GPU's SMs; 0: not given */
	int64_t grid;                    /* blocks launched; 0: not given */
	int regs_assumed;                /* the registers were not given */
	unsigned needs;                  /* OCC_CONFIG_* bits */
};

struct occ_config_row {
	const struct occ_arch *a;
	char arch[16];                   /* sm_90 */
	struct occ_kernel k;             /* as computed: block and dynamic
					    shared memory set */
	struct occ_result r;
	int have_best;                   /* the block size was chosen: */
	struct occ_best best;            /*   how (block_size 0: none can
					    launch, and k's is a warp's) */
	uint64_t ties[OCC_MAX_TIES];     /*   best's ties, as a list */
	int sms;
	int64_t grid;
	int have_waves;
	struct occ_waves w;
	int have_headroom;
	struct occ_headroom h;
	int have_max_dyn;
	uint64_t max_dyn;
	char block_shape[24];            /* 16x16, or "" */
	int regs_assumed;
	int no_model;                    /* nothing computed (PTX only) */
	int no_image;                    /* the GPU loads no image of it */
};

/* The row of q on arch a: OCC_OK; OCC_ERR_RANGE when the dynamic shared
 * memory growth gives at the block size is above OCC_BYTES_MAX; the
 * model's status for a kernel it refuses. */
enum occ_status occ_config_compute(const struct occ_arch *a,
				   const struct occ_config_query *q,
				   struct occ_config_row *row);

/* Its fields (struct occ_config_row rows), under the command line's
 * names: occupancy_pct, limiter, waves, regs_gain_at, ... */
extern const struct occ_row_kind occ_config_kind;

/* The fields a row shows unless others are asked for, as occcalc's JSON
 * and CSV show them: the model's, up to the launch's (the command line
 * puts the kernel's after these), the most dynamic shared memory, and
 * with headroom asked, the steps of the registers and shared memory. */
#define OCC_CONFIG_FIELDS_MODEL "arch,block,regs,smem,static_smem," \
	"blocks_per_sm,warps_per_sm,occupancy_pct,limiter,max_warps_per_sm," \
	"warps_per_block,limit_warps,limit_registers,limit_shared_memory," \
	"limit_blocks,limit_barriers,regs_per_block,smem_per_block," \
	"smem_per_sm,carveout,optin,needs_optin,barriers,reason," \
	"min_grid_size,ties,grid,waves,tail_blocks,launch_occupancy_pct"
#define OCC_CONFIG_FIELDS OCC_CONFIG_FIELDS_MODEL ",max_dynamic_smem_per_block"
#define OCC_CONFIG_HEADROOM_FIELDS ",regs_keep_max,regs_gain_at," \
	"regs_gain_blocks,regs_drop_from,regs_drop_to,regs_drop_blocks," \
	"smem_keep_max,smem_gain_at,smem_gain_blocks,smem_drop_from," \
	"smem_drop_to,smem_drop_blocks"

/* The default fields of q's row into buf (n bytes): OCC_CONFIG_FIELDS,
 * block_shape after block where q gives a shape, and with
 * OCC_CONFIG_HEADROOM in with, OCC_CONFIG_HEADROOM_FIELDS. */
void occ_config_default_fields(const struct occ_config_query *q,
			       unsigned with, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
