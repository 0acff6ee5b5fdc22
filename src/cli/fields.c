/*
 * fields.c - choosing a row kind's fields: the mode's defaults, or the
 * user's --fields LIST, checked against the kind's table.
 */
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

void val_uint(struct val *v, uint64_t u)
{
	v->type = VAL_UINT;
	v->u = u;
}

void val_dec(struct val *v, int decimals, double x)
{
	snprintf(v->buf, sizeof v->buf, "%.*f", decimals, x);
	v->type = VAL_DEC;
	v->s = v->buf;
}

static const struct field *find_field(const struct row_kind *kind,
				      const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < kind->n; i++)
		if (strlen(kind->fields[i].name) == len &&
		    strncmp(kind->fields[i].name, name, len) == 0)
			return &kind->fields[i];
	return NULL;
}

static _Noreturn void unknown_field(const struct row_kind *kind,
				    const char *name, size_t len)
{
	char valid[4096];
	size_t i, n = 0;

	valid[0] = '\0';
	for (i = 0; i < kind->n && n + 64 < sizeof valid; i++)
		n += (size_t)snprintf(valid + n, sizeof valid - n, "%s%s",
				      i ? "," : "", kind->fields[i].name);
	if (len == 0)
		die_usage("--fields: empty field name; %s rows have: %s",
			  kind->name, valid);
	die_usage("--fields: '%.*s': no such field; %s rows have: %s",
		  (int)len, name, kind->name, valid);
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
		const struct field *f = find_field(kind, p, len);

		if (!f)
			unknown_field(kind, p, len);
		if (sel->n == MAX_FIELDS)
			die_usage("--fields: more than %d fields", MAX_FIELDS);
		sel->f[sel->n++] = f;
		sel->needs |= f->needs;
		p = comma ? comma + 1 : NULL;
	}
}
