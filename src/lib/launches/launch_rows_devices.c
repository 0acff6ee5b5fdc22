/*
 * launch_rows_devices.c - the devices of the traces a reader of rows
 * reads (occcalc/launch_rows.h): each distinct one modelled once, as the
 * target module says (its table under its recorded properties, its GPC
 * layout, its partition part), and the GPU named; kept until the reader
 * is freed, as the rows point at them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch_rows_int.h"

/* Where a device stops the read, for the caller to word. */
static enum occ_status stopped(struct occ_launch_rows *run,
			       enum occ_launch_stop why,
			       const struct occ_launch_dev *ld,
			       enum occ_status st)
{
	run->st.stop = why;
	run->st.stop_dev = ld;
	run->st.stop_status = st;
	run->st.stop_errno = errno;
	return st;
}

/* The device's GPC layout by the library's rule (occ_target_layout):
 * the one given where it has the device's SMs (else noted), else the
 * GPU list's of the device's name. A list that cannot be read stops the
 * read, as it would stop any other use of it. */
static enum occ_status layout_of(struct occ_launch_rows *run,
				 struct occ_launch_dev *ld,
				 struct occ_target *t)
{
	struct occ_layout_request r = { .name = ld->d.name };
	enum occ_status st;

	r.given = run->o.layout;
	r.gpus = run->o.gpus;
	r.gpus_path = run->o.gpus_path;
	errno = 0;
	st = occ_target_layout(t, &r, &run->st.stop_diag);
	if (st != OCC_OK)
		return stopped(run, OCC_LAUNCH_STOP_GPUS, ld, st);
	ld->layout_mismatch = t->mismatch == OCC_LAYOUT_GIVEN;
	ld->have_layout = t->basis == OCC_LAYOUT_GIVEN ||
			  t->basis == OCC_LAYOUT_LISTED;
	if (ld->have_layout)
		ld->layout = t->layout;
	return OCC_OK;
}

/* The partition's part of the device, by the library's rule
 * (occ_target_part). */
static enum occ_status part_of(struct occ_launch_rows *run,
			       struct occ_launch_dev *ld,
			       const struct occ_target *t)
{
	const struct occ_launch_rows_opts *o = &run->o;
	enum occ_status st;

	if (!o->partition || ld->arch_status != OCC_OK)
		return OCC_OK;
	errno = 0;
	st = occ_target_part(t, o->parts_path, o->partition_flags,
			     o->partition_min_sms, o->partition_group,
			     &ld->part, &run->st.stop_diag);
	if (st != OCC_OK)
		return stopped(run, OCC_LAUNCH_STOP_PART, ld, st);
	ld->in_part = 1;
	if (o->partition_group >= 0)
		snprintf(ld->part_name, sizeof ld->part_name, "group %d",
			 o->partition_group);
	else
		snprintf(ld->part_name, sizeof ld->part_name, "remaining");
	return OCC_OK;
}

/* Whether two device records describe the same GPU as modelled: all
 * but the id and the UUID, which no figure depends on. */
static int same_device(const struct occ_launch_device *a,
		       const struct occ_launch_device *b)
{
	return a->major == b->major && a->minor == b->minor &&
	       a->multiProcessorCount == b->multiProcessorCount &&
	       a->warpSize == b->warpSize &&
	       a->maxThreadsPerMultiProcessor == b->maxThreadsPerMultiProcessor &&
	       a->maxThreadsPerBlock == b->maxThreadsPerBlock &&
	       a->maxBlocksPerMultiProcessor == b->maxBlocksPerMultiProcessor &&
	       a->regsPerMultiprocessor == b->regsPerMultiprocessor &&
	       a->regsPerBlock == b->regsPerBlock &&
	       a->sharedMemPerMultiprocessor == b->sharedMemPerMultiprocessor &&
	       a->sharedMemPerBlock == b->sharedMemPerBlock &&
	       a->sharedMemPerBlockOptin == b->sharedMemPerBlockOptin &&
	       a->reservedSharedMemPerBlock == b->reservedSharedMemPerBlock &&
	       a->l2CacheSize == b->l2CacheSize &&
	       strcmp(a->name, b->name) == 0;
}

static struct occ_launch_dev *kept_device(const struct occ_launch_rows *run,
					  const struct occ_launch_device *d)
{
	size_t i;

	for (i = 0; i < run->n_all; i++)
		if (same_device(&run->all[i]->d, d))
			return run->all[i];
	return NULL;
}

/* Room for one more device kept. */
static enum occ_status room(struct occ_launch_rows *run)
{
	struct occ_launch_dev **all;
	size_t cap;

	if (run->n_all == OCC_LAUNCH_ROWS_DEVICES_MAX)
		return stopped(run, OCC_LAUNCH_STOP_DEVICES, NULL,
			       OCC_ERR_RANGE);
	if (run->n_all < run->cap_all)
		return OCC_OK;
	cap = run->cap_all ? 2 * run->cap_all : 8;
	all = realloc(run->all, cap * sizeof *all);
	if (!all)
		return OCC_ERR_NOMEM;
	run->all = all;
	run->cap_all = cap;
	return OCC_OK;
}

enum occ_status launch_rows_new_device(struct occ_launch_rows *run,
				       const struct occ_launch_device *d,
				       struct occ_launch_dev **out)
{
	struct occ_launch_dev *ld;
	struct occ_target t;
	enum occ_status st;

	if ((st = room(run)) != OCC_OK)
		return st;
	ld = calloc(1, sizeof *ld);
	if (!ld)
		return OCC_ERR_NOMEM;
	run->all[run->n_all++] = ld;
	run->st.devices = run->n_all;
	ld->d = *d;
	/* A traced device borrows no table: its launches are left without
	 * figures (OCC_LAUNCH_SKIP_NO_TABLE). */
	ld->arch_status = occ_target_device(run->o.tables, d, 0, &t);
	if (ld->arch_status != OCC_ERR_UNKNOWN_ARCH)
		ld->arch = t.arch;
	ld->fault = t.fault;
	snprintf(ld->tag, sizeof ld->tag, "sm_%d%d", d->major, d->minor);
	*out = ld;
	st = layout_of(run, ld, &t);
	return st != OCC_OK ? st : part_of(run, ld, &t);
}

enum occ_status launch_rows_on_device(void *ctx,
				      const struct occ_launch_device *d)
{
	struct occ_launch_rows *run = ctx;
	struct occ_launch_dev *ld;
	enum occ_status st;
	size_t i;

	for (i = 0; i < run->n_ids; i++)
		if (run->ids[i].id == d->device)
			break;
	if (i < run->n_ids && same_device(&run->ids[i].ld->d, d))
		return OCC_OK;
	ld = kept_device(run, d);
	if (!ld && (st = launch_rows_new_device(run, d, &ld)) != OCC_OK)
		return st;
	if (i == run->n_ids)
		run->n_ids++;
	run->ids[i].id = d->device;
	run->ids[i].ld = ld;
	return OCC_OK;
}

struct occ_launch_dev *launch_rows_dev_of(const struct occ_launch_rows *run,
					  int id)
{
	size_t i;

	for (i = 0; i < run->n_ids; i++)
		if (run->ids[i].id == id)
			return run->ids[i].ld;
	return NULL;
}
