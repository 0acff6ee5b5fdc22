/* launches_run.h - a --launches run as it reads (mode_launches.c): the
 * library makes its rows (occcalc/launch_rows.h), and launches_devices.c
 * words what its devices stopped or left out. Internal to the command
 * line. */
#ifndef OCC_CLI_LAUNCHES_RUN_H
#define OCC_CLI_LAUNCHES_RUN_H

#include <regex.h>

#include "launches.h"

struct launch_run {
	struct session *s;
	struct out out;
	struct fieldsel sel;
	int text;                          /* the summary, not rows */
	int summary_rows;                  /* the summary as rows
					      (--summary) */
	struct chrome *chrome;             /* --annotate, --chrome-trace */
	int quiet;                         /* that trace is standard output */
	struct launch_summary *sum;
	regex_t re;
	int have_re;
	const char *file;                  /* the file read, for messages */
	/* The library's reader of rows, its devices kept to the end of the
	 * run (the summary's headroom uses their architectures), and what it
	 * was made with. */
	struct occ_launch_rows *rows;
	struct occ_launch_rows_opts opts;
	struct occ_launch_device gpu;      /* --gpu NAME's */
	char gpus_path[1024], parts_path[1024];
	struct launch_inputs in;           /* the files, directories made
					      into theirs */
	/* --compare: each row handed here, nothing printed. */
	void (*sink)(void *ctx, const struct occ_launch_row *r);
	void *sink_ctx;
};

/* ---- Its devices (launches_devices.c) ---- */

/* Where a device stopped the read (its GPU list unreadable, --partition
 * refused on it): the refusal, made once the reader has let go of its
 * memory; returns where none did. */
void launch_devices_stopped(const struct launch_run *run);
/* The library's reader made with the run's options (--gpu, --layout,
 * --partition, --kernel's filter; --gpu's what-if unless untraced_only):
 * --gpu NAME's GPU is modelled at once, refused here. A reader made
 * before is freed. */
void launches_rows_open(struct launch_run *run, int untraced_only);
/* The lines after the rows: devices whose recorded properties fail,
 * launches left without figures, --layout not used, --kernel's and
 * --partition's. */
void launch_devices_notes(const struct launch_run *run);

#endif
