/*
 * kernel_input_fd.c - where a kernel input's bytes come from: a regular
 * file, opened so that a FIFO cannot block, or a descriptor (standard
 * input: redirected from a file, read as that file; from a pipe, a
 * binary spooled to a temporary file, or held in memory where the caller
 * asks or no temporary file can be made). By their first bytes a binary
 * goes to the binary readers in pieces, and anything else is text (a
 * compiler report, PTX), read whole within OCC_KERNELS_TEXT_MAX.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_input_int.h"

/* The most the bytes so far (buf, n of them) may grow to: a compiler
 * report's limit when they are no binary, bin_max when they are one. */
static uint64_t slurp_limit(const unsigned char *buf, size_t n,
			    uint64_t bin_max)
{
	return occ_bin_sniff(buf, n) ? bin_max : OCC_KERNELS_TEXT_MAX;
}

static enum occ_status slurp_refused(struct kin_read *r,
				     const unsigned char *buf, size_t n,
				     uint64_t max)
{
	if (!occ_bin_sniff(buf, n))
		return kin_fail(r, OCC_ERR_RANGE, "%s: more than %llu bytes that "
				"are no binary: more than a compiler report",
				r->input, (unsigned long long)max);
	return kin_fail(r, OCC_ERR_RANGE, "%s: a binary of more than %llu "
			"bytes from a pipe: give its file, or redirect it (< "
			"FILE), and it is read as a file is", r->input,
			(unsigned long long)max);
}

/* Up to n bytes of fd into buf, fewer only at its end: how many, in
 * *got. */
static enum occ_status read_some(struct kin_read *r, int fd,
				 unsigned char *buf, size_t n, size_t *got)
{
	ssize_t k;

	*got = 0;
	while (*got < n) {
		k = read(fd, buf + *got, n - *got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return kin_fail(r, OCC_ERR_IO, "%s: cannot read: %s",
					r->input, strerror(errno));
		if (k == 0)
			break;
		*got += (size_t)k;
	}
	return OCC_OK;
}

/* Room for one more slice after n bytes in *buf (*cap of them), the
 * buffer refused once past what its bytes may be (slurp_limit), so that
 * an endless or huge input holds no more. */
static enum occ_status slurp_grow(struct kin_read *r, unsigned char **buf,
				  size_t *cap, size_t n, uint64_t bin_max)
{
	uint64_t max = n ? slurp_limit(*buf, n, bin_max) : OCC_KERNELS_TEXT_MAX;
	unsigned char *nb;

	if ((uint64_t)n > max)
		return slurp_refused(r, *buf, n, max);
	*cap = *cap ? 2 * *cap : 1 << 16;
	if ((uint64_t)*cap > max + 1)
		*cap = (size_t)max + 1;
	if (!(nb = realloc(*buf, *cap + 1)))
		return kin_fail(r, OCC_ERR_NOMEM, "%s: out of memory after %zu "
				"bytes", r->input, n);
	*buf = nb;
	return OCC_OK;
}

/* fd's bytes, whole, after the first n already read (head), into *out
 * (*len of them, NUL after): held in *out as it grows, for the caller
 * to free whether or not it fails. */
static enum occ_status slurp(struct kin_read *r, int fd, uint64_t bin_max,
			     const unsigned char *head, size_t n,
			     unsigned char **out, size_t *len)
{
	size_t cap = 0, got;
	enum occ_status st;

	*out = NULL;
	if (n) {
		cap = 1 << 16;
		if (!(*out = malloc(cap + 1)))
			return kin_fail(r, OCC_ERR_NOMEM, "%s: out of memory",
					r->input);
		memcpy(*out, head, n);
	}
	for (;;) {
		if (n == cap &&
		    (st = slurp_grow(r, out, &cap, n, bin_max)) != OCC_OK)
			return st;
		st = read_some(r, fd, *out + n, cap - n < 1 << 16 ? cap - n
			       : 1 << 16, &got);
		if (st != OCC_OK)
			return st;
		if (got == 0)
			break;
		n += got;
	}
	(*out)[n] = '\0';
	*len = n;
	return OCC_OK;
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

/* n bytes of buf written to t. */
static enum occ_status write_all(struct kin_read *r, int t,
				 const unsigned char *buf, size_t n)
{
	size_t done = 0;
	ssize_t w;

	while (done < n) {
		w = write(t, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return kin_fail(r, OCC_ERR_IO, "%s: cannot copy to a "
					"temporary file: %s", r->input,
					strerror(errno));
		done += (size_t)w;
	}
	return OCC_OK;
}

/* The rest of fd after head (n bytes) copied to the temporary file t, at
 * most OCC_KERNELS_PIPE_MAX bytes in all; its size in *size. */
static enum occ_status spool(struct kin_read *r, int fd, int t,
			     const unsigned char *head, size_t n,
			     uint64_t *size)
{
	unsigned char buf[1 << 16];
	uint64_t total = 0;
	size_t got = n;
	enum occ_status st;

	memcpy(buf, head, n);
	do {
		total += got;
		if (total > OCC_KERNELS_PIPE_MAX)
			return slurp_refused(r, head, n, OCC_KERNELS_PIPE_MAX);
		if ((st = write_all(r, t, buf, got)) != OCC_OK)
			return st;
		if ((st = read_some(r, fd, buf, sizeof buf, &got)) != OCC_OK)
			return st;
	} while (got > 0);
	*size = total;
	return OCC_OK;
}

/* A compiler report's text, read whole (bounded by
 * OCC_KERNELS_TEXT_MAX), held where the caller sees it while it is
 * read. */
static enum occ_status read_text(struct kin_read *r, int fd)
{
	size_t len = 0;
	enum occ_status st = slurp(r, fd, OCC_KERNELS_TEXT_MAX, NULL, 0,
				   &r->held->text, &len);

	if (st != OCC_OK)
		return st;
	st = kin_text(r, r->held->text, len);
	free(r->held->text);
	r->held->text = NULL;
	return st;
}

/* A regular file open on fd (path's, or the descriptor's when path is
 * NULL): a binary read in pieces, as its headers say; else a report,
 * refused from its size before any is read when it is larger than one
 * can be. fd is closed when path is given. */
static enum occ_status read_regular(struct kin_read *r, int fd,
				    const char *path, uint64_t size)
{
	unsigned char head[64];
	enum occ_status st;
	ssize_t got = pread(fd, head, sizeof head, 0);

	if (got < 0)
		st = kin_fail(r, OCC_ERR_IO, "%s: cannot read: %s", r->input,
			      strerror(errno));
	else if (occ_bin_sniff(head, (size_t)got)) {
		if (path)
			close(fd);
		return kin_binary_fd(r, fd, path);
	} else if (size > OCC_KERNELS_TEXT_MAX)
		st = kin_fail(r, OCC_ERR_RANGE, "%s: %llu bytes that are no "
			      "binary: more than a compiler report (at most "
			      "%llu)", r->input, (unsigned long long)size,
			      (unsigned long long)OCC_KERNELS_TEXT_MAX);
	else if (lseek(fd, 0, SEEK_SET) != 0)
		st = kin_fail(r, OCC_ERR_IO, "%s: cannot read: %s", r->input,
			      strerror(errno));
	else
		st = read_text(r, fd);
	if (path)
		close(fd);
	return st;
}

/* A pipe's bytes whole, held for the caller: a binary or text. */
static enum occ_status read_held(struct kin_read *r, int fd,
				 const unsigned char *head, size_t n)
{
	enum occ_status st;

	st = slurp(r, fd, OCC_KERNELS_PIPE_MAX, head, n, &r->held->input,
		   &r->held->input_len);
	if (st != OCC_OK)
		return st;
	if (!occ_bin_sniff(r->held->input, r->held->input_len))
		return kin_text(r, r->held->input, r->held->input_len);
	return kin_binary_buf(r, r->held->input, r->held->input_len);
}

enum occ_status kin_fd(struct kin_read *r, int fd)
{
	unsigned char head[64];
	enum occ_status st;
	struct stat sb;
	uint64_t size;
	size_t n;
	int t;

	/* Redirected from a file (and not read before): read as the file,
	 * unless its bytes are to be held. */
	if (!r->o.hold_input && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    lseek(fd, 0, SEEK_CUR) == 0)
		return read_regular(r, fd, NULL, (uint64_t)sb.st_size);
	if ((st = read_some(r, fd, head, sizeof head, &n)) != OCC_OK)
		return st;
	/* The reader seeks (a host ELF's section headers are at its end):
	 * a binary from a pipe is read from a copy. */
	if (r->o.hold_input || !occ_bin_sniff(head, n) || (t = temp_file()) < 0)
		return read_held(r, fd, head, n);
	st = spool(r, fd, t, head, n, &size);
	if (st == OCC_OK)
		st = read_regular(r, t, NULL, size);
	close(t);
	return st;
}

enum occ_status kin_file(struct kin_read *r, const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return kin_fail(r, OCC_ERR_IO, "%s: cannot read: %s", path,
				strerror(errno));
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return kin_fail(r, OCC_ERR_IO, "%s: cannot read: %s", path,
				strerror(errno));
	}
	return read_regular(r, fd, path, (uint64_t)sb.st_size);
}
