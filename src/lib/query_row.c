/*
 * query_row.c - a configuration's row with its cluster launch and its
 * part of the GPU (occcalc/query_row.h): the command line's rules, the
 * target module's layout and part, each field written from the row of
 * its kind.
 */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"
#include "query_int.h"

/* The kinds of row a row joins, in the order their fields are looked
 * for and written by default. */
enum { OF_CONFIG, OF_CLUSTER, OF_PART, OF_N };

static const struct occ_row_kind *const kinds[OF_N] = {
	&occ_config_kind, &occ_cluster_kind, &occ_partition_kind
};

/* Fields of the kinds in play, each with the kind it is read from. */
struct joined {
	const struct occ_field *f[FIELDS_MAX];
	unsigned char of[FIELDS_MAX];
	size_t n;
	unsigned needs;                    /* the configuration's */
};

static void join(struct joined *j, const struct occ_field *x, int of)
{
	j->f[j->n] = x;
	j->of[j->n++] = (unsigned char)of;
	if (of == OF_CONFIG)
		j->needs |= x->needs;
}

/* The field name (len bytes) of the first kind in play (bits of `play`)
 * that has it, joined. */
static enum occ_status join_name(struct joined *j, unsigned play,
				 const char *name, size_t len,
				 struct occ_diag *diag)
{
	const struct occ_field *x;
	int k;

	for (k = 0; k < OF_N; k++)
		if ((play & 1u << k) &&
		    (x = occ_field_find(kinds[k], name, len))) {
			if (j->n == FIELDS_MAX)
				return OCC_ERR_RANGE;
			join(j, x, k);
			return OCC_OK;
		}
	if (diag) {
		memset(diag, 0, sizeof *diag);
		memcpy(diag->key, name, len < sizeof diag->key ? len
		       : sizeof diag->key - 1);
	}
	return OCC_ERR_UNKNOWN_KEY;
}

/* The comma-separated names of list, joined. */
static enum occ_status join_list(struct joined *j, unsigned play,
				 const char *list, struct occ_diag *diag)
{
	enum occ_status st = OCC_OK;
	const char *p = list;

	while (p && st == OCC_OK) {
		const char *comma = strchr(p, ',');

		st = join_name(j, play, p, comma ? (size_t)(comma - p)
			       : strlen(p), diag);
		p = comma ? comma + 1 : NULL;
	}
	return st;
}

/* The default fields: the configuration's (sel), every field of the
 * cluster launch, the part's defaults. */
static void join_defaults(struct joined *j, const struct selection *sel,
			  unsigned play)
{
	size_t i, n = occ_row_kind_count(&occ_cluster_kind);

	for (i = 0; i < sel->n; i++)
		join(j, sel->f[i], OF_CONFIG);
	for (i = 0; (play & 1u << OF_CLUSTER) && i < n &&
	     j->n < FIELDS_MAX; i++)
		join(j, occ_row_kind_field(&occ_cluster_kind, i), OF_CLUSTER);
	if (play & 1u << OF_PART)
		join_list(j, 1u << OF_PART, OCC_PARTITION_FIELDS_DEFAULT, NULL);
}

/* What a row computes: the configuration, its cluster launch and part. */
struct joined_row {
	struct occ_config_row row;
	struct occ_cluster_row cl;
	struct occ_partition_row part;
	struct occ_cluster_layout L;
};

/* The part of the GPU the row is computed in (adds), its SMs made q's. */
static enum occ_status part_of(const struct occ_env *env,
			       const struct occ_arch *a, const char *gpu,
			       const struct occ_row_adds *adds,
			       struct occ_config_query *q,
			       struct occ_partition_row *p,
			       struct occ_diag *diag)
{
	struct occ_target t;
	enum occ_status st;

	st = occ_query_target(env, a, gpu, q->sms, 0, &t, diag);
	if (st != OCC_OK)
		return st;
	if (t.mismatch == OCC_LAYOUT_LISTED) {
		occ_query_diag_key(diag, "layout");
		return OCC_ERR_INCONSISTENT;
	}
	st = occ_partition_row_compute(&t, env->parts_path, adds->flags,
				       adds->min_sms, adds->group, p, diag);
	if (st == OCC_ERR_MISSING_KEY)
		occ_query_diag_key(diag, "sms");
	if (st == OCC_ERR_RANGE && !p->part.split.group_sms)
		occ_query_diag_key(diag, "min_sms");
	if (st == OCC_OK)
		q->sms = p->part.sms;
	return st;
}

static enum occ_status cluster_refused(const struct occ_arch *a,
				       const struct occ_cluster_layout *L,
				       const struct occ_cluster_query *cq,
				       struct occ_diag *diag)
{
	static const char *const refusals[] = {
		[OCC_CLUSTER_NO_CLUSTERS] = "no thread-block clusters",
		[OCC_CLUSTER_BEST_CAP_UNKNOWN] = "best: the cap unknown",
		[OCC_CLUSTER_ABOVE_PORTABLE] = "above the portable size",
		[OCC_CLUSTER_NO_FIGURES] = "no cluster figures",
		[OCC_CLUSTER_ABOVE_MAX] = "above clusterSizeMax",
		[OCC_CLUSTER_BEST_BOUND] = "best: the layout not measured",
	};
	enum occ_cluster_refusal refusal = occ_cluster_refused(a, L->bound,
							       cq);

	if (refusal == OCC_CLUSTER_ACCEPTED)
		return OCC_OK;
	occ_query_diag_key(diag, refusals[refusal]);
	return OCC_ERR_UNSUPPORTED;
}

/* The layout r's cluster launch runs on (adds), in r->part where the
 * row is computed in one, and its query; refused as occcalc refuses it. */
static enum occ_status cluster_prepare(const struct occ_env *env,
				       const struct occ_arch *a,
				       const char *gpu,
				       const struct occ_row_adds *adds, int sms,
				       struct joined_row *r,
				       struct occ_cluster_query *cq,
				       struct occ_diag *diag)
{
	enum occ_status st;

	memset(cq, 0, sizeof *cq);
	cq->best = adds->best;
	if (!adds->best)
		cq->shape = adds->shape;
	if (adds->partition) {
		occ_partition_cluster_layout(a, &r->part,
					     occ_query_gpu_name(env, gpu),
					     &r->L);
		cq->api = occ_partition_api_layout(&r->part, &r->L);
	} else if ((st = occ_query_cluster_layout(env, a, gpu, sms, &r->L,
						  diag)) != OCC_OK) {
		return st;
	}
	return cluster_refused(a, &r->L, cq, diag);
}

/* j's fields, each from the row of its kind in r. */
static size_t joined_json(const struct joined *j, const struct joined_row *r,
			  char *buf, size_t cap)
{
	const void *of[OF_N] = { &r->row, &r->cl, &r->part };
	const void *rows[FIELDS_MAX];
	size_t i;

	for (i = 0; i < j->n; i++)
		rows[i] = of[j->of[i]];
	return occ_row_parts_json(j->f, rows, j->n, buf, cap);
}

size_t occ_row_adds_size(void)
{
	return sizeof (struct occ_row_adds);
}

/* The kinds adds puts in play, as bits of OF_*. */
static unsigned in_play(const struct occ_row_adds *adds)
{
	return 1u << OF_CONFIG | (adds->cluster ? 1u << OF_CLUSTER : 0) |
	       (adds->partition ? 1u << OF_PART : 0);
}

enum occ_status occ_env_row_json(const struct occ_env *env,
				 const char *arch, const char *gpu,
				 const struct occ_config_query *q,
				 const struct occ_row_adds *adds,
				 const char *fields, char *buf, size_t cap,
				 size_t *len, struct occ_diag *diag)
{
	static const struct occ_row_adds none;
	struct occ_config_query query;
	struct occ_cluster_query cq;
	struct joined_row jr, *r = &jr;
	struct joined j = { .n = 0 };
	const struct occ_arch *a;
	enum occ_status st;
	int sms;

	if (!q || !len)
		return OCC_ERR_INVALID_INPUT;
	*len = 0;
	adds = adds ? adds : &none;
	if ((st = occ_env_gpu(env, arch, gpu, &a, &sms, diag)) != OCC_OK)
		return st;
	query = *q;
	if (!query.sms)
		query.sms = sms;
	if (adds->partition)
		st = part_of(env, a, gpu, adds, &query, &r->part, diag);
	if (st == OCC_OK && query.grid && !query.sms) {
		occ_query_diag_key(diag, "sms");
		st = OCC_ERR_MISSING_KEY;
	}
	if (st == OCC_OK && fields)
		st = join_list(&j, in_play(adds), fields, diag);
	else if (st == OCC_OK)
		join_defaults(&j, occ_query_defaults(env, q), in_play(adds));
	query.needs = j.needs;
	if (st == OCC_OK && adds->cluster)
		st = cluster_prepare(env, a, gpu, adds, query.sms, r, &cq,
				     diag);
	if (st == OCC_OK)
		st = occ_config_compute(a, &query, &r->row);
	if (st == OCC_OK && adds->cluster &&
	    (st = occ_cluster_row_compute(&r->row, &r->L, &cq, &r->cl)) ==
	    OCC_OK)
		occ_cluster_row_waves(&r->cl, &r->row);
	if (st == OCC_OK)
		*len = joined_json(&j, r, buf, cap);
	return st;
}
