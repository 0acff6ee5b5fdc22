/*
 * query_sweep.c - a sweep's rows for a program (occcalc/query_sweep.h):
 * the command line's values (sweep.c's grammar), its targets (a GPU list
 * or an architecture list, in its order) and its loops, each row written
 * as -f jsonl writes it, with the GPU of the list it is for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "query_int.h"

/* Room for a GPU's name or an architecture's in a list. */
#define ITEM_MAX 64
/* Most rows are short; a longer one is written to the heap. */
#define ROW_CAP 4096

enum occ_status occ_target_list_next(const char **p, char *buf, size_t n)
{
	const char *comma = strchr(*p, ',');
	size_t len = comma ? (size_t)(comma - *p) : strlen(*p);

	if (len == 0)
		return OCC_ERR_SYNTAX;
	if (len >= n)
		return OCC_ERR_RANGE;
	memcpy(buf, *p, len);
	buf[len] = '\0';
	*p = comma ? comma + 1 : NULL;
	return OCC_OK;
}

void occ_sweep_init(struct occ_sweep *s)
{
	memset(s, 0, sizeof *s);
	occ_config_query_init(&s->q);
}

size_t occ_sweep_size(void)
{
	return sizeof (struct occ_sweep);
}

/* ---- What is checked before the first row ---- */

struct target {
	const struct occ_arch *a;
	int sms;
	const char *gpu;           /* the list's name of it; NULL: no list */
};

/* The GPU row's one field: which GPU of the list a row is for. */
static void get_gpu(const void *p, const struct occ_field *f,
		    struct occ_val *v)
{
	const char *const *name = p;

	(void)f;
	v->type = *name ? OCC_VAL_STR : OCC_VAL_NULL;
	v->s = *name;
}

static const struct occ_field gpu_field = {
	"gpu", OCC_FT_STR, "the GPU of the list the row is for (null: no "
	"list)", get_gpu, NULL, { 0 }, 0, 0
};

struct plan {
	struct occ_seq block, regs, smem, static_smem;
	struct target t[OCC_TARGETS_MAX];
	int n, gpu_list;
	const struct occ_field *f[FIELDS_MAX];
	unsigned char is_gpu[FIELDS_MAX];     /* f[i] is gpu_field */
	size_t nf;
	unsigned needs;
};

static void plan_free(struct plan *p)
{
	occ_seq_free(&p->block);
	occ_seq_free(&p->regs);
	occ_seq_free(&p->smem);
	occ_seq_free(&p->static_smem);
}

/* One option's text (NULL: dflt) into *out; diag's key names it. */
static enum occ_status values(const char *text, const char *dflt,
			      const char *name, uint64_t min, uint64_t max,
			      unsigned flags, struct occ_seq *out,
			      struct occ_diag *diag)
{
	enum occ_seq_error why;
	enum occ_status st = occ_seq_parse(text ? text : dflt, min, max, flags,
					   out, &why, diag);

	if (st != OCC_OK && diag) {
		strcpy(diag->key, name);
		diag->line = (int)why;
	}
	return st;
}

static enum occ_status plan_values(const struct occ_sweep *s, struct plan *p,
				   struct occ_diag *diag)
{
	/* Block 0 asks for the best block, as no --block does. */
	enum occ_status st = s->block
		? values(s->block, NULL, "block", 1, OCC_SWEEP_BLOCK_MAX,
			 OCC_SEQ_SHAPES, &p->block, diag)
		: values("0", NULL, "block", 0, 0, 0, &p->block, diag);

	if (st == OCC_OK)
		st = values(s->regs, "0", "regs", 0, OCC_MAX_REGS_ANY_ARCH, 0,
			    &p->regs, diag);
	if (st == OCC_OK)
		st = values(s->smem, "0", "smem", 0, OCC_SWEEP_SMEM_MAX, 0,
			    &p->smem, diag);
	if (st == OCC_OK)
		st = values(s->static_smem, "0", "static_smem", 0,
			    OCC_SWEEP_SMEM_MAX, 0, &p->static_smem, diag);
	return st;
}

static void diag_item(struct occ_diag *diag, const char *opt, int item)
{
	occ_query_diag_key(diag, opt);
	if (diag)
		diag->line = item;
}

/* The targets of s's list, each resolved as occ_env_gpu resolves it. */
static enum occ_status plan_targets(const struct occ_env *env,
				    const struct occ_sweep *s, struct plan *p,
				    struct occ_diag *diag)
{
	const char *opt = s->gpu && strchr(s->gpu, ',') ? "gpu" : "arch",
		   *list = opt[0] == 'g' ? s->gpu : s->arch, *at = list;
	char name[ITEM_MAX];
	enum occ_status st;
	struct target *t;

	p->gpu_list = opt[0] == 'g';
	if ((p->gpu_list && s->arch) ||
	    (!p->gpu_list && s->gpu && s->arch && strchr(s->arch, ','))) {
		occ_query_diag_key(diag, "arch");
		return OCC_ERR_INVALID_INPUT;
	}
	if (!list || !strchr(list, ','))   /* one target, as asked */
		at = NULL;
	for (; at; p->n++) {
		if (p->n == OCC_TARGETS_MAX) {
			diag_item(diag, opt, 0);
			if (diag)
				diag->limit = OCC_TARGETS_MAX;
			return OCC_ERR_RANGE;
		}
		st = occ_target_list_next(&at, name, opt[0] == 'g' ? ITEM_MAX
					  : 16);
		if (st != OCC_OK) {
			diag_item(diag, opt, p->n + 1);
			return st;
		}
		t = &p->t[p->n];
		st = occ_env_gpu(env, p->gpu_list ? NULL : name,
				 p->gpu_list ? name : NULL, &t->a, &t->sms,
				 diag);
		if (st != OCC_OK)
			return st;
		t->gpu = p->gpu_list ? occ_query_gpu_name(env, name) : NULL;
	}
	if (p->n)
		return OCC_OK;
	p->n = 1;
	return occ_env_gpu(env, s->arch, s->gpu, &p->t[0].a, &p->t[0].sms,
			   diag);
}

static enum occ_status add_field(struct plan *p, const struct occ_field *f,
				 int is_gpu)
{
	if (p->nf == FIELDS_MAX)
		return OCC_ERR_RANGE;
	p->is_gpu[p->nf] = (unsigned char)is_gpu;
	p->f[p->nf++] = f;
	if (!is_gpu)
		p->needs |= f->needs;
	return OCC_OK;
}

/* The named fields: the configuration's, and gpu. */
static enum occ_status plan_named(struct plan *p, const char *list,
				  struct occ_diag *diag)
{
	enum occ_status st = OCC_OK;
	const struct occ_field *f;

	while (list && st == OCC_OK) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);
		int is_gpu = len == 3 && memcmp(list, "gpu", 3) == 0;

		f = is_gpu ? &gpu_field
			   : occ_field_find(&occ_config_kind, list, len);
		if (!f) {
			occ_query_diag_key(diag, "");
			if (diag)
				memcpy(diag->key, list, len < sizeof diag->key
				       ? len : sizeof diag->key - 1);
			return OCC_ERR_UNKNOWN_KEY;
		}
		st = add_field(p, f, is_gpu);
		list = comma ? comma + 1 : NULL;
	}
	return st;
}

static enum occ_status plan_fields(const struct occ_env *env,
				   const struct occ_sweep *s, const char *list,
				   struct plan *p, struct occ_diag *diag)
{
	struct occ_config_query q = s->q;
	const struct selection *sel;
	enum occ_status st = OCC_OK;
	size_t i;

	if (list)
		return plan_named(p, list, diag);
	/* Where the block gives a shape anywhere, every row has
	 * block_shape. */
	q.shape[0] = (uint16_t)occ_seq_has_shape(&p->block);
	sel = occ_query_defaults(env, &q);
	if (p->gpu_list)
		st = add_field(p, &gpu_field, 1);
	for (i = 0; st == OCC_OK && i < sel->n; i++)
		st = add_field(p, sel->f[i], 0);
	if (st == OCC_OK && p->gpu_list)
		st = plan_named(p, "can_launch", diag);
	return st;
}

/* ---- The rows ---- */

struct sweep_out {
	const struct plan *p;
	occ_json_row_fn fn;
	void *ctx;
	uint64_t rows;
	char small[ROW_CAP];
};

/* The row of q on t, handed over. */
static enum occ_status hand_row(struct sweep_out *o, const struct target *t,
				const struct occ_config_query *q)
{
	const struct plan *p = o->p;
	const void *rows[FIELDS_MAX];
	struct occ_config_row row;
	enum occ_status st;
	size_t i, len;
	char *big = NULL;
	int stop;

	if ((st = occ_config_compute(t->a, q, &row)) != OCC_OK)
		return st;
	for (i = 0; i < p->nf; i++)
		rows[i] = p->is_gpu[i] ? (const void *)&t->gpu
				       : (const void *)&row;
	len = occ_row_parts_json(p->f, rows, p->nf, o->small, sizeof o->small);
	if (len >= sizeof o->small) {
		if (!(big = malloc(len + 1)))
			return OCC_ERR_NOMEM;
		occ_row_parts_json(p->f, rows, p->nf, big, len + 1);
	}
	stop = o->fn(o->ctx, big ? big : o->small, len);
	free(big);
	o->rows++;
	return stop ? OCC_ERR_INVALID_INPUT : OCC_OK;
}

/* The block's value and shape of its range into q. */
static void set_block(struct occ_config_query *q, const struct occ_seq_iter *it)
{
	const struct occ_seq_range *r = &it->s->ranges[it->range];

	q->k.block_size = (int)it->value;
	memcpy(q->shape, r->dim, sizeof q->shape);
}

/* Every row on t: the block outermost, as occcalc nests them. */
static enum occ_status target_rows(struct sweep_out *o, const struct target *t,
				   struct occ_config_query *q)
{
	const struct plan *p = o->p;
	struct occ_seq_iter ib, ir, is, id;
	enum occ_status st = OCC_OK;
	int more_b, more_r, more_s, more_d;

	for (more_b = occ_seq_first(&ib, &p->block); more_b && st == OCC_OK;
	     more_b = occ_seq_next(&ib)) {
		set_block(q, &ib);
		for (more_r = occ_seq_first(&ir, &p->regs);
		     more_r && st == OCC_OK; more_r = occ_seq_next(&ir)) {
			q->k.regs_per_thread = (int)ir.value;
			for (more_s = occ_seq_first(&is, &p->static_smem);
			     more_s && st == OCC_OK;
			     more_s = occ_seq_next(&is)) {
				q->k.static_smem = is.value;
				for (more_d = occ_seq_first(&id, &p->smem);
				     more_d && st == OCC_OK;
				     more_d = occ_seq_next(&id)) {
					q->growth.fixed = id.value;
					st = hand_row(o, t, q);
				}
			}
		}
	}
	return st;
}

static enum occ_status sweep_rows(const struct occ_sweep *s,
				  struct sweep_out *o, struct occ_diag *diag)
{
	const struct plan *p = o->p;
	struct occ_config_query q;
	enum occ_status st = OCC_OK;
	int i;

	for (i = 0; i < p->n && st == OCC_OK; i++) {
		q = s->q;
		q.needs = p->needs;
		q.regs_assumed = !s->regs;
		if (!q.sms)
			q.sms = p->t[i].sms;
		if (q.grid && !q.sms) {
			occ_query_diag_key(diag, "sms");
			return OCC_ERR_MISSING_KEY;
		}
		st = target_rows(o, &p->t[i], &q);
	}
	return st;
}

enum occ_status occ_env_sweep_json(const struct occ_env *env,
				   const struct occ_sweep *s,
				   const char *fields, occ_json_row_fn fn,
				   void *ctx, uint64_t *rows,
				   struct occ_diag *diag)
{
	struct plan *p;
	struct sweep_out *o;
	enum occ_status st;

	if (rows)
		*rows = 0;
	if (!env || !s || !fn)
		return OCC_ERR_INVALID_INPUT;
	p = calloc(1, sizeof *p);
	o = calloc(1, sizeof *o);
	st = p && o ? plan_values(s, p, diag) : OCC_ERR_NOMEM;
	if (st == OCC_OK)
		st = plan_targets(env, s, p, diag);
	if (st == OCC_OK)
		st = plan_fields(env, s, fields, p, diag);
	if (st == OCC_OK) {
		*o = (struct sweep_out){ .p = p, .fn = fn, .ctx = ctx };
		st = sweep_rows(s, o, diag);
		if (rows)
			*rows = o->rows;
	}
	if (p)
		plan_free(p);
	free(p);
	free(o);
	return st;
}
