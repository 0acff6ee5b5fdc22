/*
 * kernels_api.c - --kernels --api: the driver on the kernel's own code.
 * Each row's kernel is loaded from the file it was read from (the cubin,
 * or the fatbin holding it) and the driver's attributes and occupancy
 * are set beside the model's, agreeing or not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "occupancy.h"
#include "kernels.h"


static void api_load_file(struct api *a, const char *file)
{
	int fd;
	struct stat sb;
	ssize_t got;
	size_t n = 0;

	gpu_loader_forget(a->loader);
	a->refused = NULL;
	free(a->buf);
	a->buf = NULL;
	a->file = file;
	fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) != 0)
		die("%s: cannot read: %s", file, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		die("%s: changed while occcalc read it (no longer a regular "
		    "file)", file);
	if (!(a->buf = malloc((size_t)sb.st_size + 1)))
		die("%s: too large to read into memory", file);
	while (n < (size_t)sb.st_size &&
	       (got = read(fd, a->buf + n, (size_t)sb.st_size - n)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			die("%s: cannot read: %s", file, strerror(errno));
		n += (size_t)got;
	}
	close(fd);
	a->len = n;
}

/* Where cuModuleLoadData finds the kernel's code in buf: the cubin, or
 * the fatbin holding it; NULL if the file changed since it was read. */
static const void *image_in(const unsigned char *buf, size_t len,
			    const struct kernel_info *k)
{
	if (k->fatbin_offset < 0)
		return buf;
	return (uint64_t)k->fatbin_offset + 16 <= len
	       ? buf + k->fatbin_offset : NULL;
}

static void api_tick(void *ctx, size_t done, size_t total)
{
	struct api *a = ctx;

	progress_show(&a->progress, "--api: %s: %zu of %zu images loaded "
		      "by the driver", a->preload_file, done, total);
}

/* The images of file the rows will ask the driver for, in their order,
 * loaded ahead on threads: the driver compiling PTX takes seconds a
 * fatbin (docs/listing-probe/README.md). */
static void api_preload(struct api *a, const struct session *s,
			const struct kernel_list *l, const char *file,
			const unsigned char *buf, size_t len)
{
	const void **images = malloc((l->n + 1) * sizeof *images);
	const void *im;
	size_t i, n = 0;
	int jobs = s->o->jobs ? (int)s->o->jobs : occ_bin_default_jobs();

	if (!images)
		die("out of memory");
	for (i = 0; i < l->n; i++)
		if (l->k[i].file == file && a->ok[i] &&
		    (a->ptx_queried || !l->k[i].ptx_only) &&
		    (im = image_in(buf, len, &l->k[i])) &&
		    (n == 0 || images[n - 1] != im))
			images[n++] = im;
	a->preload_file = file;
	if (gpu_loader_preload(a->loader, images, n, jobs, api_tick, a) != 0)
		warn("--api: cannot load images ahead (out of memory or "
		     "threads): one at a time");
	free(images);
}

static const void *api_image(struct api *a, const struct session *s,
			     const struct kernel_list *l,
			     const struct kernel_info *k)
{
	if (a->fixed && strcmp(k->file, "<stdin>") == 0) {
		if (!a->fixed_started) {
			a->fixed_started = 1;
			gpu_loader_forget(a->loader);
			a->file = NULL;
			api_preload(a, s, l, k->file, a->fixed, a->fixed_len);
		}
		return image_in(a->fixed, a->fixed_len, k);
	}
	if (a->file != k->file) {
		a->fixed_started = 0;
		api_load_file(a, k->file);
		api_preload(a, s, l, k->file, a->buf, a->len);
	}
	return image_in(a->buf, a->len, k);
}

/* On a terminal, for a run of more than a second: the images loaded. */
static void api_progress(struct api *a)
{
	size_t done, total;

	gpu_loader_progress(a->loader, &done, &total);
	if (total)
		api_tick(a, done, total);
}

/* The model's most threads per block for k's registers and bound: what
 * the driver reports as CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK. */
int kernel_max_threads(const struct occ_arch *a, const struct occ_kernel *k)
{
	struct occ_kernel t = *k;
	struct occ_result r;
	int size = k->max_threads > 0 && k->max_threads < a->max_threads_per_block
		   ? k->max_threads : a->max_threads_per_block;

	t.dynamic_smem = t.static_smem = 0;
	for (; size > 0; size -= size % a->warp_size ? size % a->warp_size
						     : a->warp_size) {
		t.block_size = size;
		if (occ_compute(a, &t, &r) == OCC_OK && r.blocks_per_sm > 0)
			break;
	}
	return size;
}

static int func_agrees(const struct occ_row *row, const struct gpu_func *f)
{
	const struct kernel_info *k = row->ki;

	/* Above the bound the occupancy APIs answer as if there were none,
	 * but a launch fails (docs/kernels-api-validation.md): 0 stands. */
	int blocks = row->c.r.reason == OCC_ABOVE_LAUNCH_BOUNDS ||
		     f->blocks == row->c.r.blocks_per_sm;

	return f->regs == k->regs && f->static_smem == k->static_smem &&
	       f->local == k->stack && blocks &&
	       f->max_threads == kernel_max_threads(row->c.a, &row->c.k);
}

void kernels_api_row(struct api *a, struct session *s,
		     const struct kernel_list *l, struct occ_row *row,
		     struct row_gpu *g)
{
	const struct kernel_info *k = row->ki;
	const void *image;
	char err[512];
	int st;

	if (!a->ok[k - l->k])
		return;
	image = api_image(a, s, l, k);
	if (!image)
		die("%s: changed while occcalc read it", k->file);
	st = gpu_loader_query(a->loader, image, k->mangled,
			      row->c.k.block_size, row->c.k.dynamic_smem, &g->func,
			      err, sizeof err);
	api_progress(a);
	if (st > 0 || st < 0)
		progress_clear(&a->progress);
	if (st < 0)
		session_device_failed(s, err);
	if (st == 2 && a->refused != image)
		warn("%s: the driver does not load its code: %s", k->file, err);
	if (st == 2)
		a->refused = image;
	if (st == 1)
		warn("%s: %s: %s", k->file, k->name ? k->name : k->mangled, err);
	if (st > 0)
		return;
	g->have_func = 1;
	g->api_blocks = g->func.blocks;
	/* PTX: occcalc reads no resources to set beside the driver's (its
	 * row's model fields and agrees are null); nothing is counted. */
	g->agrees = k->ptx_only || func_agrees(row, &g->func);
	if (!g->agrees)
		s->disagreements++;
	row->gpu = g;
}

/* Which kernels the driver can say something of: the device's own cubins,
 * and PTX where the fatbin holding it has no cubin for the device. */
static unsigned char *api_targets(const struct kernel_list *l,
				  const struct occ_device *d)
{
	unsigned char *ok = calloc(l->n + 1, 1);
	size_t i, j, start;
	int cubin;

	if (!ok)
		die("out of memory");
	for (start = 0; start < l->n; start = i) {
		cubin = 0;
		for (i = start; i < l->n && l->k[i].file == l->k[start].file &&
		     l->k[i].fatbin_offset == l->k[start].fatbin_offset; i++)
			cubin |= !l->k[i].ptx_only &&
				 l->k[i].cc_major == d->cc_major &&
				 l->k[i].cc_minor == d->cc_minor;
		for (j = start; j < i; j++) {
			const struct kernel_info *k = &l->k[j];
			int cc = k->cc_major * 10 + k->cc_minor;

			ok[j] = k->relocatable ? 0
				: k->ptx_only ? !cubin && cc <= d->cc_major * 10 +
						d->cc_minor
				: k->cc_major == d->cc_major &&
				  k->cc_minor == d->cc_minor;
		}
	}
	return ok;
}

void kernels_api_open(struct api *a, struct session *s,
		      const struct kernel_list *l)
{
	char err[512];
	size_t i, relocatable = 0;

	if (l->text)
		die("--api loads the kernels' code: give a binary (a compiler "
		    "report holds none)");
	a->dev_arch = session_device_arch(s);
	a->loader = gpu_loader_open(&s->gpu, err, sizeof err);
	if (!a->loader)
		session_device_failed(s, err);
	a->fixed = l->held.input;
	a->fixed_len = l->held.input_len;
	a->ok = api_targets(l, &s->dev);
	progress_start(&a->progress);
	for (i = 0; i < l->n; i++)
		relocatable += l->k[i].relocatable;
	if (relocatable)
		warn("%zu kernel%s of relocatable device code (nvcc -rdc) not "
		     "given to the driver: it runs only linked code "
		     "(cuModuleLoadData refuses relocatable code as it is; "
		     "the library links it at run time)", relocatable,
		     plural(relocatable));
}

void kernels_api_close(struct api *a)
{
	progress_clear(&a->progress);
	gpu_loader_close(a->loader);
	free(a->buf);
	free((void *)a->ok);
}
