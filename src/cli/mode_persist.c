/*
 * mode_persist.c - --persist BYTES: a plan for keeping data re-read by a
 * kernel in the L2 set-aside (the set-aside, the window, the hitRatio,
 * the code to paste), on --l2's figures or the device's; with --measure,
 * re-reads timed without and with the plan.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

struct plan_row {
	const struct occ_l2 *l2;
	uint64_t data;
	int streams;
	struct occ_l2_plan p;
	const struct persist_measured *g;
};

static void hit_ratio_text(char *buf, size_t n, int e4)
{
	snprintf(buf, n, "%d.%04d", e4 / 10000, e4 % 10000);
}

/* Persistence pays when re-reads hit the set-aside instead of DRAM;
 * below this the difference is noise of a few percent. */
#define SPEEDUP_THAT_HELPS 1.05

/* ---- Fields ---- */

#define ROW const struct plan_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define UINT_GETTER(fn, expr) GETTER(fn) { ROW; v->type = OCC_VAL_UINT; \
	v->u = (uint64_t)(expr); }

UINT_GETTER(get_data, r->data)
UINT_GETTER(get_streams, r->streams)
UINT_GETTER(get_l2_size, r->l2->size)
UINT_GETTER(get_l2_max, r->l2->persisting_max)
UINT_GETTER(get_l2_window, r->l2->window_max)
UINT_GETTER(get_set_aside, r->p.set_aside)
UINT_GETTER(get_window, r->p.window)
GETTER(get_hit_ratio)
{
	ROW;
	hit_ratio_text(v->buf, sizeof v->buf, r->p.hit_ratio_e4);
	v->type = OCC_VAL_DEC;
	v->s = v->buf;
}
UINT_GETTER(get_persisting, r->p.persisting)
UINT_GETTER(get_uncovered, r->p.uncovered)
/* Measured numbers: arg 0 the launches, 1 the bytes streamed. */
GETTER(get_launches)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->g)
		occ_val_uint(v, f->arg ? r->g->streamed : (uint64_t)r->g->launches);
}
/* The timings: arg 0 without the window, 1 with it, 2 the speedup. */
GETTER(get_timing)
{
	ROW;
	double x;

	v->type = OCC_VAL_NULL;
	if (!r->g)
		return;
	x = f->arg == 0 ? r->g->ms_normal : f->arg == 1 ? r->g->ms_persisting
		: r->g->ms_normal / r->g->ms_persisting;
	occ_val_dec(v, f, x);
}

#define F(name, type, desc, get, arg) { name, type, desc, get, NULL, \
	{ 0 }, 0, arg }

static const struct occ_field fields[] = {
	F("data_bytes", OCC_FT_INT, "the data each stream re-reads, bytes",
	  get_data, 0),
	F("streams", OCC_FT_INT, "concurrent streams sharing the set-aside",
	  get_streams, 0),
	F("l2CacheSize", OCC_FT_INT, "the L2, bytes (cudaDeviceProp)",
	  get_l2_size, 0),
	F("persistingL2CacheMaxSize", OCC_FT_INT, "the largest set-aside, bytes",
	  get_l2_max, 0),
	F("accessPolicyMaxWindowSize", OCC_FT_INT, "the largest window, bytes",
	  get_l2_window, 0),
	F("set_aside_bytes", OCC_FT_INT, "the set-aside to request "
	  "(cudaLimitPersistingL2CacheSize)", get_set_aside, 0),
	F("window_bytes", OCC_FT_INT, "each stream's window "
	  "(accessPolicyWindow.num_bytes)", get_window, 0),
	F("hit_ratio", OCC_FT_DEC, "accessPolicyWindow.hitRatio", get_hit_ratio, 0),
	F("persisting_bytes", OCC_FT_INT, "bytes of each window that persist",
	  get_persisting, 0),
	F("uncovered_bytes", OCC_FT_INT, "data beyond the window, each stream",
	  get_uncovered, 0),
	F("measured_launches", OCC_FT_INT, "launches timed, each way (--measure)",
	  get_launches, 0),
	F("streamed_bytes", OCC_FT_INT, "bytes each launch streams beside the "
	  "re-reads", get_launches, 1),
	F("normal_ms", OCC_FT_DEC, "the launches without the window, ms",
	  get_timing, 0),
	F("persisting_ms", OCC_FT_DEC, "the launches with it, ms", get_timing, 1),
	F("speedup", OCC_FT_DEC, "normal_ms over persisting_ms", get_timing, 2),
};

const struct occ_row_kind kind_persist = {
	"persist", fields, sizeof fields / sizeof fields[0], NULL
};

/* ---- The plan a person reads ---- */

static void plan_measured_text(FILE *f, uint64_t data,
			       const struct persist_measured *g)
{
	double s = g->ms_normal / g->ms_persisting;

	fprintf(f, "\nMeasured: %d launches, each re-reading the %" PRIu64
		" B and streaming %" PRIu64 " B: %.3f ms without the window, "
		"%.3f ms with it: %.2fx\n", g->launches, data, g->streamed,
		g->ms_normal, g->ms_persisting, s);
	if (s < SPEEDUP_THAT_HELPS)
		fprintf(f, "Persistence does not help here: the re-reads gain "
			"less than %d %%.\n",
			(int)((SPEEDUP_THAT_HELPS - 1) * 100 + 0.5));
}

static void plan_text(FILE *f, const struct occ_l2 *l2, uint64_t data,
		      int streams, const struct occ_l2_plan *p)
{
	char ratio[16];

	hit_ratio_text(ratio, sizeof ratio, p->hit_ratio_e4);
	fprintf(f, "L2 %" PRIu64 " B; set-aside up to %" PRIu64 " B "
		"(persistingL2CacheMaxSize); a window up to %" PRIu64 " B "
		"(accessPolicyMaxWindowSize)\n", l2->size, l2->persisting_max,
		l2->window_max);
	if (streams == 1)
		fprintf(f, "Data re-read: %" PRIu64 " B in one stream\n\n", data);
	else
		fprintf(f, "Data re-read: %" PRIu64 " B in each of %d concurrent "
			"streams\n\n", data, streams);
	fprintf(f, "  Set-aside          %" PRIu64 " B\n", p->set_aside);
	fprintf(f, "  Window             %" PRIu64 " B per stream\n",
		p->window);
	fprintf(f, "  hitRatio           %s: %" PRIu64 " B of each window "
		"persist%s\n", ratio, p->persisting,
		p->hit_ratio_e4 < 10000 ? "; the rest streams, so that what "
		"persists fits the set-aside and does not thrash" : "");
	if (p->uncovered)
		fprintf(f, "  Beyond the window  %" PRIu64 " B per stream get "
			"no persistence (the window's maximum)\n",
			p->uncovered);
	fprintf(f, "\n/* occcalc --persist %" PRIu64 " --streams %d */\n"
		"cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, %" PRIu64
		");\n\n"
		"cudaStreamAttrValue attr = {};\n"
		"attr.accessPolicyWindow.base_ptr  = data;  /* the re-read "
		"buffer */\n"
		"attr.accessPolicyWindow.num_bytes = %" PRIu64 ";\n"
		"attr.accessPolicyWindow.hitRatio  = %sf;\n"
		"attr.accessPolicyWindow.hitProp   = "
		"cudaAccessPropertyPersisting;\n"
		"attr.accessPolicyWindow.missProp  = "
		"cudaAccessPropertyStreaming;\n"
		"cudaStreamSetAttribute(stream, "
		"cudaStreamAttributeAccessPolicyWindow, &attr);%s\n\n"
		"/* ... the kernels that re-read data ... */\n\n"
		"/* Afterwards, give the set-aside back to normal accesses: */\n"
		"attr.accessPolicyWindow.num_bytes = 0;\n"
		"cudaStreamSetAttribute(stream, "
		"cudaStreamAttributeAccessPolicyWindow, &attr);\n"
		"cudaCtxResetPersistingL2Cache();\n", data, streams,
		p->set_aside, p->window, ratio,
		streams > 1 ? "  /* in each stream, its own data */" : "");
}


/* ---- Every size ---- */

/* --gpu's L2 figures, from the GPU list: all three, or a usage error
 * saying which are not known, with the --l2 to give filled in as far as
 * the list goes (a source may report the set-aside and not the window). */
static void plan_l2_listed(const struct session *s, struct occ_l2 *l2)
{
	const struct occ_gpu *g = &s->listed;
	char max[24] = "MAX", window[24] = "WINDOW";

	if (!g->l2_size)
		die_usage("--persist: the GPU list has no L2 figures for %s: give "
			  "--l2 SIZE:MAX:WINDOW", s->gpu_name);
	if (!g->l2_persisting_max || !g->l2_window_max) {
		if (g->l2_persisting_max)
			snprintf(max, sizeof max, "%" PRIu64,
				 g->l2_persisting_max);
		if (g->l2_window_max)
			snprintf(window, sizeof window, "%" PRIu64,
				 g->l2_window_max);
		die_usage("--persist: the GPU list has %s's L2 (%" PRIu64 " B, "
			  "%s) but not its %s: give --l2 %" PRIu64 ":%s:%s, as "
			  "cudaDeviceProp reports %s", s->gpu_name, g->l2_size,
			  g->l2_source, g->l2_persisting_max ? "largest window "
			  "(accessPolicyMaxWindowSize)" : g->l2_window_max ?
			  "largest set-aside (persistingL2CacheMaxSize)" :
			  "largest set-aside and window (persistingL2CacheMaxSize, "
			  "accessPolicyMaxWindowSize)", g->l2_size, max, window,
			  g->l2_persisting_max || g->l2_window_max ? "it" : "them");
	}
	l2->size = g->l2_size;
	l2->persisting_max = g->l2_persisting_max;
	l2->window_max = g->l2_window_max;
}

/* The L2 figures: --l2's, else --gpu's, else the device's, where
 * persistence works. */
static void plan_l2(struct session *s, struct occ_l2 *l2)
{
	const struct options *o = s->o;
	const struct occ_arch *a = o->arch && !o->measure
				   ? session_find_arch(s, o->arch)
				   : session_device_arch(s);
	const struct occ_device *d = &s->dev;
	char tag[16];

	arch_tag(tag, sizeof tag, a);
	if (!a->l2_persisting)
		die("%s (%s) has no L2 set-aside for persisting accesses "
		    "(compute capability 8.0 and later)", tag, a->name);
	if (o->have_l2) {
		*l2 = o->l2;
		return;
	}
	if (o->gpu) {
		plan_l2_listed(s, l2);
		return;
	}
	if (!s->have_dev)
		die_usage("--persist with --arch needs the device's L2 figures: "
			  "--l2 SIZE:MAX:WINDOW");
	if (d->mig)
		die("device %d is a MIG instance: the L2 set-aside is disabled "
		    "in MIG mode", d->index);
	if (d->mps)
		die("device %d is shared through MPS: cudaDeviceSetLimit cannot "
		    "change the set-aside; start the MPS server with "
		    "CUDA_DEVICE_DEFAULT_PERSISTING_L2_CACHE_PERCENTAGE_LIMIT",
		    d->index);
	if (!d->persisting_l2_max)
		die("device %d (%s) reports no L2 set-aside "
		    "(persistingL2CacheMaxSize 0)", d->index, d->name);
	l2->size = d->l2_cache;
	l2->persisting_max = d->persisting_l2_max;
	l2->window_max = d->access_policy_max_window;
}

#define FIELDS "data_bytes,streams,l2CacheSize,persistingL2CacheMaxSize," \
	"accessPolicyMaxWindowSize,set_aside_bytes,window_bytes,hit_ratio," \
	"persisting_bytes,uncovered_bytes"
#define MEASURED_FIELDS ",measured_launches,streamed_bytes,normal_ms," \
	"persisting_ms,speedup"

static void one_plan(struct session *s, struct out *out, int text,
		     struct plan_row *row)
{
	struct persist_measured g;
	char err[256];
	enum occ_status st = occ_l2_plan(row->l2, row->data, row->streams,
					 &row->p);

	/* --l2 and the device's figures are checked before: this names
	 * them, should any still be refused. */
	if (st != OCC_OK)
		die("--persist %" PRIu64 " on an L2 of %" PRIu64 " bytes, a "
		    "set-aside of at most %" PRIu64 " and windows of at most %"
		    PRIu64 ", %d stream%s: %s", row->data, row->l2->size,
		    row->l2->persisting_max, row->l2->window_max, row->streams,
		    plural(row->streams), occ_strerror(st));
	row->g = NULL;
	if (s->o->measure) {
		if (gpu_persist_measure(&s->gpu, row->l2, &row->p, row->data,
					s->dev.sms, &g, err, sizeof err))
			session_device_failed(s, err);
		row->g = &g;
	}
	if (!text) {
		out_row(out, row);
		return;
	}
	if (out->rows++)
		fputs("\n", stdout);
	if (s->o->gpu && !s->o->have_l2)
		printf("%s, from the GPU list: %s\n", s->gpu_name,
		       s->listed.l2_source);
	plan_text(stdout, row->l2, row->data, row->streams, &row->p);
	if (row->g)
		plan_measured_text(stdout, row->data, row->g);
}

static int run_persist(struct session *s)
{
	const struct options *o = s->o;
	struct fieldsel sel;
	struct out out;
	struct seq_iter it;
	struct occ_l2 l2;
	struct plan_row row;
	int text = o->format == OUT_TEXT && !o->fields;

	plan_l2(s, &l2);
	fieldsel_make(&sel, &kind_persist, o->fields,
		      o->measure ? FIELDS MEASURED_FIELDS : FIELDS);
	out_open(&out, stdout, o->format, &sel);
	out_style(&out, o->format_style);
	check_attach(s, &out, &kind_persist);
	out.stream = o->measure;
	row.l2 = &l2;
	row.streams = (int)o->streams;
	for (seq_first(&it, &o->persist); ; ) {
		row.data = it.value;
		one_plan(s, &out, text, &row);
		if (!seq_next(&it))
			break;
	}
	if (!text)
		out_close(&out);
	return 0;
}

const struct mode mode_persist = {
	.name = "--persist",
	.run = run_persist,
	.tables = TABLES_READ,
	.memory = 1,
	.kinds = { &kind_persist },
};
