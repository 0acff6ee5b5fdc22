/*
 * tables_dir.c - a directory of architecture tables (sm_XY.arch), each
 * read by tables.c, kept sorted by compute capability.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "util.h"

struct occ_tables {
	struct occ_arch *archs;
	size_t n, cap;
};

static int is_table_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".arch") == 0;
}

static int cmp_arch(const void *x, const void *y)
{
	const struct occ_arch *a = x, *b = y;

	if (a->cc_major != b->cc_major)
		return a->cc_major - b->cc_major;
	return a->cc_minor - b->cc_minor;
}

static enum occ_status tables_add(struct occ_tables *t, const char *path,
				  const char *name, struct occ_diag *diag)
{
	struct occ_arch a;
	enum occ_status st;
	char expect[32];

	st = occ_arch_load(path, &a, diag);
	if (st != OCC_OK)
		return st;
	/* sm_XY.arch must describe X.Y: catches a copied file left unedited,
	 * and makes one table per compute capability. */
	snprintf(expect, sizeof expect, "sm_%d%d.arch", a.cc_major, a.cc_minor);
	if (strcmp(name, expect) != 0) {
		occ_diag_set(diag, path, 0, "computeCapability");
		return OCC_ERR_MISNAMED;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 32;
		struct occ_arch *p = realloc(t->archs, cap * sizeof *p);

		if (!p)
			return OCC_ERR_NOMEM;
		t->archs = p;
		t->cap = cap;
	}
	t->archs[t->n++] = a;
	return OCC_OK;
}

#ifndef OCC_TABLES_DIR
#define OCC_TABLES_DIR "/usr/local/share/occcalc/arch-tables"
#endif

const char *occ_tables_dir(void)
{
	return OCC_TABLES_DIR;
}

enum occ_status occ_tables_load(const char *dir, struct occ_tables **out,
				struct occ_diag *diag)
{
	struct occ_tables *t;
	struct dirent *e;
	enum occ_status st = OCC_OK;
	DIR *d;

	*out = NULL;
	occ_diag_set(diag, dir, 0, "");
	d = opendir(dir);
	if (!d)
		return OCC_ERR_IO;
	t = calloc(1, sizeof *t);
	if (!t) {
		closedir(d);
		return OCC_ERR_NOMEM;
	}
	while (st == OCC_OK && (e = readdir(d)) != NULL) {
		char path[1024];

		if (!is_table_name(e->d_name))
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir,
				     e->d_name) >= sizeof path) {
			occ_diag_set(diag, dir, 0, "");
			st = OCC_ERR_IO;
			break;
		}
		st = tables_add(t, path, e->d_name, diag);
	}
	closedir(d);
	if (st == OCC_OK && t->n == 0) {
		occ_diag_set(diag, dir, 0, "");
		st = OCC_ERR_NO_TABLES;
	}
	if (st != OCC_OK) {
		occ_tables_free(t);
		return st;
	}
	qsort(t->archs, t->n, sizeof *t->archs, cmp_arch);
	*out = t;
	return OCC_OK;
}

void occ_tables_free(struct occ_tables *t)
{
	if (!t)
		return;
	free(t->archs);
	free(t);
}

size_t occ_tables_count(const struct occ_tables *t)
{
	return t->n;
}

const struct occ_arch *occ_tables_get(const struct occ_tables *t, size_t i)
{
	return i < t->n ? &t->archs[i] : NULL;
}

const struct occ_arch *occ_tables_find(const struct occ_tables *t,
				       int major, int minor)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->archs[i].cc_major == major &&
		    t->archs[i].cc_minor == minor)
			return &t->archs[i];
	return NULL;
}
