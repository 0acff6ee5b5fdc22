/*
 * mode_trace.c - occcalc --trace [--trace-out PATH] -- COMMAND [ARGS...]:
 * the command run with the injection library (trace_run.c), then the
 * trace files its processes wrote, read as --launches reads them. The
 * command's exit status is occcalc's; where the command succeeded, the
 * run fails (1) when nothing was traced.
 */
#include "launches.h"

int mode_trace(struct session *s)
{
	struct trace_run *r = &s->trace;
	int status = trace_run(r, s->o->trace_out, s->o->command);
	int summary;

	if (r->not_run)
		return status;
	if (!r->n_files) {
		say("--trace: '%s' wrote no trace: it never started CUDA (no "
		    "GPU or driver here, or it uses none)", s->o->command[0]);
		return status ? status : 1;
	}
	summary = launches_report(s, (const char *const *)r->files,
				  (int)r->n_files);
	return status ? status : summary;
}
