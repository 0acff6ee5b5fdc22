/*
 * occcalc.c - the program: main() and how a message that ends the run
 * exits. Everything else is in the other files, which fuzz/cli.c links
 * with an exit of its own to run whole command lines in process.
 */
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"

_Noreturn void cli_exit(int status)
{
	exit(status);
}

int main(int argc, char **argv)
{
	struct cli c;
	int status;

#ifdef M_ARENA_MAX
	/* Four malloc arenas for all the threads rather than one each: the
	 * reader's threads then use again what others freed, in less time
	 * and memory (docs/kernels-speed.md). */
	mallopt(M_ARENA_MAX, 4);
#endif
	cli_init(&c);
	status = cli_run(&c, argc, argv);
	cli_free(&c);
	return status;
}
