/*
 * targets.c - several GPUs or architectures in one run: --gpu LIST
 * (H100-SXM,A100-SXM4-80GB,RTX-5090) and --arch LIST (sm_80,sm_90). For
 * the occupancy mode and --kernels each target is computed in turn, a
 * row per configuration (or kernel) per target; with --kernels, the
 * input is read again for each target, so that each fatbin gives the
 * image the driver loads there (kernels_read, the rule measured in
 * docs/image-choice.md), and the text report ends with a matrix, kernels
 * down, targets across.
 *
 * A cubin or a compiler report's row is no fatbin: for those, the CUDA
 * C++ Programming Guide's binary compatibility, as imagechoice.c follows
 * it where not measured. SASS for X.y runs on X.z with z >= y, an
 * arch-specific one (sm_90a) only on X.y itself; PTX for compute
 * capability c is compiled by the driver for any GPU of c or above (a
 * family one, compute_XYf, within its major). SASS before PTX, the newest
 * target first, then the most specific.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* The next item of a comma-separated list into buf (the library's rule,
 * occ_target_list_next): the item after it, or NULL. */
static const char *next_item(const char *list, const char *p, char *buf,
			     size_t n, const char *opt)
{
	enum occ_status st = occ_target_list_next(&p, buf, n);

	if (st != OCC_OK)
		die_usage("--%s: '%s': %s", opt, list, st == OCC_ERR_RANGE
			  ? "an item too long" : "an empty item in the list");
	return p;
}

static struct target *add_target(struct session *s, const char *opt)
{
	if (s->n_targets == MAX_TARGETS)
		die_usage("--%s: more than %d in the list", opt, MAX_TARGETS);
	memset(&s->targets[s->n_targets], 0, sizeof s->targets[0]);
	return &s->targets[s->n_targets++];
}

static void gpu_targets(struct session *s)
{
	const char *p = s->o->gpu;
	char name[64];
	struct occ_gpu g;

	if (s->o->arch)
		die_usage("--gpu LIST names each GPU's architecture: leave out "
			  "--arch");
	while (p) {
		struct target *t;

		p = next_item(s->o->gpu, p, name, sizeof name, "gpu");
		session_lookup_gpu(s, name, &g);
		t = add_target(s, "gpu");
		snprintf(t->name, sizeof t->name, "%s", g.name);
		snprintf(t->arch, sizeof t->arch, "%d.%d", g.cc_major,
			 g.cc_minor);
		t->cc_major = g.cc_major;
		t->cc_minor = g.cc_minor;
		t->sms = (uint64_t)g.sms;
	}
	s->o->gpu_list = 1;
}

static void arch_targets(struct session *s)
{
	const char *p = s->o->arch;
	char name[16];

	while (p) {
		struct target *t;
		int major, minor;

		p = next_item(s->o->arch, p, name, sizeof name, "arch");
		if (occ_arch_parse_name(name, &major, &minor) != OCC_OK)
			session_not_arch(s, name);
		t = add_target(s, "arch");
		snprintf(t->arch, sizeof t->arch, "%s", name);
		t->cc_major = major;
		t->cc_minor = minor;
	}
}

void targets_prepare(struct session *s)
{
	struct options *o = s->o;
	int gpus = o->gpu && strchr(o->gpu, ','),
	    archs = o->arch && strchr(o->arch, ',');

	if (!gpus && !archs)
		return;
	if (o->mode != MODE_OCCUPANCY && o->mode != MODE_KERNELS)
		die_usage("--%s takes a list with an occupancy calculation or "
			  "--kernels; give one here", gpus ? "gpu" : "arch");
	if (o->api)
		die_usage("--api runs on this machine's GPU: --%s takes one",
			  gpus ? "gpu" : "arch");
	if (gpus)
		gpu_targets(s);
	else if (o->gpu)
		die_usage("--arch LIST: each architecture's table is modelled, "
			  "not --gpu %s: leave out --gpu, or give --gpu a list",
			  o->gpu);
	else
		arch_targets(s);
	s->sms_given = o->sms;
	o->gpu = NULL;
	target_apply(s, 0);
}

void target_apply(struct session *s, int i)
{
	const struct target *t = &s->targets[i];

	s->o->arch = t->arch;
	s->o->sms = s->sms_given ? s->sms_given : t->sms;
	snprintf(s->gpu_name, sizeof s->gpu_name, "%s", t->name);
	snprintf(s->gpu_arch, sizeof s->gpu_arch, "%s", t->arch);
}

/* ---- The image a GPU loads ---- */

const struct kernel_info *target_image(const struct kernel_info *const *group,
				       size_t n, const struct target *t)
{
	const struct kernel_info *best = NULL;
	int rank = 0, r;
	size_t i;

	for (i = 0; i < n; i++)
		if ((r = kernel_image_rank(group[i], t->cc_major * 10 +
					   t->cc_minor)) > rank) {
			rank = r;
			best = group[i];
		}
	return best;
}

/* ---- --kernels on each target ---- */

static int by_kernel(const void *a, const void *b)
{
	const struct kernel_info *x = *(const struct kernel_info *const *)a,
				 *y = *(const struct kernel_info *const *)b;
	int c = x->file != y->file ? strcmp(x->file, y->file)
		: strcmp(x->mangled, y->mangled);

	return c ? c : x < y ? -1 : 1;
}

/* Kernel group[0..n) (a file's images of one symbol) on target i: its
 * matrix row (made for the first target, found for the others). */
static void kernel_on_target(struct session *s, int i,
			     const struct kernel_info *const *group, size_t n,
			     void (*row)(void *, int, const struct kernel_info *,
					 const struct kernel_info *),
			     void *ctx)
{
	const struct kernel_info *k = group[0],
				 *img = target_image(group, n, &s->targets[i]);

	/* Each target's read gives the same kernels (a fatbin with no
	 * image for a GPU gives them all, marked so): should one lack a
	 * kernel, its rows are still made, without a cell. */
	if (i == 0)
		matrix_row(s, k->file, k->mangled,
			   k->name ? k->name : k->mangled);
	else
		matrix_find(s, k->file, k->mangled);
	if (!img)
		matrix_cell(s, i, "no image");
	else if (img->ptx_only)
		matrix_cell(s, i, "PTX (driver JIT)");
	row(ctx, i, k, img);
}

void targets_kernels(struct session *s, struct kernel_list *l,
		     void (*begin)(void *ctx, int i, struct kernel_list *l),
		     void (*row)(void *ctx, int i, const struct kernel_info *k,
				 const struct kernel_info *img),
		     void *ctx)
{
	const struct kernel_info **k;
	size_t a, b;
	int i;

	for (i = 0; i < s->n_targets; i++) {
		target_apply(s, i);
		/* Each target's read is kept to the end of the run: rows and
		 * the summary point into it. */
		if (i) {
			l = &s->target_kernels[i];
			kernels_read(s, s->o->ptxas, l, NULL);
			for (a = 0; a < (size_t)s->o->n_more_kernels; a++)
				kernels_read_add(s, s->o->more_kernels[a], l);
		}
		begin(ctx, i, l);
		/* The list's: freed with it, should a row end the run. */
		if (!(k = l->order = malloc((l->n + 1) * sizeof *k)))
			die("out of memory");
		for (a = 0; a < l->n; a++)
			k[a] = &l->k[a];
		qsort(k, l->n, sizeof *k, by_kernel);
		matrix_rewind(s);
		for (a = 0; a < l->n; a = b) {
			for (b = a + 1; b < l->n && k[b]->file == k[a]->file &&
			     strcmp(k[b]->mangled, k[a]->mangled) == 0; b++)
				;
			kernel_on_target(s, i, k + a, b - a, row, ctx);
		}
	}
}

/* ---- The matrix: kernels down, GPUs across ---- */

struct mrow {
	char *file, *mangled, *kernel;
	char **cells;            /* one per target */
};

struct matrix {
	struct mrow *rows;
	size_t n, cap, cur, n_targets;
	int have_cur;
};

void matrix_free(struct matrix *m)
{
	size_t i, j;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		for (j = 0; j < m->n_targets; j++)
			free(m->rows[i].cells[j]);
		free(m->rows[i].cells);
		free(m->rows[i].file);
		free(m->rows[i].mangled);
		free(m->rows[i].kernel);
	}
	free(m->rows);
	free(m);
}

/* A new row, the current one, its cells empty. */
void matrix_row(struct session *s, const char *file, const char *mangled,
		const char *kernel)
{
	struct matrix *m = s->matrix;
	struct mrow *r;

	if (!m && !(m = s->matrix = calloc(1, sizeof *m)))
		die("out of memory");
	m->n_targets = (size_t)s->n_targets;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;

		if (!(r = realloc(m->rows, cap * sizeof *r)))
			die("out of memory");
		m->rows = r;
		m->cap = cap;
	}
	r = &m->rows[m->n++];
	memset(r, 0, sizeof *r);
	r->cells = calloc(m->n_targets, sizeof *r->cells);
	r->file = strdup(file);
	r->mangled = strdup(mangled);
	r->kernel = strdup(kernel);
	if (!r->cells || !r->file || !r->mangled || !r->kernel)
		die("out of memory");
	m->cur = m->n - 1;
	m->have_cur = 1;
}

void matrix_rewind(struct session *s)
{
	if (s->matrix) {
		s->matrix->cur = 0;
		s->matrix->have_cur = 0;
	}
}

/* The row of (file, mangled), made current, looked for from the current
 * one on (rows and lookups come in one order): 1, or 0 if none. */
int matrix_find(struct session *s, const char *file, const char *mangled)
{
	struct matrix *m = s->matrix;
	size_t i;
	int c;

	if (!m)
		return 0;
	for (i = m->cur; i < m->n; i++) {
		c = strcmp(m->rows[i].file, file);
		c = c ? c : strcmp(m->rows[i].mangled, mangled);
		if (c == 0) {
			m->cur = i;
			return m->have_cur = 1;
		}
		if (c > 0)
			break;
	}
	m->cur = i;
	m->have_cur = 0;
	return 0;
}

/* The current row's cell for target i, if not yet set (a sweep's first). */
void matrix_cell(struct session *s, int i, const char *text)
{
	struct matrix *m = s->matrix;

	if (m && m->have_cur && !m->rows[m->cur].cells[i])
		matrix_cell_set(s, i, text);
}

void matrix_cell_set(struct session *s, int i, const char *text)
{
	struct matrix *m = s->matrix;
	char **c;

	if (!m || !m->have_cur)
		return;
	c = &m->rows[m->cur].cells[i];
	free(*c);
	if (!(*c = strdup(text)))
		die("out of memory");
}

void matrix_print(struct session *s, struct out *o)
{
	const struct matrix *m = s->matrix;
	char line[8192];
	int width[MAX_TARGETS];
	size_t i, j, len;

	if (!m || !m->n)
		return;
	out_text(o, s->o->gpu_list ? "\nOccupancy by GPU, with the image "
		 "each loads:\n" : "\nOccupancy by architecture, with the "
		 "image each loads:\n");
	/* 22 columns, or the widest cell and two spaces. */
	for (j = 0; j < m->n_targets; j++)
		for (width[j] = 22, i = 0; i < m->n; i++)
			if (m->rows[i].cells[j] &&
			    (int)strlen(m->rows[i].cells[j]) + 2 > width[j])
				width[j] = (int)strlen(m->rows[i].cells[j]) + 2;
	for (i = 0; i <= m->n; i++) {
		len = 0;
		for (j = 0; j < m->n_targets; j++) {
			const struct target *t = &s->targets[j];
			const char *c = i ? m->rows[i - 1].cells[j]
				      : t->name[0] ? t->name : t->arch;

			len += (size_t)snprintf(line + len, sizeof line - len,
						"%-*s", width[j], c ? c : "-");
			if (len >= sizeof line)
				len = sizeof line - 1;
		}
		snprintf(line + len, sizeof line - len, "%s\n",
			 i ? m->rows[i - 1].kernel : "kernel");
		out_text(o, line);
	}
}
