/*
 * launch-summary.c - a trace's launches summed by kernel or operator
 * through the library (occcalc/launch_summary.h), as a program reads
 * them: the groups and their figures those the text summary prints, each
 * row's JSON the line `occcalc --launches FILE --summary -f jsonl` prints
 * (run here, every field), the one call (occ_env_launch_summary_json)
 * the same; and what is kept bounded, whatever the launches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

#define ROWS_MAX 64
#define JSON_MAX 8192

static char lines[ROWS_MAX][JSON_MAX];

/* What occcalc prints of path with args, a line a row; how many. */
static int cli_rows(const char *path, const char *args)
{
	char cmd[8192];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof cmd, "'%s' --launches '%s' --summary -f jsonl %s "
		 "2>/dev/null", getenv("OCCCALC"), path, args);
	if (!(p = popen(cmd, "r")))
		return -1;
	while (n < ROWS_MAX && fgets(lines[n], JSON_MAX, p)) {
		lines[n][strcspn(lines[n], "\n")] = '\0';
		n++;
	}
	pclose(p);
	return n;
}

static enum occ_status add_row(void *ctx, const struct occ_launch_row *r)
{
	return occ_launch_summary_add(ctx, r);
}

/* Every field, and their names for --fields. */
static const struct occ_field *fields[64];
static size_t n_fields;

static void all_fields(char *names, size_t cap)
{
	size_t i, len = 0;

	n_fields = occ_row_kind_count(&occ_launch_summary_kind);
	for (i = 0; i < n_fields && i < 64; i++) {
		fields[i] = occ_row_kind_field(&occ_launch_summary_kind, i);
		len += (size_t)snprintf(names + len, cap - len, "%s%s",
					i ? "," : "", fields[i]->name);
	}
}

static void test_groups(const char *trace, const struct occ_launch_rows_opts *o)
{
	static char names[4096], args[4200], json[JSON_MAX];
	const struct occ_launch_summary_group *const *g;
	const struct occ_launch_totals *t;
	struct occ_launch_summary_row row;
	struct occ_launch_summary *s;
	struct occ_launch_rows *rows;
	struct occ_diag d;
	size_t n = 0, i;
	int same = 1, lines_n;

	tap_ok(occ_launch_summary_new(OCC_LAUNCH_BY_KERNEL, &s) == OCC_OK &&
	       occ_launch_rows_new(o, &rows) == OCC_OK &&
	       occ_launch_rows_file(rows, trace, add_row, s, NULL, &d) ==
	       OCC_OK, "small.jsonl read into a summary");
	occ_launch_summary_file(s);
	t = occ_launch_summary_totals(s);
	tap_ok(t->launches == 3 && t->modelled == 3 && t->groups == 2 &&
	       t->files == 1 && t->n_devs == 1 && t->untracked == 0 &&
	       t->n_shapes == 3,
	       "the totals: 3 launches of 2 kernels, 3 shapes, 1 file, 1 GPU");
	tap_ok(occ_launch_summary_groups(s, &g, &n) == OCC_OK && n == 2 &&
	       strcmp(g[0]->name, "void gemm<128>(float*)") == 0 &&
	       g[0]->launches == 2 && g[0]->n_shapes == 2 &&
	       g[1]->launches == 1,
	       "ranked by GPU time: gemm's 2 launches of 2 shapes, then add");
	occ_launch_summary_row_make(t, g[0], &row);
	tap_ok(row.c && row.c->r.blocks_per_sm == 3 && row.has_headroom &&
	       row.h.regs.keep_max == 168 && row.h.smem.keep_max == 76800,
	       "gemm's heaviest configuration: 3 blocks per SM, as many up to "
	       "168 registers and 76800 B, as the text's headroom says");
	all_fields(names, sizeof names);
	snprintf(args, sizeof args, "--fields '%s'", names);
	lines_n = cli_rows(trace, args);
	for (i = 0; i < n; i++) {
		occ_launch_summary_row_make(t, g[i], &row);
		occ_row_json(fields, n_fields, &row, json, sizeof json);
		if ((int)i >= lines_n || strcmp(json, lines[i]) != 0) {
			same = 0;
			tap_diag("row %zu: library: %s", i + 1, json);
			tap_diag("row %zu: occcalc: %s", i + 1,
				 (int)i < lines_n ? lines[i] : "(none)");
		}
	}
	tap_ok(same && lines_n == (int)n, "each group's row, all %zu fields, is "
	       "the line occcalc --launches --summary -f jsonl prints",
	       n_fields);
	occ_launch_summary_free(s);
	occ_launch_rows_free(rows);
}

struct collected {
	int n, same;
};

static int compare_line(void *ctx, const char *json, size_t len)
{
	struct collected *c = ctx;

	if (c->n >= ROWS_MAX || strlen(lines[c->n]) != len ||
	    memcmp(lines[c->n], json, len) != 0) {
		tap_diag("row %d: library: %s", c->n + 1, json);
		c->same = 0;
	}
	c->n++;
	return 0;
}

static void test_query(const char *trace, const char *kineto)
{
	static const char *const by[] = { "kernel", "op" };
	struct collected c;
	struct occ_env *env;
	struct occ_diag d;
	char args[64];
	int i, n;

	if (occ_env_open(NULL, &env, &d) != OCC_OK) {
		tap_ok(0, "the environment opens");
		return;
	}
	for (i = 0; i < 2; i++) {
		snprintf(args, sizeof args, "--by %s", by[i]);
		n = cli_rows(kineto, args);
		memset(&c, 0, sizeof c);
		c.same = 1;
		tap_ok(occ_env_launch_summary_json(env, kineto, NULL, by[i],
						   compare_line, &c, &d) ==
		       OCC_OK && c.same && c.n == n && n > 0,
		       "occ_env_launch_summary_json by %s: the %d lines of "
		       "occcalc --launches --summary --by %s -f jsonl", by[i], n,
		       by[i]);
	}
	n = cli_rows(trace, "--gpu A100-SXM4-80GB");
	memset(&c, 0, sizeof c);
	c.same = 1;
	tap_ok(occ_env_launch_summary_json(env, trace, "A100-SXM4-80GB", NULL,
					   compare_line, &c, &d) == OCC_OK &&
	       c.same && c.n == n && n > 0,
	       "with a GPU named, as --gpu: the same %d lines", n);
	tap_ok(occ_env_launch_summary_json(env, trace, NULL, "module",
					   compare_line, &c, &d) ==
	       OCC_ERR_INVALID_INPUT && strcmp(d.key, "module") == 0,
	       "by neither kernel nor op: OCC_ERR_INVALID_INPUT, named");
	tap_ok(occ_env_launch_summary_json(env, "/nonexistent/x.json", NULL,
					   NULL, compare_line, &c, &d) ==
	       OCC_ERR_IO, "a file that does not exist: OCC_ERR_IO");
	occ_env_free(env);
}

/* A launch without figures (no device): what the bounds count. */
static void add_unmodelled(struct occ_launch_summary *s, const char *name,
			   int64_t grid)
{
	struct occ_launch_record l;
	struct occ_launch_row r;

	memset(&l, 0, sizeof l);
	memset(&r, 0, sizeof r);
	l.kernel = name;
	l.mangled = "";
	l.grid[0] = grid;
	r.l = &l;
	r.not_modelled = "on a device the trace does not describe";
	occ_launch_summary_add(s, &r);
}

static void test_bounds(void)
{
	const struct occ_launch_summary_group *const *g;
	const struct occ_launch_totals *t;
	struct occ_launch_summary *s;
	static char name[OCC_LAUNCH_SUMMARY_NAME_KEPT + 2000];
	size_t n, i;
	int64_t k;

	occ_launch_summary_new(OCC_LAUNCH_BY_KERNEL, &s);
	for (i = 0; i < OCC_LAUNCH_SUMMARY_GROUPS + 100; i++) {
		snprintf(name, sizeof name, "kernel_%zu", i);
		add_unmodelled(s, name, 1);
	}
	t = occ_launch_summary_totals(s);
	tap_ok(t->launches == OCC_LAUNCH_SUMMARY_GROUPS + 100 &&
	       t->groups == OCC_LAUNCH_SUMMARY_GROUPS && t->untracked == 100,
	       "kernels past %d: in the totals, their 100 launches untracked",
	       OCC_LAUNCH_SUMMARY_GROUPS);
	occ_launch_summary_free(s);

	occ_launch_summary_new(OCC_LAUNCH_BY_KERNEL, &s);
	memset(name, 'a', sizeof name - 1);
	add_unmodelled(s, name, 1);
	name[sizeof name - 2] = 'b';
	add_unmodelled(s, name, 1);
	add_unmodelled(s, name, 1);
	t = occ_launch_summary_totals(s);
	tap_ok(occ_launch_summary_groups(s, &g, &n) == OCC_OK && n == 2 &&
	       strlen(g[0]->name) == OCC_LAUNCH_SUMMARY_NAME_KEPT &&
	       g[0]->len == sizeof name - 1 && g[0]->launches == 2,
	       "names alike in their first %d bytes kept that far, told apart "
	       "by the rest", OCC_LAUNCH_SUMMARY_NAME_KEPT);
	occ_launch_summary_free(s);

	occ_launch_summary_new(OCC_LAUNCH_BY_OP, &s);
	for (k = 1; k <= (int64_t)OCC_LAUNCH_SUMMARY_SHAPES + 10; k++)
		add_unmodelled(s, "k", k);
	t = occ_launch_summary_totals(s);
	tap_ok(occ_launch_summary_groups(s, &g, &n) == OCC_OK && n == 1 &&
	       g[0]->unnamed && t->n_shapes == OCC_LAUNCH_SUMMARY_SHAPES &&
	       g[0]->n_shapes == OCC_LAUNCH_SUMMARY_SHAPES &&
	       g[0]->shapes_capped,
	       "shapes counted up to %u, then marked as more; by op, launches "
	       "of no op one unnamed group", OCC_LAUNCH_SUMMARY_SHAPES);
	occ_launch_summary_free(s);
}

int main(void)
{
	struct occ_launch_rows_opts o;
	struct occ_gpus *gpus = NULL;
	struct occ_diag d;
	char trace[1024], kineto[1024], list[1024];

	load_tables();
	/* The list's GPC layouts, as the command line models clusters. */
	snprintf(list, sizeof list, "%s/gpus.txt", getenv("OCCCALC_TABLES"));
	tap_ok(occ_gpus_load(list, &gpus, &d) == OCC_OK, "the GPU list loads");
	memset(&o, 0, sizeof o);
	o.tables = tables;
	o.gpus = gpus;
	o.gpus_path = list;
	snprintf(trace, sizeof trace, "%s/fixtures/launches/small.jsonl",
		 getenv("T"));
	snprintf(kineto, sizeof kineto,
		 "%s/fixtures/pytorch/pt-step-kineto.json.gz", getenv("T"));
	test_groups(trace, &o);
	test_query(trace, kineto);
	test_bounds();
	tap_plan(tap_n);
	occ_gpus_free(gpus);
	occ_tables_free(tables);
	return tap_done();
}
