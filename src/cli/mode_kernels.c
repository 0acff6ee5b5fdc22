/*
 * mode_kernels.c - --kernels PATH (alias --ptxas): the occupancy of each kernel
 * of a compiler report or a binary, one row per kernel and architecture,
 * within its __launch_bounds__; with --api, the driver's reading of the
 * same code beside it (kernels_api.c). Here the run is opened (the GPU
 * named, --gpu LIST's targets, rows streamed as kernels are read) and
 * closed with its notices; the rows are kernels_rows.c's. A text table
 * ends with a summary of the limiters (kernels_summary.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kernels_report.h"


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
		report_kernel_rows(ctx, img);
	else
		report_no_image_row(ctx, k);
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
	rep->run.hook = report_row;
	rep->run.cluster_hook = report_cluster_row;
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
		report_kernel_rows(&rep, &l->k[i]);
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
	struct occ_kernels_diag d;

	if (!l->text && o->n_more_kernels == 0 &&
	    occ_kernels_none_why(&l->contents, input, &d) != OCC_OK)
		die("%s", d.msg);
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
	rep->run.hook = report_row;
	rep->run.cluster_hook = report_cluster_row;
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
	report_all_rows(rep, rep->s);
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
		report_all_rows(&rep, s);
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
