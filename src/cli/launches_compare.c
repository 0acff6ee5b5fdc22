/*
 * launches_compare.c - --launches NEW... --compare OLD: two runs' launches
 * per kernel (and per operator where the rows have an 'op' field), what
 * moved in occupancy (weighted by time), limiter, launches and GPU time.
 * OLD is a trace (occcalc's or Kineto's, each launch computed as NEW's
 * are) or the rows --launches -f json|jsonl wrote. Both sides' launches
 * are taken as the rows' text gives them, so a trace and the rows it
 * wrote compare alike; the grouping and matching are the library's
 * (occcalc/launch_compare.h). --check judges each group of NEW.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "launches.h"

/* The fields launches are grouped by, each where the rows have it. */
static const char *const by_names[] = { "kernel", "op" };
#define N_BY (sizeof by_names / sizeof by_names[0])

struct side {
	struct occ_launch_groups *g[N_BY];
	int have[N_BY];               /* the rows have the field */
};

struct lcompare {
	struct session *s;
	struct side old, cur, *at;
	const struct occ_field *f[N_BY], *occ, *lim, *dur;
	const char *reading;          /* the file rows come from */
	struct out out;
	struct check_set *chk;
	int text;
	uint64_t changed, added, removed, unchanged;
	struct launch_inputs in;      /* NEW's files */
};

struct lrow {
	const char *by;
	const struct occ_launch_change *c;
	char changed[96];
};

/* ---- Both sides' launches, from their text ---- */

static void add_launch(struct lcompare *lc, const char *const *key,
		       const char *occ, const char *lim, const char *dur)
{
	struct occ_launch_figures f;
	enum occ_status st;
	char *end;
	size_t i;

	memset(&f, 0, sizeof f);
	f.modelled = occ && *occ;
	f.occupancy_pct = f.modelled ? strtod(occ, &end) : 0;
	if (f.modelled && *end)
		die("%s: occupancy_pct '%.40s' is not a number", lc->reading,
		    occ);
	f.limiter = lim && *lim ? lim : NULL;
	f.duration_ns = dur && *dur ? (int64_t)strtoll(dur, &end, 10) : -1;
	for (i = 0; i < N_BY; i++) {
		if (!key[i])
			continue;
		lc->at->have[i] = 1;
		st = occ_launch_groups_add(lc->at->g[i], key[i], &f);
		if (st == OCC_ERR_RANGE)
			die("%s: more than %d kernels or operators", lc->reading,
			    OCC_LAUNCH_GROUPS_MAX);
		if (st != OCC_OK)
			die("out of memory");
	}
}

static const char *text_of(const struct occ_field *f, const void *row,
			   struct occ_val *v, char *buf, size_t n)
{
	if (!f)
		return NULL;
	memset(v, 0, sizeof *v);
	f->get(row, f, v);
	if (v->type == OCC_VAL_NULL)
		return NULL;
	occ_val_format(buf, n, v);
	return buf;
}

static void on_row(void *ctx, const struct occ_launch_row *r)
{
	struct lcompare *lc = ctx;
	char kb[N_BY][4096], ob[64], lb[128], db[32];
	const char *key[N_BY];
	struct occ_val v;
	size_t i;

	for (i = 0; i < N_BY; i++)
		key[i] = text_of(lc->f[i], r, &v, kb[i], sizeof kb[i]);
	add_launch(lc, key, text_of(lc->occ, r, &v, ob, sizeof ob),
		   text_of(lc->lim, r, &v, lb, sizeof lb),
		   text_of(lc->dur, r, &v, db, sizeof db));
}

static int from_json(const struct occ_rows_row *row, void *ctx)
{
	struct lcompare *lc = ctx;
	const char *key[N_BY] = { NULL }, *occ = NULL, *lim = NULL, *dur = NULL;
	size_t i, j;

	for (i = 0; i < row->n; i++) {
		const char *name = row->f[i].name, *t = row->f[i].text;

		for (j = 0; j < N_BY; j++)
			if (strcmp(name, by_names[j]) == 0)
				key[j] = t;
		if (strcmp(name, "occupancy_pct") == 0)
			occ = t;
		else if (strcmp(name, "limiter") == 0)
			lim = t;
		else if (strcmp(name, "duration_ns") == 0)
			dur = t;
	}
	if (!key[0])
		die("%s: row %" PRIu64 " has no kernel: not the rows of occcalc "
		    "--launches -f json or jsonl", lc->reading, row->index + 1);
	add_launch(lc, key, occ, lim, dur);
	return 0;
}

static void read_trace(struct lcompare *lc, const char *const *files, int n,
		       int what_if)
{
	launches_prepare(lc->s);
	launches_sink(lc->s, on_row, lc, what_if);
	if (launches_report(lc->s, files, NULL, n, NULL) != 0)
		die("out of memory");
}

/* OLD: a trace, computed as NEW is, or the rows occcalc wrote of one. */
static void read_old(struct lcompare *lc, const char *path)
{
	enum occ_launch_format format;
	struct occ_rows_diag rd;
	struct occ_diag d;
	enum occ_status st;

	lc->reading = path;
	st = occ_launches_probe(path, &format, &d);
	if (st != OCC_OK)
		die_data(st, &d, st == OCC_ERR_IO ? errno : 0, "");
	if (format) {
		read_trace(lc, &path, 1, 0);
		return;
	}
	if (d.key[0])
		die("%s: not a PyTorch profiler or occcalc trace, nor occcalc's "
		    "rows: %s", path, d.key);
	st = occ_rows_read_file(path, 0, from_json, lc, NULL, &rd);
	if (st == OCC_ERR_NOMEM)
		die("out of memory");
	if (st != OCC_OK && rd.line)
		die("%s:%" PRIu64 ":%" PRIu64 ": not a trace, nor occcalc's "
		    "rows: %s", path, rd.line, rd.column, rd.what);
	if (st != OCC_OK)
		die("%s: not a trace, nor occcalc's rows: %s", path, rd.what);
}

/* ---- The compare rows' fields ---- */

enum fig { F_LAUNCHES, F_GPU_TIME, F_OCC, F_LIM };

static const struct occ_launch_group *side_of(const struct lrow *r, int old)
{
	return old ? r->c->old : r->c->cur;
}

static void fig_value(const struct occ_launch_group *g, int fig, struct occ_val *v)
{
	v->type = OCC_VAL_NULL;
	if (!g)
		return;
	switch (fig) {
	case F_LAUNCHES:
		v->type = OCC_VAL_UINT;
		v->u = g->launches;
		break;
	case F_GPU_TIME:
		if (!g->timed)
			return;
		v->type = OCC_VAL_UINT;
		v->u = (uint64_t)g->gpu_time_ns;
		break;
	case F_OCC:
		if (g->occupancy_pct < 0)
			return;
		snprintf(v->buf, sizeof v->buf, "%.2f", g->occupancy_pct);
		v->type = OCC_VAL_DEC;
		v->s = v->buf;
		break;
	default:
		v->type = g->limiter ? OCC_VAL_STR : OCC_VAL_NULL;
		v->s = g->limiter;
	}
}

static void get_new(const void *row, const struct occ_field *f, struct occ_val *v)
{
	fig_value(side_of(row, 0), f->arg, v);
}

static void get_old(const void *row, const struct occ_field *f, struct occ_val *v)
{
	fig_value(side_of(row, 1), f->arg, v);
}

/* new less old, where both sides have the figure. */
static void get_delta(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct lrow *r = row;
	const struct occ_launch_group *a = r->c->old, *b = r->c->cur;

	v->type = OCC_VAL_NULL;
	if (!a || !b)
		return;
	if (f->arg == F_OCC && a->occupancy_pct >= 0 && b->occupancy_pct >= 0)
		snprintf(v->buf, sizeof v->buf, "%.2f",
			 (double)(int64_t)(b->occupancy_pct * 100 + 0.5) / 100 -
			 (double)(int64_t)(a->occupancy_pct * 100 + 0.5) / 100);
	else if (f->arg == F_LAUNCHES)
		snprintf(v->buf, sizeof v->buf, "%" PRId64,
			 (int64_t)b->launches - (int64_t)a->launches);
	else if (f->arg == F_GPU_TIME && a->timed && b->timed)
		snprintf(v->buf, sizeof v->buf, "%" PRId64,
			 b->gpu_time_ns - a->gpu_time_ns);
	else
		return;
	/* -0.00 is no move */
	if (strcmp(v->buf, "-0.00") == 0)
		strcpy(v->buf, "0.00");
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}

static void get_time_pct(const void *row, const struct occ_field *f,
			 struct occ_val *v)
{
	const struct lrow *r = row;
	const struct occ_launch_group *a = r->c->old, *b = r->c->cur;

	(void)f;
	v->type = OCC_VAL_NULL;
	if (!a || !b || !a->timed || !b->timed || a->gpu_time_ns <= 0)
		return;
	snprintf(v->buf, sizeof v->buf, "%.2f",
		 100.0 * (double)(b->gpu_time_ns - a->gpu_time_ns) /
		 (double)a->gpu_time_ns);
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}

static void get_change(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct lrow *r = row;

	(void)f;
	v->type = OCC_VAL_STR;
	v->s = !r->c->old ? "added" : !r->c->cur ? "removed"
	       : r->c->changed ? "changed" : "unchanged";
}

static void get_by(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct lrow *r = row;

	(void)f;
	v->type = OCC_VAL_STR;
	v->s = r->by;
}

static void get_key(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct lrow *r = row;

	(void)f;
	v->type = OCC_VAL_STR;
	v->s = r->c->cur ? r->c->cur->key : r->c->old->key;
}

static void get_changed(const void *row, const struct occ_field *f, struct occ_val *v)
{
	const struct lrow *r = row;

	(void)f;
	v->type = OCC_VAL_STR;
	v->s = r->changed;
}

#define COL { NULL, 0, 2, 0, NULL, 0 }
#define FIG3(i, n, t, d) \
	{ n, t, "the new launches' " d, get_new, "", COL, 0, i }, \
	{ "old_" n, t, "the old launches' " d, get_old, "", COL, 0, i }, \
	{ "d_" n, OCC_FT_DEC, "the new " n " less the old (absent: a group only " \
	  "one side has)", get_delta, "", COL, 0, i }

static const struct occ_field lcompare_fields[] = {
	{ "change", OCC_FT_STR, "changed, added, removed or unchanged",
	  get_change, "", COL, 0, 0 },
	{ "by", OCC_FT_STR, "what the launches are grouped by: kernel, or op "
	  "where the rows have it", get_by, "", COL, 0, 0 },
	{ "key", OCC_FT_STR, "the kernel's or operator's name", get_key, "", COL,
	  0, 0 },
	{ "changed", OCC_FT_STR, "what moved, '+'-joined: occupancy_pct, limiter, "
	  "launches", get_changed, "", COL, 0, 0 },
	FIG3(F_LAUNCHES, "launches", OCC_FT_INT, "count"),
	FIG3(F_GPU_TIME, "gpu_time_ns", OCC_FT_INT, "GPU time, ns (the timed "
	     "launches')"),
	{ "d_gpu_time_pct", OCC_FT_DEC, "the new GPU time over the old, less "
	  "100 %", get_time_pct, "", COL, 0, 0 },
	FIG3(F_OCC, "occupancy_pct", OCC_FT_DEC, "occupancy weighted by GPU "
	     "time (else by launches), percent"),
	{ "limiter", OCC_FT_STR, "the new launches' limiter of the most GPU "
	  "time, '+'-joined", get_new, "", COL, 0, F_LIM },
	{ "old_limiter", OCC_FT_STR, "the old launches' limiter of the most GPU "
	  "time", get_old, "", COL, 0, F_LIM },
};

const struct occ_row_kind kind_launch_compare = {
	"launch_compare", lcompare_fields,
	sizeof lcompare_fields / sizeof lcompare_fields[0], NULL
};

#define DEFAULT_FIELDS "change,by,key,changed,old_launches,launches," \
	"d_launches,old_gpu_time_ns,gpu_time_ns,d_gpu_time_pct," \
	"old_occupancy_pct,occupancy_pct,d_occupancy_pct,old_limiter,limiter"

/* ---- Matching and writing ---- */

static void changed_list(struct lrow *r)
{
	static const struct { unsigned bit; const char *name; } m[] = {
		{ OCC_LAUNCH_MOVED_OCCUPANCY, "occupancy_pct" },
		{ OCC_LAUNCH_MOVED_LIMITER, "limiter" },
		{ OCC_LAUNCH_MOVED_LAUNCHES, "launches" },
	};
	size_t i, len = 0;

	r->changed[0] = '\0';
	for (i = 0; i < sizeof m / sizeof m[0]; i++)
		if (r->c->moved & m[i].bit)
			len += (size_t)snprintf(r->changed + len,
						sizeof r->changed - len, "%s%s",
						len ? "+" : "", m[i].name);
}

static void text_fig(const struct lrow *r, const char *name, int fig,
		     int delta)
{
	struct occ_field f = { 0 };
	struct occ_val a, b, d;
	char x[64], y[64];

	f.arg = fig;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&d, 0, sizeof d);
	get_old(r, &f, &a);
	get_new(r, &f, &b);
	occ_val_format(x, sizeof x, &a);
	occ_val_format(y, sizeof y, &b);
	if (delta)
		get_delta(r, &f, &d);
	printf("          %-15s %s -> %s", name, x[0] ? x : "-",
	       y[0] ? y : "-");
	if (d.type != OCC_VAL_NULL)
		printf(" (%s%s)", d.s[0] == '-' ? "" : "+", d.s);
	printf("\n");
}

static void text_row(const struct lrow *r)
{
	struct occ_val v;
	char e[4096];

	get_change(r, NULL, &v);
	escape_text(e, sizeof e, r->c->cur ? r->c->cur->key : r->c->old->key);
	printf("%-9s %-6s %s\n", v.s, r->by, e);
	if (!r->c->old || !r->c->cur)
		return;
	if (r->c->moved & OCC_LAUNCH_MOVED_OCCUPANCY)
		text_fig(r, "occupancy_pct", F_OCC, 1);
	if (r->c->moved & OCC_LAUNCH_MOVED_LIMITER)
		text_fig(r, "limiter", F_LIM, 0);
	if (r->c->moved & OCC_LAUNCH_MOVED_LAUNCHES)
		text_fig(r, "launches", F_LAUNCHES, 1);
	if (r->c->moved & OCC_LAUNCH_MOVED_GPU_TIME)
		text_fig(r, "gpu_time_ns", F_GPU_TIME, 1);
}

struct emit_ctx {
	struct lcompare *lc;
	const char *by;
};

static int emit(void *ctx, const struct occ_launch_change *c)
{
	struct emit_ctx *e = ctx;
	struct lcompare *lc = e->lc;
	struct lrow r = { e->by, c, "" };

	changed_list(&r);
	*(!c->old ? &lc->added : !c->cur ? &lc->removed
	  : c->changed ? &lc->changed : &lc->unchanged) += 1;
	if (lc->chk && c->cur)
		check_judge(lc->chk, &r);
	if (!c->changed && !lc->s->o->all)
		return 0;
	if (lc->text)
		text_row(&r);
	else
		out_row(&lc->out, &r);
	return 0;
}

static void side_free(struct side *sd)
{
	size_t i;

	for (i = 0; i < N_BY; i++)
		occ_launch_groups_free(sd->g[i]);
}

static void side_new(struct side *sd)
{
	size_t i;

	for (i = 0; i < N_BY; i++)
		if (!(sd->g[i] = occ_launch_groups_new()))
			die("out of memory");
}

static void fields_find(struct lcompare *lc)
{
	size_t i;

	for (i = 0; i < N_BY; i++)
		lc->f[i] = occ_field_find(&occ_launch_kind, by_names[i],
				      strlen(by_names[i]));
	lc->occ = occ_field_find(&occ_launch_kind, "occupancy_pct", 13);
	lc->lim = occ_field_find(&occ_launch_kind, "limiter", 7);
	lc->dur = occ_field_find(&occ_launch_kind, "duration_ns", 11);
}

void launches_compare_free(struct lcompare *lc)
{
	if (!lc)
		return;
	side_free(&lc->cur);
	side_free(&lc->old);
	launches_inputs_free(&lc->in);
	free(lc);
}

int launches_compare(struct session *s)
{
	const struct options *o = s->o;
	struct lcompare *lc = calloc(1, sizeof *lc);
	struct fieldsel sel;
	struct emit_ctx e;
	size_t i;

	if (!lc)
		die("out of memory");
	/* Held by the session, so that a failure midway frees it. */
	s->launch_compare = lc;
	lc->s = s;
	lc->text = o->format == OUT_TEXT && !o->fields;
	fieldsel_make(&sel, &kind_launch_compare, o->fields, DEFAULT_FIELDS);
	fields_find(lc);
	side_new(&lc->cur);
	side_new(&lc->old);
	out_open(&lc->out, stdout, o->format, &sel);
	out_style(&lc->out, o->format_style);
	check_attach(s, &lc->out, &kind_launch_compare);
	lc->chk = lc->out.check;
	lc->out.check = NULL;    /* judged in emit(): listed or not */
	/* The baseline first: one that is no trace nor rows is refused
	 * before the new launches are read. */
	lc->at = &lc->old;
	read_old(lc, o->compare);
	launches_inputs(o, &lc->in);
	lc->at = &lc->cur;
	lc->reading = lc->in.names[0];
	read_trace(lc, (const char *const *)lc->in.names, (int)lc->in.n, 1);
	if (lc->text)
		printf("%s%s against %s\n\n",
		       launches_input_name(lc->in.names[0]),
		       lc->in.n > 1 ? " and more" : "",
		       launches_input_name(o->compare));
	e.lc = lc;
	for (i = 0; i < N_BY; i++) {
		if (!lc->cur.have[i] && !lc->old.have[i])
			continue;
		e.by = by_names[i];
		occ_launch_groups_compare(lc->old.g[i], lc->cur.g[i], emit, &e);
	}
	if (lc->text)
		printf("%s%" PRIu64 " changed, %" PRIu64 " added, %" PRIu64
		       " removed, %" PRIu64 " unchanged%s\n",
		       lc->changed + lc->added + lc->removed ? "\n" : "",
		       lc->changed, lc->added, lc->removed, lc->unchanged,
		       o->all || !lc->unchanged ? "" : " (--all lists them)");
	else
		out_close(&lc->out);
	launches_compare_free(lc);
	s->launch_compare = NULL;
	return 0;
}
