/*
 * target.c - the GPU modelled (occcalc/target.h): a device's properties
 * over its table (one rule for a traced device and this machine's), the
 * table borrowed where its compute capability has none, a GPU of the
 * list, and the GPC layout's one rule: which candidate is taken, which
 * is passed over for its SMs, and a GPU list that cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

static const struct occ_key *key(const char *name)
{
	const struct occ_key *k;
	size_t i;

	for (i = 0; (k = occ_arch_key(i)); i++)
		if (strcmp(k->name, name) == 0)
			return k;
	printf("Bail out! no key %s\n", name);
	exit(1);
}

static void test_device(void)
{
	struct occ_launch_device d = h100_device();
	struct occ_target t;

	tap_ok(occ_target_device(tables, &d, 0, &t) == OCC_OK &&
	       t.table == arch(9, 0) && !t.borrowed && t.sms == 132 &&
	       t.arch.smem_per_sm == 233472 && !t.fault,
	       "a device on its table, its SMs the target's");
	d.sharedMemPerMultiprocessor = 102400;
	d.sharedMemPerBlockOptin = 101376;
	tap_ok(occ_target_device(tables, &d, 0, &t) == OCC_OK &&
	       t.arch.smem_per_sm == 102400 &&
	       t.arch.smem_carveouts[t.arch.n_smem_carveouts - 1] == 102400 &&
	       t.arch.smem_carveouts[t.arch.n_smem_carveouts - 2] < 102400,
	       "less shared memory than the table's chip: the carveouts "
	       "clipped to it");
	d = h100_device();
	d.maxThreadsPerMultiProcessor = 2047;
	tap_ok(occ_target_device(tables, &d, 0, &t) == OCC_ERR_INCONSISTENT &&
	       t.fault && strcmp(t.fault, "maxThreadsPerMultiProcessor") == 0,
	       "properties no GPU has: checked (occ_arch_check), the "
	       "property named");
	d = h100_device();
	d.warpSize = 64;
	tap_ok(occ_target_device(tables, &d, OCC_TARGET_BORROW, &t) ==
	       OCC_ERR_INCONSISTENT && strcmp(t.fault, "warpSize") == 0,
	       "a warp other than the table's is no NVIDIA GPU's");
	d = h100_device();
	d.minor = 1;
	tap_ok(occ_target_device(tables, &d, 0, &t) == OCC_ERR_UNKNOWN_ARCH,
	       "9.1 has no table: none without OCC_TARGET_BORROW");
	tap_ok(occ_target_device(tables, &d, OCC_TARGET_BORROW, &t) == OCC_OK &&
	       t.borrowed && t.table == arch(9, 0) && t.arch.cc_major == 9 &&
	       t.arch.cc_minor == 1,
	       "with it, the newest table below (9.0), the device's compute "
	       "capability kept");
	d.major = 2;
	d.minor = 0;
	tap_ok(occ_target_device(tables, &d, OCC_TARGET_BORROW, &t) ==
	       OCC_ERR_UNKNOWN_ARCH, "no table at or below 2.0: none to borrow");
	tap_ok(occ_target_device_key(key("warpSize")) &&
	       occ_target_device_key(key("sharedMemPerBlockOptin")) &&
	       !occ_target_device_key(key("sharedMemAllocationUnitSize")),
	       "the keys a device gives: cudaDeviceProp's, not the "
	       "allocation units");
}

/* A GPU list in a file of its own. */
static void list_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static struct occ_gpus *list_load(const char *path)
{
	struct occ_gpus *g;
	struct occ_diag d;

	if (occ_gpus_load(path, &g, &d) != OCC_OK) {
		printf("Bail out! cannot load %s\n", path);
		exit(1);
	}
	return g;
}

#define LIST "A100 8.0 108 test\n" \
	"H100-SXM 9.0 132 test\n" \
	"alias H100-SXM NVIDIA H100 80GB HBM3\n" \
	"H100-PCIe 9.0 114 test\n" \
	"gpcs H100-PCIe 7 18 published\n" \
	"B300 10.3 300 test\n" \
	"layout H100-SXM 8,16x5,18x2,2x4 measured here\n"

static void test_layout(const char *path, struct occ_gpus *gpus)
{
	struct occ_gpc_layout given, measured;
	struct occ_layout_request r = { .gpus = gpus, .gpus_path = path };
	struct occ_target t;
	struct occ_diag d;

	occ_layout_parse("16x6", &given, NULL);
	occ_layout_parse("16x4", &measured, NULL);
	tap_ok(occ_target_gpu(tables, gpus, "H100-SXM", &t) == OCC_OK &&
	       t.sms == 132 && t.table == arch(9, 0) && t.gpu &&
	       strcmp(t.gpu->name, "H100-SXM") == 0,
	       "a GPU of the list: its table, its SMs, its entry");
	r.given = &given;
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_LISTED && t.mismatch == OCC_LAYOUT_GIVEN &&
	       t.mismatch_sms == 96 && t.layout.sms == 132 &&
	       strcmp(t.source, "measured here") == 0,
	       "a given layout of other SMs is passed over, said, for the "
	       "list's");
	r.flags = OCC_LAYOUT_SMS_STRICT;
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_ERR_INCONSISTENT &&
	       t.mismatch == OCC_LAYOUT_GIVEN,
	       "strict, it is an error");
	r.given = NULL;
	r.measured = &measured;
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_MEASURED && t.layout.sms == 64,
	       "a measured layout is taken whatever its SMs (those that ran "
	       "clusters)");
	r.measured = NULL;
	occ_target_gpu(tables, gpus, "H100-PCIe", &t);
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_BOUND && t.counts.sms == 114 &&
	       t.counts.gpcs == 7 && t.counts.sms_per_gpc_max == 18 &&
	       !occ_layout_basis_exact(t.basis),
	       "no layout but the list's GPC counts: a bound");
	t.sms = 100;
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_ERR_INCONSISTENT &&
	       t.mismatch == OCC_LAYOUT_BOUND && t.mismatch_sms == 114,
	       "counts of other SMs than the target's (--sms): strict, an "
	       "error");
	occ_target_gpu(tables, gpus, "A100", &t);
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_WHOLE && t.layout.n_gpcs == 1 &&
	       t.layout.sms_per_gpc[0] == 108 && strcmp(t.source, "test") == 0,
	       "no GPCs known: the SMs as one group");
	occ_target_gpu(tables, gpus, "B300", &t);
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_NONE && t.layout.sms == 300,
	       "too many SMs for one group: none, its SMs said");
}

static void test_device_layout(const char *path, struct occ_gpus *gpus)
{
	struct occ_launch_device dev = h100_device();
	struct occ_layout_request r = { .gpus = gpus, .gpus_path = path,
					.name = dev.name };
	struct occ_target t;
	struct occ_diag d;

	occ_target_device(tables, &dev, 0, &t);
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_LISTED && t.gpu &&
	       strcmp(t.gpu->name, "H100-SXM") == 0,
	       "a device: its entry by its name (an alias), the list's layout");
	dev.multiProcessorCount = 16;
	occ_target_device(tables, &dev, 0, &t);
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_OK &&
	       t.basis == OCC_LAYOUT_WHOLE && t.mismatch == OCC_LAYOUT_LISTED &&
	       t.layout.sms == 16,
	       "a device of fewer SMs (a MIG instance): the list's layout "
	       "passed over");
}

static void test_bad_list(const char *path)
{
	struct occ_layout_request r = { .gpus_path = path };
	struct occ_gpu gpu;
	struct occ_target t;
	struct occ_diag d;

	list_write(path, "H100-SXM 9.0 132 test\n"
		   "layout H100-SXM 8,16x5,18x2,2x4 one\n"
		   "layout H100-SXM 8,,16 two\n");
	memset(&gpu, 0, sizeof gpu);
	snprintf(gpu.name, sizeof gpu.name, "H200");
	gpu.sms = 132;
	occ_target_table(arch(9, 0), &t);
	t.gpu = &gpu;
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_ERR_SYNTAX && d.line == 3 &&
	       strcmp(d.key, "layout") == 0,
	       "a malformed layout line in the list: an error with its line, "
	       "never passed over");
	unlink(path);
	tap_ok(occ_target_layout(&t, &r, &d) == OCC_ERR_IO,
	       "a list that cannot be read: an error");
}

int main(void)
{
	char path[] = "/tmp/occ-target-XXXXXX";
	struct occ_gpus *gpus;
	int fd;

	load_tables();
	test_device();
	fd = mkstemp(path);
	if (fd < 0) {
		printf("Bail out! mkstemp\n");
		return 1;
	}
	close(fd);
	list_write(path, LIST);
	gpus = list_load(path);
	test_layout(path, gpus);
	test_device_layout(path, gpus);
	occ_gpus_free(gpus);
	test_bad_list(path);
	tap_plan(tap_n);
	occ_tables_free(tables);
	return tap_done();
}
