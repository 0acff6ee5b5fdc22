/*
 * expr.c - --check's expressions: a recursive-descent parser over the
 * fields of one kind of row, and their value on a row.
 *
 *   expr    := and ('||' and)*
 *   and     := unary ('&&' unary)*
 *   unary   := '!' unary | '(' expr ')' | operand CMP operand
 *   operand := FIELD | NUMBER[K|M|G] | 'text' | "text" | true | false | none
 *   CMP     := == != < <= > >=
 *
 * Numbers compare exactly as decimals (a field's 37.50 with 37.5); text,
 * sets ('+'-joined, as CSV writes them) and booleans with == and != only.
 * A bare word must name a field, so that a misspelt field is an error,
 * not a string. Nothing here prints: errors carry their column.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

struct parser {
	const char *s;
	size_t pos;
	const struct row_kind *kind;
	struct expr *e;
	struct expr_error *err;
	int depth;
};

static int fail(struct parser *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, size_t at, const char *fmt, ...)
{
	va_list ap;

	if (p->err->msg[0])
		return -1;
	p->err->column = at + 1;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_space(struct parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static int is_ident(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* ---- Numbers ---- */

int expr_num_cmp(const struct expr_num *a, const struct expr_num *b)
{
	int az = !a->ip && !a->fp, bz = !b->ip && !b->fp;
	int an = a->neg && !az, bn = b->neg && !bz, mag;

	if (an != bn)
		return an ? -1 : 1;
	mag = a->ip != b->ip ? (a->ip < b->ip ? -1 : 1)
	      : a->fp != b->fp ? (a->fp < b->fp ? -1 : 1) : 0;
	return an ? -mag : mag;
}

int expr_num_parse(const char *s, size_t len, struct expr_num *out,
		   size_t *used)
{
	uint64_t scale = UINT64_C(100000000000000000);   /* 1e17 */
	size_t i = 0, digits = 0;

	memset(out, 0, sizeof *out);
	if (i < len && (s[i] == '-' || s[i] == '+'))
		out->neg = s[i++] == '-';
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (out->ip > (UINT64_MAX - 9) / 10)
			return -1;
		out->ip = out->ip * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
			/* 18 digits are kept; a digit past them that is
			 * not 0 would be dropped, and the comparison with
			 * it no longer exact. */
			if (!scale && s[i] != '0')
				return EXPR_NUM_TOO_FINE;
			out->fp += (uint64_t)(s[i] - '0') * scale;
			scale /= 10;
		}
	}
	if (!digits)
		return -1;
	*used = i;
	return 0;
}

/* A literal number, with K, M or G (1024, 1024^2, 1024^3) after an
 * integer, as --smem takes. */
static int parse_number(struct parser *p, struct expr_operand *o)
{
	const char *at = p->s + p->pos;
	size_t used;
	uint64_t mul = 1;

	int st = expr_num_parse(at, strlen(at), &o->num, &used);

	if (st == EXPR_NUM_TOO_FINE)
		return fail(p, p->pos, "'%.24s': more than %d digits after "
			    "the point (numbers compare exactly to %d)", at,
			    EXPR_NUM_DIGITS, EXPR_NUM_DIGITS);
	if (st != 0)
		return fail(p, p->pos, "'%.12s': not a number (or beyond 64 "
			    "bits)", at);
	o->kind = OPND_NUM;
	if (at[used] == 'K' || at[used] == 'M' || at[used] == 'G') {
		mul = at[used] == 'K' ? 1024 : at[used] == 'M' ? 1048576
		      : 1073741824;
		if (o->num.fp || o->num.ip > UINT64_MAX / mul)
			return fail(p, p->pos, "'%.*s': a suffix needs a whole "
				    "number within 64 bits", (int)used + 1, at);
		o->num.ip *= mul;
		used++;
	}
	if (is_ident(at[used], 0) || at[used] == '.')
		return fail(p, p->pos + used, "'%.12s': not a number", at);
	p->pos += used;
	return 0;
}

/* ---- Operands ---- */

static int parse_string(struct parser *p, struct expr_operand *o)
{
	char q = p->s[p->pos];
	const char *end = strchr(p->s + p->pos + 1, q);
	size_t len;

	if (!end)
		return fail(p, p->pos, "a quote (%c) that is not closed", q);
	len = (size_t)(end - (p->s + p->pos + 1));
	if (!(o->str = malloc(len + 1)))
		return fail(p, p->pos, "out of memory");
	memcpy(o->str, p->s + p->pos + 1, len);
	o->str[len] = '\0';
	o->kind = OPND_STR;
	p->pos += len + 2;
	return 0;
}

static int parse_word(struct parser *p, struct expr_operand *o)
{
	const char *w = p->s + p->pos;
	size_t len = 0;

	while (is_ident(w[len], len == 0))
		len++;
	if (len == 4 && strncmp(w, "none", 4) == 0) {
		o->kind = OPND_NONE;
	} else if ((len == 4 && strncmp(w, "true", 4) == 0) ||
		   (len == 5 && strncmp(w, "false", 5) == 0)) {
		o->kind = OPND_BOOL;
		o->b = len == 4;
	} else if ((o->f = field_find(p->kind, w, len)) != NULL) {
		o->kind = OPND_FIELD;
	} else {
		return fail(p, p->pos, "'%.*s': no such field of %s rows (see "
			    "--list-fields; text goes in quotes)", (int)len, w,
			    p->kind->name);
	}
	p->pos += len;
	return 0;
}

/* The bytes of the character at s: a UTF-8 one quoted whole ('é', not
 * its first byte). */
static int char_len(const char *s)
{
	int n = 1;

	if ((unsigned char)s[0] >= 0xc0)
		while (n < 4 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
	return n;
}

static int parse_operand(struct parser *p, struct expr_operand *o)
{
	char c;

	skip_space(p);
	c = p->s[p->pos];
	if (c == '\'' || c == '"')
		return parse_string(p, o);
	if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')
		return parse_number(p, o);
	if (is_ident(c, 1))
		return parse_word(p, o);
	if (!c)
		return fail(p, p->pos, "the expression ends where a field or "
			    "value should be");
	return fail(p, p->pos, "'%.*s': expected a field or a value",
		    char_len(p->s + p->pos), p->s + p->pos);
}

static int parse_cmp_op(struct parser *p, enum expr_cmp *op)
{
	static const struct { const char *t; enum expr_cmp op; } ops[] = {
		{ "==", CMP_EQ }, { "!=", CMP_NE }, { "<=", CMP_LE },
		{ ">=", CMP_GE }, { "<", CMP_LT }, { ">", CMP_GT },
	};
	size_t i;

	skip_space(p);
	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strncmp(p->s + p->pos, ops[i].t, strlen(ops[i].t)) == 0) {
			*op = ops[i].op;
			p->pos += strlen(ops[i].t);
			return 0;
		}
	if (p->s[p->pos] == '=')
		return fail(p, p->pos, "'=': compare with '=='");
	if (!p->s[p->pos])
		return fail(p, p->pos, "the expression ends where a comparison "
			    "(== != < <= > >=) should be");
	return fail(p, p->pos, "'%.8s': expected a comparison (== != < <= > "
		    ">=)", p->s + p->pos);
}

/* ---- Types: what each side may be compared with ---- */

static int numeric(const struct expr_operand *o)
{
	return o->kind == OPND_NUM || (o->kind == OPND_FIELD &&
	       (o->f->type == FT_INT || o->f->type == FT_DEC));
}

static const char *kind_name(const struct expr_operand *o)
{
	static const char *const names[] = {
		[OPND_NUM] = "a number", [OPND_STR] = "text",
		[OPND_BOOL] = "a boolean", [OPND_NONE] = "none",
	};

	if (o->kind != OPND_FIELD)
		return names[o->kind];
	return o->f->type == FT_LIST ? "a list" : o->f->type == FT_BOOL
	       ? "a boolean" : numeric(o) ? "a number" : "text";
}

static int typed(struct parser *p, const struct expr_node *n, size_t at)
{
	const struct expr_operand *l = &n->l, *r = &n->r;
	int ordered = n->cmp != CMP_EQ && n->cmp != CMP_NE;

	if (l->kind != OPND_FIELD && r->kind != OPND_FIELD)
		return fail(p, at, "a comparison needs a field on one side");
	if ((l->kind == OPND_FIELD && l->f->type == FT_LIST) ||
	    (r->kind == OPND_FIELD && r->f->type == FT_LIST))
		return fail(p, at, "a list field cannot be compared");
	if (l->kind == OPND_NONE || r->kind == OPND_NONE)
		return ordered ? fail(p, at, "none compares with == or != "
				      "only") : 0;
	if (numeric(l) != numeric(r) || (!numeric(l) &&
	    (strcmp(kind_name(l), kind_name(r)) != 0)))
		return fail(p, at, "%s compared with %s", kind_name(l),
			    kind_name(r));
	if (ordered && !numeric(l))
		return fail(p, at, "%s compares with == or != only",
			    kind_name(l));
	return 0;
}

/* ---- Nodes ---- */

static int new_node(struct parser *p, enum expr_op op, size_t start)
{
	struct expr *e = p->e;

	if (e->count == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 8;
		struct expr_node *n = realloc(e->n, cap * sizeof *n);

		if (!n)
			return fail(p, start, "out of memory");
		e->n = n;
		e->cap = cap;
	}
	memset(&e->n[e->count], 0, sizeof e->n[0]);
	e->n[e->count].op = op;
	e->n[e->count].start = start;
	return (int)e->count++;
}

static int parse_or(struct parser *p);

static int parse_comparison(struct parser *p, size_t start)
{
	int i = new_node(p, EX_CMP, start);
	size_t op_at;

	if (i < 0 || parse_operand(p, &p->e->n[i].l) != 0)
		return -1;
	skip_space(p);
	op_at = p->pos;
	if (parse_cmp_op(p, &p->e->n[i].cmp) != 0 ||
	    parse_operand(p, &p->e->n[i].r) != 0 ||
	    typed(p, &p->e->n[i], op_at) != 0)
		return -1;
	p->e->n[i].end = p->pos;
	return i;
}

static int parse_unary(struct parser *p)
{
	size_t start;
	int i, c;

	skip_space(p);
	start = p->pos;
	if (++p->depth > EXPR_MAX_DEPTH)
		return fail(p, start, "nested more than %d deep",
			    EXPR_MAX_DEPTH);
	if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') {
		p->pos++;
		if ((c = parse_unary(p)) < 0 || (i = new_node(p, EX_NOT,
							       start)) < 0)
			return -1;
		p->e->n[i].a = c;
	} else if (p->s[p->pos] == '(') {
		p->pos++;
		if ((i = parse_or(p)) < 0)
			return -1;
		skip_space(p);
		if (p->s[p->pos] != ')')
			return fail(p, p->pos, "expected ')' to close the '(' "
				    "at column %zu", start + 1);
		p->pos++;
	} else if ((i = parse_comparison(p, start)) < 0) {
		return -1;
	}
	p->e->n[i].start = start;
	p->e->n[i].end = p->pos;
	p->depth--;
	return i;
}

/* One level: operands of op (EX_AND, written tok) joined left to right. */
static int parse_joined(struct parser *p, enum expr_op op, const char *tok,
			int (*sub)(struct parser *))
{
	size_t start;
	int l, r, i;

	skip_space(p);
	start = p->pos;
	if ((l = sub(p)) < 0)
		return -1;
	for (skip_space(p); strncmp(p->s + p->pos, tok, 2) == 0;
	     skip_space(p)) {
		p->pos += 2;
		if ((r = sub(p)) < 0 || (i = new_node(p, op, start)) < 0)
			return -1;
		p->e->n[i].a = l;
		p->e->n[i].b = r;
		p->e->n[i].end = p->pos;
		l = i;
	}
	return l;
}

static int parse_and(struct parser *p)
{
	return parse_joined(p, EX_AND, "&&", parse_unary);
}

static int parse_or(struct parser *p)
{
	return parse_joined(p, EX_OR, "||", parse_and);
}

int expr_parse(const char *text, const struct row_kind *kind,
	       struct expr *e, struct expr_error *err)
{
	struct parser p = { text, 0, kind, e, err, 0 };
	char c;

	memset(e, 0, sizeof *e);
	memset(err, 0, sizeof *err);
	e->text = text;
	e->root = parse_or(&p);
	if (e->root < 0)
		return -1;
	skip_space(&p);
	c = text[p.pos];
	if (c == '&' || c == '|' || c == ')')
		return fail(&p, p.pos, "'%.2s': expected && or || between two "
			    "comparisons", text + p.pos);
	if (c)
		return fail(&p, p.pos, "'%.12s': expected && or || or the end "
			    "of the expression", text + p.pos);
	return 0;
}

void expr_free(struct expr *e)
{
	size_t i;

	for (i = 0; i < e->count; i++) {
		free(e->n[i].l.str);
		free(e->n[i].r.str);
	}
	free(e->n);
	memset(e, 0, sizeof *e);
}

/* ---- Values ---- */

/* An operand's value on row: its text (sets '+'-joined), or its number;
 * 0 if absent. */
struct opval {
	int present, is_num;
	struct expr_num num;
	char text[512];
};

static void field_value(const struct field *f, const void *row,
			struct opval *o)
{
	struct val v;
	size_t i, len = 0, used;

	memset(&v, 0, sizeof v);
	f->get(row, f, &v);
	o->present = v.type != VAL_NULL;
	o->is_num = v.type == VAL_UINT || v.type == VAL_DEC;
	o->text[0] = '\0';
	if (v.type == VAL_UINT) {
		o->num.ip = v.u;
		snprintf(o->text, sizeof o->text, "%llu", (unsigned long long)v.u);
	} else if (v.type == VAL_DEC) {
		snprintf(o->text, sizeof o->text, "%s", v.s);
		o->present = expr_num_parse(v.s, strlen(v.s), &o->num,
					    &used) == 0 && !v.s[used];
	} else if (v.type == VAL_STR) {
		snprintf(o->text, sizeof o->text, "%s", v.s);
	} else if (v.type == VAL_BOOL) {
		snprintf(o->text, sizeof o->text, "%s", v.u ? "true" : "false");
	} else if (v.type == VAL_SET) {
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
			       const struct field **absent)
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
		     const struct field **absent)
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
			  const struct field **absent)
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
