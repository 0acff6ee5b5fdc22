/*
 * partition.c - --partition, --partition-flags, --partition-part: the SMs
 * a green context made by cuDevSmResourceSplitByCount gets, computed in
 * as the GPU's (waves, clusters), from the library's split and the
 * measured layouts of partitions.txt; with --api, the split and the green
 * context made on the device and its answers beside the model.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"

/* ---- Arguments ---- */

/* The words are the library's (occ_partition_flags_parse): here only
 * what is wrong with them. */
void arg_partition_flags(const char *opt, const char *arg, struct options *o)
{
	struct occ_diag d;

	(void)opt;
	switch (occ_partition_flags_parse(arg, &o->partition.flags, &d)) {
	case OCC_OK:
		return;
	case OCC_ERR_RANGE:
		die_usage("--partition-flags: '%.40s...': too long", arg);
	case OCC_ERR_UNKNOWN_KEY:
		die_usage("--partition-flags: '%s': not a flag "
			  "(ignore-coscheduling, max-cluster-size, default)",
			  d.key);
	case OCC_ERR_INVALID_INPUT:
		die_usage("--partition-flags: ignore-coscheduling and "
			  "max-cluster-size together: the driver refuses the "
			  "pair (CUDA_ERROR_INVALID_VALUE)");
	default:
		die_usage("--partition-flags: '%s': empty value", arg);
	}
}

/* "group" (the first), "group:N" or "remaining", as the library reads
 * them (occ_partition_part_parse); a number it refuses is worded as
 * other options' numbers are. */
void arg_partition_part(const char *opt, const char *arg, struct options *o)
{
	(void)opt;
	if (occ_partition_part_parse(arg, &o->partition.group) == OCC_OK)
		return;
	if (strncmp(arg, "group:", 6) == 0 && arg[6])
		o->partition.group = (int)arg_number("partition-part", arg + 6,
						     0, 1023);
	else
		die_usage("--partition-part: '%s': not a part (group, group:N, "
			  "remaining)", arg);
}

/* ---- The GPU split ---- */

void partition_parts_path(struct session *s, char *buf, size_t n)
{
	char *slash;

	session_gpus_path(s, buf, n);
	slash = strrchr(buf, '/');
	snprintf(slash ? slash + 1 : buf, n - (size_t)(slash ? slash + 1 - buf : 0),
		 "partitions.txt");
}

/* The GPU's name in the list: --gpu's, or the device's by its name. */
static const char *listed_name(struct session *s)
{
	struct occ_gpu_match m;

	if (s->o->gpu)
		return s->gpu_name;
	if (s->have_dev && occ_gpus_match(session_gpus(s), s->dev.name, &m) ==
	    OCC_OK && m.n == 1 && !m.ambiguous) {
		s->listed = *m.gpu[0];
		snprintf(s->gpu_name, sizeof s->gpu_name, "%s", m.gpu[0]->name);
		return s->gpu_name;
	}
	return NULL;
}

/* The GPU's layout by the library's rule (occ_target_layout): --layout,
 * or the GPU list's of name. t->sms: the GPU's SMs where known, else
 * the layout's or the list's; a layout of other SMs is refused. */
static void gpu_layout(struct session *s, const char *name,
		       const struct occ_arch *a, struct occ_target *t)
{
	const struct options *o = s->o;
	struct occ_layout_request r = { .given = NULL };
	struct occ_diag d;
	char path[1024];
	enum occ_status st;

	occ_target_table(a, t);
	t->sms = s->have_dev ? s->dev.sms : (int)o->sms;
	t->gpu = name ? &s->listed : NULL;
	if (o->layout_text)
		r.given = &o->layout;
	session_gpus_path(s, path, sizeof path);
	r.gpus_path = path;
	errno = 0;
	st = occ_target_layout(t, &r, &d);
	if (t->mismatch == OCC_LAYOUT_GIVEN || t->mismatch == OCC_LAYOUT_LISTED)
		die_usage("--partition: the GPC layout has %d SMs, the GPU %d",
			  t->mismatch_sms, t->sms);
	if (st != OCC_OK)
		session_gpus_failed(st, &d, errno);
}

void partition_parts_failed(enum occ_status st, const struct occ_diag *d,
			   int err)
{
	if (st == OCC_ERR_SYNTAX)
		die("%s:%d: expected 'part GPU FLAGS GROUP_SMS GROUP HW API "
		    "SOURCE'", d->file, d->line);
	if (st == OCC_ERR_IO || st == OCC_ERR_NOT_REGULAR ||
	    st == OCC_ERR_LINE_TOO_LONG)
		die_data(st, d, err, "");
}

void partition_part_refused(const struct occ_partition_split *p, int group,
			    enum occ_status st, int gpu_sms, const char *of)
{
	int exact = p->groups_min == p->groups_max;

	if (st == OCC_ERR_RANGE && group >= 0 && exact)
		die_usage("--partition-part group:%d: the split%s makes %d group%s "
			  "of %d SMs (group:0 to group:%d)", group, of, p->groups,
			  plural(p->groups), p->group_sms, p->groups - 1);
	if (st == OCC_ERR_RANGE && group >= 0)
		die_usage("--partition-part group:%d: the split%s makes at most %d "
			  "group%s of %d SMs", group, of, p->groups_max,
			  plural(p->groups_max), p->group_sms);
	if (st == OCC_ERR_UNSUPPORTED)
		die_usage("--partition-part remaining: the SMs left over%s depend "
			  "on the GPU's GPC layout, which is not measured (at most "
			  "%d)", of, gpu_sms - p->groups_min * p->group_sms);
	if (st == OCC_ERR_RANGE)
		die_usage("--partition-part remaining: a split%s into groups of %d "
			  "SMs leaves none of the %d over", of, p->group_sms,
			  gpu_sms);
	die_usage("--partition-part: %s", occ_strerror(st));
}

/* The table the split's rules are for: the device's, or --arch's. */
static const struct occ_arch *partition_arch(struct session *s)
{
	const struct options *o = s->o;

	if (o->gpu_list || o->device_all || s->n_targets)
		die_usage("--partition computes in a part of one GPU: leave out "
			  "--gpu LIST, --arch LIST and --device all");
	if (s->have_dev || o->api || (!o->arch && !o->gpu))
		return session_device_arch(s);
	return session_find_arch(s, o->arch);
}

/* The split, the part or partitions.txt refused
 * (occ_partition_row_compute). */
static _Noreturn void split_refused(const struct session *s,
				    const struct occ_arch *a,
				    const struct occ_partition_row *p,
				    enum occ_status st, const struct occ_diag *d,
				    int err)
{
	const struct options *o = s->o;
	const struct occ_partition_split *split = &p->part.split;
	char tag[16];

	if (p->gpu_sms <= 0)
		die_usage("--partition needs the GPU's SMs: --gpu NAME, the "
			  "device, or --sms N");
	if (o->partition.min_sms > (uint64_t)p->gpu_sms)
		die_usage("--partition %llu: more than the GPU's %d SMs "
			  "(minCount is 0 to the SM count)",
			  (unsigned long long)o->partition.min_sms, p->gpu_sms);
	arch_tag(tag, sizeof tag, a);
	if (st == OCC_ERR_UNSUPPORTED && !split->group_sms)
		die_usage("--partition: %s %s", tag,
			  a->cc_major < 6 ? "has no green contexts (compute "
			  "capability 6.0 on)" : "has no clusters: "
			  "max-cluster-size is for compute capability 9.0 on");
	if (!split->group_sms)
		die_usage("--partition %llu: %s", (unsigned long long)
			  o->partition.min_sms, occ_strerror(st));
	partition_parts_failed(st, d, err);
	partition_part_refused(split, o->partition.group, st, p->gpu_sms, "");
}

void partition_prepare(struct session *s)
{
	struct session_partition *P = &s->partition;
	struct options *o = s->o;
	const struct occ_arch *a;
	struct occ_target t;
	struct occ_diag d;
	enum occ_status st;
	char path[1024];

	if (!o->partition.given || P->on)
		return;
	memset(P, 0, sizeof *P);
	a = partition_arch(s);
	gpu_layout(s, listed_name(s), a, &t);
	partition_parts_path(s, path, sizeof path);
	errno = 0;
	/* min_sms: NUM(0, 1024), so an int. */
	st = occ_partition_row_compute(&t, path, o->partition.flags,
				       (int)o->partition.min_sms,
				       o->partition.group, &P->m, &d);
	if (st != OCC_OK)
		split_refused(s, a, &P->m, st, &d, errno);
	P->on = 1;
	o->sms = (uint64_t)P->m.part.sms;
	if (o->api)
		partition_on_device(s);
}

/* --cluster inside the part: the library's layout there. */
int partition_cluster_layout(struct session *s, const struct occ_arch *a)
{
	struct session_partition *P = &s->partition;

	if (!P->on)
		return 0;
	occ_partition_cluster_layout(a, &P->m, s->gpu_name, &s->layout);
	return 1;
}

/* ---- On the device (--api) ---- */

/* The driver's split within the model's: equal where the model is exact,
 * at most its bounds where not. */
static int split_agrees(const struct session_partition *P)
{
	const struct occ_partition_split *p = &P->m.part.split;

	if (P->driver_group_sms != p->group_sms ||
	    P->driver_groups < p->groups_min || P->driver_groups > p->groups_max)
		return 0;
	if (P->m.bound_remaining)
		return P->driver_part_sms == P->m.part.sms;
	return P->driver_remaining_sms == p->remaining_sms &&
	       P->driver_part_sms == P->m.part.sms;
}

void partition_on_device(struct session *s)
{
	struct session_partition *P = &s->partition;
	const struct options *o = s->o;
	struct gpu_partition g;
	char err[256];

	if (o->mode == MODE_KERNELS)
		die_usage("--kernels --api asks the driver about each kernel on "
			  "the whole GPU: with --partition, leave out --api");
	if (gpu_partition_enter(&s->gpu, o->partition.flags,
				(int)o->partition.min_sms, o->partition.group,
				&g, err, sizeof err) != 0)
		session_device_failed(s, err);
	P->have_driver = 1;
	P->driver_groups = g.groups;
	P->driver_group_sms = g.group_sms;
	P->driver_remaining_sms = g.remaining_sms;
	P->driver_part_sms = g.part_sms;
	P->driver_sm_attr = g.sm_attr;
	P->agrees = split_agrees(P);
	if (!P->agrees) {
		s->disagreements++;
		warn("--partition %llu: the driver made %d group%s of %d SMs and "
		     "left %d over; the model says %d of %d and %d",
		     (unsigned long long)o->partition.min_sms, g.groups,
		     plural(g.groups), g.group_sms, g.remaining_sms,
		     P->m.part.split.groups, P->m.part.split.group_sms,
		     P->m.part.split.remaining_sms);
	}
}
