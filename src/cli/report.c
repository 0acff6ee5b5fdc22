/*
 * report.c - the report a person reads for one configuration: the
 * recommendation, the resources and what limits, why it cannot launch,
 * waves, headroom, and what the GPU said. Everything here is computed
 * before (struct occ_row); this file only writes.
 */
#include <string.h>

#include "cli.h"
#include "occupancy.h"

void format_limiters(char *buf, unsigned bits)
{
	static const enum occ_resource order[] = {
		OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS,
		OCC_RESOURCE_SHARED_MEMORY, OCC_RESOURCE_BLOCKS,
		OCC_RESOURCE_BARRIERS
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (bits & order[i]) {
			if (buf[0])
				strcat(buf, "+");
			strcat(buf, occ_resource_name(order[i]));
		}
}

static void format_percent(char *buf, const struct occ_result *r)
{
	occ_format_percent(buf, (uint64_t)r->warps_per_sm,
			     (uint64_t)r->max_warps_per_sm);
}

/* Occupancy averaged over a launch of w->waves waves. */
static void format_launch_percent(char *buf, const struct occ_result *r,
				  const struct occ_waves *w)
{
	occ_format_percent(buf, (uint64_t)w->grid * (uint64_t)r->warps_per_block,
			     (uint64_t)w->waves * (uint64_t)w->sms *
			     (uint64_t)r->max_warps_per_sm);
}

/* "1024 512 256": the block sizes tied for the best occupancy. */
static void format_ties(char *buf, size_t n, const struct occ_best *best)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; best && i < best->n_ties && len + 8 < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%d",
					i ? " " : "", best->ties[i]);
}

/* ---- The report ---- */

/* "228 KiB" when whole kibibytes, else "1152 B". */
static const char *human_bytes(char *buf, size_t n, uint64_t v)
{
	if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, n, "%llu KiB", (unsigned long long)(v / 1024));
	else
		snprintf(buf, n, "%llu B", (unsigned long long)v);
	return buf;
}

static const char *blocks_cell(char *buf, size_t n, int v)
{
	if (v == OCC_UNLIMITED)
		snprintf(buf, n, "unlimited");
	else
		snprintf(buf, n, "%d", v);
	return buf;
}

static void report_line(FILE *f, const char *resource, const char *per_block,
			const char *per_sm, int blocks, unsigned bit,
			unsigned limiters)
{
	char cell[32];

	fprintf(f, "  %-15s %12s %12s %12s%s\n", resource, per_block, per_sm,
		blocks_cell(cell, sizeof cell, blocks),
		limiters & bit ? "  <- limiter" : "");
}

static void report_resources(FILE *f, const struct occ_arch *a,
			     const struct occ_kernel *k,
			     const struct occ_result *r)
{
	char pb[32], ps[32];

	fprintf(f, "  %-15s %12s %12s %12s\n", "Resource", "per block",
		"per SM", "blocks/SM");
	snprintf(pb, sizeof pb, "%d", r->warps_per_block);
	snprintf(ps, sizeof ps, "%d", r->max_warps_per_sm);
	report_line(f, "Warps", pb, ps, r->limit_warps, OCC_RESOURCE_WARPS,
		    r->limiters);
	snprintf(pb, sizeof pb, "%d", r->regs_per_block);
	snprintf(ps, sizeof ps, "%d", a->regs_per_sm);
	report_line(f, "Registers", pb, ps, r->limit_registers,
		    OCC_RESOURCE_REGISTERS, r->limiters);
	report_line(f, "Shared memory",
		    human_bytes(pb, sizeof pb, r->smem_per_block),
		    human_bytes(ps, sizeof ps, r->smem_per_sm),
		    r->limit_shared_memory, OCC_RESOURCE_SHARED_MEMORY,
		    r->limiters);
	snprintf(ps, sizeof ps, "%d", a->max_blocks_per_sm);
	report_line(f, "Block slots", "1", ps, r->limit_blocks,
		    OCC_RESOURCE_BLOCKS, r->limiters);
	snprintf(pb, sizeof pb, "%d", k->barriers);
	if (a->max_barriers_per_sm)
		snprintf(ps, sizeof ps, "%d", a->max_barriers_per_sm);
	else
		snprintf(ps, sizeof ps, "-");
	report_line(f, "Barriers", pb, ps, r->limit_barriers,
		    OCC_RESOURCE_BARRIERS, r->limiters);
}

static void report_cannot_launch(FILE *f, const struct occ_arch *a,
				 const struct occ_kernel *k,
				 const struct occ_result *r)
{
	char tag[16];

	arch_tag(tag, sizeof tag, a);
	fputs("Cannot launch: ", f);
	switch (r->reason) {
	case OCC_LAUNCHES:
		break;
	case OCC_BLOCK_TOO_LARGE:
		fprintf(f, "%d threads per block exceed maxThreadsPerBlock "
			"(%d).\n", k->block_size, a->max_threads_per_block);
		break;
	case OCC_TOO_MANY_REGS_THREAD:
		fprintf(f, "%d registers per thread exceed the %d %s allows.\n",
			k->regs_per_thread, a->max_regs_per_thread, tag);
		break;
	case OCC_TOO_MANY_REGS_BLOCK:
		fprintf(f, "the block needs %d registers, more than regsPerBlock "
			"(%d).\n", r->regs_per_block, a->regs_per_block);
		break;
	case OCC_REGS_DO_NOT_FIT_SM:
		fprintf(f, "one block's warps do not fit the register file's "
			"%d sub-partitions.\n", a->reg_sub_partitions);
		break;
	case OCC_STATIC_SMEM_TOO_LARGE:
		fprintf(f, "static shared memory (%llu B) exceeds "
			"sharedMemPerBlock (%llu B), the static limit.\n",
			(unsigned long long)k->static_smem,
			(unsigned long long)a->smem_per_block);
		break;
	case OCC_SMEM_NEEDS_OPTIN:
		fprintf(f, "%llu B of shared memory per block exceed "
			"sharedMemPerBlock (%llu B) and --no-optin was given.\n",
			(unsigned long long)(k->static_smem + k->dynamic_smem),
			(unsigned long long)a->smem_per_block);
		break;
	case OCC_SMEM_TOO_LARGE:
		fprintf(f, "%llu B of shared memory per block exceed "
			"sharedMemPerBlockOptin (%llu B).\n",
			(unsigned long long)(k->static_smem + k->dynamic_smem),
			(unsigned long long)a->smem_per_block_optin);
		break;
	case OCC_ABOVE_LAUNCH_BOUNDS:
		fprintf(f, "%d threads per block exceed the kernel's "
			"__launch_bounds__(%d).\n", k->block_size, k->max_threads);
		break;
	}
}

static void report_notes(FILE *f, const struct occ_arch *a,
			 const struct occ_kernel *k, const struct occ_result *r)
{
	if (a->smem_reserved_per_block)
		fprintf(f, "Note: shared memory per block includes %llu B "
			"reserved by the driver.\n",
			(unsigned long long)a->smem_reserved_per_block);
	if (r->needs_optin && k->optin && r->reason == OCC_LAUNCHES)
		fprintf(f, "Note: above %llu B per block the kernel must opt in: "
			"cudaFuncSetAttribute(kernel, "
			"cudaFuncAttributeMaxDynamicSharedMemorySize, %llu).\n",
			(unsigned long long)a->smem_per_block,
			(unsigned long long)k->dynamic_smem);
	if (k->carveout != OCC_CARVEOUT_DEFAULT && a->n_smem_carveouts == 0)
		fprintf(f, "Note: the carveout preference has no effect on "
			"this architecture.\n");
}

static void out_report(FILE *f, const struct occ_arch *a, const struct occ_kernel *k,
		const struct occ_result *r, const char *shape)
{
	char tag[16], pct[32], lim[64], carve[32];

	arch_tag(tag, sizeof tag, a);
	format_percent(pct, r);
	format_limiters(lim, r->limiters);
	if (k->carveout == OCC_CARVEOUT_DEFAULT)
		strcpy(carve, "default");
	else
		snprintf(carve, sizeof carve, "%d %%", k->carveout);
	fprintf(f, "%s (%s), compute capability %d.%d\n", tag, a->name,
		a->cc_major, a->cc_minor);
	fprintf(f, "Kernel: %d threads/block%s%s%s, %d registers/thread, "
		"%llu B static + %llu B dynamic shared memory/block, "
		"carveout %s\n\n", k->block_size, *shape ? " (" : "", shape,
		*shape ? ")" : "", k->regs_per_thread,
		(unsigned long long)k->static_smem,
		(unsigned long long)k->dynamic_smem, carve);
	report_resources(f, a, k, r);
	fprintf(f, "\n");
	fprintf(f, "Active blocks per SM  %d\n", r->blocks_per_sm);
	fprintf(f, "Active warps per SM   %d of %d\n", r->warps_per_sm,
		r->max_warps_per_sm);
	fprintf(f, "Occupancy             %s %%\n", pct);
	/* What cannot launch says why where the limiter would stand. */
	if (r->blocks_per_sm == 0)
		report_cannot_launch(f, a, k, r);
	else
		fprintf(f, "Limited by            %s\n", lim);
	report_notes(f, a, k, r);
}

/* ---- Headroom ---- */

/* "16 blocks (100.00 %)" */
static const char *blocks_pct(char *buf, size_t n, int blocks,
			      const struct occ_result *r)
{
	struct occ_result at = *r;
	char pct[32];

	at.warps_per_sm = blocks * r->warps_per_block;
	format_percent(pct, &at);
	if (blocks == 0)
		snprintf(buf, n, "cannot launch");
	else
		snprintf(buf, n, "%d block%s (%s %%)", blocks,
			 plural(blocks), pct);
	return buf;
}

static void step_line(FILE *f, const char *what, const char *unit,
		      const struct occ_step *s, const struct occ_result *r)
{
	char b[64];

	fprintf(f, "  %-20s %llu%s: ", what, (unsigned long long)s->value, unit);
	if (s->blocks == 0) {
		if (s->has_gain)
			fprintf(f, "cannot launch; %llu%s or less: %s\n",
				(unsigned long long)s->gain_at, unit,
				blocks_pct(b, sizeof b, s->gain_blocks, r));
		else
			fprintf(f, "cannot launch, whatever its value\n");
		return;
	}
	fprintf(f, "%s up to %llu%s", blocks_pct(b, sizeof b, s->blocks, r),
		(unsigned long long)s->keep_max, unit);
	if (s->has_gain)
		fprintf(f, "; %llu%s or less: %s", (unsigned long long)s->gain_at,
			unit, blocks_pct(b, sizeof b, s->gain_blocks, r));
	if (s->has_drop && s->drop_blocks == 0)
		fprintf(f, "; above %llu%s: cannot launch",
			(unsigned long long)s->keep_max, unit);
	else if (s->has_drop)
		fprintf(f, "; %llu-%llu%s: %s", (unsigned long long)s->drop_from,
			(unsigned long long)s->drop_to, unit,
			blocks_pct(b, sizeof b, s->drop_blocks, r));
	fputc('\n', f);
}

void report_headroom_steps(FILE *f, const struct occ_result *r,
			   const struct occ_headroom *h)
{
	step_line(f, "Registers/thread", "", &h->regs, r);
	step_line(f, "Dynamic smem/block", " B", &h->smem, r);
}

static void out_headroom(FILE *f, const struct occ_result *r,
		  const struct occ_headroom *h)
{
	fprintf(f, "\nHeadroom, the other inputs unchanged:\n");
	report_headroom_steps(f, r, h);
}

/* ---- Waves ---- */

static void out_waves(FILE *f, const struct occ_row *row)
{
	const struct occ_result *r = &row->c.r;
	const struct occ_waves *w = &row->c.w;
	struct occ_result fewer = *r;
	char pct[32], tail[32], alt[32];

	const struct occ_cluster_result *c = row->cl ? &row->cl->model.c : NULL;

	fprintf(f, "\nWaves: a grid of %lld block%s on %d SM%s", (long long)row->c.grid,
		plural(row->c.grid), row->c.sms, plural(row->c.sms));
	if (c)
		fprintf(f, ", in clusters of %d", c->size);
	fprintf(f, "\n");
	if (!row->c.have_waves && c && r->blocks_per_sm &&
	    row->c.grid % c->size) {
		fprintf(f, "  none: the grid is not a multiple of the cluster's "
			"%d CTAs (CUDA refuses the launch)\n", c->size);
		return;
	}
	if (!row->c.have_waves) {
		fprintf(f, "  none: the configuration does not launch\n");
		return;
	}
	format_launch_percent(pct, r, w);
	occ_format_percent(tail, (uint64_t)w->tail_blocks, (uint64_t)w->per_wave);
	if (c)
		fprintf(f, "  %lld block%s per wave (%d cluster%s at once): "
			"%lld full wave%s", (long long)w->per_wave,
			plural(w->per_wave), c->max_active_clusters,
			plural(c->max_active_clusters),
			(long long)w->full_waves, plural(w->full_waves));
	else
		fprintf(f, "  %lld block%s per wave (%d per SM): %lld full wave%s",
			(long long)w->per_wave, plural(w->per_wave),
			r->blocks_per_sm, (long long)w->full_waves,
			plural(w->full_waves));
	if (w->tail_blocks)
		fprintf(f, " and a last wave of %lld block%s (%s %% full)",
			(long long)w->tail_blocks, plural(w->tail_blocks), tail);
	fprintf(f, "\n  Occupancy over the whole launch: %s %%\n", pct);
	if (c)
		return;     /* the per-SM hints below are a plain launch's */
	if (w->max_resident_per_sm < r->blocks_per_sm)
		fprintf(f, "  Smaller than a wave, the grid spreads over the "
			"SMs: at most %d block%s per SM at once.\n",
			w->max_resident_per_sm, plural(w->max_resident_per_sm));
	if (w->same_waves_blocks < r->blocks_per_sm) {
		fewer.warps_per_sm = w->same_waves_blocks * r->warps_per_block;
		format_percent(alt, &fewer);
		fprintf(f, "  The idle slots of the last wave cancel the extra "
			"occupancy: %d block%s per SM (%s %%) would finish in "
			"as many waves (%lld), if blocks take as long.\n",
			w->same_waves_blocks, plural(w->same_waves_blocks), alt,
			(long long)w->waves);
	}
}

/* ---- The recommendation ---- */

static void out_best(FILE *f, const struct occ_arch *a, const struct occ_best *best,
	      int sms)
{
	char ties[OCC_MAX_TIES * 6];
	int per_sm = best->result.blocks_per_sm;

	if (best->block_size == 0) {
		fprintf(f, "No block size from %d to %d threads can launch; "
			"the smallest:\n\n", a->warp_size,
			a->max_threads_per_block);
		return;
	}
	fprintf(f, "Best block size       %d threads\n", best->block_size);
	if (best->n_ties > 1) {
		format_ties(ties, sizeof ties, best);
		fprintf(f, "Same occupancy with   %s\n", ties);
		fprintf(f, "                      (the largest is preferred: "
			"cudaOccupancyMaxPotentialBlockSize returns it)\n");
	}
	if (sms)
		fprintf(f, "Minimum grid          %d block%s (%d per SM x %d "
			"SM%s)\n", per_sm * sms, plural(per_sm * sms), per_sm,
			sms, plural(sms));
	else
		fprintf(f, "Minimum grid          %d block%s per SM x the GPU's "
			"SMs (--sms N)\n", per_sm, plural(per_sm));
	fputc('\n', f);
}

/* ---- On the GPU ---- */

/* The runtime's most dynamic shared memory beside the model's. */
static void gpu_dyn_line(FILE *f, const struct occ_row *row)
{
	const struct row_gpu *g = row->gpu;

	fprintf(f, "  Most dynamic smem     %llu B per block keeps %d block%s "
		"per SM;\n", (unsigned long long)row->c.max_dyn,
		row->c.r.blocks_per_sm, plural(row->c.r.blocks_per_sm));
	fprintf(f, "                        cudaOccupancyAvailableDynamicSMem"
		"PerBlock says %llu B", (unsigned long long)g->api_dyn);
	if (g->api_dyn_blocks < row->c.r.blocks_per_sm)
		fprintf(f, ", which LOSES A BLOCK: %d per SM with it\n"
			"                        (it leaves out the %llu B the "
			"driver reserves per block)\n", g->api_dyn_blocks,
			(unsigned long long)row->c.a->smem_reserved_per_block);
	else
		fprintf(f, "\n");
}

void report_gpu(FILE *f, const struct occ_device *d, const struct occ_row *row)
{
	const struct row_gpu *g = row->gpu;
	char pct[32];

	fprintf(f, "\nOn device %d (%s), a calibrated kernel with %d "
		"registers:\n", d->index, d->name, g->kernel_regs);
	fprintf(f, "  Occupancy API         %d block%s per SM\n", g->api_blocks,
		plural(g->api_blocks));
	if (g->measured) {
		occ_format_percent(pct, g->m.residency.warp_cycles,
				     (uint64_t)g->m.residency.max_warps_per_sm *
				     g->m.residency.active_cycles);
		fprintf(f, "  Measured              %d block%s resident per SM, "
			"%s %% achieved occupancy\n",
			g->m.residency.max_blocks_per_sm,
			plural(g->m.residency.max_blocks_per_sm), pct);
		fprintf(f, "                        (%lld block%s on %d SM%s, "
			"%.1f ms)\n", (long long)g->m.grid,
			plural(g->m.grid), g->m.residency.sms_used,
			plural(g->m.residency.sms_used), g->m.ms);
	}
	if (g->measured && g->expected != row->c.r.blocks_per_sm)
		fprintf(f, "  (the grid spreads over the SMs: the model expects "
			"at most %d per SM)\n", g->expected);
	if (g->agrees)
		fprintf(f, "  %s the model.\n", g->measured
			? "Both agree with" : "It agrees with");
	else
		fprintf(f, "  DISAGREES with the model.\n");
	if (g->have_api_dyn && row->c.have_max_dyn)
		gpu_dyn_line(f, row);
}

/* ---- --partition ---- */

static void out_partition(FILE *f, const struct session_partition *P)
{
	const struct occ_partition_split *p = &P->m.part.split;
	char hw[64], api[64];

	fprintf(f, "\nPartition: %s%d group%s of %d SMs", p->groups_min ==
		p->groups_max ? "" : "at most ", p->groups, plural(p->groups),
		p->group_sms);
	if (p->groups_min == p->groups_max)
		fprintf(f, ", %d SM%s left over", p->remaining_sms,
			plural(p->remaining_sms));
	fprintf(f, " (%s); computed in %s, %d SM%s\n",
		occ_partition_flags_name(P->m.part.flags), P->m.name,
		P->m.part.sms, plural(P->m.part.sms));
	if (P->m.part.measured) {
		occ_layout_format(&P->m.part.layout, hw, sizeof hw);
		occ_layout_format(&P->m.part.api, api, sizeof api);
		fprintf(f, "  Its GPCs: %s as clusters run; %s as "
			"cudaOccupancyMaxActiveClusters counts them\n", hw, api);
	} else {
		fprintf(f, "  Its GPCs are not measured: cluster figures are "
			"upper bounds\n");
	}
	if (P->have_driver)
		fprintf(f, "  The driver made %d group%s of %d SMs, %d left over; "
			"the green context has %d SMs (%s)\n", P->driver_groups,
			plural(P->driver_groups), P->driver_group_sms,
			P->driver_remaining_sms, P->driver_part_sms,
			P->agrees ? "as the model says" : "DISAGREES with the model");
}

/* The recommendation, the report, the waves of --grid and the headroom. */
void report_occupancy(FILE *f, const struct occ_row *row)
{
	if (row->c.have_best)
		out_best(f, row->c.a, &row->c.best, row->c.sms);
	out_report(f, row->c.a, &row->c.k, &row->c.r, row->c.block_shape);
	/* A bare 100 % must not pass for the kernel's answer. */
	if (row->c.regs_assumed)
		fprintf(f, "Note: no --regs: registers per thread taken as %d; "
			"the kernel's own count (nvcc -Xptxas -v, --kernels) may "
			"lower the occupancy.\n", row->c.k.regs_per_thread);
	if (row->partition)
		out_partition(f, row->partition);
	if (row->c.grid)
		out_waves(f, row);
	if (row->c.have_headroom)
		out_headroom(f, &row->c.r, &row->c.h);
}
