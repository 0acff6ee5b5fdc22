/*
 * kernel-row.c - a kernel's row (occcalc/kernel_row.h): its fields read
 * through occ_kernel_kind, the text table's cells, which table it takes,
 * Triton's launch where none is given, the rows without the model's
 * figures, the demangler, the image a GPU loads of a kernel compiled
 * for several, relocatable code left out, the cluster launch a kernel
 * declares, and occ_env_kernels_json's rows (cluster launches among
 * them) and refusals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

/* A kernel of a report, as a read hands it over. */
static struct occ_kernel_in kernel_of_report(void)
{
	struct occ_kernel_in k;

	memset(&k, 0, sizeof k);
	k.mangled = "_Z6kernelPf";
	k.file = "report.txt";
	snprintf(k.arch, sizeof k.arch, "sm_80");
	k.cc_major = 8;
	k.source = OCC_KSRC_PTXAS;
	k.regs = 32;
	k.static_smem = 1024;
	k.barriers = 1;
	k.stack = 16;
	k.spill_stores = 8;
	k.spill_loads = 4;
	k.fatbin_offset = -1;
	k.image = OCC_IMAGE_ALL;
	return k;
}

/* Field name of row into a string (NULL when absent). */
static const char *text_of(const struct occ_kernel_row *row, const char *name,
			   char *buf, size_t n)
{
	const struct occ_field *f = occ_field_find(&occ_kernel_kind, name,
						   strlen(name));
	struct occ_val v;

	if (!f)
		return "no such field";
	f->get(row, f, &v);
	if (v.type == OCC_VAL_NULL)
		return NULL;
	occ_val_format(buf, n, &v);
	return buf;
}

static int is(const char *got, const char *want)
{
	return got && want ? strcmp(got, want) == 0 : got == want;
}

static void test_fields(void)
{
	struct occ_kernel_in k = kernel_of_report();
	struct occ_kernel_query q;
	struct occ_kernel_of o;
	struct occ_kernel_row row;
	struct occ_val v;
	char buf[64];

	memset(&q, 0, sizeof q);
	occ_config_query_init(&q.q);
	q.tables = tables;
	memset(&o, 0, sizeof o);
	o.k = &k;
	o.name = "kernel(float*)";
	tap_ok(occ_kernel_row_compute(&q, &o, &row) == OCC_OK &&
	       row.of.c == &row.c && strcmp(row.c.arch, "sm_80") == 0 &&
	       row.c.r.blocks_per_sm > 0, "a report's kernel: a row on its "
	       "own table, its arch as compiled");
	tap_ok(occ_row_kind_count(&occ_kernel_kind) ==
	       occ_row_kind_count(&occ_config_kind) + OCC_KF_COUNT,
	       "the kind: the configuration's fields, then each kernel field");
	tap_ok(is(text_of(&row, "kernel", buf, sizeof buf), "kernel(float*)") &&
	       is(text_of(&row, "mangled", buf, sizeof buf), "_Z6kernelPf") &&
	       is(text_of(&row, "stack", buf, sizeof buf), "16") &&
	       is(text_of(&row, "container", buf, sizeof buf), "ptxas") &&
	       is(text_of(&row, "bounds_known", buf, sizeof buf), "false") &&
	       !text_of(&row, "max_threads", buf, sizeof buf) &&
	       !text_of(&row, "required_block", buf, sizeof buf) &&
	       is(text_of(&row, "regs", buf, sizeof buf), "32"),
	       "its fields: name, symbol, stack, container, bounds, "
	       "registers");
	occ_kernel_text(&row.of, OCC_KF_SPILL_STORES, &v);
	tap_ok(v.type == OCC_VAL_STR && strcmp(v.s, "8/4") == 0,
	       "the text table's spills: stored/loaded");
	occ_kernel_text(&row.of, OCC_KF_MAX_THREADS, &v);
	tap_ok(v.type == OCC_VAL_STR && strcmp(v.s, "?") == 0,
	       "the text table's bound: '?' where a report cannot say");

	occ_kernel_row_no_image(&row.c);
	tap_ok(is(text_of(&row, "kernel", buf, sizeof buf), "kernel(float*)") &&
	       is(text_of(&row, "file", buf, sizeof buf), "report.txt") &&
	       !text_of(&row, "stack", buf, sizeof buf) &&
	       !text_of(&row, "spill_stores", buf, sizeof buf) &&
	       !text_of(&row, "blocks_per_sm", buf, sizeof buf),
	       "no image runs: the kernel and its file, nothing of its "
	       "images");
	k.ptx_only = 1;
	tap_ok(occ_kernel_row_bare(&k, 256, &row.c) && row.c.no_model &&
	       !row.c.no_image && row.c.k.block_size == 256 &&
	       strcmp(row.c.arch, "sm_80") == 0,
	       "PTX only: a row without the model's figures, at the block "
	       "given");
}

static void test_table_and_launch(void)
{
	struct occ_kernel_in k = kernel_of_report();
	const struct occ_arch *a = NULL;
	struct occ_triton_entry L;
	uint64_t block = 0, smem = 0;

	tap_ok(occ_kernel_table(tables, arch(8, 9), 8, 9, &k, &a) == OCC_OK &&
	       a == arch(8, 9), "sm_80 SASS on an 8.9 GPU takes 8.9's table");
	tap_ok(occ_kernel_table(tables, arch(7, 5), 7, 5, &k, &a) == OCC_OK &&
	       a == arch(8, 0), "where it does not run there: its own");
	k.cc_major = 4;
	tap_ok(occ_kernel_table(tables, NULL, 0, 0, &k, &a) ==
	       OCC_ERR_UNKNOWN_ARCH, "no table for its compute capability: "
	       "OCC_ERR_UNKNOWN_ARCH");

	memset(&L, 0, sizeof L);
	L.launch.block = 128;
	L.launch.dynamic_smem = 4096;
	tap_ok(occ_kernel_row_launch(&L, 0, 0, &block, &smem) ==
	       (OCC_KERNEL_LAUNCH_BLOCK | OCC_KERNEL_LAUNCH_SMEM) &&
	       block == 128 && smem == 4096, "Triton's launch: its block and "
	       "shared bytes");
	block = smem = 1;
	tap_ok(occ_kernel_row_launch(&L, 1, 0, &block, &smem) ==
	       OCC_KERNEL_LAUNCH_SMEM && block == 1 && smem == 4096 &&
	       occ_kernel_row_launch(NULL, 0, 0, &block, &smem) == 0,
	       "a block given wins; no launch, nothing set");
}

/* The cluster a kernel declares, and which launch its row takes. */
static void test_cluster(void)
{
	struct occ_kernel_in k = kernel_of_report();
	struct occ_cluster_shape c;
	struct occ_triton_entry L;
	const char *source = NULL;
	int limit = occ_cluster_size_limit(arch(9, 0));

	k.cc_major = 9;
	tap_ok(occ_kernel_cluster_for(arch(9, 0), &k, NULL, &c, &source) ==
	       OCC_KERNEL_CLUSTER_GIVEN && !occ_kernel_declares_cluster(tables,
	       &k, NULL), "none declared: the caller's cluster");
	k.cluster[0] = k.cluster[1] = 2;
	tap_ok(occ_kernel_cluster_for(arch(9, 0), &k, NULL, &c, &source) ==
	       OCC_KERNEL_CLUSTER_DECLARED && c.size == 4 && c.dims[2] == 1 &&
	       is(source, "__cluster_dims__") &&
	       occ_kernel_declares_cluster(tables, &k, NULL),
	       "__cluster_dims__(2, 2): declared, 4 CTAs, which wins");
	tap_ok(occ_kernel_cluster_for(arch(8, 0), &k, NULL, &c, &source) ==
	       OCC_KERNEL_CLUSTER_NONE, "a table without clusters: none");
	memset(&L, 0, sizeof L);
	L.launch.cluster[0] = 2 * limit;
	k.cluster[0] = 0;
	tap_ok(occ_kernel_cluster_for(arch(9, 0), &k, &L, &c, &source) ==
	       OCC_KERNEL_CLUSTER_NONE && is(source, "num_ctas") &&
	       c.size == 2 * limit, "Triton's num_ctas above what the GPU "
	       "takes: it cannot launch as declared, the plain launch");
	k.ptx_only = 1;
	tap_ok(occ_kernel_cluster_for(arch(9, 0), &k, &L, &c, &source) ==
	       OCC_KERNEL_CLUSTER_NONE && !occ_kernel_cluster_declared(&k, &L,
	       &c, &source), "PTX only: none");
}

static void test_demangle(void)
{
	char *name = occ_demangle("_Z6kernelPf");

	tap_ok(name && strcmp(name, "kernel(float*)") == 0,
	       "occ_demangle: a C++ symbol");
	free(name);
	tap_ok(occ_demangle("triton_matmul") == NULL, "not C++: NULL");
}

struct rows {
	int n;
	char first[16384];
	const char *find;        /* a row to look for */
	int found;
};

static int take(void *ctx, const char *json, size_t len)
{
	struct rows *r = ctx;

	if (!r->n++)
		snprintf(r->first, sizeof r->first, "%.*s", (int)len, json);
	if (r->find && strlen(r->find) == len &&
	    memcmp(r->find, json, len) == 0)
		r->found++;
	return 0;
}

static void test_query(const char *fixtures)
{
	struct occ_kernels_diag d;
	struct occ_diag ed;
	struct occ_env *env;
	struct rows r;
	char path[4096];

	if (occ_env_open(getenv("OCCCALC_TABLES"), &env, &ed) != OCC_OK) {
		tap_ok(0, "occ_env_open");
		return;
	}
	snprintf(path, sizeof path, "%s/ptxas-sm90.txt", fixtures);
	memset(&r, 0, sizeof r);
	tap_ok(occ_env_kernels_json(env, path, NULL, "H100-SXM", 0, -1, NULL,
				    take, &r, &d) == OCC_OK && r.n == 7 &&
	       strstr(r.first, "\"kernel\":\"void occcalc_fixtures::") &&
	       strstr(r.first, "\"min_grid_size\":264"),
	       "a report on H100-SXM: 7 rows, names demangled, its SMs");
	memset(&r, 0, sizeof r);
	tap_ok(occ_env_kernels_json(env, path, NULL, NULL, 256, 0,
				    "kernel,block,smem", take, &r, &d) ==
	       OCC_OK && r.n == 7 && strncmp(r.first, "{\"kernel\":", 10) == 0 &&
	       strstr(r.first, "\"block\":256,\"smem\":0}"), "fields, block "
	       "and smem as asked");
	tap_ok(occ_env_kernels_json(env, path, "sm_80", NULL, 0, -1, NULL,
				    take, &r, &d) == OCC_ERR_UNSUPPORTED &&
	       strstr(d.msg, "no image runs on compute capability 8.0"),
	       "no kernel runs on the GPU named: refused, worded");
	snprintf(path, sizeof path, "%s/ptxas-multi.txt", fixtures);
	memset(&r, 0, sizeof r);
	tap_ok(occ_env_kernels_json(env, path, NULL, "L4", 0, -1, NULL, take,
				    &r, &d) == OCC_OK && r.n == 7 &&
	       strstr(r.first, "\"arch\":\"sm_86\""),
	       "each kernel compiled for several GPUs, one named: the image "
	       "it loads, 7 rows of 21");
	snprintf(path, sizeof path, "%s/bin/kernels.o", fixtures);
	memset(&r, 0, sizeof r);
	tap_ok(occ_env_kernels_json(env, path, NULL, "L4", 0, -1,
				    "kernel,arch,min_blocks_per_sm", take, &r,
				    &d) == OCC_OK && r.n == 22,
	       "an object's fatbin on an L4: the SASS it loads, the PTX "
	       "beside it left out");
	snprintf(path, sizeof path, "%s/bin/relocatable-mixed.fatbin",
		 fixtures);
	memset(&r, 0, sizeof r);
	tap_ok(occ_env_kernels_json(env, path, NULL, NULL, 0, -1,
				    "kernel,arch", take, &r, &d) == OCC_OK &&
	       r.n == 3, "relocatable code beside the linked: left out");
	snprintf(path, sizeof path, "%s/bin/sm_90a.cubin", fixtures);
	memset(&r, 0, sizeof r);
	r.find = "{\"kernel\":\"cluster_2x2x1(float*)\",\"cluster\":\"2x2\","
		 "\"cluster_source\":\"__cluster_dims__\","
		 "\"max_active_clusters\":124}";
	tap_ok(occ_env_kernels_json(env, path, NULL, "H100-SXM", 0, -1,
				    "kernel,cluster,cluster_source,"
				    "max_active_clusters", take, &r, &d) ==
	       OCC_OK && r.n == 22 && r.found == 1 &&
	       strstr(r.first, "\"cluster\":null"),
	       "a declared cluster on a GPU named: its row that launch on "
	       "the GPU's layout, the others' cluster fields absent");
	memset(&r, 0, sizeof r);
	tap_ok(occ_env_kernels_json(env, path, "sm_90a", NULL, 0, -1, NULL,
				    take, &r, &d) == OCC_OK && r.n == 22 &&
	       !strstr(r.first, "\"cluster\":"),
	       "an architecture only, no layout: plain rows, no cluster "
	       "fields");
	snprintf(path, sizeof path, "%s/no-such-file", fixtures);
	tap_ok(occ_env_kernels_json(env, path, NULL, NULL, 0, -1, NULL, take,
				    &r, &d) == OCC_ERR_IO && d.msg[0],
	       "a missing file: OCC_ERR_IO and its line");
	tap_ok(occ_env_kernels_json(env, fixtures, NULL, NULL, 0, -1,
				    "kernel,nonesuch", take, &r, &d) ==
	       OCC_ERR_UNKNOWN_KEY && strcmp(d.data.key, "nonesuch") == 0,
	       "an unknown field: OCC_ERR_UNKNOWN_KEY naming it");
	occ_env_free(env);
}

int main(void)
{
	static char fixtures[4096];
	const char *t = getenv("T");

	if (!t) {
		printf("Bail out! T is not set\n");
		return 1;
	}
	snprintf(fixtures, sizeof fixtures, "%s/fixtures", t);
	load_tables();
	test_fields();
	test_table_and_launch();
	test_cluster();
	test_demangle();
	test_query(fixtures);
	tap_plan(tap_n);
	occ_tables_free(tables);
	return tap_done();
}
