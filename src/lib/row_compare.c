/*
 * row_compare.c - two sets of rows matched (occcalc/row_compare.h): both
 * sides keyed and sorted (row_set.c), then merged in key order, each
 * match said changed (with the fields that differ), unchanged, added or
 * removed; numbers compared and subtracted exactly, as the decimals the
 * writers print, never as floating point.
 */
#include <stdio.h>
#include <string.h>

#include "row_compare_int.h"

/* ---- Deltas, exactly ---- */

static int decimals(const char *t)
{
	const char *dot = strchr(t, '.');

	return dot ? (int)strlen(dot + 1) : 0;
}

/* t as an integer in units of 10^-d. */
static __int128 scaled(const char *t, int d)
{
	struct occ_decimal x;
	size_t used;
	__int128 v;
	uint64_t frac = x.fp = 0;
	int i;

	occ_decimal_parse(t, strlen(t), &x, &used);
	frac = x.fp;
	for (i = 0; i < OCC_DECIMAL_DIGITS - d; i++)
		frac /= 10;
	v = (__int128)x.ip;
	for (i = 0; i < d; i++)
		v *= 10;
	v += frac;
	return x.neg ? -v : v;
}

void occ_decimal_delta(const char *old, const char *cur, int plus, char *buf,
		       size_t n)
{
	int d = decimals(old) > decimals(cur) ? decimals(old) : decimals(cur);
	__int128 v = scaled(cur, d) - scaled(old, d), a = v < 0 ? -v : v, p = 1;
	char digits[64];
	int i, len = 0;

	for (i = 0; i < d; i++)
		p *= 10;
	for (__int128 ip = a / p; ip || !len; ip /= 10)
		digits[len++] = (char)('0' + (int)(ip % 10));
	i = snprintf(buf, n, "%s", v < 0 ? "-" : v > 0 && plus ? "+" : "");
	while (len && i + 1 < (int)n)
		buf[i++] = digits[--len];
	if (d && i + 1 < (int)n)
		buf[i++] = '.';
	for (int k = d - 1; k >= 0 && i + 1 < (int)n; k--) {
		__int128 q = a % p;

		for (int j = 0; j < k; j++)
			q /= 10;
		buf[i++] = (char)('0' + (int)(q % 10));
	}
	buf[i] = '\0';
}

/* ---- A match ---- */

const char *occ_compare_row_value(const struct occ_compare_row *r, int old,
				  const char *name)
{
	return row_set_get(old ? r->old : r->cur, name);
}

int occ_compare_row_differs(const struct occ_compare_row *r, size_t i)
{
	int numeric;
	const char *name = occ_compare_field(i, &numeric),
		   *a = occ_compare_row_value(r, 1, name),
		   *b = occ_compare_row_value(r, 0, name);
	struct occ_decimal x, y;
	size_t u;

	if (!a || !b)
		return !a != !b;
	if (!numeric)
		return strcmp(a, b) != 0;
	occ_decimal_parse(a, strlen(a), &x, &u);
	occ_decimal_parse(b, strlen(b), &y, &u);
	return occ_decimal_cmp(&x, &y) != 0;
}

/* What became of a match, counted. */
static void judge_change(struct occ_compare_row *r,
			 struct occ_compare_stats *stats)
{
	size_t i, len = 0;

	r->changed[0] = '\0';
	if (!r->old || !r->cur) {
		r->change = !r->old ? "added" : "removed";
		(*(!r->old ? &stats->added : &stats->removed))++;
		return;
	}
	for (i = 0; i < OCC_COMPARE_N; i++)
		if (occ_compare_row_differs(r, i))
			len += (size_t)snprintf(r->changed + len,
						sizeof r->changed - len, "%s%s",
						len ? "+" : "",
						occ_compare_field(i, NULL));
	r->change = len ? "changed" : "unchanged";
	(*(len ? &stats->changed : &stats->unchanged))++;
}

static void merge(const struct occ_row_set *old,
		  const struct occ_row_set *cur, occ_compare_fn fn, void *ctx,
		  struct occ_compare_stats *stats)
{
	size_t i = 0, j = 0;
	struct occ_compare_row r;

	while (i < old->n || j < cur->n) {
		int k = i == old->n ? 1 : j == cur->n ? -1
			: row_set_key_cmp(&old->rows[i], &cur->rows[j]);

		memset(&r, 0, sizeof r);
		if (k <= 0)
			r.old = &old->rows[i++];
		if (k >= 0)
			r.cur = &cur->rows[j++];
		judge_change(&r, stats);
		if (fn(ctx, &r) != 0)
			break;
	}
}

enum occ_status occ_row_sets_prepare(struct occ_row_set *old,
				     struct occ_row_set *cur, unsigned flags,
				     struct occ_compare_diag *diag)
{
	enum occ_status st;

	memset(diag, 0, sizeof *diag);
	flags &= OCC_COMPARE_BY_BLOCK;
	if ((st = row_set_prepare(cur, flags, diag)) != OCC_OK)
		return st;
	diag->old = 1;
	if ((st = row_set_prepare(old, flags, diag)) != OCC_OK)
		return st;
	memset(diag, 0, sizeof *diag);
	return OCC_OK;
}

enum occ_status occ_row_sets_compare(struct occ_row_set *old,
				     struct occ_row_set *cur, unsigned flags,
				     occ_compare_fn fn, void *ctx,
				     struct occ_compare_stats *stats,
				     struct occ_compare_diag *diag)
{
	enum occ_status st = occ_row_sets_prepare(old, cur, flags, diag);

	memset(stats, 0, sizeof *stats);
	if (st == OCC_OK)
		merge(old, cur, fn, ctx, stats);
	return st;
}
