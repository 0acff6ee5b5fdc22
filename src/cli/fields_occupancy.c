/*
 * fields_occupancy.c - the fields of an occupancy row (a configuration, a
 * kernel of a compiler report, and what the GPU said of it): one entry
 * each, its name, type, description, and how to read it from the row.
 * CSV, JSON, JSON Lines and the text table all print from here.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "getters.h"


GETTER(get_kernel)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->kernel)
		set_str(v, r->kernel);
}
/* --gpu LIST: the GPU the row is for. */
GETTER(get_gpu)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->gpu_name)
		set_str(v, r->gpu_name);
}
/* ---- On the GPU ---- */

#define G r->gpu
OPT_GETTER(get_kernel_regs, G, G->kernel_regs)
KOPT_GETTER(get_api_blocks, G && (G->have_func || !r->ki) && G->api_blocks >= 0,
	    G->api_blocks)
OPT_GETTER(get_measured_grid, G && G->measured, G->m.grid)
OPT_GETTER(get_expected, G && G->measured, G->expected)
OPT_GETTER(get_resident, G && G->measured, G->m.residency.max_blocks_per_sm)
GETTER(get_achieved)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (G && G->measured)
		set_achieved(v, &G->m.residency);
}
GETTER(get_measure_ms)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (G && G->measured)
		occ_val_dec(v, f, G->m.ms);
}
GETTER(get_agrees)
{
	MODEL_ROW;
	v->type = G && (G->have_func || !r->ki) ? OCC_VAL_BOOL : OCC_VAL_NULL;
	v->u = G && G->agrees;
}
/* The text table marks a disagreement. */
GETTER(text_agrees)
{
	ROW;
	set_str(v, G && !G->agrees ? "!" : "");
}
OPT_GETTER(get_api_dyn, G && G->have_api_dyn, G->api_dyn)
GETTER(get_api_dyn_loses)
{
	ROW;
	v->type = G && G->have_api_dyn ? OCC_VAL_BOOL : OCC_VAL_NULL;
	v->u = G && G->api_dyn_blocks < r->c.r.blocks_per_sm;
}
#undef G

#define PLAIN(name, type, desc, get) { name, type, desc, get, NULL, { 0 }, 0, 0 }
/* The library's fields of a cluster launch (occ_cluster_kind), read from
 * the row's. */
#define OCC_CLUSTER_TEXT(fn) text_cluster_model
#define OCC_CLUSTER_FIELD(name, type, desc, get, ...) \
	{ name, type, desc, get_cluster_model, NULL, __VA_ARGS__, 0, 0 },
/* And of a kernel (occ_kernel_kind), read by its id. */
#define OCC_KERNEL_TEXT(fn) fn
#define OCC_KERNEL_FIELD(name, type, desc, get, id, ...) \
	{ name, type, desc, get, NULL, __VA_ARGS__, 0, id },
/* And of a part (occ_partition_kind), read from the row's. */
#define OCC_PARTITION_FIELD(name, type, desc, get) \
	PLAIN(name, type, desc, get_partition_model),

static const struct occ_field fields[] = {
	{ "gpu", OCC_FT_STR, "the GPU of --gpu's list the row is for (absent: "
	  "no list)", get_gpu, NULL, { NULL, -14, 2, 0, NULL, 0 }, 0, 0 },
	{ "kernel", OCC_FT_STR, OCC_KERNEL_NAME_DESC, get_kernel, NULL,
	  { NULL, 0, 2, 0, NULL, 0 }, 0, 0 },
	OCC_KERNEL_FIELDS
	{ "api_regs", OCC_FT_INT, "registers per thread, per the driver "
	  "(cuFuncGetAttribute, --kernels --api)", get_api_regs, NULL,
	  { "api regs", 9, 1, OCC_TXT_DASH, NULL, 0 }, 0, 0 },
	PLAIN("api_static_smem", OCC_FT_INT, "static shared memory, per the driver",
	      get_api_static_smem),
	PLAIN("api_stack", OCC_FT_INT, "local memory per thread, per the driver",
	      get_api_stack),
	PLAIN("api_max_threads", OCC_FT_INT, "the most threads per block it "
	      "launches with, per the driver", get_api_max_threads),
	PLAIN("kernel_regs", OCC_FT_INT, "the calibrated kernel's registers, per "
	      "the runtime (--api)", get_kernel_regs),
	{ "api_blocks_per_sm", OCC_FT_INT, "cudaOccupancyMaxActiveBlocksPer"
	  "Multiprocessor's blocks per SM (--kernels: the driver's)", get_api_blocks, NULL,
	  { "api", 5, 1, 0, NULL, 79 }, 0, 0 },
	PLAIN("measured_grid", OCC_FT_INT, "blocks launched to measure (--measure)",
	      get_measured_grid),
	PLAIN("expected_blocks_per_sm", OCC_FT_INT, "the most blocks per SM the "
	      "model expects in that launch", get_expected),
	{ "measured_blocks_per_sm", OCC_FT_INT, "the most blocks found resident "
	  "on an SM at once", get_resident, NULL,
	  { "resident", 10, 0, OCC_TXT_DASH, NULL, 0 }, 0, 0 },
	{ "achieved_occupancy_pct", OCC_FT_DEC, "achieved occupancy measured, "
	  "percent", get_achieved, NULL,
	  { "achieved", 10, 0, OCC_TXT_PCT | OCC_TXT_DASH, NULL, 0 }, 0, 0 },
	PLAIN("measure_ms", OCC_FT_DEC, "how long the measurement took, ms",
	      get_measure_ms),
	{ "agrees", OCC_FT_BOOL, "whether the API and the measurement agree with "
	  "the model", get_agrees, NULL, { "", 0, 2, 0, text_agrees, 0 }, 0, 0 },
	PLAIN("api_max_dynamic_smem_per_block", OCC_FT_INT, "cudaOccupancyAvailable"
	      "DynamicSMemPerBlock for blocks_per_sm, bytes", get_api_dyn),
	PLAIN("api_max_dynamic_smem_loses_block", OCC_FT_BOOL, "whether that much "
	      "loses a block, per the runtime's own occupancy API",
	      get_api_dyn_loses),
	{ "device", OCC_FT_INT, "the CUDA device (absent: --arch)", get_device,
	  NULL, { "device", 6, 0, 0, NULL, 0 }, 0, 0 },
	PLAIN("device_name", OCC_FT_STR, "its name", get_device_name),
	OCC_CLUSTER_FIELDS
	OCC_PARTITION_FIELDS
	PLAIN("partition_api_max_active_clusters", OCC_FT_INT, "what "
	      "cudaOccupancyMaxActiveClusters answers in the part's green "
	      "context (it may be below max_active_clusters)",
	      get_partition_api_clusters),
	OCC_PARTITION_BOUND_FIELDS
	PLAIN("api_partition_groups", OCC_FT_INT, "the groups the driver made "
	      "(--api)", get_api_partition_groups),
	PLAIN("api_partition_sms", OCC_FT_INT, "SMs of each", get_api_partition_sms),
	PLAIN("api_partition_remaining_sms", OCC_FT_INT, "SMs it left over",
	      get_api_partition_remaining_sms),
	PLAIN("api_partition_part_sms", OCC_FT_INT, "SMs of the part's green "
	      "context, cuGreenCtxGetDevResource", get_api_partition_part_sms),
	PLAIN("api_partition_multiprocessor_count", OCC_FT_INT,
	      "cudaDevAttrMultiProcessorCount inside it (the whole GPU's)",
	      get_api_partition_sm_count),
	PLAIN("partition_agrees", OCC_FT_BOOL, "whether the driver's split is the "
	      "model's", get_partition_agrees),
	PLAIN("cluster_kernel_regs", OCC_FT_INT, "the calibrated cluster kernel's "
	      "registers, per the runtime (--api)", get_cluster_kernel_regs),
	{ "api_max_active_clusters", OCC_FT_INT, "cudaOccupancyMaxActiveClusters "
	  "for it", get_api_clusters, NULL, { "api", 6, 1, 0, NULL, 0 }, 0, 0 },
	PLAIN("api_cluster_potential_size", OCC_FT_INT,
	      "cudaOccupancyMaxPotentialClusterSize", get_api_potential),
	PLAIN("api_cluster_potential_size_nonportable", OCC_FT_INT, "the same, "
	      "the kernel allowing non-portable sizes", get_api_potential_np),
	PLAIN("measured_clusters_launched", OCC_FT_INT, "clusters launched to "
	      "measure (--measure)", get_clusters_launched),
	{ "measured_clusters", OCC_FT_INT, "the most clusters resident at once, "
	  "each from its first CTA's start to its last CTA's end",
	  get_measured_clusters, NULL, { "resident", 9, 1, OCC_TXT_DASH, NULL, 0 },
	  0, 0 },
	{ "measured_cluster_blocks_per_sm", OCC_FT_INT, "the most blocks resident "
	  "on an SM at once in that launch", get_measured_cluster_blocks, NULL,
	  { "res.blocks", 10, 1, OCC_TXT_DASH, NULL, 0 }, 0, 0 },
	PLAIN("cluster_achieved_occupancy_pct", OCC_FT_DEC, "achieved occupancy of "
	      "that launch, percent", get_cluster_achieved),
	{ "cluster_agrees", OCC_FT_BOOL, "whether the API and the measurement agree "
	  "with the model on clusters", get_cluster_agrees, NULL,
	  { "", 0, 2, 0, text_cluster_agrees, 0 }, 0, 0 },
};

/* The library's configuration row's fields, then these. */
const struct occ_row_kind kind_occupancy = {
	"occupancy", fields, sizeof fields / sizeof fields[0], &occ_config_kind
};
