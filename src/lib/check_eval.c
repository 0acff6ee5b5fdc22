/*
 * check_eval.c - --check's expressions (parsed by check_parse.c) on a
 * row: each operand's value (a field's, as the writers would print it),
 * the comparisons, three-valued (true, false, or none where a field is
 * absent), and for a row that fails, the comparisons that made it fail
 * with their fields' values. Nothing here prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

/* ---- Values ---- */

/* An operand's value on row: its text (sets '+'-joined), or its number;
 * 0 if absent. */
struct opval {
	int present, is_num;
	struct occ_decimal num;
	char text[512];
};

static void field_value(const struct occ_field *f,
			const struct check_row *row, struct opval *o)
{
	struct occ_val v;
	size_t i, len = 0, used;

	memset(&v, 0, sizeof v);
	(row->get ? row->get : f->get)(row->row, f, &v);
	o->present = v.type != OCC_VAL_NULL;
	o->is_num = v.type == OCC_VAL_UINT || v.type == OCC_VAL_DEC;
	o->text[0] = '\0';
	if (v.type == OCC_VAL_UINT) {
		o->num.ip = v.u;
		snprintf(o->text, sizeof o->text, "%llu", (unsigned long long)v.u);
	} else if (v.type == OCC_VAL_DEC) {
		snprintf(o->text, sizeof o->text, "%s", v.s);
		o->present = occ_decimal_parse(v.s, strlen(v.s), &o->num,
					       &used) == 0 && !v.s[used];
	} else if (v.type == OCC_VAL_STR) {
		snprintf(o->text, sizeof o->text, "%s", v.s);
	} else if (v.type == OCC_VAL_BOOL) {
		snprintf(o->text, sizeof o->text, "%s", v.u ? "true" : "false");
	} else if (v.type == OCC_VAL_SET) {
		for (i = 0; i < v.n && len + 1 < sizeof o->text; i++)
			len += (size_t)snprintf(o->text + len, sizeof o->text -
						len, "%s%s", i ? "+" : "",
						v.strs[i]);
	}
}

static void operand_value(const struct check_operand *x,
			  const struct check_row *row, struct opval *o)
{
	memset(o, 0, sizeof *o);
	o->present = 1;
	if (x->kind == OPND_FIELD)
		field_value(x->f, row, o);
	else if (x->kind == OPND_NUM)
		o->is_num = 1, o->num = x->num;
	else if (x->kind == OPND_STR)
		snprintf(o->text, sizeof o->text, "%s", x->str);
	else if (x->kind == OPND_BOOL)
		snprintf(o->text, sizeof o->text, "%s", x->b ? "true" : "false");
}

static enum occ_check_value compare(const struct check_node *n,
				    const struct check_row *row,
				    const struct occ_field **absent)
{
	struct opval l, r;
	int c;

	operand_value(&n->l, row, &l);
	operand_value(&n->r, row, &r);
	if (n->l.kind == OPND_NONE || n->r.kind == OPND_NONE) {
		int is_none = n->l.kind == OPND_NONE ? !r.present : !l.present;

		return (n->cmp == CMP_EQ) == is_none ? OCC_CHECK_TRUE
		       : OCC_CHECK_FALSE;
	}
	if (!l.present || !r.present) {
		if (absent && !*absent)
			*absent = !l.present ? n->l.f : n->r.f;
		return OCC_CHECK_UNKNOWN;
	}
	c = l.is_num ? occ_decimal_cmp(&l.num, &r.num) : strcmp(l.text, r.text);
	switch (n->cmp) {
	case CMP_EQ: return c == 0 ? OCC_CHECK_TRUE : OCC_CHECK_FALSE;
	case CMP_NE: return c != 0 ? OCC_CHECK_TRUE : OCC_CHECK_FALSE;
	case CMP_LT: return c < 0 ? OCC_CHECK_TRUE : OCC_CHECK_FALSE;
	case CMP_LE: return c <= 0 ? OCC_CHECK_TRUE : OCC_CHECK_FALSE;
	case CMP_GT: return c > 0 ? OCC_CHECK_TRUE : OCC_CHECK_FALSE;
	default: return c >= 0 ? OCC_CHECK_TRUE : OCC_CHECK_FALSE;
	}
}

/* ---- Three values, as SQL has them ---- */

static enum occ_check_value not3(enum occ_check_value a)
{
	return a == OCC_CHECK_UNKNOWN ? a : a == OCC_CHECK_TRUE
	       ? OCC_CHECK_FALSE : OCC_CHECK_TRUE;
}

static enum occ_check_value and3(enum occ_check_value a,
				 enum occ_check_value b)
{
	if (a == OCC_CHECK_FALSE || b == OCC_CHECK_FALSE)
		return OCC_CHECK_FALSE;
	return a == OCC_CHECK_TRUE && b == OCC_CHECK_TRUE ? OCC_CHECK_TRUE
	       : OCC_CHECK_UNKNOWN;
}

static enum occ_check_value or3(enum occ_check_value a,
				enum occ_check_value b)
{
	return not3(and3(not3(a), not3(b)));
}

/* Every node's value on row, once each, without recursion (a chain of
 * 100,000 terms is 100,000 deep): the parser makes a node's children
 * before it, so in index order each child is known when its parent is
 * reached, and the comparisons come in the order of the text. With
 * absent non-NULL, the first field found absent where a comparison
 * could not be decided. lo (if not NULL): the first node of each
 * node's subtree, which runs from there to the node itself. */
static void eval_all(const struct occ_check *e, const struct check_row *row,
		     enum occ_check_value *v, size_t *lo,
		     const struct occ_field **absent)
{
	size_t i;

	for (i = 0; i < e->count; i++) {
		const struct check_node *n = &e->n[i];
		enum occ_check_value a, b;

		if (lo)
			lo[i] = n->op == EX_CMP ? i : lo[n->a];
		if (n->op == EX_CMP) {
			v[i] = compare(n, row, absent);
			continue;
		}
		a = v[n->a];
		b = n->op == EX_NOT ? a : v[n->b];
		v[i] = n->op == EX_NOT ? not3(a) : n->op == EX_AND
		       ? and3(a, b) : or3(a, b);
	}
}

enum occ_check_value check_eval_row(const struct occ_check *e,
				    const struct check_row *row,
				    const struct occ_field **absent)
{
	enum occ_check_value small[64], *v = small, r;

	if (absent)
		*absent = NULL;
	if (e->count > 64 && !(v = malloc(e->count * sizeof *v)))
		return OCC_CHECK_UNKNOWN;   /* out of memory: nothing decided */
	eval_all(e, row, v, NULL, absent);
	r = v[e->root];
	if (v != small)
		free(v);
	return r;
}

enum occ_check_value occ_check_eval(const struct occ_check *c,
				    const void *row,
				    const struct occ_field **absent)
{
	struct check_row r = { row, NULL };

	return check_eval_row(c, &r, absent);
}

/* ---- Why it fails ---- */

/* The failing comparisons: from the root down through the && and ||
 * that are false, each false child marked (children come before their
 * parent, so a descending pass sees every mark). Each node is looked at
 * once: a chain of n terms costs n. */
static void mark_failing(const struct occ_check *e,
			 const enum occ_check_value *v, unsigned char *mark)
{
	size_t i;

	memset(mark, 0, e->count);
	mark[e->root] = v[e->root] == OCC_CHECK_FALSE;
	for (i = e->count; i-- > 0;) {
		const struct check_node *x = &e->n[i];

		if (!mark[i] || (x->op != EX_AND && x->op != EX_OR))
			continue;
		mark[x->a] = v[x->a] == OCC_CHECK_FALSE;
		mark[x->b] = v[x->b] == OCC_CHECK_FALSE;
	}
}

/* Node i (a comparison or a '!') as a failure: its text and the values
 * of the fields the comparisons of its subtree (nodes lo to i) compare;
 * then fn. */
static int report(const struct occ_check *e, size_t lo, size_t i,
		  const struct check_row *row, occ_check_failure_fn fn,
		  void *ctx, int *stop)
{
	const struct check_node *x = &e->n[i];
	size_t max = 2 * (i - lo + 1), n = 0, c;
	struct occ_check_seen *seen = malloc(max * sizeof *seen);
	struct opval *val = malloc(max * sizeof *val);
	struct occ_check_failure f;
	int j;

	if (!seen || !val) {
		free(seen);
		free(val);
		return -1;
	}
	for (c = lo; c <= i; c++) {
		const struct check_node *y = &e->n[c];
		const struct check_operand *side[2] = { &y->l, &y->r };

		for (j = 0; y->op == EX_CMP && j < 2; j++) {
			if (side[j]->kind != OPND_FIELD)
				continue;
			operand_value(side[j], row, &val[n]);
			seen[n].field = side[j]->f->name;
			seen[n].value = val[n].present ? val[n].text : NULL;
			n++;
		}
	}
	f.text = e->text + x->start;
	f.len = x->end - x->start;
	f.column = x->start + 1;
	f.seen = seen;
	f.n_seen = n;
	*stop = fn(ctx, &f) != 0;
	free(seen);
	free(val);
	return 0;
}

enum occ_status check_failures_row(const struct occ_check *e,
				   const struct check_row *row,
				   occ_check_failure_fn fn, void *ctx)
{
	size_t *lo = malloc(e->count * (sizeof *lo +
					sizeof(enum occ_check_value) + 1)), i;
	enum occ_check_value *v = (enum occ_check_value *)(lo + e->count);
	unsigned char *mark = (unsigned char *)(v + e->count);
	int stop = 0, st = 0;

	if (!lo)
		return OCC_ERR_NOMEM;
	eval_all(e, row, v, lo, NULL);
	mark_failing(e, v, mark);
	for (i = 0; i < e->count && !stop && st == 0; i++) {
		const struct check_node *x = &e->n[i];

		if (mark[i] && x->op != EX_AND && x->op != EX_OR)
			st = report(e, lo[i], i, row, fn, ctx, &stop);
	}
	free(lo);
	return st ? OCC_ERR_NOMEM : OCC_OK;
}

enum occ_status occ_check_failures(const struct occ_check *c,
				   const void *row, occ_check_failure_fn fn,
				   void *ctx)
{
	struct check_row r = { row, NULL };

	return check_failures_row(c, &r, fn, ctx);
}

/* ---- Why it fails, in one line ---- */

struct line {
	char *buf;
	size_t n;
};

static void append(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void append(struct line *l, const char *fmt, ...)
{
	size_t len = strlen(l->buf);
	va_list ap;

	if (len + 1 >= l->n)
		return;
	va_start(ap, fmt);
	vsnprintf(l->buf + len, l->n - len, fmt, ap);
	va_end(ap);
}

/* "regs <= 128 (regs 168)", after a "; " if not the first; stops when
 * the line is full. */
static int explain_one(void *ctx, const struct occ_check_failure *f)
{
	struct line *l = ctx;
	size_t i;

	append(l, "%s%.*s", l->buf[0] ? "; " : "", (int)f->len, f->text);
	for (i = 0; i < f->n_seen; i++)
		append(l, "%s%s %s", i ? ", " : " (", f->seen[i].field,
		       f->seen[i].value ? f->seen[i].value : "absent");
	if (f->n_seen)
		append(l, ")");
	return strlen(l->buf) + 1 >= l->n;
}

void occ_check_explain(const struct occ_check *c, const void *row, char *buf,
		       size_t n)
{
	struct line l = { buf, n };

	if (!n)
		return;
	buf[0] = '\0';
	if (occ_check_failures(c, row, explain_one, &l) != OCC_OK)
		snprintf(buf, n, "%s", c->text);   /* no memory: the whole */
}
