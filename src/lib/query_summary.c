/*
 * query_summary.c - a trace's summary by kernel or operator for a program
 * in one call (occcalc/query.h): the rows occcalc --launches --summary
 * writes, as JSON. The launches stream into the summary; only its groups
 * are held, and handed over once the trace is read.
 */
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "query_int.h"

static enum occ_status summary_row(void *ctx, const struct occ_launch_row *r)
{
	return occ_launch_summary_add(ctx, r);
}

static enum occ_status by_of(const char *by, enum occ_launch_by *out,
			     struct occ_diag *diag)
{
	if (!by || strcmp(by, "kernel") == 0)
		*out = OCC_LAUNCH_BY_KERNEL;
	else if (strcmp(by, "op") == 0)
		*out = OCC_LAUNCH_BY_OP;
	else {
		occ_query_diag_key(diag, by);
		return OCC_ERR_INVALID_INPUT;
	}
	return OCC_OK;
}

struct summary_json {
	struct selection sel;
	char small[8192];
};

static enum occ_status summary_hand(struct occ_launch_summary *s,
				    struct summary_json *j, occ_json_row_fn fn,
				    void *ctx)
{
	const struct occ_launch_totals *t = occ_launch_summary_totals(s);
	const struct occ_launch_summary_group *const *g;
	struct occ_launch_summary_row row;
	enum occ_status st;
	size_t i, n;

	st = occ_launch_summary_groups(s, &g, &n);
	for (i = 0; i < n && st == OCC_OK; i++) {
		occ_launch_summary_row_make(t, g[i], &row);
		st = occ_query_hand_json(&j->sel, &row, j->small,
					 sizeof j->small, fn, ctx);
	}
	return st;
}

enum occ_status occ_env_launch_summary_json(const struct occ_env *env,
					    const char *path, const char *gpu,
					    const char *by, occ_json_row_fn fn,
					    void *ctx, struct occ_diag *diag)
{
	struct occ_launch_rows_opts opts;
	struct occ_launch_device dev;
	struct occ_launch_summary *s = NULL;
	struct occ_launch_rows *rows = NULL;
	struct summary_json *j = NULL;
	enum occ_launch_by how;
	enum occ_status st;

	if (!env || !path || !fn)
		return OCC_ERR_INVALID_INPUT;
	if ((st = by_of(by, &how, diag)) != OCC_OK ||
	    (st = occ_query_what_if(env, gpu, &opts, &dev, diag)) != OCC_OK)
		return st;
	if (!(j = calloc(1, sizeof *j)))
		return OCC_ERR_NOMEM;
	st = occ_row_kind_select(&occ_launch_summary_kind,
				 how == OCC_LAUNCH_BY_OP
				 ? OCC_LAUNCH_SUMMARY_FIELDS_OP
				 : OCC_LAUNCH_SUMMARY_FIELDS, j->sel.f,
				 FIELDS_MAX, &j->sel.n, &j->sel.needs, diag);
	if (st == OCC_OK)
		st = occ_launch_summary_new(how, &s);
	if (st == OCC_OK)
		st = occ_launch_rows_new(&opts, &rows);
	if (st == OCC_OK)
		st = occ_launch_rows_file(rows, path, summary_row, s, NULL,
					  diag);
	if (st == OCC_OK) {
		occ_launch_summary_file(s);
		st = summary_hand(s, j, fn, ctx);
	}
	/* The groups point at the reader's devices: freed after them. */
	occ_launch_summary_free(s);
	occ_launch_rows_free(rows);
	free(j);
	return st;
}
