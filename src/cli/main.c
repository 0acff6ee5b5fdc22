/*
 * main.c - occcalc, the command line: parse the options, pick the mode,
 * run it, flush. Each mode is one file that defines its struct mode,
 * listed in modes[]; options are defined in opts_table.c, output fields
 * beside each mode.
 * Messages for the user go through msg.c; the program's main() and its
 * exit are in occcalc.c, so that fuzz/cli.c can run all of this in
 * process.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Every mode, each defined in its file: adding one is its file and its
 * two lines here, as a command is in tmux's cmd.c. The order is
 * --list-fields': the kinds of row are listed as the modes come. */
extern const struct mode mode_occupancy, mode_kernels, mode_access,
	mode_traffic, mode_persist, mode_launches, mode_trace, mode_info,
	mode_list_archs, mode_list_gpus, mode_list_devices, mode_list_fields;

const struct mode *const modes[] = {
	&mode_occupancy,
	&mode_kernels,
	&mode_access,
	&mode_traffic,
	&mode_persist,
	&mode_launches,
	&mode_trace,
	&mode_info,
	&mode_list_archs,
	&mode_list_gpus,
	&mode_list_devices,
	&mode_list_fields,
};
const size_t modes_n = sizeof modes / sizeof modes[0];

/* Without --arch the device gives the SM count; with it, something must. */
static void check_grid(const struct options *o)
{
	if (o->grid && !o->sms && (o->arch || o->ptxas) && !o->api &&
	    o->mode != MODE_TRAFFIC)
		die_usage("--grid needs the GPU's SM count: --sms N or --gpu "
			  "NAME");
}

void cli_init(struct cli *c)
{
	memset(c, 0, sizeof *c);
	c->s.o = &c->o;
}

int cli_run(struct cli *c, int argc, char **argv)
{
	struct session *s = &c->s;
	const struct mode *m;
	int status;

	options_parse(argc, argv, &c->o);
	m = c->o.mode;
	targets_prepare(s);
	session_apply_gpu(s);
	check_grid(&c->o);
	if (m->tables == TABLES_READ)
		session_tables(s);
	status = m->run(s);
	flush_stdout();
	status = check_status(s, status);
	/* --trace: a command that failed fails occcalc as it did, whatever
	 * --check says of its launches. */
	return s->trace.status ? s->trace.status : status;
}

void cli_free(struct cli *c)
{
	gpu_ctx_release(&c->s.gpu);
	trace_run_free(&c->s.trace);
	kernels_free(&c->s.kernels);
	if (c->s.plot)
		out_file_close(c->s.plot);
	check_free(c->s.checks);
	compare_free(c->s.compare);
	matrix_free(c->s.matrix);
	launches_free(c->s.launches);
	launches_compare_free(c->s.launch_compare);
	for (int i = 0; i < MAX_TARGETS; i++)
		kernels_free(&c->s.target_kernels[i]);
	if (c->s.tables)
		occ_tables_free(c->s.tables);
	occ_gpus_free(c->s.gpus);
	options_free(&c->o);
	memset(c, 0, sizeof *c);
}
