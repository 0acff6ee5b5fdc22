/*
 * kernel_keep.c - of a kernel's images in one file that no fatbin chose
 * (cubins, a compiler report's rows), the one the driver would load on
 * the GPU named (occcalc/kernel_row.h): the rule occcalc --kernels
 * applies to its list and occ_env_kernels_json to a file's kernels, over
 * any caller's records through occ_kernel_pick_fn.
 */
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

/* A kernel of the list, by file, then name, then place. */
struct placed {
	const char *file, *mangled;
	size_t at;
};

static int by_file_kernel_place(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	int c = x->file != y->file ? strcmp(x->file, y->file)
		: strcmp(x->mangled, y->mangled);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

static int same_kernel(const struct placed *a, const struct placed *b)
{
	return (a->file == b->file || strcmp(a->file, b->file) == 0) &&
	       strcmp(a->mangled, b->mangled) == 0;
}

/* Whether an image is one of those chosen among: no fatbin chose it (or
 * none of its fatbin runs there). */
static int unchosen(const struct occ_kernel_image *im)
{
	return im->image == OCC_IMAGE_NONE ||
	       (im->image == OCC_IMAGE_ALL && !im->relocatable);
}

struct keep {
	const void *list;
	occ_kernel_pick_fn pick;
	int cc_major, cc_minor;
};

static int rank_at(const struct keep *c, size_t at)
{
	struct occ_kernel_pick p;

	c->pick(c->list, at, &p);
	return occ_kernel_image_rank(&p.im, c->cc_major, c->cc_minor);
}

static int none_at(const struct keep *c, size_t at)
{
	struct occ_kernel_pick p;

	c->pick(c->list, at, &p);
	return p.im.image == OCC_IMAGE_NONE;
}

/* One kernel's images p[i .. j): the best kept; where none runs there,
 * one row saying so where its images are marked so (else, as with no GPU
 * chosen for, each is left as read). */
static void keep_best(const struct keep *c, const struct placed *p,
		      size_t i, size_t j, size_t n, unsigned char *drop)
{
	size_t k, best = i, none = none_at(c, p[i].at) ? i : n;

	for (k = i + 1; k < j; k++) {
		if (rank_at(c, p[k].at) > rank_at(c, p[best].at))
			best = k;
		if (none == n && none_at(c, p[k].at))
			none = k;
	}
	if (rank_at(c, p[best].at) == 0)
		best = none;
	for (k = i; k < j; k++)
		drop[p[k].at] = k != best &&
				(best != n || none_at(c, p[k].at));
}

enum occ_status occ_kernels_keep_loaded(const void *list, size_t n,
					occ_kernel_pick_fn pick, int cc_major,
					int cc_minor, unsigned char *drop)
{
	const struct keep c = { list, pick, cc_major, cc_minor };
	struct placed *p = n ? malloc(n * sizeof *p) : NULL;
	struct occ_kernel_pick k;
	size_t m = 0, i, j;

	if (n && !p)
		return OCC_ERR_NOMEM;
	memset(drop, 0, n);
	for (i = 0; i < n; i++) {
		pick(list, i, &k);
		if (unchosen(&k.im))
			p[m++] = (struct placed){ k.file, k.mangled, i };
	}
	if (m > 1)
		qsort(p, m, sizeof *p, by_file_kernel_place);
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && same_kernel(&p[j], &p[i]); j++)
			;
		keep_best(&c, p, i, j, m, drop);
	}
	free(p);
	return OCC_OK;
}
