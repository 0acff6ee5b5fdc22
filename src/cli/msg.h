/* msg.h - the message edge (msg.c): every message occcalc writes is one
 * line on stderr, "occcalc: ...", and the run's exit. */
#ifndef OCC_CLI_MSG_H
#define OCC_CLI_MSG_H

#include "occcalc.h"

#define EXIT_USAGE 2

/* Every message quotes what the user gave escaped (\n, \t, \x1b): it is
 * always one line. */

/* s as a message shows it, into buf of n bytes (cut short at a whole
 * character where longer): what a trace or a binary names (a kernel, a
 * device) is written so in text output too, so that it cannot move the
 * terminal's cursor or split a row. Returns its length. */
size_t escape_text(char *buf, size_t n, const char *s);

/* A failure while doing what was asked: exit 1. */
void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* An error in how occcalc was called: exit 2. */
void die_usage(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The line of a failure a mode returns as its status, not by die():
 * "occcalc: ...". */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A data file (a table, the GPU list, a compiler report) that cannot be
 * read, from the library's status and diag: the file, its line and the
 * limit broken; err is errno; hint follows a file not found. Exit 1. */
void die_data(enum occ_status st, const struct occ_diag *d, int err,
	      const char *hint) __attribute__((noreturn));
/* A line of progress on stderr, rewritten in place, only on a terminal
 * and only for what has taken more than a second; cleared before any
 * other message and at the end. */
struct progress {
	double start, last;
	int tty, shown;
};
void progress_start(struct progress *p);
void progress_show(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void progress_clear(struct progress *p);
/* Ends the run with status: exit() in the program (occcalc.c); the
 * in-process fuzz harness (fuzz/cli.c) returns to its caller instead. */
void cli_exit(int status) __attribute__((noreturn));

#endif
