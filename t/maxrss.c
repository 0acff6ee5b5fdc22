/*
 * maxrss.c - maxrss FILE COMMAND ARGS...: runs COMMAND, writes the most
 * memory it held resident (its max RSS, in KB, from wait4's rusage) to
 * FILE, and exits as COMMAND did (128 + the signal that ended it). For
 * t/hostile.sh, which checks occcalc's memory bounds on hostile input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int status;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: maxrss FILE COMMAND ARGS...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("maxrss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("maxrss: wait4");
		return 2;
	}
	if (!(f = fopen(argv[1], "w")) || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status)
	       : 128 + WTERMSIG(status);
}
