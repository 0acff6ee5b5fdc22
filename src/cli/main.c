/*
 * main.c - occcalc, the command line: parse the options, pick the mode,
 * run it, flush. Each mode is one file with one entry point (modes[]);
 * options are defined in options.c, output fields beside each mode.
 * Messages for the user go through msg.c; the program's main() and its
 * exit are in occcalc.c, so that fuzz/cli.c can run all of this in
 * process.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct mode {
	enum mode_id id;
	int (*exec)(struct session *s);
	int tables;            /* reads the architecture tables first */
} modes[] = {
	{ MODE_OCCUPANCY, mode_occupancy, 1 },
	{ MODE_KERNELS, mode_kernels, 1 },
	{ MODE_ACCESS, mode_access, 1 },
	{ MODE_PERSIST, mode_persist, 1 },
	{ MODE_INFO, mode_info, 1 },
	{ MODE_LIST_ARCHS, mode_list_archs, 1 },
	{ MODE_LIST_GPUS, mode_list_gpus, 0 },
	{ MODE_LIST_DEVICES, mode_list_devices, 0 },
	{ MODE_LIST_FIELDS, mode_list_fields, 0 },
	{ MODE_TRAFFIC, mode_traffic, 1 },
	{ MODE_LAUNCHES, mode_launches, 1 },
	{ MODE_TRACE, mode_trace, 1 },
};

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
	const struct mode *m = NULL;
	size_t i;
	int status;

	options_parse(argc, argv, &c->o);
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (modes[i].id == c->o.mode)
			m = &modes[i];
	targets_prepare(s);
	session_apply_gpu(s);
	check_grid(&c->o);
	if (m->tables)
		session_tables(s);
	status = m->exec(s);
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
