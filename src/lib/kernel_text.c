/*
 * kernel_text.c - a kernel's global accesses read from C-like text,
 * "z[i] = x[i] + y[i]": which arrays, loaded or stored, at which index.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "affine.h"

#define cursor occ_cursor
#define skip_space occ_cur_space
#define fail occ_cur_fail
#define accept occ_cur_accept

static int expect(struct cursor *c, char ch)
{
	return accept(c, ch) || fail(c, OCC_ERR_SYNTAX);
}

/* [INDEX] into the access's pattern. */
static int index_expr(struct cursor *c, struct occ_kernel_access *a)
{
	struct occ_affine f;

	if (!occ_affine_read(c, &f) || !expect(c, ']'))
		return 0;
	/* A multiple of the block's number in the grid is bid (as in a
	 * 1-D grid); an index that tiles a 2-D or 3-D grid otherwise is
	 * placed by blockIdx.x, .y and .z. */
	if (!occ_affine_linear(c->env, &f)) {
		a->bid_dim[0] = f.bid;
		a->bid_dim[1] = f.bid_yz[0];
		a->bid_dim[2] = f.bid_yz[1];
		f.bid = 0;
	}
	a->access.stride = f.s;
	a->access.offset = f.c;
	a->access.lane_xor = f.s ? f.lane_xor : 0;
	a->group = f.s ? f.group : 1;
	memcpy(a->tid, f.tid, sizeof a->tid);
	a->bid = f.bid;
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

/* "NAME = EXPR;" (after a type, or none) where EXPR is an index form:
 * NAME stands for it from here on ("int row = threadIdx.y"). Anything
 * else ("float v = x[i]") is read on as text, as if never tried. */
static int define(struct cursor *c, size_t from, size_t len)
{
	struct cursor was = *c;
	struct occ_affine f;

	c->at++;        /* the '=' */
	if (occ_affine_read(c, &f) && (skip_space(c), c->s[c->at] == ';' ||
				       !c->s[c->at])) {
		if (len >= sizeof c->local_names[0] ||
		    c->n_locals == OCC_MAX_LOCALS) {
			c->at = from;
			return fail(c, OCC_ERR_INVALID_INPUT);
		}
		memcpy(c->local_names[c->n_locals], c->s + from, len);
		c->local_names[c->n_locals][len] = '\0';
		c->locals[c->n_locals++] = f;
		return 1;
	}
	*c = was;
	return 1;
}

/* Whether the name at from follows a type ("int row"): a
 * declaration. */
static int declared(const struct cursor *c, size_t from)
{
	while (from > 0 && isspace((unsigned char)c->s[from - 1]))
		from--;
	return from > 0 && (isalnum((unsigned char)c->s[from - 1]) ||
			    c->s[from - 1] == '_');
}

/* A name the text may define: not CUDA's, not --define's, and not
 * declared twice ("int a = i; int a = i"); assigning again is C's. */
static int definable(const struct cursor *c, size_t from, size_t len)
{
	static const char *const cuda[] = { "threadIdx", "blockIdx",
					    "blockDim", "gridDim", "warpSize" };
	const struct occ_kernel_env *e = c->env;
	const char *name = c->s + from;
	size_t i;

	for (i = 0; i < sizeof cuda / sizeof cuda[0]; i++)
		if (strlen(cuda[i]) == len && memcmp(cuda[i], name, len) == 0)
			return 0;
	for (i = 0; e && i < e->n; i++)
		if (strlen(e->names[i]) == len &&
		    memcmp(e->names[i], name, len) == 0)
			return 0;
	if (!declared(c, from))
		return 1;
	for (i = 0; i < (size_t)c->n_locals; i++)
		if (strlen(c->local_names[i]) == len &&
		    memcmp(c->local_names[i], name, len) == 0)
			return 0;
	return 1;
}

/* An assignment has a target before its '=' (a name, an access) and a
 * value after it: not "=x[i]", not "y[i]=". */
static int assignment_whole(const struct cursor *c, int compound)
{
	const char *s = c->s;
	size_t i = c->at - (compound ? 1 : 0), j = c->at + 1;

	while (i > 0 && isspace((unsigned char)s[i - 1]))
		i--;
	while (isspace((unsigned char)s[j]))
		j++;
	return i > 0 && (isalnum((unsigned char)s[i - 1]) ||
			 s[i - 1] == '_' || s[i - 1] == ']' ||
			 s[i - 1] == ')') &&
	       s[j] && s[j] != ';';
}

static int statement_char(struct cursor *c, struct occ_kernel_text *k,
			  struct last *last)
{
	const char *s = c->s;
	int compound;

	if (isalpha((unsigned char)s[c->at]) || s[c->at] == '_') {
		size_t from = c->at, len;

		while (isalnum((unsigned char)s[c->at]) || s[c->at] == '_')
			c->at++;
		len = c->at - from;
		skip_space(c);
		if (s[c->at] == '=' && s[c->at + 1] != '=') {
			if (!definable(c, from, len)) {
				c->at = from;
				return fail(c, OCC_ERR_DUPLICATE_KEY);
			}
			if (!assignment_whole(c, 0))
				return fail(c, OCC_ERR_SYNTAX);
			return define(c, from, len);
		}
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
		 (!assignment_whole(c, compound) ||
		  !assign(c, k, last->access, last->end, compound)))
		return fail(c, OCC_ERR_SYNTAX);
	c->at++;
	return 1;
}

enum occ_status occ_kernel_parse_env(const char *text,
				     const struct occ_kernel_env *env,
				     struct occ_kernel_text *k, size_t *where)
{
	static const struct cursor zero;
	struct cursor c = zero;
	struct last last = { (size_t)-1, 0 };

	c.s = text;
	c.env = env;
	k->n = 0;
	k->n_arrays = 0;
	while (text[c.at] && statement_char(&c, k, &last))
		;
	if (c.st == OCC_OK && k->n == 0) {
		c.bad = 0;
		c.st = OCC_ERR_SYNTAX;
	}
	k->uses_builtins = c.builtins;
	snprintf(k->index_name, sizeof k->index_name, "%.*s",
		 (int)(c.index_len < 32 ? c.index_len : 31), text + c.index);
	*where = c.bad;
	return c.st;
}

enum occ_status occ_kernel_parse(const char *text, struct occ_kernel_text *k,
				 size_t *where)
{
	return occ_kernel_parse_env(text, NULL, k, where);
}

static int identifier(const char *s)
{
	size_t i;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return 0;
	for (i = 1; s[i]; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return i < 32;
}

int occ_kernel_env_define(struct occ_kernel_env *env, const char *name,
			  int64_t value)
{
	static const char *const cuda[] = { "threadIdx", "blockIdx",
					    "blockDim", "gridDim", "warpSize" };
	size_t i;

	if (!identifier(name) || env->n == OCC_MAX_KERNEL_NAMES)
		return 0;
	for (i = 0; i < sizeof cuda / sizeof cuda[0]; i++)
		if (strcmp(name, cuda[i]) == 0)
			return 0;
	for (i = 0; i < env->n; i++)
		if (strcmp(env->names[i], name) == 0)
			return 0;
	snprintf(env->names[env->n], sizeof env->names[0], "%s", name);
	env->values[env->n++] = value;
	return 1;
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
