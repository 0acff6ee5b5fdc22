/*
 * cluster.c - thread-block clusters: the model on hand-worked GPC layouts
 * (the H200's as measured, and small ones), shapes, portability, the
 * layout syntax, the GPU list's layouts, and what measured launches
 * reveal. Every error path says where the input is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

#define H200 "8,16x5,18x2,2x4"

static struct occ_gpc_layout layout(const char *s)
{
	struct occ_gpc_layout l;

	if (occ_layout_parse(s, &l, NULL) != OCC_OK) {
		printf("Bail out! layout %s\n", s);
		exit(1);
	}
	return l;
}

/* Plain occupancy of block x regs (no shared memory) on sm_90. */
static struct occ_result plain(int block, int regs)
{
	struct occ_kernel k;
	struct occ_result r;

	occ_kernel_init(&k);
	k.block_size = block;
	k.regs_per_thread = regs;
	occ_compute(arch(9, 0), &k, &r);
	return r;
}

static struct occ_cluster_result clusters(const char *lay, int block,
					  int regs, int size)
{
	struct occ_gpc_layout l = layout(lay);
	struct occ_result r = plain(block, regs);
	struct occ_cluster_result c;

	memset(&c, 0, sizeof c);
	if (occ_cluster_compute(arch(9, 0), &r, &l, size, &c) != OCC_OK)
		c.max_active_clusters = -1;
	return c;
}

static void test_layout_syntax(void)
{
	struct occ_gpc_layout l = layout(H200);
	char buf[64];

	tap_ok(l.n_gpcs == 12 && l.sms == 132 && l.sms_per_gpc[0] == 8 &&
	       l.sms_per_gpc[5] == 16 && l.sms_per_gpc[6] == 18 &&
	       l.sms_per_gpc[11] == 2,
	       "layout " H200 ": 12 GPCs, 132 SMs, in the order given");
	occ_layout_format(&l, buf, sizeof buf);
	tap_ok(strcmp(buf, H200) == 0, "a layout is written back as read "
	       "(runs of equal GPCs as NxK): %s", buf);
	l = layout("16,16,18");
	occ_layout_format(&l, buf, sizeof buf);
	tap_ok(strcmp(buf, "16x2,18") == 0 && l.sms == 50,
	       "16,16,18 is written 16x2,18");
	tap_ok(occ_layout_format(&l, buf, 4) == 7 && strcmp(buf, "16x") == 0,
	       "a short buffer gets what fits and the length the whole needs");
}

static void test_layout_errors(void)
{
	static const struct { const char *s; size_t pos; } bad[] = {
		{ "", 1 }, { "0", 1 }, { "257", 1 }, { "1234567", 1 },
		{ "16x", 4 }, { "16x0", 4 }, { "16x129", 4 }, { "16,,18", 4 },
		{ "16;18", 3 }, { "18 ", 3 }, { " 18", 1 }, { "16x5,", 6 },
		{ "-4", 1 }, { "16xx2", 4 }, { "100x100,100x29", 9 },
	};
	struct occ_gpc_layout l;
	size_t i, pos;
	int ok = 1;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		pos = 0;
		if (occ_layout_parse(bad[i].s, &l, &pos) !=
		    OCC_ERR_INVALID_INPUT || pos != bad[i].pos) {
			tap_diag("'%s': position %zu, expected %zu", bad[i].s,
				 pos, bad[i].pos);
			ok = 0;
		}
	}
	tap_ok(ok, "a malformed layout is refused at the column that is "
	       "wrong (%zu cases)", i);
	tap_ok(occ_layout_parse("128x1", &l, NULL) == OCC_OK &&
	       occ_layout_parse("1x128", &l, NULL) == OCC_OK &&
	       occ_layout_parse("100x100,100x28", &l, NULL) == OCC_OK &&
	       l.n_gpcs == 128,
	       "up to 256 SMs a GPC and 128 GPCs are accepted");
}

static void test_shapes(void)
{
	static const struct { const char *s; size_t pos; } bad[] = {
		{ "", 1 }, { "0", 1 }, { "x2", 1 }, { "2x", 3 }, { "2x0", 3 },
		{ "2x2x2x2", 7 }, { "2,4", 2 }, { "1025", 1 }, { "2y3", 2 },
		{ " 2", 1 }, { "-1", 1 },
	};
	struct occ_cluster_shape c;
	size_t i, pos;
	int ok = 1;

	tap_ok(occ_cluster_parse("2x4", &c, NULL) == OCC_OK && c.size == 8 &&
	       c.dims[0] == 2 && c.dims[1] == 4 && c.dims[2] == 1,
	       "shape 2x4 is 8 CTAs (2, 4, 1)");
	tap_ok(occ_cluster_parse("2x2x4", &c, NULL) == OCC_OK && c.size == 16,
	       "shape 2x2x4 is 16 CTAs");
	tap_ok(occ_cluster_parse("12", &c, NULL) == OCC_OK && c.size == 12 &&
	       c.dims[1] == 1 && c.dims[2] == 1, "a plain 12 is 12x1x1");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		pos = 0;
		if (occ_cluster_parse(bad[i].s, &c, &pos) !=
		    OCC_ERR_INVALID_INPUT || pos != bad[i].pos) {
			tap_diag("'%s': position %zu, expected %zu", bad[i].s,
				 pos, bad[i].pos);
			ok = 0;
		}
	}
	tap_ok(ok, "a malformed cluster shape is refused at the column that "
	       "is wrong (%zu cases)", i);
}

/* 128 threads x 32 registers: 16 blocks per SM in a plain launch. */
static void test_h200(void)
{
	struct occ_cluster_result c = clusters(H200, 128, 32, 1);

	tap_ok(c.blocks_per_sm == 8 && c.max_active_clusters == 1056 &&
	       c.limiters == OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS,
	       "H200, 16 blocks/SM plainly: a cluster launch gets 8 per SM, "
	       "1056 clusters of 1, limited by the cluster block cap");
	tap_ok(c.active_warps == 4224 && c.warp_slots == 8448 &&
	       occ_cluster_percent(&c) == 50.0,
	       "1056 blocks of 4 warps over 132 x 64 warp slots: 50 %%");
	c = clusters(H200, 128, 32, 3);
	/* 8: 64/3 = 21; 16: 128/3 = 42 (x5); 18: 144/3 = 48 (x2); 2: none. */
	tap_ok(c.max_active_clusters == 327 && c.active_blocks == 981 &&
	       c.gpcs_too_small == 4 && c.gpcs_used == 8 &&
	       c.idle_slots == 1 + 5 * 2 + 4 * 16 &&
	       c.limiters == (OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS |
			      OCC_CLUSTER_LIMIT_GPC),
	       "H200, clusters of 3: 21 + 5 x 42 + 2 x 48 = 327, the four "
	       "2-SM groups too small, 75 slots idle");
	c = clusters(H200, 128, 32, 16);
	tap_ok(c.max_active_clusters == 58 && c.gpcs_too_small == 5 &&
	       !c.portable, "H200, clusters of 16: 5 x 8 + 2 x 9 = 58, "
	       "not portable");
	c = clusters(H200, 1024, 64, 16);
	tap_ok(c.blocks_per_sm == 1 && c.max_active_clusters == 7 &&
	       (c.limiters & OCC_CLUSTER_LIMIT_SM) &&
	       !(c.limiters & OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS),
	       "1 block/SM (registers), clusters of 16: one per GPC of 16 "
	       "or 18 SMs, 7; the SM's resources limit");
	c = clusters(H200, 256, 32, 8);
	tap_ok(c.blocks_per_sm == 8 && c.max_active_clusters == 124 &&
	       (c.limiters & OCC_CLUSTER_LIMIT_SM) &&
	       (c.limiters & OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS) && c.portable,
	       "8 blocks/SM plainly and the cap of 8: both limit; "
	       "clusters of 8: 124, portable");
}

/* A made-up GPU of a 4-SM and a 3-SM GPC. */
static void test_small_layout(void)
{
	struct occ_cluster_result c = clusters("4,3", 1024, 64, 3);

	tap_ok(c.max_active_clusters == 2 && c.active_blocks == 6 &&
	       c.idle_slots == 1, "4,3 at 1 block/SM, clusters of 3: one "
	       "per GPC, one SM idle");
	c = clusters("4,3", 1024, 32, 3);
	tap_ok(c.blocks_per_sm == 2 && c.max_active_clusters == 4,
	       "4,3 at 2 blocks/SM, clusters of 3: 8/3 + 6/3 = 4 (CTAs on "
	       "distinct SMs, slots shared between clusters)");
	c = clusters("4,3", 1024, 64, 4);
	tap_ok(c.max_active_clusters == 1 && c.gpcs_too_small == 1,
	       "4,3, clusters of 4: only the 4-SM GPC holds one");
	c = clusters("4,3", 1024, 32, 5);
	tap_ok(c.max_active_clusters == 0 && c.active_blocks == 0 &&
	       c.reason == OCC_CLUSTER_LARGER_THAN_GPCS &&
	       c.largest_gpc == 4 && occ_cluster_percent(&c) == 0,
	       "a cluster larger than every GPC: 0 clusters, not an error, "
	       "and the reason says why");
}

static void test_no_launch(void)
{
	struct occ_cluster_result c = clusters(H200, 2048, 32, 2);

	tap_ok(c.max_active_clusters == 0 && c.blocks_per_sm == 0 &&
	       c.reason == OCC_CLUSTER_NO_BLOCKS && c.limiters == 0,
	       "a kernel that cannot launch holds no cluster, reason "
	       "kernel_does_not_launch");
}

static void test_sizes_and_archs(void)
{
	struct occ_gpc_layout l = layout(H200);
	struct occ_result r = plain(128, 32);
	struct occ_cluster_result c;
	struct occ_kernel k;

	tap_ok(clusters(H200, 128, 32, 8).portable &&
	       !clusters(H200, 128, 32, 9).portable,
	       "8 CTAs are portable, 9 need the non-portable attribute");
	tap_ok(occ_cluster_compute(arch(9, 0), &r, &l, 0, &c) ==
	       OCC_ERR_INVALID_INPUT &&
	       occ_cluster_compute(arch(9, 0), &r, &l, 17, &c) ==
	       OCC_ERR_INVALID_INPUT,
	       "cluster sizes 0 and 17 are refused on sm_90");
	l.n_gpcs = 0;
	tap_ok(occ_cluster_compute(arch(9, 0), &r, &l, 2, &c) ==
	       OCC_ERR_INVALID_INPUT, "an empty layout is refused");
	l = layout(H200);
	l.sms = 131;
	tap_ok(occ_cluster_compute(arch(9, 0), &r, &l, 2, &c) ==
	       OCC_ERR_INVALID_INPUT, "a layout whose SM total is off is "
	       "refused");
	l = layout(H200);
	occ_kernel_init(&k);
	k.block_size = 128;
	occ_compute(arch(8, 0), &k, &r);
	tap_ok(occ_cluster_compute(arch(8, 0), &r, &l, 2, &c) ==
	       OCC_ERR_UNSUPPORTED, "compute capability 8.0: clusters are "
	       "unsupported");
	occ_compute(arch(10, 0), &k, &r);
	tap_ok(occ_cluster_compute(arch(10, 0), &r, &l, 9, &c) ==
	       OCC_ERR_INVALID_INPUT, "sm_100, whose table gives only the "
	       "portable size: 9 CTAs are refused, not guessed");
}

static void test_best(void)
{
	struct occ_gpc_layout l = layout(H200);
	struct occ_result r = plain(128, 32);
	struct occ_cluster_best b;

	occ_cluster_best(arch(9, 0), &r, &l, 0, &b);
	tap_ok(b.potential == 8 && b.potential_result.portable,
	       "the runtime's potential cluster size, portable: 8");
	tap_ok(b.most_blocks == 2 &&
	       b.most_blocks_result.active_blocks == 1056,
	       "most CTAs resident: clusters of 2 (1056, as many as of 1)");
	occ_cluster_best(arch(9, 0), &r, &l, 1, &b);
	tap_ok(b.potential == 16 && !b.potential_result.portable,
	       "non-portable sizes allowed: 16");
	l = layout("4,3");
	r = plain(1024, 32);
	occ_cluster_best(arch(9, 0), &r, &l, 1, &b);
	/* 1: 14 CTAs; 2: 4 + 3 clusters, 14; 3: 2 + 2, 12; 4: 2, 8. */
	tap_ok(b.potential == 4 && b.most_blocks == 2 &&
	       b.most_blocks_result.active_blocks == 14,
	       "4,3 at 2 blocks/SM: potential 4 (5 fits no GPC); most CTAs "
	       "with clusters of 2 (14, as many as of 1)");
	r = plain(2048, 32);
	tap_ok(occ_cluster_best(arch(9, 0), &r, &l, 1, &b) == OCC_OK &&
	       b.potential == 0 && b.most_blocks == 0,
	       "a kernel that cannot launch: no cluster size");
	tap_ok(occ_cluster_best(arch(8, 6), &r, &l, 1, &b) ==
	       OCC_ERR_UNSUPPORTED, "no best cluster size on sm_86");
}

static void test_residency(void)
{
	struct occ_cta_sample s[] = {
		{ 0, 10, 0, 0 }, { 1, 11, 1, 0 },    /* cluster 0: [0, 11) */
		{ 5, 15, 2, 1 }, { 5, 15, 3, 1 },    /* cluster 1: [5, 15) */
		{ 11, 20, 0, 2 }, { 11, 20, 1, 2 },  /* cluster 2: after 0 */
		{ 30, 30, 4, 3 }, { 30, 30, 4, 3 },  /* one SM, one tick */
	};
	struct occ_cluster_residency res;
	struct occ_cta_sample bad = { 5, 4, 0, 0 };

	tap_ok(occ_cluster_residency(s, 8, &res) == OCC_OK &&
	       res.max_clusters == 2 && res.clusters == 4 &&
	       res.shared_sm == 1,
	       "clusters resident at once: 2 (one starting when another ends "
	       "is not beside it); one cluster had two CTAs on one SM");
	tap_ok(occ_cluster_residency(&bad, 1, &res) == OCC_ERR_INVALID_INPUT &&
	       occ_cluster_residency(s, 0, &res) == OCC_ERR_INVALID_INPUT,
	       "a sample ending before it starts, or none: refused");
}

static void test_layout_from_samples(void)
{
	struct occ_cta_sample s[] = {
		{ 0, 1, 0, 7 }, { 0, 1, 1, 7 }, { 0, 1, 1, 9 }, { 0, 1, 2, 9 },
		{ 0, 1, 5, 3 }, { 0, 1, 4, 3 }, { 0, 1, 6, 4 },
	};
	struct occ_gpc_layout l;
	int gpc[8];
	char buf[32];

	tap_ok(occ_layout_from_samples(s, 7, 8, &l, gpc) == OCC_OK &&
	       occ_layout_format(&l, buf, sizeof buf) > 0 &&
	       strcmp(buf, "3,2,1") == 0 && l.sms == 6,
	       "SMs sharing clusters join into GPCs, by lowest SM: %s", buf);
	tap_ok(gpc[0] == 0 && gpc[2] == 0 && gpc[4] == 1 && gpc[6] == 2 &&
	       gpc[3] == -1 && gpc[7] == -1,
	       "each SM's GPC; -1 for SMs no CTA ran on");
	tap_ok(occ_layout_from_samples(s, 7, 6, &l, NULL) ==
	       OCC_ERR_INVALID_INPUT, "an SM number beyond the GPU's: refused");
}

static char *list_path(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof path, "%s/%s", getenv("OCCCALC_TABLES"), name);
	return path;
}

static void test_gpu_list(void)
{
	struct occ_gpu_layout gl;
	struct occ_gpu g;
	struct occ_diag d;
	char buf[64], tmp[] = "/tmp/occ-cluster-XXXXXX";
	FILE *f;
	int fd;

	tap_ok(occ_gpu_layout_find(list_path("gpus.txt"), "h200", &gl, &d) ==
	       OCC_OK && occ_layout_format(&gl.layout, buf, sizeof buf) &&
	       strcmp(buf, H200) == 0 && strstr(gl.source, "measured"),
	       "the GPU list gives the H200's measured layout, with its "
	       "source");
	tap_ok(occ_gpu_layout_find(list_path("gpus.txt"), "A100", &gl, &d) ==
	       OCC_ERR_UNKNOWN_ARCH, "a GPU without a layout: unknown");
	tap_ok(occ_gpu_find(list_path("gpus.txt"), "H200", &g, &d) ==
	       OCC_OK && g.sms == 132,
	       "layout lines do not disturb the GPU lookup");
	tap_ok(occ_gpu_layout_find(getenv("OCCCALC_TABLES"), "H200", &gl,
				   &d) == OCC_ERR_NOT_REGULAR,
	       "a directory is not read as the GPU list");
	fd = mkstemp(tmp);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fputs("# list\nX 9.0 10 src\nlayout X 4,0 src\n", f);
		fclose(f);
	}
	tap_ok(f && occ_gpu_layout_find(tmp, "X", &gl, &d) == OCC_ERR_SYNTAX &&
	       d.line == 3, "a malformed layout line is refused with its "
	       "line number");
	unlink(tmp);
}

/* The most clusters of size CTAs any split of sms SMs into at least gpcs
 * GPCs of at most max allows, by enumerating every split (small counts). */
static int brute_most(const int *f, int sms, int gpcs, int max, int parts)
{
	int n, best = -1, rest;

	if (sms == 0)
		return parts >= gpcs ? 0 : -1;
	for (n = 1; n <= max && n <= sms; n++) {
		rest = brute_most(f, sms - n, gpcs, max, parts + 1);
		if (rest >= 0 && rest + f[n] > best)
			best = rest + f[n];
	}
	return best;
}

static int bound(const struct occ_gpc_counts *c, struct occ_result r,
		 int size, struct occ_gpc_layout *l)
{
	struct occ_cluster_result res;

	if (occ_layout_most_clusters(arch(9, 0), &r, c, size, l) != OCC_OK ||
	    occ_cluster_compute(arch(9, 0), &r, l, size, &res) != OCC_OK)
		return -1;
	return res.max_active_clusters;
}

static void test_most_clusters(void)
{
	static const int kernels[][2] = { { 1024, 64 }, { 1024, 32 },
		{ 672, 32 }, { 512, 32 }, { 384, 32 }, { 320, 32 },
		{ 288, 32 }, { 256, 32 } };
	struct occ_gpc_counts h100 = { 132, 8, 18 }, small = { 14, 3, 6 };
	struct occ_gpc_layout l;
	int k, size, n, f[7], ok_all = 1, ok_brute = 1, got, lay_ok = 1;

	for (k = 0; k < 8; k++)
		for (size = 1; size <= 16; size++) {
			struct occ_result r = plain(kernels[k][0], kernels[k][1]);
			int measured = clusters(H200, kernels[k][0],
						kernels[k][1], size)
					       .max_active_clusters;

			got = bound(&h100, r, size, &l);
			ok_all &= got >= measured && measured >= 0;
			lay_ok &= l.sms == 132 && l.n_gpcs >= 8;
			for (n = 0; n < l.n_gpcs; n++)
				lay_ok &= l.sms_per_gpc[n] <= 18;
		}
	tap_ok(ok_all && lay_ok, "published counts (132 SMs, 8 GPCs of at most "
	       "18): the most clusters they allow is never below what the "
	       "H100's and H200's measured layout holds, 8 kernels x sizes "
	       "1-16; the layout found has those counts");
	tap_ok(bound(&h100, plain(256, 32), 4, &l) == 264 &&
	       clusters(H200, 256, 32, 4).max_active_clusters == 248,
	       "clusters of 4 at 8 blocks per SM: at most 264 from the counts "
	       "(16x6,18x2), 248 on the chips measured (their 4 pairs of SMs "
	       "hold none): an upper bound, not the answer");
	for (k = 0; k < 8; k++)
		for (size = 1; size <= 8; size++) {
			struct occ_result r = plain(kernels[k][0], kernels[k][1]);

			for (n = 1; n <= 6; n++) {
				struct occ_gpc_layout one = { 1, { n }, n };
				struct occ_cluster_result c;

				occ_cluster_compute(arch(9, 0), &r, &one, size, &c);
				f[n] = c.max_active_clusters;
			}
			ok_brute &= bound(&small, r, size, &l) ==
				    brute_most(f, 14, 3, 6, 0);
		}
	tap_ok(ok_brute, "the most clusters 14 SMs in at least 3 GPCs of at "
	       "most 6 allow equals every split enumerated, 8 kernels x sizes "
	       "1-8");
	small.gpcs = 0;
	tap_ok(bound(&small, plain(256, 32), 2, &l) == -1,
	       "counts of 0 GPCs are refused");
	small.gpcs = 3;
	small.sms = 19;   /* more than 3 GPCs of 6 ... but 4 hold it */
	tap_ok(bound(&small, plain(256, 32), 2, &l) >= 0 && l.n_gpcs >= 4,
	       "19 SMs of at most 6 a GPC need at least 4 GPCs: the layout has "
	       "them");
	small.sms_per_gpc_max = 0;
	tap_ok(bound(&small, plain(256, 32), 2, &l) == -1,
	       "a most of 0 SMs a GPC is refused");
}

/* ---- Blackwell: no cluster blocks-per-SM cap known ---- */

/* The clusters a layout holds, worked by hand, for a cap c of the
 * blocks per SM a cluster launch allows (the unknown figure). */
static int held(const int *gpcs, int n, int b, int c, int size)
{
	int i, k = 0, per = b < c ? b : c;

	for (i = 0; i < n; i++)
		if (gpcs[i] >= size)
			k += gpcs[i] * per / size;
	return k;
}

struct split {
	int gpcs[16], n;
	int min;           /* splits into fewer GPCs are skipped */
	int most;          /* held, the most over every split and cap */
	int ok;            /* the model's figure bounds each split's */
};

/* Every split of sms SMs into GPCs (non-increasing, so each once), every
 * cap 1..cap_max: the model's figure for the split is never below what
 * it holds, and equals it when the cap does not bind. */
static void every_split(const struct occ_arch *a, const struct occ_result *r,
			int sms, int max, int size, struct split *s)
{
	struct occ_gpc_layout l = { s->n, { 0 }, 0 };
	struct occ_cluster_result res;
	int i, c, n;

	if (sms == 0 && s->n < s->min)
		return;
	if (sms == 0) {
		for (i = 0; i < s->n; i++) {
			l.sms_per_gpc[i] = s->gpcs[i];
			l.sms += s->gpcs[i];
		}
		s->ok &= occ_cluster_compute(a, r, &l, size, &res) == OCC_OK;
		for (c = 1; c <= a->max_blocks_per_sm; c++) {
			n = held(s->gpcs, s->n, r->blocks_per_sm, c, size);
			s->ok &= res.max_active_clusters >= n;
			s->most = n > s->most ? n : s->most;
		}
		s->ok &= res.max_active_clusters ==
			 held(s->gpcs, s->n, r->blocks_per_sm,
			      a->max_blocks_per_sm, size);
		return;
	}
	for (n = sms < max ? sms : max; n >= 1; n--) {
		s->gpcs[s->n++] = n;
		every_split(a, r, sms - n, n, size, s);
		s->n--;
	}
}

static void test_cap_unknown(void)
{
	static const int ccs[][2] = { { 10, 0 }, { 10, 1 }, { 10, 3 },
				      { 11, 0 }, { 12, 0 }, { 12, 1 } };
	static const int kernels[][2] = { { 32, 16 }, { 64, 255 },
		{ 128, 40 }, { 256, 32 }, { 512, 64 }, { 1024, 32 } };
	int i, k, size, ok_whole = 1, ok_split = 1, ok_lim = 1, ok_big = 1;
	int ok_counts = 1;

	for (i = 0; i < 6; i++) {
		const struct occ_arch *a = arch(ccs[i][0], ccs[i][1]);
		struct occ_gpc_layout whole = { 1, { 12 }, 12 };

		ok_big &= occ_cluster_cap_unknown(a);
		for (k = 0; k < 6; k++)
			for (size = 1; size <= 8; size++) {
				struct occ_kernel kn;
				struct occ_result r;
				struct occ_cluster_result c;
				struct split s = { .ok = 1, .min = 1 };
				struct split t = { .ok = 1, .min = 3 };
				struct occ_gpc_counts counts = { 12, 3, 6 };
				struct occ_gpc_layout most;

				occ_kernel_init(&kn);
				kn.block_size = kernels[k][0];
				kn.regs_per_thread = kernels[k][1];
				occ_compute(a, &kn, &r);
				every_split(a, &r, 12, 12, size, &s);
				every_split(a, &r, 12, 6, size, &t);
				ok_split &= s.ok && t.ok;
				ok_counts &= occ_layout_most_clusters(a, &r,
					&counts, size, &most) == OCC_OK &&
					occ_cluster_compute(a, &r, &most, size,
							    &c) == OCC_OK &&
					c.max_active_clusters == t.most;
				ok_whole &= occ_cluster_compute(a, &r, &whole,
					size, &c) == OCC_OK &&
					c.max_active_clusters == s.most &&
					c.max_active_clusters ==
					12 * r.blocks_per_sm / size;
				ok_lim &= !(c.limiters &
					    OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS) &&
					  c.blocks_per_sm == r.blocks_per_sm;
			}
		ok_big &= occ_cluster_compute(a, &(struct occ_result){ 0 },
					      &whole, 9, &(struct
					      occ_cluster_result){ 0 }) ==
			  OCC_ERR_INVALID_INPUT;
	}
	tap_ok(ok_split, "Blackwell (sm_100, 101, 103, 110, 120, 121), 6 "
	       "kernels x "
	       "sizes 1-8: on every split of 12 SMs into GPCs the model's "
	       "clusters are never below what any cap of the cluster launch's "
	       "blocks per SM would hold, and equal them where the cap does "
	       "not bind");
	tap_ok(ok_whole, "with no GPCs known, floor(SMs x plain blocks / size) "
	       "is the most any split and any cap allow: the least sound "
	       "bound");
	tap_ok(ok_counts, "with GPC counts published (12 SMs in at least 3 "
	       "GPCs of at most 6), the existing bound equals the most any "
	       "such split and any cap allow");
	tap_ok(ok_lim, "no cap known: the blocks per SM are the plain "
	       "launch's, and cluster_blocks_per_sm never limits");
	tap_ok(ok_big, "the Blackwell tables' cap is unknown, and 9 CTAs "
	       "(non-portable, not documented) are refused");
	tap_ok(!occ_cluster_cap_unknown(arch(9, 0)) &&
	       !occ_cluster_cap_unknown(arch(8, 0)),
	       "sm_90's cap is known (8, measured); sm_80 has no clusters");
}

int main(void)
{
	load_tables();
	test_layout_syntax();
	test_layout_errors();
	test_shapes();
	test_h200();
	test_small_layout();
	test_no_launch();
	test_sizes_and_archs();
	test_best();
	test_residency();
	test_layout_from_samples();
	test_gpu_list();
	test_most_clusters();
	test_cap_unknown();
	printf("1..%d\n", tap_n);
	occ_tables_free(tables);
	return tap_done();
}
