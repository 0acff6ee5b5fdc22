/*
 * mode_list.c - the listings: the architectures that have a table, the
 * GPU models --gpu knows, this machine's CUDA devices, and the fields of
 * every kind of row (what --fields takes, as the man page documents).
 */
#include <string.h>

#include "cli.h"
#include "launches.h"

#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define STR_GETTER(fn, T, expr) GETTER(fn) { const T *r = p; \
	(void)f; v->type = OCC_VAL_STR; v->s = (expr); }
#define UINT_GETTER(fn, T, expr) GETTER(fn) { const T *r = p; \
	(void)f; v->type = OCC_VAL_UINT; v->u = (uint64_t)(expr); }
#define COL(label, width, gap) { label, width, gap, 0, NULL, 0 }

/* A device's row: its compute capability written out. */
struct list_row {
	const void *item;
	char cc[16];
};

/* n rows of size bytes each at rows. */
static void list_all(struct session *s, const struct occ_row_kind *kind,
		     const char *defaults, const void *rows, size_t size,
		     size_t n)
{
	struct fieldsel sel;
	struct out out;
	size_t i;

	fieldsel_make(&sel, kind, s->o->fields, defaults);
	out_open(&out, stdout, s->o->format, &sel);
	out_style(&out, s->o->format_style);
	check_attach(s, &out, kind);
	for (i = 0; i < n; i++)
		out_row(&out, (const char *)rows + i * size);
	out_close(&out);
}

/* ---- --list-archs: the library's rows (occcalc/lists.h) ---- */

static int run_list_archs(struct session *s)
{
	const struct occ_tables *t = session_tables(s);
	struct occ_arch_row rows[256];
	size_t i, n = occ_tables_count(t);

	for (i = 0; i < n && i < 256; i++)
		occ_arch_row_init(&rows[i], occ_tables_get(t, i));
	list_all(s, &occ_archs_kind, OCC_ARCHS_FIELDS, rows, sizeof rows[0],
		 i);
	return 0;
}

const struct mode mode_list_archs = {
	.name = "--list-archs",
	.run = run_list_archs,
	.tables = TABLES_READ,
	.kinds = { &occ_archs_kind },
};

/* ---- --list-devices ---- */

#define DEV(r) ((const struct occ_device *)(r)->item)
STR_GETTER(get_cc, struct list_row, r->cc)
UINT_GETTER(get_dev_index, struct list_row, DEV(r)->index)
UINT_GETTER(get_dev_sms, struct list_row, DEV(r)->sms)
UINT_GETTER(get_dev_memory, struct list_row, DEV(r)->total_mem)
STR_GETTER(get_dev_name, struct list_row, DEV(r)->name)
static const char *sm_limit_name(enum sm_limit l)
{
	switch (l) {
	case SM_LIMIT_MIG: return "mig";
	case SM_LIMIT_MPS: return "mps";
	case SM_LIMIT_MPS_CLIENT: return "mps_percentage";
	case SM_LIMIT_MPS_SERVER: return "mps_server";
	default: return "none";
	}
}
STR_GETTER(get_dev_sm_limit, struct list_row, sm_limit_name(DEV(r)->sm_limit))
GETTER(get_dev_gpu_sms)
{
	const struct list_row *r = p;

	(void)f;
	v->type = DEV(r)->gpu_sms ? OCC_VAL_UINT : OCC_VAL_NULL;
	v->u = (uint64_t)DEV(r)->gpu_sms;
}
GETTER(get_dev_mps_pct)
{
	const struct list_row *r = p;

	(void)f;
	v->type = DEV(r)->mps_pct ? OCC_VAL_UINT : OCC_VAL_NULL;
	v->u = (uint64_t)DEV(r)->mps_pct;
}

static const struct occ_field device_fields[] = {
	{ "device", OCC_FT_INT, "the CUDA device's index", get_dev_index, NULL,
	  COL(NULL, -6, 0), 0, 0 },
	{ "computeCapability", OCC_FT_STR, "its compute capability, X.Y",
	  get_cc, NULL, COL("cc", -5, 1), 0, 0 },
	{ "multiProcessorCount", OCC_FT_INT, "its SMs", get_dev_sms, NULL,
	  COL("sms", 5, 1), 0, 0 },
	{ "totalGlobalMem", OCC_FT_INT, "its memory, bytes", get_dev_memory, NULL,
	  COL("memory", 14, 1), 0, 0 },
	{ "name", OCC_FT_STR, "its name", get_dev_name, NULL, COL(NULL, 0, 2),
	  0, 0 },
	{ "sm_limit", OCC_FT_STR, "what limits the SMs this process has, which "
	  "multiProcessorCount says: mig (the instance's), mps_percentage "
	  "(an MPS client's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE), mps_server "
	  "(its MPS server's percentage, lower), mps (an MPS client with all "
	  "of them), none", get_dev_sm_limit, NULL, COL(NULL, 0, 2), 0, 0 },
	{ "gpu_sms", OCC_FT_INT, "an MPS client's whole GPU's SMs, from the GPU "
	  "list by name (absent: not an MPS client, or not listed)",
	  get_dev_gpu_sms, NULL, COL(NULL, 0, 2), 0, 0 },
	{ "mps_active_thread_percentage", OCC_FT_INT, "CUDA_MPS_ACTIVE_THREAD_"
	  "PERCENTAGE of an MPS client (absent: none)", get_dev_mps_pct, NULL,
	  COL(NULL, 0, 2), 0, 0 },
};

const struct occ_row_kind kind_devices = {
	"list-devices", device_fields,
	sizeof device_fields / sizeof device_fields[0], NULL
};

static int run_list_devices(struct session *s)
{
	struct occ_device devs[64];
	struct list_row rows[64];
	char err[256] = "";
	int n, i;

	if (device_count(&n, err, sizeof err) != 0)
		die("no CUDA device: %s", err);
	if (n == 0)
		die("no CUDA device found");
	for (i = 0; i < n && i < 64; i++) {
		if (device_query(i, &devs[i], err, sizeof err) != 0)
			die("device %d: %s", i, err);
		session_sm_limit(s, &devs[i]);
		rows[i].item = &devs[i];
		snprintf(rows[i].cc, sizeof rows[i].cc, "%d.%d",
			 devs[i].cc_major, devs[i].cc_minor);
	}
	list_all(s, &kind_devices, "device,computeCapability,"
		 "multiProcessorCount,totalGlobalMem,name", rows, sizeof rows[0],
		 (size_t)i);
	return 0;
}

const struct mode mode_list_devices = {
	.name = "--list-devices",
	.run = run_list_devices,
	.tables = TABLES_NONE,
	.kinds = { &kind_devices },
};

/* ---- --list-gpus: the GPU models beside the tables, the library's
 * rows ---- */

static int run_list_gpus(struct session *s)
{
	const struct occ_gpus *l = session_gpus(s);
	struct occ_gpu_row rows[256];
	size_t i;

	for (i = 0; i < occ_gpus_count(l) && i < 256; i++)
		occ_gpu_row_init(&rows[i], occ_gpus_get(l, i));
	list_all(s, &occ_gpus_kind, OCC_GPUS_FIELDS, rows, sizeof rows[0], i);
	return 0;
}

const struct mode mode_list_gpus = {
	.name = "--list-gpus",
	.run = run_list_gpus,
	.tables = TABLES_DIR,
	.kinds = { &occ_gpus_kind },
};

/* ---- --list-fields ---- */

struct field_row {
	const struct occ_row_kind *kind;
	const struct occ_field *field;
};

STR_GETTER(get_kind, struct field_row, r->kind->name)
STR_GETTER(get_field_name, struct field_row, r->field->name)
STR_GETTER(get_field_type, struct field_row, occ_field_type_name(r->field->type))
STR_GETTER(get_field_desc, struct field_row, r->field->desc)

static const struct occ_field meta_fields[] = {
	{ "kind", OCC_FT_STR, "the kind of row: the mode that prints it",
	  get_kind, NULL, COL(NULL, -12, 0), 0, 0 },
	{ "field", OCC_FT_STR, "the field's name", get_field_name, NULL,
	  COL(NULL, -32, 1), 0, 0 },
	{ "type", OCC_FT_STR, "integer, decimal, string, boolean, set or list",
	  get_field_type, NULL, COL(NULL, -8, 1), 0, 0 },
	{ "description", OCC_FT_STR, "what it holds", get_field_desc, NULL,
	  COL(NULL, 0, 1), 0, 0 },
};

const struct occ_row_kind kind_fields = {
	"list-fields", meta_fields,
	sizeof meta_fields / sizeof meta_fields[0], NULL
};

/* Whether a mode before modes[m] prints kind already. */
static int kind_listed(size_t m, const struct occ_row_kind *kind)
{
	size_t i, j;

	for (i = 0; i < m; i++)
		for (j = 0; j < MODE_KINDS; j++)
			if (modes[i]->kinds[j] == kind)
				return 1;
	return 0;
}

static void list_kind(struct out *out, const struct occ_row_kind *kind)
{
	struct field_row row;
	size_t i;

	for (i = 0; i < occ_row_kind_count(kind); i++) {
		row.kind = kind;
		row.field = occ_row_kind_field(kind, i);
		out_row(out, &row);
	}
}

/* Each mode's kinds of row, in modes[]' order, each once. */
static int run_list_fields(struct session *s)
{
	struct fieldsel sel;
	struct out out;
	size_t m, k;

	fieldsel_make(&sel, &kind_fields, s->o->fields,
		      "kind,field,type,description");
	out_open(&out, stdout, s->o->format, &sel);
	out_style(&out, s->o->format_style);
	check_attach(s, &out, &kind_fields);
	for (m = 0; m < modes_n; m++)
		for (k = 0; k < MODE_KINDS; k++)
			if (modes[m]->kinds[k] &&
			    !kind_listed(m, modes[m]->kinds[k]))
				list_kind(&out, modes[m]->kinds[k]);
	out_close(&out);
	return 0;
}

const struct mode mode_list_fields = {
	.name = "--list-fields",
	.run = run_list_fields,
	.tables = TABLES_NONE,
	.kinds = { &kind_fields },
};
