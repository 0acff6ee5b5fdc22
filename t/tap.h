/* tap.h - a few lines of TAP for the C tests (internal to t/). */
#ifndef OCC_TAP_H
#define OCC_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
}

/* One assertion: prints "ok N - what" or "not ok N - what". */
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline int tap_done(void)
{
	return tap_failed ? 1 : 0;
}

#endif
