/*
 * input.c - reading the library's data files (tables, the GPU list,
 * compiler reports) safely: only regular files, opened so that a FIFO or a
 * device cannot block the caller, and read a line at a time with a check
 * that the line fits, so that the tail of an overlong line is never taken
 * for a record of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

enum occ_status occ_open_regular(const char *path, FILE **out)
{
	struct stat st;
	int fd, flags;
	FILE *f;

	*out = NULL;
	/* Non-blocking: opening a FIFO for reading would wait for a writer. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return OCC_ERR_IO;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return OCC_ERR_IO;
	}
	/* A directory, FIFO, socket or device may never end or block. */
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = 0;
		return OCC_ERR_NOT_REGULAR;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
	    (f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return OCC_ERR_IO;
	}
	*out = f;
	return OCC_OK;
}

void occ_lines_init(struct occ_lines *r, FILE *f, char *buf, size_t size)
{
	r->f = f;
	r->buf = buf;
	r->size = size;
	r->lineno = 0;
}

enum occ_status occ_lines_next(struct occ_lines *r, char **line)
{
	size_t n = 0;
	int c;

	*line = NULL;
	/* Unlocked: the stream is the reader's alone, and every run reads
	 * all the tables a byte at a time before anything else. */
	while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
		if (n + 1 >= r->size) {
			r->lineno++;
			return OCC_ERR_LINE_TOO_LONG;
		}
		/* A NUL would end the string early and hide the rest. */
		if (c == '\0') {
			r->lineno++;
			return OCC_ERR_SYNTAX;
		}
		r->buf[n++] = (char)c;
	}
	if (ferror(r->f))
		return OCC_ERR_IO;
	if (c == EOF && n == 0)
		return OCC_OK;  /* the end */
	r->buf[n] = '\0';
	r->lineno++;
	*line = r->buf;
	return OCC_OK;
}
