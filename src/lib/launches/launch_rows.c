/*
 * launch_rows.c - a trace's launches as rows (occcalc/launch_rows.h):
 * each launch modelled on the device its trace describes (in the
 * partition's part of it), or on the GPU named (occ_launch_basis_of), or
 * given the reason it has no figures, and handed to the caller as it is
 * read: nothing is held per launch. What `occcalc --launches` prints,
 * and what a program reads.
 */
#include <stdlib.h>
#include <string.h>

#include "launch_rows_int.h"

static const char *const skip_text[OCC_LAUNCH_SKIP_COUNT] = {
	"on a device the trace does not describe",
	"on a GPU whose compute capability has no table",
	"on a device whose recorded properties no NVIDIA GPU of its compute "
	"capability has",
	"whose grid or block no GPU launches",
	"whose clusters no GPU runs (a dimension of 0 beside others, a grid "
	"they do not divide, or more blocks than the architecture's largest "
	"cluster): the record contradicts itself",
	"no block of which fits the SM as recorded, though it ran: the record "
	"contradicts itself or its device",
	"with clusters the GPU --gpu names does not run (none before compute "
	"capability 9.0, or larger than its largest): they cannot launch there",
};

const char *occ_launch_skip_text(enum occ_launch_skip why)
{
	return (unsigned)why < OCC_LAUNCH_SKIP_COUNT ? skip_text[why] : NULL;
}

/* A launch on the device it ran on (in the partition's part of it), or
 * on the GPU named (basis). */
static enum occ_status dev_compute(const struct occ_launch_dev *ld,
				   enum occ_launch_basis basis,
				   const struct occ_launch_record *l,
				   struct occ_launch_model *m)
{
	if (ld->in_part)
		return occ_launch_part_compute(&ld->arch, &ld->part, l, m);
	return occ_launch_compute_on(basis, &ld->arch,
				     ld->d.multiProcessorCount, l,
				     ld->have_layout ? &ld->layout : NULL, m);
}

static enum occ_launch_skip fault_skip(enum occ_launch_fault f,
				       enum occ_launch_basis b)
{
	if (b == OCC_LAUNCH_BASIS_WHAT_IF && f == OCC_LAUNCH_FAULT_CLUSTER)
		return OCC_LAUNCH_SKIP_WHAT_IF_CLUSTER;
	switch (f) {
	case OCC_LAUNCH_FAULT_CLUSTER: return OCC_LAUNCH_SKIP_CLUSTER;
	case OCC_LAUNCH_FAULT_NO_FIT: return OCC_LAUNCH_SKIP_NO_FIT;
	default: return OCC_LAUNCH_SKIP_SHAPE;
	}
}

/* r's figures, or why it has none, counted. */
static void model(struct occ_launch_rows *run, struct occ_launch_row *r,
		  struct occ_launch_dev *dev)
{
	enum occ_launch_skip why = OCC_LAUNCH_SKIP_COUNT;

	if (!dev)
		why = OCC_LAUNCH_SKIP_NO_DEVICE;
	else if (dev->arch_status == OCC_ERR_UNKNOWN_ARCH)
		why = OCC_LAUNCH_SKIP_NO_TABLE;
	else if (dev->arch_status != OCC_OK)
		why = OCC_LAUNCH_SKIP_BAD_DEVICE;
	else if (dev_compute(dev, r->basis, r->l, &r->m) != OCC_OK)
		why = fault_skip(r->m.fault, r->basis);
	if (why == OCC_LAUNCH_SKIP_COUNT) {
		if (dev->in_part && !dev->part.measured &&
		    r->m.cluster_size > 1)
			run->st.part_unmeasured++;
		return;
	}
	if (why == OCC_LAUNCH_SKIP_BAD_DEVICE)
		dev->skipped++;
	run->st.skipped[why]++;
	r->not_modelled = skip_text[why];
}

/* The device a launch is modelled on, by the library's rule: the GPU
 * named, else the trace's; the GPU named counts what it was to it. */
static struct occ_launch_dev *device_for(struct occ_launch_rows *run,
					 struct occ_launch_row *r)
{
	struct occ_launch_dev *dev = launch_rows_dev_of(run, r->l->device);
	struct occ_launch_dev *named = run->named;

	if (named && run->o.gpu_untraced_only && dev)
		named = NULL;
	r->basis = occ_launch_basis_of(dev ? &dev->d : NULL,
				       named ? &named->d : NULL, NULL);
	if (!named)
		return dev;
	*(r->basis == OCC_LAUNCH_BASIS_WHAT_IF ? &named->what_if
					       : &named->named_ran) += 1;
	return named;
}

static enum occ_status on_launch(void *ctx, const struct occ_launch_record *l,
				 const struct occ_launch_device *d)
{
	struct occ_launch_rows *run = ctx;
	struct occ_launch_dev *dev;
	struct occ_launch_row r;

	(void)d;
	if (run->o.want && !run->o.want(run->o.want_ctx, l)) {
		run->st.filtered++;
		return OCC_OK;
	}
	memset(&r, 0, sizeof r);
	r.file = run->file;
	r.l = l;
	dev = device_for(run, &r);
	r.dev = dev;
	model(run, &r, dev);
	run->st.launches++;
	return run->fn ? run->fn(run->ctx, &r) : OCC_OK;
}

const struct occ_launch_callbacks occ_launch_rows_callbacks = {
	launch_rows_on_device, on_launch
};

enum occ_status occ_launch_rows_new(const struct occ_launch_rows_opts *opts,
				    struct occ_launch_rows **out)
{
	struct occ_launch_rows *run;
	enum occ_status st;

	if (!out)
		return OCC_ERR_INVALID_INPUT;
	*out = NULL;
	if (!opts || !opts->tables)
		return OCC_ERR_INVALID_INPUT;
	if (!(run = calloc(1, sizeof *run)))
		return OCC_ERR_NOMEM;
	run->o = *opts;
	*out = run;
	if (!opts->gpu)
		return OCC_OK;
	run->file = "";
	st = launch_rows_new_device(run, opts->gpu, &run->named);
	if (run->named)
		run->named->named = 1;
	return st;
}

void occ_launch_rows_free(struct occ_launch_rows *run)
{
	size_t i;

	if (!run)
		return;
	for (i = 0; i < run->n_all; i++)
		free(run->all[i]);
	free(run->all);
	free(run);
}

void occ_launch_rows_begin(struct occ_launch_rows *run, const char *name,
			   occ_launch_row_fn fn, void *ctx)
{
	run->file = name;
	run->n_ids = 0;
	run->fn = fn;
	run->ctx = ctx;
}

/* A file (fd < 0: the one at name) read into rows, the read's info kept
 * in the counts too. */
static enum occ_status read_rows(struct occ_launch_rows *run, int fd,
				 const char *name, occ_launch_row_fn fn,
				 void *ctx, struct occ_launch_file *info,
				 struct occ_diag *diag)
{
	struct occ_launch_file fi;
	enum occ_status st;

	if (!run || !name)
		return OCC_ERR_INVALID_INPUT;
	/* Zeroed here: a file that does not open is not read, and the
	 * reader leaves its info as it was. */
	memset(&fi, 0, sizeof fi);
	occ_launch_rows_begin(run, name, fn, ctx);
	st = fd < 0 ? occ_launches_read_file(name, &occ_launch_rows_callbacks,
					     run, &fi, diag)
	     : occ_launches_read_fd(fd, name, &occ_launch_rows_callbacks, run,
				    &fi, diag);
	run->st.file = fi;
	if (info)
		*info = fi;
	return st;
}

enum occ_status occ_launch_rows_file(struct occ_launch_rows *run,
				     const char *path, occ_launch_row_fn fn,
				     void *ctx, struct occ_launch_file *info,
				     struct occ_diag *diag)
{
	return read_rows(run, -1, path, fn, ctx, info, diag);
}

enum occ_status occ_launch_rows_fd(struct occ_launch_rows *run, int fd,
				   const char *name, occ_launch_row_fn fn,
				   void *ctx, struct occ_launch_file *info,
				   struct occ_diag *diag)
{
	return fd < 0 ? OCC_ERR_INVALID_INPUT
		      : read_rows(run, fd, name, fn, ctx, info, diag);
}

const struct occ_launch_rows_stats *
occ_launch_rows_stats(const struct occ_launch_rows *run)
{
	return run ? &run->st : NULL;
}

const struct occ_launch_dev *
occ_launch_rows_device(const struct occ_launch_rows *run, size_t i)
{
	return run && i < run->n_all ? run->all[i] : NULL;
}

const struct occ_launch_dev *
occ_launch_rows_named(const struct occ_launch_rows *run)
{
	return run ? run->named : NULL;
}

/* One file (fd < 0: path) read with a reader of its own. */
static enum occ_status read_once(const struct occ_launch_rows_opts *opts,
				 int fd, const char *path,
				 occ_launch_row_fn fn, void *ctx,
				 struct occ_launch_rows_stats *stats,
				 struct occ_diag *diag)
{
	struct occ_launch_rows *run;
	enum occ_status st = occ_launch_rows_new(opts, &run);

	if (st == OCC_OK)
		st = read_rows(run, fd, path, fn, ctx, NULL, diag);
	if (stats && run) {
		*stats = run->st;
		stats->stop_dev = NULL;     /* freed with the reader */
	} else if (stats)
		memset(stats, 0, sizeof *stats);
	occ_launch_rows_free(run);
	return st;
}

enum occ_status
occ_launch_rows_read_file(const struct occ_launch_rows_opts *opts,
			  const char *path, occ_launch_row_fn fn, void *ctx,
			  struct occ_launch_rows_stats *stats,
			  struct occ_diag *diag)
{
	return read_once(opts, -1, path, fn, ctx, stats, diag);
}

enum occ_status
occ_launch_rows_read_fd(const struct occ_launch_rows_opts *opts, int fd,
			const char *name, occ_launch_row_fn fn, void *ctx,
			struct occ_launch_rows_stats *stats,
			struct occ_diag *diag)
{
	return fd < 0 ? OCC_ERR_INVALID_INPUT
		      : read_once(opts, fd, name, fn, ctx, stats, diag);
}
