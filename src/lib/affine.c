/*
 * affine.c - an index expression read as an affine form in the thread's
 * coordinates: constants and names folded, sums and products by
 * constants kept exact (64 bits, checked), XOR and division only where
 * the traffic model can follow them (on the thread's index itself).
 */
#include <ctype.h>
#include <string.h>

#include "affine.h"

void occ_cur_space(struct occ_cursor *c)
{
	while (isspace((unsigned char)c->s[c->at]))
		c->at++;
}

int occ_cur_fail(struct occ_cursor *c, enum occ_status st)
{
	if (c->st == OCC_OK) {
		c->st = st;
		c->bad = c->at;
	}
	return 0;
}

int occ_cur_accept(struct occ_cursor *c, char ch)
{
	occ_cur_space(c);
	if (c->s[c->at] != ch)
		return 0;
	c->at++;
	return 1;
}

static int fail_at(struct occ_cursor *c, size_t at, enum occ_status st)
{
	c->at = at;
	return occ_cur_fail(c, st);
}

static const struct occ_affine constant0 = { 0, { 0, 0, 0 }, 0, 0, 0, 1,
					       { 0, 0 } };

static int is_constant(const struct occ_affine *a)
{
	return !a->tid[0] && !a->tid[1] && !a->tid[2] && !a->bid &&
	       !a->bid_yz[0] && !a->bid_yz[1] && !a->s;
}

/* a = a x k, every term; 0 when a factor overflows. */
static int scale(struct occ_affine *a, int64_t k)
{
	int ok = !__builtin_mul_overflow(a->c, k, &a->c) &&
		 !__builtin_mul_overflow(a->tid[0], k, &a->tid[0]) &&
		 !__builtin_mul_overflow(a->tid[1], k, &a->tid[1]) &&
		 !__builtin_mul_overflow(a->tid[2], k, &a->tid[2]) &&
		 !__builtin_mul_overflow(a->bid, k, &a->bid) &&
		 !__builtin_mul_overflow(a->bid_yz[0], k, &a->bid_yz[0]) &&
		 !__builtin_mul_overflow(a->bid_yz[1], k, &a->bid_yz[1]) &&
		 !__builtin_mul_overflow(a->s, k, &a->s);

	if (!a->s) {
		a->lane_xor = 0;
		a->group = 1;
	}
	return ok;
}

/* a += b; 0 when a term overflows or the thread index's terms differ
 * ((i ^ 1) + (i ^ 2) is not affine). */
static int add(struct occ_affine *a, const struct occ_affine *b)
{
	if (a->s && b->s &&
	    (a->lane_xor != b->lane_xor || a->group != b->group))
		return 0;
	if (!a->s) {
		a->lane_xor = b->lane_xor;
		a->group = b->group;
	}
	return !__builtin_add_overflow(a->c, b->c, &a->c) &&
	       !__builtin_add_overflow(a->tid[0], b->tid[0], &a->tid[0]) &&
	       !__builtin_add_overflow(a->tid[1], b->tid[1], &a->tid[1]) &&
	       !__builtin_add_overflow(a->tid[2], b->tid[2], &a->tid[2]) &&
	       !__builtin_add_overflow(a->bid, b->bid, &a->bid) &&
	       !__builtin_add_overflow(a->bid_yz[0], b->bid_yz[0],
				       &a->bid_yz[0]) &&
	       !__builtin_add_overflow(a->bid_yz[1], b->bid_yz[1],
				       &a->bid_yz[1]) &&
	       !__builtin_add_overflow(a->s, b->s, &a->s);
}

/* Whether a is the thread's index itself: i, (i ^ X), or
 * blockIdx.x x blockDim.x + threadIdx.x (in a block of known shape, the
 * thread's place in the launch); turned into i's term. */
static int thread_index(const struct occ_cursor *c, struct occ_affine *a)
{
	const struct occ_kernel_env *e = c->env;
	uint64_t x, y, z;

	if (a->s == 1 && a->group == 1 && !a->c && !a->tid[0] && !a->tid[1] &&
	    !a->tid[2] && !a->bid && !a->bid_yz[0] && !a->bid_yz[1])
		return 1;
	if (a->s || a->c || !e || !e->block_dim[0] || !occ_affine_linear(e, a))
		return 0;
	x = e->block_dim[0];
	y = e->block_dim[1] ? e->block_dim[1] : 1;
	z = e->block_dim[2] ? e->block_dim[2] : 1;
	if (a->tid[0] != 1 || (y > 1 && (uint64_t)a->tid[1] != x) ||
	    (z > 1 && (uint64_t)a->tid[2] != x * y) ||
	    (uint64_t)a->bid != x * y * z)
		return 0;
	*a = constant0;
	a->s = 1;
	return 1;
}

int occ_affine_linear(const struct occ_kernel_env *e, struct occ_affine *a)
{
	__int128 g[3], f[3], step = 1, k = 0;
	int d, found = 0;

	g[0] = e && e->grid_dim ? (__int128)e->grid_dim : 1;
	g[1] = e && e->grid_yz[0] ? (__int128)e->grid_yz[0] : 1;
	g[2] = e && e->grid_yz[1] ? (__int128)e->grid_yz[1] : 1;
	if (g[1] == 1 && g[2] == 1) {   /* blockIdx.x is the number */
		a->bid_yz[0] = a->bid_yz[1] = 0;
		return 1;
	}
	f[0] = a->bid;
	f[1] = a->bid_yz[0];
	f[2] = a->bid_yz[1];
	/* The factor of the block's number, from the first dimension of
	 * more than one block; a dimension of one block adds nothing. */
	for (d = 0; d < 3; step *= g[d], d++) {
		if (g[d] == 1)
			continue;
		if (!found && f[d] % step)
			return 0;
		if (!found)     /* 0 too: blockIdx.y alone is no number */
			k = f[d] / step;
		found = 1;
		if (f[d] != k * step)
			return 0;
	}
	if (k < INT64_MIN || k > INT64_MAX)
		return 0;
	a->bid = (int64_t)k;
	a->bid_yz[0] = a->bid_yz[1] = 0;
	return 1;
}

static int number(struct occ_cursor *c, struct occ_affine *a)
{
	uint64_t v = 0;
	size_t from = c->at;

	for (; isdigit((unsigned char)c->s[c->at]); c->at++) {
		unsigned d = (unsigned)(c->s[c->at] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return occ_cur_fail(c, OCC_ERR_INVALID_INPUT);
		v = v * 10 + d;
	}
	if (v > INT64_MAX)
		return occ_cur_fail(c, OCC_ERR_INVALID_INPUT);
	/* 0x10, 10u, 1e3: C's, not this reader's */
	if (isalnum((unsigned char)c->s[c->at]) || c->s[c->at] == '_')
		return fail_at(c, from, OCC_ERR_SYNTAX);
	*a = constant0;
	a->c = (int64_t)v;
	return 1;
}

/* CUDA's names: 1 with a set when name is one, -1 when it is one the
 * launch does not give here, 0 when it is not CUDA's. */
static int builtin(struct occ_cursor *c, const char *name,
		   struct occ_affine *a)
{
	static const char *const dims[] = { "x", "y", "z" };
	const struct occ_kernel_env *e = c->env;
	const char *dot = strchr(name, '.');
	int k;

	*a = constant0;
	if (strcmp(name, "warpSize") == 0)
		return a->c = 32, 1;
	if (!dot)
		return 0;
	for (k = 0; k < 3 && strcmp(dot + 1, dims[k]) != 0; k++)
		;
	if (k == 3)
		return -1;
	c->builtins = 1;
	if (strncmp(name, "threadIdx.", 10) == 0)
		return a->tid[k] = 1, 1;
	/* .y and .z only of a grid that has them (--grid 64x64). */
	if (k && (strncmp(name, "blockIdx.", 9) == 0 ||
		  strncmp(name, "gridDim.", 8) == 0) &&
	    (!e || !e->grid_yz[k - 1]))
		return -1;
	if (strncmp(name, "blockIdx.", 9) == 0) {
		if (k)
			a->bid_yz[k - 1] = 1;
		else
			a->bid = 1;
		return 1;
	}
	if (strncmp(name, "blockDim.", 9) == 0 && e && e->block_dim[0])
		return a->c = (int64_t)(e->block_dim[k] ? e->block_dim[k] : 1),
		       1;
	if (strncmp(name, "gridDim.", 8) == 0 && e && e->grid_dim)
		return a->c = k ? (int64_t)e->grid_yz[k - 1]
				: (int64_t)e->grid_dim, 1;
	return -1;
}

/* Another name: a definition, a constant, or the thread's index (the
 * first other name the text uses; any other is refused). */
static int named(struct occ_cursor *c, const char *name, size_t from,
		 struct occ_affine *a)
{
	const struct occ_kernel_env *e = c->env;
	size_t i, len = strlen(name);

	for (i = (size_t)c->n_locals; i-- > 0;)
		if (strcmp(c->local_names[i], name) == 0)
			return *a = c->locals[i], 1;
	for (i = 0; e && i < e->n; i++)
		if (strcmp(e->names[i], name) == 0) {
			*a = constant0;
			a->c = e->values[i];
			return 1;
		}
	if (!c->index_len) {
		c->index = from;
		c->index_len = len;
	} else if (len != c->index_len ||
		   memcmp(c->s + from, c->s + c->index, len) != 0) {
		c->at = from;
		return occ_cur_fail(c, OCC_ERR_SYNTAX);
	}
	*a = constant0;
	a->s = 1;
	return 1;
}

static int name(struct occ_cursor *c, struct occ_affine *a)
{
	char buf[64];
	size_t from = c->at, len;
	int b;

	while (isalnum((unsigned char)c->s[c->at]) || c->s[c->at] == '_' ||
	       (c->s[c->at] == '.' && c->at > from &&
		isalpha((unsigned char)c->s[c->at + 1])))
		c->at++;
	len = c->at - from;
	if (len >= sizeof buf) {
		c->at = from;
		return occ_cur_fail(c, OCC_ERR_INVALID_INPUT);
	}
	memcpy(buf, c->s + from, len);
	buf[len] = '\0';
	b = builtin(c, buf, a);
	if (b < 0 || (b == 0 && strchr(buf, '.'))) {
		c->at = from;
		return occ_cur_fail(c, OCC_ERR_SYNTAX);
	}
	return b > 0 || named(c, buf, from, a);
}

static int xor_expr(struct occ_cursor *c, struct occ_affine *a);
static int unary(struct occ_cursor *c, struct occ_affine *a);

static int primary(struct occ_cursor *c, struct occ_affine *a)
{
	occ_cur_space(c);
	if (isdigit((unsigned char)c->s[c->at]))
		return number(c, a);
	if (occ_cur_accept(c, '('))
		return xor_expr(c, a) &&
		       (occ_cur_accept(c, ')') ||
			occ_cur_fail(c, OCC_ERR_SYNTAX));
	if (isalpha((unsigned char)c->s[c->at]) || c->s[c->at] == '_')
		return name(c, a);
	return occ_cur_fail(c, OCC_ERR_SYNTAX);
}

static int signed_primary(struct occ_cursor *c, struct occ_affine *a)
{
	if (occ_cur_accept(c, '-'))
		return unary(c, a) &&
		       (scale(a, -1) || occ_cur_fail(c, OCC_ERR_INVALID_INPUT));
	if (occ_cur_accept(c, '+'))
		return unary(c, a);
	return primary(c, a);
}

/* Every nesting (a parenthesis, a sign) passes here: bounded, so that
 * a hostile text cannot overflow the stack. */
static int unary(struct occ_cursor *c, struct occ_affine *a)
{
	int ok;

	occ_cur_space(c);
	if (c->depth >= OCC_MAX_KERNEL_NESTING)
		return occ_cur_fail(c, OCC_ERR_RANGE);
	c->depth++;
	ok = signed_primary(c, a);
	c->depth--;
	return ok;
}

/* a / b: constants divide as C does; the thread's index by a power of
 * two up to 32 is a group of threads per element. */
static int divide(struct occ_cursor *c, struct occ_affine *a,
		  const struct occ_affine *b, size_t at)
{
	int64_t g = b->c;

	if (!is_constant(b))
		return fail_at(c, at, OCC_ERR_SYNTAX);
	if (g == 0 || (is_constant(a) && a->c == INT64_MIN && g == -1))
		return fail_at(c, at, OCC_ERR_INVALID_INPUT);
	if (is_constant(a))
		return a->c /= g, 1;
	if (!thread_index(c, a) || a->group != 1)
		return fail_at(c, at, OCC_ERR_SYNTAX);
	if (g < 1 || g > 32 || (g & (g - 1)))
		return fail_at(c, at, OCC_ERR_INVALID_INPUT);
	a->group = (unsigned)g;
	return 1;
}

/* a x b, one of them a constant. */
static int multiply(struct occ_cursor *c, struct occ_affine *a,
		    const struct occ_affine *b, size_t at)
{
	int64_t k;

	if (is_constant(b))
		k = b->c;
	else if (is_constant(a)) {
		k = a->c;
		*a = *b;
	} else {
		return fail_at(c, at, OCC_ERR_SYNTAX);
	}
	return scale(a, k) || fail_at(c, at, OCC_ERR_INVALID_INPUT);
}

static int mul_expr(struct occ_cursor *c, struct occ_affine *a)
{
	struct occ_affine b;
	size_t at;
	char op;

	if (!unary(c, a))
		return 0;
	for (;;) {
		occ_cur_space(c);
		op = c->s[c->at];
		if (op != '*' && op != '/')
			return 1;
		c->at++;
		occ_cur_space(c);
		at = c->at;
		if (!unary(c, &b))
			return 0;
		if (!(op == '*' ? multiply(c, a, &b, at) :
		      divide(c, a, &b, at)))
			return 0;
	}
}

static int add_expr(struct occ_cursor *c, struct occ_affine *a)
{
	struct occ_affine b;
	size_t at;
	int minus;

	if (!mul_expr(c, a))
		return 0;
	for (;;) {
		occ_cur_space(c);
		at = c->at;
		if (occ_cur_accept(c, '+'))
			minus = 0;
		else if (occ_cur_accept(c, '-'))
			minus = 1;
		else
			return 1;
		if (!mul_expr(c, &b))
			return 0;
		if (minus && !scale(&b, -1))
			return fail_at(c, at, OCC_ERR_INVALID_INPUT);
		if (!add(a, &b))
			return fail_at(c, at, a->s && b.s ? OCC_ERR_SYNTAX :
				       OCC_ERR_INVALID_INPUT);
	}
}

/* a ^ X: constants as C; the thread's index with X up to 31 permutes
 * lanes (add3's (i ^ 1)). */
static int xor_expr(struct occ_cursor *c, struct occ_affine *a)
{
	struct occ_affine b;
	size_t at;

	if (!add_expr(c, a))
		return 0;
	for (;;) {
		occ_cur_space(c);
		at = c->at;
		if (!occ_cur_accept(c, '^'))
			return 1;
		if (!add_expr(c, &b))
			return 0;
		if (!is_constant(&b))
			return fail_at(c, at, OCC_ERR_SYNTAX);
		if (is_constant(a)) {
			a->c ^= b.c;
			continue;
		}
		if (!thread_index(c, a) || a->lane_xor || a->group != 1)
			return fail_at(c, at, OCC_ERR_SYNTAX);
		if (b.c < 0 || b.c > 31)
			return fail_at(c, at, OCC_ERR_INVALID_INPUT);
		a->lane_xor = (unsigned)b.c;
	}
}

int occ_affine_read(struct occ_cursor *c, struct occ_affine *a)
{
	return xor_expr(c, a);
}
