/*
 * kernels_input.c - where --kernels' bytes come from: a regular file,
 * opened so that a FIFO cannot block, or standard input (redirected from
 * a file: read as that file; from a pipe: a binary spooled to a
 * temporary file, or held in memory for --api). By their first bytes a
 * binary goes to the library, read through the reader's callbacks
 * (kernels_read.c), and anything else is a compiler report's text, read
 * whole within KERNELS_TEXT_MAX.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kernels.h"

/* A binary on standard input from a pipe is copied to a temporary file
 * (the reader seeks, a host ELF's section headers are at its end) and
 * read as a file is; in memory only for --api, which loads its bytes, or
 * where no temporary file can be made. Either holds at most this much.
 * Redirected from a file, it is read as that file is. */
#define STDIN_MAX (UINT64_C(2) << 30)

/* The most fd's bytes so far (buf, n of them) may grow to: a compiler
 * report's limit when they are no binary, bin_max when they are one. */
static uint64_t slurp_limit(const unsigned char *buf, size_t n,
			    uint64_t bin_max)
{
	return occ_bin_sniff(buf, n) ? bin_max : KERNELS_TEXT_MAX;
}

static _Noreturn void slurp_refused(const char *input, const unsigned char *buf,
				    size_t n, uint64_t max)
{
	if (!occ_bin_sniff(buf, n))
		die("%s: more than %llu bytes that are no binary: more than a "
		    "compiler report", input, (unsigned long long)max);
	die("%s: a binary of more than %llu bytes from a pipe: give its "
	    "file, or redirect it (< FILE), and it is read as a file is",
	    input, (unsigned long long)max);
}

/* Up to n bytes of fd into buf, fewer only at its end: how many. */
static size_t read_some(int fd, const char *input, unsigned char *buf,
			size_t n)
{
	size_t have = 0;
	ssize_t got;

	while (have < n) {
		got = read(fd, buf + have, n - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			die("%s: cannot read: %s", input, strerror(errno));
		if (got == 0)
			break;
		have += (size_t)got;
	}
	return have;
}

/* fd's bytes, whole, after the first n already read (head); refused as
 * they arrive, once past what they may be (slurp_limit), so that an
 * endless or huge input holds no more. */
static unsigned char *slurp(int fd, const char *input, uint64_t bin_max,
			    const unsigned char *head, size_t n, size_t *len)
{
	unsigned char *buf = NULL, *nb;
	size_t cap = 0;
	uint64_t max;
	size_t got;

	if (n) {
		cap = 1 << 16;
		if (!(buf = malloc(cap + 1)))
			die("%s: out of memory", input);
		memcpy(buf, head, n);
	}
	for (;;) {
		if (n == cap) {
			max = n ? slurp_limit(buf, n, bin_max) : KERNELS_TEXT_MAX;
			if ((uint64_t)n > max)
				slurp_refused(input, buf, n, max);
			cap = cap ? 2 * cap : 1 << 16;
			if ((uint64_t)cap > max + 1)
				cap = (size_t)max + 1;
			if (!(nb = realloc(buf, cap + 1)))
				die("%s: out of memory after %zu bytes", input,
				    n);
			buf = nb;
		}
		got = read_some(fd, input, buf + n, cap - n < 1 << 16
				? cap - n : 1 << 16);
		if (got == 0)
			break;
		n += got;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A temporary file, already unlinked, or -1 where none can be made. */
static int temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, sizeof path, "%s/occcalc.XXXXXX", dir) >=
	    (int)sizeof path)
		return -1;
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

/* The rest of fd after head (n bytes) copied to a temporary file, at
 * most STDIN_MAX bytes in all: the file, or -1 where none can be made;
 * its size in *size. */
static int spool(int fd, const char *input, const unsigned char *head,
		 size_t n, uint64_t *size)
{
	unsigned char buf[1 << 16];
	uint64_t total = 0;
	size_t got = n;
	int t = temp_file();

	if (t < 0)
		return -1;
	memcpy(buf, head, n);
	do {
		size_t done = 0;

		total += got;
		if (total > STDIN_MAX)
			slurp_refused(input, head, n, STDIN_MAX);
		while (done < got) {
			ssize_t w = write(t, buf + done, got - done);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				die("%s: cannot copy to a temporary file: %s",
				    input, strerror(errno));
			done += (size_t)w;
		}
	} while ((got = read_some(fd, input, buf, sizeof buf)) > 0);
	*size = total;
	return t;
}

/* A compiler report's text, read whole (bounded by KERNELS_TEXT_MAX); fd
 * closed after when close_fd. */
static void read_text(struct reader *r, int fd, int close_fd)
{
	size_t len;
	unsigned char *text = slurp(fd, r->input, KERNELS_TEXT_MAX, NULL, 0, &len);

	if (close_fd)
		close(fd);
	r->l->report = text;     /* freed with the list, should reading fail */
	reader_report(r, text, len);
	free(text);
	r->l->report = NULL;
}

/* A regular file open on fd (path's, or standard input's when path is
 * NULL): a binary read in pieces, as its headers say; else a report,
 * refused from its size before any is read when it is larger than one
 * can be. fd is closed unless it is standard input. */
static void read_regular(struct reader *r, int fd, const char *path,
			 uint64_t size)
{
	unsigned char head[64];
	struct occ_bin_diag d;
	enum occ_status st;
	ssize_t got = pread(fd, head, sizeof head, 0);
	int fs;

	if (got < 0)
		die("%s: cannot read: %s", r->input, strerror(errno));
	if (occ_bin_sniff(head, (size_t)got)) {
		if (path)
			close(fd);
		st = path ? occ_bin_read_file_opts(path, reader_bin_opts(r),
						   reader_from_binary, r, &fs, &d)
		     : occ_bin_read_fd_opts(fd, r->input, reader_bin_opts(r),
					    reader_from_binary, r, &fs, &d);
		if (st != OCC_OK)
			reader_bin_failed(st, &d);
		return;
	}
	if (size > KERNELS_TEXT_MAX)
		die("%s: %llu bytes that are no binary: more than a compiler "
		    "report (at most %llu)", r->input, (unsigned long long)size,
		    (unsigned long long)KERNELS_TEXT_MAX);
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("%s: cannot read: %s", r->input, strerror(errno));
	read_text(r, fd, path != NULL);
}

void reader_read_stdin(struct reader *r)
{
	struct occ_bin_diag d;
	enum occ_status st;
	struct stat sb;
	unsigned char head[64], *buf;
	size_t n, len;
	uint64_t size;
	int fs, t;

	/* Redirected from a file (and not read before): read as the file,
	 * unless --api needs its bytes to load. */
	if (!r->s->o->api && fstat(STDIN_FILENO, &sb) == 0 &&
	    S_ISREG(sb.st_mode) && lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
		read_regular(r, STDIN_FILENO, NULL, (uint64_t)sb.st_size);
		return;
	}
	n = read_some(STDIN_FILENO, r->input, head, sizeof head);
	if (!r->s->o->api && occ_bin_sniff(head, n) &&
	    (t = spool(STDIN_FILENO, r->input, head, n, &size)) >= 0) {
		read_regular(r, t, NULL, size);
		close(t);
		return;
	}
	buf = slurp(STDIN_FILENO, r->input, STDIN_MAX, head, n, &len);
	/* Kept for --api, which loads the code from it; freed with the
	 * list, also when reading fails. */
	r->l->stdin_buf = buf;
	r->l->stdin_len = len;
	if (!occ_bin_sniff(buf, len)) {
		reader_report(r, buf, len);
		return;
	}
	st = occ_bin_read_opts(buf, len, r->input, reader_bin_opts(r),
			       reader_from_binary, r, &fs, &d);
	if (st != OCC_OK)
		reader_bin_failed(st, &d);
}

void reader_read_file(struct reader *r, const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		die("%s: cannot read: %s", path, strerror(errno));
	if (fstat(fd, &sb) != 0)
		die("%s: cannot read: %s", path, strerror(errno));
	read_regular(r, fd, path, (uint64_t)sb.st_size);
}
