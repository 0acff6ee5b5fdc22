/*
 * launches_devices.c - the devices of --launches' traces: each distinct
 * one modelled once, as the library's target module says (its table
 * under its recorded properties, its GPC layout), its --partition part,
 * and --gpu NAME's GPU; kept to the end of the run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launches_run.h"

/* The device's GPC layout by the library's rule (occ_target_layout):
 * --layout's where it has the device's SMs (else noted), else the GPU
 * list's of the device's name. A list that cannot be read stops the
 * read (run->list_st), as it would stop any other mode. */
static enum occ_status layout_of(struct launch_run *run, struct launch_dev *ld,
				 struct occ_target *t)
{
	const struct options *o = run->s->o;
	struct occ_layout_request r = { .name = ld->d.name };
	char path[1024];
	enum occ_status st;

	if (o->layout_text)
		r.given = &o->layout;
	session_gpus_path(run->s, path, sizeof path);
	r.gpus = session_gpus(run->s);
	r.gpus_path = path;
	errno = 0;
	st = occ_target_layout(t, &r, &run->list_d);
	if (st != OCC_OK) {
		run->list_st = st;
		run->list_errno = errno;
		return st;
	}
	ld->layout_mismatch = t->mismatch == OCC_LAYOUT_GIVEN;
	ld->have_layout = t->basis == OCC_LAYOUT_GIVEN ||
			  t->basis == OCC_LAYOUT_LISTED;
	if (ld->have_layout)
		ld->layout = t->layout;
	return OCC_OK;
}

/* --partition on a traced device: what cannot be made of its SMs is
 * refused, before any of its launches is printed. */
static _Noreturn void part_refused(const struct launch_run *run,
				   const struct launch_dev *ld,
				   enum occ_status st)
{
	const struct options *o = run->s->o;
	char dev[400], of[410];

	snprintf(dev, sizeof dev, "device %d of %s (%s, %s, %d SMs)",
		 ld->d.device, run->file, ld->d.name, ld->tag,
		 ld->d.multiProcessorCount);
	snprintf(of, sizeof of, " of %s", dev);
	if (o->partition.min_sms > (uint64_t)ld->d.multiProcessorCount)
		die_usage("--partition %llu: more than the %d SMs%s",
			  (unsigned long long)o->partition.min_sms,
			  ld->d.multiProcessorCount, of);
	if (st == OCC_ERR_UNSUPPORTED && !ld->part.split.group_sms)
		die_usage("--partition: %s has %s", dev, ld->d.major < 6 ? "no "
			  "green contexts (compute capability 6.0 on)" : "no "
			  "clusters: max-cluster-size is for compute capability "
			  "9.0 on");
	if (!ld->part.split.group_sms)
		die_usage("--partition %llu: %s: %s", (unsigned long long)
			  o->partition.min_sms, dev, occ_strerror(st));
	partition_part_refused(&ld->part.split, o->partition.group, st,
			       ld->d.multiProcessorCount, of);
}

/* The device the read stopped on: why --partition could not be applied. */
static _Noreturn void part_failed(const struct launch_run *run)
{
	const struct occ_diag *d = &run->part_d;

	partition_parts_failed(run->part_st, d, run->part_errno);
	part_refused(run, run->part_dev, run->part_st);
}

void launch_devices_stopped(const struct launch_run *run)
{
	if (run->list_st != OCC_OK)
		session_gpus_failed(run->list_st, &run->list_d, run->list_errno);
	if (run->part_dev)
		part_failed(run);
}

/* --partition's part of the device, by the library's rule
 * (occ_target_part). */
static enum occ_status part_of(struct launch_run *run, struct launch_dev *ld,
			       const struct occ_target *t)
{
	const struct options *o = run->s->o;
	char path[1024];
	enum occ_status st;

	if (!o->partition.given || ld->arch_status != OCC_OK)
		return OCC_OK;
	partition_parts_path(run->s, path, sizeof path);
	errno = 0;
	st = occ_target_part(t, path, o->partition.flags,
			     (int)o->partition.min_sms, o->partition.group,
			     &ld->part, &run->part_d);
	if (st != OCC_OK) {
		run->part_dev = ld;
		run->part_st = st;
		run->part_errno = errno;
		return st;
	}
	ld->in_part = 1;
	if (o->partition.group >= 0)
		snprintf(ld->part_name, sizeof ld->part_name, "group %d",
			 o->partition.group);
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

static struct launch_dev *kept_device(const struct launch_run *run,
				      const struct occ_launch_device *d)
{
	size_t i;

	for (i = 0; i < run->n_all; i++)
		if (same_device(&run->all[i]->d, d))
			return run->all[i];
	return NULL;
}

/* A device not seen before, modelled once. */
static enum occ_status new_device(struct launch_run *run,
				  const struct occ_launch_device *d,
				  struct launch_dev **out)
{
	struct launch_dev *ld, **all;
	struct occ_target t;
	enum occ_status st;

	if (run->n_all == DEVICES_KEPT_MAX) {
		run->too_many_devices = 1;
		return OCC_ERR_RANGE;
	}
	if (run->n_all == run->cap_all) {
		run->cap_all = run->cap_all ? 2 * run->cap_all : 8;
		all = realloc(run->all, run->cap_all * sizeof *all);
		if (!all)
			return OCC_ERR_NOMEM;
		run->all = all;
	}
	ld = calloc(1, sizeof *ld);
	if (!ld)
		return OCC_ERR_NOMEM;
	run->all[run->n_all++] = ld;
	ld->d = *d;
	/* A traced device borrows no table: its launches are left without
	 * figures, said once (SKIP_NO_TABLE). */
	ld->arch_status = occ_target_device(session_tables(run->s), d, 0, &t);
	if (ld->arch_status != OCC_ERR_UNKNOWN_ARCH)
		ld->arch = t.arch;
	ld->fault = t.fault;
	snprintf(ld->tag, sizeof ld->tag, "sm_%d%d", d->major, d->minor);
	*out = ld;
	st = layout_of(run, ld, &t);
	return st != OCC_OK ? st : part_of(run, ld, &t);
}

enum occ_status launch_on_device(void *ctx, const struct occ_launch_device *d)
{
	struct launch_run *run = ctx;
	struct launch_dev *ld;
	enum occ_status st;
	size_t i;

	for (i = 0; i < run->n_ids; i++)
		if (run->ids[i].id == d->device)
			break;
	if (i < run->n_ids && same_device(&run->ids[i].ld->d, d))
		return OCC_OK;
	ld = kept_device(run, d);
	if (!ld && (st = new_device(run, d, &ld)) != OCC_OK)
		return st;
	if (i == run->n_ids)
		run->n_ids++;
	run->ids[i].id = d->device;
	run->ids[i].ld = ld;
	return OCC_OK;
}

struct launch_dev *launch_dev_of(const struct launch_run *run, int id)
{
	size_t i;

	for (i = 0; i < run->n_ids; i++)
		if (run->ids[i].id == id)
			return run->ids[i].ld;
	return NULL;
}

void launch_device_note(const struct launch_dev *ld)
{
	const struct occ_key *key;
	long long v = -1;
	size_t i;

	for (i = 0; (key = occ_arch_key(i)); i++)
		if (strcmp(key->name, ld->fault) == 0 &&
		    (key->type == OCC_KEY_INT || key->type == OCC_KEY_BYTES))
			v = (long long)occ_arch_value(&ld->arch, key);
	if (strcmp(ld->fault, "multiProcessorCount") == 0)
		v = ld->d.multiProcessorCount;
	else if (strcmp(ld->fault, "warpSize") == 0)
		v = ld->d.warpSize;
	if (v >= 0)
		warn("device %d (%s, compute capability %d.%d): %s %lld is "
		     "not what an NVIDIA GPU of that compute capability has, "
		     "or contradicts its other properties: its %" PRIu64
		     " launch%s no occupancy figures", ld->d.device,
		     ld->d.name, ld->d.major, ld->d.minor, ld->fault, v,
		     ld->skipped, ld->skipped == 1 ? " gets" : "es get");
	else
		warn("device %d (%s, compute capability %d.%d): its %s "
		     "contradicts its other properties: its %" PRIu64 " "
		     "launch%s no occupancy figures", ld->d.device,
		     ld->d.name, ld->d.major, ld->d.minor, ld->fault,
		     ld->skipped, ld->skipped == 1 ? " gets" : "es get");
}

void launch_named_prepare(struct launch_run *run)
{
	struct occ_launch_device d;

	if (!run->s->o->gpu)
		return;
	launches_gpu_device(run->s, &d);
	run->file = "--gpu";
	if (new_device(run, &d, &run->named) != OCC_OK) {
		launch_devices_stopped(run);
		die("out of memory");
	}
	run->named->named = 1;
}
