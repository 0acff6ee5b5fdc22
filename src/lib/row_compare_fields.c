/*
 * row_compare_fields.c - the rows of --compare (occ_compare_kind): a
 * match's change, its kernel's names, the fields that changed, and for
 * each field compared the new value, the baseline's (old_) and the delta
 * (d_); and those rows as JSON, for a program (Python's compare()).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "row_compare_int.h"
#include "query_int.h"

static void get_text(const struct occ_row_set_row *r, const char *name,
		     enum occ_field_type t, struct occ_val *v)
{
	const char *s = row_set_get(r, name);

	v->type = !s ? OCC_VAL_NULL : t == OCC_FT_DEC ? OCC_VAL_DEC
		  : OCC_VAL_STR;
	v->s = s;
}

static void get_new(const void *row, const struct occ_field *f,
		    struct occ_val *v)
{
	const struct occ_compare_row *c = row;

	get_text(c->cur, occ_compare_field(f->arg, NULL), f->type, v);
}

static void get_old(const void *row, const struct occ_field *f,
		    struct occ_val *v)
{
	const struct occ_compare_row *c = row;

	get_text(c->old, occ_compare_field(f->arg, NULL), f->type, v);
}

static void get_delta(const void *row, const struct occ_field *f,
		      struct occ_val *v)
{
	const struct occ_compare_row *c = row;
	const char *name = occ_compare_field(f->arg, NULL),
		   *a = occ_compare_row_value(c, 1, name),
		   *b = occ_compare_row_value(c, 0, name);

	v->type = OCC_VAL_NULL;
	if (!a || !b)
		return;
	occ_decimal_delta(a, b, 0, v->buf, sizeof v->buf);
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}

static void get_name(const void *row, const struct occ_field *f,
		     struct occ_val *v)
{
	const struct occ_compare_row *c = row;
	static const char *const names[] = { "kernel", "mangled", "arch" };

	get_text(c->cur ? c->cur : c->old, names[f->arg], OCC_FT_STR, v);
}

static void get_change(const void *row, const struct occ_field *f,
		       struct occ_val *v)
{
	const struct occ_compare_row *c = row;

	v->type = OCC_VAL_STR;
	v->s = f->arg ? c->changed : c->change;
}

#define COL { NULL, 0, 2, 0, NULL, 0 }
#define NAME(n, i, d) { n, OCC_FT_STR, d, get_name, "", COL, 0, i }
#define NUM3(i, n, d) \
	{ n, OCC_FT_DEC, "the new build's " d, get_new, "", COL, 0, i }, \
	{ "old_" n, OCC_FT_DEC, "the baseline's " d, get_old, "", COL, 0, i }, \
	{ "d_" n, OCC_FT_DEC, "the new " n " less the baseline's (absent: a " \
	  "kernel only one has)", get_delta, "", COL, 0, i }

static const struct occ_field compare_fields[] = {
	{ "change", OCC_FT_STR, "changed, added, removed or unchanged",
	  get_change, "", COL, 0, 0 },
	NAME("kernel", 0, "the kernel's name, demangled"),
	NAME("mangled", 1, "the kernel's symbol"),
	NAME("arch", 2, "the image's architecture, as compiled"),
	{ "changed", OCC_FT_STR, "the fields that differ, '+'-joined",
	  get_change, "", COL, 0, 1 },
	NUM3(0, "block", "threads per block"),
	NUM3(1, "regs", "registers per thread"),
	NUM3(2, "spill_stores", "bytes spilled"),
	NUM3(3, "spill_loads", "bytes loaded back"),
	NUM3(4, "stack", "stack frame per thread, bytes"),
	NUM3(5, "static_smem", "static shared memory per block, bytes"),
	NUM3(6, "smem", "dynamic shared memory per block, bytes"),
	NUM3(7, "blocks_per_sm", "active blocks per SM"),
	NUM3(8, "warps_per_sm", "active warps per SM"),
	NUM3(9, "occupancy_pct", "occupancy, percent"),
	{ "limiter", OCC_FT_STR, "the new build's limiter, '+'-joined", get_new,
	  "", COL, 0, 10 },
	{ "old_limiter", OCC_FT_STR, "the baseline's limiter", get_old, "", COL,
	  0, 10 },
};

const struct occ_row_kind occ_compare_kind = {
	"compare", compare_fields, sizeof compare_fields /
	sizeof compare_fields[0], NULL
};

/* ---- As JSON ---- */

struct json_out {
	struct selection sel;
	unsigned flags;
	occ_json_row_fn fn;
	void *ctx;
	enum occ_status st;         /* OCC_ERR_NOMEM, or a stop: not OCC_OK */
};

/* A match as --compare -f json writes it, if it lists it. */
static int write_json(void *ctx, const struct occ_compare_row *r)
{
	struct json_out *o = ctx;
	char small[4096];

	if (strcmp(r->change, "unchanged") == 0 &&
	    !(o->flags & OCC_COMPARE_ALL))
		return 0;
	o->st = occ_query_hand_json(&o->sel, r, small, sizeof small, o->fn,
				    o->ctx);
	return o->st != OCC_OK;
}

enum occ_status occ_row_sets_compare_json(struct occ_row_set *old,
					  struct occ_row_set *cur,
					  unsigned flags, const char *fields,
					  occ_json_row_fn fn, void *ctx,
					  struct occ_compare_stats *stats,
					  struct occ_compare_diag *diag)
{
	struct json_out o;
	struct occ_diag d;
	enum occ_status st;

	memset(&o, 0, sizeof o);
	memset(diag, 0, sizeof *diag);
	o.flags = flags;
	o.fn = fn;
	o.ctx = ctx;
	st = occ_row_kind_select(&occ_compare_kind, fields ? fields
				 : OCC_COMPARE_FIELDS, o.sel.f, FIELDS_MAX,
				 &o.sel.n, &o.sel.needs, &d);
	if (st != OCC_OK) {
		snprintf(diag->field, sizeof diag->field, "%s", d.key);
		return st;
	}
	st = occ_row_sets_compare(old, cur, flags, write_json, &o, stats,
				  diag);
	/* A stop the caller asked for is no failure. */
	return st == OCC_OK && o.st == OCC_ERR_NOMEM ? OCC_ERR_NOMEM : st;
}
