/*
 * file.c - the trace file of one process: where it goes
 * (OCCCALC_TRACE_OUT, named with OCCCALC_TRACE_RUN's id where the runner
 * gives one), and whole records written as they come.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"

#define FILE_BUF (1u << 20)

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* O_EXCL for the file named by the runner: the first process to start
 * CUDA takes it, the others (DataLoader workers, ranks) fall to
 * FILE.PID. Opened without blocking: a FIFO without a reader is an
 * error, not a wait. */
static int open_new(const char *path, int excl)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK |
		    (excl ? O_EXCL : O_TRUNC);
	int fd = open(path, flags, 0644);

	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* An id of letters, digits, '-' and '_' only: it goes into file names. */
static void run_id(char *out)
{
	const char *id = getenv(TRACE_ENV_RUN);
	size_t n = id ? strspn(id, "0123456789abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ-_") : 0;

	out[0] = '\0';
	if (id && n && !id[n] && n <= TRACE_RUN_MAX)
		memcpy(out, id, n + 1);
}

/* f->path from fmt; -1 when it does not fit. */
static int name(struct trace_file *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(f->path, sizeof f->path, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= sizeof f->path ? -1 : 0;
}

int trace_file_open(struct trace_file *f)
{
	const char *out = getenv(TRACE_ENV_OUT);
	long pid = (long)getpid();
	const char *run;

	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->owner = getpid();
	run_id(f->run);
	run = f->run;
	if (!out || !*out)
		out = ".";
	if (is_dir(out)) {
		if (*run ? name(f, "%s/occcalc-trace.%s.%ld.jsonl", out, run,
				pid) :
			   name(f, "%s/occcalc-trace.%ld.jsonl", out, pid))
			return -1;
		f->fd = open_new(f->path, 0);
	} else {
		/* With a run id, FILE.RUN: the runner renames it over FILE
		 * once the command has exited, so that an older FILE stays
		 * until a new trace replaces it. */
		if (*run ? name(f, "%s.%s", out, run) : name(f, "%s", out))
			return -1;
		f->fd = open_new(f->path, 1);
		if (f->fd < 0 && errno == EEXIST) {
			if (*run ? name(f, "%s.%s.%ld", out, run, pid) :
				   name(f, "%s.%ld", out, pid))
				return -1;
			f->fd = open_new(f->path, 0);
		}
	}
	if (f->fd < 0)
		return -1;
	f->cap = FILE_BUF;
	f->buf = malloc(f->cap);
	if (!f->buf) {
		close(f->fd);
		f->fd = -1;
		return -1;
	}
	return 0;
}

static void write_all(struct trace_file *f, const char *p, size_t n)
{
	while (n && !f->failed) {
		ssize_t w = write(f->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "occcalc trace: %s: %s; launches from "
				"here on are lost\n", f->path,
				w < 0 ? strerror(errno) : "nothing written");
			f->failed = 1;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

void trace_file_flush(struct trace_file *f)
{
	if (f->fd >= 0 && f->len)
		write_all(f, f->buf, f->len);
	f->len = 0;
}

void trace_file_put(struct trace_file *f, const char *s, size_t n)
{
	if (f->fd < 0 || f->failed)
		return;
	if (f->len + n > f->cap)
		trace_file_flush(f);
	if (n > f->cap) {
		write_all(f, s, n);
		return;
	}
	memcpy(f->buf + f->len, s, n);
	f->len += n;
	if (f->len > f->cap / 2)
		trace_file_flush(f);
}

void trace_file_close(struct trace_file *f)
{
	trace_file_flush(f);
	if (f->fd >= 0)
		close(f->fd);
	free(f->buf);
	f->buf = NULL;
	f->fd = -1;
}
