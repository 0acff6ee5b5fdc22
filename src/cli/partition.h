/* partition.h - --partition: the split of the GPU's SMs a green context
 * gets (partition.c), computed in, and what the driver says of it. */
#ifndef OCC_CLI_PARTITION_H
#define OCC_CLI_PARTITION_H

#include <stdint.h>

#include "occcalc.h"

struct session;
struct options;

struct partition_request {
	int given;                     /* --partition */
	uint64_t min_sms;              /* its minCount */
	unsigned flags;                /* --partition-flags: occ_partition_flag */
	int group;                     /* --partition-part: a group's index,
					  or OCC_PARTITION_REMAINING */
};

/* The part a run computes in: the library's (occ_partition_row_compute),
 * and with --api the driver's. */
struct session_partition {
	int on;
	struct occ_partition_row m;
	/* --api: what the driver made (gpu_partition_enter). */
	int have_driver;
	int driver_groups, driver_group_sms, driver_remaining_sms;
	int driver_part_sms, driver_sm_attr;
	int agrees;                    /* the driver's split is the model's */
};

void arg_partition_flags(const char *opt, const char *arg,
			 struct options *o);
void arg_partition_part(const char *opt, const char *arg, struct options *o);

/* --partition: the split for the GPU (the device, --gpu, or --arch with
 * --sms), the part's SMs made the run's (--sms for the waves), its layout
 * found; with --api, the green context made on the device. A usage error
 * where the split cannot be made. Nothing without --partition. */
void partition_prepare(struct session *s);
/* Exits where partitions.txt could not be read (st from
 * occ_target_part, errno's err); returns for any other status. */
void partition_parts_failed(enum occ_status st, const struct occ_diag *d,
			    int err);
/* --cluster in the part: its layout made the session's; 0 without
 * --partition. */
int partition_cluster_layout(struct session *s, const struct occ_arch *a);
/* --api: the split and the part's green context made on the device
 * (partition_gpu.c), the session's GPU calls running in it. */
void partition_on_device(struct session *s);
/* A part the split does not make (occ_partition_part_sms's status st),
 * refused: `of` names the GPU after "the split" ("" or " of device 0
 * ..."). */
void partition_part_refused(const struct occ_partition_split *p, int group,
			    enum occ_status st, int gpu_sms, const char *of)
	__attribute__((noreturn));
/* partitions.txt's path: beside the GPU list. */
void partition_parts_path(struct session *s, char *buf, size_t n);

#endif
