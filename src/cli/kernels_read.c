/*
 * kernels_read.c - --kernels PATH: the kernels the library reads of a
 * compiler report, a PTX file, a binary or a directory of binaries, or of
 * standard input (occ_kernels_read, occcalc/kernel_input.h, which
 * applies --arch), kept if --kernel says so, in the list
 * (kernels_list.c) as struct kernel_info; Triton's metadata applied to a directory's cubins
 * (kernels_triton.c), --ptxas-jit's resources to PTX the driver compiles.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	name = occ_demangle(mangled);
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

/* Keeps k (the last added, its mangled name still the reader's; --arch
 * kept it, occ_kernels_read_opts.arch) or takes it back: --kernel's.
 * A kernel none of whose images runs on the GPU named is kept: its row
 * says so (mode_kernels.c). The name of a kept one is kept
 * once, demangled when it is needed (once per name: once all is read,
 * kernels_name_all, or as rows are written, kernels_stream.c), with its
 * rare fields more; a kernel left out holds nothing. */
static void keep_or_drop(struct reader *r, struct kernel_info *k,
			 const struct kernel_more *more)
{
	const struct name_entry *e;

	if (!name_kept(r, k->mangled)) {
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

/* ---- Binaries ---- */

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

/* A kernel the library read, in the list's shape. */
static int from_input(const struct occ_kernel_in *in, void *ctx)
{
	struct reader *r = ctx;
	struct kernel_info *k = kernels_add(r->l);
	struct kernel_more m = kernel_no_more;

	k->mangled = in->mangled;     /* the reader's, until kept */
	k->file = kernels_file_name(r->l, in->file);
	k->arch = names_intern(&r->l->archs, in->arch)->mangled;
	k->cc_major = in->cc_major;
	k->cc_minor = in->cc_minor;
	k->source = in->source;
	k->ptx_only = in->ptx_only;
	k->regs = in->regs;
	k->static_smem = in->static_smem;
	k->barriers = in->barriers;
	k->stack = in->stack;
	k->bounds_known = in->bounds_known;
	k->max_threads = in->max_threads;
	k->min_blocks = in->min_blocks;
	k->max_regs = in->max_regs;
	k->fatbin_offset = in->fatbin_offset;
	k->relocatable = in->relocatable;
	k->image = in->image;
	k->sole_image = in->sole_image;
	m.spill_stores = in->spill_stores;
	m.spill_loads = in->spill_loads;
	m.line = in->line;
	memcpy(m.req_threads, in->req_threads, sizeof m.req_threads);
	memcpy(m.cluster, in->cluster, sizeof m.cluster);
	if (in->bin && r->s->o->ptxas_jit && in->ptx_only &&
	    in->image == OCC_IMAGE_PTX)
		from_ptxas(r, in->bin, k);
	if (r->walk)
		triton_count(r, k);
	keep_or_drop(r, k, &m);
	return 0;
}

/* A file of a directory that could not be read, and why: said when the
 * walk ends, as a warning beside the rows read. */
static void bad_file(const char *line, void *ctx)
{
	struct kernel_list *l = ((struct reader *)ctx)->l;
	size_t n = strlen(line);
	char *grown = realloc(l->skipped, l->skipped_len + n + 2);

	if (!grown)
		die("out of memory");
	l->skipped = grown;
	memcpy(grown + l->skipped_len, line, n);
	l->skipped_len += n;
	grown[l->skipped_len++] = '\n';
	grown[l->skipped_len] = '\0';
	l->nskipped++;
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

/* The input's kind known: the options a binary is read with (the GPU
 * whose image of each fatbin is read), and the tables. */
static void reader_start(enum occ_kernels_kind kind,
			 struct occ_kernels_read_opts *o, void *ctx)
{
	struct reader *r = ctx;

	if (kind == OCC_KERNELS_BINARY || kind == OCC_KERNELS_DIR) {
		r->walk = kind == OCC_KERNELS_DIR;
		if (r->walk && r->l->stream)
			r->l->stream->walk = 1;
		r->l->target_cc = image_target(r->s);
		o->bin.cc_major = r->l->target_cc / 10;
		o->bin.cc_minor = r->l->target_cc % 10;
		o->bin.contents = &r->l->contents;
		/* --ptxas-jit compiles the PTX the driver would: its text is
		 * kept for the callback only then. */
		o->bin.ptx_text = r->s->o->ptxas_jit;
		/* --kernel: the kernels it leaves out are not held while an
		 * image's rows wait (in a directory, the library asks all). */
		o->bin.want = r->l->have_re ? wanted : NULL;
		o->bin.want_ctx = r;
	}
	o->tables = session_tables(r->s);
}

/* The library's read failed: its line, or a report's figure as a data
 * file's. */
static _Noreturn void read_failed(enum occ_status st,
				  const struct occ_kernels_diag *d)
{
	if (*d->msg)
		die("%s", d->msg);
	die_data(st, &d->data, 0, "");
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
	struct reader r;
	struct occ_kernels_read_stats stats;
	struct occ_kernels_diag d;
	enum occ_status st;
	int cc;

	memset(&r, 0, sizeof r);
	r.s = s;
	r.l = l;
	r.input = kernels_input_name(path);
	kernels_bin_opts(s->o, &r.opts.bin, &r.arch);
	r.opts.start = reader_start;
	r.opts.bad_file = bad_file;
	/* A GPU list keeps every image: each GPU chooses (targets.c). */
	r.opts.arch = s->n_targets ? NULL : s->o->arch;
	r.opts.all_images = s->o->all_images;
	/* --api loads standard input's code from its bytes. */
	r.opts.hold_input = s->o->api;
	r.opts.held = &l->held;
	if (l->stream) {
		l->stream->relocatable = !s->o->all_images;
		l->stream->keep_cc = !s->n_targets && !s->o->all_images
				     ? image_target(s) : 0;
	}
	st = strcmp(path, "-") == 0
	     ? occ_kernels_read_fd(STDIN_FILENO, r.input, &r.opts, from_input,
				   &r, NULL, &stats, &d)
	     : occ_kernels_read(path, &r.opts, from_input, &r, NULL, &stats,
				&d);
	if (st != OCC_OK)
		read_failed(st, &d);
	l->text |= stats.kind == OCC_KERNELS_REPORT;
	if (stats.kind == OCC_KERNELS_DIR) {
		triton_flush(&r, l->n);
		warn_skipped(l);
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
