/*
 * binary.c - reading kernels from binaries: recognising the format by its
 * first bytes, files (read in pieces, regular files only), and what the readers
 * share (binary-range checks, messages, the callback).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bin.h"
#include "util.h"

int span_sub(struct span s, uint64_t off, uint64_t len, struct span *out)
{
	if (off > s.n || len > s.n - off)
		return -1;
	out->p = s.p + off;
	out->n = (size_t)len;
	return 0;
}

uint64_t bin_offset(const struct bin_ctx *c, const void *at)
{
	const uint8_t *p = at;

	if (c->file && p >= c->file && p <= c->file + c->file_len)
		return c->file_off + (uint64_t)(p - c->file);
	return c->origin;
}

enum occ_status bin_fail_off(struct bin_ctx *c, enum occ_status st,
			     uint64_t off, const char *fmt, ...)
{
	va_list ap;

	c->diag->offset = off;
	va_start(ap, fmt);
	vsnprintf(c->diag->what, sizeof c->diag->what, fmt, ap);
	va_end(ap);
	return st;
}

enum occ_status bin_fail(struct bin_ctx *c, enum occ_status st,
			 const void *at, const char *fmt, ...)
{
	va_list ap;

	c->diag->offset = bin_offset(c, at);
	va_start(ap, fmt);
	vsnprintf(c->diag->what, sizeof c->diag->what, fmt, ap);
	va_end(ap);
	return st;
}

void bin_kernel_init(struct occ_bin_kernel *k)
{
	memset(k, 0, sizeof *k);
	k->regs = -1;
	k->shared_section = k->frame = k->stack = -1;
	k->min_blocks = -1;
}

enum occ_status bin_emit(struct bin_ctx *c, struct occ_bin_kernel *k)
{
	if (!k->mangled || !*k->mangled)
		/* The entry it came from: the window c->file starts at
		 * the entry's payload read from a file, at the file's
		 * start in memory (stdin), so it named two places. */
		return bin_fail_off(c, OCC_ERR_CORRUPT, c->origin, "a kernel "
				    "without a name");
	k->container = c->container;
	k->fatbin_offset = c->container == OCC_BIN_CUBIN ||
			    c->container == OCC_BIN_PTX ? -1 : c->fatbin_offset;
	k->compression = c->compression;
	k->image = c->image;
	k->images = c->images;
	k->images_run = c->images_run;
	c->capped |= k->max_regs > 0;
	/* A stop unwinds every reader; occ_bin_read then returns OCC_OK. */
	return bin_call(c, k) ? OCC_ERR_INVALID_INPUT : OCC_OK;
}

int bin_call(struct bin_ctx *c, struct occ_bin_kernel *k)
{
	int r;

	k->file = c->diag->file;
	if (c->contents)
		c->contents->kernels++;
	r = c->fn ? c->fn(k, c->ctx) : 0;
	if (r) {
		if (c->fn_status)
			*c->fn_status = r;
		c->stopped = 1;
	}
	return r;
}

int occ_bin_sniff(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	return (len >= 4 && (rd32(p) == 0x464c457fu ||
			     rd32(p) == FATBIN_MAGIC)) || ar_sniff(p, len);
}

int occ_bin_is_ptx(const void *buf, size_t len)
{
	return ptx_file_sniff(buf, len);
}

/* [off, off + n) of the source read whole (a cubin is one image, a PTX
 * file one text) and given to read in place. */
enum occ_status bin_read_whole(struct bin_ctx *c, uint64_t off, uint64_t n,
			       enum occ_status (*read)(struct bin_ctx *,
						       struct span))
{
	struct bin_buf b = { NULL, 0, 0 };
	const uint8_t *p;
	enum occ_status st = src_read(c->src, off, (size_t)n, &b, &p);

	if (st != OCC_OK) {
		buf_free(&b);
		return src_fail(c, st, off);
	}
	c->file = p;
	c->file_len = (size_t)n;
	c->file_off = off;
	st = read(c, (struct span){ p, (size_t)n });
	buf_free(&b);
	c->file = NULL;
	c->file_len = 0;
	c->file_off = 0;
	return st;
}

/* A PTX file, whose first directive may follow any comment: what does not
 * start like one in its first bytes is read whole to be sure. */
static enum occ_status ptx_or_nothing(struct bin_ctx *c, struct span s)
{
	if (ptx_file_sniff(s.p, s.n))
		return ptx_file_read(c, s);
	return bin_fail(c, OCC_ERR_NOT_BINARY, s.p, "not a cubin, fatbin or "
			"ELF file");
}

/* The first bytes looked at. */
#define HEAD ((size_t)64 << 10)

/* The source, recognised by its first bytes. */
static enum occ_status read_any(struct bin_ctx *c)
{
	struct bin_win w = { { NULL, 0, 0 }, 0, 0, NULL };
	const uint8_t *p = NULL;
	uint64_t n = c->src->len;
	size_t head = n < HEAD ? (size_t)n : HEAD;
	enum occ_status st = win_get(c->src, &w, 0, head, &p);
	uint32_t magic = st == OCC_OK && n >= 4 ? rd32(p) : 0;
	int cubin = magic == 0x464c457fu && n >= 20 && rd16(p + 0x12) == 190;
	int ar = st == OCC_OK && ar_sniff(p, head);
	int ptx = st == OCC_OK && (ptx_file_sniff(p, head) ||
				   (head < n && ptx_blank(p, head)));

	buf_free(&w.buf);
	if (st != OCC_OK)
		return src_fail(c, st, 0);
	if (magic == FATBIN_MAGIC) {
		c->container = OCC_BIN_FATBIN;
		return fatbin_walk(c, 0, n);
	}
	if (magic == 0x464c457fu) {
		c->container = cubin ? OCC_BIN_CUBIN : OCC_BIN_HOST_ELF;
		c->host_top = !cubin;
		return cubin ? bin_read_whole(c, 0, n, elf_read)
			     : host_walk(c, 0, n);
	}
	if (ar) {
		c->container = OCC_BIN_HOST_ELF;
		return ar_walk(c);
	}
	if (ptx)
		return bin_read_whole(c, 0, n, ptx_or_nothing);
	return bin_fail_off(c, OCC_ERR_NOT_BINARY, 0, "not a cubin, fatbin or "
			    "ELF file");
}

/* Reads the source with the scheduler given (or one of its own). */
static enum occ_status read_src(const struct bin_src *src, const char *name,
				const struct occ_bin_opts *opts,
				struct bin_sched *sched, occ_bin_fn fn,
				void *ctx, int *fn_status,
				struct occ_bin_diag *diag)
{
	struct bin_ctx c;
	struct bin_sched *own = NULL;
	enum occ_status st;

	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, name ? name : "");
	if (!sched && !(sched = own = sched_open(opts ? opts->jobs : 1)))
		return OCC_ERR_NOMEM;
	memset(&c, 0, sizeof c);
	c.fn = fn;
	c.ctx = ctx;
	c.fn_status = fn_status;
	c.diag = diag;
	c.src = src;
	c.sched = sched;
	c.opts = opts;
	c.fatbin_offset = -1;
	if (opts)
		c.target_cc = opts->cc_major > 0 && opts->cc_major < 100 &&
			      opts->cc_minor >= 0 && opts->cc_minor < 10
			      ? opts->cc_major * 10 + opts->cc_minor : 0;
	c.contents = opts ? opts->contents : NULL;
	if (c.contents)
		memset(c.contents, 0, sizeof *c.contents);
	if (fn_status)
		*fn_status = 0;
	st = sched_finish(&c, read_any(&c));
	/* Once every kernel is counted: what a host file without any holds
	 * besides. */
	if (st == OCC_OK && !c.stopped && c.contents && !c.contents->kernels &&
	    c.host_top)
		st = host_data_fatbins(&c);
	sched_close(own);
	return c.stopped ? OCC_OK : st;
}

enum occ_status occ_bin_read_opts(const void *buf, size_t len,
				  const char *name,
				  const struct occ_bin_opts *opts,
				  occ_bin_fn fn, void *ctx, int *fn_status,
				  struct occ_bin_diag *diag)
{
	struct bin_src src = { len ? buf : (const uint8_t *)"", -1, len };

	return read_src(&src, name, opts, NULL, fn, ctx, fn_status, diag);
}

enum occ_status occ_bin_read(const void *buf, size_t len, const char *name,
			     occ_bin_fn fn, void *ctx, int *fn_status,
			     struct occ_bin_diag *diag)
{
	return occ_bin_read_opts(buf, len, name, NULL, fn, ctx, fn_status,
				 diag);
}

static enum occ_status io_fail(struct occ_bin_diag *diag, const char *path,
			       const char *what, int err)
{
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, path);
	snprintf(diag->what, sizeof diag->what, "%s%s%s", what,
		 err ? ": " : "", err ? strerror(err) : "");
	return OCC_ERR_IO;
}

/* Opened without blocking (a FIFO would wait for a writer), then refused
 * unless it is a regular file; read in pieces (pread), since a shared
 * library may be hundreds of megabytes of which only the fatbins' images
 * are read, one at a time per thread. */
enum occ_status bin_read_path(const char *path,
			      const struct occ_bin_opts *opts,
			      struct bin_sched *sched, occ_bin_fn fn,
			      void *ctx, int *fn_status,
			      struct occ_bin_diag *diag)
{
	struct stat sb;
	struct bin_src src;
	enum occ_status st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return io_fail(diag, path, "cannot open", errno);
	if (fstat(fd, &sb) != 0) {
		int err = errno;

		close(fd);
		return io_fail(diag, path, "cannot stat", err);
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return io_fail(diag, path, "not a regular file", 0);
	}
	src.mem = NULL;
	src.fd = fd;
	src.len = (uint64_t)sb.st_size;
	st = read_src(&src, path, opts, sched, fn, ctx, fn_status, diag);
	close(fd);
	return st;
}

enum occ_status occ_bin_read_fd_opts(int fd, const char *name,
				     const struct occ_bin_opts *opts,
				     occ_bin_fn fn, void *ctx, int *fn_status,
				     struct occ_bin_diag *diag)
{
	struct stat sb;
	struct bin_src src;

	if (fstat(fd, &sb) != 0)
		return io_fail(diag, name, "cannot stat", errno);
	if (!S_ISREG(sb.st_mode))
		return io_fail(diag, name, "not a regular file", 0);
	src.mem = NULL;
	src.fd = fd;
	src.len = (uint64_t)sb.st_size;
	return read_src(&src, name, opts, NULL, fn, ctx, fn_status, diag);
}

enum occ_status occ_bin_read_file_opts(const char *path,
				       const struct occ_bin_opts *opts,
				       occ_bin_fn fn, void *ctx,
				       int *fn_status,
				       struct occ_bin_diag *diag)
{
	return bin_read_path(path, opts, NULL, fn, ctx, fn_status, diag);
}

enum occ_status occ_bin_read_file(const char *path, occ_bin_fn fn,
				  void *ctx, int *fn_status,
				  struct occ_bin_diag *diag)
{
	return bin_read_path(path, NULL, NULL, fn, ctx, fn_status, diag);
}

uint64_t occ_bin_static_smem(const struct occ_arch *arch,
			     const struct occ_bin_kernel *k)
{
	uint64_t s = k->shared_section < 0 ? 0 : (uint64_t)k->shared_section;

	if (arch && arch->cubin_smem_includes_reserved && !k->relocatable &&
	    s >= arch->smem_reserved_per_block)
		s -= arch->smem_reserved_per_block;
	return s;
}
