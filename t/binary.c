/* binary.c - the binary reader against the compiler: every field of every
 * kernel in every fixture container (t/fixtures/bin, made by
 * make-binaries.sh) equals what ptxas reported for the same compile, or
 * what kernels.cu declares where ptxas reports nothing (launch bounds,
 * clusters); compressed entries read as the stored ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "tap.h"

#define NKERNELS 22
#define NARCHS 7

/* What kernels.cu declares: __launch_bounds__ threads and minimum blocks,
 * __maxnreg__, __cluster_dims__ (sm_90 and later only). */
static const struct decl {
	const char *mangled;
	int threads, min_blocks, maxnreg, cluster[3];
} decls[NKERNELS] = {
	{ "_Z5saxpyifPKfPf", 0, 0, 0, { 0, 0, 0 } },
	{ "c_linkage", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z9block_sumPKfPf", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z14named_barriersPf", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z13four_barriersPf", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z5spillPKdPdi", 1024, 1, 0, { 0, 0, 0 } },
	{ "_Z11local_arrayPKiPi", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z9many_regsPK6float4PS_i", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z11bounded_256PK6float4PS_i", 256, 0, 0, { 0, 0, 0 } },
	{ "_Z13bounded_128_4PKfPf", 128, 4, 0, { 0, 0, 0 } },
	{ "_Z14bounded_1024_1Pf", 1024, 1, 0, { 0, 0, 0 } },
	{ "_Z10maxnreg_32PK6float4PS_i", 0, 0, 32, { 0, 0, 0 } },
	{ "_Z13cluster_2x1x1Pf", 0, 0, 0, { 2, 1, 1 } },
	{ "_Z13cluster_2x2x1Pf", 512, 0, 0, { 2, 2, 1 } },
	{ "_Z8big_smemPKfPf", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z12dynamic_smemPf", 0, 0, 0, { 0, 0, 0 } },
	{ "_Z5callsPKfPf", 0, 0, 0, { 0, 0, 0 } },
	{ "_ZN16occcalc_fixtures13reduce_kernelIfLi256ENS_6max_opEEEvPKT_PS2_T1_", 0, 0, 0, { 0, 0, 0 } },
	{ "_ZN16occcalc_fixtures13reduce_kernelIdLi64ENS_6max_opEEEvPKT_PS2_T1_", 0, 0, 0, { 0, 0, 0 } },
	{ "_ZN16occcalc_fixtures13reduce_kernelIiLi512ENS_6max_opEEEvPKT_PS2_T1_", 0, 0, 0, { 0, 0, 0 } },
	{ "_ZN16occcalc_fixtures5scaleIfLi64EEEvPT_S1_", 64, 0, 0, { 0, 0, 0 } },
	{ "_ZN16occcalc_fixtures5scaleIdLi192EEEvPT_S1_", 192, 0, 0, { 0, 0, 0 } },
};

static const char *const all_archs[NARCHS + 1] = {
	"sm_75", "sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "sm_120f",
	"compute_90"
};

/* One kernel as read; the name copied, the rest as the library gave. */
struct row {
	char name[256];
	struct occ_bin_kernel k;
};

struct rows {
	struct row *v;
	size_t n;
};

static int collect(const struct occ_bin_kernel *k, void *ctx)
{
	struct rows *r = ctx;
	struct row *grown = realloc(r->v, (r->n + 1) * sizeof *r->v);

	if (!grown)
		return 1;
	r->v = grown;
	snprintf(grown[r->n].name, sizeof grown[r->n].name, "%s", k->mangled);
	grown[r->n].k = *k;
	grown[r->n].k.mangled = NULL;
	r->n++;
	return 0;
}

/* A ptxas report: each kernel's figures and the target it names. */
struct logk {
	struct occ_usage u;
	char arch[16];
	uint64_t cumulative;
};

struct log {
	struct logk v[NKERNELS * NARCHS];
	size_t n;
	char **lines;
	size_t nlines;
};

static int log_kernel(const struct occ_usage *u, void *ctx)
{
	struct log *l = ctx;
	struct logk *k;
	const char *p;

	if (l->n == sizeof l->v / sizeof l->v[0])
		return 1;
	k = &l->v[l->n++];
	k->u = *u;
	k->arch[0] = '\0';
	k->cumulative = 0;
	/* The target as written on the entry's line, suffix and all. */
	for (int i = u->line - 1; i >= 1; i--) {
		const char *s = l->lines[i - 1];

		if (strstr(s, "Compiling entry function '") &&
		    strstr(s, u->mangled) && (p = strstr(s, "' for '"))) {
			sscanf(p + 7, "%15[^']", k->arch);
			break;
		}
	}
	p = strstr(l->lines[u->line - 1], "bytes cumulative stack size");
	if (p) {
		while (p > l->lines[u->line - 1] && p[-1] != ',')
			p--;
		k->cumulative = strtoull(p, NULL, 10);
	}
	return 0;
}

static int read_log(const char *path, struct log *l)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	struct occ_diag d;
	int fs;

	memset(l, 0, sizeof *l);
	if (!f)
		return -1;
	while (fgets(buf, sizeof buf, f)) {
		l->lines = realloc(l->lines, (l->nlines + 1) * sizeof *l->lines);
		l->lines[l->nlines++] = strdup(buf);
	}
	rewind(f);
	if (occ_usage_parse(f, path, log_kernel, l, &fs, &d) != OCC_OK || fs) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static void log_free(struct log *l)
{
	for (size_t i = 0; i < l->nlines; i++)
		free(l->lines[i]);
	free(l->lines);
	l->lines = NULL;
	l->nlines = 0;
}

static const struct logk *log_find(const struct log *l, const char *name,
				   const char *arch)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].u.mangled, name) == 0 &&
		    strcmp(l->v[i].arch, arch) == 0)
			return &l->v[i];
	return NULL;
}

static const struct decl *decl_find(const char *name)
{
	for (int i = 0; i < NKERNELS; i++)
		if (strcmp(decls[i].mangled, name) == 0)
			return &decls[i];
	return NULL;
}

/* What one check needs about a kernel. */
struct subject {
	const struct occ_bin_kernel *k;
	const struct logk *log;           /* SASS rows only */
	const struct decl *decl;
	const struct occ_arch *arch;
};

static int dims(const int got[3], int x, int y, int z)
{
	return got[0] == x && got[1] == y && got[2] == z;
}

/* ptxas's register cap for launch bounds: the registers per SM shared by
 * the bound's threads times its blocks, in steps of 8, at most 255. */
static int bound_regs(const struct subject *s)
{
	int t = s->decl->threads, b = s->decl->min_blocks > 0 ?
		s->decl->min_blocks : 1, cap;

	if (s->decl->maxnreg)
		return s->decl->maxnreg;
	if (!t)
		return OCC_MAX_REGS_ANY_ARCH;
	cap = s->arch->regs_per_sm / (t * b) / 8 * 8;
	return cap > OCC_MAX_REGS_ANY_ARCH ? OCC_MAX_REGS_ANY_ARCH : cap;
}

static int c_regs(const struct subject *s)
{
	return s->k->regs == s->log->u.regs && s->k->regs <= s->k->max_regs;
}
static int c_smem(const struct subject *s)
{
	return occ_bin_static_smem(s->arch, s->k) == s->log->u.static_smem;
}
static int c_barriers(const struct subject *s)
{
	return s->k->barriers == s->log->u.barriers;
}
static int c_frame(const struct subject *s)
{
	return s->k->frame == (int64_t)s->log->u.stack;
}
/* A relocatable cubin leaves the cumulative stack to the device linker. */
static int c_stack(const struct subject *s)
{
	return s->k->stack == (s->k->relocatable ? -1
			       : (int64_t)s->log->cumulative);
}
static int c_bounds(const struct subject *s)
{
	int t = s->decl->threads;

	return (t ? dims(s->k->max_threads, t, 1, 1)
		  : dims(s->k->max_threads, 0, 0, 0)) && s->k->min_blocks == -1;
}
static int c_max_regs(const struct subject *s)
{
	return s->k->max_regs == bound_regs(s);
}
static int c_cluster(const struct subject *s)
{
	const int *c = s->decl->cluster;

	if (s->k->cc_major < 9)
		return dims(s->k->cluster, 0, 0, 0);
	return dims(s->k->cluster, c[0], c[1], c[2]);
}
static int c_rest(const struct subject *s)
{
	return !s->k->ptx_only && dims(s->k->req_threads, 0, 0, 0) &&
	       s->k->max_cluster_rank == 0;
}

/* PTX entries: what the directives say, and no resources. */
static int c_ptx(const struct subject *s)
{
	const struct occ_bin_kernel *k = s->k;
	const struct decl *d = s->decl;

	return k->ptx_only && k->regs == -1 && k->shared_section == -1 &&
	       k->barriers == -1 && k->frame == -1 && k->stack == -1 &&
	       (d->threads ? dims(k->max_threads, d->threads, 1, 1)
			   : dims(k->max_threads, 0, 0, 0)) &&
	       k->min_blocks == d->min_blocks && k->max_regs == d->maxnreg &&
	       dims(k->cluster, d->cluster[0], d->cluster[1], d->cluster[2]);
}

static const struct check {
	const char *what;
	int (*ok)(const struct subject *s);
	int ptx;
} checks[] = {
	{ "registers equal ptxas's, within the cap", c_regs, 0 },
	{ "static shared memory equals ptxas's (less the 9.0+ reserve)", c_smem, 0 },
	{ "barriers equal ptxas's", c_barriers, 0 },
	{ "stack frame equals ptxas's", c_frame, 0 },
	{ "cumulative stack equals ptxas's (linker's, relocatable)", c_stack, 0 },
	{ "__launch_bounds__ threads as declared, min blocks not recorded", c_bounds, 0 },
	{ "register cap as ptxas derives it from the bounds or __maxnreg__", c_max_regs, 0 },
	{ "__cluster_dims__ as declared (sm_90 and later)", c_cluster, 0 },
	{ "no required block shape or cluster rank, not PTX", c_rest, 0 },
	{ "PTX entries: directives as declared, no resources", c_ptx, 1 },
};

static const char *fixtures;
static struct occ_tables *tables;

static int read_rows(const char *file, struct rows *r)
{
	char path[1024];
	struct occ_bin_diag d;
	int fs;

	snprintf(path, sizeof path, "%s/%s", fixtures, file);
	memset(r, 0, sizeof *r);
	if (occ_bin_read_file(path, collect, r, &fs, &d) != OCC_OK || fs) {
		tap_diag("%s: %s", path, d.what);
		return -1;
	}
	return 0;
}

/* Every kernel of every expected target once, and nothing else. */
static int complete(const struct rows *r, const char *const *archs, int n)
{
	if (r->n != (size_t)n * NKERNELS)
		return 0;
	for (int a = 0; a < n; a++)
		for (int i = 0; i < NKERNELS; i++) {
			int seen = 0;

			for (size_t j = 0; j < r->n; j++)
				seen += strcmp(r->v[j].name, decls[i].mangled) == 0 &&
					strcmp(r->v[j].k.arch, archs[a]) == 0;
			if (seen != 1)
				return 0;
		}
	return 1;
}

static void run_checks(const char *file, const struct rows *r,
		       const struct log *l, int has_ptx)
{
	for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++) {
		if (checks[c].ptx && !has_ptx)
			continue;
		const char *bad = NULL;
		size_t n = 0;

		for (size_t j = 0; j < r->n && !bad; j++) {
			struct subject s = { &r->v[j].k, NULL,
					     decl_find(r->v[j].name), NULL };

			if (s.k->ptx_only != checks[c].ptx)
				continue;
			s.arch = occ_tables_find(tables, s.k->cc_major,
						 s.k->cc_minor);
			if (!s.k->ptx_only)
				s.log = log_find(l, r->v[j].name, s.k->arch);
			n++;
			if (!s.decl || !s.arch || (!s.k->ptx_only && !s.log) ||
			    !checks[c].ok(&s))
				bad = r->v[j].name;
		}
		tap_ok(!bad && n > 0, "%s: %s (%zu kernels)", file,
		       checks[c].what, n);
		if (bad)
			tap_diag("first wrong: %s", bad);
	}
}

static int same_kernel(const struct occ_bin_kernel *a,
		       const struct occ_bin_kernel *b)
{
	struct occ_bin_kernel x = *a, y = *b;

	x.compression = y.compression = OCC_BIN_STORED;
	x.container = y.container = OCC_BIN_FATBIN;
	x.fatbin_offset = y.fatbin_offset = 0;
	x.file = y.file = NULL;
	/* Where the PTX text lies differs (decompressed or not), not its
	 * length. */
	x.ptx_text = y.ptx_text = NULL;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* The same kernels, field for field, in the same order. */
static int same_rows(const struct rows *a, const struct rows *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, b->v[i].name) != 0 ||
		    !same_kernel(&a->v[i].k, &b->v[i].k))
			return 0;
	return 1;
}

/* Every row stored with the expected compression: SASS, then PTX. */
static int compressed(const struct rows *r, enum occ_bin_compression sass,
		      enum occ_bin_compression ptx)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].k.compression != (r->v[i].k.ptx_only ? ptx : sass))
			return 0;
	return 1;
}

static const struct container {
	const char *file;
	enum occ_bin_container kind;
	enum occ_bin_compression sass, ptx;
	const char *how;
} containers[] = {
	{ "none.fatbin", OCC_BIN_FATBIN, OCC_BIN_STORED, OCC_BIN_STORED, "stored" },
	{ "default.fatbin", OCC_BIN_FATBIN, OCC_BIN_ZSTD, OCC_BIN_ZSTD, "Zstandard" },
	{ "size.fatbin", OCC_BIN_FATBIN, OCC_BIN_ZSTD, OCC_BIN_ZSTD, "Zstandard" },
	{ "balance.fatbin", OCC_BIN_FATBIN, OCC_BIN_ZSTD, OCC_BIN_ZSTD, "Zstandard" },
	{ "speed.fatbin", OCC_BIN_FATBIN, OCC_BIN_LZ4, OCC_BIN_LZ4, "LZ4" },
	{ "kernels.o", OCC_BIN_HOST_ELF, OCC_BIN_STORED, OCC_BIN_ZSTD, "nvcc's default: SASS stored, PTX Zstandard" },
	{ "kernels.exe", OCC_BIN_HOST_ELF, OCC_BIN_LZ4, OCC_BIN_LZ4, "LZ4" },
	{ "libkernels.so", OCC_BIN_HOST_ELF, OCC_BIN_ZSTD, OCC_BIN_ZSTD, "Zstandard" },
	{ "kernels-rdc.o", OCC_BIN_HOST_ELF, OCC_BIN_ZSTD, OCC_BIN_ZSTD, "Zstandard, relocatable" },
};

static void test_container(const struct container *c, const struct rows *ref)
{
	char path[1024];
	struct rows r;
	struct log l;
	int rdc = strstr(c->file, "rdc") != NULL;

	snprintf(path, sizeof path, "%s/%s.ptxas", fixtures, c->file);
	if (read_rows(c->file, &r) || read_log(path, &l)) {
		tap_ok(0, "%s and its ptxas report are read", c->file);
		free(r.v);
		log_free(&l);
		return;
	}
	tap_ok(complete(&r, all_archs, NARCHS + 1), "%s: all %d kernels for "
	       "each of %d targets and PTX, once each", c->file, NKERNELS,
	       NARCHS);
	tap_ok(compressed(&r, c->sass, c->ptx) && r.v[0].k.container == c->kind,
	       "%s: entries read as %s", c->file, c->how);
	for (size_t i = 0; i < r.n; i++)
		if (r.v[i].k.relocatable != (rdc && !r.v[i].k.ptx_only))
			rdc = -1;
	tap_ok(rdc != -1, "%s: cubins %srelocatable", c->file,
	       rdc ? "" : "not ");
	run_checks(c->file, &r, &l, 1);
	if (ref && !rdc)
		tap_ok(same_rows(&r, ref), "%s reads as none.fatbin does, field "
		       "for field", c->file);
	free(r.v);
	log_free(&l);
}

static void test_cubins(void)
{
	static const char *const sm[NARCHS] = { "75", "80", "86", "89", "90a",
						"100a", "120f" };

	for (int a = 0; a < NARCHS; a++) {
		char file[64], path[1024];
		const char *arch = all_archs[a];
		struct rows r;
		struct log l;

		snprintf(file, sizeof file, "sm_%s.cubin", sm[a]);
		snprintf(path, sizeof path, "%s/%s.ptxas", fixtures, file);
		if (read_rows(file, &r) || read_log(path, &l)) {
			tap_ok(0, "%s and its ptxas report are read", file);
			free(r.v);
			log_free(&l);
			continue;
		}
		tap_ok(complete(&r, &arch, 1) && r.v[0].k.container ==
		       OCC_BIN_CUBIN && r.v[0].k.fatbin_offset == -1,
		       "%s: all %d kernels, as %s, from a bare cubin", file,
		       NKERNELS, arch);
		run_checks(file, &r, &l, 0);
		free(r.v);
		log_free(&l);
	}
}

int main(void)
{
	const char *t = getenv("T"), *dir = getenv("OCCCALC_TABLES");
	static char fx[1024];
	struct occ_diag d;
	struct rows ref;

	if (!t || !dir || occ_tables_load(dir, &tables, &d) != OCC_OK) {
		tap_skip_all("needs T and OCCCALC_TABLES (run by make check)");
		return 0;
	}
	if (!occ_bin_has_zstd()) {
		tap_skip_all("built without libzstd: most fixtures are "
			     "Zstandard-compressed");
		return 0;
	}
	snprintf(fx, sizeof fx, "%s/fixtures/bin", t);
	fixtures = fx;
	test_cubins();
	if (read_rows("none.fatbin", &ref))
		ref.n = 0;
	for (size_t i = 0; i < sizeof containers / sizeof containers[0]; i++)
		test_container(&containers[i], i ? &ref : NULL);
	free(ref.v);
	occ_tables_free(tables);
	tap_plan(tap_n);
	return tap_done();
}
