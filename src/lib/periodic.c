/*
 * periodic.c - distinct units of sets that repeat with a shift.
 *
 * A launch's warps repeat the same addresses, shifted, span after span; so
 * the sectors an array's accesses touch are copies of one span's sectors.
 * The union of copies u x m + S (u below N) is counted per residue modulo
 * m: units x = r + y x m of one residue cover y, y + 1, ..., y + N - 1,
 * so neighbours y < y' add min(N, y' - y). Nothing is listed N times.
 */
#include <stdlib.h>

#include "periodic.h"

/* Copies listed when families repeat with different shifts: beyond this
 * the count is refused rather than slow. */
#define MAX_LISTED (UINT64_C(1) << 24)

/* Whether b lets a list hold `more` numbers more. */
static int budget_take(struct occ_ids_budget *b, size_t more)
{
	if (!b)
		return 1;
	if (more > b->max - b->held) {
		b->over = 1;
		return 0;
	}
	b->held += more;
	return 1;
}

static void budget_give(struct occ_ids_budget *b, size_t less)
{
	if (b)
		b->held -= less;
}

int occ_ids_push(struct occ_ids *ids, uint64_t x)
{
	/* Full: its repeats shed first, and grown only when more than
	 * half of it is left, so that shedding costs time linear in the
	 * numbers pushed. */
	int grow = ids->n == ids->cap;

	if (grow && ids->cap >= 4096) {
		occ_ids_unique(ids);
		grow = ids->n > ids->cap / 2;
	}
	if (grow) {
		size_t cap = ids->cap ? ids->cap * 2 : 256;
		uint64_t *v;

		if (!budget_take(ids->budget, cap - ids->cap))
			return 0;
		v = realloc(ids->v, cap * sizeof *v);
		if (!v) {
			budget_give(ids->budget, cap - ids->cap);
			return 0;
		}
		ids->v = v;
		ids->cap = cap;
	}
	ids->v[ids->n++] = x;
	return 1;
}

static int by_value(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

void occ_ids_unique(struct occ_ids *ids)
{
	size_t i, k = 0;

	if (ids->n == 0)
		return;
	qsort(ids->v, ids->n, sizeof ids->v[0], by_value);
	for (i = 1; i < ids->n; i++)
		if (ids->v[i] != ids->v[k])
			ids->v[++k] = ids->v[i];
	ids->n = k + 1;
}

void occ_ids_free(struct occ_ids *ids)
{
	budget_give(ids->budget, ids->cap);
	free(ids->v);
	ids->v = NULL;
	ids->n = ids->cap = 0;
}

/* A unit as residue and quotient of the shift. */
struct rq {
	uint64_t r, q;
};

static int by_rq(const void *pa, const void *pb)
{
	const struct rq *a = pa, *b = pb;

	if (a->r != b->r)
		return a->r < b->r ? -1 : 1;
	return a->q < b->q ? -1 : a->q > b->q;
}

/* The copies of one merged base with one shift. */
struct repeat {
	struct rq *v;
	size_t n;
	uint64_t copies;
};

static uint64_t repeat_count(const struct repeat *p)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		int last = i + 1 == p->n || p->v[i + 1].r != p->v[i].r;
		uint64_t gap = last ? p->copies : p->v[i + 1].q - p->v[i].q;

		total += gap < p->copies ? gap : p->copies;
	}
	return total;
}

/* Whether x is in some copy: a unit of its residue at most copies - 1
 * steps below it. */
static int repeat_has(const struct repeat *p, uint64_t m, uint64_t x)
{
	struct rq key = { x % m, x / m };
	size_t lo = 0, hi = p->n;

	while (lo < hi) {       /* first element above key */
		size_t mid = lo + (hi - lo) / 2;

		if (by_rq(&p->v[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && p->v[lo - 1].r == key.r &&
	       key.q - p->v[lo - 1].q < p->copies;
}

/* The shift most units repeat with; 0 when none repeats. */
static uint64_t main_shift(const struct occ_family *f, size_t nf,
			   uint64_t copies)
{
	uint64_t best = 0, best_n = 0;
	size_t i, j;

	if (copies < 2)
		return 0;
	for (i = 0; i < nf; i++) {
		uint64_t n = 0;

		for (j = 0; j < nf; j++)
			if (f[j].shift == f[i].shift)
				n += f[j].n;
		if (f[i].shift && n > best_n) {
			best = f[i].shift;
			best_n = n;
		}
	}
	return best;
}

/* Units not in the main repeat, listed: extras, families of shift 0,
 * and (few enough) copies of families with another shift. */
static enum occ_status list_rest(const struct occ_family *f, size_t nf,
				 uint64_t copies, uint64_t m,
				 const uint64_t *extra, size_t n_extra,
				 struct occ_ids *rest)
{
	uint64_t listed = 0;
	size_t i, j;

	for (i = 0; i < n_extra; i++)
		if (!occ_ids_push(rest, extra[i]))
			return OCC_ERR_NOMEM;
	for (i = 0; i < nf; i++) {
		uint64_t u, n = f[i].shift ? copies : (copies ? 1 : 0);

		if (m && f[i].shift == m)
			continue;
		listed += n * f[i].n;
		if (listed > MAX_LISTED)
			return OCC_ERR_UNSUPPORTED;
		for (u = 0; u < n; u++)
			for (j = 0; j < f[i].n; j++)
				if (!occ_ids_push(rest,
						  f[i].base[j] + u * f[i].shift))
					return OCC_ERR_NOMEM;
	}
	occ_ids_unique(rest);
	return OCC_OK;
}

static enum occ_status build_repeat(const struct occ_family *f, size_t nf,
				    uint64_t m, uint64_t copies,
				    struct repeat *p)
{
	size_t i, j, n = 0;

	for (i = 0; i < nf; i++)
		if (m && f[i].shift == m)
			n += f[i].n;
	p->v = malloc((n ? n : 1) * sizeof *p->v);
	if (!p->v)
		return OCC_ERR_NOMEM;
	p->n = 0;
	p->copies = copies;
	for (i = 0; i < nf; i++)
		if (m && f[i].shift == m)
			for (j = 0; j < f[i].n; j++) {
				p->v[p->n].r = f[i].base[j] % m;
				p->v[p->n++].q = f[i].base[j] / m;
			}
	qsort(p->v, p->n, sizeof p->v[0], by_rq);
	for (i = j = 0; i < p->n; i++)     /* drop repeats */
		if (j == 0 || by_rq(&p->v[i], &p->v[j - 1]) != 0)
			p->v[j++] = p->v[i];
	p->n = j;
	return OCC_OK;
}

enum occ_status occ_union_count(const struct occ_family *f, size_t nf,
				uint64_t copies, const uint64_t *extra,
				size_t n_extra, struct occ_ids_budget *b,
				uint64_t *count)
{
	uint64_t m = main_shift(f, nf, copies), total;
	struct occ_ids rest = { NULL, 0, 0, b };
	struct repeat p = { 0 };
	enum occ_status st;
	size_t i, taken = 0;

	/* The repeat's residues and quotients: two numbers a unit. */
	for (i = 0; i < nf; i++)
		if (m && f[i].shift == m)
			taken += 2 * f[i].n;
	if (!budget_take(b, taken))
		return OCC_ERR_NOMEM;
	st = build_repeat(f, nf, m, copies, &p);
	if (st == OCC_OK)
		st = list_rest(f, nf, copies, m, extra, n_extra, &rest);
	if (st == OCC_OK) {
		total = m ? repeat_count(&p) : 0;
		for (i = 0; i < rest.n; i++)
			if (!m || !repeat_has(&p, m, rest.v[i]))
				total++;
		*count = total;
	}
	free(p.v);
	budget_give(b, taken);
	occ_ids_free(&rest);
	return st;
}
