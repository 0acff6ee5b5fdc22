/*
 * query_kernels_cluster.c - occ_env_kernels_json's cluster launches
 * (query_kernels.h), as occcalc --kernels makes them: where a kernel
 * read declares a cluster (occ_kernel_declares_cluster) and a GPU is
 * named, every row carries the cluster fields, and a row whose kernel
 * launches a cluster (occ_kernel_cluster_for) is that launch on the
 * GPU's layout. Whether any does is known only once all is read, and a
 * row's fields before then depend on it: so a first pass over the input
 * looks for one.
 */
#include <stdlib.h>
#include <string.h>

#include "query_kernels.h"

/* The first pass: the file whose kernels are counted (Triton's metadata
 * names the cubin's count), its first kernel, and what was found. */
struct declaring {
	const struct occ_tables *tables;
	const struct occ_kernels_read_opts *opts;
	void *start_ctx;
	int walk;
	char *file, *first;
	struct occ_kernel_in in;         /* the file's first kernel */
	int n;
	int found;
	enum occ_status st;
};

static void declaring_clear(struct declaring *d)
{
	free(d->file);
	free(d->first);
	d->file = d->first = NULL;
	d->n = 0;
}

/* Whether the held file is a Triton cubin whose launch declares a
 * cluster (num_ctas), read as the rows' pass reads it. */
static int launch_declares(struct declaring *d)
{
	struct occ_triton_entry e;
	struct occ_kernels_diag diag;

	if (!d->file || !d->walk || d->in.ptx_only ||
	    d->in.source != OCC_KSRC_CUBIN ||
	    occ_triton_entry_read(d->file, d->first, d->n, &e, &diag) !=
	    OCC_OK)
		return 0;
	return occ_kernel_declares_cluster(d->tables, &d->in, &e);
}

static int declaring_take(const struct occ_kernel_in *in, void *ctx)
{
	struct declaring *d = ctx;

	if (d->file && strcmp(d->file, in->file) != 0) {
		d->found = launch_declares(d);
		declaring_clear(d);
	}
	d->found = d->found || occ_kernel_declares_cluster(d->tables, in, NULL);
	if (d->found)
		return 1;
	if (!d->file) {
		d->file = strdup(in->file);
		d->first = strdup(in->mangled);
		d->in = *in;
		if (!d->file || !d->first) {
			d->st = OCC_ERR_NOMEM;
			return 1;
		}
	}
	d->n++;
	return 0;
}

static void declaring_start(enum occ_kernels_kind kind,
			    struct occ_kernels_read_opts *o, void *ctx)
{
	struct declaring *d = ctx;

	d->walk = kind == OCC_KERNELS_DIR;
	if (d->opts->start)
		d->opts->start(kind, o, d->start_ctx);
}

/* Whether a kernel of path declares a cluster. */
static enum occ_status any_declares(const struct occ_env *env,
				    const char *path,
				    const struct occ_kernels_read_opts *opts,
				    void *start_ctx, int *found,
				    struct occ_kernels_diag *diag)
{
	struct declaring d;
	struct occ_kernels_read_opts o = *opts;
	enum occ_status st;
	int stopped = 0;

	memset(&d, 0, sizeof d);
	d.tables = env->tables;
	d.opts = opts;
	d.start_ctx = start_ctx;
	o.start = declaring_start;
	st = occ_kernels_read(path, &o, declaring_take, &d, &stopped, NULL,
			      diag);
	if (st == OCC_OK && d.st != OCC_OK)
		st = d.st;
	if (st == OCC_OK && !d.found)
		d.found = launch_declares(&d);
	declaring_clear(&d);
	*found = d.found;
	return st;
}

/* A field of a row without a cluster launch. */
static void get_absent(const void *row, const struct occ_field *f,
		       struct occ_val *v)
{
	(void)row;
	(void)f;
	v->type = OCC_VAL_NULL;
}

/* The field name (len bytes): the kernel row's, else the cluster
 * launch's. */
static enum occ_status select_name(struct kernels_clusters *kc,
				   const char *name, size_t len,
				   struct occ_diag *diag)
{
	const struct occ_field *x = occ_field_find(&occ_kernel_kind, name,
						   len);
	int cl = !x;

	if (cl)
		x = occ_field_find(&occ_cluster_kind, name, len);
	if (!x) {
		memset(diag, 0, sizeof *diag);
		memcpy(diag->key, name, len < sizeof diag->key ? len
		       : sizeof diag->key - 1);
		return OCC_ERR_UNKNOWN_KEY;
	}
	if (kc->n == FIELDS_MAX)
		return OCC_ERR_RANGE;
	kc->f[kc->n] = x;
	kc->of_cluster[kc->n] = (unsigned char)cl;
	kc->absent[kc->n] = *x;
	kc->absent[kc->n].get = get_absent;
	if (!cl)
		kc->needs |= x->needs;
	kc->n++;
	return OCC_OK;
}

static enum occ_status select_fields(struct kernels_clusters *kc,
				     const char *list, struct occ_diag *diag)
{
	enum occ_status st = OCC_OK;
	const char *p = list;

	while (p && st == OCC_OK) {
		const char *comma = strchr(p, ',');

		st = select_name(kc, p, comma ? (size_t)(comma - p)
				 : strlen(p), diag);
		p = comma ? comma + 1 : NULL;
	}
	return st;
}

enum occ_status occ_kernels_clusters_open(
		const struct occ_env *env, const char *path, const char *gpu,
		const struct occ_arch *a, int sms, const char *fields,
		const struct occ_kernels_read_opts *opts, void *start_ctx,
		struct kernels_clusters *kc, struct occ_kernels_diag *diag)
{
	enum occ_status st = OCC_OK;
	int found = 0;

	kc->on = 0;
	kc->n = 0;
	if (gpu && a)
		st = any_declares(env, path, opts, start_ctx, &found, diag);
	/* Without cluster launches, the cluster fields asked are absent in
	 * every row, as occcalc writes them. */
	if (st != OCC_OK || !found)
		return st == OCC_OK && fields ? select_fields(kc, fields,
							      &diag->data)
		       : st;
	st = occ_query_cluster_layout(env, a, gpu, sms, &kc->L, &diag->data);
	if (st == OCC_OK)
		st = select_fields(kc, fields ? fields : OCC_KERNEL_ROW_FIELDS
				   OCC_KERNEL_ROW_CLUSTER_FIELDS, &diag->data);
	kc->on = st == OCC_OK;
	return st;
}

/* row's cluster launch into cl, where it makes one: 1. */
static int cluster_of(const struct kernels_clusters *kc,
		      const struct occ_arch *a, struct occ_kernel_row *row,
		      const struct occ_triton_entry *launch,
		      struct occ_cluster_row *cl)
{
	struct occ_cluster_query q;

	memset(&q, 0, sizeof q);
	if (!kc->on || !a || !row->of.k || row->c.no_model || row->c.no_image ||
	    occ_kernel_cluster_for(a, row->of.k, launch, &q.shape,
				   &q.source) != OCC_KERNEL_CLUSTER_DECLARED ||
	    occ_cluster_row_compute(&row->c, &kc->L, &q, cl) != OCC_OK)
		return 0;
	occ_cluster_row_waves(cl, &row->c);
	return 1;
}

enum occ_status occ_kernels_cluster_hand(
		const struct kernels_clusters *kc, const struct occ_arch *a,
		struct occ_kernel_row *row,
		const struct occ_triton_entry *launch, char *small,
		size_t cap, occ_json_row_fn fn, void *ctx)
{
	struct occ_cluster_row *cl = malloc(sizeof *cl);
	const struct occ_field *f[FIELDS_MAX];
	const void *rows[FIELDS_MAX];
	char *big = NULL;
	size_t i, len;
	int has, stop;

	if (!cl)
		return OCC_ERR_NOMEM;
	has = cluster_of(kc, a, row, launch, cl);
	for (i = 0; i < kc->n; i++) {
		f[i] = kc->of_cluster[i] && !has ? &kc->absent[i] : kc->f[i];
		rows[i] = !kc->of_cluster[i] ? (const void *)row
			  : has ? (const void *)cl : NULL;
	}
	len = occ_row_parts_json(f, rows, kc->n, small, cap);
	if (len >= cap && (big = malloc(len + 1)))
		occ_row_parts_json(f, rows, kc->n, big, len + 1);
	stop = len < cap || big ? fn(ctx, big ? big : small, len) : -1;
	free(big);
	free(cl);
	return stop < 0 ? OCC_ERR_NOMEM : stop ? OCC_ERR_INVALID_INPUT
	       : OCC_OK;
}
