/*
 * mode_trace.c - occcalc --trace [--trace-out PATH] -- COMMAND [ARGS...]:
 * the options of the report checked, the command run with the injection
 * library (trace_run.c), then the trace files its processes wrote, read
 * as --launches reads them
 * (launches_report: the same rows and summary). The
 * command's exit status is occcalc's; where the command succeeded, the
 * run fails (1) when nothing was traced, else --check decides. With
 * --achieved the first launches of each kernel are measured in the
 * same run (src/trace/achieved.c; docs/achieved.md says why not in a
 * second run).
 */
#include "launches.h"

/* --achieved's launches of each kernel where it names none. */
#define ACHIEVED_LAUNCHES 3

static int run_trace(struct session *s)
{
	struct trace_run *r = &s->trace;
	uint64_t launches = 0;
	int status, summary;

	r->achieved = !s->o->achieved ? 0 : s->o->achieved_launches ?
		(unsigned long)s->o->achieved_launches : ACHIEVED_LAUNCHES;
	/* A typo in --fields, --check or --kernel must not cost the run. */
	launches_prepare(s);
	r->calls = s->o->trace_calls;
	status = trace_run(r, s->o->trace_out, s->o->command);

	if (r->not_run)
		return status;
	if (!r->n_files) {
		say("--trace: '%s' wrote no trace: it never started CUDA (no "
		    "GPU or driver here, or it uses none)", s->o->command[0]);
		return status ? status : 1;
	}
	summary = launches_report(s, (const char *const *)r->files, r->fds,
				  (int)r->n_files, &launches);
	if (!launches) {
		say("--trace: '%s' started CUDA but launched no kernel (%zu "
		    "trace file%s)", s->o->command[0], r->n_files,
		    r->n_files == 1 ? "" : "s");
		return status ? status : 1;
	}
	return status ? status : summary;
}

const struct mode mode_trace = {
	.name = "--trace",
	.run = run_trace,
	.tables = TABLES_READ,
	.kinds = { &occ_launch_kind },
};
