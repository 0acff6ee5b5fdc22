/*
 * ops.c - a Kineto trace's operators (cpu_op events) by External id, for
 * the kernels that name them, and the innermost nn.Module each ran in
 * (python_function events "nn.Module: NAME" of with_modules/with_stack,
 * on the same thread around it). An operator's event may come after its
 * kernels' (libkineto writes CPU and GPU activities in buffers of their
 * own), so the reader fills this table in a first pass over the file and
 * delivers launches in a second. The table is bounded (OCC_LAUNCH_OPS_MAX
 * operators, OPS_STRINGS_MAX bytes of distinct names and shapes,
 * OPS_MODULES_MAX modules): past it, operators are dropped and counted,
 * and their kernels get none.
 */
#include <stdlib.h>
#include <string.h>

#include "launches_int.h"

#define OPS_STRINGS_MAX (32u << 20)
#define OPS_MODULES_MAX (1u << 18)
#define NO_STR UINT32_MAX

struct op {
	int64_t ext, pid, tid, ts;
	uint32_t name, shapes, module;
};

struct module {
	int64_t pid, tid, ts, end;
	uint32_t name;
};

struct launch_ops {
	struct op *ops;
	size_t n, cap;
	uint32_t *by_ext;               /* open addressing: index + 1 */
	size_t cap_ext;
	/* Distinct strings, each once: offsets into buf, by hash. */
	char *buf;
	size_t used, size;
	uint32_t *strs;
	size_t n_strs, cap_strs;
	struct module *mods;
	size_t n_mods, cap_mods;
	uint64_t dropped;
};

static uint64_t hash_of(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h;
}

struct launch_ops *ops_new(void)
{
	return calloc(1, sizeof(struct launch_ops));
}

void ops_free(struct launch_ops *o)
{
	if (!o)
		return;
	free(o->ops);
	free(o->by_ext);
	free(o->buf);
	free(o->strs);
	free(o->mods);
	free(o);
}

static int grow(void **p, size_t *cap, size_t elem, size_t first)
{
	size_t n = *cap ? 2 * *cap : first;
	void *q = realloc(*p, n * elem);

	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static int strs_rehash(struct launch_ops *o)
{
	size_t cap = o->cap_strs ? 2 * o->cap_strs : 1024, i, j;
	uint32_t *t = malloc(cap * sizeof *t);

	if (!t)
		return -1;
	memset(t, 0xff, cap * sizeof *t);
	for (i = 0; i < o->cap_strs; i++) {
		const char *s;

		if (o->strs[i] == NO_STR)
			continue;
		s = o->buf + o->strs[i];
		for (j = hash_of(s, strlen(s)) & (cap - 1); t[j] != NO_STR;
		     j = (j + 1) & (cap - 1))
			;
		t[j] = o->strs[i];
	}
	free(o->strs);
	o->strs = t;
	o->cap_strs = cap;
	return 0;
}

/* The string's offset, kept once; NO_STR past the bound. */
static uint32_t intern(struct launch_ops *o, const char *s)
{
	size_t len = strlen(s), j;

	if (2 * (o->n_strs + 1) > o->cap_strs && strs_rehash(o) != 0)
		return NO_STR;
	for (j = hash_of(s, len) & (o->cap_strs - 1); o->strs[j] != NO_STR;
	     j = (j + 1) & (o->cap_strs - 1))
		if (strcmp(o->buf + o->strs[j], s) == 0)
			return o->strs[j];
	if (o->used + len + 1 > OPS_STRINGS_MAX)
		return NO_STR;
	while (o->used + len + 1 > o->size) {
		size_t size = o->size ? 2 * o->size : 65536;
		char *b = realloc(o->buf, size);

		if (!b)
			return NO_STR;
		o->buf = b;
		o->size = size;
	}
	memcpy(o->buf + o->used, s, len + 1);
	o->strs[j] = (uint32_t)o->used;
	o->n_strs++;
	o->used += len + 1;
	return o->strs[j];
}

static size_t ext_slot(const struct launch_ops *o, int64_t ext)
{
	size_t j = hash_of(&ext, sizeof ext) & (o->cap_ext - 1);

	while (o->by_ext[j] && o->ops[o->by_ext[j] - 1].ext != ext)
		j = (j + 1) & (o->cap_ext - 1);
	return j;
}

static int ext_rehash(struct launch_ops *o)
{
	size_t cap = o->cap_ext ? 2 * o->cap_ext : 1024, i;
	uint32_t *old = o->by_ext;
	size_t old_cap = o->cap_ext;

	o->by_ext = calloc(cap, sizeof *o->by_ext);
	if (!o->by_ext) {
		o->by_ext = old;
		return -1;
	}
	o->cap_ext = cap;
	for (i = 0; i < old_cap; i++)
		if (old[i])
			o->by_ext[ext_slot(o, o->ops[old[i] - 1].ext)] = old[i];
	free(old);
	return 0;
}

void ops_add_op(struct launch_ops *o, int64_t ext, const char *name,
		const char *shapes, int64_t pid, int64_t tid, int64_t ts)
{
	struct op *op;
	size_t j;

	if (o->cap_ext && o->by_ext[ext_slot(o, ext)])
		return;                 /* the second pass, or a duplicate */
	if (o->n == OCC_LAUNCH_OPS_MAX ||
	    (2 * (o->n + 1) > o->cap_ext && ext_rehash(o) != 0) ||
	    (o->n == o->cap && grow((void **)&o->ops, &o->cap, sizeof *op,
				    1024) != 0)) {
		o->dropped++;
		return;
	}
	op = &o->ops[o->n];
	op->name = intern(o, name);
	op->shapes = shapes ? intern(o, shapes) : NO_STR;
	if (op->name == NO_STR) {
		o->dropped++;
		return;
	}
	op->ext = ext;
	op->pid = pid;
	op->tid = tid;
	op->ts = ts;
	op->module = NO_STR;
	j = ext_slot(o, ext);
	o->by_ext[j] = (uint32_t)++o->n;
}

void ops_add_module(struct launch_ops *o, const char *name, int64_t pid,
		    int64_t tid, int64_t ts, int64_t dur)
{
	struct module *m;
	uint32_t s;

	if (o->n_mods == OPS_MODULES_MAX ||
	    (o->n_mods == o->cap_mods &&
	     grow((void **)&o->mods, &o->cap_mods, sizeof *m, 256) != 0) ||
	    (s = intern(o, name)) == NO_STR)
		return;
	m = &o->mods[o->n_mods++];
	m->pid = pid;
	m->tid = tid;
	m->ts = ts;
	m->end = ts + (dur > 0 ? dur : 0);
	m->name = s;
}

static int cmp64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int by_start(const void *x, const void *y)
{
	const struct module *a = x, *b = y;
	int c = cmp64(a->pid, b->pid);

	c = c ? c : cmp64(a->tid, b->tid);
	c = c ? c : cmp64(a->ts, b->ts);
	return c ? c : cmp64(b->end, a->end);      /* the outer first */
}

/* Operators in (pid, tid, ts) order, through a permutation. */
struct op_order {
	const struct op *ops;
	uint32_t i;
};

static int by_op_start(const void *x, const void *y)
{
	const struct op_order *p = x, *q = y;
	const struct op *a = &p->ops[p->i], *b = &q->ops[q->i];
	int c = cmp64(a->pid, b->pid);

	c = c ? c : cmp64(a->tid, b->tid);
	return c ? c : cmp64(a->ts, b->ts);
}

/* Leaves on the stack the modules of thread (pid, tid) still open at t. */
static void pop_to(const struct module *mods, const size_t *stack,
		   size_t *depth, int64_t pid, int64_t tid, int64_t t)
{
	const struct module *m;

	while (*depth) {
		m = &mods[stack[*depth - 1]];
		if (m->pid == pid && m->tid == tid && m->end >= t)
			break;
		(*depth)--;
	}
}

/* Each operator's innermost module: one sweep over both in time order
 * per thread, the modules open at the operator's start on a stack. */
void ops_resolve(struct launch_ops *o)
{
	struct op_order *ord;
	size_t *stack, depth = 0, i, next = 0;

	if (!o->n || !o->n_mods)
		return;
	ord = malloc(o->n * sizeof *ord);
	stack = malloc(o->n_mods * sizeof *stack);
	if (!ord || !stack) {
		free(ord);
		free(stack);
		return;
	}
	for (i = 0; i < o->n; i++) {
		ord[i].ops = o->ops;
		ord[i].i = (uint32_t)i;
	}
	qsort(ord, o->n, sizeof *ord, by_op_start);
	qsort(o->mods, o->n_mods, sizeof *o->mods, by_start);
	for (i = 0; i < o->n; i++) {
		struct op *op = &o->ops[ord[i].i];
		const struct module at = { op->pid, op->tid, op->ts, INT64_MIN,
					   0 };

		for (; next < o->n_mods && by_start(&o->mods[next], &at) <= 0;
		     next++) {
			const struct module *m = &o->mods[next];

			pop_to(o->mods, stack, &depth, m->pid, m->tid, m->ts);
			stack[depth++] = next;
		}
		pop_to(o->mods, stack, &depth, op->pid, op->tid, op->ts);
		if (depth)
			op->module = o->mods[stack[depth - 1]].name;
	}
	free(ord);
	free(stack);
}

int ops_find(const struct launch_ops *o, int64_t ext, const char **name,
	     const char **shapes, const char **module)
{
	const struct op *op;
	uint32_t i;

	if (!o || !o->cap_ext || !(i = o->by_ext[ext_slot(o, ext)]))
		return 0;
	op = &o->ops[i - 1];
	*name = o->buf + op->name;
	*shapes = op->shapes == NO_STR ? NULL : o->buf + op->shapes;
	*module = op->module == NO_STR ? NULL : o->buf + op->module;
	return 1;
}

uint64_t ops_dropped(const struct launch_ops *o)
{
	return o ? o->dropped : 0;
}

uint64_t ops_kept(const struct launch_ops *o)
{
	return o ? o->n : 0;
}
