/*
 * launch_rows_fields.c - the fields of a launch's row (struct
 * occ_launch_row, occcalc/launch_rows.h): one entry each, its name,
 * type, description and text column, and its getter reading the record,
 * the device it was modelled on and the model's figures. What
 * `occcalc --launches` and --trace print, and a program reads.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

#define ROW const struct occ_launch_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
/* A number of the record; absent where the trace has none (-1). */
#define REC_GETTER(fn, expr) GETTER(fn) { ROW; int64_t x = (expr); \
	v->type = x < 0 ? OCC_VAL_NULL : OCC_VAL_UINT; v->u = (uint64_t)x; }
/* A figure of the model; absent where the launch was not modelled. */
#define MODEL_GETTER(fn, expr) GETTER(fn) { ROW; \
	v->type = r->not_modelled ? OCC_VAL_NULL : OCC_VAL_UINT; \
	if (!r->not_modelled) v->u = (uint64_t)(expr); }

static void set_str(struct occ_val *v, const char *s)
{
	v->type = s ? OCC_VAL_STR : OCC_VAL_NULL;
	v->s = s;
}

static void set_dims(struct occ_val *v, const int64_t d[3])
{
	int i;

	if (d[0] < 0) {
		v->type = OCC_VAL_NULL;
		return;
	}
	for (i = 0; i < 3; i++)
		v->nums[i] = (uint64_t)d[i];
	v->type = OCC_VAL_LIST;
	v->list = v->nums;
	v->n = 3;
}

GETTER(get_file) { ROW; set_str(v, r->file); }
GETTER(get_format)
{
	ROW;
	set_str(v, occ_launch_format_name(r->l->format));
}
REC_GETTER(get_line, r->l->line > 0 ? r->l->line : -1)
REC_GETTER(get_device, r->l->device)
GETTER(get_device_name) { ROW; set_str(v, r->dev ? r->dev->d.name : NULL); }
GETTER(get_arch)
{
	ROW;
	set_str(v, r->dev && r->dev->arch_status == OCC_OK ? r->dev->tag : NULL);
}
REC_GETTER(get_sms, r->dev ? r->dev->d.multiProcessorCount : -1)
REC_GETTER(get_stream, r->l->stream)
REC_GETTER(get_correlation, r->l->correlation)
REC_GETTER(get_graph, r->l->format == OCC_LAUNCH_FORMAT_OCCCALC
	   ? r->l->graph_id : -1)
GETTER(get_launch_type)
{
	ROW;
	set_str(v, r->l->launch_type ? occ_launch_type_name(r->l->launch_type)
				     : NULL);
}
GETTER(get_kernel) { ROW; set_str(v, r->l->kernel); }
GETTER(get_mangled)
{
	ROW;
	set_str(v, r->l->mangled[0] ? r->l->mangled : NULL);
}
GETTER(get_op) { ROW; set_str(v, r->l->op); }
GETTER(get_op_shapes) { ROW; set_str(v, r->l->op_shapes); }
GETTER(get_module) { ROW; set_str(v, r->l->module); }
REC_GETTER(get_external_id, r->l->external_id)
GETTER(get_grid) { ROW; set_dims(v, r->l->grid); }
GETTER(get_block) { ROW; set_dims(v, r->l->block); }
GETTER(get_cluster_dims) { ROW; set_dims(v, r->l->cluster); }
MODEL_GETTER(get_grid_blocks, r->m.blocks)
MODEL_GETTER(get_block_threads, r->m.threads_per_block)
REC_GETTER(get_regs, r->l->regs)
REC_GETTER(get_static_smem, r->l->static_smem)
REC_GETTER(get_smem, r->l->dynamic_smem)
REC_GETTER(get_smem_total, r->l->smem_total)
GETTER(get_smem_limit)
{
	ROW;
	set_str(v, r->l->smem_limit ? occ_smem_limit_name(r->l->smem_limit)
				    : NULL);
}
REC_GETTER(get_smem_executed, r->l->smem_executed)
REC_GETTER(get_local, r->l->local_mem_per_thread)
/* The model's result, where the launch was modelled. */
static const struct occ_result *row_result(const void *p)
{
	const struct occ_launch_row *r = p;

	return r->not_modelled ? NULL : &r->m.result;
}
OCC_RESULT_GETTERS(row_result)

GETTER(get_reason)
{
	ROW;
	if (r->not_modelled)
		set_str(v, r->not_modelled);
	else if (r->m.result.blocks_per_sm == 0)
		set_str(v, occ_reason_name(r->m.result.reason));
	else
		v->type = OCC_VAL_NULL;
}

#define HAS_WAVES (!r->not_modelled && r->m.has_waves)
GETTER(get_waves)
{
	ROW;
	v->type = HAS_WAVES ? OCC_VAL_UINT : OCC_VAL_NULL;
	v->u = HAS_WAVES ? (uint64_t)r->m.waves.waves : 0;
}
GETTER(get_tail)
{
	ROW;
	v->type = HAS_WAVES ? OCC_VAL_UINT : OCC_VAL_NULL;
	v->u = HAS_WAVES ? (uint64_t)r->m.waves.tail_blocks : 0;
}
GETTER(get_waves_fraction)
{
	ROW;
	if (r->not_modelled || r->m.result.blocks_per_sm == 0) {
		v->type = OCC_VAL_NULL;
		return;
	}
	occ_val_dec(v, f, r->m.waves_fraction);
}

/* --partition: the part of the launch's device it is computed in. */
static const struct occ_launch_part *
part_of_row(const struct occ_launch_row *r)
{
	return r->dev && r->dev->in_part ? &r->dev->part : NULL;
}

GETTER(get_part)
{
	ROW;
	set_str(v, part_of_row(r) ? r->dev->part_name : NULL);
}
#define PART_GETTER(fn, cond, expr) GETTER(fn) { ROW; \
	const struct occ_launch_part *P = part_of_row(r); \
	v->type = P && (cond) ? OCC_VAL_UINT : OCC_VAL_NULL; \
	if (P && (cond)) v->u = (uint64_t)(expr); }
PART_GETTER(get_part_groups, 1, P->split.groups)
PART_GETTER(get_part_group_sms, 1, P->split.group_sms)
PART_GETTER(get_part_remaining, P->split.groups_min == P->split.groups_max,
	    P->split.remaining_sms)
PART_GETTER(get_part_sms, 1, P->sms)
GETTER(get_part_layout)
{
	const struct occ_launch_part *P;

	ROW;
	P = part_of_row(r);
	v->type = OCC_VAL_NULL;
	if (P && P->measured) {
		occ_layout_format(&P->layout, v->buf, sizeof v->buf);
		set_str(v, v->buf);
	}
}

#define HAS_CLUSTER (!r->not_modelled && r->m.has_cluster)
GETTER(get_cluster_size)
{
	ROW;
	v->type = r->l->cluster[0] < 0 || r->not_modelled ? OCC_VAL_NULL : OCC_VAL_UINT;
	v->u = r->m.cluster_size ? (uint64_t)r->m.cluster_size : 1;
}
GETTER(get_max_active_clusters)
{
	ROW;
	v->type = HAS_CLUSTER ? OCC_VAL_UINT : OCC_VAL_NULL;
	v->u = HAS_CLUSTER ? (uint64_t)r->m.cluster.max_active_clusters : 0;
}
GETTER(get_cluster_active_blocks)
{
	ROW;
	v->type = HAS_CLUSTER ? OCC_VAL_UINT : OCC_VAL_NULL;
	v->u = HAS_CLUSTER ? (uint64_t)r->m.cluster.active_blocks : 0;
}
GETTER(get_cluster_occupancy)
{
	ROW;
	if (!HAS_CLUSTER) {
		v->type = OCC_VAL_NULL;
		return;
	}
	occ_val_pct(v, (uint64_t)r->m.cluster.active_warps,
		(uint64_t)r->m.cluster.warp_slots);
}
GETTER(get_cluster_reason)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (HAS_CLUSTER && r->m.cluster.reason != OCC_CLUSTER_FITS)
		set_str(v, occ_cluster_reason_name(r->m.cluster.reason));
}
REC_GETTER(get_cupti_clusters, r->l->max_active_clusters > 0
	   ? r->l->max_active_clusters : -1)
REC_GETTER(get_start, r->l->start_ns)
REC_GETTER(get_duration, occ_launch_duration_ns(r->l))
GETTER(get_achieved)
{
	ROW;
	if (r->l->achieved_occupancy_pct < 0) {
		v->type = OCC_VAL_NULL;
		return;
	}
	occ_val_dec(v, f, r->l->achieved_occupancy_pct);
}
GETTER(get_kineto_est)
{
	ROW;
	if (!(r->l->has_kineto & OCC_KINETO_EST)) {
		v->type = OCC_VAL_NULL;
		return;
	}
	occ_val_dec(v, f, r->l->kineto_est_pct);
}
GETTER(get_unknown)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ OCC_LAUNCH_UNKNOWN_SMEM_SPLIT, "smem_split" },
		{ OCC_LAUNCH_UNKNOWN_CARVEOUT, "carveout" },
		{ OCC_LAUNCH_UNKNOWN_CLUSTER, "cluster" },
		{ OCC_LAUNCH_UNKNOWN_LAYOUT, "layout" },
		{ OCC_LAUNCH_UNKNOWN_WAVES, "waves" },
		{ OCC_LAUNCH_UNKNOWN_SMEM_EXECUTED, "smem_executed" },
	};
	size_t i;

	ROW;
	v->type = OCC_VAL_SET;
	v->n = 0;
	if (r->not_modelled)
		return;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (r->m.unknown & names[i].bit)
			v->strs[v->n++] = names[i].name;
}

/* Two spaces between cells: a kernel's name holds single ones. */
#define F(name, type, desc, get) { name, type, desc, get, NULL, \
	{ NULL, 0, 2, OCC_TXT_DASH, NULL, 0 }, 0, 0 }
#define DIMS(name, desc, get) { name, OCC_FT_LIST, desc, get, NULL, \
	{ NULL, 0, 2, OCC_TXT_DASH | OCC_TXT_DIMS, NULL, 0 }, 0, 0 }
/* A field of the model's result (fields_result.c). */
#define RESULT(name, type, desc, get, member) { name, type, desc, get, NULL, \
	{ NULL, 0, 2, OCC_TXT_DASH, NULL, 0 }, 0, OCC_RESULT_AT(member) }
#define LIMIT(name, member, desc) \
	RESULT(name, OCC_FT_INT, desc, get_result_limit, member)

static const struct occ_field fields[] = {
	F("file", OCC_FT_STR, "the trace file the launch was read from", get_file),
	F("format", OCC_FT_STR, "its format: occcalc (--trace) or kineto",
	  get_format),
	F("line", OCC_FT_INT, "the line of the launch's record (occcalc's trace)",
	  get_line),
	F("device", OCC_FT_INT, "the device the launch ran on, as the trace numbers "
	  "it", get_device),
	F("device_name", OCC_FT_STR, "its name", get_device_name),
	F("arch", OCC_FT_STR, "its architecture, sm_XY", get_arch),
	F("multiProcessorCount", OCC_FT_INT, "its SMs (the whole GPU's; with "
	  "--partition the figures are of partition_part_sms)", get_sms),
	F("partition_part", OCC_FT_STR, "the part of its SMs computed in "
	  "(--partition): group N or remaining", get_part),
	F("partition_groups", OCC_FT_INT, "groups the split of its SMs makes "
	  "(cuDevSmResourceSplitByCount's nbGroups; without its GPC layout "
	  "the most)", get_part_groups),
	F("partition_sms", OCC_FT_INT, "SMs of each group", get_part_group_sms),
	F("partition_remaining_sms", OCC_FT_INT, "SMs no group has (absent: not "
	  "known without the GPC layout)", get_part_remaining),
	F("partition_part_sms", OCC_FT_INT, "SMs of the part computed in: the "
	  "waves' and clusters'", get_part_sms),
	F("partition_layout", OCC_FT_STR, "the part's SMs per GPC, as its clusters "
	  "run (absent: not measured: no cluster figures)", get_part_layout),
	F("stream", OCC_FT_INT, "the stream", get_stream),
	F("correlation", OCC_FT_INT, "CUPTI's correlation id of the launch",
	  get_correlation),
	F("graph_id", OCC_FT_INT, "the CUDA graph it was part of (0: none; "
	  "occcalc's trace)", get_graph),
	F("launch_type", OCC_FT_STR, "regular, cooperative_single, "
	  "cooperative_multi or cbl_commandlist", get_launch_type),
	F("kernel", OCC_FT_STR, "the kernel's name, demangled", get_kernel),
	F("mangled", OCC_FT_STR, "its symbol (occcalc's trace)", get_mangled),
	F("op", OCC_FT_STR, "the operator that launched it: the cpu_op of its "
	  "External id (Kineto), or the NVTX range its launch call was made in "
	  "(--trace: PyTorch's emit_nvtx; absent: not known)",
	  get_op),
	F("op_shapes", OCC_FT_STR, "the operator's input shapes, its Input Dims "
	  "as JSON (Kineto with record_shapes; absent past 4 KB)", get_op_shapes),
	F("module", OCC_FT_STR, "the innermost nn.Module the operator ran in "
	  "(Kineto with with_modules or with_stack; absent in backward and "
	  "outside modules)", get_module),
	F("external_id", OCC_FT_INT, "Kineto's External id, shared with its "
	  "operator", get_external_id),
	DIMS("grid", "the grid, [x, y, z] blocks", get_grid),
	DIMS("block", "the block, [x, y, z] threads", get_block),
	DIMS("cluster_dims", "the cluster, [x, y, z] blocks ([0, 0, 0]: "
	  "none; absent: not recorded, as in Kineto's)", get_cluster_dims),
	F("grid_blocks", OCC_FT_INT, "blocks of the grid", get_grid_blocks),
	F("block_threads", OCC_FT_INT, "threads per block", get_block_threads),
	F("regs", OCC_FT_INT, "registers per thread", get_regs),
	F("static_smem", OCC_FT_INT, "static shared memory per block, bytes "
	  "(absent: not recorded apart)", get_static_smem),
	F("smem", OCC_FT_INT, "dynamic shared memory per block, bytes (absent: "
	  "not recorded apart)", get_smem),
	F("smem_total", OCC_FT_INT, "static plus dynamic shared memory per block, "
	  "bytes (what Kineto records)", get_smem_total),
	F("smem_limit_config", OCC_FT_STR, "the shared-memory limit it was launched "
	  "under: default or optin", get_smem_limit),
	F("smem_executed", OCC_FT_INT, "the shared memory per SM it ran with (the "
	  "carveout the driver chose), bytes", get_smem_executed),
	F("local_mem_per_thread", OCC_FT_INT, "local memory per thread, bytes",
	  get_local),
	RESULT("smem_per_block", OCC_FT_INT, "shared memory a block holds, the "
	       "driver's reserve included, bytes", get_result_bytes,
	       smem_per_block),
	RESULT("smem_per_sm", OCC_FT_INT, "the SM's shared memory modelled: "
	       "smem_executed, or the largest carveout where not recorded",
	       get_result_bytes, smem_per_sm),
	RESULT("blocks_per_sm", OCC_FT_INT, "active blocks per SM", get_result_int,
	       blocks_per_sm),
	RESULT("warps_per_sm", OCC_FT_INT, "active warps per SM", get_result_int,
	       warps_per_sm),
	RESULT("max_warps_per_sm", OCC_FT_INT, "the SM's warp slots",
	       get_result_int, max_warps_per_sm),
	RESULT("occupancy_pct", OCC_FT_DEC, "active warps over the SM's warp "
	       "slots, percent", get_result_occupancy, warps_per_sm),
	F("achieved_occupancy_pct", OCC_FT_DEC, "achieved occupancy measured by "
	  "--trace --achieved (sm__warps_active.avg.pct_of_peak_sustained_active), "
	  "percent (absent: not measured)", get_achieved),
	RESULT("limiter", OCC_FT_SET, "the resources that limit blocks_per_sm: "
	       "warps, registers, shared_memory, blocks, barriers",
	       get_result_limiter, limiters),
	OCC_LIMIT_FIELDS,
	F("reason", OCC_FT_STR, "why the launch has no figures or no block fits "
	  "(absent: it has them)", get_reason),
	F("waves", OCC_FT_INT, "waves the grid runs in (a cluster launch: of the "
	  "blocks its resident clusters hold)", get_waves),
	F("tail_blocks", OCC_FT_INT, "blocks of the last, partial wave", get_tail),
	F("waves_per_multiprocessor", OCC_FT_DEC, "blocks over the blocks the GPU "
	  "(--partition: the part) holds at once (Nsight Compute's "
	  "launch__waves_per_multiprocessor)", get_waves_fraction),
	F("cluster_size", OCC_FT_INT, "CTAs per cluster (1: no clusters)",
	  get_cluster_size),
	F("max_active_clusters", OCC_FT_INT, "clusters the GPU (--partition: the "
	  "part) holds at once, on its GPC layout", get_max_active_clusters),
	F("cluster_active_blocks", OCC_FT_INT, "CTAs resident at once, "
	  "max_active_clusters x cluster_size", get_cluster_active_blocks),
	F("cluster_occupancy_pct", OCC_FT_DEC, "active warps over all the GPU's "
	  "warp slots in the cluster launch, percent", get_cluster_occupancy),
	F("cluster_reason", OCC_FT_STR, "why no cluster is resident: "
	  "kernel_does_not_launch, cluster_larger_than_gpcs, "
	  "runtime_refuses_in_part (--partition: cudaOccupancyMaxActiveClusters "
	  "answers 0 there, and the launch is refused; absent: one is)",
	  get_cluster_reason),
	F("cupti_max_active_clusters", OCC_FT_INT, "the clusters CUPTI reported "
	  "for the launch", get_cupti_clusters),
	F("start_ns", OCC_FT_INT, "when it started, ns (the trace's clock)",
	  get_start),
	F("duration_ns", OCC_FT_INT, "how long it ran, ns (a launch --achieved "
	  "measured: as the profiler timed it)", get_duration),
	F("kineto_est_pct", OCC_FT_DEC, "Kineto's 'est. achieved occupancy %' for "
	  "the launch", get_kineto_est),
	F("unknown", OCC_FT_SET, "what the trace does not record and the figures "
	  "assume: smem_split, carveout, cluster, layout, waves; smem_executed: "
	  "the carveout recorded cannot be the one the launch ran with (under "
	  "--achieved's profiler), so the largest is assumed", get_unknown),
};

const struct occ_row_kind occ_launch_kind = {
	"launch", fields, sizeof fields / sizeof fields[0], NULL
};


static size_t add_fields(const char *list, const struct occ_field **f)
{
	size_t n = 0;

	while (list) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);

		f[n++] = occ_field_find(&occ_launch_kind, list, len);
		list = comma ? comma + 1 : NULL;
	}
	return n;
}

size_t occ_launch_annotation_fields(const struct occ_launch_row *r,
				    const struct occ_field **f)
{
	const struct occ_field *extra[OCC_LAUNCH_ANNOTATION_MAX];
	size_t n = add_fields(OCC_LAUNCH_ANNOTATION_FIELDS, f), i, k;
	struct occ_val v;

	k = add_fields(OCC_LAUNCH_ANNOTATION_EXTRA, extra);
	for (i = 0; i < k; i++) {
		extra[i]->get(r, extra[i], &v);
		/* cluster_size 1 says no more than the launch's absent
		 * cluster figures do. */
		if (v.type != OCC_VAL_NULL &&
		    !(i == 0 && v.type == OCC_VAL_UINT && v.u == 1))
			f[n++] = extra[i];
	}
	return n;
}
