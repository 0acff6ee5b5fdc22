/*
 * check_parse.c - --check's expressions (occcalc/check.h): a
 * recursive-descent parser over the fields of one kind of row (their
 * value on a row, and why it fails, are check_eval.c's).
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

#include "check_int.h"

struct parser {
	const char *s;
	size_t pos;
	const struct occ_row_kind *kind;
	struct occ_check *e;
	struct occ_check_error *err;
	int depth;
	int nomem;
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

static int out_of_memory(struct parser *p, size_t at)
{
	p->nomem = 1;
	return fail(p, at, "out of memory");
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

int occ_decimal_cmp(const struct occ_decimal *a, const struct occ_decimal *b)
{
	int az = !a->ip && !a->fp, bz = !b->ip && !b->fp;
	int an = a->neg && !az, bn = b->neg && !bz, mag;

	if (an != bn)
		return an ? -1 : 1;
	mag = a->ip != b->ip ? (a->ip < b->ip ? -1 : 1)
	      : a->fp != b->fp ? (a->fp < b->fp ? -1 : 1) : 0;
	return an ? -mag : mag;
}

int occ_decimal_parse(const char *s, size_t len, struct occ_decimal *out,
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
				return OCC_DECIMAL_TOO_FINE;
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
static int parse_number(struct parser *p, struct check_operand *o)
{
	const char *at = p->s + p->pos;
	size_t used;
	uint64_t mul = 1;

	int st = occ_decimal_parse(at, strlen(at), &o->num, &used);

	if (st == OCC_DECIMAL_TOO_FINE)
		return fail(p, p->pos, "'%.24s': more than %d digits after "
			    "the point (numbers compare exactly to %d)", at,
			    OCC_DECIMAL_DIGITS, OCC_DECIMAL_DIGITS);
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

static int parse_string(struct parser *p, struct check_operand *o)
{
	char q = p->s[p->pos];
	const char *end = strchr(p->s + p->pos + 1, q);
	size_t len;

	if (!end)
		return fail(p, p->pos, "a quote (%c) that is not closed", q);
	len = (size_t)(end - (p->s + p->pos + 1));
	if (!(o->str = malloc(len + 1)))
		return out_of_memory(p, p->pos);
	memcpy(o->str, p->s + p->pos + 1, len);
	o->str[len] = '\0';
	o->kind = OPND_STR;
	p->pos += len + 2;
	return 0;
}

static int parse_word(struct parser *p, struct check_operand *o)
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
	} else if ((o->f = occ_field_find(p->kind, w, len)) != NULL) {
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

static int parse_operand(struct parser *p, struct check_operand *o)
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

static int parse_cmp_op(struct parser *p, enum check_cmp *op)
{
	static const struct { const char *t; enum check_cmp op; } ops[] = {
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

static int numeric(const struct check_operand *o)
{
	return o->kind == OPND_NUM || (o->kind == OPND_FIELD &&
	       (o->f->type == OCC_FT_INT || o->f->type == OCC_FT_DEC));
}

static const char *kind_name(const struct check_operand *o)
{
	static const char *const names[] = {
		[OPND_NUM] = "a number", [OPND_STR] = "text",
		[OPND_BOOL] = "a boolean", [OPND_NONE] = "none",
	};

	if (o->kind != OPND_FIELD)
		return names[o->kind];
	return o->f->type == OCC_FT_LIST ? "a list" : o->f->type == OCC_FT_BOOL
	       ? "a boolean" : numeric(o) ? "a number" : "text";
}

static int typed(struct parser *p, const struct check_node *n, size_t at)
{
	const struct check_operand *l = &n->l, *r = &n->r;
	int ordered = n->cmp != CMP_EQ && n->cmp != CMP_NE;

	if (l->kind != OPND_FIELD && r->kind != OPND_FIELD)
		return fail(p, at, "a comparison needs a field on one side");
	if ((l->kind == OPND_FIELD && l->f->type == OCC_FT_LIST) ||
	    (r->kind == OPND_FIELD && r->f->type == OCC_FT_LIST))
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

static int new_node(struct parser *p, enum check_op op, size_t start)
{
	struct occ_check *e = p->e;

	if (e->count == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 8;
		struct check_node *n = realloc(e->n, cap * sizeof *n);

		if (!n)
			return out_of_memory(p, start);
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
	if (++p->depth > OCC_CHECK_MAX_DEPTH)
		return fail(p, start, "nested more than %d deep",
			    OCC_CHECK_MAX_DEPTH);
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
static int parse_joined(struct parser *p, enum check_op op, const char *tok,
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

/* The whole text; the root node, or -1. */
static int parse_all(struct parser *p)
{
	int root = parse_or(p);
	char c;

	if (root < 0)
		return -1;
	skip_space(p);
	c = p->s[p->pos];
	if (c == '&' || c == '|' || c == ')')
		return fail(p, p->pos, "'%.2s': expected && or || between two "
			    "comparisons", p->s + p->pos);
	if (c)
		return fail(p, p->pos, "'%.12s': expected && or || or the end "
			    "of the expression", p->s + p->pos);
	return root;
}

enum occ_status occ_check_parse(const char *text,
				const struct occ_row_kind *kind,
				struct occ_check **out,
				struct occ_check_error *err)
{
	struct occ_check *e = calloc(1, sizeof *e);
	struct parser p = { text, 0, kind, e, err, 0, 0 };

	memset(err, 0, sizeof *err);
	*out = NULL;
	if (!e) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		err->column = 1;
		return OCC_ERR_NOMEM;
	}
	e->text = text;
	e->root = parse_all(&p);
	if (e->root < 0) {
		occ_check_free(e);
		return p.nomem ? OCC_ERR_NOMEM : OCC_ERR_SYNTAX;
	}
	*out = e;
	return OCC_OK;
}

void occ_check_free(struct occ_check *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->count; i++) {
		free(e->n[i].l.str);
		free(e->n[i].r.str);
	}
	free(e->n);
	free(e);
}

static unsigned operand_needs(const struct check_operand *o)
{
	return o->kind == OPND_FIELD && o->f ? o->f->needs : 0;
}

unsigned occ_check_needs(const struct occ_check *c)
{
	unsigned needs = 0;
	size_t i;

	for (i = 0; c && i < c->count; i++)
		if (c->n[i].op == EX_CMP)
			needs |= operand_needs(&c->n[i].l) |
				 operand_needs(&c->n[i].r);
	return needs;
}
