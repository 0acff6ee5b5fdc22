/*
 * kernel_input.c - any input of kernels read as one (occcalc/
 * kernel_input.h): a directory walked for binaries, a file or a buffer
 * told by its first bytes (a binary, PTX, else a compiler report), each
 * kernel put in one shape with its resources as the driver reports
 * them. A descriptor's bytes come through kernel_input_fd.c; a failed
 * compile's report is worded by kernel_input_errors.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel_input_int.h"

const char *kin_plural(long long n)
{
	return n == 1 ? "" : "s";
}

enum occ_status kin_fail(struct kin_read *r, enum occ_status st,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->diag->msg, sizeof r->diag->msg, fmt, ap);
	va_end(ap);
	return st;
}

void kin_start(struct kin_read *r)
{
	if (r->started)
		return;
	r->started = 1;
	if (r->o.start)
		r->o.start(r->stats->kind, &r->o, r->ctx);
}

/* ---- Compiler reports ---- */

/* The static shared memory cudaFuncGetAttributes reports, from what the
 * report says. */
static int64_t report_smem(const struct occ_tables *t,
			   const struct occ_usage *u)
{
	const struct occ_arch *a = t ? occ_tables_find(t, u->cc_major,
						       u->cc_minor) : NULL;

	/* From 9.0 cuobjdump counts the driver's reserve as the kernel's. */
	if (a && u->from_cuobjdump && a->cubin_smem_includes_reserved &&
	    u->static_smem >= a->smem_reserved_per_block)
		return (int64_t)(u->static_smem - a->smem_reserved_per_block);
	return (int64_t)u->static_smem;
}

/* Whether --arch keeps k, marked where its row is to say that no image
 * of it runs on the GPU --arch names. */
static int arch_kept(const struct kin_read *r, struct occ_kernel_in *k)
{
	struct occ_kernel_image im = { k->arch, k->cc_major, k->cc_minor,
				       k->ptx_only, k->relocatable,
				       k->sole_image, k->image };

	if (!r->o.arch || k->image != OCC_IMAGE_ALL ||
	    occ_kernel_arch_keeps(r->o.arch, &im))
		return 1;
	if (r->o.all_images || !occ_arch_names_gpu(r->o.arch))
		return 0;
	k->image = OCC_IMAGE_NONE;
	return 1;
}

static int from_report(const struct occ_usage *u, void *ctx)
{
	struct kin_read *r = ctx;
	struct occ_kernel_in k;

	kin_start(r);
	memset(&k, 0, sizeof k);
	k.mangled = u->mangled;
	k.file = r->input;
	memcpy(k.arch, u->arch, sizeof k.arch);
	k.arch[sizeof k.arch - 1] = '\0';
	k.cc_major = u->cc_major;
	k.cc_minor = u->cc_minor;
	k.source = u->from_cuobjdump ? OCC_KSRC_CUOBJDUMP : OCC_KSRC_PTXAS;
	k.regs = u->regs;
	k.static_smem = report_smem(r->o.tables, u);
	k.barriers = u->barriers;
	k.stack = (int64_t)u->stack;
	k.spill_stores = u->from_cuobjdump ? -1 : (int64_t)u->spill_stores;
	k.spill_loads = u->from_cuobjdump ? -1 : (int64_t)u->spill_loads;
	k.min_blocks = -1;
	k.fatbin_offset = -1;
	k.line = u->line;
	return arch_kept(r, &k) ? r->fn(&k, r->ctx) : 0;
}

/* ---- Binaries ---- */

static enum occ_kernel_source bin_source(const struct occ_bin_kernel *b)
{
	return b->container == OCC_BIN_CUBIN ? OCC_KSRC_CUBIN
	       : b->container == OCC_BIN_FATBIN ? OCC_KSRC_FATBIN
	       : b->container == OCC_BIN_PTX ? OCC_KSRC_PTX : OCC_KSRC_ELF;
}

/* The maximum threads of __launch_bounds__ (x, y, z as .maxntid). */
static int bound(const int t[3])
{
	int64_t n = t[0];

	if (n <= 0)
		return 0;
	n *= t[1] > 0 ? t[1] : 1;
	n *= t[2] > 0 ? t[2] : 1;
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

/* The static shared memory the driver reports for b. */
static int64_t bin_smem(const struct occ_tables *t,
			const struct occ_bin_kernel *b)
{
	const struct occ_arch *a = t ? occ_tables_find(t, b->cc_major,
						       b->cc_minor) : NULL;

	/* A PTX file states the shared memory its entries declare. */
	if (b->container == OCC_BIN_PTX)
		return b->shared_section;
	if (b->ptx_only || b->shared_section < 0)
		return -1;
	return a ? (int64_t)occ_bin_static_smem(a, b) : b->shared_section;
}

static int from_binary(const struct occ_bin_kernel *b, void *ctx)
{
	struct kin_read *r = ctx;
	struct occ_kernel_in k;

	kin_start(r);
	memset(&k, 0, sizeof k);
	k.mangled = b->mangled;
	k.file = b->file && *b->file ? b->file : r->input;
	memcpy(k.arch, b->arch, sizeof k.arch);
	k.arch[sizeof k.arch - 1] = '\0';
	k.cc_major = b->cc_major;
	k.cc_minor = b->cc_minor;
	k.source = bin_source(b);
	k.ptx_only = b->ptx_only;
	k.regs = b->regs;
	k.static_smem = bin_smem(r->o.tables, b);
	k.barriers = b->barriers;
	/* The call chain's (EIATTR_MIN_STACK_SIZE: 1,736 B for NCCL's
	 * linked ncclDevKernel_Generic on sm_90, as cuobjdump's STACK),
	 * else the kernel's own frame. */
	k.stack = b->stack >= 0 ? b->stack : b->frame;
	k.bounds_known = 1;
	k.max_threads = bound(b->max_threads);
	k.min_blocks = b->min_blocks;
	k.max_regs = b->max_regs;
	memcpy(k.req_threads, b->req_threads, sizeof k.req_threads);
	memcpy(k.cluster, b->cluster, sizeof k.cluster);
	k.spill_stores = k.spill_loads = -1;
	k.fatbin_offset = b->fatbin_offset;
	k.relocatable = b->relocatable;
	k.image = b->image;
	k.sole_image = b->images_run == 1;
	k.bin = b;
	return arch_kept(r, &k) ? r->fn(&k, r->ctx) : 0;
}

/* A binary reader's failure: its file, what, and where when it can say. */
static enum occ_status bin_failed(struct kin_read *r, enum occ_status st,
				  const struct occ_bin_diag *d)
{
	if (st == OCC_ERR_IO)
		return kin_fail(r, st, "%s: %s", d->file, d->what);
	return kin_fail(r, st, "%s: %s at byte %llu", d->file, d->what,
			(unsigned long long)d->offset);
}

enum occ_status kin_binary_buf(struct kin_read *r, const void *buf,
			       size_t len)
{
	struct occ_bin_diag d;
	enum occ_status st;

	r->stats->kind = OCC_KERNELS_BINARY;
	kin_start(r);
	st = occ_bin_read_opts(buf, len, r->input, &r->o.bin, from_binary, r,
			       r->fn_status, &d);
	return st == OCC_OK ? st : bin_failed(r, st, &d);
}

enum occ_status kin_binary_fd(struct kin_read *r, int fd, const char *path)
{
	struct occ_bin_diag d;
	enum occ_status st;

	r->stats->kind = OCC_KERNELS_BINARY;
	kin_start(r);
	st = path ? occ_bin_read_file_opts(path, &r->o.bin, from_binary, r,
					   r->fn_status, &d)
	     : occ_bin_read_fd_opts(fd, r->input, &r->o.bin, from_binary, r,
				    r->fn_status, &d);
	return st == OCC_OK ? st : bin_failed(r, st, &d);
}

/* ---- Text ---- */

/* A PTX file: its kernels as the text states them. */
static enum occ_status ptx_text(struct kin_read *r, const void *text,
				size_t len)
{
	struct occ_bin_diag d;
	enum occ_status st;

	r->stats->kind = OCC_KERNELS_PTX;
	st = occ_bin_read(text, len, r->input, from_binary, r, r->fn_status,
			  &d);
	return st == OCC_OK ? st : bin_failed(r, st, &d);
}

enum occ_status kin_text(struct kin_read *r, const unsigned char *text,
			 size_t len)
{
	enum occ_status st;
	FILE *f;

	if ((uint64_t)len > OCC_KERNELS_TEXT_MAX)
		return kin_fail(r, OCC_ERR_RANGE, "%s: %zu bytes that are no "
				"binary: more than a compiler report (at most "
				"%llu)", r->input, len,
				(unsigned long long)OCC_KERNELS_TEXT_MAX);
	if (occ_bin_is_ptx(text, len))
		return ptx_text(r, text, len);
	r->stats->kind = OCC_KERNELS_REPORT;
	if ((st = kin_compiler_errors(r, (const char *)text, len)) != OCC_OK)
		return st;
	f = len ? fmemopen((void *)text, len, "r") : fopen("/dev/null", "r");
	if (!f)
		return kin_fail(r, OCC_ERR_IO, "%s: cannot read: %s", r->input,
				strerror(errno));
	st = occ_usage_parse(f, r->input, from_report, r, r->fn_status,
			     &r->diag->data);
	fclose(f);
	if (st == OCC_ERR_SYNTAX && r->diag->data.line == 0)
		return kin_fail(r, st, "%s: no kernel resource usage found "
				"(expected 'nvcc -Xptxas -v' or 'cuobjdump "
				"--dump-resource-usage' output, or a binary)",
				r->input);
	if (st == OCC_ERR_SYNTAX)
		return kin_fail(r, st, "%s:%d: malformed or truncated resource "
				"usage", r->input, r->diag->data.line);
	return st;
}

/* ---- Directories ---- */

/* A file of a directory that could not be read: the caller told, the
 * first kept for the message where none could be read. */
static int bad_file(enum occ_status st, const struct occ_bin_diag *d,
		    void *ctx)
{
	struct kin_read *r = ctx;
	char line[sizeof r->first_bad];

	/* An I/O failure has no byte to name (the offset is left unused). */
	if (st == OCC_ERR_IO || st == OCC_ERR_UNSUPPORTED)
		snprintf(line, sizeof line, "%s: %s", d->file, d->what);
	else
		snprintf(line, sizeof line, "%s: %s at byte %llu", d->file,
			 d->what, (unsigned long long)d->offset);
	if (!r->nbad++)
		memcpy(r->first_bad, line, sizeof line);
	if (r->o.bad_file)
		r->o.bad_file(line, r->ctx);
	return 0;
}

static enum occ_status read_dir(struct kin_read *r, const char *path)
{
	struct occ_bin_walk_stats ws;
	struct occ_bin_diag d;
	enum occ_status st;

	r->stats->kind = OCC_KERNELS_DIR;
	kin_start(r);
	/* Every kernel of a cubin comes: Triton's metadata describes a
	 * cubin of one kernel, which only a count of all can tell. */
	r->o.bin.want = NULL;
	memset(&ws, 0, sizeof ws);
	st = occ_bin_walk_opts(path, &r->o.bin, from_binary, bad_file, r,
			       r->fn_status, &ws, &d);
	r->stats->files_read = ws.files_read;
	r->stats->files_bad = ws.files_bad;
	if (st != OCC_OK)
		return bin_failed(r, st, &d);
	if (ws.files_read == 0 && r->nbad)
		return kin_fail(r, OCC_ERR_NOT_BINARY, "%s: no cubin, fatbin or "
				"ELF file with CUDA code found (%zu file%s could "
				"not be read%s %s)", path, r->nbad,
				kin_plural((long long)r->nbad),
				r->nbad == 1 ? ":" : "; the first:",
				r->first_bad);
	if (ws.files_read == 0)
		return kin_fail(r, OCC_ERR_NOT_BINARY, "%s: no cubin, fatbin or "
				"ELF file with CUDA code found", path);
	return OCC_OK;
}

/* ---- The calls ---- */

static void kin_init(struct kin_read *r, const char *input,
		     const struct occ_kernels_read_opts *opts,
		     occ_kernel_in_fn fn, void *ctx, int *fn_status,
		     struct occ_kernels_read_stats *stats,
		     struct occ_kernels_diag *diag)
{
	memset(r, 0, sizeof *r);
	memset(diag, 0, sizeof *diag);
	if (opts)
		r->o = *opts;
	r->held = r->o.held ? r->o.held : &r->own;
	r->fn = fn;
	r->ctx = ctx;
	r->fn_status = fn_status ? fn_status : &r->own_status;
	*r->fn_status = 0;
	r->input = input;
	r->stats = stats ? stats : &r->own_stats;
	memset(r->stats, 0, sizeof *r->stats);
	r->diag = diag;
}

/* What the read held that the caller does not keep, let go of. */
static enum occ_status kin_done(struct kin_read *r, enum occ_status st)
{
	free(r->held->text);
	r->held->text = NULL;
	if (r->held == &r->own)
		free(r->own.input);
	return st;
}

enum occ_status occ_kernels_read(const char *path,
				 const struct occ_kernels_read_opts *opts,
				 occ_kernel_in_fn fn, void *ctx,
				 int *fn_status,
				 struct occ_kernels_read_stats *stats,
				 struct occ_kernels_diag *diag)
{
	struct kin_read r;
	struct stat sb;

	kin_init(&r, path, opts, fn, ctx, fn_status, stats, diag);
	if (stat(path, &sb) != 0)
		return kin_fail(&r, OCC_ERR_IO, "%s: cannot read: %s", path,
				strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return kin_done(&r, read_dir(&r, path));
	if (!S_ISREG(sb.st_mode))
		return kin_fail(&r, OCC_ERR_NOT_REGULAR, "%s: not a regular file "
				"(a pipe or device: give '-' and redirect it)",
				path);
	return kin_done(&r, kin_file(&r, path));
}

enum occ_status occ_kernels_read_fd(int fd, const char *name,
				    const struct occ_kernels_read_opts *opts,
				    occ_kernel_in_fn fn, void *ctx,
				    int *fn_status,
				    struct occ_kernels_read_stats *stats,
				    struct occ_kernels_diag *diag)
{
	struct kin_read r;

	kin_init(&r, name, opts, fn, ctx, fn_status, stats, diag);
	return kin_done(&r, kin_fd(&r, fd));
}

enum occ_status occ_kernels_read_buf(const void *buf, size_t len,
				     const char *name,
				     const struct occ_kernels_read_opts *opts,
				     occ_kernel_in_fn fn, void *ctx,
				     int *fn_status,
				     struct occ_kernels_read_stats *stats,
				     struct occ_kernels_diag *diag)
{
	struct kin_read r;

	kin_init(&r, name, opts, fn, ctx, fn_status, stats, diag);
	if (occ_bin_sniff(buf, len))
		return kin_done(&r, kin_binary_buf(&r, buf, len));
	return kin_done(&r, kin_text(&r, buf, len));
}
