/*
 * kernels_list.c - --kernels' list of kernels: growing it, the files its
 * kernels were read from, what --arch keeps, why an image was chosen, and
 * what is taken out once all is read (the PTX beside SASS, relocatable
 * code beside linked code).
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* ---- The list ---- */

/* Rare fields, kept in chunks so that a kernel's pointer stays put as
 * the list grows. */
#define MORE_CHUNK 256

struct more_chunk {
	struct more_chunk *next;
	size_t n;
	struct kernel_more m[MORE_CHUNK];
};

const struct kernel_more kernel_no_more = { -1, -1, 0, { 0, 0, 0 },
					    { 0, 0, 0 }, NULL };

const struct kernel_more *kernel_more(const struct kernel_info *k)
{
	return k->more ? k->more : &kernel_no_more;
}

static int is_no_more(const struct kernel_more *m)
{
	int i;

	for (i = 0; i < 3; i++)
		if (m->req_threads[i] || m->cluster[i])
			return 0;
	return m->spill_stores == -1 && m->spill_loads == -1 && !m->line &&
	       !m->launch;
}

void kernels_more_set(struct kernel_list *l, struct kernel_info *k,
		      const struct kernel_more *m)
{
	struct more_chunk *c = l->more;

	if (k->more) {                 /* the list's own: set again */
		*(struct kernel_more *)k->more = *m;
		return;
	}
	if (is_no_more(m))
		return;
	if (!c || c->n == MORE_CHUNK) {
		if (!(c = malloc(sizeof *c)))
			die("out of memory");
		c->next = l->more;
		c->n = 0;
		l->more = c;
	}
	c->m[c->n] = *m;
	k->more = &c->m[c->n++];
}

void kernels_more_free(struct kernel_list *l)
{
	struct more_chunk *c, *next;
	size_t i;

	for (c = l->more; c; c = next) {
		next = c->next;
		for (i = 0; i < c->n; i++)
			free(c->m[i].launch);
		free(c);
	}
	l->more = NULL;
}

struct kernel_info *kernels_add(struct kernel_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct kernel_info *k = realloc(l->k, cap * sizeof *k);

		if (!k)
			die("out of memory");
		l->k = k;
		l->cap = cap;
	}
	memset(&l->k[l->n], 0, sizeof l->k[l->n]);
	return &l->k[l->n++];
}

void kernels_name(struct kernel_list *l, struct kernel_info *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		k[i].name = names_demangle(&l->names, k[i].mangled);
}

/* The list's copy of the file name, shared by its kernels. */
const char *kernels_file_name(struct kernel_list *l, const char *file)
{
	char **f;

	if (l->nfiles && strcmp(l->files[l->nfiles - 1], file) == 0)
		return l->files[l->nfiles - 1];
	f = realloc(l->files, (l->nfiles + 1) * sizeof *f);
	if (!f || !(f[l->nfiles] = strdup(file)))
		die("out of memory");
	l->files = f;
	return l->files[l->nfiles++];
}

void kernels_drop_beside(struct kernel_list *l)
{
	size_t i, kept = 0;

	for (i = 0; i < l->n; i++) {
		if (l->k[i].image == OCC_IMAGE_BESIDE)
			continue;          /* its names stay in the table */
		l->k[kept++] = l->k[i];
	}
	l->n = kept;
}

void kernels_free(struct kernel_list *l)
{
	size_t i;

	names_free(&l->names);
	names_free(&l->archs);
	kernels_more_free(l);
	for (i = 0; i < l->nfiles; i++)
		free(l->files[i]);
	free(l->k);
	free(l->files);
	free(l->held.input);
	free(l->held.text);
	free(l->skipped);
	ptxas_jit_clear(&l->jit);
	free((void *)l->order);
	kernels_stream_free(&l->streaming);
	if (l->have_re)
		regfree(&l->re);
	memset(l, 0, sizeof *l);
}

/* ---- What --arch and --kernel keep ---- */

/* k as the library's rules of which image runs see it. */
static struct occ_kernel_image image_of(const struct kernel_info *k)
{
	struct occ_kernel_image im = { k->arch, k->cc_major, k->cc_minor,
				       k->ptx_only, k->relocatable,
				       k->sole_image, (enum occ_bin_image)k->image };

	return im;
}

int kernel_arch_matches(const char *want, const struct kernel_info *k)
{
	struct occ_kernel_image im = image_of(k);

	return occ_kernel_arch_matches(want, &im);
}

int kernel_runs_on(const struct kernel_info *k, int cc)
{
	struct occ_kernel_image im = image_of(k);

	return occ_kernel_runs_on(&im, cc / 10, cc % 10);
}

int kernel_image_rank(const struct kernel_info *k, int cc)
{
	struct occ_kernel_image im = image_of(k);

	return occ_kernel_image_rank(&im, cc / 10, cc % 10);
}

/* The i-th kernel of the list as the library's rules compare them. */
static void pick_of(const void *list, size_t i, struct occ_kernel_pick *p)
{
	const struct kernel_info *k = &((const struct kernel_info *)list)[i];

	p->file = k->file;
	p->mangled = k->mangled;
	p->im = image_of(k);
	p->fatbin_offset = k->fatbin_offset;
	p->min_blocks = k->min_blocks;
}

void kernels_keep_loaded(struct kernel_list *l, int cc)
{
	unsigned char *drop = l->n ? malloc(l->n) : NULL;
	size_t i, kept = 0;

	if (l->n && (!drop || occ_kernels_keep_loaded(l->k, l->n, pick_of,
						      cc / 10, cc % 10,
						      drop) != OCC_OK))
		die("out of memory");
	for (i = 0; i < l->n; i++)
		if (!drop[i])
			l->k[kept++] = l->k[i];
	l->n = kept;
	free(drop);
}

const char *kernel_image_why(const struct kernel_info *k)
{
	struct occ_kernel_image im = image_of(k);

	return occ_kernel_image_why(&im);
}

/* Relocatable device code (nvcc -rdc) is linked before the driver runs it
 * (cuModuleLoadData refuses it as it is: docs/relocatable.md): the
 * library's rule (occ_kernels_drop_relocatable), the images left out
 * counted. */
void kernels_drop_relocatable(struct kernel_list *l)
{
	unsigned char *drop = l->n ? malloc(l->n) : NULL;
	size_t i, kept = 0;

	if (l->n && (!drop || occ_kernels_drop_relocatable(l->k, l->n, pick_of,
							   drop) != OCC_OK))
		die("out of memory");
	for (i = 0; i < l->n; i++) {
		if (drop[i])
			l->relocatable_dropped++;
		else
			l->k[kept++] = l->k[i];
	}
	free(drop);
	l->n = kept;
}

void kernels_min_blocks_from_ptx(struct kernel_list *l)
{
	int *min = l->n ? malloc(l->n * sizeof *min) : NULL;
	size_t i;

	if (l->n && (!min || occ_kernels_min_blocks_from_ptx(l->k, l->n,
							     pick_of, min) !=
			     OCC_OK))
		die("out of memory");
	for (i = 0; i < l->n; i++)
		if (min[i] > 0)
			l->k[i].min_blocks = min[i];
	free(min);
}
