/*
 * occcalc/query_sweep.h - a sweep as occcalc's occupancy mode runs it
 * (--block, --regs, --smem, --static-smem as lists and ranges, on each
 * GPU of --gpu LIST or architecture of --arch LIST), each row handed to
 * a program as the JSON object occcalc -f jsonl writes for it.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_QUERY_SWEEP_H
#define OCCCALC_QUERY_SWEEP_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/query_sweep.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs or architectures a list names. */
#define OCC_TARGETS_MAX 32
/* The bounds of the swept options' values, as occcalc takes them:
 * threads per block; shared memory bytes (cuLaunchKernel's unsigned
 * int); registers are 0 to OCC_MAX_REGS_ANY_ARCH. */
#define OCC_SWEEP_BLOCK_MAX INT32_MAX
#define OCC_SWEEP_SMEM_MAX UINT64_C(0xffffffff)

/* The next item of a comma-separated list of GPUs or architectures
 * (--gpu LIST, --arch LIST) at *p into buf (n bytes); *p then at the
 * item after it, NULL after the last. OCC_ERR_SYNTAX for an empty item,
 * OCC_ERR_RANGE for one of n bytes or more. */
enum occ_status occ_target_list_next(const char **p, char *buf, size_t n);

/* A sweep: texts in occcalc's grammar (occcalc/sweep.h), NULL for an
 * option not given. */
struct occ_sweep {
	const char *arch;          /* --arch: one, or a list */
	const char *gpu;           /* --gpu: one, or a list (then no arch) */
	const char *block;         /* values and shapes; NULL: the best */
	const char *regs;          /* NULL: 0 */
	const char *smem;          /* dynamic, added to q's growth's per
				      thread and per warp; NULL: 0 */
	const char *static_smem;   /* NULL: 0 */
	struct occ_config_query q; /* the rest of each row's query
				      (occ_config_query_init's defaults) */
};
/* s with no option given and q's defaults. */
void occ_sweep_init(struct occ_sweep *s);
/* sizeof (struct occ_sweep), for bindings that lay it out. */
size_t occ_sweep_size(void);

/* The rows of s, handed to fn one at a time as occcalc with the same
 * options writes them with -f jsonl: on each target in the list's order,
 * the block outermost, then the registers, the static and the dynamic
 * shared memory. fields as the list names them: occ_config_kind's, and
 * "gpu", the name of the list's GPU the row is for (null without a
 * list); NULL: occ_config_default_fields' (block_shape where the block
 * gives a shape), with a GPU list "gpu" first and can_launch last. Every
 * value and target is checked before the first row: statuses of
 * occ_seq_parse with diag->key the option ("block", "regs", "smem",
 * "static_smem", diag->line the enum occ_seq_error, diag->limit the
 * bound, for occ_seq_refusal to word); of
 * occ_target_list_next and OCC_ERR_RANGE for more than OCC_TARGETS_MAX
 * (diag->limit) with diag->key "gpu" or "arch" and diag->line the item (0: the list);
 * OCC_ERR_INVALID_INPUT (key "arch") for a GPU list with arch, or an
 * arch list with gpu; occ_env_gpu's for a target; occ_row_kind_select's;
 * OCC_ERR_MISSING_KEY (key "sms") for a grid on a GPU of no known SM
 * count; occ_config_compute's; OCC_ERR_INVALID_INPUT when fn stops.
 * rows (may be NULL): the rows handed over. */
enum occ_status occ_env_sweep_json(const struct occ_env *env,
				   const struct occ_sweep *s,
				   const char *fields, occ_json_row_fn fn,
				   void *ctx, uint64_t *rows,
				   struct occ_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
