/* launches_sum.h - what the summary of --launches keeps (the library's,
 * occcalc/launch_summary.h, held by launches_summary.c) and prints from
 * (launches_summary_print.c); its names (launches_names.c). Internal to
 * those files. */
#ifndef OCC_CLI_LAUNCHES_SUM_H
#define OCC_CLI_LAUNCHES_SUM_H

#include "launches.h"

/* The text table shows a name's first NAME_SHOWN bytes: a row of JSON
 * carries what the library keeps (OCC_LAUNCH_SUMMARY_NAME_KEPT), but a
 * copy of each name that long for the table would take 8192 kernels
 * to 180 MB. */
#define NAME_SHOWN 1024

struct launch_summary {
	struct occ_launch_summary *sum;  /* the library's */
	int failed;                      /* out of memory */
	int by_op;                       /* rows by operator, not kernel */
	int wide;                        /* full names */
};

/* ---- Names (launches_names.c) ---- */

/* Each of the n names as people recognise it: a C++ function's own name
 * without its namespaces, return type and parameters, its template
 * arguments cut in the middle ("vectorized_elementwise_kernel<8, …>");
 * names that would read alike keep more, up to the whole. out[i] is
 * allocated (free each); 0 when out of memory. */
int names_shorten(const char *const *names, size_t n, char **out);
/* The columns a UTF-8 text takes. */
size_t name_columns(const char *s);

#endif
