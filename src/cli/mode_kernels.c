/*
 * mode_kernels.c - --kernels PATH (alias --ptxas): the occupancy of each kernel
 * of a compiler report or a binary, one row per kernel and architecture,
 * within its __launch_bounds__; with --api, the driver's reading of the
 * same code beside it (kernels_api.c). A text table ends with a summary
 * of the limiters (kernels_summary.c). A long list's rows are made on
 * threads (pieces.c) when none needs what the whole run shares.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "occupancy.h"
#include "kernels.h"

struct report {
	struct occ_run run;
	int clusters;                 /* cluster launches computed */
	struct kernel_list *l;        /* the session's */
	struct kernel_summary sum;
	struct api api;
	const struct occ_arch *gpu_table;   /* --gpu LIST: this GPU's */
	int gpu;                     /* and its index, or -1 */
	/* One GPU named (--gpu, --arch, --api's device): its table, whose
	 * limits any image that runs there runs with, and its compute
	 * capability (major * 10 + minor); NULL, 0: none named. */
	const struct occ_arch *named;
	int named_cc;
	/* Rows written as kernels are read: the run opened; the kernels
	 * declaring a cluster no layout computes (warned of at the end). */
	struct session *s;
	int open;
	size_t declared;
};

/* ---- The summary (kernels_summary.c) ---- */

/* A cluster launch of a row: its occupancy among the lowest. */
static void count_cluster(struct occ_run *run, const struct occ_row *row)
{
	struct report *rep = run->hook_ctx;
	const struct occ_cluster_result *c = &row->cl->c;

	if (row->r.blocks_per_sm)
		kernels_summary_low(&rep->sum, row);
	/* --gpu LIST: the matrix shows the launch the kernel makes. */
	if (rep->gpu >= 0) {
		char cell[64], pct[32];

		format_ratio_percent(pct, (uint64_t)c->active_warps,
				     (uint64_t)c->warp_slots);
		if (c->max_active_clusters)
			snprintf(cell, sizeof cell, "%s%% %s, clusters of %d",
				 pct, row->arch, c->size);
		else
			snprintf(cell, sizeof cell, "cannot launch %s, "
				 "clusters of %d", row->arch, c->size);
		matrix_cell_set(run->s, rep->gpu, cell);
	}
}


/* ---- Rows ---- */

/* Each computed row: the driver's reading (--api), then the summary. */
static void kernel_row(struct occ_run *run, struct occ_row *row,
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

		format_ratio_percent(pct, (uint64_t)row->r.warps_per_sm,
				     (uint64_t)row->r.max_warps_per_sm);
		if (row->r.blocks_per_sm)
			snprintf(cell, sizeof cell, "%s%% %s", pct, row->arch);
		else
			snprintf(cell, sizeof cell, "cannot launch %s",
				 row->arch);
		matrix_cell(run->s, rep->gpu, cell);
	}
}

/* The table k's rows are computed with: the GPU's it runs on. The driver
 * runs sm_80 SASS on an 8.9 GPU with 8.9's limits (1,536 threads, 24
 * blocks, 99 KB of shared memory a block), not sm_80's; with no GPU
 * named, the image's own. */
static const struct occ_arch *kernel_arch(struct report *rep,
					  const struct kernel_info *k)
{
	struct session *s = rep->run.s;
	const struct occ_arch *a;

	if (rep->named && kernel_runs_on(k, rep->named_cc))
		return rep->named;
	a = occ_tables_find(session_tables(s), k->cc_major, k->cc_minor);
	if (!a && kernel_more(k)->line)
		die("%s:%d: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table", k->file, kernel_more(k)->line, k->mangled,
		    k->cc_major, k->cc_minor);
	if (!a)
		die("%s: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table (--arch keeps one architecture)",
		    k->file, k->mangled, k->cc_major, k->cc_minor);
	return a;
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

/* PTX: a row of what the binary says, the model's fields absent (in a
 * text table, listed under it). */
static void ptx_row(struct report *rep, const struct kernel_info *k)
{
	struct occ_row row;
	struct row_gpu g;

	memset(&row, 0, sizeof row);
	memset(&g, 0, sizeof g);
	row.ki = k;
	row.kernel = k->name ? k->name : k->mangled;
	row.no_model = 1;
	row.gpu_name = rep->run.gpu_name;
	snprintf(row.arch, sizeof row.arch, "%s", k->arch);
	row.k.block_size = rep->run.s->o->have_block
			   ? (int)rep->run.s->o->block.ranges[0].start : 0;
	if (!bare_row_written(rep, &row))
		return;
	if (rep->api.loader)
		kernels_api_row(&rep->api, rep->run.s, rep->l, &row, &g);
	out_row(&rep->run.out, &row);
}

/* A kernel no image of which the GPU loads: a row that says so, naming
 * the kernel and its file (what its images hold is not what runs, so
 * nothing else of them is shown); a text table leaves it to the notes. */
static void no_image_row(struct report *rep, const struct kernel_info *k)
{
	struct kernel_info only;
	struct occ_row row;

	memset(&only, 0, sizeof only);
	only.mangled = k->mangled;
	only.name = k->name;
	only.file = k->file;
	only.arch = "";
	only.source = k->source;
	only.image = OCC_IMAGE_NONE;
	only.stack = -1;
	only.static_smem = only.fatbin_offset = -1;
	only.min_blocks = only.barriers = -1;
	only.bounds_known = 1;
	memset(&row, 0, sizeof row);
	row.ki = &only;
	row.kernel = k->name ? k->name : k->mangled;
	row.no_model = row.no_image = 1;
	row.gpu_name = rep->run.gpu_name;
	if (bare_row_written(rep, &row))
		out_row(&rep->run.out, &row);
}

static void kernel_rows(struct report *rep, const struct kernel_info *ki)
{
	struct session *s = rep->run.s;
	struct occ_kernel k;
	struct seq block, dyn;
	struct seq_range br, dr;
	const struct seq *blocks, *smem;
	const struct occ_arch *a;
	struct cluster_request req;

	if (ki->image == OCC_IMAGE_NONE) {
		no_image_row(rep, ki);
		return;
	}
	if (ki->ptx_only) {
		ptx_row(rep, ki);
		return;
	}
	occ_run_kernel_defaults(s->o, &k);
	k.regs_per_thread = ki->regs;
	k.static_smem = ki->static_smem > 0 ? (uint64_t)ki->static_smem : 0;
	k.max_threads = ki->max_threads;
	/* The kernel's barrier count where recorded (cuobjdump has none). */
	if (ki->barriers >= 0 && !s->o->barriers_given)
		k.barriers = ki->barriers > OCC_MAX_BARRIERS_PER_BLOCK
			     ? OCC_MAX_BARRIERS_PER_BLOCK : ki->barriers;
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
		kernel_rows(p, &p->l->k[i]);
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
static void all_rows(struct report *rep, struct session *s)
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
		kernel_rows(rep, &rep->l->k[i]);
	if (rep->run.failure[0])
		die("%s", rep->run.failure);
}

/* --gpu LIST, --arch LIST: target i's kernels read; its table. */
static void target_begin(void *ctx, int i, struct kernel_list *l)
{
	struct report *rep = ctx;
	struct session *s = rep->run.s;

	rep->l = l;
	if (i) {        /* the first target's list is report_start's */
		kernels_min_blocks_from_ptx(rep->l);
		kernels_drop_beside(rep->l);
	}
	rep->gpu = i;
	rep->gpu_table = session_find_arch(s, s->o->arch);
	rep->run.gpu_name = s->o->gpu_list ? s->targets[i].name : NULL;
	/* Each GPU's own layout; --arch LIST has none (report_start's
	 * warning says so once). */
	if (s->o->gpu_list)
		rep->clusters = kernels_clusters_prepare(s, l, rep->gpu_table);
}

/* --gpu LIST: whether a GPU of it computes cluster launches (one with
 * clusters, and --cluster or a kernel declaring one). */
static int targets_cluster(struct session *s, const struct kernel_list *l)
{
	int i;

	if (!s->o->gpu_list || (!s->o->cluster.n && !kernels_declaring(l)))
		return 0;
	for (i = 0; i < s->n_targets; i++) {
		const struct occ_arch *a =
			occ_tables_find(session_tables(s), s->targets[i].cc_major,
					s->targets[i].cc_minor);

		if (a && occ_cluster_size_limit(a))
			return 1;
	}
	return 0;
}

/* Kernel k on target i: the image it loads, or a row saying none. */
static void target_row(void *ctx, int i, const struct kernel_info *k,
		       const struct kernel_info *img)
{
	(void)i;
	if (img)
		kernel_rows(ctx, img);
	else
		no_image_row(ctx, k);
}

/* One GPU named: its table (a GPU list: each target's, target_begin). */
static void named_gpu(struct report *rep, struct session *s)
{
	const struct options *o = s->o;

	if (s->n_targets)
		return;
	if (o->api || o->device_given)
		rep->named = session_device_arch(s);
	else if (o->arch)
		rep->named = session_find_arch(s, o->arch);
	if (rep->named)
		rep->named_cc = rep->named->cc_major * 10 +
				rep->named->cc_minor;
}

/* The list made ready (minimum blocks from PTX, PTX beside SASS
 * dropped), the driver opened with --api, the GPU named found, and the
 * run of rows opened with its hooks. */
static void report_start(struct report *rep, struct session *s, int api)
{
	kernels_min_blocks_from_ptx(rep->l);
	kernels_drop_beside(rep->l);
	partition_prepare(s);
	if (api)
		kernels_api_open(&rep->api, s, rep->l);
	named_gpu(rep, s);
	/* --gpu LIST: each GPU's, as its rows begin (target_begin). */
	rep->clusters = !s->o->gpu_list &&
			kernels_clusters_prepare(s, rep->l, NULL);
	occ_run_open(&rep->run, s, 1, rep->clusters ||
		     targets_cluster(s, rep->l) ? 2 : 1);
	rep->run.hook = kernel_row;
	rep->run.cluster_hook = count_cluster;
	rep->run.hook_ctx = rep;
}

/* " that runs on" the GPU as the user named it (--gpu or --arch), into
 * buf, or "" with none named. */
static const char *gpu_words(const struct session *s, char *buf, size_t n)
{
	const char *arch = s->o->arch;

	if (s->gpu_name[0] && arch)
		snprintf(buf, n, " that runs on --gpu %s (compute capability "
			 "%s)", s->gpu_name, arch);
	else if (arch)
		snprintf(buf, n, " that runs on --arch %s", arch);
	else
		buf[0] = '\0';
	return buf;
}

void kernels_rows(struct session *s, struct kernel_list *l,
		  void (*sink)(struct occ_run *, const struct occ_row *),
		  void *ctx)
{
	struct report rep;
	size_t i;

	if (l->n == 0)
		die("%s: no kernel%s", l->nfiles ? l->files[0] : "input",
		    gpu_words(s, (char[160]){ 0 }, 160));
	memset(&rep, 0, sizeof rep);
	rep.gpu = -1;
	rep.l = l;
	report_start(&rep, s, 0);
	rep.run.sink = sink;
	rep.run.sink_ctx = ctx;
	for (i = 0; i < l->n; i++)
		kernel_rows(&rep, &l->k[i]);
	occ_run_close(&rep.run);
}

/* Kernels no image of which runs on the GPU named: rows that say so (a
 * text table: a warning of how many), or the end of the run when nothing
 * else is left. */
static void no_image_notice(const struct session *s,
			    const struct kernel_list *l, const char *input)
{
	char gpu[96];
	size_t i, none = 0;
	int major = l->target_cc / 10, minor = l->target_cc % 10;

	for (i = 0; i < l->n; i++)
		none += l->k[i].image == OCC_IMAGE_NONE;
	if (!none || s->n_targets)
		return;
	/* A compiler report's kernels: the GPU --arch names. */
	if (!l->target_cc && s->o->arch)
		occ_arch_parse_name(s->o->arch, &major, &minor);
	snprintf(gpu, sizeof gpu, "%s%scompute capability %d.%d",
		 s->gpu_name, s->gpu_name[0] ? " (--gpu), " : "", major, minor);
	if (none == l->n)
		die("%s: no image runs on %s: its SASS is for other GPUs and "
		    "its PTX (if any) for later ones (--all-images lists every "
		    "image)", input, gpu);
	if (s->o->format == OUT_TEXT)
		warn("%zu kernel%s with no image that runs on %s left out "
		     "(--all-images lists them; -f csv gives each a row)", none,
		     plural(none), gpu);
}

/* One GPU named (--gpu NAME): the text report says which, as the rows
 * do not (a list of GPUs has its matrix). */
static void gpu_line(struct out *out, const struct session *s)
{
	char line[256];

	if (!s->o->gpu || s->o->gpu_list || !s->gpu_name[0])
		return;
	if (s->listed.sms > 0)
		snprintf(line, sizeof line, "\nGPU: %s, compute capability "
			 "%d.%d, %d SMs (--list-gpus).\n", s->gpu_name,
			 s->listed.cc_major, s->listed.cc_minor, s->listed.sms);
	else
		snprintf(line, sizeof line, "\nGPU: %s, compute capability "
			 "%d.%d (--list-gpus).\n", s->gpu_name,
			 s->listed.cc_major, s->listed.cc_minor);
	out_text(out, line);
}

/* Relocatable images of kernels also linked in the same file: how many
 * were left out, and why. */
static void relocatable_notice(const struct kernel_list *l)
{
	if (l->relocatable_dropped)
		warn("%zu relocatable kernel image%s (nvcc -rdc) left out: the "
		     "same file links the same kernel%s for the same "
		     "architecture, and the linked code is what runs "
		     "(--all-images lists them)", l->relocatable_dropped,
		     plural(l->relocatable_dropped),
		     l->relocatable_dropped == 1 ? "" : "s");
}

/* The end of a run that has no kernel to show: why. */
static __attribute__((noreturn)) void no_kernel(struct session *s, const struct kernel_list *l)
{
	const struct options *o = s->o;
	const char *input = kernels_input_name(o->ptxas);

	if (!l->text && o->n_more_kernels == 0)
		kernels_no_kernel(&l->contents, input);
	die("%s: no kernel%s%s%s", input, gpu_words(s, (char[160]){ 0 }, 160),
	    o->kernel_re ? " matching --kernel " : "",
	    o->kernel_re ? o->kernel_re : "");
}

/* ---- Rows as the kernels are read (csv, jsonl, json) ---- */

/* Whether rows are written as kernels are read: a format of a row at a
 * time, and nothing that needs the whole list (a text table's widths
 * and notes, --compare's merge, the driver's loading, a GPU list's
 * matrix, a measurement, ptxas run on PTX). */
static int streamed(const struct session *s)
{
	const struct options *o = s->o;

	return o->format != OUT_TEXT && !o->compare && !o->api &&
	       !o->device_given && !o->measure && !o->ptxas_jit &&
	       !s->n_targets;
}

/* The run opened once whether cluster launches are computed is known:
 * from the start where nothing could compute them, else from the kernel
 * that decides it, or once all is read (l: the kernels so far, none of
 * whose rows is written yet). */
static int stream_ready(void *ctx, struct kernel_list *l, int end)
{
	struct report *rep = ctx;
	struct session *s = rep->s;

	if (rep->open)
		return 1;
	if (!end && !kernels_clusters_decides(s, &l->k[l->n - 1]))
		return 0;
	partition_prepare(s);
	named_gpu(rep, s);
	rep->clusters = !kernels_clusters_never(s) &&
			kernels_clusters_prepare(s, l, NULL);
	occ_run_open(&rep->run, s, 1, rep->clusters ? 2 : 1);
	rep->run.hook = kernel_row;
	rep->run.cluster_hook = count_cluster;
	rep->run.hook_ctx = rep;
	rep->open = 1;
	return 1;
}

static void stream_rows(void *ctx, struct kernel_list *v)
{
	struct report *rep = ctx;

	if (kernels_clusters_never(rep->s))
		rep->declared += kernels_clusters_declared(rep->s, v);
	rep->l = v;
	all_rows(rep, rep->s);
	rep->l = &rep->s->kernels;
}

static int kernels_streamed(struct session *s, struct report *rep)
{
	const struct options *o = s->o;
	const char *input = kernels_input_name(o->ptxas);
	struct kernel_stream st;
	int i;

	memset(&st, 0, sizeof st);
	st.ready = stream_ready;
	st.rows = stream_rows;
	st.ctx = rep;
	rep->s = s;
	kernels_read(s, o->ptxas, rep->l, &st);
	for (i = 0; i < o->n_more_kernels; i++)
		kernels_read_add(s, o->more_kernels[i], rep->l);
	/* What is still held: none of it runs on the GPU named. */
	no_image_notice(s, rep->l, input);
	relocatable_notice(rep->l);
	if (!rep->l->streaming.written)
		no_kernel(s, rep->l);
	occ_run_close(&rep->run);
	kernels_clusters_warn(rep->declared);
	kernels_free(rep->l);
	return session_status(s);
}

static int run_kernels(struct session *s)
{
	const struct options *o = s->o;
	struct report rep;
	size_t i;

	if (o->compare)
		return mode_compare(s);
	if (o->all)
		die_usage("--all lists unchanged kernels: it goes with --compare");
	memset(&rep, 0, sizeof rep);
	rep.gpu = -1;
	rep.l = &s->kernels;
	if (o->arch && occ_arch_parse_name(o->arch, &(int){ 0 },
					   &(int){ 0 }) != OCC_OK)
		session_not_arch(s, o->arch);
	if (o->ptxas_jit && (o->all_images ||
			     (!o->arch && !o->api && !o->device_given)))
		die_usage("--ptxas-jit: name the GPU the driver compiles the "
			  "PTX for (--gpu, --device, --arch, --api), and not "
			  "--all-images");
	occ_run_check_options(s);
	if (streamed(s))
		return kernels_streamed(s, &rep);
	kernels_read(s, o->ptxas, rep.l, NULL);
	for (i = 0; i < (size_t)o->n_more_kernels; i++)
		kernels_read_add(s, o->more_kernels[i], rep.l);
	no_image_notice(s, rep.l, kernels_input_name(o->ptxas));
	relocatable_notice(rep.l);
	if (rep.l->n == 0)
		no_kernel(s, rep.l);
	report_start(&rep, s, o->api);
	if (rep.api.loader)
		rep.run.out.progress = &rep.api.progress;
	/* ptx_row() asks the driver of PTX rows only outside a text table. */
	rep.api.ptx_queried = rep.run.out.format != OUT_TEXT && !rep.run.sink;
	if (s->n_targets)
		targets_kernels(s, rep.l, target_begin, target_row, &rep);
	else
		all_rows(&rep, s);
	if (o->format == OUT_TEXT && !o->fields)
		gpu_line(&rep.run.out, s);
	if (o->format == OUT_TEXT && !o->fields)
		kernels_notes(&rep.run.out, rep.l, o, &rep.sum,
			      rep.clusters);
	if (o->format == OUT_TEXT && !o->fields)
		matrix_print(s, &rep.run.out);
	occ_run_close(&rep.run);
	progress_clear(&rep.api.progress);
	if (s->disagreements)
		warn("%llu kernel%s where the driver disagrees with occcalc's "
		     "reading or model (see the agrees column)",
		     (unsigned long long)s->disagreements,
		     plural(s->disagreements));
	kernels_api_close(&rep.api);
	kernels_free(rep.l);
	return session_status(s);
}

const struct mode mode_kernels = {
	.name = "--kernels",
	.run = run_kernels,
	.tables = TABLES_READ,
	.kinds = { &kind_occupancy, &kind_compare },
};
