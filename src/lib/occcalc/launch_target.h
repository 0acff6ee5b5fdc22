/*
 * occcalc/launch_target.h - which GPU a traced launch is modelled on:
 * the device the trace recorded, or a GPU of the list the caller names
 * (the question "how will these launches do on that GPU", or the GPU
 * of a trace that records none), and the launch computed there.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_LAUNCH_TARGET_H
#define OCCCALC_LAUNCH_TARGET_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/launch_target.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Which GPU a launch is modelled on, and so what its figures mean. */
enum occ_launch_basis {
	OCC_LAUNCH_BASIS_NONE = 0,   /* no device known: no figures */
	OCC_LAUNCH_BASIS_TRACED,     /* the device the trace recorded */
	OCC_LAUNCH_BASIS_NAMED,      /* the GPU named, for a launch whose
	                                trace describes no device: taken as
	                                the GPU it ran on */
	OCC_LAUNCH_BASIS_WHAT_IF     /* the GPU named, instead of the
	                                device it ran on: as it would run
	                                there */
};

/* The rule: a GPU named (named not NULL) models every launch, as a
 * what-if where the trace describes the launch's device (traced not
 * NULL), as the GPU it ran on where it does not; else the device the
 * trace recorded; else none. *on (may be NULL): the device modelled
 * on, or NULL. */
enum occ_launch_basis occ_launch_basis_of(const struct occ_launch_device *traced,
					  const struct occ_launch_device *named,
					  const struct occ_launch_device **on);

/* GPU g of the list (occ_gpus_match) as a device record with id id: its
 * name, compute capability and SMs, every other property 0 (its
 * table's, through occ_launch_arch). OCC_ERR_INVALID_INPUT when the
 * list gives no SM count for it. */
enum occ_status occ_launch_device_of_gpu(const struct occ_gpu *g, int id,
					 struct occ_launch_device *d);

/* occ_launch_compute on the basis given. For OCC_LAUNCH_BASIS_WHAT_IF
 * what the launch ran with on its own GPU is not taken (its carveout,
 * smem_executed: the model chooses the carveout, as occ_compute does
 * for a kernel), and a launch no block of which fits the GPU is a
 * launch that cannot run there, not a contradiction: OCC_OK with
 * result.blocks_per_sm 0 and no waves. Clusters the GPU does not run
 * (none before compute capability 9.0, or larger than its largest):
 * OCC_ERR_UNSUPPORTED, m->fault OCC_LAUNCH_FAULT_CLUSTER. Other bases:
 * occ_launch_compute. */
enum occ_status occ_launch_compute_on(enum occ_launch_basis basis,
				      const struct occ_arch *arch, int sms,
				      const struct occ_launch_record *l,
				      const struct occ_gpc_layout *layout,
				      struct occ_launch_model *m);

#ifdef __cplusplus
}
#endif

#endif
