/* launches_run.h - a --launches run as it reads (mode_launches.c), and
 * the devices of its traces, each modelled once (launches_devices.c).
 * Internal to the command line. */
#ifndef OCC_CLI_LAUNCHES_RUN_H
#define OCC_CLI_LAUNCHES_RUN_H

#include <regex.h>

#include "launches.h"

/* Why launches are left without figures, counted for one line each (a
 * device whose properties fail is named in a line of its own). */
enum skip { SKIP_NO_DEVICE, SKIP_NO_TABLE, SKIP_BAD_DEVICE, SKIP_SHAPE,
	    SKIP_CLUSTER, SKIP_NO_FIT, SKIP_WHAT_IF_CLUSTER, SKIP_COUNT };

/* The distinct devices the traces describe, kept to the end (the
 * summary's headroom uses their architectures): a trace that describes
 * a device again and again costs nothing more, and one that describes
 * more than this many different devices is refused. */
#define DEVICES_KEPT_MAX 1024

/* A file's devices by the ids its launches name them by. */
struct dev_id {
	int id;
	struct launch_dev *ld;
};

struct launch_run {
	struct session *s;
	struct out out;
	struct fieldsel sel;
	int text;                          /* the summary, not rows */
	struct chrome *chrome;             /* --annotate, --chrome-trace */
	int quiet;                         /* that trace is standard output */
	struct launch_summary *sum;
	regex_t re;
	int have_re;
	const char *file;
	struct dev_id ids[OCC_LAUNCH_DEVICES_MAX];
	size_t n_ids;
	struct launch_dev **all;
	size_t n_all, cap_all;
	struct launch_dev *named;          /* --gpu NAME's, or NULL */
	struct launch_inputs in;           /* the files, directories made
					      into theirs */
	/* --compare: each row handed here, nothing printed. */
	void (*sink)(void *ctx, const struct launch_row *r);
	void *sink_ctx;
	int named_what_if;                 /* --gpu models every launch, not
					      only those without a device */
	int too_many_devices;              /* the read stopped there */
	uint64_t launches, filtered, skipped[SKIP_COUNT];
	uint64_t part_unmeasured;          /* cluster launches, part's GPCs
					      not known */
	/* A device --partition was refused on: the read stops, and the
	 * refusal is made once the reader has let go of its memory. */
	struct launch_dev *part_dev;
	enum occ_status part_st;
	struct occ_diag part_d;
	int part_errno;
	/* The GPU list's layouts could not be read: the read stops too. */
	enum occ_status list_st;
	struct occ_diag list_d;
	int list_errno;
};

/* ---- Its devices (launches_devices.c) ---- */

/* The read's device callback: a device not seen before is modelled
 * (its table, layout and --partition part) and kept. */
enum occ_status launch_on_device(void *ctx, const struct occ_launch_device *d);
/* The device a file's launches name by id, or NULL. */
struct launch_dev *launch_dev_of(const struct launch_run *run, int id);
/* Where a device stopped the read (its GPU list unreadable, --partition
 * refused on it): the refusal, made once the reader has let go of its
 * memory; returns where none did. */
void launch_devices_stopped(const struct launch_run *run);
/* --gpu NAME: the GPU every launch is modelled on (launch_target.h). */
void launch_named_prepare(struct launch_run *run);
/* A device whose recorded properties fail: named, with the property. */
void launch_device_note(const struct launch_dev *ld);

#endif
