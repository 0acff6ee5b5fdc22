/* chart.h - occupancy against block size, registers and shared memory,
 * drawn in the terminal or as SVG (chart.c); occupancy.c draws them. */
#ifndef OCC_CHART_H
#define OCC_CHART_H

#include <stdint.h>
#include <stdio.h>

#include "occcalc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Occupancy (percent) as one input varies, the others as configured. */
struct chart_series {
	const char *name;      /* block, registers, smem */
	const char *xlabel;
	const char *unit;
	size_t n;
	uint64_t *x;
	double *y;             /* percent, for drawing */
	int *warps;            /* active warps per SM, for printing */
	int max_warps;
	uint64_t cur_x;        /* the configuration's value */
};

int chart_build(const struct occ_arch *a, const struct occ_kernel *k,
		struct chart_series s[3]);
void chart_free(struct chart_series s[3]);
void chart_text(FILE *f, const struct chart_series s[3],
		const struct occ_result *current);
int chart_svg(FILE *f, const char *title, const struct chart_series s[3],
	      const struct occ_result *current);

#ifdef __cplusplus
}
#endif

#endif
