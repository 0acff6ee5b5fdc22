/*
 * query.c - one call for a program's question (occcalc/query.h): the
 * tables and GPU list once, then a configuration's row on a GPU named as
 * the command line names it, as the JSON the command line writes. The
 * rules are the command line's own: --gpu's SMs unless --sms is given, a
 * grid needing SMs, the fields a row's needs follow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "query_int.h"

static enum occ_status select_kind(const struct occ_row_kind *kind,
				   const char *list, struct selection *s,
				   struct occ_diag *diag)
{
	return occ_row_kind_select(kind, list, s->f, FIELDS_MAX, &s->n,
				   &s->needs, diag);
}

static enum occ_status select_fields(const char *list, struct selection *s,
				     struct occ_diag *diag)
{
	return select_kind(&occ_config_kind, list, s, diag);
}

static int default_index(const struct occ_config_query *q)
{
	return (q->shape[0] != 0) | (q->needs & OCC_CONFIG_HEADROOM ? 2 : 0);
}

const struct selection *occ_query_defaults(const struct occ_env *env,
					   const struct occ_config_query *q)
{
	return &env->defaults[default_index(q)];
}

static enum occ_status make_defaults(struct occ_env *e)
{
	struct occ_config_query q;
	char list[1024];
	enum occ_status st;
	int i;

	for (i = 0; i < 4; i++) {
		occ_config_query_init(&q);
		q.shape[0] = i & 1;
		q.needs = i & 2 ? OCC_CONFIG_HEADROOM : 0;
		occ_config_default_fields(&q, q.needs, list, sizeof list);
		if ((st = select_fields(list, &e->defaults[i], NULL)) != OCC_OK)
			return st;
	}
	return OCC_OK;
}

/* Each GPU's layout line of the list, read once. */
static enum occ_status read_layouts(struct occ_env *e, struct occ_diag *diag)
{
	size_t i, n = occ_gpus_count(e->gpus);
	enum occ_status st;

	if (n && !(e->layouts = calloc(n, sizeof *e->layouts)))
		return OCC_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		struct env_layout *l = &e->layouts[e->n_layouts];

		l->gpu = occ_gpus_get(e->gpus, i);
		st = occ_gpu_layout_find(e->gpus_path, l->gpu->name,
					 &l->layout, diag);
		if (st == OCC_OK)
			e->n_layouts++;
		else if (st != OCC_ERR_UNKNOWN_ARCH)
			return st;
	}
	return OCC_OK;
}

enum occ_status occ_env_open(const char *dir, struct occ_env **out,
			     struct occ_diag *diag)
{
	struct occ_env *e;
	char path[4096];
	enum occ_status st;

	if (!out)
		return OCC_ERR_INVALID_INPUT;
	*out = NULL;
	if (!dir)
		dir = getenv("OCCCALC_TABLES");
	if (!dir || !*dir)
		dir = occ_tables_dir();
	if (strlen(dir) + sizeof "/partitions.txt" > sizeof path)
		return OCC_ERR_RANGE;
	if (!(e = calloc(1, sizeof *e)))
		return OCC_ERR_NOMEM;
	st = occ_tables_load(dir, &e->tables, diag);
	strcat(strcpy(path, dir), "/gpus.txt");
	strcpy(e->gpus_path, path);
	strcat(strcpy(e->parts_path, dir), "/partitions.txt");
	if (st == OCC_OK)
		st = occ_gpus_load(path, &e->gpus, diag);
	if (st == OCC_OK)
		st = make_defaults(e);
	if (st == OCC_OK)
		st = read_layouts(e, diag);
	if (st != OCC_OK) {
		occ_env_free(e);
		return st;
	}
	*out = e;
	return OCC_OK;
}

void occ_env_free(struct occ_env *env)
{
	if (!env)
		return;
	occ_tables_free(env->tables);
	occ_gpus_free(env->gpus);
	free(env->layouts);
	free(env);
}

const struct occ_tables *occ_env_tables(const struct occ_env *env)
{
	return env->tables;
}

const struct occ_gpus *occ_env_gpus(const struct occ_env *env)
{
	return env->gpus;
}

void occ_query_diag_key(struct occ_diag *diag, const char *what)
{
	if (diag) {
		memset(diag, 0, sizeof *diag);
		strncpy(diag->key, what, sizeof diag->key - 1);
	}
}

enum occ_status occ_query_listed_gpu(const struct occ_env *env,
				     const char *gpu, const struct occ_gpu **g,
				     struct occ_diag *diag)
{
	struct occ_gpu_match m;

	if (occ_gpus_match(env->gpus, gpu, &m) != OCC_OK || m.n != 1 ||
	    m.ambiguous) {
		occ_query_diag_key(diag, gpu);
		return OCC_ERR_UNKNOWN_ARCH;
	}
	*g = m.gpu[0];
	return OCC_OK;
}

enum occ_status occ_env_gpu(const struct occ_env *env, const char *arch,
			    const char *gpu, const struct occ_arch **a,
			    int *sms, struct occ_diag *diag)
{
	const struct occ_gpu *g = NULL;
	int major, minor;
	enum occ_status st;

	*a = NULL;
	*sms = 0;
	if (!env || (!arch && !gpu))
		return OCC_ERR_INVALID_INPUT;
	if (gpu && (st = occ_query_listed_gpu(env, gpu, &g, diag)) != OCC_OK)
		return st;
	if (arch && occ_arch_parse_name(arch, &major, &minor) != OCC_OK) {
		occ_query_diag_key(diag, arch);
		return OCC_ERR_BAD_ARCH_NAME;
	}
	if (g && arch && (major != g->cc_major || minor != g->cc_minor)) {
		occ_query_diag_key(diag, gpu);
		return OCC_ERR_INCONSISTENT;
	}
	if (g) {
		major = g->cc_major;
		minor = g->cc_minor;
		*sms = g->sms;
	}
	if (!(*a = occ_tables_find(env->tables, major, minor))) {
		occ_query_diag_key(diag, arch ? arch : gpu);
		return OCC_ERR_UNKNOWN_ARCH;
	}
	return OCC_OK;
}

void occ_config_query_init(struct occ_config_query *q)
{
	memset(q, 0, sizeof *q);
	occ_kernel_init(&q->k);
}

size_t occ_config_query_size(void)
{
	return sizeof (struct occ_config_query);
}

enum occ_status occ_row_kind_select(const struct occ_row_kind *kind,
				    const char *list,
				    const struct occ_field **f, size_t max,
				    size_t *n, unsigned *needs,
				    struct occ_diag *diag)
{
	const char *p = list;
	size_t i, count = occ_row_kind_count(kind);

	*n = 0;
	*needs = 0;
	if (!list) {
		if (count > max)
			return OCC_ERR_RANGE;
		for (i = 0; i < count; i++) {
			f[i] = occ_row_kind_field(kind, i);
			*needs |= f[i]->needs;
		}
		*n = count;
		return OCC_OK;
	}
	while (p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct occ_field *x = occ_field_find(kind, p, len);

		if (!x) {
			if (diag) {
				memset(diag, 0, sizeof *diag);
				memcpy(diag->key, p, len < sizeof diag->key
				       ? len : sizeof diag->key - 1);
			}
			return OCC_ERR_UNKNOWN_KEY;
		}
		if (*n == max)
			return OCC_ERR_RANGE;
		f[(*n)++] = x;
		*needs |= x->needs;
		p = comma ? comma + 1 : NULL;
	}
	return OCC_OK;
}

enum occ_status occ_env_config_json(const struct occ_env *env,
				    const char *arch, const char *gpu,
				    const struct occ_config_query *q,
				    const char *fields, char *buf, size_t cap,
				    size_t *len, struct occ_diag *diag)
{
	const struct selection *sel;
	struct selection asked;
	struct occ_config_query query;
	struct occ_config_row row;
	const struct occ_arch *a;
	enum occ_status st;
	int sms;

	if (!q || !len)
		return OCC_ERR_INVALID_INPUT;
	*len = 0;
	if ((st = occ_env_gpu(env, arch, gpu, &a, &sms, diag)) != OCC_OK)
		return st;
	sel = &env->defaults[default_index(q)];
	if (fields) {
		if ((st = select_fields(fields, &asked, diag)) != OCC_OK)
			return st;
		sel = &asked;
	}
	query = *q;
	query.needs = sel->needs;
	if (!query.sms)
		query.sms = sms;
	if (query.grid && !query.sms) {
		occ_query_diag_key(diag, "sms");
		return OCC_ERR_MISSING_KEY;
	}
	if ((st = occ_config_compute(a, &query, &row)) != OCC_OK)
		return st;
	*len = occ_row_json(sel->f, sel->n, &row, buf, cap);
	return OCC_OK;
}

/* row's object handed to fn, written into small (cap bytes) when it fits
 * and to the heap when not: a row has no bound but most are short. */
enum occ_status occ_query_hand_json(const struct selection *sel,
				    const void *row, char *small, size_t cap,
				    occ_json_row_fn fn, void *ctx)
{
	size_t len = occ_row_json(sel->f, sel->n, row, small, cap);
	char *big = NULL;
	int stop;

	if (len >= cap) {
		if (!(big = malloc(len + 1)))
			return OCC_ERR_NOMEM;
		occ_row_json(sel->f, sel->n, row, big, len + 1);
	}
	stop = fn(ctx, big ? big : small, len);
	free(big);
	return stop ? OCC_ERR_INVALID_INPUT : OCC_OK;
}

/* Rows of the listings are small: a table's products, a GPU's source. */
#define LIST_ROW_CAP 1024

/* A listing's i-th row of env, made into row. */
typedef void (*list_row_fn)(const struct occ_env *env, size_t i, void *row);

static void arch_row(const struct occ_env *env, size_t i, void *row)
{
	occ_arch_row_init(row, occ_tables_get(env->tables, i));
}

static void gpu_row(const struct occ_env *env, size_t i, void *row)
{
	occ_gpu_row_init(row, occ_gpus_get(env->gpus, i));
}

/* The n rows of a listing, each made into row and handed to fn. */
static enum occ_status list_json(const struct occ_env *env,
				 const struct occ_row_kind *kind,
				 const char *fields, size_t n, list_row_fn make,
				 void *row, occ_json_row_fn fn, void *ctx,
				 struct occ_diag *diag)
{
	struct selection sel;
	char small[LIST_ROW_CAP];
	enum occ_status st;
	size_t i;

	if (!fn)
		return OCC_ERR_INVALID_INPUT;
	st = select_kind(kind, fields, &sel, diag);
	for (i = 0; st == OCC_OK && i < n; i++) {
		make(env, i, row);
		st = occ_query_hand_json(&sel, row, small, sizeof small, fn, ctx);
	}
	return st;
}

enum occ_status occ_env_archs_json(const struct occ_env *env,
				   const char *fields, occ_json_row_fn fn,
				   void *ctx, struct occ_diag *diag)
{
	struct occ_arch_row row;

	if (!env)
		return OCC_ERR_INVALID_INPUT;
	return list_json(env, &occ_archs_kind, fields ? fields
			 : OCC_ARCHS_FIELDS, occ_tables_count(env->tables),
			 arch_row, &row, fn, ctx, diag);
}

enum occ_status occ_env_gpus_json(const struct occ_env *env,
				  const char *fields, occ_json_row_fn fn,
				  void *ctx, struct occ_diag *diag)
{
	struct occ_gpu_row row;

	if (!env)
		return OCC_ERR_INVALID_INPUT;
	return list_json(env, &occ_gpus_kind, fields ? fields
			 : OCC_GPUS_FIELDS, occ_gpus_count(env->gpus),
			 gpu_row, &row, fn, ctx, diag);
}

/* A GPU's record is its table's, as --gpu NAME --info shows it: the
 * device's own values come only from a device (occcalc --info alone). */
enum occ_status occ_env_info_json(const struct occ_env *env,
				  const char *arch, const char *gpu,
				  const char *fields, char *buf, size_t cap,
				  size_t *len, struct occ_diag *diag)
{
	struct occ_info_fields x;
	struct occ_info_row row;
	struct occ_row_kind kind = { "info", NULL, 0, NULL };
	struct selection sel;
	const struct occ_arch *a;
	enum occ_status st;
	int sms;

	if (!len)
		return OCC_ERR_INVALID_INPUT;
	*len = 0;
	if ((st = occ_env_gpu(env, arch, gpu, &a, &sms, diag)) != OCC_OK)
		return st;
	occ_info_row_init(&row, a, NULL);
	occ_info_fields_make(&x, &row);
	kind.fields = x.f;
	kind.n = x.n;
	if ((st = select_kind(&kind, fields, &sel, diag)) != OCC_OK)
		return st;
	*len = occ_row_json(sel.f, sel.n, &row, buf, cap);
	return OCC_OK;
}

/* g's layout line, as the env read it at open; NULL: it has none. */
static const struct occ_gpu_layout *listed_layout(const struct occ_env *env,
						  const struct occ_gpu *g)
{
	size_t i;

	for (i = 0; i < env->n_layouts; i++)
		if (env->layouts[i].gpu == g)
			return &env->layouts[i].layout;
	return NULL;
}

const char *occ_query_gpu_name(const struct occ_env *env, const char *gpu)
{
	const struct occ_gpu *g;

	if (!gpu || occ_query_listed_gpu(env, gpu, &g, NULL) != OCC_OK)
		return NULL;
	return g->name;
}

enum occ_status occ_query_target(const struct occ_env *env,
				 const struct occ_arch *a, const char *gpu,
				 int sms, unsigned flags, struct occ_target *t,
				 struct occ_diag *diag)
{
	struct occ_layout_request r = { .flags = flags };
	const struct occ_gpu *g = NULL;
	enum occ_status st;

	occ_target_table(a, t);
	t->sms = sms;
	if (gpu && (st = occ_query_listed_gpu(env, gpu, &g, diag)) != OCC_OK)
		return st;
	if (g) {
		r.gpus = env->gpus;
		r.name = g->name;
		r.listed = listed_layout(env, g);
	}
	return occ_target_layout(t, &r, diag);
}

/* The target's GPC layout for clusters, by the library's one rule: the
 * list's for gpu, else its SMs as one group. */
enum occ_status occ_query_cluster_layout(const struct occ_env *env,
					 const struct occ_arch *a,
					 const char *gpu, int sms,
					 struct occ_cluster_layout *L,
					 struct occ_diag *diag)
{
	struct occ_target t;
	enum occ_status st;

	st = occ_query_target(env, a, gpu, sms, OCC_LAYOUT_SMS_STRICT, &t,
			      diag);
	if (st != OCC_OK)
		return st;
	if (occ_cluster_layout_of(&t, occ_query_gpu_name(env, gpu), L) !=
	    OCC_OK) {
		occ_query_diag_key(diag, "layout");
		return OCC_ERR_MISSING_KEY;
	}
	return OCC_OK;
}

enum occ_status occ_env_cluster_json(const struct occ_env *env,
				     const char *arch, const char *gpu,
				     const struct occ_config_query *q,
				     const struct occ_cluster_shape *shape,
				     char *buf, size_t cap, size_t *len,
				     struct occ_diag *diag)
{
	struct occ_row_adds adds = { .cluster = 1, .best = !shape };

	if (shape)
		adds.shape = *shape;
	return occ_env_row_json(env, arch, gpu, q, &adds, NULL, buf, cap,
				len, diag);
}
