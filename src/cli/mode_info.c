/*
 * mode_info.c - --info: an architecture table's values under their
 * cudaDeviceProp names; for a GPU, its table merged with what it reports,
 * its own properties, and the table values it contradicts. One record:
 * 'key value' lines in text, 'key,value' rows in CSV, one object in JSON.
 */
#include <string.h>

#include "cli.h"

struct info_row {
	const struct occ_arch *a;        /* the table, or the merged one */
	const struct occ_arch *table;    /* the table alone */
	const struct occ_device *d;      /* NULL: no GPU */
	int contradictions;
};

#define ROW const struct info_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define DEV_GETTER(fn, expr) GETTER(fn) { ROW; v->type = OCC_VAL_UINT; \
	v->u = (uint64_t)(expr); }

/* A table key's value (arg: its index). */
GETTER(get_key)
{
	ROW;
	const struct occ_key *key = occ_arch_key(f->arg);

	switch (key->type) {
	case OCC_KEY_CC:
		snprintf(v->buf, sizeof v->buf, "%d.%d", r->a->cc_major,
			 r->a->cc_minor);
		v->type = OCC_VAL_STR;
		v->s = v->buf;
		break;
	case OCC_KEY_STRING:
		v->type = OCC_VAL_STR;
		v->s = strcmp(key->name, "name") == 0 ? r->a->name
						       : r->a->products;
		break;
	case OCC_KEY_INT:
	case OCC_KEY_BYTES:
		v->type = OCC_VAL_UINT;
		v->u = occ_arch_value(r->a, key);
		break;
	case OCC_KEY_BYTES_LIST:
		v->type = OCC_VAL_LIST;
		v->list = r->a->smem_carveouts;
		v->n = (size_t)r->a->n_smem_carveouts;
		break;
	}
}

/* A device value the table says otherwise: the table's (arg: key). */
GETTER(get_table_key)
{
	ROW;
	v->type = OCC_VAL_UINT;
	v->u = occ_arch_value(r->table, occ_arch_key(f->arg));
}

DEV_GETTER(get_device, r->d->index)
GETTER(get_device_name) { ROW; v->type = OCC_VAL_STR; v->s = r->d->name; }
DEV_GETTER(get_sms, r->d->sms)
DEV_GETTER(get_memory, r->d->total_mem)
DEV_GETTER(get_l2, r->d->l2_cache)
DEV_GETTER(get_l2_max, r->d->persisting_l2_max)
DEV_GETTER(get_window, r->d->access_policy_max_window)
DEV_GETTER(get_clock, r->d->clock_khz)
DEV_GETTER(get_mem_clock, r->d->mem_clock_khz)
DEV_GETTER(get_bus, r->d->bus_width)
DEV_GETTER(get_contradictions, r->contradictions)
GETTER(get_source) { ROW; v->type = OCC_VAL_STR; v->s = r->table->source; }

#define F(name, type, desc, get) { name, type, desc, get, NULL, { 0 }, 0, 0 }

/* Beside the table's keys (occcalc(1), FILES): the device's own. */
static const struct occ_field fields[] = {
	F("device", OCC_FT_INT, "the CUDA device's index", get_device),
	F("deviceName", OCC_FT_STR, "its name (cudaDeviceProp name)",
	  get_device_name),
	F("multiProcessorCount", OCC_FT_INT, "its SMs", get_sms),
	F("totalGlobalMem", OCC_FT_INT, "its memory, bytes", get_memory),
	F("l2CacheSize", OCC_FT_INT, "its L2, bytes", get_l2),
	F("persistingL2CacheMaxSize", OCC_FT_INT, "its largest L2 set-aside, bytes",
	  get_l2_max),
	F("accessPolicyMaxWindowSize", OCC_FT_INT, "its largest access-policy "
	  "window, bytes", get_window),
	F("clockRate", OCC_FT_INT, "its SM clock, kHz", get_clock),
	F("memoryClockRate", OCC_FT_INT, "its memory clock, kHz", get_mem_clock),
	F("memoryBusWidth", OCC_FT_INT, "its memory bus, bits", get_bus),
	F("tableContradictions", OCC_FT_INT, "table values the device "
	  "contradicts, each given as table.KEY", get_contradictions),
	F("source", OCC_FT_STR, "the table's file", get_source),
};

const struct occ_row_kind kind_info = {
	"info", fields, sizeof fields / sizeof fields[0], NULL
};

enum { DEVICE, DEVICE_NAME, SMS, CONTRADICTIONS = 10, SOURCE };

/* The record's fields: built here, since they are the table's keys. */
struct info_fields {
	struct occ_field f[MAX_FIELDS];
	char names[32][96];
	size_t n, n_names;
};

static void add(struct info_fields *x, const struct occ_field *f)
{
	if (x->n < MAX_FIELDS)
		x->f[x->n++] = *f;
}

static void add_keys(struct info_fields *x, const struct occ_arch *a)
{
	struct occ_field f = F(NULL, OCC_FT_INT, "", get_key);
	size_t i;

	for (i = 0; i < occ_arch_key_count(); i++)
		if (occ_arch_has(a, occ_arch_key(i))) {
			f.name = occ_arch_key(i)->name;
			f.arg = i;
			add(x, &f);
		}
}

/* Where the table says otherwise: the device's value was used. */
static int add_contradictions(struct info_fields *x, const struct info_row *r)
{
	struct occ_field f = F(NULL, OCC_FT_INT, "", get_table_key);
	int differ = 0;
	size_t i;

	for (i = 0; i < occ_arch_key_count(); i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (!occ_target_device_key(k) || x->n_names == 32 ||
		    occ_arch_value(r->table, k) == occ_arch_value(r->a, k))
			continue;
		snprintf(x->names[x->n_names], sizeof x->names[0], "table.%s",
			 k->name);
		f.name = x->names[x->n_names++];
		f.arg = i;
		add(x, &f);
		differ++;
	}
	return differ;
}

static void device_fields(struct info_fields *x, struct info_row *r)
{
	size_t i;

	add(x, &fields[DEVICE]);
	add(x, &fields[DEVICE_NAME]);
	add_keys(x, r->a);
	for (i = SMS; i < CONTRADICTIONS; i++)
		add(x, &fields[i]);
	r->contradictions = add_contradictions(x, r);
	add(x, &fields[CONTRADICTIONS]);
	add(x, &fields[SOURCE]);
}

/* The record's own kind: --fields chooses among its fields. */
static void default_list(const struct info_fields *x, char *buf, size_t n)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < x->n && len + 100 < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					i ? "," : "", x->f[i].name);
}

static int run_info(struct session *s)
{
	const struct options *o = s->o;
	struct info_fields x;
	struct info_row r = { NULL, NULL, NULL, 0 };
	struct occ_row_kind kind = { "info", NULL, 0, NULL };
	struct fieldsel sel;
	struct out out;
	char defaults[4096];

	memset(&x, 0, sizeof x);
	if (o->arch) {
		r.a = r.table = session_find_arch(s, o->arch);
		add_keys(&x, r.a);
		add(&x, &fields[SOURCE]);
	} else {
		r.a = session_device_arch(s);
		r.table = s->table;
		r.d = &s->dev;
		device_fields(&x, &r);
	}
	kind.fields = x.f;
	kind.n = x.n;
	default_list(&x, defaults, sizeof defaults);
	fieldsel_make(&sel, &kind, o->fields, defaults);
	out_open(&out, stdout, o->format, &sel);
	out_style(&out, o->format_style);
	check_attach(s, &out, &kind);
	out.record = 1;
	out_row(&out, &r);
	out_close(&out);
	return 0;
}

const struct mode mode_info = {
	.name = "--info",
	.run = run_info,
	.tables = TABLES_READ,
	.kinds = { &kind_info },
};
