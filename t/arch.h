/* arch.h - the shipped tables for the C tests (internal to t/). */
#ifndef OCC_TEST_ARCH_H
#define OCC_TEST_ARCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* An H100 SXM as a trace or the runtime describes it (occcalc/target.h's
 * device properties). */
static inline struct occ_launch_device h100_device(void)
{
	struct occ_launch_device d;

	memset(&d, 0, sizeof d);
	snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
	d.major = 9;
	d.multiProcessorCount = 132;
	d.warpSize = 32;
	d.maxThreadsPerMultiProcessor = 2048;
	d.sharedMemPerMultiprocessor = 233472;
	d.sharedMemPerBlockOptin = 232448;
	d.reservedSharedMemPerBlock = 1024;
	return d;
}

#endif
