/*
 * kernel_text.c - a kernel's global accesses read from C-like text,
 * "z[i] = x[i] + y[i]": which arrays, loaded or stored, at which index.
 */
#include <ctype.h>
#include <string.h>

#include "occcalc.h"

struct cursor {
	const char *s;
	size_t at;
	size_t bad;              /* where the text stopped making sense */
	enum occ_status st;
	size_t index, index_len; /* the thread index's name, once seen */
};

static void skip_space(struct cursor *c)
{
	while (isspace((unsigned char)c->s[c->at]))
		c->at++;
}

static int fail(struct cursor *c, enum occ_status st)
{
	if (c->st == OCC_OK) {
		c->st = st;
		c->bad = c->at;
	}
	return 0;
}

/* The next character, if it is ch (after spaces). */
static int accept(struct cursor *c, char ch)
{
	skip_space(c);
	if (c->s[c->at] != ch)
		return 0;
	c->at++;
	return 1;
}

static int expect(struct cursor *c, char ch)
{
	return accept(c, ch) || fail(c, OCC_ERR_SYNTAX);
}

static int number(struct cursor *c, uint64_t *v)
{
	skip_space(c);
	if (!isdigit((unsigned char)c->s[c->at]))
		return fail(c, OCC_ERR_SYNTAX);
	for (*v = 0; isdigit((unsigned char)c->s[c->at]); c->at++) {
		unsigned d = (unsigned)(c->s[c->at] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return fail(c, OCC_ERR_INVALID_INPUT);
		*v = *v * 10 + d;
	}
	return 1;
}

/* The thread's index, i, as the access uses it. */
struct term {
	int has_i;
	uint64_t factor, group, lane_xor;
};

static int lane_xor(struct cursor *c, struct term *t)
{
	return number(c, &t->lane_xor) &&
	       (t->lane_xor < 32 || fail(c, OCC_ERR_INVALID_INPUT));
}

static int divisor(struct cursor *c, struct term *t)
{
	uint64_t g;

	if (!number(c, &g))
		return 0;
	if (!g || (g & (g - 1)) || g > 32 || t->group != 1)
		return fail(c, OCC_ERR_INVALID_INPUT);
	t->group = g;
	return 1;
}

/* The thread index's name: any identifier (i, x, tid), the same in every
 * access, as the first one names it. */
static int index_name(struct cursor *c)
{
	size_t from, len;

	skip_space(c);
	from = c->at;
	if (!isalpha((unsigned char)c->s[from]) && c->s[from] != '_')
		return fail(c, OCC_ERR_SYNTAX);
	while (isalnum((unsigned char)c->s[c->at]) || c->s[c->at] == '_')
		c->at++;
	len = c->at - from;
	if (!c->index_len) {
		c->index = from;
		c->index_len = len;
	} else if (len != c->index_len ||
		   memcmp(c->s + from, c->s + c->index, len) != 0) {
		c->at = from;
		return fail(c, OCC_ERR_SYNTAX);
	}
	return 1;
}

/* i, (i ^ X), (i / G), (i ^ X) / G; i ^ X alone only as the whole index,
 * where C's precedence cannot change what it means. */
static int thread_index(struct cursor *c, struct term *t)
{
	if (t->has_i)
		return fail(c, OCC_ERR_SYNTAX);
	t->has_i = 1;
	if (accept(c, '(')) {
		if (!index_name(c) || (accept(c, '^') && !lane_xor(c, t)) ||
		    (accept(c, '/') && !divisor(c, t)))
			return 0;
		return expect(c, ')');
	}
	if (!index_name(c))
		return 0;
	if (accept(c, '^')) {
		if (!lane_xor(c, t))
			return 0;
		skip_space(c);
		return c->s[c->at] == ']' || fail(c, OCC_ERR_SYNTAX);
	}
	return 1;
}

static int times(struct cursor *c, struct term *t)
{
	uint64_t k;

	return number(c, &k) &&
	       (!__builtin_mul_overflow(t->factor, k, &t->factor) ||
		fail(c, OCC_ERR_INVALID_INPUT));
}

/* One term of the sum: a constant (added to *offset) or K * i / G * K. */
static int term(struct cursor *c, struct term *t, uint64_t *offset)
{
	uint64_t n;

	skip_space(c);
	if (isdigit((unsigned char)c->s[c->at])) {
		if (!number(c, &n))
			return 0;
		if (!accept(c, '*'))
			return !__builtin_add_overflow(*offset, n, offset) ||
			       fail(c, OCC_ERR_INVALID_INPUT);
		t->factor = n;
		/* K * i / G is (K * i) / G in C: not a stride and a group. */
		return thread_index(c, t) &&
		       (c->s[(skip_space(c), c->at)] != '/' ||
			fail(c, OCC_ERR_SYNTAX)) &&
		       (!accept(c, '*') || times(c, t));
	}
	if (!thread_index(c, t) || (accept(c, '/') && !divisor(c, t)))
		return 0;
	return !accept(c, '*') || times(c, t);
}

/* [INDEX] into the access's pattern. */
static int index_expr(struct cursor *c, struct occ_kernel_access *a)
{
	struct term t = { 0, 1, 1, 0 };
	uint64_t offset = 0;

	do {
		if (!term(c, &t, &offset))
			return 0;
	} while (accept(c, '+'));
	if (!expect(c, ']'))
		return 0;
	a->access.stride = t.has_i ? t.factor : 0;
	a->access.offset = offset;
	a->access.lane_xor = (unsigned)t.lane_xor;
	a->group = (unsigned)t.group;
	return 1;
}

static int array_number(struct cursor *c, struct occ_kernel_text *k,
			size_t from, size_t len)
{
	int i;

	if (len >= sizeof k->names[0])
		return fail(c, OCC_ERR_INVALID_INPUT) - 1;
	for (i = 0; i < k->n_arrays; i++)
		if (strlen(k->names[i]) == len &&
		    memcmp(k->names[i], c->s + from, len) == 0)
			return i;
	if (k->n_arrays == OCC_MAX_KERNEL_ARRAYS)
		return fail(c, OCC_ERR_INVALID_INPUT) - 1;
	memcpy(k->names[i], c->s + from, len);
	k->names[i][len] = '\0';
	return k->n_arrays++;
}

/* NAME[INDEX] at the cursor, NAME from `from`: a load for now. */
static int access(struct cursor *c, struct occ_kernel_text *k, size_t from)
{
	struct occ_kernel_access *a = &k->acc[k->n];
	int array;

	if (k->n == OCC_MAX_KERNEL_ACCESSES)
		return fail(c, OCC_ERR_INVALID_INPUT);
	array = array_number(c, k, from, c->at - from);
	if (array < 0)
		return 0;
	accept(c, '[');
	memset(a, 0, sizeof *a);
	a->access.op = OCC_ACCESS_LOAD;
	a->access.elem_size = 4;
	a->access.threads = 32;
	a->array = array;
	if (!index_expr(c, a))
		return 0;
	k->n++;
	return 1;
}

/* '=' here assigns (not ==, <=, >=, !=); *compound when it is op=. */
static int assignment(const struct cursor *c, int *compound)
{
	const char *s = c->s;
	size_t i = c->at;

	if (s[i] != '=' || s[i + 1] == '=')
		return 0;
	if (i > 0 && (s[i - 1] == '=' || s[i - 1] == '!' ||
		      ((s[i - 1] == '<' || s[i - 1] == '>') &&
		       (i < 2 || s[i - 2] != s[i - 1]))))
		return 0;
	*compound = i > 0 && strchr("+-*/%&|^<>", s[i - 1]) != NULL;
	return 1;
}

/* An assignment stores to the access right before it (loads and stores
 * it when compound): "z[i] = ...", "z[i] += ...", not "if (x[i] >= 0)". */
static int assign(struct cursor *c, struct occ_kernel_text *k, size_t last,
		  size_t last_end, int compound)
{
	size_t i;

	if (last == (size_t)-1)
		return 1;
	for (i = last_end; i < c->at; i++)
		if (!isspace((unsigned char)c->s[i]) &&
		    !(compound && strchr("+-*/%&|^<>", c->s[i])))
			return 1;
	if (compound) {
		if (k->n == OCC_MAX_KERNEL_ACCESSES)
			return fail(c, OCC_ERR_INVALID_INPUT);
		k->acc[k->n++] = k->acc[last];
	}
	k->acc[last].access.op = OCC_ACCESS_STORE;
	return 1;
}

/* Where the last access is and where it ends; none after ';'. */
struct last {
	size_t access, end;
};

static int statement_char(struct cursor *c, struct occ_kernel_text *k,
			  struct last *last)
{
	const char *s = c->s;
	int compound;

	if (isalpha((unsigned char)s[c->at]) || s[c->at] == '_') {
		size_t from = c->at;

		while (isalnum((unsigned char)s[c->at]) || s[c->at] == '_')
			c->at++;
		skip_space(c);
		if (s[c->at] != '[')
			return 1;
		if (!access(c, k, from))
			return 0;
		last->access = k->n - 1;
		last->end = c->at;
		return 1;
	}
	if (s[c->at] == '[' || s[c->at] == ']')
		return fail(c, OCC_ERR_SYNTAX);
	if (s[c->at] == ';')
		last->access = (size_t)-1;
	else if (assignment(c, &compound) &&
		 !assign(c, k, last->access, last->end, compound))
		return 0;
	c->at++;
	return 1;
}

enum occ_status occ_kernel_parse(const char *text, struct occ_kernel_text *k,
				 size_t *where)
{
	struct cursor c = { text, 0, 0, OCC_OK, 0, 0 };
	struct last last = { (size_t)-1, 0 };

	k->n = 0;
	k->n_arrays = 0;
	while (text[c.at] && statement_char(&c, k, &last))
		;
	if (c.st == OCC_OK && k->n == 0) {
		c.bad = 0;
		c.st = OCC_ERR_SYNTAX;
	}
	*where = c.bad;
	return c.st;
}

int occ_kernel_set_elem(struct occ_kernel_text *k, const char *name,
			int elem_size)
{
	size_t i;
	int array;

	for (array = 0; array < k->n_arrays; array++)
		if (strcmp(k->names[array], name) == 0)
			break;
	if (array == k->n_arrays)
		return 0;
	for (i = 0; i < k->n; i++)
		if (k->acc[i].array == array)
			k->acc[i].access.elem_size = elem_size;
	return 1;
}
