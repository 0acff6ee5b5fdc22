/*
 * query_launches.c - a trace's launches for a program in one call
 * (occcalc/query.h): the rows occcalc --launches writes, as JSON, handed
 * over as they are read; and a PyTorch trace written back with each
 * kernel's occcalc figures in its args, as occcalc --annotate writes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "query_int.h"

enum occ_status occ_query_what_if(const struct occ_env *env,
				  const char *gpu,
				  struct occ_launch_rows_opts *opts,
				  struct occ_launch_device *dev,
				  struct occ_diag *diag)
{
	const struct occ_gpu *g;
	enum occ_status st;

	memset(opts, 0, sizeof *opts);
	opts->tables = env->tables;
	opts->gpus = env->gpus;
	opts->gpus_path = env->gpus_path;
	if (!gpu)
		return OCC_OK;
	if ((st = occ_query_listed_gpu(env, gpu, &g, diag)) != OCC_OK)
		return st;
	if ((st = occ_launch_device_of_gpu(g, -1, dev)) != OCC_OK) {
		occ_query_diag_key(diag, gpu);
		return st;
	}
	opts->gpu = dev;
	return OCC_OK;
}

/* What the launch rows' callback carries to the caller's. */
struct launch_json {
	struct selection sel;
	char small[8192];
	occ_json_row_fn fn;
	void *ctx;
};

static enum occ_status launch_json_row(void *ctx,
				       const struct occ_launch_row *r)
{
	struct launch_json *j = ctx;

	return occ_query_hand_json(&j->sel, r, j->small, sizeof j->small,
				   j->fn, j->ctx);
}

enum occ_status occ_env_launches_json(const struct occ_env *env,
				      const char *path, const char *gpu,
				      const char *fields, occ_json_row_fn fn,
				      void *ctx, uint64_t *launches,
				      struct occ_diag *diag)
{
	struct occ_launch_rows_opts opts;
	struct occ_launch_rows_stats stats;
	struct occ_launch_device dev;
	struct launch_json *j;
	enum occ_status st;

	if (!env || !path || !fn)
		return OCC_ERR_INVALID_INPUT;
	memset(&stats, 0, sizeof stats);
	if ((st = occ_query_what_if(env, gpu, &opts, &dev, diag)) != OCC_OK)
		return st;
	if (!(j = calloc(1, sizeof *j)))
		return OCC_ERR_NOMEM;
	st = occ_row_kind_select(&occ_launch_kind, fields ? fields
				 : OCC_LAUNCH_FIELDS, j->sel.f, FIELDS_MAX,
				 &j->sel.n, &j->sel.needs, diag);
	j->fn = fn;
	j->ctx = ctx;
	if (st == OCC_OK)
		st = occ_launch_rows_read_file(&opts, path, launch_json_row, j,
					       &stats, diag);
	if (launches)
		*launches = stats.launches;
	free(j);
	return st;
}

/* The annotation of the launch just read, until the trace's copy takes
 * it: "occcalc":{...}. */
struct annotation {
	char text[8192];
	size_t len;
	int have;
	occ_write_fn write;
	void *ctx;
};

static enum occ_status annotate_row(void *ctx, const struct occ_launch_row *r)
{
	static const char head[] = "\"occcalc\":";
	const struct occ_field *f[OCC_LAUNCH_ANNOTATION_MAX];
	struct annotation *a = ctx;
	size_t n = occ_launch_annotation_fields(r, f), room, len;

	memcpy(a->text, head, sizeof head - 1);
	room = sizeof a->text - (sizeof head - 1);
	len = occ_row_json(f, n, r, a->text + sizeof head - 1, room);
	/* The annotation's fields are numbers and short names. */
	if (len >= room)
		return OCC_ERR_RANGE;
	a->len = sizeof head - 1 + len;
	a->have = 1;
	return OCC_OK;
}

static enum occ_status annotation_members(void *ctx, const char **text,
					  size_t *len)
{
	struct annotation *a = ctx;

	*text = a->text;
	*len = a->have ? a->len : 0;
	a->have = 0;
	return OCC_OK;
}

static enum occ_status annotation_write(void *ctx, const void *p, size_t n)
{
	struct annotation *a = ctx;

	return a->write(a->ctx, p, n) ? OCC_ERR_IO : OCC_OK;
}

enum occ_status occ_env_annotate(const struct occ_env *env, const char *path,
				 const char *gpu, occ_write_fn write,
				 void *ctx, struct occ_diag *diag)
{
	struct occ_annotate_sink sink = { annotation_members, annotation_write,
					  NULL };
	struct occ_launch_rows_opts opts;
	struct occ_launch_device dev;
	struct occ_launch_rows *rows;
	struct occ_launch_file info;
	struct annotation *a;
	enum occ_status st;

	if (!env || !path || !write)
		return OCC_ERR_INVALID_INPUT;
	if ((st = occ_query_what_if(env, gpu, &opts, &dev, diag)) != OCC_OK)
		return st;
	if (!(a = calloc(1, sizeof *a)))
		return OCC_ERR_NOMEM;
	a->write = write;
	a->ctx = ctx;
	sink.ctx = a;
	if ((st = occ_launch_rows_new(&opts, &rows)) == OCC_OK) {
		occ_launch_rows_begin(rows, path, annotate_row, a);
		st = occ_launches_annotate_file(path, &occ_launch_rows_callbacks,
						rows, &sink, &info, diag);
		if (st == OCC_OK && info.format != OCC_LAUNCH_FORMAT_KINETO)
			st = OCC_ERR_UNSUPPORTED;
		occ_launch_rows_free(rows);
	}
	free(a);
	return st;
}
