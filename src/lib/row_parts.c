/*
 * row_parts.c - one JSON object of fields taken from several rows, as
 * occcalc prints a row that joins two (a configuration and its cluster
 * launch): each run of fields of one row written by occ_row_json, the
 * runs spliced into one object.
 */
#include "occcalc.h"
#include "util.h"

/* The fields from i on that come from rows[i]: how many. */
static size_t run_of(const void *const *rows, size_t i, size_t n)
{
	size_t j = i + 1;

	while (j < n && rows[j] == rows[i])
		j++;
	return j - i;
}

size_t occ_row_parts_json(const struct occ_field *const *f,
			  const void *const *rows, size_t n, char *buf,
			  size_t cap)
{
	size_t at = 0, i = 0, len;

	if (n == 0)
		return occ_row_json(f, 0, NULL, buf, cap);
	while (i < n) {
		size_t run = run_of(rows, i, n);

		/* Each run's object over the last one's '}', its '{' made
		 * the ',' between their members. */
		len = occ_row_json(f + i, run, rows[i], at < cap ? buf + at
				   : NULL, at < cap ? cap - at : 0);
		if (i && at + 1 < cap)
			buf[at] = ',';
		i += run;
		at += i < n ? len - 1 : len;
	}
	return at;
}
