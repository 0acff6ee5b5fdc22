/*
 * names.c - each kernel's names, demangled once: a table keyed by the
 * pointer CUPTI gives (the same for every launch of a function), the
 * name compared too, since a module unloaded may free it for another.
 * The injection library demangles with the C++ runtime's
 * __cxa_demangle, so that a trace reads as it is; a name that is not a
 * C++ symbol (a Triton kernel, extern "C") is its own demangled name.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* The C++ runtime's, with C linkage (cxxabi.h is C++ only). */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len,
			    int *status);

struct name_entry {
	const char *key;         /* CUPTI's pointer */
	char *mangled;           /* a copy, to tell a reused pointer */
	char *json;              /* "kernel":"...","mangled":"..." */
};

struct name_cache {
	struct name_entry *e;
	size_t n, cap;           /* cap: a power of two */
};

struct name_cache *name_cache_new(void)
{
	struct name_cache *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->cap = 1024;
	c->e = calloc(c->cap, sizeof *c->e);
	if (!c->e) {
		free(c);
		return NULL;
	}
	return c;
}

static size_t slot(const struct name_cache *c, const char *key)
{
	uintptr_t h = (uintptr_t)key;

	h ^= h >> 17;
	h *= UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(h >> 20) & (c->cap - 1);
}

static int grow(struct name_cache *c)
{
	struct name_cache bigger = { NULL, 0, c->cap * 2 };
	size_t i, j;

	bigger.e = calloc(bigger.cap, sizeof *bigger.e);
	if (!bigger.e)
		return -1;
	for (i = 0; i < c->cap; i++) {
		if (!c->e[i].key)
			continue;
		for (j = slot(&bigger, c->e[i].key); bigger.e[j].key;
		     j = (j + 1) & (bigger.cap - 1))
			;
		bigger.e[j] = c->e[i];
	}
	free(c->e);
	c->e = bigger.e;
	c->cap = bigger.cap;
	return 0;
}

static char *names_json(const char *mangled)
{
	int st = -2;
	/* Only C++ symbols: __cxa_demangle also reads type codes ("i" is
	 * "int"). */
	char *dem = strncmp(mangled, "_Z", 2) == 0 ?
		__cxa_demangle(mangled, NULL, NULL, &st) : NULL;
	const char *shown = st == 0 && dem ? dem : mangled;
	size_t cap = 2 * 6 * (strlen(shown) + strlen(mangled)) + 32;
	struct line l = { malloc(cap), 0, cap };

	if (l.p) {
		line_str(&l, "kernel", shown);
		line_str(&l, "mangled", mangled);
		l.p[l.len < cap ? l.len : cap - 1] = '\0';
	}
	free(dem);
	return l.p;
}

const char *name_cache_get(struct name_cache *c, const char *mangled)
{
	size_t i;
	struct name_entry *e;

	if (!mangled)
		mangled = "";
	for (i = slot(c, mangled); c->e[i].key; i = (i + 1) & (c->cap - 1)) {
		e = &c->e[i];
		if (e->key == mangled && strcmp(e->mangled, mangled) == 0)
			return e->json;
		if (e->key == mangled) {        /* reused: the new name */
			char *m = strdup(mangled), *j = names_json(mangled);

			if (!m || !j) {
				free(m);
				free(j);
				return NULL;
			}
			free(e->mangled);
			free(e->json);
			e->mangled = m;
			e->json = j;
			return j;
		}
	}
	if (2 * (c->n + 1) > c->cap) {
		if (grow(c) != 0)
			return NULL;
		return name_cache_get(c, mangled);
	}
	e = &c->e[i];
	e->mangled = strdup(mangled);
	e->json = names_json(mangled);
	if (!e->mangled || !e->json) {
		free(e->mangled);
		free(e->json);
		e->mangled = e->json = NULL;
		return NULL;
	}
	e->key = mangled;
	c->n++;
	return e->json;
}

void name_cache_free(struct name_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->cap; i++) {
		free(c->e[i].mangled);
		free(c->e[i].json);
	}
	free(c->e);
	free(c);
}
