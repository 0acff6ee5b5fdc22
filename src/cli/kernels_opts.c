/*
 * kernels_opts.c - how --kernels has the library read a binary: on how
 * many threads (--jobs), which images it may leave unread (--arch with
 * --all-images), and whether kernel names need demangling (--fields).
 */
#include <malloc.h>
#include <string.h>

#include "kernels.h"

int kernels_names_needed(const struct options *o)
{
	const char *p = o->fields;
	size_t n = strlen("kernel");

	if (!p || o->kernel_re || o->api || o->compare || o->n_check ||
	    o->check_file)
		return 1;
	for (; *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, "kernel", n) == 0 && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* Whether --arch can keep an image's kernels, from its fatbin entry's
 * header: those it cannot are never decompressed. The code that runs on
 * that GPU (occ_kernel_arch_keeps), or for a suffixed target its compute
 * capability's (the suffix is the cubin's to say); the library's read
 * decides the rest (occ_kernels_read_opts.arch). Where a GPU is named, the image the driver loads there is
 * read instead, and this is not asked. */
static int arch_may_keep(const struct occ_bin_image_head *im, void *ctx)
{
	const struct arch_filter *f = ctx;

	if (f->exact)
		return (int)(im->sm / 10) == f->cc_major &&
		       (int)(im->sm % 10) == f->cc_minor;
	return occ_bin_image_runs(im, f->cc_major, f->cc_minor);
}

void kernels_bin_opts(const struct options *o, struct occ_bin_opts *opts,
		      struct arch_filter *f)
{
#ifdef M_MMAP_THRESHOLD
	/* Blocks of 1 MB and more mapped, whatever glibc learnt: a thread's
	 * image buffers (zstd's too) go back when freed instead of staying
	 * in that thread's arena, so memory does not grow with --jobs. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
	opts->jobs = (int)o->jobs;
	if (o->arch && occ_arch_parse_name(o->arch, &f->cc_major,
					   &f->cc_minor) == OCC_OK) {
		size_t n = strlen(o->arch);

		f->exact = o->arch[n - 1] == 'a' || o->arch[n - 1] == 'f';
		opts->select = arch_may_keep;
		opts->select_ctx = f;
	}
}
