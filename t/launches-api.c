/*
 * launches.c - the launch API (occcalc/launches.h) as a C program uses
 * it: a trace read through callbacks, each launch computed on the device
 * the trace describes, and what the model makes of what a trace does not
 * hold. The command line's view is t/launches.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

struct seen {
	int devices, launches, launches_with_device, device_first;
	char first_kernel[64];
	int stop_after;             /* 0: never */
};

static enum occ_status on_device(void *ctx, const struct occ_launch_device *d)
{
	struct seen *s = ctx;

	(void)d;
	if (!s->launches)
		s->device_first = 1;
	s->devices++;
	return OCC_OK;
}

static enum occ_status on_launch(void *ctx, const struct occ_launch_record *l,
				 const struct occ_launch_device *d)
{
	struct seen *s = ctx;

	if (!s->launches++)
		snprintf(s->first_kernel, sizeof s->first_kernel, "%s",
			 l->kernel);
	s->launches_with_device += d != NULL;
	return s->stop_after && s->launches == s->stop_after
	       ? OCC_ERR_NOMEM : OCC_OK;
}

static const struct occ_launch_callbacks cb = { on_device, on_launch };

static void fixture(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/fixtures/launches/%s", getenv("T"), name);
}

static void test_read(void)
{
	struct seen s = { 0 };
	struct occ_launch_file info;
	struct occ_diag d;
	char path[1024];
	enum occ_status st;

	fixture(path, sizeof path, "small.jsonl");
	st = occ_launches_read_file(path, &cb, &s, &info, &d);
	tap_ok(st == OCC_OK && s.devices == 1 && s.launches == 3 &&
	       s.launches_with_device == 3 && s.device_first,
	       "an occcalc trace: its device, then its 3 launches, each with it");
	tap_ok(strcmp(s.first_kernel, "void gemm<128>(float*)") == 0,
	       "launches come in file order, names demangled");
	tap_ok(info.format == OCC_LAUNCH_FORMAT_OCCCALC && info.complete &&
	       info.declared == 3 && info.dropped == 0 && info.pid == 4242 &&
	       !info.cut_short, "the file: complete, 3 declared, none dropped, "
	       "its process");

	memset(&s, 0, sizeof s);
	s.stop_after = 2;
	st = occ_launches_read_file(path, &cb, &s, &info, &d);
	tap_ok(st == OCC_ERR_NOMEM && s.launches == 2,
	       "a callback's status stops the read and is its result");

	memset(&s, 0, sizeof s);
	fixture(path, sizeof path, "kineto.json");
	st = occ_launches_read_file(path, &cb, &s, &info, &d);
	tap_ok(st == OCC_OK && info.format == OCC_LAUNCH_FORMAT_KINETO &&
	       s.devices == 1 && s.launches == 3 && info.skipped == 2,
	       "a Kineto trace: 3 kernel events, 2 other events skipped");

	st = occ_launches_read_file(getenv("T"), &cb, &s, &info, &d);
	tap_ok(st == OCC_ERR_NOT_REGULAR, "a directory is not read");
}

/* The first n bytes of the fixture name, in a file of their own (path). */
static int cut_copy(const char *name, long n, char *path, size_t size)
{
	char from[1024], *buf = malloc((size_t)n);
	FILE *f;
	int fd, ok;

	fixture(from, sizeof from, name);
	snprintf(path, size, "%s/occcalc-cut.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	f = fopen(from, "rb");
	ok = buf && f && fread(buf, 1, (size_t)n, f) == (size_t)n &&
	     (fd = mkstemp(path)) >= 0 && write(fd, buf, (size_t)n) == n &&
	     close(fd) == 0;
	if (f)
		fclose(f);
	free(buf);
	return ok ? 0 : -1;
}

/* Where the n-th occurrence of s starts in the fixture name; -1 if not. */
static long nth(const char *name, const char *s, int n)
{
	char from[1024], buf[8192], *p = buf;
	size_t got;
	FILE *f;

	fixture(from, sizeof from, name);
	if (!(f = fopen(from, "rb")))
		return -1;
	got = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[got] = '\0';
	while ((p = strstr(p, s)) != NULL && --n > 0)
		p++;
	return p ? p - buf : -1;
}

static void test_cut_short(void)
{
	struct seen s = { 0 };
	struct occ_launch_file info;
	struct occ_diag d;
	char path[1024];
	long third = nth("kineto.json", "\"cat\": \"kernel\"", 3), at;
	enum occ_status st;

	/* Inside the third kernel event: the two before it are read. */
	at = third + 20;
	if (third < 0 || cut_copy("kineto.json", at, path, sizeof path) != 0) {
		tap_ok(0, "a Kineto trace cut short: its copy");
		return;
	}
	st = occ_launches_read_file(path, &cb, &s, &info, &d);
	tap_ok(st == OCC_OK && s.launches == 2 && info.launches == 2 &&
	       info.cut_short && info.bytes == (uint64_t)at,
	       "a Kineto trace cut inside its third kernel event: no error, "
	       "its first two launches, cut short at byte %ld (%llu)", at,
	       (unsigned long long)info.bytes);
	unlink(path);

	/* Before traceEvents: nothing to read, an error. */
	at = nth("kineto.json", "\"traceEvents\"", 1);
	memset(&s, 0, sizeof s);
	if (at < 0 || cut_copy("kineto.json", at, path, sizeof path) != 0) {
		tap_ok(0, "a Kineto trace cut short: its copy");
		return;
	}
	st = occ_launches_read_file(path, &cb, &s, &info, &d);
	tap_ok(st == OCC_ERR_SYNTAX && !info.cut_short && s.launches == 0,
	       "a Kineto trace cut before its traceEvents: an error (%s)",
	       d.key);
	unlink(path);

	memset(&s, 0, sizeof s);
	fixture(path, sizeof path, "kineto.json");
	st = occ_launches_read_file(path, &cb, &s, &info, &d);
	tap_ok(st == OCC_OK && !info.cut_short && s.launches == 3,
	       "a whole Kineto trace is not cut short");
}

/* An H100 as the trace's device record gives it. */
static struct occ_launch_record launch(int block, int regs, int64_t dyn)
{
	struct occ_launch_record l;

	memset(&l, 0, sizeof l);
	l.kernel = l.mangled = "";
	l.grid[0] = 1000;
	l.grid[1] = l.grid[2] = 1;
	l.block[0] = block;
	l.block[1] = l.block[2] = 1;
	l.regs = regs;
	l.static_smem = 0;
	l.dynamic_smem = dyn;
	l.smem_total = dyn;
	l.smem_executed = -1;
	l.achieved_occupancy_pct = -1;     /* not measured */
	l.profiled_duration_ns = -1;
	l.cluster[0] = l.cluster[1] = l.cluster[2] = 0;
	return l;
}

static void test_arch(void)
{
	struct occ_launch_device d = h100_device();
	struct occ_arch a;

	tap_ok(occ_launch_arch(tables, &d, &a) == OCC_OK &&
	       a.smem_per_sm == 233472 && a.max_threads_per_sm == 2048,
	       "a device on its table");
	d.sharedMemPerMultiprocessor = 102400;
	d.sharedMemPerBlockOptin = 101376;
	tap_ok(occ_launch_arch(tables, &d, &a) == OCC_OK &&
	       a.smem_per_sm == 102400 &&
	       a.smem_carveouts[a.n_smem_carveouts - 1] == 102400,
	       "a device with less shared memory than the chip's table: its "
	       "own, the carveouts up to it");
	d = h100_device();
	d.warpSize = 64;
	tap_ok(occ_launch_arch(tables, &d, &a) == OCC_ERR_INCONSISTENT,
	       "a warp of 64 (an AMD GPU of a ROCm trace, major 9 minor 0 "
	       "for gfx90a) is no sm_90");
	d = h100_device();
	d.maxThreadsPerMultiProcessor = 2047;
	tap_ok(occ_launch_arch(tables, &d, &a) == OCC_ERR_INCONSISTENT,
	       "recorded properties no GPU has are refused");
	d = h100_device();
	d.major = 4;
	tap_ok(occ_launch_arch(tables, &d, &a) == OCC_ERR_UNKNOWN_ARCH,
	       "a compute capability without a table");
}

static void test_model(void)
{
	struct occ_launch_device d = h100_device();
	struct occ_launch_record l = launch(256, 32, 0);
	struct occ_launch_model m;
	struct occ_kernel k;
	struct occ_result r;
	struct occ_arch a;

	occ_launch_arch(tables, &d, &a);
	occ_kernel_init(&k);
	k.block_size = 128;
	k.regs_per_thread = 40;
	k.dynamic_smem = 73728;
	occ_compute(&a, &k, &r);
	l = launch(128, 40, 73728);
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) == OCC_OK &&
	       m.result.blocks_per_sm == r.blocks_per_sm &&
	       m.result.blocks_per_sm == 3 && m.kernel.optin,
	       "a launch over 48 KB ran opted in: occ_compute's 3 blocks");
	tap_ok(m.has_waves && m.waves.waves == 3 && m.waves.tail_blocks == 208 &&
	       m.waves_fraction > 2.52 && m.waves_fraction < 2.53,
	       "its 1000 blocks in 3 waves of 396, 208 in the last: 2.53");

	l = launch(32, 16, 0);
	l.smem_executed = 8192;
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) == OCC_OK &&
	       m.result.limit_shared_memory == 8 && m.result.blocks_per_sm == 8 &&
	       !(m.unknown & OCC_LAUNCH_UNKNOWN_CARVEOUT),
	       "the carveout the driver ran: 8 KB holds 8 blocks of the 1 KB "
	       "reserve alone");

	l = launch(128, 40, 73728);
	l.static_smem = l.dynamic_smem = -1;
	for (int i = 0; i < 3; i++)
		l.cluster[i] = -1;
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) == OCC_OK &&
	       m.result.blocks_per_sm == 3 &&
	       m.unknown == (OCC_LAUNCH_UNKNOWN_SMEM_SPLIT |
			     OCC_LAUNCH_UNKNOWN_CARVEOUT |
			     OCC_LAUNCH_UNKNOWN_CLUSTER),
	       "a Kineto launch: the sum of its shared memory, and what is "
	       "not known named");

	l = launch(128, 40, 73728);
	l.cluster[0] = 2;
	l.cluster[1] = l.cluster[2] = 1;
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) == OCC_OK &&
	       m.cluster_size == 2 && !m.has_cluster &&
	       (m.unknown & OCC_LAUNCH_UNKNOWN_LAYOUT),
	       "a cluster launch without a layout: its size, no clusters "
	       "counted");

	l = launch(128, 40, 0);
	l.grid[0] = INT32_MAX;
	l.grid[1] = 2;
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) == OCC_OK &&
	       !m.has_waves && (m.unknown & OCC_LAUNCH_UNKNOWN_WAVES) &&
	       m.blocks == 2 * (int64_t)INT32_MAX,
	       "a grid of more than 2^31-1 blocks: no waves, said");

	l.grid[1] = l.grid[2] = INT32_MAX;
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) ==
	       OCC_ERR_INVALID_INPUT, "a grid beyond 64 bits is refused");
	l = launch(0, 40, 0);
	tap_ok(occ_launch_compute(&a, 132, &l, NULL, &m) ==
	       OCC_ERR_INVALID_INPUT, "a block of no thread is refused");
}

/* Device d as a target (occcalc/target.h): its layout the list's
 * (layout NULL: none), its entry in the list `name` (NULL: none). */
static struct occ_target target(const struct occ_launch_device *d,
				const struct occ_gpc_layout *layout,
				struct occ_gpu *entry, const char *name)
{
	struct occ_target t;

	occ_target_device(tables, d, 0, &t);
	if (layout) {
		t.basis = OCC_LAYOUT_LISTED;
		t.layout = *layout;
	}
	memset(entry, 0, sizeof *entry);
	snprintf(entry->name, sizeof entry->name, "%s", name ? name : "");
	entry->cc_major = d->major;
	entry->cc_minor = d->minor;
	t.gpu = name ? entry : NULL;
	return t;
}

/* A launch in a part of its GPU: the split of the recorded SMs, the
 * part's measured GPCs, and the launch computed there. */
static void test_part(void)
{
	struct occ_gpc_layout sxm;
	struct occ_launch_device d = h100_device();
	struct occ_launch_record l = launch(256, 16, 1024);
	struct occ_launch_part p;
	struct occ_launch_model m;
	struct occ_target t;
	struct occ_gpu entry;
	struct occ_diag diag;
	char path[1024];

	snprintf(path, sizeof path, "%s/partitions.txt",
		 getenv("OCCCALC_TABLES"));
	occ_layout_parse("8,16x5,18x2,2x4", &sxm, NULL);
	l.cluster[0] = 2;
	l.cluster[1] = l.cluster[2] = 1;
	l.grid[0] = 256;
	l.smem_executed = 32768;
	t = target(&d, &sxm, &entry, "H100-SXM");
	tap_ok(occ_target_part(&t, path, 0, 32, 0, &p, &diag) == OCC_OK &&
	       p.split.groups == 4 &&
	       p.split.remaining_sms == 4 && p.sms == 32 && p.measured &&
	       occ_launch_compute(&t.arch, p.sms, &l, &p.layout, &m) == OCC_OK &&
	       m.cluster.max_active_clusters == 128 && m.waves.waves == 1,
	       "a cluster launch in a 32-SM group of an H100: 128 clusters of "
	       "2 on its measured GPCs (8x3,4,2x2), one wave");
	tap_ok(occ_target_part(&t, path, 0, 8, OCC_PARTITION_REMAINING, &p,
			       &diag) == OCC_OK &&
	       p.sms == 12 && p.measured && occ_launch_compute(&t.arch, p.sms,
	       &l, &p.layout, &m) == OCC_OK &&
	       m.cluster.max_active_clusters == 48,
	       "in the 12 SMs groups of 8 leave over: 48 clusters of 2");
	tap_ok(occ_target_part(&t, path, 0, 32, 4, &p, &diag) == OCC_ERR_RANGE,
	       "a group the split does not make");
	tap_ok(occ_target_part(&t, path, 0, 133, 0, &p, &diag) ==
	       OCC_ERR_INVALID_INPUT, "a minCount above the device's SMs");
	t.basis = OCC_LAYOUT_GIVEN;
	tap_ok(occ_target_part(&t, path, 0, 32, 0, &p, &diag) == OCC_OK &&
	       p.sms == 32 && !p.measured,
	       "a layout given is not the chip partitions.txt measured: the "
	       "part's GPCs not known");
	t = target(&d, NULL, &entry, NULL);
	tap_ok(occ_target_part(&t, NULL, 0, 8, OCC_PARTITION_REMAINING, &p,
			       &diag) == OCC_ERR_UNSUPPORTED &&
	       p.split.groups_max == 16,
	       "without the GPC layout, what groups of 8 leave over is not "
	       "known");
	t = target(&d, &sxm, &entry, "no such GPU");
	tap_ok(occ_target_part(&t, path, 0, 32, 0, &p, &diag) == OCC_OK &&
	       p.sms == 32 && !p.measured,
	       "a GPU partitions.txt does not hold: the part's SMs, its GPCs "
	       "not measured");
	t = target(&d, &sxm, &entry, "H100-SXM");
	entry.cc_minor = 9;
	tap_ok(occ_target_part(&t, path, 0, 32, 0, &p, &diag) == OCC_OK &&
	       !p.measured,
	       "an entry of another compute capability than the device's: "
	       "not its chip's parts");
}

int main(void)
{
	load_tables();
	test_read();
	test_cut_short();
	test_arch();
	test_model();
	test_part();
	tap_plan(tap_n);
	occ_tables_free(tables);
	return tap_done();
}
