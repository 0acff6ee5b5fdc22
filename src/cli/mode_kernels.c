/*
 * mode_kernels.c - --kernels PATH (alias --ptxas): the occupancy of each kernel
 * of a compiler report or a binary, one row per kernel and architecture,
 * within its __launch_bounds__; with --api, the driver's reading of the
 * same code beside it. A text table ends with a summary of the limiters
 * (kernels_summary.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "occupancy.h"
#include "kernels.h"

/* --api: the driver, and the file whose code it loads. */
struct api {
	struct gpu_loader *loader;
	const struct occ_arch *dev_arch;
	const char *file;
	unsigned char *buf;
	size_t len;
	const unsigned char *fixed;  /* standard input's bytes */
	size_t fixed_len;
	const void *refused;         /* the last image the driver refused */
};

struct report {
	struct occ_run run;
	int clusters;                 /* cluster launches computed */
	struct kernel_list *l;        /* the session's */
	struct kernel_summary sum;
	struct api api;
	const unsigned char *api_ok; /* per kernel: the driver can say */
	const struct occ_arch *gpu_table;   /* --gpu LIST: this GPU's */
	int gpu;                     /* and its index, or -1 */
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


/* ---- --api: the driver on the kernel's own code ---- */

static void api_load_file(struct api *a, const char *file)
{
	int fd;
	struct stat sb;
	ssize_t got;
	size_t n = 0;

	gpu_loader_forget(a->loader);
	a->refused = NULL;
	free(a->buf);
	a->buf = NULL;
	a->file = file;
	fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) != 0)
		die("%s: cannot read: %s", file, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		die("%s: changed while occcalc read it (no longer a regular "
		    "file)", file);
	if (!(a->buf = malloc((size_t)sb.st_size + 1)))
		die("%s: too large to read into memory", file);
	while (n < (size_t)sb.st_size &&
	       (got = read(fd, a->buf + n, (size_t)sb.st_size - n)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			die("%s: cannot read: %s", file, strerror(errno));
		n += (size_t)got;
	}
	close(fd);
	a->len = n;
}

/* Where cuModuleLoadData finds the kernel's code: the cubin, or the
 * fatbin holding it; NULL if the file changed since it was read. */
static const void *api_image(struct api *a, const struct kernel_info *k)
{
	const unsigned char *buf;
	size_t len;

	if (a->fixed && strcmp(k->file, "<stdin>") == 0) {
		buf = a->fixed;
		len = a->fixed_len;
	} else {
		if (a->file != k->file)
			api_load_file(a, k->file);
		buf = a->buf;
		len = a->len;
	}
	if (k->fatbin_offset < 0)
		return buf;
	return (uint64_t)k->fatbin_offset + 16 <= len
	       ? buf + k->fatbin_offset : NULL;
}

/* The model's most threads per block for k's registers and bound: what
 * the driver reports as CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK. */
static int model_max_threads(const struct occ_arch *a, const struct occ_kernel *k)
{
	struct occ_kernel t = *k;
	struct occ_result r;
	int size = k->max_threads > 0 && k->max_threads < a->max_threads_per_block
		   ? k->max_threads : a->max_threads_per_block;

	t.dynamic_smem = t.static_smem = 0;
	for (; size > 0; size -= size % a->warp_size ? size % a->warp_size
						     : a->warp_size) {
		t.block_size = size;
		if (occ_compute(a, &t, &r) == OCC_OK && r.blocks_per_sm > 0)
			break;
	}
	return size;
}

static int func_agrees(const struct occ_row *row, const struct gpu_func *f)
{
	const struct kernel_info *k = row->ki;

	/* Above the bound the occupancy APIs answer as if there were none,
	 * but a launch fails (docs/kernels-api-validation.md): 0 stands. */
	int blocks = row->r.reason == OCC_ABOVE_LAUNCH_BOUNDS ||
		     f->blocks == row->r.blocks_per_sm;

	return f->regs == k->regs && f->static_smem == k->static_smem &&
	       f->local == k->stack && blocks &&
	       f->max_threads == model_max_threads(row->a, &row->k);
}

static void api_row(struct report *rep, struct occ_row *row,
		    struct row_gpu *g)
{
	struct session *s = rep->run.s;
	const struct kernel_info *k = row->ki;
	const void *image;
	char err[512];
	int st;

	if (!rep->api_ok[k - rep->l->k])
		return;
	image = api_image(&rep->api, k);
	if (!image)
		die("%s: changed while occcalc read it", k->file);
	st = gpu_loader_query(rep->api.loader, image, k->mangled,
			      row->k.block_size, row->k.dynamic_smem, &g->func,
			      err, sizeof err);
	if (st < 0)
		session_device_failed(s, err);
	if (st == 2 && rep->api.refused != image)
		warn("%s: the driver does not load its code: %s", k->file, err);
	if (st == 2)
		rep->api.refused = image;
	if (st == 1)
		warn("%s: %s: %s", k->file, k->name ? k->name : k->mangled, err);
	if (st > 0)
		return;
	g->have_func = 1;
	g->api_blocks = g->func.blocks;
	/* PTX: occcalc reads no resources to set beside the driver's (its
	 * row's model fields and agrees are null); nothing is counted. */
	g->agrees = k->ptx_only || func_agrees(row, &g->func);
	if (!g->agrees)
		s->disagreements++;
	row->gpu = g;
}

/* Which kernels the driver can say something of: the device's own cubins,
 * and PTX where the fatbin holding it has no cubin for the device. */
static unsigned char *api_targets(const struct kernel_list *l,
				  const struct occ_device *d)
{
	unsigned char *ok = calloc(l->n + 1, 1);
	size_t i, j, start;
	int cubin;

	if (!ok)
		die("out of memory");
	for (start = 0; start < l->n; start = i) {
		cubin = 0;
		for (i = start; i < l->n && l->k[i].file == l->k[start].file &&
		     l->k[i].fatbin_offset == l->k[start].fatbin_offset; i++)
			cubin |= !l->k[i].ptx_only &&
				 l->k[i].cc_major == d->cc_major &&
				 l->k[i].cc_minor == d->cc_minor;
		for (j = start; j < i; j++) {
			const struct kernel_info *k = &l->k[j];
			int cc = k->cc_major * 10 + k->cc_minor;

			ok[j] = k->relocatable ? 0
				: k->ptx_only ? !cubin && cc <= d->cc_major * 10 +
						d->cc_minor
				: k->cc_major == d->cc_major &&
				  k->cc_minor == d->cc_minor;
		}
	}
	return ok;
}

static void api_open(struct report *rep, struct session *s)
{
	char err[512];
	size_t i, relocatable = 0;

	if (rep->l->text)
		die("--api loads the kernels' code: give a binary (a compiler "
		    "report holds none)");
	rep->api.dev_arch = session_device_arch(s);
	rep->api.loader = gpu_loader_open(&s->gpu, err, sizeof err);
	if (!rep->api.loader)
		session_device_failed(s, err);
	rep->api.fixed = rep->l->stdin_buf;
	rep->api.fixed_len = rep->l->stdin_len;
	rep->api_ok = api_targets(rep->l, &s->dev);
	for (i = 0; i < rep->l->n; i++)
		relocatable += rep->l->k[i].relocatable;
	if (relocatable)
		warn("%zu kernel%s of relocatable device code (nvcc -rdc) not "
		     "given to the driver: it loads linked code", relocatable,
		     plural(relocatable));
}

/* ---- Rows ---- */

/* Each computed row: the driver's reading (--api), then the summary. */
static void kernel_row(struct occ_run *run, struct occ_row *row,
		       struct row_gpu *g)
{
	struct report *rep = run->hook_ctx;

	memset(g, 0, sizeof *g);
	if (rep->api.loader)
		api_row(rep, row, g);
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

static const struct occ_arch *kernel_arch(struct report *rep,
					  const struct kernel_info *k)
{
	struct session *s = rep->run.s;
	const struct occ_arch *a;

	if (rep->api.dev_arch && k->cc_major == s->dev.cc_major &&
	    k->cc_minor == s->dev.cc_minor)
		return rep->api.dev_arch;
	a = occ_tables_find(session_tables(s), k->cc_major, k->cc_minor);
	if (!a && k->line)
		die("%s:%d: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table", k->file, k->line, k->mangled,
		    k->cc_major, k->cc_minor);
	if (!a)
		die("%s: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table (--arch keeps one architecture)",
		    k->file, k->mangled, k->cc_major, k->cc_minor);
	return a;
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
	if (rep->run.sink) {
		rep->run.sink(&rep->run, &row);
		return;
	}
	/* A text table lists PTX under it; --check still judges the row. */
	if (rep->run.out.format == OUT_TEXT) {
		if (rep->run.out.check)
			check_judge(rep->run.out.check, &row);
		return;
	}
	if (rep->api.loader)
		api_row(rep, &row, &g);
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
	kernels_cluster_for(s->o, a, ki, rep->clusters, &req);
	rep->run.clusters = &req;
	occ_run_blocks(&rep->run, a, blocks, &k);
}

/* --gpu LIST: a kernel no image of which the GPU loads. */
static void no_image_row(struct report *rep, const struct kernel_info *k)
{
	struct occ_row row;

	memset(&row, 0, sizeof row);
	row.kernel = k->name ? k->name : k->mangled;
	row.no_model = row.no_image = 1;
	row.gpu_name = rep->run.gpu_name;
	if (rep->run.out.format == OUT_TEXT) {
		if (rep->run.out.check)
			check_judge(rep->run.out.check, &row);
		return;
	}
	out_row(&rep->run.out, &row);
}

static void min_blocks_from_ptx(struct kernel_list *l);

/* --gpu LIST, --arch LIST: target i's kernels read; its table. */
static void target_begin(void *ctx, int i, struct kernel_list *l)
{
	struct report *rep = ctx;
	struct session *s = rep->run.s;

	rep->l = l;
	if (i)          /* the first target's list is report_start's */
		min_blocks_from_ptx(rep->l);
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

/* A cubin does not record __launch_bounds__' minimum blocks; the PTX of
 * the same kernel beside it in the fatbin does (.minnctapersm). */
static void min_blocks_from_ptx(struct kernel_list *l)
{
	size_t start, end, i, j;

	for (start = 0; start < l->n; start = end) {
		for (end = start; end < l->n && l->k[end].file == l->k[start].file
		     && l->k[end].fatbin_offset == l->k[start].fatbin_offset;
		     end++)
			;
		for (i = start; i < end; i++) {
			if (!l->k[i].ptx_only || l->k[i].min_blocks <= 0)
				continue;
			for (j = start; j < end; j++)
				if (!l->k[j].ptx_only && l->k[j].min_blocks < 0 &&
				    strcmp(l->k[j].mangled, l->k[i].mangled) == 0)
					l->k[j].min_blocks = l->k[i].min_blocks;
		}
	}
}

/* A binary without kernels whose fatbins hold something else: what, and
 * why no resources can be read from it. */
static void no_kernel_contents(const struct occ_bin_contents *n,
			       const char *input)
{
	if (n->kernels)
		return;          /* all left out by --arch or --kernel */
	if (n->ltoir && !n->data_fatbins)
		die("%s: no kernel to read: its %llu fatbin%s hold%s %llu "
		    "LTO-IR image%s (nvcc -dlto), which is linked and compiled "
		    "to SASS only when the program runs (nvJitLink): no "
		    "registers or shared memory exist before", input,
		    (unsigned long long)n->fatbins, plural(n->fatbins),
		    n->fatbins == 1 ? "s" : "", (unsigned long long)n->ltoir,
		    plural(n->ltoir));
	if (n->data_fatbins)
		die("%s: no kernel in the fatbins the CUDA runtime registers "
		    "(%llu, .nv_fatbin); %llu more fatbins lie in its other "
		    "sections, outside what the runtime registers: occcalc "
		    "does not read those", input,
		    (unsigned long long)n->fatbins,
		    (unsigned long long)n->data_fatbins);
}

/* The list made ready (minimum blocks from PTX, PTX beside SASS
 * dropped), the driver opened with --api, and the run of rows opened
 * with its hooks. */
static void report_start(struct report *rep, struct session *s, int api)
{
	min_blocks_from_ptx(rep->l);
	kernels_drop_beside(rep->l);
	if (api)
		api_open(rep, s);
	/* --gpu LIST: each GPU's, as its rows begin (target_begin). */
	rep->clusters = !s->o->gpu_list &&
			kernels_clusters_prepare(s, rep->l, NULL);
	occ_run_open(&rep->run, s, 1, rep->clusters ||
		     targets_cluster(s, rep->l) ? 2 : 1);
	rep->run.hook = kernel_row;
	rep->run.cluster_hook = count_cluster;
	rep->run.hook_ctx = rep;
}

void kernels_rows(struct session *s, struct kernel_list *l,
		  void (*sink)(struct occ_run *, const struct occ_row *),
		  void *ctx)
{
	struct report rep;
	size_t i;

	if (l->n == 0)
		die("%s: no kernel%s%s", l->nfiles ? l->files[0] : "input",
		    s->o->arch ? " compiled for --arch " : "",
		    s->o->arch ? s->o->arch : "");
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

/* Kernels whose fatbins hold no image that runs on the GPU named: a
 * notice, or the end of the run when nothing else is left. */
static void no_image_notice(const struct kernel_list *l, const char *input)
{
	int cc = l->target_cc;

	if (!l->no_image)
		return;
	if (l->n == 0)
		die("%s: no image runs on compute capability %d.%d: its SASS "
		    "is for other GPUs and its PTX (if any) for later ones "
		    "(--all-images lists every image)", input, cc / 10, cc % 10);
	warn("%zu kernel image%s of fatbins with no image that runs on "
	     "compute capability %d.%d left out (--all-images lists them)",
	     l->no_image, plural(l->no_image), cc / 10, cc % 10);
}

int mode_kernels(struct session *s)
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
		die_usage("--arch: '%s': not an architecture (try sm_90, 90 "
			  "or 9.0)", o->arch);
	if (o->ptxas_jit && (o->all_images ||
			     (!o->arch && !o->api && !o->device_given)))
		die_usage("--ptxas-jit: name the GPU the driver compiles the "
			  "PTX for (--gpu, --device, --arch, --api), and not "
			  "--all-images");
	kernels_read(s, o->ptxas, rep.l);
	no_image_notice(rep.l, o->ptxas);
	for (i = 0; i < (size_t)o->n_more_kernels; i++)
		kernels_read_add(s, o->more_kernels[i], rep.l);
	if (rep.l->n == 0 && !rep.l->text && o->n_more_kernels == 0)
		no_kernel_contents(&rep.l->contents, o->ptxas);
	if (rep.l->n == 0)
		die("%s: no kernel%s%s%s%s", o->ptxas, o->arch ? " compiled for "
		    "--arch " : "", o->arch ? o->arch : "",
		    o->kernel_re ? " matching --kernel " : "",
		    o->kernel_re ? o->kernel_re : "");
	report_start(&rep, s, o->api);
	if (s->n_targets)
		targets_kernels(s, rep.l, target_begin, target_row, &rep);
	else
		for (i = 0; i < rep.l->n; i++)
			kernel_rows(&rep, &rep.l->k[i]);
	if (o->format == OUT_TEXT && !o->fields)
		kernels_notes(&rep.run.out, rep.l, o, &rep.sum,
			      rep.clusters);
	if (o->format == OUT_TEXT && !o->fields)
		matrix_print(s, &rep.run.out);
	occ_run_close(&rep.run);
	if (s->disagreements)
		warn("%llu kernel%s where the driver disagrees with occcalc's "
		     "reading or model (see the agrees column)",
		     (unsigned long long)s->disagreements,
		     plural(s->disagreements));
	gpu_loader_close(rep.api.loader);
	free(rep.api.buf);
	free((void *)rep.api_ok);
	kernels_free(rep.l);
	return session_status(s);
}
