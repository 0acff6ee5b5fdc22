/*
 * occupancy.c - occupancy rows, shared by the occupancy mode and the
 * compiler-report mode: each configuration computed (the model, the best
 * block size, waves, headroom, and with --api or --measure the GPU), then
 * printed as a row, or as the report when one configuration is asked for
 * in text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "occupancy.h"
#include "chart.h"

/* Each warp of a measurement works this long: about 50 us at Hopper's
 * clocks, long beside the few hundred cycles a warp takes to start and
 * retire, short enough that a configuration measures in milliseconds. */
#define MEASURE_SPIN_CYCLES 100000
/* Without --grid a measurement launches this many waves of the larger of
 * the model's and the API's blocks per SM, so that an SM that could hold
 * more blocks than predicted would show it. */
#define MEASURE_WAVES 2

/* The text table's columns, and everything else's fields. */
#define TEXT_FIELDS "arch,block,regs,smem,static_smem,blocks_per_sm," \
	"warps_per_sm,occupancy_pct,limiter"
/* Where --block gives shapes, their field follows block's. */
#define SHAPE_FIELD "block_shape"
#define TEXT_GPU_FIELDS ",api_blocks_per_sm,measured_blocks_per_sm," \
	"achieved_occupancy_pct,agrees"
/* The library's (occcalc/config.h), the kernel's among them. */
#define FIELDS OCC_CONFIG_FIELDS_MODEL OCC_KERNEL_ROW_NAME_FIELDS \
	",max_dynamic_smem_per_block"
#define HEADROOM_FIELDS OCC_CONFIG_HEADROOM_FIELDS
#define GPU_FIELDS ",kernel_regs,api_blocks_per_sm,measured_grid," \
	"expected_blocks_per_sm,measured_blocks_per_sm," \
	"achieved_occupancy_pct,measure_ms,agrees," \
	"api_max_dynamic_smem_per_block,api_max_dynamic_smem_loses_block"

/* --kernels: each kernel's resources, bounds and (--api) the driver's. */
#define KERNEL_TEXT_FIELDS "arch,block,max_threads,regs,smem,static_smem," \
	"stack,spill_stores,blocks_per_sm,min_blocks_per_sm,warps_per_sm," \
	"occupancy_pct,limiter"
#define KERNEL_TEXT_API ",api_regs,api_blocks_per_sm,agrees"
/* What --grid and --headroom add to it (they were computed, not shown). */
#define KERNEL_TEXT_GRID ",waves,tail_blocks"
#define KERNEL_TEXT_HEADROOM ",regs_keep_max,regs_gain_at,smem_keep_max," \
	"smem_gain_at"
#define KERNEL_TEXT_CLUSTER ",cluster,cluster_blocks_per_sm," \
	"max_active_clusters,cluster_occupancy_pct,cluster_limiter"
#define KERNEL_FIELDS OCC_KERNEL_ROW_BOUND_FIELDS
#define KERNEL_API_FIELDS ",api_regs,api_static_smem,api_stack," \
	"api_max_threads,api_blocks_per_sm,agrees"
/* With --cluster: the text table's columns, and the fields added to
 * everything else's (and with --api, the GPU's). */
#define TEXT_CLUSTER_FIELDS "arch,block,regs,smem,static_smem," \
	"blocks_per_sm,occupancy_pct,cluster,cluster_blocks_per_sm," \
	"max_active_clusters,cluster_active_blocks,cluster_occupancy_pct," \
	"cluster_limiter"
#define TEXT_CLUSTER_GPU_FIELDS ",api_max_active_clusters," \
	"measured_clusters,measured_cluster_blocks_per_sm,cluster_agrees"
#define CLUSTER_FIELDS ",cluster,cluster_size,cluster_portable," \
	"cluster_blocks_per_sm,max_active_clusters,cluster_active_blocks," \
	"cluster_occupancy_pct,cluster_limiter,cluster_reason," \
	"cluster_gpcs_used,cluster_idle_slots,cluster_potential_size," \
	"cluster_potential_size_nonportable,cluster_best_size," \
	"cluster_best_active_blocks,layout,layout_source"
#define CLUSTER_GPU_FIELDS ",cluster_kernel_regs,api_max_active_clusters," \
	"api_cluster_potential_size,api_cluster_potential_size_nonportable," \
	"measured_clusters_launched,measured_clusters," \
	"measured_cluster_blocks_per_sm,cluster_achieved_occupancy_pct," \
	"cluster_agrees"

void occ_run_kernel_defaults(const struct options *o, struct occ_kernel *k)
{
	occ_kernel_init(k);
	k->carveout = o->carveout_default ? OCC_CARVEOUT_DEFAULT
					  : (int)o->carveout;
	k->barriers = (int)o->barriers;
	k->optin = o->optin;
}

/* name inserted after the field after in list (comma-separated). */
static void insert_after(char *list, size_t n, const char *after,
			 const char *name)
{
	size_t len = strlen(list), at = strlen(after), add = strlen(name) + 1;
	char *p = list;

	while ((p = strstr(p, after)) &&
	       ((p > list && p[-1] != ',') || (p[at] && p[at] != ',')))
		p += at;
	if (!p || len + add >= n)
		return;
	memmove(p + at + add, p + at, len - (size_t)(p + at - list) + 1);
	p[at] = ',';
	memcpy(p + at + 1, name, add - 1);
}

#define PARTITION_FIELDS ",partition_part,partition_groups,partition_sms," \
	"partition_part_sms"

/* The default fields: the text table's, or everything else's. */
static void default_fields(const struct options *o, int kernels, char *buf,
			   size_t n)
{
	/* kernels 2: --kernels computing cluster launches. */
	int cl = o->cluster.n > 0 || kernels > 1, text = o->format == OUT_TEXT;

	if (text && kernels)
		snprintf(buf, n, "%s%s%s%s%s,kernel", KERNEL_TEXT_FIELDS,
			 cl ? KERNEL_TEXT_CLUSTER : "",
			 o->api ? KERNEL_TEXT_API : "",
			 o->grid ? KERNEL_TEXT_GRID : "",
			 o->headroom ? KERNEL_TEXT_HEADROOM : "");
	else if (kernels)
		snprintf(buf, n, "%s%s%s%s%s", FIELDS KERNEL_FIELDS,
			 o->headroom ? HEADROOM_FIELDS : "",
			 o->api ? KERNEL_API_FIELDS : "",
			 cl ? CLUSTER_FIELDS ",cluster_source" : "",
			 cl && o->api ? CLUSTER_GPU_FIELDS : "");
	else if (text)
		snprintf(buf, n, "%s%s%s", o->device_all ? "device," : "",
			 cl ? TEXT_CLUSTER_FIELDS : TEXT_FIELDS,
			 o->api ? (cl ? TEXT_CLUSTER_GPU_FIELDS
				      : TEXT_GPU_FIELDS) : "");
	else
		snprintf(buf, n, "%s%s%s%s%s%s",
			 o->device_all ? "device,device_name," : "", FIELDS,
			 o->headroom ? HEADROOM_FIELDS : "",
			 o->api ? GPU_FIELDS : "", cl ? CLUSTER_FIELDS : "",
			 cl && o->api ? CLUSTER_GPU_FIELDS : "");
	if (occ_seq_has_shape(&o->block))
		insert_after(buf, n, "block", SHAPE_FIELD);
	/* --partition's figures are of a part: which, rows must say. */
	if (o->partition.given && !text &&
	    strlen(buf) + sizeof PARTITION_FIELDS < n)
		strcat(buf, PARTITION_FIELDS);
	if (o->gpu_list) {
		size_t len = strlen(buf);

		if (len + 5 < n) {
			memmove(buf + 4, buf, len + 1);
			memcpy(buf, "gpu,", 4);
		}
		if (!text && strlen(buf) + 12 < n)
			strcat(buf, ",can_launch");
	}
}

void occ_run_check_options(struct session *s)
{
	struct fieldsel sel;

	if (s->o->fields)
		fieldsel_make(&sel, &kind_occupancy, s->o->fields, NULL);
	check_prepare(s, &kind_occupancy);
}

void occ_run_open(struct occ_run *run, struct session *s, int sweep,
		  int kernels)
{
	const struct options *o = s->o;
	char defaults[2048];

	memset(run, 0, sizeof *run);
	run->s = s;
	run->report = o->format == OUT_TEXT && !sweep && !o->fields;
	default_fields(o, kernels, defaults, sizeof defaults);
	fieldsel_make(&run->sel, &kind_occupancy, o->compare ? NULL : o->fields,
		      defaults);
	if (run->report)
		run->sel.needs |= OCC_CONFIG_HEADROOM | (o->api ? OCC_CONFIG_MAX_DYN : 0);
	out_open(&run->out, stdout, o->format, &run->sel);
	out_style(&run->out, o->format_style);
	if (!o->compare)
		check_attach(s, &run->out, &kind_occupancy);
	run->sel.needs |= check_needs(s);
	run->out.stream = o->measure;
	/* --plot FILE opened before anything is computed or printed: a file
	 * that cannot be written ends the run first, not after the report. */
	if (o->plot)
		s->plot = out_file_open(o->plot);
	if (o->measure) {
		s->progress_total = seq_count(&o->block) * seq_count(&o->regs) *
				    seq_count(&o->static_smem) *
				    seq_count(&o->smem) *
				    (uint64_t)(o->cluster.n ? o->cluster.n : 1);
		s->progress = s->progress_total > 1 && isatty(STDERR_FILENO);
	}
}

/* ---- On the GPU: --api and --measure ---- */

static void show_progress(struct session *s)
{
	if (!s->progress)
		return;
	s->progress_rows++;
	fprintf(stderr, "\rocccalc: measured %llu of %llu",
		(unsigned long long)s->progress_rows,
		(unsigned long long)s->progress_total);
	if (s->progress_rows == s->progress_total)
		fputc('\n', stderr);
}

/* A launch of the calibrated kernel, where both the model and the API
 * expect it to run: where they differ the row says so. */
static void measure_row(struct session *s, const struct occ_row *row,
			struct row_gpu *g)
{
	const struct occ_device *d = &s->dev;
	const struct occ_result *r = &row->c.r;
	struct occ_waves w;
	char err[256];
	int most = g->api_blocks > r->blocks_per_sm ? g->api_blocks
						   : r->blocks_per_sm;

	g->m.grid = s->o->grid ? (int64_t)s->o->grid
			       : (int64_t)MEASURE_WAVES * most * d->sms;
	g->m.spin_cycles = MEASURE_SPIN_CYCLES;
	g->expected = occ_waves(r, g->m.grid, d->sms, &w) == OCC_OK
		      ? w.max_resident_per_sm : r->blocks_per_sm;
	if (gpu_measure(&s->gpu, &row->c.k, r->max_warps_per_sm, &g->m, err,
			sizeof err) != 0)
		session_device_failed(s, err);
	g->measured = 1;
}

/* The runtime's answers for the row's kernel, and with --measure a
 * launch of it. */
static void run_on_gpu(struct session *s, const struct occ_row *row,
		       struct row_gpu *g)
{
	struct occ_kernel at = row->c.k;
	char err[256];

	memset(g, 0, sizeof *g);
	g->kernel_regs = row->c.k.regs_per_thread;
	if (gpu_api_blocks(&s->gpu, &row->c.k, &g->api_blocks, err,
			   sizeof err) != 0)
		session_device_failed(s, err);
	if (row->c.r.blocks_per_sm > 0) {
		if (gpu_api_dynamic_smem(&s->gpu, &row->c.k, row->c.r.blocks_per_sm,
					 &g->api_dyn, err, sizeof err) != 0)
			session_device_failed(s, err);
		at.dynamic_smem = g->api_dyn;
		if (gpu_api_blocks(&s->gpu, &at, &g->api_dyn_blocks, err,
				   sizeof err) != 0)
			session_device_failed(s, err);
		g->have_api_dyn = 1;
	}
	if (s->o->measure && row->c.r.blocks_per_sm > 0 && g->api_blocks > 0)
		measure_row(s, row, g);
	g->agrees = g->api_blocks == row->c.r.blocks_per_sm &&
		    (!g->measured ||
		     g->m.residency.max_blocks_per_sm == g->expected);
	if (!g->agrees)
		s->disagreements++;
	if (s->o->measure)
		show_progress(s);
}

/* ---- Charts ---- */

/* The SVG charts into f: nonzero if writing failed. */
static int plot(FILE *f, const struct occ_row *row,
		const struct chart_series s[3])
{
	char title[256];

	snprintf(title, sizeof title, "occcalc: %s, %d threads, %d "
		 "registers, %llu B static + %llu B dynamic shared memory",
		 row->c.arch, row->c.k.block_size, row->c.k.regs_per_thread,
		 (unsigned long long)row->c.k.static_smem,
		 (unsigned long long)row->c.k.dynamic_smem);
	return (chart_svg(f, title, s, &row->c.r) != 0) |
	       (out_file_close(f) != 0);
}

static void draw_charts(struct session *session, const struct occ_row *row)
{
	const struct options *o = session->o;
	struct chart_series s[3];
	FILE *f = session->plot;    /* opened by occ_run_open */
	int failed = 0;

	if (!o->chart && !o->plot)
		return;
	if (chart_build(row->c.a, &row->c.k, s) != 0)
		die("out of memory");
	if (o->chart)
		chart_text(stdout, s, &row->c.r);
	if (f) {
		session->plot = NULL;      /* closed by plot() */
		failed = plot(f, row, s);
	}
	chart_free(s);
	if (failed)
		die("%s: write error", o->plot);
}

/* ---- A row ---- */


/* A row: the report, or a line of the table or the format. */
static void emit(struct occ_run *run, const struct occ_row *row)
{
	const struct options *o = run->s->o;

	if (run->sink) {
		run->sink(run, row);
		return;
	}
	if (!run->report) {
		out_row(&run->out, row);
		return;
	}
	if (run->out.check)
		check_judge(run->out.check, row);
	report_occupancy(stdout, row);
	if (row->gpu)
		report_gpu(stdout, &run->s->dev, row);
	if (row->cl)
		report_cluster(stdout, row, !o->have_block || row->cl->model.best);
	if (row->cl && row->cl->have_api)
		report_cluster_gpu(stdout, &run->s->dev, row);
}

static void note_bounds(struct occ_run *run, const struct occ_cluster_layout *L)
{
	if (L->cap_unknown)
		run->cluster_bounds |= CLUSTER_CAP_UNKNOWN;
	if (L->bound || L->whole || L->mps)
		run->cluster_bounds |= CLUSTER_LAYOUT_UNKNOWN;
}

/* The configuration once per cluster shape asked for; the plain
 * launch's answers (and measurement) are shared by all. */
static void emit_clusters(struct occ_run *run, struct occ_row *row,
			  const struct cluster_request *req)
{
	const struct options *o = run->s->o;
	struct row_cluster cl;
	struct occ_waves plain = row->c.w;
	int i, had_waves = row->c.have_waves;

	for (i = 0; i < req->n; i++) {
		cluster_compute(run->s, row, &req->items[i], &cl);
		row->cl = &cl;
		/* A cluster launch's waves: what its clusters hold at once. */
		row->c.have_waves = had_waves;
		occ_cluster_row_waves(&cl.model, &row->c);
		note_bounds(run, cl.model.layout);
		if (run->cluster_hook)
			run->cluster_hook(run, row);
		emit(run, row);
		if (o->measure && i + 1 < req->n)
			show_progress(run->s);
	}
	row->cl = NULL;
	row->c.w = plain;
	row->c.have_waves = had_waves;
}

/* The options are checked one by one before; this names the
 * configuration, should the model still refuse it. A piece keeps the
 * message for the thread that joins it. */
static void compute_failed(struct occ_run *run, const struct occ_kernel *k,
			   enum occ_status st)
{
	snprintf(run->failure, sizeof run->failure, "%s, %d threads, %d "
		 "registers, %llu B static + %llu B dynamic shared memory, %d "
		 "barriers: %s", run->tag, k->block_size, k->regs_per_thread,
		 (unsigned long long)k->static_smem,
		 (unsigned long long)k->dynamic_smem, k->barriers,
		 occ_strerror(st));
	if (!run->piece)
		die("%s", run->failure);
}

/* --smem, --smem-per-thread and --smem-per-warp at one block size, each
 * within its range, may together pass what the model takes. */
static _Noreturn void growth_too_large(const struct occ_arch *a,
				       const struct occ_smem_growth *g,
				       int block)
{
	die_usage("--smem %llu, --smem-per-thread %llu and --smem-per-warp "
		  "%llu at --block %d: %llu B of dynamic shared memory, above "
		  "the limit of %llu", (unsigned long long)g->fixed,
		  (unsigned long long)g->per_thread,
		  (unsigned long long)g->per_warp, block,
		  (unsigned long long)occ_smem_growth_at(g, a, block),
		  (unsigned long long)OCC_BYTES_MAX);
}

/* What the library computes of the configuration of k: at its block
 * size (--block's, or a Triton launch's), or at the best one. */
static void config_query(const struct occ_run *run, const struct occ_kernel *k,
			 struct occ_config_query *q)
{
	const struct options *o = run->s->o;

	memset(q, 0, sizeof *q);
	q->k = *k;
	q->growth = o->growth;
	q->growth.fixed = k->dynamic_smem;
	if (!o->have_block && !(run->ki && kernel_more(run->ki)->launch))
		q->k.block_size = 0;
	if (run->shape)
		memcpy(q->shape, run->shape, sizeof q->shape);
	q->sms = (int)o->sms;
	q->grid = (int64_t)o->grid;
	q->regs_assumed = !run->ki && !o->regs_given;
	q->needs = run->sel.needs;
}

/* One configuration: at the given block size, or at the best one. */
static void run_one(struct occ_run *run, struct occ_kernel *k)
{
	const struct options *o = run->s->o;
	struct occ_config_query q;
	struct occ_row row;
	struct row_gpu gpu;
	enum occ_status st;

	/* Named once per architecture, not per row of a sweep. */
	if (run->tag_of != run->a) {
		arch_tag(run->tag, sizeof run->tag, run->a);
		run->tag_of = run->a;
	}
	memset(&row, 0, sizeof row);
	config_query(run, k, &q);
	if ((st = occ_config_compute(run->a, &q, &row.c)) != OCC_OK) {
		if (st == OCC_ERR_RANGE && q.k.block_size)
			growth_too_large(run->a, &q.growth, q.k.block_size);
		compute_failed(run, k, st);
		return;
	}
	run->configs++;
	run->launching += row.c.r.blocks_per_sm > 0;
	row.ki = run->ki;
	row.kernel = run->kernel;
	row.gpu_name = run->gpu_name;
	if (run->ki)
		snprintf(row.c.arch, sizeof row.c.arch, "%s", run->ki->arch);
	row.dev = run->s->have_dev ? &run->s->dev : NULL;
	row.partition = run->s->partition.on ? &run->s->partition : NULL;
	if (run->hook) {
		run->hook(run, &row, &gpu);
	} else if (o->api) {
		run_on_gpu(run->s, &row, &gpu);
		row.gpu = &gpu;
	}
	if ((run->clusters ? run->clusters : &o->cluster)->n)
		emit_clusters(run, &row, run->clusters ? run->clusters
						       : &o->cluster);
	else
		emit(run, &row);
	draw_charts(run->s, &row);
}

/* Every block size and dynamic shared memory for k's other values. */
void occ_run_blocks(struct occ_run *run, const struct occ_arch *a,
		    const struct seq *blocks, struct occ_kernel *k)
{
	const struct options *o = run->s->o;
	struct seq_iter ib, id;

	run->a = a;
	for (seq_first(&ib, blocks); ; ) {
		for (seq_first(&id, run->smem ? run->smem : &o->smem); ; ) {
			k->block_size = (int)ib.value;
			k->dynamic_smem = id.value;
			run->shape = blocks->ranges[ib.range].dim;
			run_one(run, k);
			if (run->failure[0] || !seq_next(&id))
				break;
		}
		if (run->failure[0] || !seq_next(&ib))
			break;
	}
}

/* Under a text table of clusters: which figures are upper bounds, and
 * what is unknown, in one line (the report says it per row). */
static void bounds_note(struct occ_run *run)
{
	unsigned b = run->cluster_bounds;
	char line[256];

	if (!b || run->out.format != OUT_TEXT)
		return;
	snprintf(line, sizeof line, "\nclusters, ctas, gpu occ: upper bounds "
		 "(cluster_bound); unknown: %s%s%s\n",
		 b & CLUSTER_CAP_UNKNOWN ? "the cluster blocks/SM cap, "
		 "non-portable sizes (Blackwell)" : "",
		 b == (CLUSTER_CAP_UNKNOWN | CLUSTER_LAYOUT_UNKNOWN) ? "; " : "",
		 b & CLUSTER_LAYOUT_UNKNOWN ? "the GPC layout" : "");
	out_text(&run->out, line);
}

int occ_run_piece(struct occ_run *piece, const struct occ_run *whole)
{
	piece->configs = piece->launching = 0;
	piece->cluster_bounds = 0;
	piece->failure[0] = '\0';
	piece->piece = 1;
	return out_piece_open(&piece->out, &whole->out);
}

void occ_run_piece_end(struct occ_run *piece)
{
	if (out_piece_close(&piece->out) != 0)   /* its rows are lost */
		snprintf(piece->failure, sizeof piece->failure,
			 "out of memory");
}

int occ_run_join(struct occ_run *run, struct occ_run *piece)
{
	out_join(&run->out, &piece->out);
	run->configs += piece->configs;
	run->launching += piece->launching;
	run->cluster_bounds |= piece->cluster_bounds;
	memcpy(run->failure, piece->failure, sizeof run->failure);
	return run->failure[0] != '\0';
}

void occ_run_close(struct occ_run *run)
{
	session_count_configs(run->s, run->configs, run->launching);
	if (!run->report && !run->sink) {
		bounds_note(run);
		out_close(&run->out);
	}
}
