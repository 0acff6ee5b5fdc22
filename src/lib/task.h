/*
 * task.h - one fatbin entry to be read into rows by whichever thread of
 * the scheduler (sched.c) runs it, and what it found: its rows and names,
 * or why it failed.
 */
#ifndef OCC_TASK_H
#define OCC_TASK_H

#include "bin.h"

/* Where a task is in the scheduler's ring. */
enum { QUEUED, RUNNING, DONE };

struct task {
	struct bin_entry en;
	const struct bin_src *src;
	enum occ_bin_container container;
	int64_t fatbin_offset;
	int depth;
	enum occ_bin_image image;     /* how the image was chosen */
	int images, images_run;
	struct bin_entry *beside;     /* PTX read after it if capped */
	size_t nbeside;
	int want_text;                /* PTX rows keep their text */
	int (*want)(const char *mangled, void *ctx);   /* occ_bin_opts' */
	void *want_ctx;
	uint64_t unwanted;            /* rows read, not wanted, not kept */
	struct text { const char *src; char *copy; } *texts;
	size_t ntexts;
	int state, cancelled, nomem;
	int too_many;                 /* past IMAGE_ROWS_MAX (1), its names' (2) */
	uint64_t need;                /* entry_need(), when submitted */
	uint64_t kept;                /* a sparse image's pages kept */
	/* What the walk had counted when it was submitted: a walk that
	 * stops at its failure, as one job's does, counts that much. */
	struct occ_bin_contents seen;
	enum occ_status st;
	struct occ_bin_diag *diag;    /* why it failed, kept only then */
	struct occ_bin_kernel *k; /* rows; mangled is an offset in names */
	size_t n, cap;
	char *names;
	size_t names_n, names_cap;
};

/* The most rows one image may give, and bytes of their names: a fatbin
 * entry's rows wait in its task until delivered, so each is bounded
 * (real images hold some thousands; a PTX text declaring millions of
 * entries is refused). */
#define IMAGE_ROWS_MAX 65536
#define IMAGE_NAMES_MAX ((size_t)8 << 20)

/* What a task's rows hold while they wait to be delivered. */
uint64_t task_bytes(const struct task *t);

/* Empties t: what it held freed, every field zero. */
void task_reset(struct task *t);
/* t made the task of reading en as the reader c found it, with the PTX
 * beside it (read too if a kernel is capped); -1: no memory. */
int task_from(struct task *t, const struct bin_ctx *c,
	      const struct bin_entry *en, const struct bin_entry *beside,
	      size_t nbeside);
/* Reads t's entry into its rows with the thread's buffers sc. */
void task_run(struct task *t, struct bin_scratch *sc);

#endif
