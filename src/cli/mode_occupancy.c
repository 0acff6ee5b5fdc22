/*
 * mode_occupancy.c - the default mode: the occupancy of every combination
 * of the swept block sizes, registers, static and dynamic shared memory,
 * on --arch's table or the GPU's (merged with what it reports).
 */
#include "cli.h"
#include "occupancy.h"

/* The registers the calibrated kernel for regs actually has: ptxas gives
 * no kernel fewer than its lower bound (24 on every architecture CUDA 13
 * builds for), so a row asking fewer is computed for what runs. */
static int calibrated_regs(struct session *s, int regs)
{
	char err[256];
	int got;

	if (gpu_kernel_regs(&s->gpu, regs, &got, err, sizeof err) != 0)
		session_device_failed(s, err);
	if (got != regs && !s->warned_regs) {
		warn("the calibrated kernel for %d registers has %d (the fewest "
		     "ptxas allocates); its rows are computed for %d", regs, got,
		     got);
		s->warned_regs = 1;
	}
	return got;
}

/* Block size outermost, then registers, static and dynamic shared memory
 * (occ_run_blocks sweeps the block and the dynamic memory). */
static void sweep(struct occ_run *run, const struct occ_arch *a)
{
	const struct options *o = run->s->o;
	struct seq_iter ib, ir, is;
	struct seq_range r;
	struct seq one = { &r, 1, 0 };
	struct occ_kernel k;

	occ_run_kernel_defaults(o, &k);
	for (seq_first(&ib, &o->block); ; ) {
		r = o->block.ranges[ib.range];
		r.start = r.end = ib.value;
		r.step = 1;
		for (seq_first(&ir, &o->regs); ; ) {
			k.regs_per_thread = o->api
				? calibrated_regs(run->s, (int)ir.value)
				: (int)ir.value;
			for (seq_first(&is, &o->static_smem); ; ) {
				k.static_smem = is.value;
				occ_run_blocks(run, a, &one, &k);
				if (!seq_next(&is))
					break;
			}
			if (!seq_next(&ir))
				break;
		}
		if (!seq_next(&ib))
			break;
	}
}

/* --device all: every GPU in turn, each with its own table and layout. */
static void every_device(struct session *s, struct occ_run *run)
{
	char err[256] = "";
	int i, n = 0;

	if (device_count(&n, err, sizeof err) != 0 || n == 0)
		die("--device all: no CUDA device (%s)",
		    err[0] ? err : "none found");
	s->sms_given = s->o->sms;
	for (i = 0; i < n; i++) {
		session_use_device(s, i);
		/* A machine may mix GPUs with clusters and without. */
		if (s->o->cluster.n && (s->merged.cc_major < 9 ||
					!s->merged.cluster_size_portable)) {
			warn("device %d (%s) has no thread-block clusters: no "
			     "rows for it", i, s->dev.name);
			continue;
		}
		if (s->o->cluster.n)
			cluster_prepare(s, &s->merged);
		sweep(run, &s->merged);
	}
}

/* --gpu LIST, --arch LIST: each in turn, with its table and SMs. */
static void every_target(struct session *s, struct occ_run *run)
{
	const struct occ_arch *a;
	int i;

	for (i = 0; i < s->n_targets; i++) {
		target_apply(s, i);
		a = session_find_arch(s, s->o->arch);
		if (s->o->cluster.n)
			cluster_prepare(s, a);
		run->gpu_name = s->o->gpu_list ? s->targets[i].name : NULL;
		sweep(run, a);
	}
}

static int run_occupancy(struct session *s)
{
	const struct options *o = s->o;
	const struct occ_arch *a = NULL;
	struct occ_run run;
	int is_sweep = o->block.is_sweep || o->regs.is_sweep ||
		       o->smem.is_sweep || o->static_smem.is_sweep ||
		       o->cluster.n > 1 || o->device_all || s->n_targets;

	partition_prepare(s);
	if (!o->device_all && !s->n_targets) {
		a = o->arch && !o->api ? session_find_arch(s, o->arch)
				       : session_device_arch(s);
		if (o->cluster.n)
			cluster_prepare(s, a);
	}
	occ_run_open(&run, s, is_sweep, 0);
	if (s->n_targets)
		every_target(s, &run);
	else if (o->device_all)
		every_device(s, &run);
	else
		sweep(&run, a);
	occ_run_close(&run);
	if (s->disagreements)
		warn("%llu configuration%s where the runtime or the measurement "
		     "disagrees with the model (see the agrees column)",
		     (unsigned long long)s->disagreements,
		     plural(s->disagreements));
	return session_status(s);
}

const struct mode mode_occupancy = {
	.name = "an occupancy calculation",
	.run = run_occupancy,
	.tables = TABLES_READ,
	.kinds = { &kind_occupancy },
};
