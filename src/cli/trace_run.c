/*
 * trace_run.c - occcalc --trace's runner: the command started with the
 * injection library named in CUDA_INJECTION64_PATH (the driver loads it
 * into every process that starts CUDA: children inherit the variable),
 * waited for, and the trace files its processes wrote found.
 *
 * While the command runs, occcalc keeps the signals that would end it:
 * a Ctrl-C reaches the command from the terminal (occcalc stays to read
 * what was traced), and a signal sent to occcalc alone (kill, a batch
 * system's SIGTERM) is passed on to the command.
 */
#define _XOPEN_SOURCE 700       /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "trace.h"

#define LIB_NAME "occtrace.so"
#define FILE_PREFIX "occcalc-trace."
#define FILE_SUFFIX ".jsonl"
/* File times are the kernel's coarse clock, a tick behind the one read
 * at the start: a file written in the run may look this much older. */
#define CLOCK_SLACK_NS 50000000L

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

static void prepare_out(struct trace_run *r, const char *trace_out)
{
	const char *tmp = getenv("TMPDIR");
	size_t len = trace_out ? strlen(trace_out) : 0;
	struct stat st;

	if (!trace_out) {
		snprintf(r->out, sizeof r->out, "%s/occcalc-trace.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(r->out))
			die("--trace: cannot make a directory for the trace "
			    "(%s): %s", r->out, strerror(errno));
		r->out_is_dir = r->temp_dir = 1;
		return;
	}
	if (!len)
		die_usage("--trace-out: an empty path");
	if (len >= PATH_MAX)
		die_usage("--trace-out: '%s': the path is too long", trace_out);
	absolute(trace_out, r->out, sizeof r->out);
	if (stat(r->out, &st) == 0 && S_ISDIR(st.st_mode)) {
		r->out_is_dir = 1;
	} else if (trace_out[len - 1] == '/') {
		if (mkdir(r->out, 0777) != 0)
			die("--trace-out: cannot make directory '%s': %s",
			    trace_out, strerror(errno));
		r->out_is_dir = 1;
	} else if (lstat(r->out, &st) == 0 && !S_ISREG(st.st_mode)) {
		die("--trace-out: '%s' is neither a regular file nor a "
		    "directory", trace_out);
	} else if (unlink(r->out) != 0 && errno != ENOENT) {
		/* The first process to start CUDA takes FILE with O_EXCL. */
		die("--trace-out: cannot replace '%s': %s", trace_out,
		    strerror(errno));
	}
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
 * own). Returns its wait status. */
static int wait_for(pid_t pid, const sigset_t *set)
{
	siginfo_t si;
	int st;

	for (;;) {
		if (sigwaitinfo(set, &si) < 0)
			continue;
		if (si.si_signo == SIGCHLD) {
			pid_t w = waitpid(pid, &st, WNOHANG);

			if (w == pid)
				return st;
			continue;
		}
		if (si.si_code == SI_USER || si.si_code == SI_QUEUE)
			kill(pid, si.si_signo);
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
	    (r->achieved && setenv(TRACE_ENV_ACHIEVED, budget, 1) != 0))
		die("--trace: %s", strerror(errno));
	flush_stdout();
	fflush(stderr);
	signals(&set);
	if (pipe(fds) != 0 || fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0)
		die("--trace: %s", strerror(errno));
	sigprocmask(SIG_BLOCK, &set, &old);
	clock_gettime(CLOCK_REALTIME, &r->start);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		die("--trace: cannot start '%s': %s", argv[0], strerror(errno));
	}
	if (pid == 0)
		child(argv, &old, fds[1]);
	close(fds[1]);
	do
		n = read(fds[0], &err, sizeof err);
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	st = wait_for(pid, &set);
	sigprocmask(SIG_SETMASK, &old, NULL);
	unsetenv(TRACE_ENV_INJECTION);
	unsetenv(TRACE_ENV_OUT);
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

static int newer(const char *path, const struct timespec *t)
{
	struct stat st;
	long long ns, t_ns;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	t_ns = (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
	return ns >= t_ns - CLOCK_SLACK_NS;
}

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

static void add_file(struct trace_run *r, const char *path)
{
	char **more = realloc(r->files, (r->n_files + 1) * sizeof *more);

	if (!more || !(more[r->n_files] = strdup(path)))
		die("--trace: out of memory");
	r->files = more;
	r->n_files++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_files(struct trace_run *r)
{
	char dir[PATH_MAX], path[PATH_MAX * 2], base[PATH_MAX];
	const char *prefix = FILE_PREFIX, *suffix = FILE_SUFFIX;
	char *slash;
	DIR *d;
	struct dirent *e;
	size_t first = 0;

	snprintf(dir, sizeof dir, "%s", r->out);
	if (!r->out_is_dir) {
		/* FILE, then FILE.PID for the processes after the first. */
		slash = strrchr(dir, '/');
		if ((size_t)snprintf(base, sizeof base, "%s.", slash ? slash + 1 :
			     dir) >= sizeof base)
			return;
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		else
			snprintf(dir, sizeof dir, ".");
		prefix = base;
		suffix = "";
		if (newer(r->out, &r->start)) {
			add_file(r, r->out);
			first = 1;
		}
	}
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (!pid_name(e->d_name, prefix, suffix))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (newer(path, &r->start))
			add_file(r, path);
	}
	closedir(d);
	if (r->n_files > first)
		qsort(r->files + first, r->n_files - first, sizeof *r->files,
		      by_name);
}

int trace_run(struct trace_run *r, const char *trace_out, char *const *argv)
{
	int status;

	find_library(r);
	prepare_out(r, trace_out);
	status = r->status = spawn(r, argv);
	find_files(r);
	return status;
}

void trace_run_free(struct trace_run *r)
{
	size_t i;

	if (r->temp_dir) {
		for (i = 0; i < r->n_files; i++)
			unlink(r->files[i]);
		rmdir(r->out);
	}
	for (i = 0; i < r->n_files; i++)
		free(r->files[i]);
	free(r->files);
	memset(r, 0, sizeof *r);
}
