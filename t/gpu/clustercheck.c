/*
 * clustercheck.c - the cluster model against the runtime and the GPU, for
 * t/gpu/cluster.py (make check-gpu).
 *
 *   clustercheck            measures device 0's GPC layout, then for every
 *                           configuration: the model (from that layout),
 *                           the runtime's cluster API, and a launch of more
 *                           clusters than fit, measured; CSV on stdout
 *   clustercheck --ncu LAYOUT
 *                           a subset, one wave each, for Nsight Compute
 *
 * Lines starting with '#' say what is not a row: the device, the layout,
 * and what the runtime does with a cluster of 17.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "gpu.h"
#include "gpu_cluster.h"

#define SPIN 1000000       /* SM cycles a warp works: 0.5 ms at 2 GHz */
#define NCU_SPIN 20000

/* Resource mixes giving 1 to 32 blocks per SM under every limiter, some
 * with register counts between allocation units. */
static const struct mix { int regs, block; unsigned smem_k; } mixes[] = {
	{ 32, 32, 0 }, { 32, 96, 0 }, { 32, 128, 0 }, { 32, 192, 0 },
	{ 32, 384, 0 }, { 32, 640, 0 }, { 32, 1024, 0 }, { 64, 1024, 0 },
	{ 128, 256, 0 }, { 255, 128, 0 }, { 97, 128, 0 }, { 171, 128, 0 },
	{ 40, 352, 30 }, { 32, 128, 100 }, { 32, 128, 227 }, { 32, 64, 60 },
	{ 32, 128, 40 }, { 32, 32, 8 }, { 32, 512, 50 }, { 32, 1024, 113 },
	{ 96, 768, 150 },
};

static const char *shapes[] = {
	"1x2", "2x2", "4x2", "2x2x2", "4x4", "8x2", "3x3", "5x3", "1x1x7",
	"2x3x2",
};

struct ctx {
	struct gpu_ctx gpu;              /* device 0 */
	struct occ_arch merged;          /* its table, its values in */
	const struct occ_arch *arch;
	struct occ_gpc_layout layout;
	int sms;
	int ncu;
};

static void kernel_of(const struct mix *m, struct occ_kernel *k)
{
	occ_kernel_init(k);
	k->block_size = m->block;
	k->regs_per_thread = m->regs;
	k->dynamic_smem = (uint64_t)m->smem_k << 10;
}

static void limiters(unsigned bits, char *buf, size_t n)
{
	static const enum occ_cluster_limit all[] = {
		OCC_CLUSTER_LIMIT_SM, OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS,
		OCC_CLUSTER_LIMIT_GPC,
	};
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		if (bits & all[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? "+" : "",
						occ_cluster_limit_name(all[i]));
}

/* One configuration: model, API, measured, as a CSV row. */
static void check(struct ctx *c, const struct mix *m, const char *shape)
{
	struct occ_kernel k;
	struct occ_result r;
	struct occ_cluster_shape s;
	struct occ_cluster_result cm;
	struct gpu_cluster_api api;
	struct gpu_cluster_measured meas;
	struct occ_cluster_best bp, bn;
	char err[256] = "", lim[64];
	int plain;

	kernel_of(m, &k);
	if (occ_cluster_parse(shape, &s, NULL) != OCC_OK ||
	    occ_compute(c->arch, &k, &r) != OCC_OK ||
	    occ_cluster_compute(c->arch, &r, &c->layout, s.size, &cm) != OCC_OK ||
	    occ_cluster_best(c->arch, &r, &c->layout, 0, &bp) != OCC_OK ||
	    occ_cluster_best(c->arch, &r, &c->layout, 1, &bn) != OCC_OK) {
		fprintf(stderr, "clustercheck: bad configuration %s\n", shape);
		exit(1);
	}
	if (gpu_cluster_api(&c->gpu, &k, &s, &api, err, sizeof err) != 0) {
		fprintf(stderr, "clustercheck: %s\n", err);
		exit(1);
	}
	plain = r.blocks_per_sm < 32 ? r.blocks_per_sm : 32;
	memset(&meas, 0, sizeof meas);
	meas.clusters = c->ncu ? (cm.max_active_clusters > 0
				  ? cm.max_active_clusters : 1)
			: cm.max_active_clusters + c->sms * plain / s.size + 1;
	meas.spin_cycles = c->ncu ? NCU_SPIN : SPIN;
	err[0] = '\0';
	if (gpu_cluster_measure(&c->gpu, &k, &s, r.max_warps_per_sm, &meas,
				err, sizeof err) != 0)
		memset(&meas.cres, 0, sizeof meas.cres);
	limiters(cm.limiters, lim, sizeof lim);
	printf("%d,%d,%d,%llu,%s,%d,%d,%d,%d,%d,%s,%s,%.2f,%d,%d,%d,%d,%d,%d,"
	       "%d,%d,%lld,%d,%d,%d,%.2f,\"%s\"\n",
	       m->regs, api.kernel_regs, m->block,
	       (unsigned long long)k.dynamic_smem, shape, s.size, cm.portable,
	       r.blocks_per_sm, cm.blocks_per_sm, cm.max_active_clusters, lim,
	       occ_cluster_reason_name(cm.reason), occ_cluster_percent(&cm),
	       bp.potential, bn.potential, bp.most_blocks, bn.most_blocks,
	       api.blocks_per_sm, api.clusters, api.potential,
	       api.potential_nonportable, (long long)meas.clusters,
	       meas.cres.max_clusters, err[0] ? 0 : meas.residency.max_blocks_per_sm,
	       meas.cres.shared_sm,
	       err[0] ? 0.0 : occ_residency_percent(&meas.residency), err);
	fflush(stdout);
}

/* The runtime asked about a cluster of 17, and such a launch. */
static void beyond_16(struct ctx *c)
{
	struct occ_kernel k;
	struct occ_cluster_shape s = { { 17, 1, 1 }, 17 };
	struct gpu_cluster_api api;
	struct gpu_cluster_measured meas;
	char err[256] = "", lerr[256] = "";

	kernel_of(&mixes[2], &k);
	memset(&meas, 0, sizeof meas);
	meas.clusters = 1;
	meas.spin_cycles = NCU_SPIN;
	if (gpu_cluster_api(&c->gpu, &k, &s, &api, err, sizeof err) != 0)
		api.clusters = -1;
	gpu_cluster_measure(&c->gpu, &k, &s, 64, &meas, lerr, sizeof lerr);
	printf("# cluster of 17: cudaOccupancyMaxActiveClusters %d%s%s; "
	       "a launch: %s\n", api.clusters, err[0] ? " " : "", err,
	       lerr[0] ? lerr : "ran");
}

/* Which SMs each measured GPC holds ('# gpc K: SM SM ...'), the evidence
 * behind the layout line (gpc_of: each SM's GPC, -1 where none held a
 * cluster's CTA). */
static void print_gpcs(const int *gpc_of, int sms)
{
	int g, sm, any = 1;

	for (g = 0; any; g++) {
		any = 0;
		for (sm = 0; sm < sms; sm++)
			if (gpc_of[sm] == g) {
				if (!any)
					printf("# gpc %d:", g);
				printf(" %d", sm);
				any = 1;
			}
		if (any)
			printf("\n");
	}
	for (sm = 0; sm < sms; sm++)
		if (gpc_of[sm] < 0)
			printf("# sm %d: held no CTA of the layout launches\n", sm);
}

static void setup(struct ctx *c, int argc, char **argv)
{
	static int gpc_of[1024];
	struct occ_tables *t;
	struct occ_diag d;
	struct occ_device dev;
	struct occ_target target;
	char err[256], buf[256];
	const char *dir = getenv("OCCCALC_TABLES");

	if (!dir || occ_tables_load(dir, &t, &d) != OCC_OK ||
	    device_query(0, &dev, err, sizeof err) != 0 ||
	    occ_target_device(t, &dev.props, 0, &target) != OCC_OK) {
		fprintf(stderr, "clustercheck: no tables, no device 0, or "
			"none that its table models\n");
		exit(1);
	}
	c->merged = target.arch;
	c->arch = &c->merged;
	c->sms = dev.sms;
	c->ncu = argc == 3 && strcmp(argv[1], "--ncu") == 0;
	if (!c->ncu && (size_t)dev.sms > sizeof gpc_of / sizeof gpc_of[0]) {
		fprintf(stderr, "clustercheck: %d SMs, more than %zu\n", dev.sms,
			sizeof gpc_of / sizeof gpc_of[0]);
		exit(1);
	}
	if (c->ncu ? occ_layout_parse(argv[2], &c->layout, NULL) != OCC_OK
		   : gpu_cluster_layout(&c->gpu, &c->layout, gpc_of, dev.sms,
					err, sizeof err) != 0) {
		fprintf(stderr, "clustercheck: layout: %s\n",
			c->ncu ? argv[2] : err);
		exit(1);
	}
	occ_layout_format(&c->layout, buf, sizeof buf);
	printf("# device %s, %d SMs\n# layout %s (%d GPCs, %d SMs)\n",
	       dev.name, dev.sms, buf, c->layout.n_gpcs, c->layout.sms);
	if (!c->ncu)
		print_gpcs(gpc_of, dev.sms);
}

int main(int argc, char **argv)
{
	static const char *sizes[] = { "1", "2", "3", "4", "5", "6", "7", "8",
		"9", "10", "11", "12", "13", "14", "15", "16" };
	static const char *ncu_sizes[] = { "1", "2", "3", "5", "7", "8", "9",
					   "12", "16", "4x4" };
	struct ctx c = { 0 };
	size_t i, j;

	setup(&c, argc, argv);
	printf("regs,kernel_regs,block,smem,shape,size,portable,blocks_per_sm,"
	       "cluster_blocks_per_sm,clusters,limiters,reason,gpu_occupancy,"
	       "potential,potential_nonportable,most_blocks,"
	       "most_blocks_nonportable,"
	       "api_blocks_per_sm,api_clusters,api_potential,"
	       "api_potential_nonportable,launched,measured_clusters,"
	       "measured_blocks_per_sm,shared_sm,achieved,launch_error\n");
	for (i = 0; i < sizeof mixes / sizeof mixes[0]; i++) {
		if (c.ncu && i % 4 != 2)
			continue;
		for (j = 0; j < (c.ncu ? 10 : 16); j++)
			check(&c, &mixes[i], c.ncu ? ncu_sizes[j] : sizes[j]);
	}
	if (!c.ncu) {
		for (i = 0; i < 6; i++)
			for (j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
				check(&c, &mixes[i * 3], shapes[j]);
		beyond_16(&c);
	}
	gpu_ctx_release(&c.gpu);
	return 0;
}
