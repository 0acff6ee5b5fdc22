/*
 * occcalc.c - the program: main() and how a message that ends the run
 * exits. Everything else is in the other files, which fuzz/cli.c links
 * with an exit of its own to run whole command lines in process.
 */
#include <stdlib.h>

#include "cli.h"

_Noreturn void cli_exit(int status)
{
	exit(status);
}

int main(int argc, char **argv)
{
	struct cli c;
	int status;

	cli_init(&c);
	status = cli_run(&c, argc, argv);
	cli_free(&c);
	return status;
}
