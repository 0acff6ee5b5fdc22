/*
 * cluster-rows.c - the library's occupancy row with a cluster launch
 * (occcalc/cluster_row.h) is the command line's: for a GPU of the list
 * (its measured layout, or its published counts only), a layout given,
 * the SMs alone, a Blackwell table without the cluster cap, best and
 * shapes, a grid's waves, the JSON object of the configuration's fields
 * and the launch's equals the line `occcalc ... --cluster ...` prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "cli-rows.h"
#include "tap.h"

static struct occ_gpus *gpus;
static char gpus_path[1024];
static char buf[1 << 16];

/* What a case computes: a GPU of the list, or --arch with --layout or
 * --sms; a kernel; the cluster launches asked for. */
struct cluster_case {
	const char *gpu, *arch, *layout;
	int sms, block, regs;
	int64_t grid;
	const char *clusters[4];         /* "2", "4x2", "best" */
};

static void load_gpus(void)
{
	struct occ_diag d;

	snprintf(gpus_path, sizeof gpus_path, "%s/gpus.txt",
		 getenv("OCCCALC_TABLES"));
	if (occ_gpus_load(gpus_path, &gpus, &d) != OCC_OK) {
		printf("Bail out! cannot read %s\n", gpus_path);
		exit(1);
	}
}

/* The target and its layout as the command line finds them. */
static int case_layout(const struct cluster_case *c, struct occ_target *t,
		       struct occ_gpc_layout *given,
		       struct occ_cluster_layout *L)
{
	struct occ_layout_request r = { .flags = OCC_LAYOUT_SMS_STRICT };
	struct occ_diag d;
	int major, minor;

	if (c->gpu) {
		if (occ_target_gpu(tables, gpus, c->gpu, t) != OCC_OK)
			return -1;
		r.gpus = gpus;
		r.gpus_path = gpus_path;
		r.name = t->gpu->name;
	} else {
		if (occ_arch_parse_name(c->arch, &major, &minor) != OCC_OK)
			return -1;
		occ_target_table(arch(major, minor), t);
	}
	if (c->sms)
		t->sms = c->sms;
	if (c->layout) {
		if (occ_layout_parse(c->layout, given, NULL) != OCC_OK)
			return -1;
		r.given = given;
	}
	if (occ_target_layout(t, &r, &d) != OCC_OK)
		return -1;
	return occ_cluster_layout_of(t, c->gpu ? t->gpu->name : NULL, L);
}

static int case_config(const struct cluster_case *c, const struct occ_target *t,
		       const struct occ_cluster_layout *L,
		       struct occ_config_row *row)
{
	struct occ_config_query q;

	memset(&q, 0, sizeof q);
	occ_kernel_init(&q.k);
	q.k.block_size = c->block;
	q.k.regs_per_thread = c->regs;
	q.regs_assumed = !c->regs;
	q.sms = t->sms ? t->sms : L->l.sms;
	q.grid = c->grid;
	q.needs = OCC_CONFIG_HEADROOM | OCC_CONFIG_MAX_DYN;
	return occ_config_compute(&t->arch, &q, row);
}

/* The command line's arguments for the case, every field asked for. */
static void case_args(const struct cluster_case *c, char *args, size_t n)
{
	char fields[4096], more[2048];
	size_t len, i;

	kind_field_list(&occ_config_kind, fields, sizeof fields);
	kind_field_list(&occ_cluster_kind, more, sizeof more);
	len = (size_t)snprintf(args, n, "%s %s -b %d -r %d --fields %s,%s",
			       c->gpu ? "--gpu" : "--arch",
			       c->gpu ? c->gpu : c->arch, c->block, c->regs,
			       fields, more);
	if (c->layout)
		len += (size_t)snprintf(args + len, n - len, " --layout %s",
					c->layout);
	if (c->sms)
		len += (size_t)snprintf(args + len, n - len, " --sms %d", c->sms);
	if (c->grid)
		len += (size_t)snprintf(args + len, n - len, " --grid %lld",
					(long long)c->grid);
	for (i = 0; i < 4 && c->clusters[i]; i++)
		len += (size_t)snprintf(args + len, n - len, "%s%s",
					i ? "," : " --cluster ", c->clusters[i]);
}

/* One cluster launch of the configuration, as --cluster names it. */
static int launch_json(const struct occ_config_row *row,
		       const struct occ_cluster_layout *L, const char *name)
{
	struct occ_cluster_query q = { .name = name };
	struct occ_config_row waves = *row;
	struct occ_cluster_row cl;
	size_t pos;

	if (strcmp(name, "best") == 0)
		q.best = 1;
	else if (occ_cluster_parse(name, &q.shape, &pos) != OCC_OK)
		return -1;
	if (occ_cluster_row_compute(row, L, &q, &cl) != OCC_OK)
		return -1;
	occ_cluster_row_waves(&cl, &waves);
	occ_cluster_config_json(&waves, &cl, buf, sizeof buf);
	return 0;
}

static void test_case(const struct cluster_case *c)
{
	struct occ_gpc_layout given;
	struct occ_cluster_layout L;
	struct occ_config_row row;
	struct occ_target t;
	struct cli_lines lines;
	char args[8192];
	size_t i, same = 0, n = 0;

	case_args(c, args, sizeof args);
	if (case_layout(c, &t, &given, &L) != 0 ||
	    case_config(c, &t, &L, &row) != OCC_OK ||
	    cli_jsonl(&lines, args) != 0) {
		tap_ok(0, "occcalc %.80s...: computed", args);
		return;
	}
	for (i = 0; i < 4 && c->clusters[i]; i++, n++) {
		if (launch_json(&row, &L, c->clusters[i]) != 0 || i >= lines.n)
			continue;
		if (strcmp(buf, lines.line[i]) == 0)
			same++;
		else
			printf("# %s\n# %s\n", buf, lines.line[i]);
	}
	tap_ok(same == n && lines.n == n, "%s%s%s --cluster %s...: each of "
	       "occcalc's %zu rows is occ_cluster_config_json's",
	       c->gpu ? c->gpu : c->arch, c->layout ? " --layout " : "",
	       c->layout ? c->layout : "", c->clusters[0], n);
	cli_lines_free(&lines);
}

static const struct cluster_case cases[] = {
	/* The list's measured layout. */
	{ "H100-SXM", NULL, NULL, 0, 128, 40, 0, { "2", "4x2", "best", "16" } },
	{ "H100-SXM", NULL, NULL, 0, 256, 64, 10000, { "2", "8", NULL, NULL } },
	/* Published counts only: upper bounds. */
	{ "H100-PCIe", NULL, NULL, 0, 256, 64, 0, { "1", "2", "4", "8" } },
	/* No cluster cap in the table (Blackwell). */
	{ "B200", NULL, NULL, 0, 128, 32, 0, { "2", "8", NULL, NULL } },
	/* A layout given; the SMs alone. */
	{ NULL, "sm_90", "8,16x5,18x2,2x4", 0, 128, 0, 0,
	  { "best", "2x2x2", NULL, NULL } },
	{ NULL, "sm_90", NULL, 132, 128, 0, 2112, { "4", NULL, NULL, NULL } },
};

int main(void)
{
	size_t i, n = sizeof cases / sizeof cases[0];

	load_tables();
	load_gpus();
	tap_plan((int)n);
	for (i = 0; i < n; i++)
		test_case(&cases[i]);
	occ_gpus_free(gpus);
	occ_tables_free(tables);
	return tap_done();
}
