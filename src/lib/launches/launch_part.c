/*
 * launch_part.c - a traced launch as if it ran in a part of its GPU (a
 * green context): the split of the SMs the trace recorded, the part's
 * SMs, and its GPCs where partitions.txt holds them measured.
 */
#include <string.h>

#include "launches_int.h"

enum occ_status occ_launch_part(const struct occ_arch *arch,
				const struct occ_launch_device *d,
				const struct occ_gpc_layout *gpu_layout,
				const char *parts_path, const char *name,
				unsigned flags, int min_sms, int group,
				struct occ_launch_part *p,
				struct occ_diag *diag)
{
	struct occ_partition_part part;
	enum occ_status st;

	memset(p, 0, sizeof *p);
	p->flags = flags;
	p->group = group;
	if (gpu_layout && gpu_layout->sms != d->multiProcessorCount)
		gpu_layout = NULL;      /* another chip's: not this device's */
	st = occ_partition_split(arch, d->multiProcessorCount, gpu_layout,
				 flags, min_sms, &p->split);
	if (st != OCC_OK)
		return st;
	st = occ_partition_part_sms(&p->split, group, &p->sms);
	if (st != OCC_OK || !parts_path || !name)
		return st;
	st = occ_partition_part_find(parts_path, name, flags,
				     p->split.group_sms, group, &part, diag);
	if (st == OCC_ERR_UNKNOWN_ARCH)
		return OCC_OK;          /* not measured */
	if (st != OCC_OK)
		return st;
	/* A part line of another chip of that name (fewer SMs): not this. */
	if (part.hw.sms != p->sms)
		return OCC_OK;
	p->measured = 1;
	p->layout = part.hw;
	p->api = part.api;
	occ_copy_string(p->source, sizeof p->source, part.source);
	return OCC_OK;
}
