/* arch.h - the shipped tables for the C tests (internal to t/). */
#ifndef OCC_TEST_ARCH_H
#define OCC_TEST_ARCH_H

#include <stdio.h>
#include <stdlib.h>

#include "occcalc.h"

static struct occ_tables *tables;

/* Loads $OCCCALC_TABLES, or bails out of the TAP run. */
static inline void load_tables(void)
{
	const char *dir = getenv("OCCCALC_TABLES");
	struct occ_diag d;

	if (!dir || occ_tables_load(dir, &tables, &d) != OCC_OK) {
		printf("Bail out! cannot load tables from OCCCALC_TABLES\n");
		exit(1);
	}
}

static inline const struct occ_arch *arch(int major, int minor)
{
	const struct occ_arch *a = occ_tables_find(tables, major, minor);

	if (!a) {
		printf("Bail out! no table for %d.%d\n", major, minor);
		exit(1);
	}
	return a;
}

#endif
