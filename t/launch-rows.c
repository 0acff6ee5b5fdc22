/*
 * launch-rows.c - a trace's launches as rows through the library
 * (occcalc/launch_rows.h), as a program reads them: the rows come one at
 * a time as the file is read, their values and their JSON the same as
 * `occcalc --launches FILE -f jsonl` prints (run here, every field), and
 * the counts the command line's notes print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

#define ROWS_MAX 8
#define JSON_MAX 8192

struct seen {
	int rows, devices_seen_first;
	int64_t last_line;                   /* the previous row's */
	int in_order;                        /* each after the one before */
	char json[ROWS_MAX][JSON_MAX];
	char kernel[ROWS_MAX][64];
	uint64_t blocks_per_sm[ROWS_MAX];
	int modelled[ROWS_MAX];
};

static const struct occ_field *fields[128];
static size_t n_fields;

static enum occ_status on_row(void *ctx, const struct occ_launch_row *r)
{
	struct seen *s = ctx;
	int i = s->rows++;

	if (i >= ROWS_MAX)
		return OCC_ERR_RANGE;
	s->in_order += r->l->line > s->last_line;
	s->last_line = r->l->line;
	s->devices_seen_first += r->dev != NULL;
	snprintf(s->kernel[i], sizeof s->kernel[i], "%s", r->l->kernel);
	s->modelled[i] = !r->not_modelled;
	s->blocks_per_sm[i] = r->m.result.blocks_per_sm;
	occ_row_json(fields, n_fields, r, s->json[i], sizeof s->json[i]);
	return OCC_OK;
}

static void all_fields(char *names, size_t cap)
{
	size_t i, len = 0;

	n_fields = occ_row_kind_count(&occ_launch_kind);
	for (i = 0; i < n_fields && i < 128; i++) {
		fields[i] = occ_row_kind_field(&occ_launch_kind, i);
		len += (size_t)snprintf(names + len, cap - len, "%s%s",
					i ? "," : "", fields[i]->name);
	}
}

/* What occcalc prints of path, every field, a line a row. */
static int cli_rows(const char *path, const char *fields_arg,
		    char lines[][JSON_MAX], int max)
{
	char cmd[8192];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof cmd, "'%s' --launches '%s' -f jsonl --fields '%s' "
		 "2>/dev/null", getenv("OCCCALC"), path, fields_arg);
	if (!(p = popen(cmd, "r")))
		return -1;
	while (n < max && fgets(lines[n], JSON_MAX, p)) {
		lines[n][strcspn(lines[n], "\n")] = '\0';
		n++;
	}
	pclose(p);
	return n;
}

static struct occ_gpus *load_gpus(char *path, size_t n)
{
	struct occ_gpus *g = NULL;
	struct occ_diag d;

	snprintf(path, n, "%s/gpus.txt", getenv("OCCCALC_TABLES"));
	if (occ_gpus_load(path, &g, &d) != OCC_OK)
		return NULL;
	return g;
}

static void test_rows(const char *trace, const struct occ_launch_rows_opts *o)
{
	static struct seen s;
	static char cli[ROWS_MAX][JSON_MAX];
	static char names[8192];
	struct occ_launch_rows_stats st;
	struct occ_diag d;
	enum occ_status rc;
	int n, i, same = 1;

	memset(&s, 0, sizeof s);
	all_fields(names, sizeof names);
	rc = occ_launch_rows_read_file(o, trace, on_row, &s, &st, &d);
	tap_ok(rc == OCC_OK && s.rows == 3 && st.launches == 3 &&
	       st.devices == 1 && s.devices_seen_first == 3,
	       "small.jsonl: 3 rows, each on the device the trace describes "
	       "first");
	tap_ok(s.in_order == 3, "a row a line, in the file's order");
	tap_ok(strcmp(s.kernel[0], "void gemm<128>(float*)") == 0 &&
	       strcmp(s.kernel[1], "void add(float*, int)") == 0 &&
	       s.modelled[0] && s.modelled[1] && s.modelled[2] &&
	       s.blocks_per_sm[1] == 8,
	       "in file order, each modelled: add's 256 threads, 8 blocks per "
	       "SM");
	tap_ok(st.file.format == OCC_LAUNCH_FORMAT_OCCCALC &&
	       st.file.complete && st.filtered == 0 &&
	       st.skipped[OCC_LAUNCH_SKIP_NO_DEVICE] == 0 &&
	       st.stop == OCC_LAUNCH_STOP_NONE,
	       "the counts: the file complete, nothing skipped nor stopped");
	n = cli_rows(trace, names, cli, ROWS_MAX);
	tap_ok(n == 3, "occcalc --launches prints 3 rows (%d)", n);
	for (i = 0; i < n && i < s.rows; i++)
		if (strcmp(cli[i], s.json[i]) != 0) {
			same = 0;
			tap_diag("row %d: occcalc: %s", i + 1, cli[i]);
			tap_diag("row %d: library: %s", i + 1, s.json[i]);
		}
	tap_ok(same && n == s.rows, "occ_row_json of each row, all %zu fields, "
	       "is the line occcalc --launches -f jsonl prints", n_fields);
	tap_ok(strstr(s.json[0], "\"occupancy_pct\":18.75") != NULL &&
	       strstr(s.json[0], "\"cluster_size\":2") != NULL &&
	       strstr(s.json[0], "\"max_active_clusters\":198") != NULL,
	       "gemm's row: 18.75 %%, clusters of 2, 198 of them on the "
	       "list's H100 layout");
}

static enum occ_status stop_at_two(void *ctx, const struct occ_launch_row *r)
{
	(void)r;
	return ++*(int *)ctx == 2 ? OCC_ERR_NOMEM : OCC_OK;
}

static int no_add(void *ctx, const struct occ_launch_record *l)
{
	(void)ctx;
	return strstr(l->kernel, "add") == NULL;
}

static void test_opts(const char *trace, const struct occ_launch_rows_opts *o)
{
	struct occ_launch_rows_opts w = *o;
	struct occ_launch_rows_stats st;
	struct occ_launch_rows *run;
	struct occ_launch_device gpu;
	const struct occ_launch_dev *named;
	struct occ_diag d;
	int n = 0;

	tap_ok(occ_launch_rows_read_file(o, trace, stop_at_two, &n, &st, &d) ==
	       OCC_ERR_NOMEM && n == 2 && st.launches == 2 &&
	       st.file.launches == 2 && !st.file.complete,
	       "a row callback's status stops the read and is its result: "
	       "each row is handed over as its launch is read, the third "
	       "not read");
	w.want = no_add;
	tap_ok(occ_launch_rows_read_file(&w, trace, NULL, NULL, &st, &d) ==
	       OCC_OK && st.launches == 2 && st.filtered == 1,
	       "a launch the filter leaves out is no row, counted");
	memset(&gpu, 0, sizeof gpu);
	snprintf(gpu.name, sizeof gpu.name, "NVIDIA A100-SXM4-80GB");
	gpu.device = -1;
	gpu.major = 8;
	gpu.multiProcessorCount = 108;
	w = *o;
	w.gpu = &gpu;
	tap_ok(occ_launch_rows_new(&w, &run) == OCC_OK &&
	       occ_launch_rows_file(run, trace, NULL, NULL, NULL, &d) == OCC_OK,
	       "a GPU named: modelled once, the trace read");
	named = occ_launch_rows_named(run);
	st = *occ_launch_rows_stats(run);
	tap_ok(named && named->named && named->what_if == 3 &&
	       occ_launch_rows_device(run, 0) == named &&
	       st.skipped[OCC_LAUNCH_SKIP_WHAT_IF_CLUSTER] == 2 &&
	       st.devices == 2,
	       "every launch a what-if on it: the cluster launches left "
	       "without figures (no clusters before 9.0)");
	occ_launch_rows_free(run);
	tap_ok(strcmp(occ_launch_skip_text(OCC_LAUNCH_SKIP_NO_DEVICE),
		      "on a device the trace does not describe") == 0 &&
	       !occ_launch_skip_text(OCC_LAUNCH_SKIP_COUNT),
	       "each reason's words, as a row's reason gives them");
}

int main(void)
{
	struct occ_launch_rows_opts o;
	struct occ_gpus *gpus;
	char trace[1024], gpus_path[1024];

	load_tables();
	gpus = load_gpus(gpus_path, sizeof gpus_path);
	memset(&o, 0, sizeof o);
	o.tables = tables;
	o.gpus = gpus;
	o.gpus_path = gpus_path;
	snprintf(trace, sizeof trace, "%s/fixtures/launches/small.jsonl",
		 getenv("T"));
	tap_ok(gpus != NULL, "the GPU list loads");
	test_rows(trace, &o);
	test_opts(trace, &o);
	tap_plan(tap_n);
	occ_gpus_free(gpus);
	occ_tables_free(tables);
	return tap_done();
}
