/*
 * kernel_keep.c - which of a file's kernels are shown
 * (occcalc/kernel_row.h): of a kernel's images that no fatbin chose
 * (cubins, a compiler report's rows), the one the driver would load on
 * the GPU named; a cubin's minimum blocks from the PTX beside it. The
 * rules occcalc --kernels applies to its list and occ_env_kernels_json
 * to a file's kernels, over any caller's records (occ_kernel_pick_fn).
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

/* ---- A cubin's minimum blocks, from its PTX beside it ---- */

/* A PTX kernel of a fatbin that states its minimum blocks. */
struct ptx_min {
	const char *mangled;
	size_t at;               /* its place in the list */
};

static int by_name_then_place(const void *a, const void *b)
{
	const struct ptx_min *x = a, *y = b;
	int c = strcmp(x->mangled, y->mangled);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The first of the n (sorted) named m, or NULL. */
static const struct ptx_min *ptx_min_find(const struct ptx_min *p, size_t n,
					  const char *m)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(p[mid].mangled, m) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(p[lo].mangled, m) == 0 ? &p[lo] : NULL;
}

/* Whether a and b are entries of one fatbin. */
static int same_fatbin(const struct occ_kernel_pick *a,
		       const struct occ_kernel_pick *b)
{
	return (a->file == b->file || strcmp(a->file, b->file) == 0) &&
	       a->fatbin_offset == b->fatbin_offset;
}

/* The fatbin's entries from start: where they end. */
static size_t fatbin_end(const void *list, size_t n, occ_kernel_pick_fn pick,
			 size_t start)
{
	struct occ_kernel_pick first, k;
	size_t end = start + 1;

	pick(list, start, &first);
	while (end < n && (pick(list, end, &k), same_fatbin(&k, &first)))
		end++;
	return end;
}

/* The fatbin's [start, end): its PTX's minimum blocks into the SASS's. */
static void fatbin_min_blocks(const void *list, occ_kernel_pick_fn pick,
			      size_t start, size_t end, struct ptx_min *p,
			      int *min_blocks)
{
	struct occ_kernel_pick k, ptx;
	const struct ptx_min *f;
	size_t i, n = 0;

	for (i = start; i < end; i++) {
		pick(list, i, &k);
		if (k.im.ptx_only && k.min_blocks > 0)
			p[n++] = (struct ptx_min){ k.mangled, i };
	}
	if (n == 0)
		return;
	qsort(p, n, sizeof *p, by_name_then_place);
	for (i = start; i < end; i++) {
		pick(list, i, &k);
		if (!k.im.ptx_only && k.min_blocks < 0 &&
		    (f = ptx_min_find(p, n, k.mangled))) {
			pick(list, f->at, &ptx);
			min_blocks[i] = ptx.min_blocks;
		}
	}
}

enum occ_status occ_kernels_min_blocks_from_ptx(const void *list, size_t n,
						occ_kernel_pick_fn pick,
						int *min_blocks)
{
	struct ptx_min *p = n ? malloc(n * sizeof *p) : NULL;
	size_t start, end;

	if (n && !p)
		return OCC_ERR_NOMEM;
	memset(min_blocks, 0, n * sizeof *min_blocks);
	for (start = 0; start < n; start = end) {
		end = fatbin_end(list, n, pick, start);
		fatbin_min_blocks(list, pick, start, end, p, min_blocks);
	}
	free(p);
	return OCC_OK;
}

/* ---- Relocatable code beside the linked ---- */

/* A linked kernel of a file: its name and architecture. */
struct linked {
	const char *mangled, *arch;
};

static int by_name_arch(const void *a, const void *b)
{
	const struct linked *x = a, *y = b;
	int c = strcmp(x->mangled, y->mangled);

	return c ? c : strcmp(x->arch, y->arch);
}

/* The file's run of kernels from start: where it ends. */
static size_t file_end(const void *list, size_t n, occ_kernel_pick_fn pick,
		       size_t start)
{
	struct occ_kernel_pick first, k;
	size_t end = start + 1;

	pick(list, start, &first);
	while (end < n && (pick(list, end, &k), k.file == first.file ||
			   strcmp(k.file, first.file) == 0))
		end++;
	return end;
}

/* The file's [start, end): its -rdc images of kernels linked there. */
static void file_relocatable(const void *list, occ_kernel_pick_fn pick,
			     size_t start, size_t end, struct linked *linked,
			     unsigned char *drop)
{
	struct occ_kernel_pick k;
	struct linked key;
	size_t i, n = 0;

	for (i = start; i < end; i++) {
		pick(list, i, &k);
		if (!k.im.relocatable && !k.im.ptx_only)
			linked[n++] = (struct linked){ k.mangled, k.im.arch };
	}
	if (n == 0)
		return;
	qsort(linked, n, sizeof *linked, by_name_arch);
	for (i = start; i < end; i++) {
		pick(list, i, &k);
		key = (struct linked){ k.mangled, k.im.arch };
		drop[i] = k.im.relocatable &&
			  bsearch(&key, linked, n, sizeof *linked, by_name_arch);
	}
}

enum occ_status occ_kernels_drop_relocatable(const void *list, size_t n,
					     occ_kernel_pick_fn pick,
					     unsigned char *drop)
{
	struct linked *linked = n ? malloc(n * sizeof *linked) : NULL;
	size_t start, end;

	if (n && !linked)
		return OCC_ERR_NOMEM;
	memset(drop, 0, n);
	for (start = 0; start < n; start = end) {
		end = file_end(list, n, pick, start);
		file_relocatable(list, pick, start, end, linked, drop);
	}
	free(linked);
	return OCC_OK;
}
