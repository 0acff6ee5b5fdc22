/*
 * names.c - the kernel names of a --kernels run, each kept once: a
 * library holds the same kernel for many architectures (cuBLASLt: 47,137
 * rows), and the rows share one copy of its mangled name and one of its
 * demangled name, demangled once, and only when something prints or
 * matches it. What is printed is demangled once all is read, on threads:
 * on the thread that takes the rows in order, demangling a library's
 * names took longer than the other threads took to read it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static uint64_t hash_of(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;         /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
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

const struct name_entry *names_intern(struct name_table *t,
				      const char *mangled, int demangled)
{
	uint64_t h;
	struct name_entry *e;
	size_t i;

	if (t->cap && t->e[t->last].mangled == mangled) {
		i = t->last;           /* the name the table itself holds */
	} else {
		if (2 * (t->n + 1) > t->cap)
			grow(t);
		h = hash_of(mangled);
		for (i = h & (t->cap - 1); t->e[i].mangled;
		     i = (i + 1) & (t->cap - 1))
			if (t->e[i].hash == h &&
			    strcmp(t->e[i].mangled, mangled) == 0)
				break;
		t->e[i].hash = h;
	}
	t->last = i;
	e = &t->e[i];
	if (!e->mangled) {
		if (!(e->mangled = strdup(mangled)))
			die("out of memory");
		t->n++;
	}
	if (demangled && !e->demangled) {
		e->name = demangle(mangled);
		e->demangled = 1;
	}
	return e;
}

/* The entry of mangled, usually the table's own copy; NULL if none. */
static const struct name_entry *held(const struct name_table *t,
				     const char *mangled)
{
	uint64_t h = hash_of(mangled);
	size_t i;

	for (i = h & (t->cap - 1); t->e[i].mangled; i = (i + 1) & (t->cap - 1))
		if (t->e[i].mangled == mangled ||
		    (t->e[i].hash == h && strcmp(t->e[i].mangled, mangled) == 0))
			return &t->e[i];
	return NULL;
}

/* Names to demangle a thread, at least: fewer are demangled here. */
#define NAMES_A_THREAD 256
#define MAX_THREADS 256

struct slots {
	struct name_table *t;
	size_t from, to;
};

static void *demangle_slots(void *arg)
{
	struct slots *r = arg;
	size_t i;

	for (i = r->from; i < r->to; i++) {
		struct name_entry *e = &r->t->e[i];

		if (e->mangled && !e->demangled) {
			e->name = demangle(e->mangled);
			e->demangled = 1;
		}
	}
	return NULL;
}

/* Each name not yet demangled, on up to jobs threads (0: one for each
 * processor), each its own slots of the table. */
static void demangle_all(struct name_table *t, int jobs)
{
	long n = jobs > 0 ? jobs : sysconf(_SC_NPROCESSORS_ONLN);
	struct slots r[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	int started[MAX_THREADS] = { 0 };
	long i;

	if (n > (long)(t->n / NAMES_A_THREAD))
		n = (long)(t->n / NAMES_A_THREAD);
	n = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
	for (i = 0; i < n; i++) {
		r[i].t = t;
		r[i].from = t->cap / (size_t)n * (size_t)i;
		r[i].to = i == n - 1 ? t->cap : t->cap / (size_t)n * (size_t)(i + 1);
		started[i] = i > 0 &&
			     pthread_create(&th[i], NULL, demangle_slots, &r[i]) == 0;
	}
	for (i = 0; i < n; i++)         /* here: the first, any not started */
		if (!started[i])
			demangle_slots(&r[i]);
	for (i = 1; i < n; i++)
		if (started[i])
			pthread_join(th[i], NULL);
}

void names_demangle(struct name_table *t, struct kernel_info *k, size_t n,
		    int jobs)
{
	size_t i;

	if (!t->cap)
		return;
	demangle_all(t, jobs);
	for (i = 0; i < n; i++) {
		const struct name_entry *e;

		if (!k[i].name && k[i].mangled && (e = held(t, k[i].mangled)))
			k[i].name = e->name;
	}
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
