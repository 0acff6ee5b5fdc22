/* launch_rows_int.h - a reader of traces into rows (occcalc/launch_rows.h):
 * what launch_rows.c (the rows) and launch_rows_devices.c (the devices,
 * each modelled once) share. Internal. */
#ifndef OCC_LAUNCH_ROWS_INT_H
#define OCC_LAUNCH_ROWS_INT_H

#include "occcalc.h"

/* A file's devices by the ids its launches name them by. */
struct dev_id {
	int id;
	struct occ_launch_dev *ld;
};

struct occ_launch_rows {
	struct occ_launch_rows_opts o;
	/* The distinct devices, kept to the end (the rows point at them). */
	struct occ_launch_dev **all;
	size_t n_all, cap_all;
	struct occ_launch_dev *named;      /* o.gpu's, or NULL */
	/* The file being read. */
	const char *file;
	struct dev_id ids[OCC_LAUNCH_DEVICES_MAX];
	size_t n_ids;
	occ_launch_row_fn fn;
	void *ctx;
	struct occ_launch_rows_stats st;
};

/* The read's device callback: a device not seen before is modelled (its
 * table, layout and partition part) and kept. */
enum occ_status launch_rows_on_device(void *ctx,
				      const struct occ_launch_device *d);
/* A device modelled and kept, whether or not seen before (the GPU
 * named). */
enum occ_status launch_rows_new_device(struct occ_launch_rows *run,
				       const struct occ_launch_device *d,
				       struct occ_launch_dev **out);
/* The device the file's launches name by id, or NULL. */
struct occ_launch_dev *launch_rows_dev_of(const struct occ_launch_rows *run,
					  int id);

#endif
