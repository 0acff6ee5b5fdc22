/*
 * lists.c - the rows of the listings (occcalc/lists.h): a table as
 * --list-archs lists it, a GPU of the list as --list-gpus does.
 */
#include <stdio.h>

#include "occcalc.h"

#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define STR_GETTER(fn, T, expr) GETTER(fn) { const T *r = p; \
	(void)f; v->type = OCC_VAL_STR; v->s = (expr); }
#define COL(label, width, gap) { label, width, gap, 0, NULL, 0 }

static void cc_format(char *buf, size_t n, int major, int minor)
{
	snprintf(buf, n, "%d.%d", major, minor);
}

/* ---- A table ---- */

void occ_arch_row_init(struct occ_arch_row *row, const struct occ_arch *a)
{
	row->a = a;
	snprintf(row->arch, sizeof row->arch, "sm_%d%d", a->cc_major,
		 a->cc_minor);
	cc_format(row->cc, sizeof row->cc, a->cc_major, a->cc_minor);
}

STR_GETTER(get_arch, struct occ_arch_row, r->arch)
STR_GETTER(get_arch_cc, struct occ_arch_row, r->cc)
STR_GETTER(get_arch_name, struct occ_arch_row, r->a->name)
STR_GETTER(get_arch_products, struct occ_arch_row, r->a->products)

static const struct occ_field arch_fields[] = {
	{ "arch", OCC_FT_STR, "the architecture, sm_XY", get_arch, NULL,
	  COL(NULL, -8, 0), 0, 0 },
	{ "computeCapability", OCC_FT_STR, "its compute capability, X.Y",
	  get_arch_cc, NULL, COL("cc", -5, 1), 0, 0 },
	{ "name", OCC_FT_STR, "the architecture family", get_arch_name, NULL,
	  COL(NULL, -13, 1), 0, 0 },
	{ "products", OCC_FT_STR, "chips and boards that have it",
	  get_arch_products, NULL, COL(NULL, 0, 1), 0, 0 },
};

const struct occ_row_kind occ_archs_kind = {
	"list-archs", arch_fields,
	sizeof arch_fields / sizeof arch_fields[0], NULL
};

/* ---- A GPU of the list ---- */

void occ_gpu_row_init(struct occ_gpu_row *row, const struct occ_gpu *g)
{
	row->g = g;
	cc_format(row->cc, sizeof row->cc, g->cc_major, g->cc_minor);
}

#define GPU(p) (((const struct occ_gpu_row *)(p))->g)
STR_GETTER(get_gpu_name, struct occ_gpu_row, r->g->name)
STR_GETTER(get_gpu_cc, struct occ_gpu_row, r->cc)
STR_GETTER(get_gpu_source, struct occ_gpu_row, r->g->source)
/* A figure the list may not know (0): null then. arg: which. */
GETTER(get_gpu_known)
{
	const struct occ_gpu *g = GPU(p);
	const uint64_t x[] = { (uint64_t)g->sms, g->l2_size,
			       g->l2_persisting_max, g->l2_window_max };

	v->type = OCC_VAL_NULL;
	if (x[f->arg])
		occ_val_uint(v, x[f->arg]);
}
GETTER(get_gpu_l2_source)
{
	const struct occ_gpu *g = GPU(p);

	(void)f;
	v->type = OCC_VAL_NULL;
	if (g->l2_size) {
		v->type = OCC_VAL_STR;
		v->s = g->l2_source;
	}
}
GETTER(get_gpu_aliases)
{
	const struct occ_gpu *g = GPU(p);
	int i;

	(void)f;
	v->type = OCC_VAL_SET;
	v->n = 0;
	for (i = 0; i < g->n_aliases && v->n < 8; i++)
		v->strs[v->n++] = g->aliases[i];
}

/* A column for the list's every field: gpus.txt's, in its order. */
static const struct occ_field gpu_fields[] = {
	{ "name", OCC_FT_STR, "the GPU's name, as --gpu takes it", get_gpu_name,
	  NULL, COL(NULL, -15, 0), 0, 0 },
	{ "computeCapability", OCC_FT_STR, "its compute capability, X.Y",
	  get_gpu_cc, NULL, COL("cc", 4, 1), 0, 0 },
	{ "multiProcessorCount", OCC_FT_INT, "its SMs (null: not published)",
	  get_gpu_known, NULL, COL("sms", 4, 1), 0, 0 },
	{ "source", OCC_FT_STR, "where the SM count comes from", get_gpu_source,
	  NULL, COL(NULL, 0, 2), 0, 0 },
	{ "l2CacheSize", OCC_FT_INT, "its L2, bytes (null: not known)",
	  get_gpu_known, NULL, COL("l2", 10, 2), 0, 1 },
	{ "persistingL2CacheMaxSize", OCC_FT_INT, "its largest L2 set-aside, "
	  "bytes (null: not known)", get_gpu_known, NULL,
	  COL("set-aside", 10, 2), 0, 2 },
	{ "accessPolicyMaxWindowSize", OCC_FT_INT, "its largest access policy "
	  "window, bytes (null: not known)", get_gpu_known, NULL,
	  COL("window", 10, 2), 0, 3 },
	{ "l2_source", OCC_FT_STR, "where the L2 figures come from",
	  get_gpu_l2_source, NULL, COL(NULL, 0, 2), 0, 0 },
	{ "aliases", OCC_FT_SET, "the other names --gpu takes for it: the device "
	  "name the CUDA runtime prints", get_gpu_aliases, NULL,
	  COL(NULL, 0, 2), 0, 0 },
};

const struct occ_row_kind occ_gpus_kind = {
	"list-gpus", gpu_fields, sizeof gpu_fields / sizeof gpu_fields[0],
	NULL
};
