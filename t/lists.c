/*
 * lists.c - the library's rows of the listings and of --info
 * (occcalc/lists.h) are the command line's: each row's JSON object, every
 * field, equals the line `occcalc --list-archs`, `--list-gpus` or
 * `--arch ARCH --info` prints with -f jsonl; and a device's record names
 * the table values it contradicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "cli-rows.h"
#include "tap.h"

static char buf[1 << 16];

static void test_archs(void)
{
	struct cli_lines c;
	struct occ_arch_row rows[256];
	size_t i, n = occ_tables_count(tables);

	tap_ok(cli_jsonl(&c, "--list-archs --fields arch,computeCapability,"
			 "name,products") == 0 && c.n == n,
	       "occcalc --list-archs: a line per table (%zu)", n);
	for (i = 0; i < n && i < 256; i++)
		occ_arch_row_init(&rows[i], occ_tables_get(tables, i));
	tap_ok(rows_same(&occ_archs_kind, rows, sizeof rows[0], i, &c) == n, "each table's row is the line occcalc prints");
	cli_lines_free(&c);
}

static void test_gpus(void)
{
	char path[1024], fields[2048], args[4096];
	struct occ_gpus *g = NULL;
	struct occ_gpu_row rows[512];
	struct occ_diag d;
	struct cli_lines c;
	size_t i, n;

	snprintf(path, sizeof path, "%s/gpus.txt", getenv("OCCCALC_TABLES"));
	if (occ_gpus_load(path, &g, &d) != OCC_OK) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	n = occ_gpus_count(g);
	kind_field_list(&occ_gpus_kind, fields, sizeof fields);
	snprintf(args, sizeof args, "--list-gpus --fields %s", fields);
	tap_ok(cli_jsonl(&c, args) == 0 && c.n == n,
	       "occcalc --list-gpus, every field: a line per GPU (%zu)", n);
	for (i = 0; i < n && i < 512; i++)
		occ_gpu_row_init(&rows[i], occ_gpus_get(g, i));
	tap_ok(rows_same(&occ_gpus_kind, rows, sizeof rows[0], i, &c) == n, "each GPU's row is the line occcalc prints");
	cli_lines_free(&c);
	occ_gpus_free(g);
}

static void test_info(const char *name, int major, int minor)
{
	struct occ_info_row row;
	struct cli_lines c;
	char args[64];

	snprintf(args, sizeof args, "--arch %s --info", name);
	occ_info_row_init(&row, arch(major, minor), NULL);
	occ_info_json(&row, buf, sizeof buf);
	tap_ok(cli_jsonl(&c, args) == 0 && c.n == 1 &&
	       strcmp(buf, c.line[0]) == 0,
	       "occ_info_json of %s is occcalc --arch %s --info's object", name,
	       name);
	cli_lines_free(&c);
}

/* A device's properties over its table: the table's values it
 * contradicts are in the record, counted. */
static void test_info_device(void)
{
	struct occ_launch_device d = h100_device();
	struct occ_info_fields x;
	struct occ_info_row row;
	struct occ_target t;

	d.sharedMemPerMultiprocessor = 102400;
	d.sharedMemPerBlockOptin = 101376;
	if (occ_target_device(tables, &d, 0, &t) != OCC_OK) {
		printf("Bail out! the H100's properties are refused\n");
		exit(1);
	}
	occ_info_row_init(&row, &t.arch, t.table);
	occ_info_json(&row, buf, sizeof buf);
	tap_ok(row.contradictions == 2 &&
	       strstr(buf, "\"sharedMemPerMultiprocessor\":102400,") &&
	       strstr(buf, "\"table.sharedMemPerMultiprocessor\":233472,") &&
	       strstr(buf, "\"table.sharedMemPerBlockOptin\":232448,") &&
	       strstr(buf, "\"tableContradictions\":2,\"source\":"),
	       "a device's record: its values, the table's it contradicts, "
	       "their count, the table's file");
	occ_info_fields_make(&x, &row);
	tap_ok(strcmp(x.f[x.n - 1].name, "source") == 0 &&
	       strcmp(x.f[x.n - 2].name, "tableContradictions") == 0 &&
	       strcmp(x.f[0].name, "computeCapability") == 0,
	       "its fields: the keys first, the count and the source last");
}

int main(void)
{
	load_tables();
	tap_plan(9);
	test_archs();
	test_gpus();
	test_info("sm_90", 9, 0);
	test_info("sm_80", 8, 0);
	test_info("sm_120", 12, 0);
	test_info_device();
	occ_tables_free(tables);
	return tap_done();
}
