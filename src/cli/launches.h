/* launches.h - --launches (mode_launches.c): the launches of traces, a
 * row each, and the per-kernel summary under them (launches_summary.c).
 * Internal to the command line. */
#ifndef OCC_CLI_LAUNCHES_H
#define OCC_CLI_LAUNCHES_H

#include "cli.h"

/* A device of a trace file, as modelled. */
struct launch_dev {
	struct occ_launch_device d;
	struct occ_arch arch;
	enum occ_status arch_status;       /* OCC_OK: arch holds it */
	const char *fault;                 /* the property that fails, or NULL */
	uint64_t skipped;                  /* launches left without figures
					      for it */
	char tag[16];                      /* sm_90 */
	int have_layout;
	struct occ_gpc_layout layout;      /* for cluster launches */
	int layout_mismatch;               /* --layout's SMs are not its */
	const char *listed;                /* the GPU list's name, or NULL */
	/* --partition: its launches computed in this part of it. */
	int in_part;
	struct occ_launch_part part;
	char part_name[24];                /* "group 0", "remaining" */
};

/* One launch, as printed. */
struct launch_row {
	const char *file;
	const struct occ_launch_record *l;
	const struct launch_dev *dev;      /* NULL: the trace has none */
	struct occ_launch_model m;
	const char *not_modelled;          /* why m is not there, or NULL */
};

/* ---- The summary (launches_summary.c) ---- */

struct launch_summary;

struct launch_summary *launch_summary_new(void);
/* Counts a file read. */
void launch_summary_file(struct launch_summary *s);
/* Counts a row (modelled or not) under its kernel. */
void launch_summary_add(struct launch_summary *s, const struct launch_row *r);
/* Kernels by GPU time, and the headroom of the top ones. */
/* achieved_top: the kernels the achieved column is shown for, by GPU
 * time (0: all). */
void launch_summary_print(FILE *f, struct launch_summary *s,
			  size_t achieved_top);
void launch_summary_free(struct launch_summary *s);

extern const struct row_kind kind_launches;

/* Reads the trace files (occcalc's or Kineto's) and prints their rows or
 * the summary as the options say: --launches FILE..., and what --trace
 * prints of the files the traced command wrote once it has exited. The
 * exit status (--check's, where given); launches (may be NULL): how many
 * were read. */
int launches_report(struct session *s, const char *const *files, int n,
		    uint64_t *launches);

#endif
