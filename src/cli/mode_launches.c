/*
 * mode_launches.c - --launches FILE...: the kernel launches a program
 * made, from occcalc's trace files (--trace) or PyTorch profiler (Kineto)
 * traces, each computed on the GPU it ran on. One row per launch (-f
 * csv|json|jsonl, --fields), or a summary per kernel (text). The files
 * stream through the library: nothing is held per launch.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launches.h"

/* ---- Fields ---- */

#define ROW const struct launch_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct field *f, \
				  struct val *v)
/* A number of the record; absent where the trace has none (-1). */
#define REC_GETTER(fn, expr) GETTER(fn) { ROW; int64_t x = (expr); \
	v->type = x < 0 ? VAL_NULL : VAL_UINT; v->u = (uint64_t)x; }
/* A figure of the model; absent where the launch was not modelled. */
#define MODEL_GETTER(fn, expr) GETTER(fn) { ROW; \
	v->type = r->not_modelled ? VAL_NULL : VAL_UINT; \
	if (!r->not_modelled) v->u = (uint64_t)(expr); }

static void set_str(struct val *v, const char *s)
{
	v->type = s ? VAL_STR : VAL_NULL;
	v->s = s;
}

static void set_dims(struct val *v, const int64_t d[3])
{
	int i;

	if (d[0] < 0) {
		v->type = VAL_NULL;
		return;
	}
	for (i = 0; i < 3; i++)
		v->nums[i] = (uint64_t)d[i];
	v->type = VAL_LIST;
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
MODEL_GETTER(get_smem_per_block, r->m.result.smem_per_block)
MODEL_GETTER(get_smem_per_sm, r->m.result.smem_per_sm)
MODEL_GETTER(get_blocks, r->m.result.blocks_per_sm)
MODEL_GETTER(get_warps, r->m.result.warps_per_sm)
MODEL_GETTER(get_max_warps, r->m.result.max_warps_per_sm)
/* A resource's own limit: absent where it does not limit at all. */
GETTER(get_limit)
{
	int x;

	ROW;
	x = *(const int *)((const char *)&r->m.result + f->arg);
	v->type = r->not_modelled || x == OCC_UNLIMITED ? VAL_NULL : VAL_UINT;
	v->u = (uint64_t)x;
}
GETTER(get_occupancy)
{
	ROW;
	if (r->not_modelled) {
		v->type = VAL_NULL;
		return;
	}
	val_pct(v, (uint64_t)r->m.result.warps_per_sm,
		(uint64_t)r->m.result.max_warps_per_sm);
}

GETTER(get_limiter)
{
	static const enum occ_resource order[] = {
		OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS,
		OCC_RESOURCE_SHARED_MEMORY, OCC_RESOURCE_BLOCKS,
		OCC_RESOURCE_BARRIERS
	};
	size_t i;

	ROW;
	v->type = VAL_NULL;
	if (r->not_modelled || r->m.result.blocks_per_sm == 0)
		return;
	v->type = VAL_SET;
	v->n = 0;
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (r->m.result.limiters & order[i])
			v->strs[v->n++] = occ_resource_name(order[i]);
}

GETTER(get_reason)
{
	ROW;
	if (r->not_modelled)
		set_str(v, r->not_modelled);
	else if (r->m.result.blocks_per_sm == 0)
		set_str(v, occ_reason_name(r->m.result.reason));
	else
		v->type = VAL_NULL;
}

#define HAS_WAVES (!r->not_modelled && r->m.has_waves)
GETTER(get_waves)
{
	ROW;
	v->type = HAS_WAVES ? VAL_UINT : VAL_NULL;
	v->u = HAS_WAVES ? (uint64_t)r->m.waves.waves : 0;
}
GETTER(get_tail)
{
	ROW;
	v->type = HAS_WAVES ? VAL_UINT : VAL_NULL;
	v->u = HAS_WAVES ? (uint64_t)r->m.waves.tail_blocks : 0;
}
GETTER(get_waves_fraction)
{
	ROW;
	if (r->not_modelled || r->m.result.blocks_per_sm == 0) {
		v->type = VAL_NULL;
		return;
	}
	val_dec(v, f, r->m.waves_fraction);
}

/* --partition: the part of the launch's device it is computed in. */
static const struct occ_launch_part *part_of_row(const struct launch_row *r)
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
	v->type = P && (cond) ? VAL_UINT : VAL_NULL; \
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
	v->type = VAL_NULL;
	if (P && P->measured) {
		occ_layout_format(&P->layout, v->buf, sizeof v->buf);
		set_str(v, v->buf);
	}
}

#define HAS_CLUSTER (!r->not_modelled && r->m.has_cluster)
GETTER(get_cluster_size)
{
	ROW;
	v->type = r->l->cluster[0] < 0 || r->not_modelled ? VAL_NULL : VAL_UINT;
	v->u = r->m.cluster_size ? (uint64_t)r->m.cluster_size : 1;
}
GETTER(get_max_active_clusters)
{
	ROW;
	v->type = HAS_CLUSTER ? VAL_UINT : VAL_NULL;
	v->u = HAS_CLUSTER ? (uint64_t)r->m.cluster.max_active_clusters : 0;
}
GETTER(get_cluster_active_blocks)
{
	ROW;
	v->type = HAS_CLUSTER ? VAL_UINT : VAL_NULL;
	v->u = HAS_CLUSTER ? (uint64_t)r->m.cluster.active_blocks : 0;
}
GETTER(get_cluster_occupancy)
{
	ROW;
	if (!HAS_CLUSTER) {
		v->type = VAL_NULL;
		return;
	}
	val_pct(v, (uint64_t)r->m.cluster.active_warps,
		(uint64_t)r->m.cluster.warp_slots);
}
REC_GETTER(get_cupti_clusters, r->l->max_active_clusters > 0
	   ? r->l->max_active_clusters : -1)
REC_GETTER(get_start, r->l->start_ns)
REC_GETTER(get_duration, occ_launch_duration_ns(r->l))
GETTER(get_achieved)
{
	ROW;
	if (r->l->achieved_occupancy_pct < 0) {
		v->type = VAL_NULL;
		return;
	}
	val_dec(v, f, r->l->achieved_occupancy_pct);
}
GETTER(get_kineto_est)
{
	ROW;
	if (!(r->l->has_kineto & OCC_KINETO_EST)) {
		v->type = VAL_NULL;
		return;
	}
	val_dec(v, f, r->l->kineto_est_pct);
}
GETTER(get_unknown)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ OCC_LAUNCH_UNKNOWN_SMEM_SPLIT, "smem_split" },
		{ OCC_LAUNCH_UNKNOWN_CARVEOUT, "carveout" },
		{ OCC_LAUNCH_UNKNOWN_CLUSTER, "cluster" },
		{ OCC_LAUNCH_UNKNOWN_LAYOUT, "layout" },
		{ OCC_LAUNCH_UNKNOWN_WAVES, "waves" },
	};
	size_t i;

	ROW;
	v->type = VAL_SET;
	v->n = 0;
	if (r->not_modelled)
		return;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (r->m.unknown & names[i].bit)
			v->strs[v->n++] = names[i].name;
}

#define F(name, type, desc, get) { name, type, desc, get, NULL, \
	{ NULL, 0, 1, TXT_DASH, NULL, 0 }, 0, 0 }
#define LIMIT(name, member, desc) { name, FT_INT, desc, get_limit, NULL, \
	{ NULL, 0, 1, TXT_DASH, NULL, 0 }, 0, \
	offsetof(struct occ_result, member) }

static const struct field fields[] = {
	F("file", FT_STR, "the trace file the launch was read from", get_file),
	F("format", FT_STR, "its format: occcalc (--trace) or kineto",
	  get_format),
	F("line", FT_INT, "the line of the launch's record (occcalc's trace)",
	  get_line),
	F("device", FT_INT, "the device the launch ran on, as the trace numbers "
	  "it", get_device),
	F("device_name", FT_STR, "its name", get_device_name),
	F("arch", FT_STR, "its architecture, sm_XY", get_arch),
	F("multiProcessorCount", FT_INT, "its SMs (the whole GPU's; with "
	  "--partition the figures are of partition_part_sms)", get_sms),
	F("partition_part", FT_STR, "the part of its SMs computed in "
	  "(--partition): group N or remaining", get_part),
	F("partition_groups", FT_INT, "groups the split of its SMs makes "
	  "(cuDevSmResourceSplitByCount's nbGroups; without its GPC layout "
	  "the most)", get_part_groups),
	F("partition_sms", FT_INT, "SMs of each group", get_part_group_sms),
	F("partition_remaining_sms", FT_INT, "SMs no group has (absent: not "
	  "known without the GPC layout)", get_part_remaining),
	F("partition_part_sms", FT_INT, "SMs of the part computed in: the "
	  "waves' and clusters'", get_part_sms),
	F("partition_layout", FT_STR, "the part's SMs per GPC, as its clusters "
	  "run (absent: not measured: no cluster figures)", get_part_layout),
	F("stream", FT_INT, "the stream", get_stream),
	F("correlation", FT_INT, "CUPTI's correlation id of the launch",
	  get_correlation),
	F("graph_id", FT_INT, "the CUDA graph it was part of (0: none; "
	  "occcalc's trace)", get_graph),
	F("launch_type", FT_STR, "regular, cooperative_single, "
	  "cooperative_multi or cbl_commandlist", get_launch_type),
	F("kernel", FT_STR, "the kernel's name, demangled", get_kernel),
	F("mangled", FT_STR, "its symbol (occcalc's trace)", get_mangled),
	F("grid", FT_LIST, "the grid, [x, y, z] blocks", get_grid),
	F("block", FT_LIST, "the block, [x, y, z] threads", get_block),
	F("cluster_dims", FT_LIST, "the cluster, [x, y, z] blocks ([0, 0, 0]: "
	  "none; absent: not recorded, as in Kineto's)", get_cluster_dims),
	F("grid_blocks", FT_INT, "blocks of the grid", get_grid_blocks),
	F("block_threads", FT_INT, "threads per block", get_block_threads),
	F("regs", FT_INT, "registers per thread", get_regs),
	F("static_smem", FT_INT, "static shared memory per block, bytes "
	  "(absent: not recorded apart)", get_static_smem),
	F("smem", FT_INT, "dynamic shared memory per block, bytes (absent: "
	  "not recorded apart)", get_smem),
	F("smem_total", FT_INT, "static plus dynamic shared memory per block, "
	  "bytes (what Kineto records)", get_smem_total),
	F("smem_limit_config", FT_STR, "the shared-memory limit it was launched "
	  "under: default or optin", get_smem_limit),
	F("smem_executed", FT_INT, "the shared memory per SM it ran with (the "
	  "carveout the driver chose), bytes", get_smem_executed),
	F("local_mem_per_thread", FT_INT, "local memory per thread, bytes",
	  get_local),
	F("smem_per_block", FT_INT, "shared memory a block holds, the driver's "
	  "reserve included, bytes", get_smem_per_block),
	F("smem_per_sm", FT_INT, "the SM's shared memory modelled: "
	  "smem_executed, or the largest carveout where not recorded",
	  get_smem_per_sm),
	F("blocks_per_sm", FT_INT, "active blocks per SM", get_blocks),
	F("warps_per_sm", FT_INT, "active warps per SM", get_warps),
	F("max_warps_per_sm", FT_INT, "the SM's warp slots", get_max_warps),
	F("occupancy_pct", FT_DEC, "active warps over the SM's warp slots, "
	  "percent", get_occupancy),
	F("achieved_occupancy_pct", FT_DEC, "achieved occupancy measured by "
	  "--trace --achieved (sm__warps_active.avg.pct_of_peak_sustained_active), "
	  "percent (absent: not measured)", get_achieved),
	F("limiter", FT_SET, "the resources that limit blocks_per_sm: warps, "
	  "registers, shared_memory, blocks, barriers", get_limiter),
	LIMIT_FIELDS,
	F("reason", FT_STR, "why the launch has no figures or no block fits "
	  "(absent: it has them)", get_reason),
	F("waves", FT_INT, "waves the grid runs in (a cluster launch: of the "
	  "blocks its resident clusters hold)", get_waves),
	F("tail_blocks", FT_INT, "blocks of the last, partial wave", get_tail),
	F("waves_per_multiprocessor", FT_DEC, "blocks over the blocks the GPU "
	  "(--partition: the part) holds at once (Nsight Compute's "
	  "launch__waves_per_multiprocessor)", get_waves_fraction),
	F("cluster_size", FT_INT, "CTAs per cluster (1: no clusters)",
	  get_cluster_size),
	F("max_active_clusters", FT_INT, "clusters the GPU (--partition: the "
	  "part) holds at once, on its GPC layout", get_max_active_clusters),
	F("cluster_active_blocks", FT_INT, "CTAs resident at once, "
	  "max_active_clusters x cluster_size", get_cluster_active_blocks),
	F("cluster_occupancy_pct", FT_DEC, "active warps over all the GPU's "
	  "warp slots in the cluster launch, percent", get_cluster_occupancy),
	F("cupti_max_active_clusters", FT_INT, "the clusters CUPTI reported "
	  "for the launch", get_cupti_clusters),
	F("start_ns", FT_INT, "when it started, ns (the trace's clock)",
	  get_start),
	F("duration_ns", FT_INT, "how long it ran, ns (a launch --achieved "
	  "measured: as the profiler timed it)", get_duration),
	F("kineto_est_pct", FT_DEC, "Kineto's 'est. achieved occupancy %' for "
	  "the launch", get_kineto_est),
	F("unknown", FT_SET, "what the trace does not record and the figures "
	  "assume: smem_split, carveout, cluster, layout, waves", get_unknown),
};

const struct row_kind kind_launches = {
	"launch", fields, sizeof fields / sizeof fields[0]
};

#define DEFAULT_TAIL "stream,kernel,grid,block,cluster_dims," \
	"regs,static_smem,smem,smem_executed,blocks_per_sm,occupancy_pct," \
	"limiter,waves_per_multiprocessor,tail_blocks,max_active_clusters," \
	"duration_ns,kineto_est_pct"
#define DEFAULT_FIELDS "file,device," DEFAULT_TAIL
#define DEFAULT_FIELDS_PART "file,device,partition_part,partition_part_sms," \
	DEFAULT_TAIL

/* ---- The read ---- */

/* Why launches are left without figures, counted for one line each. */
enum skip { SKIP_NO_DEVICE, SKIP_NO_TABLE, SKIP_BAD_DEVICE, SKIP_SHAPE,
	    SKIP_COUNT };
static const char *const skip_why[SKIP_COUNT] = {
	"on a device the trace does not describe",
	"on a GPU whose compute capability has no table",
	"on a device whose recorded properties no NVIDIA GPU of its compute "
	"capability has",
	"whose grid or block no GPU launches",
};

struct launch_run {
	struct session *s;
	struct out out;
	struct fieldsel sel;
	int text;                          /* the summary, not rows */
	struct launch_summary *sum;
	regex_t re;
	int have_re;
	const char *file;
	/* Devices of the file being read; every file's kept to the end
	 * (the summary's headroom uses their architectures). */
	struct launch_dev *devs[OCC_LAUNCH_DEVICES_MAX];
	size_t n_devs;
	struct launch_dev **all;
	size_t n_all, cap_all;
	uint64_t launches, filtered, skipped[SKIP_COUNT];
	uint64_t part_unmeasured;          /* cluster launches, part's GPCs
					      not known */
	/* A device --partition was refused on: the read stops, and the
	 * refusal is made once the reader has let go of its memory. */
	struct launch_dev *part_dev;
	enum occ_status part_st;
	struct occ_diag part_d;
	int part_errno;
};

static void layout_of(struct launch_run *run, struct launch_dev *ld)
{
	const struct options *o = run->s->o;
	struct occ_gpu_match m;
	struct occ_gpu_layout g;
	struct occ_diag d;
	char path[1024];

	if (o->layout_text) {
		ld->layout = o->layout;
		ld->have_layout = 1;
		return;
	}
	if (occ_gpus_match(session_gpus(run->s), ld->d.name, &m) != OCC_OK)
		return;
	/* Its measured parts are of that chip: not of a device that
	 * records another compute capability under its name. */
	if (m.gpu[0]->cc_major == ld->d.major &&
	    m.gpu[0]->cc_minor == ld->d.minor)
		ld->listed = m.gpu[0]->name;
	session_gpus_path(run->s, path, sizeof path);
	if (occ_gpu_layout_find(path, m.gpu[0]->name, &g, &d) != OCC_OK ||
	    g.layout.sms != ld->d.multiProcessorCount)
		return;
	ld->layout = g.layout;
	ld->have_layout = 1;
}

/* --partition on a traced device: what cannot be made of its SMs is
 * refused, before any of its launches is printed. */
static _Noreturn void part_refused(const struct launch_run *run,
				   const struct launch_dev *ld,
				   enum occ_status st)
{
	const struct options *o = run->s->o;
	char dev[400], of[410];

	snprintf(dev, sizeof dev, "device %d of %s (%s, %s, %d SMs)",
		 ld->d.device, run->file, ld->d.name, ld->tag,
		 ld->d.multiProcessorCount);
	snprintf(of, sizeof of, " of %s", dev);
	if (o->partition.min_sms > (uint64_t)ld->d.multiProcessorCount)
		die_usage("--partition %llu: more than the %d SMs%s",
			  (unsigned long long)o->partition.min_sms,
			  ld->d.multiProcessorCount, of);
	if (st == OCC_ERR_UNSUPPORTED && !ld->part.split.group_sms)
		die_usage("--partition: %s has %s", dev, ld->d.major < 6 ? "no "
			  "green contexts (compute capability 6.0 on)" : "no "
			  "clusters: max-cluster-size is for compute capability "
			  "9.0 on");
	if (!ld->part.split.group_sms)
		die_usage("--partition %llu: %s: %s", (unsigned long long)
			  o->partition.min_sms, dev, occ_strerror(st));
	partition_part_refused(&ld->part.split, o->partition.group, st,
			       ld->d.multiProcessorCount, of);
}

/* The device the read stopped on: why --partition could not be applied. */
static _Noreturn void part_failed(const struct launch_run *run)
{
	const struct occ_diag *d = &run->part_d;

	if (run->part_st == OCC_ERR_SYNTAX)
		die("%s:%d: expected 'part GPU FLAGS GROUP_SMS GROUP HW API "
		    "SOURCE'", d->file, d->line);
	if (run->part_st == OCC_ERR_IO || run->part_st == OCC_ERR_NOT_REGULAR ||
	    run->part_st == OCC_ERR_LINE_TOO_LONG)
		die_data(run->part_st, d, run->part_errno, "");
	part_refused(run, run->part_dev, run->part_st);
}

static enum occ_status part_of(struct launch_run *run, struct launch_dev *ld)
{
	const struct options *o = run->s->o;
	char path[1024];
	enum occ_status st;

	if (!o->partition.given || ld->arch_status != OCC_OK)
		return OCC_OK;
	partition_parts_path(run->s, path, sizeof path);
	errno = 0;
	/* A layout given (--layout) is not the chip partitions.txt
	 * measured: the part's GPCs are not known. */
	st = occ_launch_part(&ld->arch, &ld->d,
			     ld->have_layout ? &ld->layout : NULL, path,
			     o->layout_text ? NULL : ld->listed,
			     o->partition.flags, (int)o->partition.min_sms,
			     o->partition.group, &ld->part, &run->part_d);
	if (st != OCC_OK) {
		run->part_dev = ld;
		run->part_st = st;
		run->part_errno = errno;
		return st;
	}
	ld->in_part = 1;
	if (o->partition.group >= 0)
		snprintf(ld->part_name, sizeof ld->part_name, "group %d",
			 o->partition.group);
	else
		snprintf(ld->part_name, sizeof ld->part_name, "remaining");
	return OCC_OK;
}

static enum occ_status on_device(void *ctx, const struct occ_launch_device *d)
{
	struct launch_run *run = ctx;
	struct launch_dev *ld, **all;
	enum occ_status st;
	size_t i;

	if (run->n_all == run->cap_all) {
		run->cap_all = run->cap_all ? 2 * run->cap_all : 8;
		all = realloc(run->all, run->cap_all * sizeof *all);
		if (!all)
			return OCC_ERR_NOMEM;
		run->all = all;
	}
	ld = calloc(1, sizeof *ld);
	if (!ld)
		return OCC_ERR_NOMEM;
	run->all[run->n_all++] = ld;
	ld->d = *d;
	ld->arch_status = occ_launch_arch(session_tables(run->s), d, &ld->arch);
	snprintf(ld->tag, sizeof ld->tag, "sm_%d%d", d->major, d->minor);
	layout_of(run, ld);
	if ((st = part_of(run, ld)) != OCC_OK)
		return st;
	for (i = 0; i < run->n_devs; i++)
		if (run->devs[i]->d.device == d->device)
			break;
	if (i == run->n_devs)
		run->n_devs++;
	run->devs[i] = ld;
	return OCC_OK;
}

static const struct launch_dev *dev_of(const struct launch_run *run, int id)
{
	size_t i;

	for (i = 0; i < run->n_devs; i++)
		if (run->devs[i]->d.device == id)
			return run->devs[i];
	return NULL;
}

/* The SMs and GPCs a device's launches are computed on: the whole
 * GPU's, or --partition's part's. */
static int dev_sms(const struct launch_dev *ld)
{
	return ld->in_part ? ld->part.sms : ld->d.multiProcessorCount;
}

static const struct occ_gpc_layout *dev_layout(const struct launch_dev *ld)
{
	if (ld->in_part)
		return ld->part.measured ? &ld->part.layout : NULL;
	return ld->have_layout ? &ld->layout : NULL;
}

static void model(struct launch_run *run, struct launch_row *r)
{
	enum skip why = SKIP_COUNT;

	if (!r->dev)
		why = SKIP_NO_DEVICE;
	else if (r->dev->arch_status == OCC_ERR_UNKNOWN_ARCH)
		why = SKIP_NO_TABLE;
	else if (r->dev->arch_status != OCC_OK)
		why = SKIP_BAD_DEVICE;
	else if (occ_launch_compute(&r->dev->arch, dev_sms(r->dev), r->l,
				    dev_layout(r->dev), &r->m) != OCC_OK)
		why = SKIP_SHAPE;
	if (why == SKIP_COUNT) {
		if (r->dev->in_part && !r->dev->part.measured &&
		    r->m.cluster_size > 1)
			run->part_unmeasured++;
		return;
	}
	run->skipped[why]++;
	r->not_modelled = skip_why[why];
}

static int wanted(const struct launch_run *run, const struct occ_launch_record *l)
{
	return !run->have_re || regexec(&run->re, l->kernel, 0, NULL, 0) == 0 ||
	       (l->mangled[0] && regexec(&run->re, l->mangled, 0, NULL, 0) == 0);
}

static enum occ_status on_launch(void *ctx, const struct occ_launch_record *l,
				 const struct occ_launch_device *d)
{
	struct launch_run *run = ctx;
	struct launch_row r;

	(void)d;
	if (!wanted(run, l)) {
		run->filtered++;
		return OCC_OK;
	}
	memset(&r, 0, sizeof r);
	r.file = run->file;
	r.l = l;
	r.dev = dev_of(run, l->device);
	model(run, &r);
	run->launches++;
	if (run->text) {
		launch_summary_add(run->sum, &r);
		if (run->s->checks)
			check_judge(run->s->checks, &r);
	} else
		out_row(&run->out, &r);
	return OCC_OK;
}

/* What a status means in a launch file, for its one line. */
static const char *launch_error(enum occ_status st)
{
	switch (st) {
	case OCC_ERR_SYNTAX: return "not JSON";
	case OCC_ERR_MISSING_KEY: return "missing";
	case OCC_ERR_BAD_VALUE: return "not a value of its type";
	case OCC_ERR_RANGE: return "out of range";
	case OCC_ERR_DUPLICATE_KEY: return "given twice";
	case OCC_ERR_UNSUPPORTED: return "a trace format this occcalc does "
				  "not read (version 1 only)";
	case OCC_ERR_CORRUPT: return "gzip stream corrupt or cut short";
	default: return occ_strerror(st);
	}
}

static _Noreturn void read_failed(enum occ_status st, const struct occ_diag *d)
{
	const char *what = launch_error(st);

	if (st == OCC_ERR_IO || st == OCC_ERR_NOT_REGULAR ||
	    st == OCC_ERR_LINE_TOO_LONG)
		die_data(st, d, st == OCC_ERR_IO ? errno : 0, "");
	/* The JSON reader's words say what is wrong. */
	if (st == OCC_ERR_SYNTAX && d->line > 0 && d->key[0])
		die("%s:%d: %s", d->file, d->line, d->key);
	if (d->line > 0 && d->key[0])
		die("%s:%d: %s: %s", d->file, d->line, d->key, what);
	if (d->line > 0)
		die("%s:%d: %s", d->file, d->line, what);
	if (d->offset && d->key[0])
		die("%s: byte %" PRIu64 ": %s: %s", d->file, d->offset, d->key,
		    what);
	if (d->key[0])
		die("%s: %s: %s", d->file, d->key, what);
	die("%s: %s", d->file, what);
}

/* What a file's read said beyond its launches: one line each. */
static void file_notes(const char *path, const struct occ_launch_file *fi)
{
	if (fi->format == OCC_LAUNCH_FORMAT_KINETO)
		warn("%s: a Kineto trace records no cluster dimensions, no "
		     "static/dynamic split of shared memory and no carveout: "
		     "its launches are modelled without clusters, at the SM's "
		     "largest carveout", path);
	if (fi->format == OCC_LAUNCH_FORMAT_KINETO && fi->cut_short)
		warn("%s: cut short at byte %" PRIu64 " of its JSON (inside "
		     "traceEvents): %" PRIu64 " launch%s read up to there",
		     path, fi->bytes, fi->launches,
		     fi->launches == 1 ? "" : "es");
	if (fi->format != OCC_LAUNCH_FORMAT_OCCCALC)
		return;
	if (!fi->complete)
		warn("%s: cut short (no end record): %" PRIu64 " launch%s read "
		     "up to its last whole line", path, fi->launches,
		     fi->launches == 1 ? "" : "es");
	if (fi->dropped > 0)
		warn("%s: CUPTI dropped %" PRId64 " record%s: launches missing "
		     "from the trace", path, fi->dropped, plural(fi->dropped));
	if (fi->complete && fi->declared >= 0 &&
	    (uint64_t)fi->declared != fi->launches)
		warn("%s: its end record counts %" PRId64 " launches, the file "
		     "holds %" PRIu64, path, fi->declared, fi->launches);
	if (fi->skipped)
		warn("%s: %" PRIu64 " record%s of a type this occcalc does not "
		     "know skipped", path, fi->skipped, plural(fi->skipped));
}

/* fd >= 0: the file already open (--trace's, checked as its run's). */
static void read_one(struct launch_run *run, const char *path, int fd)
{
	static const struct occ_launch_callbacks cb = { on_device, on_launch };
	struct occ_launch_file fi;
	struct occ_diag d;
	enum occ_status st;

	run->file = path;
	run->n_devs = 0;
	st = fd >= 0 ? occ_launches_read_fd(fd, path, &cb, run, &fi, &d) :
		       occ_launches_read_file(path, &cb, run, &fi, &d);
	if (run->part_dev)
		part_failed(run);
	if (st != OCC_OK)
		read_failed(st, &d);
	if (run->sum)
		launch_summary_file(run->sum);
	file_notes(path, &fi);
}

/* Rows are judged by --check as they are read, so a file that cannot be
 * opened is refused before the first is read: found after, its line
 * would follow the failed rows' lines. */
static void files_openable(const char *const *files, int n)
{
	struct occ_diag d;
	struct stat sb;
	int i, fd, e;

	for (i = 0; i < n; i++) {
		memset(&d, 0, sizeof d);
		snprintf(d.file, sizeof d.file, "%s", files[i]);
		fd = open(files[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			read_failed(OCC_ERR_IO, &d);
		e = fstat(fd, &sb) != 0 ? errno : 0;
		close(fd);
		if (e) {
			errno = e;
			read_failed(OCC_ERR_IO, &d);
		}
		if (!S_ISREG(sb.st_mode))
			read_failed(OCC_ERR_NOT_REGULAR, &d);
	}
}

static void skipped_notes(const struct launch_run *run)
{
	int i;

	for (i = 0; i < SKIP_COUNT; i++)
		if (run->skipped[i])
			warn("%" PRIu64 " launch%s %s: no occupancy figures",
			     run->skipped[i], run->skipped[i] == 1 ? "" : "es",
			     skip_why[i]);
	if (run->filtered)
		warn("%" PRIu64 " launch%s of kernels --kernel does not match "
		     "left out", run->filtered, run->filtered == 1 ? "" : "es");
	if (run->part_unmeasured)
		warn("%" PRIu64 " cluster launch%s in --partition's %s, whose "
		     "GPCs are not measured on its GPU (partitions.txt): no "
		     "cluster figures", run->part_unmeasured,
		     run->part_unmeasured == 1 ? "" : "es",
		     run->s->o->partition.group >= 0 ? "group" : "remainder");
}

void launches_free(struct launch_run *run)
{
	size_t i;

	if (!run)
		return;
	for (i = 0; i < run->n_all; i++)
		free(run->all[i]);
	free(run->all);
	if (run->have_re)
		regfree(&run->re);
	launch_summary_free(run->sum);
	free(run);
}

/* Everything that can refuse the options, done before any file is read
 * (and, for --trace, before the command runs). */
static void run_prepare(struct session *s, struct launch_run *run)
{
	const struct options *o = s->o;
	char msg[256];
	int e;

	run->s = s;
	run->text = o->format == OUT_TEXT && !o->fields;
	if (o->kernel_re) {
		e = regcomp(&run->re, o->kernel_re, REG_EXTENDED | REG_NOSUB);
		if (e) {
			regerror(e, &run->re, msg, sizeof msg);
			die_usage("--kernel: '%s': %s", o->kernel_re, msg);
		}
		run->have_re = 1;
	}
	/* What the callbacks use, found before any file is read. */
	session_tables(s);
	session_gpus(s);
	fieldsel_make(&run->sel, &kind_launches, o->fields,
		      o->partition.given ? DEFAULT_FIELDS_PART : DEFAULT_FIELDS);
	if (run->text) {
		check_prepare(s, &kind_launches);
		run->sum = launch_summary_new();
		if (!run->sum)
			die("out of memory");
		return;
	}
	out_open(&run->out, stdout, o->format, &run->sel);
	out_style(&run->out, o->format_style);
	check_attach(s, &run->out, &kind_launches);
}

void launches_prepare(struct session *s)
{
	struct launch_run *run = calloc(1, sizeof *run);

	if (!run)
		die("out of memory");
	/* Held by the session, so that a file that fails midway is freed
	 * with it (cli_free). */
	launches_free(s->launches);
	s->launches = run;
	run_prepare(s, run);
}

int launches_report(struct session *s, const char *const *files,
		    const int *fds, int n, uint64_t *launches)
{
	struct launch_run *run = s->launches;
	int i;

	if (!fds)
		files_openable(files, n);
	for (i = 0; i < n; i++)
		read_one(run, files[i], fds ? fds[i] : -1);
	if (run->text)
		launch_summary_print(stdout, run->sum, s->o->achieved ?
				     (size_t)s->o->achieved_top : 0);
	else
		out_close(&run->out);
	skipped_notes(run);
	if (launches)
		*launches = run->launches;
	launches_free(run);
	s->launches = NULL;
	return 0;
}

int mode_launches(struct session *s)
{
	const struct options *o = s->o;
	const char *files[1 + 4096];
	int i, n = 0;

	if (o->n_more_launches >= (int)(sizeof files / sizeof files[0]))
		die_usage("--launches: at most %zu files",
			  sizeof files / sizeof files[0]);
	files[n++] = o->launches;
	for (i = 0; i < o->n_more_launches; i++)
		files[n++] = o->more_launches[i];
	launches_prepare(s);
	return launches_report(s, files, NULL, n, NULL);
}
