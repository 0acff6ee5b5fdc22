/*
 * fields.c - choosing a row kind's fields: the mode's defaults, or the
 * user's --fields LIST, checked against the kind's table.
 */
#include <string.h>

#include "cli.h"

/* One line: the three names nearest what was typed, and where the rest
 * are listed (a kind has up to a hundred; the line stays short). */
static _Noreturn void unknown_field(const struct occ_row_kind *kind,
				    const char *name, size_t len)
{
	struct nearest nr;
	char near[256];
	size_t i;

	if (len == 0)
		die_usage("--fields: empty field name (--list-fields lists %s "
			  "rows' fields)", kind->name);
	nearest_init(&nr, name, len);
	for (i = 0; i < occ_row_kind_count(kind); i++)
		nearest_offer(&nr, occ_row_kind_field(kind, i)->name);
	nearest_text(&nr, near, sizeof near);
	die_usage("--fields: '%.*s': no such field of %s rows; did you mean "
		  "%s? (--list-fields lists them all)", (int)len, name,
		  kind->name, near);
}

void fieldsel_make(struct fieldsel *sel, const struct occ_row_kind *kind,
		   const char *given, const char *defaults)
{
	const char *p = given ? given : defaults;

	sel->n = 0;
	sel->needs = 0;
	while (p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct occ_field *f = occ_field_find(kind, p, len);

		if (!f)
			unknown_field(kind, p, len);
		if (sel->n == MAX_FIELDS)
			die_usage("--fields: more than %d fields", MAX_FIELDS);
		sel->f[sel->n++] = f;
		sel->needs |= f->needs;
		p = comma ? comma + 1 : NULL;
	}
}
