/*
 * query_kernels.c - the rows occcalc --kernels PATH writes, for a
 * program in one call (occcalc/kernel_row.h): each kernel the library's
 * read hands over (occ_kernels_read), held until its file ends (a
 * Triton cubin's launch needs its count, and the rules of which image
 * runs compare a file's images), then made into its row
 * (occ_kernel_row_compute), named (occ_demangle) and handed over as JSON.
 * Where a kernel declares a cluster launch, the rows are cluster
 * launches (query_kernels_cluster.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "query_kernels.h"

/* A kernel held until its file ends: the read's record, its name
 * copied (the read's is valid during its callback only). */
struct held {
	struct occ_kernel_in in;
	char *mangled;
};

struct kernels_read {
	struct occ_kernel_query q;
	struct selection sel;
	char small[8192];
	occ_json_row_fn fn;
	void *ctx;
	int walk;                /* a directory: Triton's metadata read */
	int runs;                /* a kernel read runs on the GPU named */
	const char *input;       /* as the caller named it */
	struct occ_kernels_diag *diag;
	char *file;              /* the file whose kernels are held */
	struct held *k;
	size_t n, cap;
	enum occ_status st;      /* the first failure of a flush */
	struct kernels_clusters clusters;
};

static void held_clear(struct kernels_read *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->k[i].mangled);
	r->n = 0;
	free(r->file);
	r->file = NULL;
}

/* The i-th held kernel as the library's rules compare them. */
static void pick_held(const void *list, size_t i, struct occ_kernel_pick *p)
{
	const struct occ_kernel_in *k = &((const struct held *)list)[i].in;
	struct occ_kernel_image im = { k->arch, k->cc_major, k->cc_minor,
				       k->ptx_only, k->relocatable,
				       k->sole_image, k->image };

	p->file = k->file;
	p->mangled = k->mangled;
	p->im = im;
	p->fatbin_offset = k->fatbin_offset;
	p->min_blocks = k->min_blocks;
}

/* The held kernels drop leaves, in their order. */
static void compact(struct kernels_read *r, const unsigned char *drop)
{
	size_t i, kept = 0;

	for (i = 0; i < r->n; i++)
		if (drop[i])
			free(r->k[i].mangled);
		else
			r->k[kept++] = r->k[i];
	r->n = kept;
}

/* Of the file's kernels, those the driver runs: relocatable code left out
 * where linked code is beside it (occ_kernels_drop_relocatable), then
 * with a GPU named, of a kernel's images the one it loads there
 * (occ_kernels_keep_loaded). */
static enum occ_status keep_what_runs(struct kernels_read *r)
{
	unsigned char *drop = malloc(r->n);
	enum occ_status st = OCC_ERR_NOMEM;

	if (drop && (st = occ_kernels_drop_relocatable(r->k, r->n, pick_held,
						       drop)) == OCC_OK)
		compact(r, drop);
	if (st == OCC_OK && r->q.named && r->n > 1 &&
	    (st = occ_kernels_keep_loaded(r->k, r->n, pick_held,
					  r->q.named_cc_major,
					  r->q.named_cc_minor, drop)) == OCC_OK)
		compact(r, drop);
	free(drop);
	return st;
}

/* A cubin's minimum blocks from the PTX beside it in its fatbin
 * (occ_kernels_min_blocks_from_ptx). */
static enum occ_status min_blocks_from_ptx(struct kernels_read *r)
{
	int *min = malloc(r->n * sizeof *min);
	enum occ_status st = OCC_ERR_NOMEM;
	size_t i;

	if (min && (st = occ_kernels_min_blocks_from_ptx(r->k, r->n, pick_held,
							 min)) == OCC_OK)
		for (i = 0; i < r->n; i++)
			if (min[i] > 0)
				r->k[i].in.min_blocks = min[i];
	free(min);
	return st;
}

/* row with the cluster fields: its cluster launch, where it makes one,
 * on the table it was computed with. */
static enum occ_status cluster_row(struct kernels_read *r,
				   struct occ_kernel_row *row,
				   const struct occ_triton_entry *launch)
{
	const struct occ_arch *a = NULL;
	const struct occ_kernel_in *k = row->of.k;

	if (!k->ptx_only)
		occ_kernel_table(r->q.tables, r->q.named, r->q.named_cc_major,
				 r->q.named_cc_minor, k, &a);
	return occ_kernels_cluster_hand(&r->clusters, a, row, launch,
					r->small, sizeof r->small, r->fn,
					r->ctx);
}

/* k's row handed over as JSON. */
static enum occ_status hand_row(struct kernels_read *r,
				const struct occ_kernel_in *k,
				const struct occ_triton_entry *launch)
{
	struct occ_kernel_row *row = malloc(sizeof *row);
	struct occ_kernel_of of;
	char *name = occ_demangle(k->mangled);
	enum occ_status st = OCC_ERR_NOMEM;

	memset(&of, 0, sizeof of);
	of.k = k;
	of.name = name;
	of.launch = launch;
	if (row && (st = occ_kernel_row_compute(&r->q, &of, row)) == OCC_OK)
		st = r->clusters.n ? cluster_row(r, row, launch)
		     : occ_query_hand_json(&r->sel, row, r->small,
					   sizeof r->small, r->fn, r->ctx);
	free(row);
	free(name);
	return st;
}

/* No kernel read runs on the GPU named, as the command line words it. */
static enum occ_status no_image_runs(struct kernels_read *r)
{
	snprintf(r->diag->msg, sizeof r->diag->msg, "%s: no image runs on "
		 "compute capability %d.%d: its SASS is for other GPUs and its "
		 "PTX (if any) for later ones", r->input, r->q.named_cc_major,
		 r->q.named_cc_minor);
	return OCC_ERR_UNSUPPORTED;
}

/* The held file's rows (end: the input's last): its Triton launch, where a cache's metadata
 * gives its one kernel one. */
static enum occ_status flush(struct kernels_read *r, int end)
{
	struct occ_triton_entry e;
	struct occ_kernels_diag d;
	const struct occ_triton_entry *launch = NULL;
	const char *first;
	enum occ_status st = OCC_OK;
	size_t i;

	if (!r->n)
		return OCC_OK;
	first = r->k[0].mangled;
	if (r->walk && !r->k[0].in.ptx_only &&
	    r->k[0].in.source == OCC_KSRC_CUBIN &&
	    occ_triton_entry_read(r->file, first, (int)r->n, &e, &d) == OCC_OK)
		launch = &e;
	for (i = 0; i < r->n; i++)
		r->runs |= r->k[i].in.image != OCC_IMAGE_NONE;
	if (st == OCC_OK && r->q.named && !r->runs && end)
		st = no_image_runs(r);
	if (st == OCC_OK)
		st = keep_what_runs(r);
	if (st == OCC_OK)
		st = min_blocks_from_ptx(r);
	/* The PTX read beside the SASS chosen gave it its minimum blocks:
	 * it is not what runs. */
	for (i = 0; st == OCC_OK && i < r->n; i++)
		if (r->k[i].in.image != OCC_IMAGE_BESIDE)
			st = hand_row(r, &r->k[i].in,
				      r->k[i].mangled == first ? launch : NULL);
	held_clear(r);
	return st;
}

static int take(const struct occ_kernel_in *in, void *ctx)
{
	struct kernels_read *r = ctx;
	struct held *h;

	if (r->file && strcmp(r->file, in->file) != 0 &&
	    (r->st = flush(r, 0)) != OCC_OK)
		return 1;
	if (!r->file && !(r->file = strdup(in->file)))
		goto nomem;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;

		if (!(h = realloc(r->k, cap * sizeof *h)))
			goto nomem;
		r->k = h;
		r->cap = cap;
	}
	h = &r->k[r->n];
	h->in = *in;
	h->in.bin = NULL;
	h->in.file = r->file;
	if (!(h->mangled = strdup(in->mangled)))
		goto nomem;
	h->in.mangled = h->mangled;
	r->n++;
	return 0;
nomem:
	r->st = OCC_ERR_NOMEM;
	return 1;
}

/* A binary's or a directory's images: those the GPU named loads. */
static void read_start(enum occ_kernels_kind kind,
		       struct occ_kernels_read_opts *o, void *ctx)
{
	struct kernels_read *r = ctx;

	r->walk = kind == OCC_KERNELS_DIR;
	if (r->q.named) {
		o->bin.cc_major = r->q.named_cc_major;
		o->bin.cc_minor = r->q.named_cc_minor;
	}
}

/* The GPU that arch and gpu name, if any, into r's query; the name
 * --arch keeps kernels by into want. */
static enum occ_status named_gpu(const struct occ_env *env, const char *arch,
				 const char *gpu, struct kernels_read *r,
				 char *want, size_t n, struct occ_diag *diag)
{
	const struct occ_arch *a;
	enum occ_status st;
	int sms = 0;

	*want = '\0';
	if (!arch && !gpu)
		return OCC_OK;
	if ((st = occ_env_gpu(env, arch, gpu, &a, &sms, diag)) != OCC_OK)
		return st;
	r->q.named = a;
	r->q.named_cc_major = a->cc_major;
	r->q.named_cc_minor = a->cc_minor;
	r->q.q.sms = sms;
	if (arch)
		snprintf(want, n, "%s", arch);
	else
		snprintf(want, n, "sm_%d%d", a->cc_major, a->cc_minor);
	return OCC_OK;
}

enum occ_status occ_env_kernels_json(const struct occ_env *env,
				     const char *path, const char *arch,
				     const char *gpu, int block, int64_t smem,
				     const char *fields, occ_json_row_fn fn,
				     void *ctx, struct occ_kernels_diag *diag)
{
	struct occ_kernels_read_opts opts;
	struct kernels_read *r;
	char want[64];
	enum occ_status st;
	int stopped = 0;

	if (!env || !path || !fn || !diag || block < 0)
		return OCC_ERR_INVALID_INPUT;
	memset(diag, 0, sizeof *diag);
	if (!(r = calloc(1, sizeof *r)))
		return OCC_ERR_NOMEM;
	occ_config_query_init(&r->q.q);
	r->q.tables = env->tables;
	r->q.block_given = block > 0;
	r->q.q.k.block_size = block;
	r->q.smem_given = smem >= 0;
	r->q.q.growth.fixed = smem >= 0 ? (uint64_t)smem : 0;
	r->fn = fn;
	r->ctx = ctx;
	r->input = path;
	r->diag = diag;
	st = named_gpu(env, arch, gpu, r, want, sizeof want, &diag->data);
	memset(&opts, 0, sizeof opts);
	opts.tables = env->tables;
	opts.arch = *want ? want : NULL;
	opts.start = read_start;
	/* Rows of cluster launches take their fields from both kinds. */
	if (st == OCC_OK)
		st = occ_kernels_clusters_open(env, path, gpu, r->q.named,
					       r->q.q.sms, fields, &opts, r,
					       &r->clusters, diag);
	if (st == OCC_OK && !r->clusters.n)
		st = occ_row_kind_select(&occ_kernel_kind, fields ? fields
					 : OCC_KERNEL_ROW_FIELDS, r->sel.f,
					 FIELDS_MAX, &r->sel.n, &r->sel.needs,
					 &diag->data);
	r->q.q.needs = r->clusters.n ? r->clusters.needs : r->sel.needs;
	if (st == OCC_OK)
		st = occ_kernels_read(path, &opts, take, r, &stopped, NULL,
				      diag);
	if (st == OCC_OK && stopped)
		st = r->st;
	if (st == OCC_OK)
		st = flush(r, 1);
	held_clear(r);
	free(r->k);
	free(r);
	return st;
}
