/*
 * kernels_read.c - --kernels PATH: the kernels of a compiler report
 * ('nvcc -Xptxas -v', 'cuobjdump --dump-resource-usage'), a binary (cubin,
 * fatbin, host object, executable, shared library) or a directory of
 * binaries, recognised by content, kept if --arch and --kernel say so.
 * Every kernel's resources in one shape (struct kernel_info) whatever it
 * was read from. The bytes come from kernels_input.c (a file, standard
 * input); the list itself is kernels_list.c's; a failed compile's
 * report is told by kernels_errors.c.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "kernels.h"

/* ---- What --arch and --kernel keep ---- */

/* Whether --kernel keeps a kernel of this mangled name (or, where
 * names are printed or matched, of its demangled name). */
static int name_kept(struct reader *r, const char *mangled)
{
	char *name;
	int m;

	if (!r->l->have_re || regexec(&r->l->re, mangled, 0, NULL, 0) == 0)
		return 1;
	if (!r->l->need_names)
		return 0;
	name = demangle(mangled);
	m = name && regexec(&r->l->re, name, 0, NULL, 0) == 0;
	free(name);
	return m;
}

/* Streaming: the rows of kernels settled written, the places of the
 * Triton cubin's kernels moved with the list. */
static void settle(struct reader *r, int end)
{
	size_t gone = kernels_stream_settle(r->l, end);

	if (r->cubin.file)
		r->cubin.first -= gone;
}

/* occ_bin_opts.want: --kernel's, on the reading threads (regexec and
 * the demangler are safe there; the reader is only read). */
static int wanted(const char *mangled, void *ctx)
{
	return name_kept(ctx, mangled);
}

/* Keeps k (the last added, its mangled name still the reader's) or
 * takes it back. An image chosen for the GPU is kept whatever its
 * target (compute_80 PTX runs on a 9.0 device), and so is a kernel none
 * of whose images runs there: its row says so (mode_kernels.c). A
 * cubin's or a report's kernel that does not run on the GPU --arch (or
 * --gpu) names is such a kernel too, unless --all-images or a suffixed
 * target (sm_90a) makes --arch a filter. The name of a kept one is kept
 * once, demangled when it is needed (once per name: once all is read,
 * kernels_name_all, or as rows are written, kernels_stream.c), with its
 * rare fields more; a kernel left out holds nothing. */
static void keep_or_drop(struct reader *r, struct kernel_info *k,
			 const struct kernel_more *more)
{
	const struct options *o = r->s->o;
	int keep = r->s->n_targets > 0 || k->image != OCC_IMAGE_ALL ||
		   !o->arch || kernel_arch_keeps(o->arch, k);
	const struct name_entry *e;

	if (!keep && !o->all_images && kernel_arch_names_gpu(o->arch)) {
		k->image = OCC_IMAGE_NONE;
		keep = 1;
	}
	if (keep)
		keep = name_kept(r, k->mangled);
	if (!keep) {
		r->l->n--;
		return;
	}
	if (r->l->n > KERNELS_MAX && r->l->stream)
		die("%s: more than %zu kernels held at once, waiting for the "
		    "end of their fatbin or file: --kernel REGEX or --arch "
		    "keeps fewer", r->input, KERNELS_MAX);
	if (r->l->n > KERNELS_MAX)
		die("%s: more than %zu kernels kept: --kernel REGEX or --arch "
		    "keeps fewer", r->input, KERNELS_MAX);
	e = names_intern(&r->l->names, k->mangled);
	k->mangled = e->mangled;
	k->name = NULL;
	kernels_more_set(r->l, k, more);
	if (r->l->stream)
		settle(r, 0);
}

/* Where names are printed or matched, every kept kernel's demangled
 * name: after the read, whose memory is given back by then. */
static void kernels_name_all(struct session *s, struct kernel_list *l)
{
	if (!l->need_names)
		return;
	names_demangle_all(&l->names, (int)s->o->jobs);
	kernels_name(l, l->k, l->n);
}

/* ---- Compiler reports ---- */

/* The static shared memory cudaFuncGetAttributes reports, from what the
 * report says. */
static int64_t report_smem(struct session *s, const struct occ_usage *u)
{
	const struct occ_arch *a = occ_tables_find(session_tables(s),
						    u->cc_major, u->cc_minor);

	/* From 9.0 cuobjdump counts the driver's reserve as the kernel's. */
	if (a && u->from_cuobjdump && a->cubin_smem_includes_reserved &&
	    u->static_smem >= a->smem_reserved_per_block)
		return (int64_t)(u->static_smem - a->smem_reserved_per_block);
	return (int64_t)u->static_smem;
}

static int from_report(const struct occ_usage *u, void *ctx)
{
	struct reader *r = ctx;
	struct kernel_info *k = kernels_add(r->l);
	struct kernel_more m = kernel_no_more;

	k->mangled = u->mangled;      /* the reader's, until kept */
	k->file = kernels_file_name(r->l, r->input);
	k->arch = names_intern(&r->l->archs, u->arch)->mangled;
	k->cc_major = u->cc_major;
	k->cc_minor = u->cc_minor;
	k->source = u->from_cuobjdump ? KSRC_CUOBJDUMP : KSRC_PTXAS;
	k->regs = u->regs;
	k->static_smem = report_smem(r->s, u);
	k->barriers = u->barriers;
	k->stack = (int64_t)u->stack;
	m.spill_stores = u->from_cuobjdump ? -1 : (int64_t)u->spill_stores;
	m.spill_loads = u->from_cuobjdump ? -1 : (int64_t)u->spill_loads;
	k->min_blocks = -1;
	k->fatbin_offset = -1;
	m.line = u->line;
	keep_or_drop(r, k, &m);
	return 0;
}



/* A PTX file: its kernels as the text states them. */
static void read_ptx(struct reader *r, const unsigned char *text, size_t len)
{
	struct occ_bin_diag d;
	enum occ_status st;
	int fs;

	st = occ_bin_read(text, len, r->input, reader_from_binary, r, &fs, &d);
	if (st != OCC_OK)
		reader_bin_failed(st, &d);
}

void reader_report(struct reader *r, unsigned char *text, size_t len)
{
	struct occ_diag d;
	enum occ_status st;
	int fs;
	FILE *f;

	if ((uint64_t)len > KERNELS_TEXT_MAX)
		die("%s: %zu bytes that are no binary: more than a compiler "
		    "report (at most %llu)", r->input, len,
		    (unsigned long long)KERNELS_TEXT_MAX);
	if (occ_bin_is_ptx(text, len)) {
		read_ptx(r, text, len);
		return;
	}
	kernels_compiler_errors(r->input, (char *)text, len);
	f = len ? fmemopen(text, len, "r") : fopen("/dev/null", "r");
	if (!f)
		die("%s: cannot read: %s", r->input, strerror(errno));
	st = occ_usage_parse(f, r->input, from_report, r, &fs, &d);
	fclose(f);
	r->l->text = 1;
	if (st == OCC_ERR_SYNTAX && d.line == 0)
		die("%s: no kernel resource usage found (expected 'nvcc -Xptxas "
		    "-v' or 'cuobjdump --dump-resource-usage' output, or a "
		    "binary)", r->input);
	if (st == OCC_ERR_SYNTAX)
		die("%s:%d: malformed or truncated resource usage", r->input,
		    d.line);
	if (st != OCC_OK)
		die_data(st, &d, 0, "");
}

/* ---- Binaries ---- */

static enum kernel_source bin_source(const struct occ_bin_kernel *b)
{
	return b->container == OCC_BIN_CUBIN ? KSRC_CUBIN
	       : b->container == OCC_BIN_FATBIN ? KSRC_FATBIN
	       : b->container == OCC_BIN_PTX ? KSRC_PTX : KSRC_ELF;
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

/* --ptxas-jit: a PTX kernel the driver would compile, with ptxas's
 * resources for the GPU named, computed as code for that GPU. */
static void from_ptxas(struct reader *r, const struct occ_bin_kernel *b,
		       struct kernel_info *k)
{
	char err[512] = "";
	int cc = r->l->target_cc;
	const struct ptxas_kernel *p = ptxas_jit_find(&r->l->jit, b, cc, err,
						      sizeof err);

	if (!p) {
		if (*err)
			warn("%s: --ptxas-jit: %s; its PTX rows stay without "
			     "resources", k->file, err);
		return;
	}
	k->ptx_only = 0;
	k->from_ptxas = 1;
	k->cc_major = cc / 10;
	k->cc_minor = cc % 10;
	k->regs = p->regs;
	k->static_smem = p->static_smem;
	k->stack = p->stack;
	k->barriers = p->barriers;
}

/* A Triton cache: the file's kernels delivered (its kept ones up to the
 * list's end), its metadata applied. */
static void triton_flush(struct reader *r, size_t end)
{
	if (r->cubin.file && end > r->cubin.first)
		kernels_triton(r->l, r->cubin.first, end - r->cubin.first,
			       r->cubin.kernels, r->cubin.file);
	r->cubin.file = NULL;
}

/* k, just added, one more of its file's kernels: a file's kernels come
 * one after another. */
static void triton_count(struct reader *r, const struct kernel_info *k)
{
	size_t at = (size_t)(k - r->l->k);

	if (!r->cubin.file || strcmp(r->cubin.file, k->file) != 0) {
		triton_flush(r, at);
		r->cubin.file = k->file;
		r->cubin.first = at;
		r->cubin.kernels = 0;
	}
	r->cubin.kernels++;
}

/* The list's copy of a binary's target name (occ_bin_kernel.arch). */
static const char *arch_copy(struct kernel_list *l, const char arch[16])
{
	char a[16];

	memcpy(a, arch, sizeof a);
	a[sizeof a - 1] = '\0';
	return names_intern(&l->archs, a)->mangled;
}

int reader_from_binary(const struct occ_bin_kernel *b, void *ctx)
{
	struct reader *r = ctx;
	struct kernel_info *k = kernels_add(r->l);
	struct kernel_more m = kernel_no_more;
	const struct occ_arch *a;

	k->mangled = b->mangled;      /* the reader's, until kept */
	k->file = kernels_file_name(r->l, b->file && *b->file ? b->file :
				    r->input);
	k->arch = arch_copy(r->l, b->arch);
	k->cc_major = b->cc_major;
	k->cc_minor = b->cc_minor;
	k->source = bin_source(b);
	k->ptx_only = b->ptx_only;
	k->regs = b->regs;
	a = occ_tables_find(session_tables(r->s), b->cc_major, b->cc_minor);
	/* A PTX file states the shared memory its entries declare. */
	k->static_smem = b->container == OCC_BIN_PTX ? b->shared_section
			 : b->ptx_only || b->shared_section < 0 ? -1
			 : a ? (int64_t)occ_bin_static_smem(a, b)
			 : b->shared_section;
	k->barriers = b->barriers;
	/* The local memory the driver allocates per thread: the call chain's
	 * (EIATTR_MIN_STACK_SIZE: 1,736 B for NCCL's linked
	 * ncclDevKernel_Generic on sm_90, as cuobjdump's STACK), else the
	 * kernel's own frame. */
	k->stack = b->stack >= 0 ? b->stack : b->frame;
	k->bounds_known = 1;
	k->max_threads = bound(b->max_threads);
	k->min_blocks = b->min_blocks;
	k->max_regs = b->max_regs;
	memcpy(m.req_threads, b->req_threads, sizeof m.req_threads);
	memcpy(m.cluster, b->cluster, sizeof m.cluster);
	k->fatbin_offset = b->fatbin_offset;
	k->relocatable = b->relocatable;
	k->image = b->image;
	k->sole_image = b->images_run == 1;
	if (r->s->o->ptxas_jit && b->ptx_only && b->image == OCC_IMAGE_PTX)
		from_ptxas(r, b, k);
	if (r->walk)
		triton_count(r, k);
	keep_or_drop(r, k, &m);
	return 0;
}

_Noreturn void reader_bin_failed(enum occ_status st,
				  const struct occ_bin_diag *d)
{
	if (st == OCC_ERR_IO)
		die("%s: %s", d->file, d->what);
	die("%s: %s at byte %llu", d->file, d->what,
	    (unsigned long long)d->offset);
}

/* A file of a directory that could not be read, and why: said when the
 * walk ends, as a warning beside the rows read, or in the one line that
 * says that nothing could be read. */
static int bad_file(enum occ_status st, const struct occ_bin_diag *d,
		    void *ctx)
{
	struct kernel_list *l = ((struct reader *)ctx)->l;
	/* An I/O failure has no byte to name (the offset is left unused). */
	const char *fmt = st == OCC_ERR_IO || st == OCC_ERR_UNSUPPORTED
			  ? "%s: %s\n" : "%s: %s at byte %llu\n";
	unsigned long long at = (unsigned long long)d->offset;
	int n = snprintf(NULL, 0, fmt, d->file, d->what, at);
	char *grown = n < 0 ? NULL : realloc(l->skipped, l->skipped_len +
					     (size_t)n + 1);

	if (!grown)
		die("out of memory");
	l->skipped = grown;
	l->skipped_len += (size_t)snprintf(grown + l->skipped_len,
					   (size_t)n + 1, fmt, d->file,
					   d->what, at);
	l->nskipped++;
	return 0;
}

/* The directory's files not read, as warnings. */
static void warn_skipped(struct kernel_list *l)
{
	const char *p, *nl;

	for (p = l->skipped; p && p < l->skipped + l->skipped_len; p = nl + 1) {
		nl = strchr(p, '\n');
		warn("%.*s; skipped", (int)(nl - p), p);
	}
	free(l->skipped);
	l->skipped = NULL;
	l->skipped_len = l->nskipped = 0;
}

static void read_dir(struct reader *r, const char *path)
{
	struct kernel_list *l = r->l;
	struct occ_bin_walk_stats stats;
	struct occ_bin_diag d;
	enum occ_status st;
	int fs;

	r->walk = 1;
	if (l->stream)
		l->stream->walk = 1;
	st = occ_bin_walk_opts(path, reader_bin_opts(r), reader_from_binary,
			       bad_file, r, &fs, &stats, &d);
	if (st != OCC_OK)
		reader_bin_failed(st, &d);
	triton_flush(r, l->n);
	if (stats.files_read == 0 && l->nskipped)
		die("%s: no cubin, fatbin or ELF file with CUDA code found "
		    "(%zu file%s could not be read%s %.*s)", path, l->nskipped,
		    l->nskipped == 1 ? "" : "s",
		    l->nskipped == 1 ? ":" : "; the first:",
		    (int)(strchr(l->skipped, '\n') - l->skipped), l->skipped);
	if (stats.files_read == 0)
		die("%s: no cubin, fatbin or ELF file with CUDA code found",
		    path);
	warn_skipped(l);
}

/* ---- The GPU whose images are read ---- */

/* The compute capability (major * 10 + minor) whose image of each fatbin
 * is read: the GPU named by --arch (or --gpu, which sets it), else the
 * one --api asks; 0 with --all-images or no GPU named. */
static int image_target(struct session *s)
{
	const struct options *o = s->o;
	int major, minor;

	if (o->all_images)
		return 0;
	if (o->arch && occ_arch_parse_name(o->arch, &major, &minor) == OCC_OK)
		return major * 10 + minor;
	if (o->api || o->device_given) {
		session_device_arch(s);
		return s->dev.cc_major * 10 + s->dev.cc_minor;
	}
	return 0;
}

/* The reader's options with the GPU whose image of each fatbin is read. */
const struct occ_bin_opts *reader_bin_opts(struct reader *r)
{
	r->l->target_cc = image_target(r->s);
	r->opts.cc_major = r->l->target_cc / 10;
	r->opts.cc_minor = r->l->target_cc % 10;
	r->opts.contents = &r->l->contents;
	/* --ptxas-jit compiles the PTX the driver would: its text is kept
	 * for the callback only then. */
	r->opts.ptx_text = r->s->o->ptxas_jit;
	/* --kernel: the kernels it leaves out are not held while an
	 * image's rows wait, unless a Triton cache counts its cubins'. */
	r->opts.want = r->l->have_re && !r->walk ? wanted : NULL;
	r->opts.want_ctx = r;
	return &r->opts;
}

/* The GPU whose limits rows are computed with: the one images were
 * chosen for, else (a compiler report) --arch's; 0: none named. */
static int named_cc(const struct session *s, const struct kernel_list *l)
{
	int major, minor;

	if (l->target_cc)
		return l->target_cc;
	if (s->o->arch && occ_arch_parse_name(s->o->arch, &major, &minor) ==
	    OCC_OK)
		return major * 10 + minor;
	return 0;
}

void kernels_read(struct session *s, const char *path, struct kernel_list *l,
		  const struct kernel_stream *st)
{
	int e;
	char msg[256];

	memset(l, 0, sizeof *l);
	if (st) {
		l->streaming = *st;
		l->stream = &l->streaming;
	}
	l->need_names = kernels_names_needed(s->o);
	if (s->o->kernel_re) {
		e = regcomp(&l->re, s->o->kernel_re, REG_EXTENDED | REG_NOSUB);
		if (e) {
			regerror(e, &l->re, msg, sizeof msg);
			die_usage("--kernel: '%s': %s", s->o->kernel_re, msg);
		}
		l->have_re = 1;
	}
	kernels_read_add(s, path, l);
}

const char *kernels_input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

void kernels_read_add(struct session *s, const char *path,
		      struct kernel_list *l)
{
	struct reader r = { s, l, path, 0, { 0, NULL, NULL, 0, 0, NULL, 0,
					     NULL, NULL },
			    { 0, 0, 0 }, { NULL, 0, 0 } };
	struct stat sb;
	int cc;

	kernels_bin_opts(s->o, &r.opts, &r.arch);
	if (l->stream) {
		l->stream->relocatable = !s->o->all_images;
		l->stream->keep_cc = !s->n_targets && !s->o->all_images
				     ? image_target(s) : 0;
	}
	if (strcmp(path, "-") == 0) {
		r.input = kernels_input_name(path);
		reader_read_stdin(&r);
	} else if (stat(path, &sb) != 0) {
		die("%s: cannot read: %s", path, strerror(errno));
	} else if (S_ISDIR(sb.st_mode)) {
		read_dir(&r, path);
	} else if (!S_ISREG(sb.st_mode)) {
		die("%s: not a regular file (a pipe or device: give '-' and "
		    "redirect it)", path);
	} else {
		reader_read_file(&r, path);
	}
	ptxas_jit_clear(&l->jit);
	if (l->stream) {
		settle(&r, 1);
		return;
	}
	if (!s->o->all_images)
		kernels_drop_relocatable(l);
	/* One GPU named: of a kernel's cubins or report rows, the one it
	 * loads (a GPU list chooses per GPU, targets.c). */
	if (!s->n_targets && !s->o->all_images && (cc = named_cc(s, l)))
		kernels_keep_loaded(l, cc);
	kernels_name_all(s, l);
}

/* A binary without kernels whose fatbins hold something else: what, and
 * why no resources can be read from it. */
void kernels_no_kernel(const struct occ_bin_contents *n, const char *input)
{
	if (n->kernels)
		return;          /* all left out by --arch or --kernel */
	if (n->ltoir && !n->data_fatbins)
		die("%s: no kernel to read: its %llu fatbin%s hold%s %llu "
		    "LTO-IR image%s (nvcc -dlto), which is linked and compiled "
		    "to SASS only when the program runs (nvJitLink): no "
		    "registers or shared memory exist before", input,
		    (unsigned long long)n->fatbins, plural(n->fatbins),
		    n->fatbins == 1 ? "s" : "", (unsigned long long)n->ltoir,
		    plural(n->ltoir));
	if (n->data_fatbins)
		die("%s: no kernel in the fatbins the CUDA runtime registers "
		    "(%llu, .nv_fatbin); %llu more fatbins lie in its other "
		    "sections, outside what the runtime registers: occcalc "
		    "does not read those", input,
		    (unsigned long long)n->fatbins,
		    (unsigned long long)n->data_fatbins);
}
