/*
 * kernels_rows.c - the rows of --kernels: a kernel's rows with its
 * architecture's table (the GPU named's where its image runs there), a
 * PTX-only kernel's, a row saying no image runs; the run's hooks that
 * add the driver's reading (--api) and count the summary; and every
 * kernel's rows, on threads (pieces.c) when there are many and none
 * needs what the whole run shares.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels_report.h"

/* ---- The run's hooks: the summary (kernels_summary.c) ---- */

/* A cluster launch of a row: its occupancy among the lowest. */
void report_cluster_row(struct occ_run *run, const struct occ_row *row)
{
	struct report *rep = run->hook_ctx;
	const struct occ_cluster_result *c = &row->cl->model.c;

	if (row->c.r.blocks_per_sm)
		kernels_summary_low(&rep->sum, row);
	/* --gpu LIST: the matrix shows the launch the kernel makes. */
	if (rep->gpu >= 0) {
		char cell[64], pct[32];

		occ_format_percent(pct, (uint64_t)c->active_warps,
				     (uint64_t)c->warp_slots);
		if (c->max_active_clusters)
			snprintf(cell, sizeof cell, "%s%% %s, clusters of %d",
				 pct, row->c.arch, c->size);
		else
			snprintf(cell, sizeof cell, "cannot launch %s, "
				 "clusters of %d", row->c.arch, c->size);
		matrix_cell_set(run->s, rep->gpu, cell);
	}
}

/* ---- Rows ---- */

/* Each computed row: the driver's reading (--api), then the summary. */
void report_row(struct occ_run *run, struct occ_row *row,
		struct row_gpu *g)
{
	struct report *rep = run->hook_ctx;

	memset(g, 0, sizeof *g);
	if (rep->api.loader)
		kernels_api_row(&rep->api, rep->run.s, rep->l, row, g);
	kernels_summary_count(&rep->sum, row,
			      run->clusters && run->clusters->n);
	if (rep->gpu >= 0) {
		char cell[64], pct[32];

		occ_format_percent(pct, (uint64_t)row->c.r.warps_per_sm,
				     (uint64_t)row->c.r.max_warps_per_sm);
		if (row->c.r.blocks_per_sm)
			snprintf(cell, sizeof cell, "%s%% %s", pct, row->c.arch);
		else
			snprintf(cell, sizeof cell, "cannot launch %s",
				 row->c.arch);
		matrix_cell(run->s, rep->gpu, cell);
	}
}

/* The table k's rows are computed with (occ_kernel_table: the GPU's it
 * runs on, else the image's own); dies where there is none. */
static const struct occ_arch *kernel_arch(struct report *rep,
					  const struct kernel_info *k)
{
	struct occ_kernel_in in;
	const struct occ_arch *a;

	kernel_in_of(k, &in);
	if (occ_kernel_table(session_tables(rep->run.s), rep->named,
			     rep->named_cc / 10, rep->named_cc % 10, &in,
			     &a) == OCC_OK)
		return a;
	if (kernel_more(k)->line)
		die("%s:%d: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table", k->file, kernel_more(k)->line, k->mangled,
		    k->cc_major, k->cc_minor);
	die("%s: kernel %s is compiled for compute capability %d.%d, "
	    "which has no table (--arch keeps one architecture)",
	    k->file, k->mangled, k->cc_major, k->cc_minor);
}

/* A row without the model's figures goes to the sink, or, under a text
 * table (which lists such kernels in its notes), only to --check: 1 when
 * the caller is to write it. */
static int bare_row_written(struct report *rep, struct occ_row *row)
{
	if (rep->run.sink) {
		rep->run.sink(&rep->run, row);
		return 0;
	}
	if (rep->run.out.format == OUT_TEXT) {
		if (rep->run.out.check)
			check_judge(rep->run.out.check, row);
		return 0;
	}
	return 1;
}

/* PTX only, or no image that runs on the GPU named: a row of what the
 * binary says, the model's fields absent (occ_kernel_row_bare; in a
 * text table, listed under it). */
static void bare_row(struct report *rep, const struct kernel_info *k,
		     int no_image)
{
	struct occ_kernel_in in;
	struct occ_row row;
	struct row_gpu g;

	memset(&row, 0, sizeof row);
	memset(&g, 0, sizeof g);
	kernel_in_of(k, &in);
	if (no_image)
		occ_kernel_row_no_image(&row.c);
	else
		occ_kernel_row_bare(&in, rep->run.s->o->have_block
				    ? (int)rep->run.s->o->block.ranges[0].start
				    : 0, &row.c);
	row.ki = k;
	row.kernel = k->name ? k->name : k->mangled;
	row.gpu_name = rep->run.gpu_name;
	if (!bare_row_written(rep, &row))
		return;
	if (rep->api.loader && !row.c.no_image)
		kernels_api_row(&rep->api, rep->run.s, rep->l, &row, &g);
	out_row(&rep->run.out, &row);
}

/* A kernel no image of which the GPU loads (a GPU of --gpu LIST). */
void report_no_image_row(struct report *rep, const struct kernel_info *k)
{
	bare_row(rep, k, 1);
}

void report_kernel_rows(struct report *rep, const struct kernel_info *ki)
{
	struct session *s = rep->run.s;
	struct occ_kernel k;
	struct seq block, dyn;
	struct seq_range br, dr;
	const struct seq *blocks, *smem;
	const struct occ_arch *a;
	struct cluster_request req;

	struct occ_kernel_in in;

	if (ki->image == OCC_IMAGE_NONE || ki->ptx_only) {
		bare_row(rep, ki, ki->image == OCC_IMAGE_NONE);
		return;
	}
	kernel_in_of(ki, &in);
	occ_run_kernel_defaults(s->o, &k);
	occ_kernel_row_resources(&in, s->o->barriers_given, &k);
	rep->run.ki = ki;
	rep->run.kernel = ki->name ? ki->name : ki->mangled;
	kernels_launch(s->o, ki, &block, &br, &blocks, &smem, &dyn, &dr);
	rep->run.smem = smem;
	a = rep->gpu_table ? rep->gpu_table : kernel_arch(rep, ki);
	/* --compare: each kernel at its largest block, which moves only when
	 * its bound or registers do (the best block churns with them). */
	if (s->o->compare && !s->o->have_block && !kernel_more(ki)->launch) {
		memset(&br, 0, sizeof br);
		br.start = br.end = (uint64_t)kernel_max_threads(a, &k);
		br.step = 1;
		block = (struct seq){ .ranges = &br, .n = 1 };
		blocks = &block;
	}
	kernels_cluster_for(s->o, a, ki, rep->clusters, &req);
	rep->run.clusters = &req;
	occ_run_blocks(&rep->run, a, blocks, &k);
}

/* ---- Rows on threads ---- */

/* Whether rows may be made on threads: none asks the driver, a GPU of a
 * list, a cluster launch, a measurement, a chart or --check, whose rows
 * use what the whole run shares. */
static int rows_threadable(const struct report *rep, const struct session *s)
{
	const struct options *o = s->o;

	return !s->n_targets && !rep->api.loader && !rep->clusters &&
	       !o->cluster.n && !o->measure && !o->chart && !o->plot &&
	       !rep->run.out.check && !rep->run.out.record && !rep->run.sink &&
	       !o->growth.per_thread && !o->growth.per_warp;
}

struct threaded {
	struct report *rep;          /* joined into, on the calling thread */
	const struct report *like;   /* what each piece starts as */
};

static void *piece_open(void *ctx)
{
	const struct threaded *t = ctx;
	struct report *p = malloc(sizeof *p);

	if (!p)
		return NULL;
	*p = *t->like;
	memset(&p->sum, 0, sizeof p->sum);
	p->run.hook_ctx = p;
	if (occ_run_piece(&p->run, &t->like->run) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

static void piece_make(void *piece, size_t from, size_t to)
{
	struct report *p = piece;
	size_t i;

	for (i = from; i < to && !p->run.failure[0]; i++)
		report_kernel_rows(p, &p->l->k[i]);
	occ_run_piece_end(&p->run);
}

static void piece_drop(void *piece)
{
	struct report *p = piece;

	free(p->run.out.mem);
	free(p);
}

static int piece_join(void *ctx, void *piece)
{
	struct report *rep = ((struct threaded *)ctx)->rep, *p = piece;
	int failed;

	if (!p) {
		snprintf(rep->run.failure, sizeof rep->run.failure,
			 "out of memory");
		return 1;
	}
	kernels_summary_add(&rep->sum, &p->sum);
	failed = occ_run_join(&rep->run, &p->run);
	piece_drop(p);
	return failed;
}

/* Every kernel's rows: on threads when there are many (the same bytes
 * as on this one), each kernel's table found here first, should one be
 * missing. */
void report_all_rows(struct report *rep, struct session *s)
{
	struct report *like = NULL;
	struct threaded t = { rep, NULL };
	struct pieces_job j = { rep->l->n, (int)s->o->jobs, &t, piece_open,
				piece_make, piece_join, piece_drop };
	size_t i;
	int st = -1;

	if (rows_threadable(rep, s) && (like = malloc(sizeof *like))) {
		const struct kernel_info *seen = NULL;

		/* Once for each run of kernels of one compute capability. */
		for (i = 0; i < rep->l->n; i++) {
			const struct kernel_info *k = &rep->l->k[i];

			if (k->ptx_only || (seen && k->cc_major == seen->cc_major &&
					    k->cc_minor == seen->cc_minor))
				continue;
			kernel_arch(rep, k);
			seen = k;
		}
		*like = *rep;
		t.like = like;
		st = pieces_run(&j);
		free(like);
	}
	for (i = 0; st < 0 && i < rep->l->n; i++)
		report_kernel_rows(rep, &rep->l->k[i]);
	if (rep->run.failure[0])
		die("%s", rep->run.failure);
}
