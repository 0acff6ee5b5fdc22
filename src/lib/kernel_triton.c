/*
 * kernel_triton.c - a Triton cache's launch of a cubin (its block of 32 x
 * num_warps threads, its dynamic shared memory, its clusters), read from
 * the metadata NAME.json beside NAME.cubin. An entry whose metadata is
 * missing, partial or malformed, or does not describe the cubin (names
 * another kernel; a cubin of several), is worded as a warning naming it,
 * and the cubin keeps its own resources.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "occcalc.h"
#include "util.h"

/* The warning, in diag->msg. */
static enum occ_status said(struct occ_kernels_diag *diag, enum occ_status st,
			    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum occ_status said(struct occ_kernels_diag *diag, enum occ_status st,
			    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
	va_end(ap);
	return st;
}

/* path's directory and base name without ".cubin" into dir and stem;
 * 0 when path names no cubin. */
static int split(const char *path, char *dir, size_t nd, char *stem,
		 size_t ns)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1
							       : path;
	size_t n = strlen(base);

	if (n <= 6 || strcmp(base + n - 6, ".cubin") != 0 ||
	    (size_t)(base - path) >= nd || n - 6 >= ns)
		return 0;
	snprintf(dir, nd, "%.*s", (int)(slash ? slash - path : 1),
		 slash ? path : ".");
	snprintf(stem, ns, "%.*s", (int)(n - 6), base);
	return 1;
}

static int exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/* The metadata's text (NUL after, len bytes), opened so that a FIFO
 * cannot block, or NULL with why in err. */
static char *meta_load(const char *path, size_t *len, char *err, size_t n)
{
	struct stat sb;
	char *buf = NULL;
	FILE *f = NULL;
	enum occ_status st = occ_open_regular(path, &f);

	if (st == OCC_ERR_NOT_REGULAR)
		snprintf(err, n, "not a regular file");
	else if (st != OCC_OK || fstat(fileno(f), &sb) != 0)
		snprintf(err, n, "cannot read: %s", strerror(errno));
	else if ((uint64_t)sb.st_size > OCC_TRITON_META_MAX)
		snprintf(err, n, "larger than %llu bytes",
			 (unsigned long long)OCC_TRITON_META_MAX);
	else if (!(buf = malloc((size_t)sb.st_size + 1)))
		snprintf(err, n, "too large to read into memory");
	else if ((*len = fread(buf, 1, (size_t)sb.st_size, f)),
		 ferror(f)) {
		snprintf(err, n, "cannot read: %s", strerror(errno));
		free(buf);
		buf = NULL;
	} else {
		buf[*len] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

/* Reads NAME.json into m and its launch: OCC_OK, or the warning. */
static enum occ_status from_meta(const char *json, struct occ_triton_meta *m,
				 struct occ_triton_launch *launch,
				 struct occ_kernels_diag *diag)
{
	struct occ_bin_diag d;
	enum occ_status st;
	const char *missing;
	char err[256];
	size_t len = 0;
	char *text = meta_load(json, &len, err, sizeof err);

	if (!text)
		return said(diag, OCC_ERR_IO, "%s: Triton metadata %s; the "
			    "cubin's own resources are shown", json, err);
	st = occ_triton_meta_parse(text, len, m, &d);
	free(text);
	if (st != OCC_OK)
		return said(diag, st, "%s: malformed Triton metadata: %s at byte "
			    "%llu; the cubin's own resources are shown", json,
			    d.what, (unsigned long long)d.offset);
	if (occ_triton_launch_of(m, launch, &missing) != OCC_OK)
		return said(diag, OCC_ERR_MISSING_KEY, "%s: partial Triton "
			    "metadata: no %s; the cubin's own resources are "
			    "shown", json, missing);
	return OCC_OK;
}

/* The metadata describes one kernel, by name: Triton compiles one to a
 * cubin. Applied to any other it would give a launch Triton never made. */
static enum occ_status describes(const char *json,
				 const struct occ_triton_meta *m,
				 const char *mangled, int in_cubin,
				 struct occ_kernels_diag *diag)
{
	if (in_cubin > 1)
		return said(diag, OCC_ERR_INVALID_INPUT, "%s: Triton metadata "
			    "of one kernel (%s) beside a cubin of %d kernels; "
			    "the cubin's own resources are shown", json,
			    m->name, in_cubin);
	if (strcmp(m->name, mangled) != 0)
		return said(diag, OCC_ERR_INVALID_INPUT, "%s: Triton metadata "
			    "of kernel %s beside a cubin whose kernel is %s; "
			    "the cubin's own resources are shown", json,
			    m->name, mangled);
	return OCC_OK;
}

enum occ_status occ_triton_entry_read(const char *cubin, const char *mangled,
				      int in_cubin, struct occ_triton_entry *e,
				      struct occ_kernels_diag *diag)
{
	char dir[4096], stem[512], json[4640], grp[4640], ttgir[4640];
	struct occ_triton_meta m;
	enum occ_status st;
	const char *entry;

	memset(diag, 0, sizeof *diag);
	memset(e, 0, sizeof *e);
	if (!split(cubin, dir, sizeof dir, stem, sizeof stem))
		return OCC_ERR_UNSUPPORTED;
	snprintf(json, sizeof json, "%s/%s.json", dir, stem);
	snprintf(grp, sizeof grp, "%s/__grp__%s.json", dir, stem);
	snprintf(ttgir, sizeof ttgir, "%s/%s.ttgir", dir, stem);
	if (!exists(json) && (exists(grp) || exists(ttgir)))
		return said(diag, OCC_ERR_MISSING_KEY, "%s: a Triton cache "
			    "entry without its metadata %s.json; the cubin's "
			    "own resources are shown", dir, stem);
	if (!exists(json))
		return OCC_ERR_UNSUPPORTED;
	if ((st = from_meta(json, &m, &e->launch, diag)) != OCC_OK ||
	    (st = describes(json, &m, mangled, in_cubin, diag)) != OCC_OK)
		return st;
	entry = strrchr(dir, '/');
	snprintf(e->name, sizeof e->name, "%s", m.name);
	snprintf(e->version, sizeof e->version, "%s", m.version);
	snprintf(e->entry, sizeof e->entry, "%.255s", entry ? entry + 1 : dir);
	return OCC_OK;
}
