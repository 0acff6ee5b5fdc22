/*
 * occcalc/lists.h - the rows of the listings and of an architecture's
 * record: a table (`occcalc --list-archs`), a GPU of the list beside the
 * tables (`--list-gpus`), and a table's values under their cudaDeviceProp
 * names (`--arch ARCH --info`). Each is a row struct filled by one
 * function and a kind of row (occcalc/fields.h) whose fields are the
 * command line's, so a program prints what occcalc prints.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_LISTS_H
#define OCCCALC_LISTS_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/lists.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A table, as --list-archs lists it. */
struct occ_arch_row {
	const struct occ_arch *a;
	char arch[16];                   /* sm_90 */
	char cc[16];                     /* 9.0 */
};

void occ_arch_row_init(struct occ_arch_row *row, const struct occ_arch *a);
/* Its fields (struct occ_arch_row rows): arch, computeCapability, name,
 * products. */
extern const struct occ_row_kind occ_archs_kind;
/* The fields --list-archs shows unless --fields says otherwise. */
#define OCC_ARCHS_FIELDS "arch,computeCapability,name,products"

/* A GPU of the list, as --list-gpus lists it. */
struct occ_gpu_row {
	const struct occ_gpu *g;
	char cc[16];                     /* 9.0 */
};

void occ_gpu_row_init(struct occ_gpu_row *row, const struct occ_gpu *g);
/* Its fields (struct occ_gpu_row rows): name, computeCapability,
 * multiProcessorCount, source, the L2's and aliases. */
extern const struct occ_row_kind occ_gpus_kind;
/* The fields --list-gpus shows unless --fields says otherwise. */
#define OCC_GPUS_FIELDS "name,computeCapability,multiProcessorCount,source"

/* An architecture's record (--info): a table, or a device's properties
 * put over its table (occ_target_device's t->arch over t->table). */
struct occ_info_row {
	const struct occ_arch *a;        /* the values shown */
	const struct occ_arch *table;    /* the table under them (a itself) */
	int contradictions;              /* device values the table says
					    otherwise (occ_info_add_contradictions) */
};

void occ_info_row_init(struct occ_info_row *row, const struct occ_arch *a,
		       const struct occ_arch *table);

/* The fields of a record are its table keys (occ_arch_key) that a has, so
 * they are made at run time, into this. */
#define OCC_INFO_MAX_FIELDS 128
#define OCC_INFO_MAX_CONTRADICTIONS 32
struct occ_info_fields {
	struct occ_field f[OCC_INFO_MAX_FIELDS];
	size_t n;
	char names[OCC_INFO_MAX_CONTRADICTIONS][96];   /* table.KEY */
	size_t n_names;
};

/* The record's fields, as --info writes them: the keys a has; where the
 * table says otherwise of a device's key, table.KEY (the table's value)
 * each and tableContradictions; then source. x is emptied first. */
void occ_info_fields_make(struct occ_info_fields *x, struct occ_info_row *row);
/* The parts, for a caller that puts fields of its own between them:
 * f (copied; a field beyond OCC_INFO_MAX_FIELDS is dropped), the keys a
 * has, and table.KEY of each key a device gives (occ_target_device_key)
 * whose value row->table has otherwise, counted in row->contradictions. */
void occ_info_add(struct occ_info_fields *x, const struct occ_field *f);
void occ_info_add_keys(struct occ_info_fields *x, const struct occ_arch *a);
void occ_info_add_contradictions(struct occ_info_fields *x,
				 struct occ_info_row *row);
/* The record's object ({"computeCapability":"9.0",...}) into buf, as
 * occ_row_json: `occcalc --arch ARCH --info -f json`'s. */
size_t occ_info_json(struct occ_info_row *row, char *buf, size_t cap);
/* The record's fields that are no key (struct occ_info_row rows):
 * tableContradictions and source. */
extern const struct occ_row_kind occ_info_kind;

#ifdef __cplusplus
}
#endif

#endif
