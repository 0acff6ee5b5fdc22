/*
 * chart.c - the three graphs people used the occupancy spreadsheet for:
 * occupancy against block size, registers per thread and shared memory
 * per block, each with the configuration asked for marked. In the terminal
 * (80 columns, no colour) and as SVG.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "chart.h"

#define TEXT_COLUMNS 64
#define TEXT_ROWS 10

/* Point i of the series: the occupancy of configuration k. */
static void set_point(const struct occ_arch *a, struct occ_kernel *k,
		      struct chart_series *s, size_t i, uint64_t x)
{
	struct occ_result r;

	s->x[i] = x;
	if (occ_compute(a, k, &r) != OCC_OK)
		r.warps_per_sm = 0;
	s->warps[i] = r.warps_per_sm;
	s->max_warps = a->max_threads_per_sm / a->warp_size;
	s->y[i] = 100.0 * s->warps[i] / s->max_warps;
}

static int series_alloc(struct chart_series *s, size_t n)
{
	s->n = n;
	s->x = calloc(n, sizeof *s->x);
	s->y = calloc(n, sizeof *s->y);
	s->warps = calloc(n, sizeof *s->warps);
	return s->x && s->y && s->warps ? 0 : -1;
}

/* Block sizes: every multiple of the warp size, as the runtime tries. */
static int block_series(const struct occ_arch *a, const struct occ_kernel *k0,
			struct chart_series *s)
{
	struct occ_kernel k = *k0;
	size_t i, n = (size_t)(a->max_threads_per_block / a->warp_size);

	s->name = "block";
	s->xlabel = "threads per block";
	s->unit = "";
	if (series_alloc(s, n))
		return -1;
	for (i = 0; i < n; i++) {
		k.block_size = (int)(i + 1) * a->warp_size;
		set_point(a, &k, s, i, (uint64_t)k.block_size);
	}
	s->cur_x = (uint64_t)k0->block_size;
	return 0;
}

static int regs_series(const struct occ_arch *a, const struct occ_kernel *k0,
		       struct chart_series *s)
{
	struct occ_kernel k = *k0;
	size_t i, n = (size_t)a->max_regs_per_thread + 1;

	s->name = "registers";
	s->xlabel = "registers per thread";
	s->unit = "";
	if (series_alloc(s, n))
		return -1;
	for (i = 0; i < n; i++) {
		k.regs_per_thread = (int)i;
		set_point(a, &k, s, i, i);
	}
	s->cur_x = (uint64_t)k0->regs_per_thread;
	return 0;
}

/* Dynamic shared memory in allocation units, up to the per-block limit. */
static int smem_series(const struct occ_arch *a, const struct occ_kernel *k0,
		       struct chart_series *s)
{
	struct occ_kernel k = *k0;
	uint64_t limit = k0->optin ? a->smem_per_block_optin : a->smem_per_block;
	uint64_t unit = a->smem_alloc_unit, max;
	size_t i, n;

	max = limit > k0->static_smem ? limit - k0->static_smem : 0;
	n = (size_t)(max / unit) + 1;
	s->name = "smem";
	s->xlabel = "dynamic shared memory per block (bytes)";
	s->unit = " B";
	if (series_alloc(s, n))
		return -1;
	for (i = 0; i < n; i++) {
		k.dynamic_smem = (uint64_t)i * unit;
		set_point(a, &k, s, i, k.dynamic_smem);
	}
	s->cur_x = k0->dynamic_smem;
	return 0;
}

int chart_build(const struct occ_arch *a, const struct occ_kernel *k,
		struct chart_series s[3])
{
	memset(s, 0, 3 * sizeof *s);
	return block_series(a, k, &s[0]) || regs_series(a, k, &s[1]) ||
	       smem_series(a, k, &s[2]) ? -1 : 0;
}

void chart_free(struct chart_series s[3])
{
	int i;

	for (i = 0; i < 3; i++) {
		free(s[i].x);
		free(s[i].y);
		free(s[i].warps);
	}
}

/* The occupancy at x: the last point at or below it (steps, not lines). */
static double value_at(const struct chart_series *s, uint64_t x)
{
	size_t i;
	double y = s->y[0];

	for (i = 0; i < s->n && s->x[i] <= x; i++)
		y = s->y[i];
	return y;
}

static uint64_t column_x(const struct chart_series *s, int col)
{
	uint64_t lo = s->x[0], hi = s->x[s->n - 1];

	return lo + (hi - lo) * (uint64_t)col / (TEXT_COLUMNS - 1);
}

static void chart_text_one(FILE *f, const struct chart_series *s,
			   const char *current)
{
	char grid[TEXT_ROWS][TEXT_COLUMNS + 1];
	int row, col, mark = -1;
	uint64_t lo = s->x[0], hi = s->x[s->n - 1];

	for (col = 0; col < TEXT_COLUMNS; col++) {
		double y = value_at(s, column_x(s, col));

		/* A cell is filled when the occupancy reaches its row's level. */
		for (row = 0; row < TEXT_ROWS; row++)
			grid[row][col] = y >= 10.0 * (TEXT_ROWS - row) - 1e-9
					 ? '#' : ' ';
		if (mark < 0 && column_x(s, col) >= s->cur_x)
			mark = col;
	}
	if (mark < 0)
		mark = TEXT_COLUMNS - 1;
	fprintf(f, "\nOccupancy against %s\n", s->xlabel);
	fprintf(f, "       %*s\n", mark + 1, "v");
	for (row = 0; row < TEXT_ROWS; row++) {
		grid[row][TEXT_COLUMNS] = '\0';
		fprintf(f, "%4d%% |%s\n", 10 * (TEXT_ROWS - row), grid[row]);
	}
	fprintf(f, "      +");
	for (col = 0; col < TEXT_COLUMNS; col++)
		fputc('-', f);
	fprintf(f, "\n      %-*llu%llu\n", TEXT_COLUMNS - 8,
		(unsigned long long)lo, (unsigned long long)hi);
	fprintf(f, "      v marks this configuration, %llu%s, %s %%\n",
		(unsigned long long)s->cur_x, s->unit, current);
}

static void current_percent(char *buf, const struct occ_result *r)
{
	occ_format_percent(buf, (uint64_t)r->warps_per_sm,
			     (uint64_t)r->max_warps_per_sm);
}

void chart_text(FILE *f, const struct chart_series s[3],
		const struct occ_result *current)
{
	char pct[32];
	int i;

	current_percent(pct, current);
	for (i = 0; i < 3; i++)
		chart_text_one(f, &s[i], pct);
}

/* ---- SVG ---- */

#define SVG_W 800
#define PANEL_H 250
#define PLOT_X 70
#define PLOT_W 690
#define PLOT_Y 40
#define PLOT_H 160

static double px(const struct chart_series *s, uint64_t x)
{
	uint64_t lo = s->x[0], hi = s->x[s->n - 1];

	return PLOT_X + (hi > lo ? (double)(x - lo) * PLOT_W / (double)(hi - lo)
			 : 0);
}

static double py(double y, int panel)
{
	return panel * PANEL_H + PLOT_Y + PLOT_H - y * PLOT_H / 100.0;
}

static void svg_panel(FILE *f, const struct chart_series *s, int panel,
		      const struct occ_result *current)
{
	char cur[32], v[32];
	double cy = 100.0 * current->warps_per_sm / current->max_warps_per_sm;
	size_t i;
	int pct;

	current_percent(cur, current);

	fprintf(f, "<g class=\"panel\" id=\"%s\">\n", s->name);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"title\">Occupancy against "
		"%s</text>\n", PLOT_X, panel * PANEL_H + 25, s->xlabel);
	for (pct = 0; pct <= 100; pct += 25)
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			"y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%d %%</text>\n", PLOT_X,
			py(pct, panel), PLOT_X + PLOT_W, py(pct, panel),
			PLOT_X - 6, py(pct, panel) + 4, pct);
	fprintf(f, "<text x=\"%d\" y=\"%d\">%llu</text>"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%llu</text>\n",
		PLOT_X, panel * PANEL_H + PLOT_Y + PLOT_H + 18,
		(unsigned long long)s->x[0], PLOT_X + PLOT_W,
		panel * PANEL_H + PLOT_Y + PLOT_H + 18,
		(unsigned long long)s->x[s->n - 1]);
	/* The series as steps, and its exact points for whoever reads it. */
	fprintf(f, "<polyline class=\"series\" data-x=\"");
	for (i = 0; i < s->n; i++)
		fprintf(f, "%s%llu", i ? " " : "", (unsigned long long)s->x[i]);
	fprintf(f, "\" data-y=\"");
	for (i = 0; i < s->n; i++) {
		occ_format_percent(v, (uint64_t)s->warps[i],
				     (uint64_t)s->max_warps);
		fprintf(f, "%s%s", i ? " " : "", v);
	}
	fprintf(f, "\" points=\"");
	for (i = 0; i < s->n; i++) {
		uint64_t next = i + 1 < s->n ? s->x[i + 1] : s->x[i];

		fprintf(f, "%.1f,%.1f %.1f,%.1f ", px(s, s->x[i]),
			py(s->y[i], panel), px(s, next), py(s->y[i], panel));
	}
	fprintf(f, "\"/>\n");
	fprintf(f, "<circle class=\"current\" data-x=\"%llu\" data-y=\"%s\" "
		"cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/>\n",
		(unsigned long long)s->cur_x, cur, px(s, s->cur_x),
		py(cy, panel));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"label\">%llu%s: "
		"%s %%</text>\n", px(s, s->cur_x) + 8, py(cy, panel) - 8,
		(unsigned long long)s->cur_x, s->unit, cur);
	fprintf(f, "</g>\n");
}

int chart_svg(FILE *f, const char *title, const struct chart_series s[3],
	      const struct occ_result *current)
{
	int i;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n<title>%s</title>\n<style>"
		".grid{stroke:#ccc;stroke-width:1}"
		".series{fill:none;stroke:#1f5fa8;stroke-width:2}"
		".current{fill:#c0392b}.title{font-size:14px;font-weight:bold}"
		".label{fill:#c0392b}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		SVG_W, 3 * PANEL_H, SVG_W, 3 * PANEL_H, title);
	for (i = 0; i < 3; i++)
		svg_panel(f, &s[i], i, current);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -1 : 0;
}
