/*
 * expr_eval.c - --check's expressions (parsed by expr.c) on a row: each
 * operand's value (a field's, as the writers would print it), the
 * comparisons, three-valued (true, false, or none where a field is
 * absent), and for a row that fails, the fields' values that made it
 * fail. Nothing here prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

/* ---- Values ---- */

/* An operand's value on row: its text (sets '+'-joined), or its number;
 * 0 if absent. */
struct opval {
	int present, is_num;
	struct expr_num num;
	char text[512];
};

static void field_value(const struct occ_field *f, const void *row,
			struct opval *o)
{
	struct occ_val v;
	size_t i, len = 0, used;

	memset(&v, 0, sizeof v);
	f->get(row, f, &v);
	o->present = v.type != OCC_VAL_NULL;
	o->is_num = v.type == OCC_VAL_UINT || v.type == OCC_VAL_DEC;
	o->text[0] = '\0';
	if (v.type == OCC_VAL_UINT) {
		o->num.ip = v.u;
		snprintf(o->text, sizeof o->text, "%llu", (unsigned long long)v.u);
	} else if (v.type == OCC_VAL_DEC) {
		snprintf(o->text, sizeof o->text, "%s", v.s);
		o->present = expr_num_parse(v.s, strlen(v.s), &o->num,
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

static void operand_value(const struct expr_operand *x, const void *row,
			  struct opval *o)
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

static enum expr_value compare(const struct expr_node *n, const void *row,
			       const struct occ_field **absent)
{
	struct opval l, r;
	int c;

	operand_value(&n->l, row, &l);
	operand_value(&n->r, row, &r);
	if (n->l.kind == OPND_NONE || n->r.kind == OPND_NONE) {
		int is_none = n->l.kind == OPND_NONE ? !r.present : !l.present;

		return (n->cmp == CMP_EQ) == is_none ? EXPR_TRUE : EXPR_FALSE;
	}
	if (!l.present || !r.present) {
		if (absent && !*absent)
			*absent = !l.present ? n->l.f : n->r.f;
		return EXPR_UNKNOWN;
	}
	c = l.is_num ? expr_num_cmp(&l.num, &r.num) : strcmp(l.text, r.text);
	switch (n->cmp) {
	case CMP_EQ: return c == 0 ? EXPR_TRUE : EXPR_FALSE;
	case CMP_NE: return c != 0 ? EXPR_TRUE : EXPR_FALSE;
	case CMP_LT: return c < 0 ? EXPR_TRUE : EXPR_FALSE;
	case CMP_LE: return c <= 0 ? EXPR_TRUE : EXPR_FALSE;
	case CMP_GT: return c > 0 ? EXPR_TRUE : EXPR_FALSE;
	default: return c >= 0 ? EXPR_TRUE : EXPR_FALSE;
	}
}

/* Every node's value on row, once each, without recursion (a chain of
 * 100,000 terms is 100,000 deep): the parser makes a node's children
 * before it, so in index order each child is known when its parent is
 * reached, and the comparisons come in the order of the text. With
 * absent non-NULL, the first field found absent where a comparison
 * could not be decided. lo (if not NULL): the first node of each
 * node's subtree, which runs from there to the node itself. */
static void eval_all(const struct expr *e, const void *row,
		     enum expr_value *v, size_t *lo,
		     const struct occ_field **absent)
{
	size_t i;

	for (i = 0; i < e->count; i++) {
		const struct expr_node *n = &e->n[i];
		enum expr_value a, b;

		if (lo)
			lo[i] = n->op == EX_CMP ? i : lo[n->a];
		if (n->op == EX_CMP) {
			v[i] = compare(n, row, absent);
			continue;
		}
		a = v[n->a];
		if (n->op == EX_NOT) {
			v[i] = a == EXPR_UNKNOWN ? a : a == EXPR_TRUE
			       ? EXPR_FALSE : EXPR_TRUE;
			continue;
		}
		b = v[n->b];
		if (n->op == EX_AND)
			v[i] = a == EXPR_FALSE || b == EXPR_FALSE ? EXPR_FALSE
			       : a == EXPR_TRUE && b == EXPR_TRUE ? EXPR_TRUE
			       : EXPR_UNKNOWN;
		else
			v[i] = a == EXPR_TRUE || b == EXPR_TRUE ? EXPR_TRUE
			       : a == EXPR_FALSE && b == EXPR_FALSE
			       ? EXPR_FALSE : EXPR_UNKNOWN;
	}
}

enum expr_value expr_eval(const struct expr *e, const void *row,
			  const struct occ_field **absent)
{
	enum expr_value small[64], *v = small, r;

	if (absent)
		*absent = NULL;
	if (e->count > 64 && !(v = malloc(e->count * sizeof *v)))
		return EXPR_UNKNOWN;   /* out of memory: nothing decided */
	eval_all(e, row, v, NULL, absent);
	r = v[e->root];
	if (v != small)
		free(v);
	return r;
}

/* ---- Why it fails ---- */

static void append(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* The values of the fields the comparisons of node i's subtree (nodes
 * lo to i) compare, in parentheses. */
static void field_values(const struct expr *e, size_t lo, size_t i,
			 const void *row, char *buf, size_t n)
{
	struct opval v;
	size_t c;
	int j, first = 1;

	for (c = lo; c <= i; c++) {
		const struct expr_node *x = &e->n[c];
		const struct expr_operand *side[2] = { &x->l, &x->r };

		for (j = 0; x->op == EX_CMP && j < 2; j++) {
			if (side[j]->kind != OPND_FIELD)
				continue;
			operand_value(side[j], row, &v);
			append(buf, n, "%s%s %s", first ? " (" : ", ",
			       side[j]->f->name, v.present ? v.text : "absent");
			first = 0;
		}
	}
	if (!first)
		append(buf, n, ")");
}

/* The failing comparisons: from the root down through the && and ||
 * that are false, each false child marked (children come before their
 * parent, so a descending pass sees every mark); then the marked
 * comparisons and negations, left to right, until buf is full. Each
 * node is looked at once: a chain of n terms costs n. */
void expr_explain(const struct expr *e, const void *row, char *buf, size_t n)
{
	size_t *lo = malloc(e->count * (sizeof *lo + sizeof(enum expr_value) +
					1)), i;
	enum expr_value *v = (enum expr_value *)(lo + e->count);
	unsigned char *mark = (unsigned char *)(v + e->count);

	buf[0] = '\0';
	if (!lo) {
		snprintf(buf, n, "%s", e->text);   /* out of memory: the whole */
		return;
	}
	eval_all(e, row, v, lo, NULL);
	memset(mark, 0, e->count);
	mark[e->root] = 1;
	for (i = e->count; i-- > 0;) {
		const struct expr_node *x = &e->n[i];

		if (!mark[i] || (x->op != EX_AND && x->op != EX_OR))
			continue;
		mark[x->a] = v[x->a] == EXPR_FALSE;
		mark[x->b] = v[x->b] == EXPR_FALSE;
	}
	for (i = 0; i < e->count && strlen(buf) + 1 < n; i++) {
		const struct expr_node *x = &e->n[i];

		if (!mark[i] || x->op == EX_AND || x->op == EX_OR)
			continue;
		append(buf, n, "%s%.*s", buf[0] ? "; " : "",
		       (int)(x->end - x->start), e->text + x->start);
		field_values(e, lo[i], i, row, buf, n);
	}
	free(lo);
}
