/*
 * modes.c - the mode table (main.c's modes[]) and the option table
 * (opts_table.c's opts[]) agree: a mode an option selects or applies to
 * is in modes[], or --list-fields would leave out its kinds; a mode in
 * modes[] other than the default is selected by an option, or --help
 * would not name it and nothing could run it.
 */
#include <stdlib.h>

#include "cli.h"
#include "opts.h"
#include "tap.h"

/* libcli ends a run through cli_exit(); nothing here runs one. */
_Noreturn void cli_exit(int status)
{
	exit(status);
}

static int in_table(const struct mode *m)
{
	size_t i;

	for (i = 0; i < modes_n; i++)
		if (modes[i] == m)
			return 1;
	return 0;
}

static int times_in_table(const struct mode *m)
{
	size_t i;
	int n = 0;

	for (i = 0; i < modes_n; i++)
		n += modes[i] == m;
	return n;
}

static const struct opt *option_selecting(const struct mode *m)
{
	size_t i;

	for (i = 0; i < opts_n; i++)
		if (opts[i].selects == m)
			return &opts[i];
	return NULL;
}

static void check_options(void)
{
	size_t i, j;

	for (i = 0; i < opts_n; i++) {
		const struct opt *op = &opts[i];

		if (op->selects)
			tap_ok(in_table(op->selects), "--%s selects %s, "
			       "which is in modes[]", op->name,
			       op->selects->name);
		for (j = 0; j < OPT_MODES && op->modes[j]; j++)
			if (!in_table(op->modes[j]))
				tap_ok(0, "--%s applies to %s, which is not in "
				       "modes[]", op->name, op->modes[j]->name);
	}
}

static void check_modes(void)
{
	size_t i;

	tap_ok(in_table(MODE_OCCUPANCY), "the default mode is in modes[]");
	for (i = 0; i < modes_n; i++) {
		const struct mode *m = modes[i];

		tap_ok(m->name && m->run && times_in_table(m) == 1,
		       "%s: named, runs, listed once", m->name);
		if (m != MODE_OCCUPANCY)
			tap_ok(option_selecting(m) != NULL,
			       "%s is selected by an option", m->name);
	}
}

int main(void)
{
	check_options();
	check_modes();
	tap_plan(tap_n);
	return tap_done();
}
