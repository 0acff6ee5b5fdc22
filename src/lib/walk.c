/*
 * walk.c - every binary under a directory (a Triton cache, a build tree):
 * entries in name order, so that two runs list kernels alike; what is not
 * a binary is skipped, what is a bad one is reported and the walk goes on.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bin.h"
#include "util.h"

/* Deeper than any cache layout; it bounds the recursion. */
#define WALK_MAX_DEPTH 32

struct walk {
	const struct occ_bin_opts *opts;
	struct bin_sched *sched;       /* one pool for every file */
	occ_bin_fn fn;
	occ_bin_warn_fn warn;
	void *ctx;
	int *fn_status;
	struct occ_bin_walk_stats *stats;
	int stop;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a regular file starts like a binary; it is not opened for long
 * and never blocks. */
static int looks_binary(const char *path)
{
	unsigned char head[8];     /* ar's magic is 8 bytes */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 1;                 /* let the reader say why */
	n = read(fd, head, sizeof head);
	close(fd);
	return n == (ssize_t)sizeof head && occ_bin_sniff(head, sizeof head);
}

static void bad_file(struct walk *w, enum occ_status st,
		     const struct occ_bin_diag *d)
{
	w->stats->files_bad++;
	if (w->warn && w->warn(st, d, w->ctx))
		w->stop = 1;
}

static void walk_dir(struct walk *w, const char *dir, int depth);

static void walk_entry(struct walk *w, const char *path, int depth)
{
	struct occ_bin_diag d;
	struct stat sb;
	enum occ_status st;

	if (lstat(path, &sb) != 0) {
		memset(&d, 0, sizeof d);
		occ_copy_string(d.file, sizeof d.file, path);
		snprintf(d.what, sizeof d.what, "cannot stat: %s",
			 strerror(errno));
		bad_file(w, OCC_ERR_IO, &d);
	} else if (S_ISDIR(sb.st_mode)) {
		walk_dir(w, path, depth + 1);
	} else if (!S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
		memset(&d, 0, sizeof d);
		occ_copy_string(d.file, sizeof d.file, path);
		snprintf(d.what, sizeof d.what, "not a regular file");
		bad_file(w, OCC_ERR_IO, &d);
	} else if (S_ISLNK(sb.st_mode) || !looks_binary(path)) {
		w->stats->files_skipped++;
	} else {
		st = bin_read_path(path, w->opts, w->sched, w->fn, w->ctx,
				   w->fn_status, &d);
		if (st != OCC_OK)
			bad_file(w, st, &d);
		else
			w->stats->files_read++;
		if (w->fn_status && *w->fn_status)
			w->stop = 1;
	}
}

/* The directory's names, sorted; NULL (and *n 0) when it cannot be read. */
static char **list_dir(const char *dir, size_t *n, int *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d) {
		*err = errno;
		return NULL;
	}
	*err = 0;
	while ((de = readdir(d)) != NULL) {
		char **grown;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			if (!(grown = realloc(names, cap * sizeof *names))) {
				*err = ENOMEM;
				break;
			}
			names = grown;
		}
		if (!(names[*n] = strdup(de->d_name))) {
			*err = ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof *names, by_name);
	return names;
}

static void walk_dir(struct walk *w, const char *dir, int depth)
{
	struct occ_bin_diag d;
	size_t n, i;
	int err;
	char **names;

	memset(&d, 0, sizeof d);
	occ_copy_string(d.file, sizeof d.file, dir);
	if (depth > WALK_MAX_DEPTH) {
		snprintf(d.what, sizeof d.what, "directories nested deeper "
			 "than %d", WALK_MAX_DEPTH);
		bad_file(w, OCC_ERR_IO, &d);
		return;
	}
	names = list_dir(dir, &n, &err);
	if (err) {
		snprintf(d.what, sizeof d.what, "cannot read directory: %s",
			 strerror(err));
		bad_file(w, OCC_ERR_IO, &d);
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = malloc(len);

		if (path && !w->stop) {
			snprintf(path, len, "%s/%s", dir, names[i]);
			walk_entry(w, path, depth);
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

enum occ_status occ_bin_walk(const char *dir, occ_bin_fn fn,
			     occ_bin_warn_fn warn, void *ctx, int *fn_status,
			     struct occ_bin_walk_stats *stats,
			     struct occ_bin_diag *diag)
{
	return occ_bin_walk_opts(dir, NULL, fn, warn, ctx, fn_status, stats,
				 diag);
}

enum occ_status occ_bin_walk_opts(const char *dir,
				  const struct occ_bin_opts *opts,
				  occ_bin_fn fn, occ_bin_warn_fn warn,
				  void *ctx, int *fn_status,
				  struct occ_bin_walk_stats *stats,
				  struct occ_bin_diag *diag)
{
	struct walk w = { opts, NULL, fn, warn, ctx, fn_status, stats, 0 };
	struct stat sb;

	memset(stats, 0, sizeof *stats);
	memset(diag, 0, sizeof *diag);
	occ_copy_string(diag->file, sizeof diag->file, dir);
	if (fn_status)
		*fn_status = 0;
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(diag->what, sizeof diag->what, "not a directory");
		return OCC_ERR_IO;
	}
	if (!(w.sched = sched_open(opts ? opts->jobs : 1)))
		return OCC_ERR_NOMEM;
	walk_dir(&w, dir, 0);
	sched_close(w.sched);
	return OCC_OK;
}
