/*
 * fields.c - choosing a row kind's fields: the mode's defaults, or the
 * user's --fields LIST, checked against the kind's table.
 */
#include <math.h>
#include <string.h>

#include "cli.h"

const char *field_type_name(enum field_type t)
{
	static const char *const names[] = {
		[FT_INT] = "integer", [FT_DEC] = "decimal", [FT_STR] = "string",
		[FT_BOOL] = "boolean", [FT_SET] = "set", [FT_LIST] = "list",
	};

	return names[t];
}

void val_pct(struct val *v, uint64_t num, uint64_t den)
{
	format_ratio_percent(v->buf, num, den);
	v->type = VAL_DEC;
	v->s = v->buf;
}

void val_limiters(struct val *v, unsigned limiters)
{
	static const enum occ_resource order[] = {
		OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS,
		OCC_RESOURCE_SHARED_MEMORY, OCC_RESOURCE_BLOCKS,
		OCC_RESOURCE_BARRIERS
	};
	size_t i;

	v->type = VAL_SET;
	v->n = 0;
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (limiters & order[i])
			v->strs[v->n++] = occ_resource_name(order[i]);
}

void val_uint(struct val *v, uint64_t u)
{
	v->type = VAL_UINT;
	v->u = u;
}

void val_dec(struct val *v, const struct field *f, double x)
{
	/* inf and nan are no JSON, and no figure either: absent. */
	if (!isfinite(x)) {
		v->type = VAL_NULL;
		return;
	}
	snprintf(v->buf, sizeof v->buf, "%.*f", out_decimals(f->name), x);
	v->type = VAL_DEC;
	v->s = v->buf;
}

/* One line: the three names nearest what was typed, and where the rest
 * are listed (a kind has up to a hundred; the line stays short). */
static _Noreturn void unknown_field(const struct row_kind *kind,
				    const char *name, size_t len)
{
	struct nearest nr;
	char near[256];
	size_t i;

	if (len == 0)
		die_usage("--fields: empty field name (--list-fields lists %s "
			  "rows' fields)", kind->name);
	nearest_init(&nr, name, len);
	for (i = 0; i < kind->n; i++)
		nearest_offer(&nr, kind->fields[i].name);
	nearest_text(&nr, near, sizeof near);
	die_usage("--fields: '%.*s': no such field of %s rows; did you mean "
		  "%s? (--list-fields lists them all)", (int)len, name,
		  kind->name, near);
}

void fieldsel_make(struct fieldsel *sel, const struct row_kind *kind,
		   const char *given, const char *defaults)
{
	const char *p = given ? given : defaults;

	sel->n = 0;
	sel->needs = 0;
	while (p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct field *f = field_find(kind, p, len);

		if (!f)
			unknown_field(kind, p, len);
		if (sel->n == MAX_FIELDS)
			die_usage("--fields: more than %d fields", MAX_FIELDS);
		sel->f[sel->n++] = f;
		sel->needs |= f->needs;
		p = comma ? comma + 1 : NULL;
	}
}
