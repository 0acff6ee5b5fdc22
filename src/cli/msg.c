/*
 * msg.c - the message edge: every line occcalc writes for the user on
 * stderr ("occcalc: ..."), and the one function that reports a data
 * file's problem (a table, the GPU list, a compiler report).
 *
 * A message is always exactly one line: it often quotes what the user
 * typed or what a file holds, and a newline or a terminal escape in an
 * argument must not make a second line or reach the terminal. So a
 * message is formatted whole, then written with every control character
 * escaped, C-style (\n, \t, \x1b).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The length of the UTF-8 character at s (shortest form, not a
 * surrogate, up to U+10FFFF), or 0 when s holds none: a byte cut from
 * one ('%.12s' of a longer text) or a Latin-1 file name's. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2, i;
	unsigned long cp = s[0] & (0x7f >> n);

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* How the character at s is shown, into out (at most 5 bytes and its
 * NUL): itself, or its escape (control characters, DEL too, and bytes
 * that are not UTF-8: \xc3). Returns the bytes of s it stands for. */
static int escape_char(const char *s, char out[8])
{
	static const char named[] = "\a\b\t\n\v\f\r", letters[] = "abtnvfr";
	unsigned char c = (unsigned char)*s;
	const char *p;
	int len;

	if (c >= 0x80 && (len = utf8_len((const unsigned char *)s))) {
		memcpy(out, s, (size_t)len);
		out[len] = '\0';
		return len;
	}
	if (c >= 0x20 && c < 0x7f)
		snprintf(out, 8, "%c", c);
	else if ((p = strchr(named, c)) != NULL)
		snprintf(out, 8, "\\%c", letters[p - named]);
	else
		snprintf(out, 8, "\\x%02x", c);
	return 1;
}

/* s escaped: one line, safe to show. */
static void put_escaped(FILE *f, const char *s)
{
	char e[8];

	while (*s) {
		s += escape_char(s, e);
		fputs(e, f);
	}
}

size_t escape_text(char *buf, size_t n, const char *s)
{
	size_t len = 0, el;
	char e[8];

	if (!n)
		return 0;
	while (*s) {
		int used = escape_char(s, e);

		el = strlen(e);
		if (len + el >= n)
			break;
		memcpy(buf + len, e, el);
		len += el;
		s += used;
	}
	buf[len] = '\0';
	return len;
}

/* "occcalc: " prefix, the message, one newline. */
static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (buf = malloc((size_t)n + 1)) != NULL)
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	else if (n >= (int)sizeof small)
		buf = small;   /* out of memory: the message cut short */
	va_end(again);
	fputs(prefix, stderr);
	put_escaped(stderr, n < 0 ? fmt : buf);
	fputc('\n', stderr);
	fflush(stderr);
	if (buf != small)
		free(buf);
}

static _Noreturn void vdie(int status, const char *fmt, va_list ap)
{
	vmessage("occcalc: ", fmt, ap);
	cli_exit(status);
}

_Noreturn void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
}

_Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_FAILURE, fmt, ap);
}

/* Something the user should know that does not stop the run. */
void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("occcalc: warning: ", fmt, ap);
	va_end(ap);
}

/* The line of a failure that a mode returns as its exit status rather
 * than by die(), as a run where no configuration can launch. */
void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("occcalc: ", fmt, ap);
	va_end(ap);
}

/* Why a data file cannot be read, with its name, its line and the limit
 * it broke; hint is added where the file was not found (or ""). err is
 * errno as the library left it. */
_Noreturn void die_data(enum occ_status st, const struct occ_diag *d, int err,
	      const char *hint)
{
	const char *what = d->line > 0 && d->key[0] ? d->key : NULL;

	switch (st) {
	case OCC_ERR_IO:
		die("%s: cannot read: %s%s", d->file,
		    err ? strerror(err) : "read error", d->line ? "" : hint);
	case OCC_ERR_NOT_REGULAR:
		die("%s: not a regular file (a FIFO, a device or a directory "
		    "is not read)", d->file);
	case OCC_ERR_LINE_TOO_LONG:
		die("%s:%d: line too long (at most %llu characters)", d->file,
		    d->line, (unsigned long long)d->limit);
	case OCC_ERR_RANGE:
		die("%s:%d: %s: above the limit of %llu", d->file, d->line,
		    d->key, (unsigned long long)d->limit);
	case OCC_ERR_NO_TABLES:
		die("%s: %s%s", d->file, occ_strerror(st), hint);
	default:
		break;
	}
	if (what)
		die("%s:%d: %s: %s", d->file, d->line, what, occ_strerror(st));
	if (d->line > 0)
		die("%s:%d: %s", d->file, d->line, occ_strerror(st));
	if (d->key[0])
		die("%s: %s: %s", d->file, d->key, occ_strerror(st));
	die("%s: %s", d->file, occ_strerror(st));
}

/* ---- Progress: one line on a terminal, rewritten in place ---- */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void progress_start(struct progress *p)
{
	memset(p, 0, sizeof *p);
	p->tty = isatty(STDERR_FILENO);
	p->start = now_s();
}

void progress_show(struct progress *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	double t;

	if (!p->tty)
		return;
	t = now_s();
	/* Only what takes more than a second, five times a second. */
	if (t - p->start < 1.0 || t - p->last < 0.2)
		return;
	p->last = t;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fputs("\rocccalc: ", stderr);
	put_escaped(stderr, line);
	fputs("\x1b[K", stderr);
	fflush(stderr);
	p->shown = 1;
}

void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\x1b[K", stderr);
	fflush(stderr);
	p->shown = 0;
}
