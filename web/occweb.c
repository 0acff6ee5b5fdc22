/*
 * occweb.c - the command line as a function, for the page (web/): the
 * page never computes, it runs `occcalc ARGS` here and shows what that
 * printed, so it cannot answer other than the program does.
 *
 * The seam is fuzz/cli.c's: the CLI ends a run through cli_exit(), which
 * the program defines as exit() and this file as a longjmp back to
 * occweb_run(); cli_free() releases what the run held either way. musl's
 * stdout is a constant, not assignable as glibc's is, so standard output
 * and error are redirected at the descriptors instead: 1 and 2 are
 * dup2()ed onto files of emscripten's in-memory file system for the run,
 * and read back whole.
 *
 * The tables and gpus.txt are embedded at /tables (web/build.mk), which
 * OCCCALC_TABLES names, as a user's environment would.
 */
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <emscripten/emscripten.h>

#include "cli.h"

#define MAX_ARGS 256

static jmp_buf *exit_to;
static int exit_status;

_Noreturn void cli_exit(int status)
{
	exit_status = status;
	longjmp(*exit_to, 1);
}

/* Emscripten's libc declares getrandom() but lacks it; --trace's file
 * names ask it, and a page cannot trace, but the link needs it. */
ssize_t getrandom(void *buf, size_t n, unsigned flags)
{
	(void)flags;
	return n <= 256 && getentropy(buf, n) == 0 ? (ssize_t)n : -1;
}

/* What the last run printed; the page reads them through the getters. */
static struct {
	char *out, *err;
	size_t out_len, err_len;
	int status;
} last;

static int redirect(int fd, const char *path, int *saved)
{
	int f = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (f < 0)
		return -1;
	*saved = dup(fd);
	dup2(f, fd);
	close(f);
	return 0;
}

static char *restore(int fd, int saved, const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	FILE *f;

	dup2(saved, fd);
	close(saved);
	*len = 0;
	if (stat(path, &st) != 0 || !(buf = malloc((size_t)st.st_size + 1)))
		return NULL;
	if ((f = fopen(path, "rb")) != NULL) {
		*len = fread(buf, 1, (size_t)st.st_size, f);
		fclose(f);
	}
	buf[*len] = '\0';
	unlink(path);
	return buf;
}

/*
 * Runs occcalc with the arguments in args: len bytes, each argument ended
 * by a NUL (so that an argument may hold any other byte). Returns the exit
 * status; occweb_out() and occweb_err() then hold what it printed.
 */
EMSCRIPTEN_KEEPALIVE
int occweb_run(const char *args, int len)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0, i, so, se;
	jmp_buf here;
	struct cli c;

	free(last.out);
	free(last.err);
	memset(&last, 0, sizeof last);
	argv[argc++] = "occcalc";
	for (i = 0; i < len && argc <= MAX_ARGS; i += (int)strlen(args + i) + 1)
		argv[argc++] = (char *)args + i;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	if (redirect(1, "/tmp/.out", &so) != 0 ||
	    redirect(2, "/tmp/.err", &se) != 0)
		return last.status = 70;
	optind = 0;     /* getopt_long starts afresh */
	exit_to = &here;
	cli_init(&c);
	if (setjmp(here) == 0)
		last.status = cli_run(&c, argc, argv);
	else
		last.status = exit_status;
	cli_free(&c);
	fflush(stdout);
	fflush(stderr);
	last.out = restore(1, so, "/tmp/.out", &last.out_len);
	last.err = restore(2, se, "/tmp/.err", &last.err_len);
	return last.status;
}

EMSCRIPTEN_KEEPALIVE
const char *occweb_out(void)
{
	return last.out ? last.out : "";
}

EMSCRIPTEN_KEEPALIVE
const char *occweb_err(void)
{
	return last.err ? last.err : "";
}

int main(void)
{
	setenv("OCCCALC_TABLES", "/tables", 1);
	return 0;
}
