/*
 * trace_run.c - occcalc --trace's runner: the command started with the
 * injection library named in CUDA_INJECTION64_PATH (the driver loads it
 * into every process that starts CUDA: children inherit the variable),
 * waited for, and the trace files its processes wrote found.
 *
 * Files are tied to the run by an id (OCCCALC_TRACE_RUN) in their names
 * and in their header records: another run into the same directory, or
 * one just before, writes under another id, and a file that bears the id
 * only in its name is not read.
 *
 * While the command runs, occcalc keeps the signals that would end it:
 * a Ctrl-C reaches the command from the terminal (occcalc stays to read
 * what was traced), and a signal sent to occcalc alone (kill, a batch
 * system's SIGTERM) is passed on to the command. occcalc is the child
 * subreaper of the command's processes, so that those it leaves running
 * are waited for too (their traces are written when they exit).
 */
#define _XOPEN_SOURCE 700       /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "trace.h"

#define LIB_NAME "occtrace.so"
#define FILE_PREFIX "occcalc-trace."
#define FILE_SUFFIX ".jsonl"
/* The injection library's longest line (src/trace/inject.c LINE_BYTES):
 * a header longer than this is none it wrote. */
#define HEADER_MAX (64u << 10)
#define WAIT_MAX_S 86400L

/* ---- The injection library ---- */

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* $OCCCALC_TRACE_LIB, else the build tree's when occcalc runs from it
 * (as its tables are: session.c), else the installed one. */
static void find_library(struct trace_run *r)
{
	const char *env = getenv(TRACE_ENV_LIB);
	const char *lib = NULL;
#ifdef OCC_BUILD_DIR
	struct stat self, built;
#endif

	if (env && *env)
		lib = env;
#ifdef OCC_BUILD_DIR
	else if (stat("/proc/self/exe", &self) == 0 &&
		 stat(OCC_BUILD_DIR "/occcalc", &built) == 0 &&
		 self.st_dev == built.st_dev && self.st_ino == built.st_ino)
		lib = OCC_BUILD_DIR "/trace/.libs/" LIB_NAME;
#endif
#ifdef OCC_TRACE_LIB
	else
		lib = OCC_TRACE_LIB;
#endif
	if (!lib)
		die("--trace: this occcalc has no injection library");
	if (!is_file(lib))
#ifdef HAVE_CUPTI
		die("--trace: no injection library at %s (set %s to "
		    "occtrace.so, or make install)", lib, TRACE_ENV_LIB);
#else
		die("--trace: occcalc was built without CUPTI (configure found "
		    "none in the CUDA toolkit), so it has no injection "
		    "library");
#endif
	if (!realpath(lib, r->lib))
		die("--trace: %s: %s", lib, strerror(errno));
}

/* ---- Where the files go ---- */

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
 * written must not cost the run. FILE itself is left as it is: it is
 * replaced only once a new trace exists (settle()). */
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
	absolute(trace_out, r->out, sizeof r->out);
	if (stat(r->out, &st) == 0 && S_ISDIR(st.st_mode)) {
		r->out_is_dir = 1;
		return;
	}
	if (trace_out[len - 1] == '/') {
		if (mkdir(r->out, 0777) == 0) {
			r->out_is_dir = 1;
			return;
		}
		if (errno == ENOENT)
			die_usage("--trace-out: cannot make directory '%s': "
				  "its parent does not exist", trace_out);
		die("--trace-out: cannot make directory '%s': %s", trace_out,
		    strerror(errno));
	}
	if (lstat(r->out, &st) == 0 && !S_ISREG(st.st_mode))
		die("--trace-out: '%s' is neither a regular file nor a "
		    "directory", trace_out);
	split_path(r->out, dir, sizeof dir, &base);
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

static long wait_bound(void)
{
	const char *env = getenv(TRACE_ENV_WAIT);
	char *end;
	long v;

	if (!env || !*env)
		return TRACE_WAIT_S;
	errno = 0;
	v = strtol(env, &end, 10);
	if (errno || *end || v < 0 || v > WAIT_MAX_S)
		die_usage("%s: '%s': not a number of seconds from 0 to %ld",
			  TRACE_ENV_WAIT, env, WAIT_MAX_S);
	return v;
}

static void make_temp(struct trace_run *r)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(r->out, sizeof r->out, "%s/occcalc-trace.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(r->out))
		die("--trace: cannot make a directory for the trace (%s): %s",
		    r->out, strerror(errno));
	r->out_is_dir = r->temp_dir = 1;
}

/* Everything in the temporary directory is this run's (mkdtemp's, mode
 * 0700): the files its processes wrote, and whatever else they left. */
static void remove_temp(struct trace_run *r)
{
	char path[PATH_MAX * 2];
	struct dirent *e;
	DIR *d;

	if (!r->temp_dir)
		return;
	r->temp_dir = 0;
	d = opendir(r->out);
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", r->out, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	if (rmdir(r->out) != 0)
		warn("--trace: cannot remove the temporary directory %s: %s",
		     r->out, strerror(errno));
}

/* ---- Running the command ---- */

static void signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* The child: the parent's signal mask back, then the command. An exec
 * that fails sends its errno up the pipe, which exec closes otherwise. */
static _Noreturn void child(char *const *argv, const sigset_t *old, int fd)
{
	int err;

	sigprocmask(SIG_SETMASK, old, NULL);
	execvp(argv[0], argv);
	err = errno;
	if (write(fd, &err, sizeof err) < 0)
		_exit(127);
	_exit(127);
}

/* Waits for pid, passing on the signals sent to occcalc by a process
 * (a terminal's go to the whole process group: the command has its
 * own). Orphans of the command that exit meanwhile are reaped as they
 * come. Returns its wait status. */
static int wait_for(pid_t pid, const sigset_t *set)
{
	siginfo_t si;
	int st = 0, any;
	pid_t w;

	for (;;) {
		if (sigwaitinfo(set, &si) < 0)
			continue;
		if (si.si_signo == SIGCHLD) {
			int done = 0;

			while ((w = waitpid(-1, &any, WNOHANG)) > 0)
				if (w == pid) {
					st = any;
					done = 1;
				}
			if (done)
				return st;
			continue;
		}
		if (si.si_code == SI_USER || si.si_code == SI_QUEUE)
			kill(pid, si.si_signo);
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The processes the command left running are occcalc's children now
 * (the subreaper): a process writes its trace as it exits, and would
 * find a temporary directory gone. Waits up to wait_s seconds, or until
 * a signal reaches occcalc; 1 when some still run. */
static int wait_left(const struct trace_run *r, const char *cmd,
		     const sigset_t *set)
{
	double end = now_s() + (double)r->wait_s, left;
	struct timespec ts;
	siginfo_t si;
	int st, said = 0;
	pid_t w;

	for (;;) {
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			;
		if (w < 0)
			return 0;                /* none left */
		left = end - now_s();
		if (left <= 0)
			return 1;
		if (!said)
			warn("--trace: '%s' has exited; waiting up to %ld s for "
			     "the processes it left running", cmd, r->wait_s);
		said = 1;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		if (sigtimedwait(set, &si, &ts) < 0) {
			if (errno == EAGAIN)
				return 1;
			continue;
		}
		if (si.si_signo != SIGCHLD)
			return 1;
	}
}

static int spawn(struct trace_run *r, char *const *argv)
{
	sigset_t set, old;
	int fds[2], err = 0, st;
	ssize_t n;
	pid_t pid;
	char budget[24];

	snprintf(budget, sizeof budget, "%lu", r->achieved);
	if (setenv(TRACE_ENV_INJECTION, r->lib, 1) != 0 ||
	    setenv(TRACE_ENV_OUT, r->out, 1) != 0 ||
	    setenv(TRACE_ENV_RUN, r->id, 1) != 0 ||
	    (r->achieved && setenv(TRACE_ENV_ACHIEVED, budget, 1) != 0) ||
	    pipe(fds) != 0) {
		remove_temp(r);
		die("--trace: %s", strerror(errno));
	}
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	flush_stdout();
	fflush(stderr);
	signals(&set);
#ifdef PR_SET_CHILD_SUBREAPER
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid < 0) {
		err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		remove_temp(r);
		die("--trace: cannot start '%s': %s", argv[0], strerror(err));
	}
	if (pid == 0)
		child(argv, &old, fds[1]);
	close(fds[1]);
	do
		n = read(fds[0], &err, sizeof err);
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	st = wait_for(pid, &set);
	r->left_running = wait_left(r, argv[0], &set);
	sigprocmask(SIG_SETMASK, &old, NULL);
	unsetenv(TRACE_ENV_INJECTION);
	unsetenv(TRACE_ENV_OUT);
	unsetenv(TRACE_ENV_RUN);
	unsetenv(TRACE_ENV_ACHIEVED);
	if (n == (ssize_t)sizeof err) {
		say("--trace: cannot run '%s': %s", argv[0], strerror(err));
		r->not_run = 1;
		return err == ENOENT ? 127 : 126;
	}
	if (WIFSIGNALED(st)) {
		say("--trace: '%s' was killed by signal %d (%s)", argv[0],
		    WTERMSIG(st), strsignal(WTERMSIG(st)));
		return 128 + WTERMSIG(st);
	}
	return WEXITSTATUS(st);
}

/* ---- The files written ---- */

/* name is PREFIX followed by digits and then SUFFIX. */
static int pid_name(const char *name, const char *prefix, const char *suffix)
{
	size_t lp = strlen(prefix), ls = strlen(suffix), n = strlen(name), i;

	if (n <= lp + ls || strncmp(name, prefix, lp) != 0 ||
	    strcmp(name + n - ls, suffix) != 0)
		return 0;
	for (i = lp; i < n - ls; i++)
		if (name[i] < '0' || name[i] > '9')
			return 0;
	return 1;
}

static size_t skip_space(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
		i++;
	return i;
}

/* Whether the first line of fd holds the key "run" with the value id in
 * its outermost object. A scan that knows strings (a key's quote is
 * never an escaped one inside a string), not a parse: the library
 * parses the line when it reads the file, and refuses one that is no
 * header. */
static int header_is_run(int fd, const char *id)
{
	char *buf = malloc(HEADER_MAX + 1);
	size_t i, j, idlen = strlen(id);
	int depth = 0, in_str = 0, esc = 0, yes = 0;
	ssize_t n;

	if (!buf)
		die("out of memory");
	n = pread(fd, buf, HEADER_MAX, 0);
	buf[n > 0 ? n : 0] = '\0';
	for (i = 0; !yes && buf[i] && buf[i] != '\n'; i++) {
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
		yes = buf[j] == '"' && strncmp(buf + j + 1, id, idlen) == 0 &&
		      buf[j + 1 + idlen] == '"';
	}
	free(buf);
	return yes;
}

/* Opens a file named as this run's and keeps it if its header is this
 * run's too: the run reads what it opened here, nothing renamed in
 * between. */
static void take(struct trace_run *r, const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char **files;
	int *fds;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    !header_is_run(fd, r->id)) {
		warn("--trace: %s bears this run's id in its name but not in "
		     "a header record: not read", path);
		if (fd >= 0)
			close(fd);
		return;
	}
	files = realloc(r->files, (r->n_files + 1) * sizeof *files);
	if (files)
		r->files = files;
	fds = realloc(r->fds, (r->n_files + 1) * sizeof *fds);
	if (fds)
		r->fds = fds;
	if (!files || !fds || !(files[r->n_files] = strdup(path)))
		die("--trace: out of memory");
	fds[r->n_files++] = fd;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory holds occcalc-trace.ID.PID.jsonl; beside FILE, FILE.ID
 * (the first process) and FILE.ID.PID, which sort in that order. */
static void find_files(struct trace_run *r)
{
	char dir[PATH_MAX], path[PATH_MAX * 2], first[PATH_MAX];
	char prefix[PATH_MAX + 2], **names = NULL, **more;
	const char *base, *suffix = FILE_SUFFIX;
	size_t n = 0, i;
	struct dirent *e;
	DIR *d;

	if (r->out_is_dir) {
		snprintf(dir, sizeof dir, "%s", r->out);
		snprintf(prefix, sizeof prefix, FILE_PREFIX "%s.", r->id);
		first[0] = '\0';
	} else {
		split_path(r->out, dir, sizeof dir, &base);
		snprintf(first, sizeof first, "%s.%s", base, r->id);
		snprintf(prefix, sizeof prefix, "%s.", first);
		suffix = "";
	}
	d = opendir(dir);
	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, first) != 0 &&
		    !pid_name(e->d_name, prefix, suffix))
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
		snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir :
			 "", names[i]);
		take(r, path);
		free(names[i]);
	}
	free(names);
}

/* --trace-out FILE: this run's files take their names now that the
 * command has exited (FILE.ID to FILE, FILE.ID.PID to FILE.PID), so that
 * an older FILE is replaced only by a new trace. A temporary directory
 * goes before the files are read, open: whatever ends the read (an
 * error, a refused option, SIGPIPE) leaves nothing behind. */
static void settle(struct trace_run *r)
{
	char to[PATH_MAX + 32], *name;
	size_t i, len = strlen(r->out) + 1 + strlen(r->id);

	if (r->temp_dir && r->left_running) {
		warn("--trace: processes that '%s' left running still run: "
		     "their traces are read as far as they go, and %s is kept "
		     "for them", r->cmd, r->out);
		return;
	}
	if (r->left_running)
		warn("--trace: processes that '%s' left running still run: "
		     "their traces are read as far as they go", r->cmd);
	remove_temp(r);
	for (i = 0; !r->out_is_dir && i < r->n_files; i++) {
		/* files[i] is FILE.ID or FILE.ID.PID */
		snprintf(to, sizeof to, "%s%s", r->out, r->files[i] + len);
		if (rename(r->files[i], to) != 0) {
			warn("--trace: cannot rename %s to %s: %s", r->files[i],
			     to, strerror(errno));
			continue;
		}
		name = strdup(to);
		if (!name)
			die("--trace: out of memory");
		free(r->files[i]);
		r->files[i] = name;
	}
}

int trace_run(struct trace_run *r, const char *trace_out, char *const *argv)
{
	find_library(r);
	r->wait_s = wait_bound();
	r->cmd = argv[0];
	if (trace_out)
		check_out(r, trace_out);
	make_id(r);
	if (!trace_out)
		make_temp(r);
	r->status = spawn(r, argv);
	if (!r->not_run) {
		find_files(r);
		settle(r);
	}
	return r->status;
}

void trace_run_free(struct trace_run *r)
{
	size_t i;

	if (!r->left_running)
		remove_temp(r);
	for (i = 0; i < r->n_files; i++) {
		close(r->fds[i]);
		free(r->files[i]);
	}
	free(r->files);
	free(r->fds);
	memset(r, 0, sizeof *r);
}
