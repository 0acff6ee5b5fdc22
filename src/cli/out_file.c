/*
 * out_file.c - the files written besides standard output (--plot): opened
 * so that a FIFO no process reads is an error rather than a wait, and
 * closed so that a failed write is seen.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

FILE *out_file_open(const char *path)
{
	int fd, flags;
	FILE *f;

	if (strcmp(path, "-") == 0)
		return stdout;
	/* Non-blocking: opening a FIFO for writing would wait for a reader.
	 * A FIFO or device open elsewhere is then written like a pipe. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY,
		  0666);
	if (fd < 0 && errno == ENXIO)
		die("%s: cannot write: a FIFO that no process reads", path);
	if (fd < 0)
		die("%s: cannot write: %s", path, strerror(errno));
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
	    (f = fdopen(fd, "w")) == NULL) {
		close(fd);
		die("%s: cannot write: %s", path, strerror(errno));
	}
	return f;
}

int out_file_close(FILE *f)
{
	if (f == stdout)
		return fflush(f) != 0 || ferror(f) ? -1 : 0;
	return fclose(f);
}
