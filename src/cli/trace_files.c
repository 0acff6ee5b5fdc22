/*
 * trace_files.c - where a --trace run's files go, and finding them once
 * the command has exited.
 *
 * Every run writes into a directory of its own, made for it (mkdtemp):
 * in $TMPDIR without --trace-out, else inside --trace-out's directory,
 * or beside its FILE. OCCCALC_TRACE_OUT names that directory (or FILE's
 * name in it), so the files a run reads are those its own processes
 * wrote: another run into the same --trace-out, or one just before,
 * writes into a directory of its own. Their headers bear the run's id
 * (OCCCALC_TRACE_RUN) too, and a file whose header names another run is
 * not read. Once the command has exited the files are opened, then take
 * their names in --trace-out (an older FILE is replaced only by a new
 * trace), and the run's directory goes: whatever ends the read after
 * that (an error, a refused option, SIGPIPE) leaves nothing behind.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "trace.h"

#define FILE_PREFIX "occcalc-trace."
#define FILE_SUFFIX ".jsonl"
/* The run's directory inside --trace-out's (or beside its FILE). */
#define RUN_DIR ".occcalc-run."
/* The injection library's longest line (src/trace/inject.c LINE_BYTES):
 * a header longer than this is none it wrote. */
#define HEADER_MAX (64u << 10)

/* ---- Before the command ---- */

/* OCCCALC_TRACE_OUT as an absolute path: the command may change its
 * directory before it starts CUDA. */
static void absolute(const char *path, char *out, size_t n)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		snprintf(out, n, "%s", path);
	else if ((size_t)snprintf(out, n, "%s/%s", cwd, path) >= n)
		die_usage("--trace-out: '%s': the path is too long", path);
}

/* dir gets the directory of path (absolute), base its last name. */
static void split_path(const char *path, char *dir, size_t n,
		       const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash + 1;
	snprintf(dir, n, "%.*s", slash == path ? 1 : (int)(slash - path),
		 path);
}

/* Everything is checked before the command runs: a path that cannot be
 * written must not cost the run. FILE itself is left as it is. */
static void check_out(struct trace_run *r, const char *trace_out)
{
	size_t len = strlen(trace_out);
	char dir[PATH_MAX];
	const char *base;
	struct stat st;

	if (!len)
		die_usage("--trace-out: an empty path");
	if (len >= PATH_MAX)
		die_usage("--trace-out: '%s': the path is too long", trace_out);
	absolute(trace_out, r->dest, sizeof r->dest);
	/* DIR/ and DIR name the same directory, and its files' paths. */
	for (len = strlen(r->dest); len > 1 && r->dest[len - 1] == '/'; len--)
		r->dest[len - 1] = '\0';
	if (stat(r->dest, &st) == 0 && S_ISDIR(st.st_mode)) {
		r->out_is_dir = 1;
		return;
	}
	if (trace_out[strlen(trace_out) - 1] == '/') {
		if (mkdir(r->dest, 0777) == 0) {
			r->out_is_dir = 1;
			return;
		}
		if (errno == ENOENT)
			die_usage("--trace-out: cannot make directory '%s': "
				  "its parent does not exist", trace_out);
		die("--trace-out: cannot make directory '%s': %s", trace_out,
		    strerror(errno));
	}
	if (lstat(r->dest, &st) == 0 && !S_ISREG(st.st_mode))
		die("--trace-out: '%s' is neither a regular file nor a "
		    "directory", trace_out);
	split_path(r->dest, dir, sizeof dir, &base);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		die_usage("--trace-out: '%s': no directory '%s' to write it in",
			  trace_out, dir);
	if (!*base)
		die_usage("--trace-out: '%s' names no file", trace_out);
	if (access(dir, W_OK | X_OK) != 0)
		die("--trace-out: cannot write in '%s': %s", dir,
		    strerror(errno));
}

/* An id no other run has: random, else the time and the process. */
static void make_id(struct trace_run *r)
{
	unsigned char b[8];
	struct timespec t;
	size_t i;

	if (getrandom(b, sizeof b, GRND_NONBLOCK) != (ssize_t)sizeof b) {
		clock_gettime(CLOCK_REALTIME, &t);
		snprintf(r->id, sizeof r->id, "%lx%lx%lx", (long)getpid(),
			 (long)t.tv_sec, t.tv_nsec);
		return;
	}
	for (i = 0; i < sizeof b; i++)
		snprintf(r->id + 2 * i, 3, "%02x", b[i]);
}

/* The run's own directory (mode 0700), and OCCCALC_TRACE_OUT in it. */
static void make_run_dir(struct trace_run *r)
{
	const char *tmp = getenv("TMPDIR"), *base;
	char dir[PATH_MAX];
	int n;

	if (!r->dest[0])
		n = snprintf(r->run_dir, sizeof r->run_dir,
			     "%s/occcalc-trace.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp");
	else if (r->out_is_dir)
		n = snprintf(r->run_dir, sizeof r->run_dir, "%s/" RUN_DIR
			     "XXXXXX", r->dest);
	else {
		split_path(r->dest, dir, sizeof dir, &base);
		n = snprintf(r->run_dir, sizeof r->run_dir, "%s/.%s" RUN_DIR
			     "XXXXXX", strcmp(dir, "/") ? dir : "", base);
	}
	if (n < 0 || (size_t)n >= sizeof r->run_dir - 16)
		die_usage("--trace-out: '%s': the path is too long", r->dest);
	if (!mkdtemp(r->run_dir))
		die("--trace: cannot make a directory for the trace (%s): %s",
		    r->run_dir, strerror(errno));
	r->have_run_dir = 1;
	if (r->dest[0] && !r->out_is_dir)
		split_path(r->dest, dir, sizeof dir, &base);
	else
		base = NULL;
	n = base ? snprintf(r->out, sizeof r->out, "%s/%s", r->run_dir, base)
		 : snprintf(r->out, sizeof r->out, "%s", r->run_dir);
	if (n < 0 || (size_t)n >= sizeof r->out) {
		trace_out_remove(r);
		die_usage("--trace-out: '%s': the path is too long", r->dest);
	}
}

void trace_out_prepare(struct trace_run *r, const char *trace_out)
{
	if (trace_out)
		check_out(r, trace_out);
	make_id(r);
	make_run_dir(r);
}

/* Removes the run's directory: without --trace-out, with whatever its
 * processes left in it; else only once empty (its files have taken
 * their names), or it says what is kept. */
void trace_out_remove(struct trace_run *r)
{
	char path[PATH_MAX * 2];
	struct dirent *e;
	DIR *d;

	if (!r->have_run_dir)
		return;
	r->have_run_dir = 0;
	d = r->dest[0] ? NULL : opendir(r->run_dir);
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", r->run_dir,
				 e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	if (rmdir(r->run_dir) != 0)
		warn("--trace: cannot remove the run's directory %s: %s",
		     r->run_dir, strerror(errno));
}

/* ---- After the command ---- */

static size_t skip_space(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
		i++;
	return i;
}

/* The run id in the first line of fd: its outermost object's key "run".
 * 1 when it is id, -1 another, 0 none (a file the library of an older
 * occcalc wrote, or a stand-in's). A scan that knows strings, not a
 * parse: the library parses the line when it reads the file, and
 * refuses one that is no header. */
static int header_run(int fd, const char *id)
{
	char *buf = malloc(HEADER_MAX + 1);
	size_t i, j, idlen = strlen(id);
	int depth = 0, in_str = 0, esc = 0, found = 0;
	ssize_t n;

	if (!buf)
		die("out of memory");
	n = pread(fd, buf, HEADER_MAX, 0);
	buf[n > 0 ? n : 0] = '\0';
	for (i = 0; !found && buf[i] && buf[i] != '\n'; i++) {
		if (in_str) {
			esc = !esc && buf[i] == '\\';
			in_str = esc || buf[i] != '"';
			continue;
		}
		if (buf[i] == '{' || buf[i] == '[')
			depth++;
		else if (buf[i] == '}' || buf[i] == ']')
			depth--;
		if (buf[i] != '"')
			continue;
		in_str = 1;
		if (depth != 1 || strncmp(buf + i, "\"run\"", 5) != 0)
			continue;
		j = skip_space(buf, i + 5);
		if (buf[j] != ':')
			continue;
		j = skip_space(buf, j + 1);
		found = buf[j] == '"' && strncmp(buf + j + 1, id, idlen) == 0 &&
			buf[j + 1 + idlen] == '"' ? 1 : -1;
	}
	free(buf);
	return found;
}

/* Where a file of the run's directory goes: --trace-out's directory, its
 * name with the run's id (occcalc-trace.ID.PID.jsonl), or FILE, FILE.PID
 * (its name in the run's directory BASE[.ID][.PID]). 0: not a name the
 * injection library gives. */
static int final_name(const struct trace_run *r, const char *name,
		      char *to, size_t n)
{
	size_t lp, ls = strlen(FILE_SUFFIX), len = strlen(name), k;
	const char *base, *rest;
	char dir[PATH_MAX];

	if (r->out_is_dir || !r->dest[0]) {
		lp = strlen(FILE_PREFIX);
		if (len <= lp + ls || strncmp(name, FILE_PREFIX, lp) != 0 ||
		    strcmp(name + len - ls, FILE_SUFFIX) != 0)
			return 0;
		rest = name + lp;
		k = strlen(r->id);
		if (strncmp(rest, r->id, k) == 0 && rest[k] == '.')
			rest += k + 1;
		if (rest == name + len - ls ||
		    strspn(rest, "0123456789") != (size_t)(name + len - ls - rest))
			return 0;
		snprintf(to, n, "%s/%s%s.%s", r->dest, FILE_PREFIX, r->id, rest);
		return 1;
	}
	split_path(r->dest, dir, sizeof dir, &base);
	lp = strlen(base);
	if (strncmp(name, base, lp) != 0)
		return 0;
	rest = name + lp;
	k = strlen(r->id);
	if (rest[0] == '.' && strncmp(rest + 1, r->id, k) == 0 &&
	    (rest[1 + k] == '.' || !rest[1 + k]))
		rest += 1 + k;
	if (*rest && (rest[0] != '.' || !rest[1] ||
		      strspn(rest + 1, "0123456789") != strlen(rest + 1)))
		return 0;
	snprintf(to, n, "%s%s", r->dest, rest);
	return 1;
}

static void keep(struct trace_run *r, const char *path, int fd)
{
	char **files = realloc(r->files, (r->n_files + 1) * sizeof *files);
	int *fds;

	if (files)
		r->files = files;
	fds = realloc(r->fds, (r->n_files + 1) * sizeof *fds);
	if (fds)
		r->fds = fds;
	if (!files || !fds || !(files[r->n_files] = strdup(path)))
		die("--trace: out of memory");
	fds[r->n_files++] = fd;
}

/* Opens a file of the run's directory and keeps it, under the name it
 * takes (renamed now, where --trace-out names one): the run reads what
 * it opened, nothing renamed in between. */
static void take(struct trace_run *r, const char *name)
{
	char path[PATH_MAX * 2], to[PATH_MAX * 2];
	int fd, named = final_name(r, name, to, sizeof to);
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", r->run_dir, name);
	if (!named) {
		warn("--trace: %s: not a trace file's name: not read", path);
		return;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    header_run(fd, r->id) < 0) {
		warn("--trace: %s: %s: not read", path, fd < 0 ? strerror(errno)
		     : S_ISREG(st.st_mode) ? "its header names another run"
		     : "not a regular file");
		if (fd >= 0)
			close(fd);
		return;
	}
	if (r->dest[0] && rename(path, to) != 0) {
		warn("--trace: cannot rename %s to %s: %s", path, to,
		     strerror(errno));
		snprintf(to, sizeof to, "%s", path);
	}
	keep(r, r->dest[0] ? to : path, fd);
}

/* FILE (the first process's) sorts before FILE.PID; then by name. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void trace_out_collect(struct trace_run *r)
{
	char **names = NULL, **more;
	struct dirent *e;
	size_t n = 0, i;
	DIR *d = opendir(r->run_dir);

	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		more = realloc(names, (n + 1) * sizeof *names);
		if (!more || !(more[n] = strdup(e->d_name)))
			die("--trace: out of memory");
		names = more;
		n++;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		take(r, names[i]);
		free(names[i]);
	}
	free(names);
	if (r->left_running) {
		warn("--trace: processes that '%s' left running still run: "
		     "their traces are read as far as they go, and %s is kept "
		     "for them", r->cmd, r->run_dir);
		r->have_run_dir = 0;
		return;
	}
	trace_out_remove(r);
}
