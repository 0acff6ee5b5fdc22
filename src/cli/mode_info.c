/*
 * mode_info.c - --info: an architecture table's values under their
 * cudaDeviceProp names; for a GPU, its table merged with what it reports,
 * its own properties, and the table values it contradicts. One record:
 * 'key value' lines in text, 'key,value' rows in CSV, one object in JSON.
 */
#include <string.h>

#include "cli.h"

/* The library's record (occcalc/lists.h), and the device's own. */
struct info_row {
	struct occ_info_row info;        /* first: the library's getters */
	const struct occ_device *d;
};

#define ROW const struct info_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define DEV_GETTER(fn, expr) GETTER(fn) { ROW; occ_val_uint(v, (uint64_t)(expr)); }

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

#define F(name, type, desc, get) { name, type, desc, get, NULL, { 0 }, 0, 0 }

/* Beside the table's keys (occcalc(1), FILES) and the library's fields
 * of the record (occ_info_kind, listed after these): the device's own. */
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
};

const struct occ_row_kind kind_info = {
	"info", fields, sizeof fields / sizeof fields[0], NULL
};

enum { DEVICE, DEVICE_NAME, SMS, BUS_WIDTH = 9 };

/* A device's record: its name, the keys, its own figures, then the
 * library's table values it contradicts, their count and the source. */
static void device_fields(struct occ_info_fields *x, struct info_row *r)
{
	size_t i;

	x->n = x->n_names = 0;
	occ_info_add(x, &fields[DEVICE]);
	occ_info_add(x, &fields[DEVICE_NAME]);
	occ_info_add_keys(x, r->info.a);
	for (i = SMS; i <= BUS_WIDTH; i++)
		occ_info_add(x, &fields[i]);
	occ_info_add_contradictions(x, &r->info);
	for (i = 0; i < occ_info_kind.n; i++)
		occ_info_add(x, &occ_info_kind.fields[i]);
}

/* The record's own kind: --fields chooses among its fields. */
static void default_list(const struct occ_info_fields *x, char *buf, size_t n)
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
	struct occ_info_fields x;
	struct info_row r = { { NULL, NULL, 0 }, NULL };
	struct occ_row_kind kind = { "info", NULL, 0, NULL };
	struct fieldsel sel;
	struct out out;
	char defaults[4096];

	if (o->arch) {
		occ_info_row_init(&r.info, session_find_arch(s, o->arch), NULL);
		occ_info_fields_make(&x, &r.info);
	} else {
		occ_info_row_init(&r.info, session_device_arch(s), s->table);
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
	.kinds = { &kind_info, &occ_info_kind },
};
