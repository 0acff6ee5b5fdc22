/*
 * names.c - the kernel names of a --kernels run, each kept once: a
 * library holds the same kernel for many architectures (cuBLASLt: 47,137
 * rows), and the rows share one copy of its mangled name and one of its
 * demangled name, demangled once, and only when something prints or
 * matches it. Names are demangled once the read is over, not as kernels
 * are kept: the read's memory (its arena, 56 MB) is given back by then,
 * and PyTorch's libtorch_cuda.so holds 23 MB of demangled names.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Eight bytes a step, each mixed in by a multiply and a shift: the
 * calling thread hashes every row's name as the reader delivers it, and
 * byte by byte (FNV-1a) that was a tenth of its time on cuBLASLt's names
 * of 200 to 600 characters. */
static uint64_t hash_of(const char *s)
{
	size_t n = strlen(s), i;
	uint64_t h = n * 0x9e3779b97f4a7c15ull, w;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s + i, n - i);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ h >> 29;
}

static void grow(struct name_table *t)
{
	size_t cap = t->cap ? 2 * t->cap : 1024, i, j;
	struct name_entry *e = calloc(cap, sizeof *e);

	if (!e)
		die("out of memory");
	for (i = 0; i < t->cap; i++) {
		if (!t->e[i].mangled)
			continue;
		for (j = t->e[i].hash & (cap - 1); e[j].mangled; j = (j + 1) & (cap - 1))
			;
		e[j] = t->e[i];
	}
	free(t->e);
	t->e = e;
	t->cap = cap;
}

void names_too_many(void)
{
	die("more than %llu MB of kernel names kept: --kernel REGEX or "
	    "--arch keeps fewer", (unsigned long long)(NAMES_MAX >> 20));
}

const struct name_entry *names_intern(struct name_table *t,
				      const char *mangled)
{
	uint64_t h;
	struct name_entry *e;
	size_t i;

	if (t->cap && t->e[t->last].mangled == mangled) {
		i = t->last;           /* the name the table itself holds */
	} else {
		/* Three quarters full at most: the table is held while the
		 * read's memory is (libtorch_cuda.so's 21,133 names in 768
		 * KB, not 2 MB at half full with 64-bit hashes). */
		if (4 * (t->n + 1) > 3 * t->cap)
			grow(t);
		h = hash_of(mangled);
		for (i = h & (t->cap - 1); t->e[i].mangled;
		     i = (i + 1) & (t->cap - 1))
			if (t->e[i].hash == (uint32_t)h &&
			    strcmp(t->e[i].mangled, mangled) == 0)
				break;
		t->e[i].hash = (uint32_t)h;
	}
	t->last = i;
	e = &t->e[i];
	if (!e->mangled) {
		if (!(e->mangled = strdup(mangled)))
			die("out of memory");
		t->n++;
		t->bytes += strlen(mangled) + 1;
	}
	if (t->bytes > NAMES_MAX)
		names_too_many();
	return e;
}

const char *names_demangle(struct name_table *t, const char *mangled)
{
	struct name_entry *e = (struct name_entry *)names_intern(t, mangled);

	if (!e->demangled) {
		e->name = occ_demangle(e->mangled);
		e->demangled = 1;
		t->bytes += e->name ? strlen(e->name) + 1 : 0;
		if (t->bytes > NAMES_MAX)
			names_too_many();
	}
	return e->name;
}

/* A piece of the table's slots demangled on a thread: the bytes it
 * added, all pieces' together in *total, which stops them past the
 * limit. */
struct demangling {
	struct name_table *t;
	_Atomic size_t *total;
	size_t bytes;
};

static void *demangling_open(void *ctx)
{
	struct demangling *d = malloc(sizeof *d);

	if (d) {
		*d = *(struct demangling *)ctx;
		d->bytes = 0;
	}
	return d;
}

static void demangling_make(void *piece, size_t from, size_t to)
{
	struct demangling *d = piece;
	struct name_entry *e;
	size_t i, n;

	for (i = from; i < to && *d->total <= NAMES_MAX; i++) {
		e = &d->t->e[i];
		if (!e->mangled || e->demangled)
			continue;
		e->name = occ_demangle(e->mangled);
		e->demangled = 1;
		n = e->name ? strlen(e->name) + 1 : 0;
		d->bytes += n;
		*d->total += n;
	}
}

static int demangling_join(void *ctx, void *piece)
{
	struct demangling *d = piece;

	if (!d)
		die("out of memory");
	((struct demangling *)ctx)->bytes += d->bytes;
	free(d);
	return 0;
}

void names_demangle_all(struct name_table *t, int jobs)
{
	_Atomic size_t total = t->bytes;
	struct demangling all = { t, &total, 0 };
	struct pieces_job j = { t->cap, jobs, &all, demangling_open,
				demangling_make, demangling_join, free };

	if (pieces_run(&j) < 0)
		demangling_make(&all, 0, t->cap);
	t->bytes += all.bytes;
	if (t->bytes > NAMES_MAX)
		names_too_many();
}

void names_free(struct name_table *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++) {
		free(t->e[i].mangled);
		free(t->e[i].name);
	}
	free(t->e);
	memset(t, 0, sizeof *t);
}
