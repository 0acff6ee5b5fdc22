/*
 * fields.c - what every kind of row shares (occcalc/fields.h): finding a
 * field, making values, and writing them as text and as JSON, so that a
 * value reads the same from the command line and from a program.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

size_t occ_row_kind_count(const struct occ_row_kind *kind)
{
	return kind->n + (kind->base ? occ_row_kind_count(kind->base) : 0);
}

const struct occ_field *occ_row_kind_field(const struct occ_row_kind *kind,
					   size_t i)
{
	size_t below = kind->base ? occ_row_kind_count(kind->base) : 0;

	if (i < below)
		return occ_row_kind_field(kind->base, i);
	return i - below < kind->n ? &kind->fields[i - below] : NULL;
}

const struct occ_field *occ_field_find(const struct occ_row_kind *kind,
				       const char *name, size_t len)
{
	size_t i;

	for (; kind; kind = kind->base)
		for (i = 0; i < kind->n; i++)
			if (strlen(kind->fields[i].name) == len &&
			    strncmp(kind->fields[i].name, name, len) == 0)
				return &kind->fields[i];
	return NULL;
}

const char *occ_field_type_name(enum occ_field_type t)
{
	static const char *const names[] = {
		[OCC_FT_INT] = "integer", [OCC_FT_DEC] = "decimal",
		[OCC_FT_STR] = "string", [OCC_FT_BOOL] = "boolean",
		[OCC_FT_SET] = "set", [OCC_FT_LIST] = "list",
	};

	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

void occ_format_percent(char *buf, uint64_t num, uint64_t den)
{
	uint64_t hundredths, rem;

	if (den == 0) {
		snprintf(buf, 24, "0.00");
		return;
	}
	/* Measured cycle counts can be large; a few low bits do not show in
	 * two decimals. */
	while (num > UINT64_MAX / 10000) {
		num >>= 1;
		den >>= 1;
	}
	hundredths = num * 10000 / den;
	rem = num * 10000 % den;
	/* A tie goes to the even digit, as printf("%.2f") rounds the exact
	 * binary fractions occupancy is made of: what Nsight Compute and
	 * nvprof print (65.625 % is 65.62, 3.125 % is 3.12). */
	if (2 * rem > den || (2 * rem == den && hundredths % 2))
		hundredths++;
	snprintf(buf, 24, "%llu.%02u", (unsigned long long)(hundredths / 100),
		 (unsigned)(hundredths % 100));
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/* One rule for every decimal, so that a value reads the same in each
 * mode and format: a fixed count per unit, never trimmed (37.50, 25.00).
 * Percentages, ratios (speedup, sectors per request) and rates keep
 * hundredths, as the profilers print them; times keep a microsecond of a
 * millisecond; hitRatio keeps the plan's resolution, 1/10000. */
int occ_field_decimals(const char *field_name)
{
	if (ends_with(field_name, "_ms") || ends_with(field_name, "_us"))
		return 3;
	if (strcmp(field_name, "hit_ratio") == 0)
		return 4;
	return 2;
}

void occ_val_uint(struct occ_val *v, uint64_t u)
{
	v->type = OCC_VAL_UINT;
	v->u = u;
}

void occ_val_pct(struct occ_val *v, uint64_t num, uint64_t den)
{
	occ_format_percent(v->buf, num, den);
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}

void occ_val_dec(struct occ_val *v, const struct occ_field *f, double x)
{
	/* inf and nan are no JSON, and no figure either: absent. */
	if (!isfinite(x)) {
		v->type = OCC_VAL_NULL;
		return;
	}
	snprintf(v->buf, sizeof v->buf, "%.*f", occ_field_decimals(f->name), x);
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}

void occ_val_limiters(struct occ_val *v, unsigned limiters)
{
	static const enum occ_resource order[] = {
		OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS,
		OCC_RESOURCE_SHARED_MEMORY, OCC_RESOURCE_BLOCKS,
		OCC_RESOURCE_BARRIERS
	};
	size_t i;

	v->type = OCC_VAL_SET;
	v->n = 0;
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (limiters & order[i])
			v->strs[v->n++] = occ_resource_name(order[i]);
}

void occ_val_format(char *buf, size_t n, const struct occ_val *v)
{
	size_t len = 0, i;

	buf[0] = '\0';
	switch (v->type) {
	case OCC_VAL_NULL:
		break;
	case OCC_VAL_UINT:
		snprintf(buf, n, "%llu", (unsigned long long)v->u);
		break;
	case OCC_VAL_DEC:
	case OCC_VAL_STR:
		snprintf(buf, n, "%s", v->s);
		break;
	case OCC_VAL_BOOL:
		snprintf(buf, n, "%s", v->u ? "true" : "false");
		break;
	case OCC_VAL_SET:
	case OCC_VAL_LIST:
		for (i = 0; i < v->n && len + 24 < n; i++)
			len += v->type == OCC_VAL_SET
			       ? (size_t)snprintf(buf + len, n - len, "%s%s",
						  i ? "+" : "", v->strs[i])
			       : (size_t)snprintf(buf + len, n - len, "%s%llu",
						  i ? " " : "",
						  (unsigned long long)v->list[i]);
		break;
	}
}
