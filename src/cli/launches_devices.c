/*
 * launches_devices.c - --launches' reader of rows (the library's,
 * occcalc/launch_rows.h) made with the options (--gpu, --layout,
 * --partition, --kernel), and what the command line says of its
 * devices: a refusal that stopped the read, and the notes after the
 * rows (launches left without figures, and why).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launches_run.h"

/* --partition on a traced device: what cannot be made of its SMs is
 * refused, before any of its launches is printed. */
static _Noreturn void part_refused(const struct launch_run *run,
				   const struct occ_launch_dev *ld,
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
static _Noreturn void part_failed(const struct launch_run *run,
				  const struct occ_launch_rows_stats *st)
{
	partition_parts_failed(st->stop_status, &st->stop_diag, st->stop_errno);
	part_refused(run, st->stop_dev, st->stop_status);
}

void launch_devices_stopped(const struct launch_run *run)
{
	const struct occ_launch_rows_stats *st = occ_launch_rows_stats(run->rows);

	if (!st)
		return;
	if (st->stop == OCC_LAUNCH_STOP_GPUS)
		session_gpus_failed(st->stop_status, &st->stop_diag,
				    st->stop_errno);
	if (st->stop == OCC_LAUNCH_STOP_PART)
		part_failed(run, st);
	if (st->stop == OCC_LAUNCH_STOP_DEVICES)
		die("%s: more than %d different devices described in the "
		    "traces: no GPU has that many (a trace describes each of "
		    "its devices once)", run->file, OCC_LAUNCH_ROWS_DEVICES_MAX);
}

static int wanted(void *ctx, const struct occ_launch_record *l)
{
	const struct launch_run *run = ctx;

	return regexec(&run->re, l->kernel, 0, NULL, 0) == 0 ||
	       (l->mangled[0] && regexec(&run->re, l->mangled, 0, NULL, 0) == 0);
}

/* What the reader is made with: the tables and GPU list found before
 * any file is read. */
static void rows_opts(struct launch_run *run, int untraced_only)
{
	const struct options *o = run->s->o;
	struct occ_launch_rows_opts *r = &run->opts;

	memset(r, 0, sizeof *r);
	r->tables = session_tables(run->s);
	session_gpus_path(run->s, run->gpus_path, sizeof run->gpus_path);
	r->gpus = session_gpus(run->s);
	r->gpus_path = run->gpus_path;
	r->layout = o->layout_text ? &o->layout : NULL;
	if (o->gpu) {
		launches_gpu_device(run->s, &run->gpu);
		r->gpu = &run->gpu;
		r->gpu_untraced_only = untraced_only;
	}
	if (o->partition.given) {
		partition_parts_path(run->s, run->parts_path,
				     sizeof run->parts_path);
		r->partition = 1;
		r->parts_path = run->parts_path;
		r->partition_flags = o->partition.flags;
		r->partition_min_sms = (int)o->partition.min_sms;
		r->partition_group = o->partition.group;
	}
	if (run->have_re) {
		r->want = wanted;
		r->want_ctx = run;
	}
}

void launches_rows_open(struct launch_run *run, int untraced_only)
{
	enum occ_status st;

	occ_launch_rows_free(run->rows);
	run->rows = NULL;
	rows_opts(run, untraced_only);
	run->file = "--gpu";
	st = occ_launch_rows_new(&run->opts, &run->rows);
	if (st != OCC_OK) {
		launch_devices_stopped(run);
		die("out of memory");
	}
}

/* A device whose recorded properties fail: named, with the property. */
static void device_note(const struct occ_launch_dev *ld)
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

void launch_devices_notes(const struct launch_run *run)
{
	const struct occ_launch_rows_stats *st = occ_launch_rows_stats(run->rows);
	const struct options *o = run->s->o;
	const struct occ_launch_dev *ld;
	size_t j;
	int i;

	for (j = 0; (ld = occ_launch_rows_device(run->rows, j)); j++)
		if (ld->fault && ld->skipped)
			device_note(ld);
	for (i = 0; i < OCC_LAUNCH_SKIP_COUNT; i++)
		if (st->skipped[i] && i != OCC_LAUNCH_SKIP_BAD_DEVICE)
			warn("%" PRIu64 " launch%s %s: no occupancy figures",
			     st->skipped[i], st->skipped[i] == 1 ? "" : "es",
			     occ_launch_skip_text((enum occ_launch_skip)i));
	for (j = 0; (ld = occ_launch_rows_device(run->rows, j)); j++)
		if (ld->layout_mismatch)
			warn("--layout %s: %d SMs, not the %d of device %d (%s): "
			     "not used for its cluster launches", o->layout_text,
			     o->layout.sms, ld->d.multiProcessorCount,
			     ld->d.device, ld->d.name);
	if (st->filtered)
		warn("%" PRIu64 " launch%s of kernels --kernel does not match "
		     "left out", st->filtered, st->filtered == 1 ? "" : "es");
	if (st->part_unmeasured)
		warn("%" PRIu64 " cluster launch%s in --partition's %s, whose "
		     "GPCs are not measured on its GPU (partitions.txt): no "
		     "cluster figures", st->part_unmeasured,
		     st->part_unmeasured == 1 ? "" : "es",
		     o->partition.group >= 0 ? "group" : "remainder");
}
