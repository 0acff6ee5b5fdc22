/*
 * trace_run.c - occcalc --trace's runner: the command started with the
 * injection library named in CUDA_INJECTION64_PATH (the driver loads it
 * into every process that starts CUDA: children inherit the variable),
 * waited for, and the trace files its processes wrote found.
 *
 * Where the files go, and finding them after: trace_files.c.
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
	    (r->calls && setenv(TRACE_ENV_MODE, "callbacks", 1) != 0) ||
	    pipe(fds) != 0) {
		trace_out_remove(r);
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
		trace_out_remove(r);
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
	unsetenv(TRACE_ENV_MODE);
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

int trace_run(struct trace_run *r, const char *trace_out, char *const *argv)
{
	find_library(r);
	r->wait_s = wait_bound();
	r->cmd = argv[0];
	trace_out_prepare(r, trace_out);
	r->status = spawn(r, argv);
	if (!r->not_run)
		trace_out_collect(r);
	return r->status;
}

void trace_run_free(struct trace_run *r)
{
	size_t i;

	if (!r->left_running)
		trace_out_remove(r);
	for (i = 0; i < r->n_files; i++) {
		close(r->fds[i]);
		free(r->files[i]);
	}
	free(r->files);
	free(r->fds);
	memset(r, 0, sizeof *r);
}
