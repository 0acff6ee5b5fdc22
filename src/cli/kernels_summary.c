/*
 * kernels_summary.c - what --kernels writes under its text table: the
 * summary of the limiters and the lowest occupancies, and the notes on
 * the images read, launch bounds, Triton's launches, declared clusters
 * and PTX-only kernels.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "occupancy.h"
#include "kernels.h"

static int lower(const struct summary_low *a, const struct summary_low *b)
{
	return a->warps * b->max_warps < b->warps * a->max_warps;
}

/* w among the lowest, after those as low that came before it. */
static void keep_low(struct kernel_summary *s, const struct summary_low *w)
{
	size_t i;

	if (w->max_warps == 0 || w->warps >= w->max_warps)
		return;
	if (s->n_low == SUMMARY_LOWEST && !lower(w, &s->low[SUMMARY_LOWEST - 1]))
		return;
	if (s->n_low < SUMMARY_LOWEST)
		s->n_low++;
	for (i = s->n_low - 1; i > 0 && lower(w, &s->low[i - 1]); i--)
		s->low[i] = s->low[i - 1];
	s->low[i] = *w;
}

void kernels_summary_low(struct kernel_summary *s, const struct occ_row *row)
{
	struct summary_low w = { (uint64_t)row->c.r.warps_per_sm,
			   (uint64_t)row->c.r.max_warps_per_sm, row->ki,
			   row->c.k.block_size, "" };

	/* A cluster launch: the GPU's warps it keeps busy, of its slots. */
	if (row->cl) {
		w.warps = (uint64_t)row->cl->model.c.active_warps;
		w.max_warps = (uint64_t)row->cl->model.c.warp_slots;
		snprintf(w.cluster, sizeof w.cluster, "%s", row->cl->model.name);
	}
	keep_low(s, &w);
}

/* A later piece's counts: its lowest come after those as low here, as
 * they would counted one row at a time. */
void kernels_summary_add(struct kernel_summary *s,
			 const struct kernel_summary *later)
{
	size_t i;

	s->rows += later->rows;
	s->cannot += later->cannot;
	s->below_min += later->below_min;
	for (i = 0; i < 5; i++)
		s->by[i] += later->by[i];
	for (i = 0; i < later->n_low; i++)
		keep_low(s, &later->low[i]);
}

void kernels_summary_count(struct kernel_summary *s, const struct occ_row *row,
			   int clusters)
{
	int i;

	s->rows++;
	if (row->c.r.blocks_per_sm == 0)
		s->cannot++;
	for (i = 0; i < 5; i++)
		if (row->c.r.blocks_per_sm && (row->c.r.limiters & (1u << i)))
			s->by[i]++;
	if (row->ki && row->ki->min_blocks > 0 &&
	    row->c.r.blocks_per_sm < row->ki->min_blocks)
		s->below_min++;
	/* Rows launched as clusters are ranked by those launches. */
	if (row->c.r.blocks_per_sm && !clusters &&
	    row->c.r.warps_per_sm < row->c.r.max_warps_per_sm)
		kernels_summary_low(s, row);
}

static void print_summary(struct out *o, const struct kernel_summary *s)
{
	char line[4096], pct[32];
	size_t i, n;

	n = (size_t)snprintf(line, sizeof line, "\nLimited by:");
	for (i = 0; i < 5; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%s %s %llu",
				      i ? "," : "", occ_resource_name(1u << i),
				      (unsigned long long)s->by[i]);
	snprintf(line + n, sizeof line - n, "; cannot launch %llu; below "
		 "__launch_bounds__' minimum blocks %llu (of %llu row%s)\n",
		 (unsigned long long)s->cannot,
		 (unsigned long long)s->below_min, (unsigned long long)s->rows,
		 plural(s->rows));
	out_text(o, line);
	if (s->n_low == 0 && s->cannot == 0)
		out_text(o, "Lowest occupancy  100.00% in every row\n");
	for (i = 0; i < s->n_low; i++) {
		const struct summary_low *w = &s->low[i];

		occ_format_percent(pct, w->warps, w->max_warps);
		snprintf(line, sizeof line, "%s%s%% %s, %d thread%s%s%s: %s\n",
			 i ? "                  " : "Lowest occupancy  ", pct,
			 w->ki->arch, w->block, plural(w->block), w->cluster[0] ?
			 ", clusters of " : "", w->cluster,
			 w->ki->name ? w->ki->name : w->ki->mangled);
		out_text(o, line);
	}
}

/* With a GPU named, which images were read and why, in one line. */
static void print_image_line(struct out *out, const struct kernel_list *l)
{
	size_t i, sass = 0, specific = 0, ptx = 0;
	char line[512];

	for (i = 0; i < l->n; i++) {
		const struct kernel_info *k = &l->k[i];
		size_t n = strlen(k->arch);

		sass += k->image == OCC_IMAGE_SASS;
		specific += k->image == OCC_IMAGE_SASS && n && k->arch[n - 1] == 'a';
		ptx += k->image == OCC_IMAGE_PTX;
	}
	if (!sass && !ptx)
		return;
	snprintf(line, sizeof line, "\nImages: the one of each fatbin the "
		 "driver loads on compute capability %d.%d (SASS before PTX, "
		 "arch-specific first): %zu SASS (%zu arch-specific), %zu PTX "
		 "it compiles; --all-images lists all.\n", l->target_cc / 10,
		 l->target_cc % 10, sass, specific, ptx);
	out_text(out, line);
}

/* Kernels a file holds only as relocatable code: what they are. */
static void relocatable_note(struct out *out, const struct kernel_list *l)
{
	size_t i, n = 0;
	char line[512];

	for (i = 0; i < l->n; i++)
		n += l->k[i].relocatable && !l->k[i].ptx_only;
	if (!n)
		return;
	snprintf(line, sizeof line, "\n%zu kernel%s of relocatable device "
		 "code (nvcc -rdc; --fields relocatable): linked by the "
		 "library\nat run time (cuLink, nvJitLink) before they run; "
		 "registers and shared memory as\nptxas compiled them.\n", n,
		 plural(n));
	out_text(out, line);
}

void kernels_notes(struct out *out, const struct kernel_list *l,
		   const struct options *o, const struct kernel_summary *sum,
		   int clusters)
{
	size_t i;

	/* Only PTX: no table, so no note on its columns. */
	if (!sum->rows && out->format == OUT_TEXT)
		out->style |= OUT_NOHEADER;
	if (sum->rows)
		print_summary(out, sum);
	if (sum->rows)
		print_image_line(out, l);
	if (sum->rows && l->text && !o->have_block)
		out_text(out, "\nA compiler report does not carry "
			 "__launch_bounds__: the block sizes above assume\n"
			 "none, and a kernel compiled with a lower bound cannot "
			 "launch with them\n(give occcalc the binary instead).\n");
	if (sum->rows && !l->text)
		out_text(out, "\nbound, min: __launch_bounds__' maximum threads "
			 "and minimum blocks per SM\n('!': the prediction falls "
			 "short of it; r64: a cubin without its PTX keeps only\n"
			 "the register cap ptxas applied for it, or for "
			 "__maxnreg__).\n");
	if (sum->rows)
		relocatable_note(out, l);
	kernels_triton_note(out, l, o);
	kernels_cluster_note(out, l, o, clusters);
	/* PTX the driver compiles; not a fatbin's whose no image runs. */
	for (i = 0; i < l->n; i++)
		if (l->k[i].ptx_only && l->k[i].image != OCC_IMAGE_NONE) {
			out_text(out, sum->rows ? "\nPTX only (compiled by "
				 "the driver when loaded, resources unknown until "
				 "then):\n" : "PTX only (compiled by the driver "
				 "when loaded, resources unknown until then):\n");
			break;
		}
	for (; i < l->n; i++) {
		const struct kernel_info *k = &l->k[i];
		char line[4096];

		if (!k->ptx_only || k->image == OCC_IMAGE_NONE)
			continue;
		kernels_ptx_line(line, sizeof line, k);
		out_text(out, line);
	}
}
