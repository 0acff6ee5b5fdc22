/*
 * binary.c - reading kernels from binaries: recognising the format by its
 * first bytes, files (mapped, regular files only), and what the readers
 * share (binary-range checks, messages, the callback).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
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

	if (p >= c->file && p <= c->file + c->file_len)
		return (uint64_t)(p - c->file);
	return c->origin;
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

void bin_kernel_init(struct bin_ctx *c, struct occ_bin_kernel *k)
{
	memset(k, 0, sizeof *k);
	k->regs = -1;
	k->shared_section = k->frame = k->stack = -1;
	k->min_blocks = -1;
	k->container = c->container;
	k->fatbin_offset = c->container == OCC_BIN_CUBIN ||
			    c->container == OCC_BIN_PTX ? -1 : c->fatbin_offset;
	k->compression = c->compression;
}

enum occ_status bin_emit(struct bin_ctx *c, struct occ_bin_kernel *k)
{
	int r;

	if (!k->mangled || !*k->mangled)
		return bin_fail(c, OCC_ERR_CORRUPT, c->file, "a kernel without "
				"a name");
	k->container = c->container;
	k->fatbin_offset = c->container == OCC_BIN_CUBIN ||
			    c->container == OCC_BIN_PTX ? -1 : c->fatbin_offset;
	k->compression = c->compression;
	k->image = c->image;
	k->images = c->images;
	k->images_run = c->images_run;
	k->file = c->diag->file;
	if (c->contents)
		c->contents->kernels++;
	c->capped |= k->max_regs > 0;
	r = c->fn ? c->fn(k, c->ctx) : 0;
	if (r) {
		/* Unwinds every reader; occ_bin_read then returns OCC_OK. */
		if (c->fn_status)
			*c->fn_status = r;
		c->stopped = 1;
		return OCC_ERR_INVALID_INPUT;
	}
	return OCC_OK;
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

enum occ_status bin_read_any(struct bin_ctx *c, struct span s)
{
	if (s.n >= 4 && rd32(s.p) == FATBIN_MAGIC) {
		c->container = OCC_BIN_FATBIN;
		return fatbin_read(c, s);
	}
	if (s.n >= 4 && rd32(s.p) == 0x464c457fu) {
		c->container = s.n >= 20 && rd16(s.p + 0x12) == 190
			       ? OCC_BIN_CUBIN : OCC_BIN_HOST_ELF;
		return elf_read(c, s);
	}
	if (c->depth == 0 && ptx_file_sniff(s.p, s.n))
		return ptx_file_read(c, s);
	if (ar_sniff(s.p, s.n)) {
		c->container = OCC_BIN_HOST_ELF;
		return ar_read(c, s);
	}
	return bin_fail(c, OCC_ERR_NOT_BINARY, s.p, "not a cubin, fatbin or "
			"ELF file");
}

enum occ_status occ_bin_read(const void *buf, size_t len, const char *name,
			     occ_bin_fn fn, void *ctx, int *fn_status,
			     struct occ_bin_diag *diag)
{
	return occ_bin_read_for(buf, len, name, 0, 0, fn, ctx, fn_status, diag);
}

enum occ_status occ_bin_read_for(const void *buf, size_t len, const char *name,
				 int cc_major, int cc_minor, occ_bin_fn fn,
				 void *ctx, int *fn_status,
				 struct occ_bin_diag *diag)
{
	return occ_bin_read_counted(buf, len, name, cc_major, cc_minor, fn, ctx,
				    fn_status, NULL, diag);
}

enum occ_status occ_bin_read_counted(const void *buf, size_t len,
				     const char *name, int cc_major,
				     int cc_minor, occ_bin_fn fn, void *ctx,
				     int *fn_status,
				     struct occ_bin_contents *contents,
				     struct occ_bin_diag *diag)
{
	struct bin_ctx c;
	struct span s = { buf, len };
	enum occ_status st;

	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, name ? name : "");
	memset(&c, 0, sizeof c);
	c.fn = fn;
	c.ctx = ctx;
	c.fn_status = fn_status;
	c.diag = diag;
	c.file = buf;
	c.file_len = len;
	c.fatbin_offset = -1;
	c.contents = contents;
	if (contents)
		memset(contents, 0, sizeof *contents);
	c.target_cc = cc_major > 0 && cc_major < 100 && cc_minor >= 0 &&
		      cc_minor < 10 ? cc_major * 10 + cc_minor : 0;
	if (fn_status)
		*fn_status = 0;
	st = bin_read_any(&c, s);
	return c.stopped ? OCC_OK : st;
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
 * unless it is a regular file; mapped, since a shared library may be
 * hundreds of megabytes of which only the fatbins are read. */
enum occ_status occ_bin_read_file(const char *path, occ_bin_fn fn,
				  void *ctx, int *fn_status,
				  struct occ_bin_diag *diag)
{
	return occ_bin_read_file_for(path, 0, 0, fn, ctx, fn_status, diag);
}

enum occ_status occ_bin_read_file_for(const char *path, int cc_major,
				      int cc_minor, occ_bin_fn fn, void *ctx,
				      int *fn_status, struct occ_bin_diag *diag)
{
	return occ_bin_read_file_counted(path, cc_major, cc_minor, fn, ctx,
					 fn_status, NULL, diag);
}

enum occ_status occ_bin_read_file_counted(const char *path, int cc_major,
					  int cc_minor, occ_bin_fn fn,
					  void *ctx, int *fn_status,
					  struct occ_bin_contents *contents,
					  struct occ_bin_diag *diag)
{
	struct stat sb;
	void *map;
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
	if (sb.st_size == 0) {
		close(fd);
		return occ_bin_read_counted("", 0, path, cc_major, cc_minor,
					    fn, ctx, fn_status, contents, diag);
	}
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return io_fail(diag, path, "cannot map", errno);
	st = occ_bin_read_counted(map, (size_t)sb.st_size, path, cc_major,
				  cc_minor, fn, ctx, fn_status, contents, diag);
	munmap(map, (size_t)sb.st_size);
	return st;
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
