/*
 * kernels_stream.c - --kernels' rows written as the kernels are read
 * (csv, jsonl, json), so that what is held does not grow with the
 * kernels. A kernel is held only while something read after it could
 * change it or what comes before it in the output: its fatbin's PTX
 * (the minimum blocks a cubin lacks, the PTX beside the SASS chosen),
 * its file's linked code (an -rdc image left out beside it), its file's
 * other images of it (the one the GPU named loads), its Triton cache
 * entry, whether cluster launches are computed (the columns), and
 * whether any kernel runs on the GPU named at all (else the run ends
 * with one line and no rows). Past those, in chunks, the list's upkeep
 * (kernels_list.c) is done on the settled kernels and their rows made.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* Rows are made for at least this many settled kernels at once (on
 * threads where there are many), and held kernels are looked at this
 * often, so that looking costs time linear in the kernels read. */
#define STREAM_CHUNK 8192

/* The names (and their table) may be let go of past this much once
 * nothing holds them (a real library's are a few MB: cuBLASLt's 9 MB). */
#define STREAM_NAMES_KEPT ((size_t)16 << 20)

/* Whether something read after k (cur, the last read) may change it. */
static int held(const struct kernel_stream *st, const struct kernel_info *k,
		const struct kernel_info *cur)
{
	int same_file = k->file == cur->file;

	if (same_file && k->fatbin_offset >= 0 &&
	    k->fatbin_offset == cur->fatbin_offset)
		return 1;
	if (!same_file)
		return 0;
	return st->walk || (st->relocatable && k->relocatable) ||
	       (st->keep_cc && (k->image == OCC_IMAGE_NONE ||
				(k->image == OCC_IMAGE_ALL && !k->relocatable)));
}

/* ---- The linked kernels of the file being written ---- */

static uint64_t linked_hash(const char *mangled, const char *arch)
{
	uint64_t h = (uint64_t)(uintptr_t)mangled * 0x9e3779b97f4a7c15ull;
	const char *c;

	for (c = arch; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	return h ^ h >> 31;
}

/* The slot of (mangled, arch), or the empty one where it would go. */
static struct linked_kernel *linked_slot(struct kernel_stream *st,
					 const char *mangled, const char *arch)
{
	size_t i = linked_hash(mangled, arch) & (st->linked_cap - 1);

	while (st->linked[i].mangled &&
	       (st->linked[i].mangled != mangled ||
		strcmp(st->linked[i].arch, arch) != 0))
		i = (i + 1) & (st->linked_cap - 1);
	return &st->linked[i];
}

static void linked_add(struct kernel_stream *st, const struct kernel_info *k)
{
	struct linked_kernel *e;

	if (2 * (st->n_linked + 1) > st->linked_cap) {
		struct linked_kernel *old = st->linked;
		size_t cap = st->linked_cap, i;

		st->linked_cap = cap ? 2 * cap : 256;
		st->linked = calloc(st->linked_cap, sizeof *st->linked);
		if (!st->linked)
			die("out of memory");
		for (i = 0; i < cap; i++)
			if (old[i].mangled)
				*linked_slot(st, old[i].mangled, old[i].arch) =
					old[i];
		free(old);
	}
	e = linked_slot(st, k->mangled, k->arch);
	if (!e->mangled) {
		e->mangled = k->mangled;
		e->arch = k->arch;
		st->n_linked++;
	}
}

static void linked_clear(struct kernel_stream *st, const char *file)
{
	if (st->n_linked)
		memset(st->linked, 0, st->linked_cap * sizeof *st->linked);
	st->n_linked = 0;
	st->linked_file = file;
}

/* kernels_drop_relocatable on settled kernels v: each file's linked
 * kernels, those written before included, against its -rdc images
 * (held until the file's end, so all settled here). */
static void drop_relocatable(struct kernel_stream *st, struct kernel_list *v)
{
	size_t start, end, i, kept = 0;

	for (start = 0; start < v->n; start = end) {
		for (end = start; end < v->n && v->k[end].file == v->k[start].file;
		     end++)
			;
		if (v->k[start].file != st->linked_file)
			linked_clear(st, v->k[start].file);
		for (i = start; i < end; i++)
			if (!v->k[i].relocatable && !v->k[i].ptx_only)
				linked_add(st, &v->k[i]);
		for (i = start; i < end; i++) {
			const struct kernel_info *k = &v->k[i];

			if (k->relocatable && st->n_linked &&
			    linked_slot(st, k->mangled, k->arch)->mangled)
				v->relocatable_dropped++;
			else
				v->k[kept++] = *k;
		}
	}
	v->n = kept;
}

/* ---- The names of the kernels being written ---- */

/* The demangled names of one chunk's kernels, each demangled once and
 * let go of when its rows are written: kept in the list's table until
 * the end, libtorch_cuda.so's 13.6 MB of them were held beside the
 * read's memory (123 MB, against 98 MB for the text table, which
 * demangles after the read). */
struct chunk_names {
	const char **mangled;    /* the list's names' (interned): the key */
	char **name;
	size_t cap;              /* a power of 2, at least twice the kernels */
};

static void chunk_name_all(struct chunk_names *c, struct kernel_info *k,
			   size_t n, size_t kept)
{
	size_t i, j, bytes = kept;

	for (c->cap = 16; c->cap < 2 * n; c->cap *= 2)
		;
	c->mangled = calloc(c->cap, sizeof *c->mangled);
	c->name = calloc(c->cap, sizeof *c->name);
	if (!c->mangled || !c->name)
		die("out of memory");
	for (i = 0; i < n; i++) {
		j = linked_hash(k[i].mangled, "") & (c->cap - 1);
		while (c->mangled[j] && c->mangled[j] != k[i].mangled)
			j = (j + 1) & (c->cap - 1);
		if (!c->mangled[j]) {
			c->mangled[j] = k[i].mangled;
			c->name[j] = occ_demangle(k[i].mangled);
			bytes += c->name[j] ? strlen(c->name[j]) + 1 : 0;
			if (bytes > NAMES_MAX)
				names_too_many();
		}
		k[i].name = c->name[j];
	}
}

static void chunk_names_free(struct chunk_names *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		free(c->name[i]);
	free(c->name);
	free(c->mangled);
}

/* ---- Settling ---- */

/* The rows of v, STREAM_CHUNK kernels at a time: the rows' text is held
 * until written, and a fatbin settled whole (libtorch_cuda.so's made
 * 93.7 MB of text) would hold it all beside the read's memory. */
static void rows_in_slices(struct kernel_stream *st, const struct kernel_list *v)
{
	struct kernel_list w = *v;
	size_t off;

	for (off = 0; off < v->n; off += w.n) {
		w.k = v->k + off;
		w.n = v->n - off < STREAM_CHUNK ? v->n - off : STREAM_CHUNK;
		st->rows(st->ctx, &w);
	}
}

/* The first n kernels of l: the list's upkeep done on them, their rows
 * made, and they let go of. */
static void write_settled(struct kernel_stream *st, struct kernel_list *l,
			  size_t n)
{
	struct kernel_list v;
	struct chunk_names names = { NULL, NULL, 0 };

	memset(&v, 0, sizeof v);
	v.k = l->k;
	v.n = n;
	if (st->relocatable)
		drop_relocatable(st, &v);
	if (st->keep_cc)
		kernels_keep_loaded(&v, st->keep_cc);
	kernels_min_blocks_from_ptx(&v);
	kernels_drop_beside(&v);
	l->relocatable_dropped += v.relocatable_dropped;
	st->written += v.n;
	if (l->need_names)
		chunk_name_all(&names, v.k, v.n, l->names.bytes);
	rows_in_slices(st, &v);
	if (l->need_names)
		chunk_names_free(&names);
	memmove(l->k, l->k + n, (l->n - n) * sizeof *l->k);
	l->n -= n;
	if (!l->n)             /* nothing holds the rare fields (kernel_more) */
		kernels_more_free(l);
	if (!l->n && !st->n_linked && l->names.bytes + l->names.cap *
	    sizeof *l->names.e > STREAM_NAMES_KEPT)
		names_free(&l->names);
}

size_t kernels_stream_settle(struct kernel_list *l, int end)
{
	struct kernel_stream *st = l->stream;
	const struct kernel_info *cur;
	size_t i;

	if (!l->n)
		return 0;
	cur = &l->k[l->n - 1];
	st->loadable |= cur->image != OCC_IMAGE_NONE;
	/* Were none to run on the GPU named, the run ends without rows. */
	if (!st->ready(st->ctx, l, end) || !st->loadable)
		return 0;
	if (!end && ++st->since < STREAM_CHUNK)
		return 0;
	st->since = 0;
	for (i = 0; i < l->n && (end || !held(st, &l->k[i], cur)); i++)
		;
	if (!end && i < STREAM_CHUNK)
		return 0;
	write_settled(st, l, i);
	return i;
}

void kernels_stream_free(struct kernel_stream *st)
{
	free(st->linked);
	st->linked = NULL;
	st->linked_cap = st->n_linked = 0;
}
