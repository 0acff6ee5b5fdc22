/*
 * targets.c - several GPUs or architectures in one run: --gpu LIST
 * (H100-SXM,A100-SXM4-80GB,RTX-5090) and --arch LIST (sm_80,sm_90). For
 * the occupancy mode and --kernels each target is computed in turn, a
 * row per configuration (or kernel) per GPU; with --kernels and a GPU
 * list, each kernel's image that GPU loads is chosen here, and the text
 * report ends with a matrix, kernels down, GPUs across.
 *
 * The image rule, until the driver's own is measured (issue 17): the
 * CUDA C++ Programming Guide's binary compatibility. A cubin for X.y runs
 * on X.z with z >= y, an arch-specific one (sm_90a) only on X.y itself;
 * PTX for compute capability c is compiled by the driver for any GPU of
 * c or above. The closest cubin wins (arch-specific first), then PTX.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The next item of a comma-separated list into buf: its end, or NULL. */
static const char *next_item(const char *list, const char *p, char *buf,
			     size_t n, const char *opt)
{
	const char *comma = strchr(p, ',');
	size_t len = comma ? (size_t)(comma - p) : strlen(p);

	if (len == 0 || len >= n)
		die_usage("--%s: '%s': %s", opt, list, len ? "an item too long"
			  : "an empty item in the list");
	memcpy(buf, p, len);
	buf[len] = '\0';
	return comma ? comma + 1 : NULL;
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
			die_usage("--arch: '%s': not an architecture (try sm_90, "
				  "90 or 9.0)", name);
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
	else
		arch_targets(s);
	s->sms_given = o->sms;
	o->arch_list = o->arch && archs ? o->arch : NULL;
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

int arch_list_matches(const char *list, const struct kernel_info *k)
{
	char name[16];
	const char *p = list;

	while (p) {
		p = next_item(list, p, name, sizeof name, "arch");
		if (kernel_arch_matches(name, k))
			return 1;
	}
	return 0;
}

/* ---- The image a GPU loads ---- */

/* How well image k suits t: 0 not at all; higher is preferred. */
static int image_rank(const struct kernel_info *k, const struct target *t)
{
	size_t n = strlen(k->arch);
	int specific = n && (k->arch[n - 1] == 'a' || k->arch[n - 1] == 'f');

	if (k->relocatable)
		return 0;
	if (k->ptx_only)
		return k->cc_major * 10 + k->cc_minor <=
		       t->cc_major * 10 + t->cc_minor ? 1 + k->cc_major * 10 +
		       k->cc_minor : 0;
	if (k->cc_major != t->cc_major || k->cc_minor > t->cc_minor)
		return 0;
	if (specific && k->arch[n - 1] == 'a' && k->cc_minor != t->cc_minor)
		return 0;
	return 1000 + k->cc_minor * 10 + specific;
}

const struct kernel_info *target_image(const struct kernel_info *const *group,
				       size_t n, const struct target *t)
{
	const struct kernel_info *best = NULL;
	int rank = 0, r;
	size_t i;

	for (i = 0; i < n; i++)
		if ((r = image_rank(group[i], t)) > rank) {
			rank = r;
			best = group[i];
		}
	return best;
}

/* ---- The matrix: kernels down, GPUs across ---- */

struct matrix {
	char **cells;            /* row-major, n_gpus a row */
	char **kernels;
	size_t rows, cap, n_gpus;
};

void matrix_free(struct matrix *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->rows * m->n_gpus; i++)
		free(m->cells[i]);
	for (i = 0; i < m->rows; i++)
		free(m->kernels[i]);
	free(m->cells);
	free(m->kernels);
	free(m);
}

/* A new row for kernel, its cells empty. */
void matrix_row(struct session *s, const char *kernel)
{
	struct matrix *m = s->matrix;

	if (!m && !(m = s->matrix = calloc(1, sizeof *m)))
		die("out of memory");
	m->n_gpus = (size_t)s->n_targets;
	if (m->rows == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		char **k = realloc(m->kernels, cap * sizeof *k);
		char **c = k ? realloc(m->cells, cap * m->n_gpus * sizeof *c)
			     : NULL;

		if (k)
			m->kernels = k;
		if (!k || !c)
			die("out of memory");
		m->cells = c;
		m->cap = cap;
	}
	memset(&m->cells[m->rows * m->n_gpus], 0, m->n_gpus * sizeof *m->cells);
	if (!(m->kernels[m->rows++] = strdup(kernel)))
		die("out of memory");
}

/* The current row's cell for GPU gpu, if not yet set (a sweep's first). */
void matrix_cell(struct session *s, int gpu, const char *text)
{
	struct matrix *m = s->matrix;
	char **c;

	if (!m || !m->rows)
		return;
	c = &m->cells[(m->rows - 1) * m->n_gpus + (size_t)gpu];
	if (!*c && !(*c = strdup(text)))
		die("out of memory");
}

void matrix_print(struct session *s, struct out *o)
{
	const struct matrix *m = s->matrix;
	char line[8192];
	size_t i, j, len;

	if (!m || !m->rows)
		return;
	out_text(o, "\nOccupancy by GPU, with the image each loads:\n");
	for (i = 0; i <= m->rows; i++) {
		len = 0;
		for (j = 0; j < m->n_gpus; j++) {
			const char *c = i ? m->cells[(i - 1) * m->n_gpus + j]
					  : s->targets[j].name;

			len += (size_t)snprintf(line + len, sizeof line - len,
						"%-22s", c ? c : "-");
			if (len >= sizeof line)
				len = sizeof line - 1;
		}
		snprintf(line + len, sizeof line - len, "%s\n",
			 i ? m->kernels[i - 1] : "kernel");
		out_text(o, line);
	}
}
