/*
 * kernels_triton.c - --kernels DIR on a Triton cache: the launch Triton
 * makes of each cubin (its block of 32 x num_warps threads, its dynamic
 * shared memory, its clusters), read from the metadata NAME.json beside
 * NAME.cubin. An entry whose metadata is missing, partial or malformed,
 * or does not describe the cubin (names another kernel; a cubin of
 * several), is warned about, naming it, and keeps the cubin's own
 * resources.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "kernels.h"

/* Triton writes a few KB; more is no metadata of its. */
#define META_MAX (UINT64_C(1) << 20)

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

static void attach(struct kernel_list *l, struct kernel_info *k,
		   const struct occ_triton_meta *m,
		   const struct occ_triton_launch *launch, const char *dir)
{
	struct kernel_launch *L = calloc(1, sizeof *L);
	struct kernel_more more = *kernel_more(k);
	const char *entry = strrchr(dir, '/');

	if (!L)
		die("out of memory");
	L->launch = *launch;
	snprintf(L->name, sizeof L->name, "%s", m->name);
	snprintf(L->version, sizeof L->version, "%s", m->version);
	snprintf(L->entry, sizeof L->entry, "%.255s", entry ? entry + 1 : dir);
	more.launch = L;
	kernels_more_set(l, k, &more);
}

/* Reads NAME.json into m and its launch: 0, or -1 when it warned. */
static int from_meta(const char *json, struct occ_triton_meta *m,
		     struct occ_triton_launch *launch)
{
	struct occ_bin_diag d;
	enum occ_status st;
	const char *missing;
	char err[256];
	size_t len = 0;
	char *text = text_file_load(json, META_MAX, &len, err, sizeof err);

	if (!text) {
		warn("%s: Triton metadata %s; the cubin's own resources are "
		     "shown", json, err);
		return -1;
	}
	st = occ_triton_meta_parse(text, len, m, &d);
	free(text);
	if (st != OCC_OK)
		warn("%s: malformed Triton metadata: %s at byte %llu; the "
		     "cubin's own resources are shown", json, d.what,
		     (unsigned long long)d.offset);
	else if (occ_triton_launch_of(m, launch, &missing) != OCC_OK)
		warn("%s: partial Triton metadata: no %s; the cubin's own "
		     "resources are shown", json, missing);
	else
		return 0;
	return -1;
}

/* The metadata describes one kernel, by name: Triton compiles one to a
 * cubin. Applied to any other it would give a launch Triton never made. */
static int describes(const char *json, const struct occ_triton_meta *m,
		     const struct kernel_info *k, int in_cubin)
{
	if (in_cubin > 1)
		warn("%s: Triton metadata of one kernel (%s) beside a cubin of "
		     "%d kernels; the cubin's own resources are shown", json,
		     m->name, in_cubin);
	else if (strcmp(m->name, k->mangled) != 0)
		warn("%s: Triton metadata of kernel %s beside a cubin whose "
		     "kernel is %s; the cubin's own resources are shown", json,
		     m->name, k->mangled);
	else
		return 1;
	return 0;
}

void kernels_triton(struct kernel_list *l, size_t first, size_t n,
		    int in_cubin, const char *cubin)
{
	char dir[4096], stem[512], json[4640], grp[4640], ttgir[4640];
	struct kernel_info *k = &l->k[first];
	struct occ_triton_launch launch;
	struct occ_triton_meta m;

	if (!n || k->ptx_only || k->source != OCC_KSRC_CUBIN ||
	    !split(cubin, dir, sizeof dir, stem, sizeof stem))
		return;
	snprintf(json, sizeof json, "%s/%s.json", dir, stem);
	snprintf(grp, sizeof grp, "%s/__grp__%s.json", dir, stem);
	snprintf(ttgir, sizeof ttgir, "%s/%s.ttgir", dir, stem);
	if (exists(json)) {
		if (from_meta(json, &m, &launch) == 0 &&
		    describes(json, &m, k, in_cubin))
			attach(l, k, &m, &launch, dir);
	} else if (exists(grp) || exists(ttgir)) {
		warn("%s: a Triton cache entry without its metadata %s.json; "
		     "the cubin's own resources are shown", dir, stem);
	}
}

static const struct seq *one(struct seq *s, struct seq_range *r,
			     uint64_t v)
{
	memset(r, 0, sizeof *r);
	r->start = r->end = v;
	r->step = 1;
	s->ranges = r;
	s->n = 1;
	s->is_sweep = 0;
	return s;
}

void kernels_launch(const struct options *o, const struct kernel_info *ki,
		    struct seq *block, struct seq_range *br,
		    const struct seq **blocks, const struct seq **smem,
		    struct seq *dyn, struct seq_range *dr)
{
	const struct kernel_launch *L = kernel_more(ki)->launch;

	*blocks = &o->block;
	*smem = &o->smem;
	if (!L)
		return;
	if (!option_given(o, "smem"))
		*smem = one(dyn, dr, (uint64_t)L->launch.dynamic_smem);
	if (!o->have_block)
		*blocks = one(block, br, (uint64_t)L->launch.block);
}

void kernels_triton_note(struct out *out, const struct kernel_list *l,
			 const struct options *o)
{
	char line[512];
	size_t i, n = 0;
	int smem = option_given(o, "smem");

	for (i = 0; i < l->n; i++)
		n += kernel_more(&l->k[i])->launch != NULL;
	if (!n)
		return;
	snprintf(line, sizeof line, "\nTriton: %zu kernel%s as Triton launches "
		 "%s (its cache's metadata): %s, %s.\n", n, plural(n),
		 n == 1 ? "it" : "them",
		 o->have_block ? "the block --block gives"
		 : "a block of 32 x num_warps threads",
		 smem ? "the dynamic shared memory --smem gives"
		 : "its \"shared\" bytes of dynamic shared memory");
	out_text(out, line);
}
