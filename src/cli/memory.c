/*
 * memory.c - the command line's memory calculators: rows for warp access
 * patterns (--access) and L2 persistence plans (--persist), in text, CSV
 * and JSON, and the code a plan asks the user to paste.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* ---- Records: named cells, printed as CSV, JSON or a text table ---- */

struct cell {
	const char *name;
	char value[64];
	int quoted;           /* a string in JSON */
};

struct record {
	struct cell c[24];
	int n;
};

static struct cell *add(struct record *r, const char *name, int quoted)
{
	struct cell *c = &r->c[r->n++];

	c->name = name;
	c->quoted = quoted;
	return c;
}

static void add_num(struct record *r, const char *name, uint64_t v)
{
	snprintf(add(r, name, 0)->value, sizeof r->c[0].value, "%" PRIu64, v);
}

static void add_str(struct record *r, const char *name, const char *v)
{
	snprintf(add(r, name, 1)->value, sizeof r->c[0].value, "%s", v);
}

/* A number that is absent: empty in CSV, null in JSON. */
static void add_none(struct record *r, const char *name)
{
	add(r, name, 0)->value[0] = '\0';
}

static void add_pct(struct record *r, const char *name, uint64_t num,
		    uint64_t den)
{
	format_ratio_percent(add(r, name, 0)->value, num, den);
}

void mem_begin(struct mem_out *m, FILE *f, enum out_format format,
	       int sweep)
{
	memset(m, 0, sizeof *m);
	m->f = f;
	m->format = format;
	m->sweep = sweep;
}

static void emit(struct mem_out *m, const struct record *r)
{
	int i;

	if (m->format == OUT_CSV) {
		if (m->rows == 0)
			for (i = 0; i < r->n; i++)
				fprintf(m->f, "%s%s", i ? "," : "",
					r->c[i].name);
		if (m->rows == 0)
			fputc('\n', m->f);
		for (i = 0; i < r->n; i++)
			fprintf(m->f, "%s%s", i ? "," : "", r->c[i].value);
		fputc('\n', m->f);
	} else {
		fputs(m->sweep ? (m->rows ? ",\n{" : "[\n{") : "{", m->f);
		for (i = 0; i < r->n; i++) {
			const struct cell *c = &r->c[i];

			fprintf(m->f, "%s\"%s\":", i ? "," : "", c->name);
			if (c->quoted)
				fprintf(m->f, "\"%s\"", c->value);
			else
				fputs(c->value[0] ? c->value : "null", m->f);
		}
		fputs(m->sweep ? "}" : "}\n", m->f);
	}
	m->rows++;
}

int mem_end(struct mem_out *m)
{
	if (m->format == OUT_JSON && m->sweep)
		fputs(m->rows ? "\n]\n" : "[]\n", m->f);
	return fflush(m->f) == 0 && !ferror(m->f) ? 0 : -1;
}

/* ---- Access patterns ---- */

static const char *op_name(enum occ_access_op op)
{
	return op == OCC_ACCESS_LOAD ? "load" : "store";
}

static void access_record(struct record *rec, const struct occ_arch *a,
			  const struct occ_access *acc,
			  const struct occ_access_result *r)
{
	char tag[16];

	arch_tag(tag, sizeof tag, a);
	add_str(rec, "arch", tag);
	add_str(rec, "op", op_name(acc->op));
	add_num(rec, "elem_size", (uint64_t)acc->elem_size);
	add_num(rec, "stride", acc->stride);
	add_num(rec, "offset", acc->offset);
	add_num(rec, "threads", (uint64_t)acc->threads);
	add_num(rec, "lane_xor", acc->lane_xor);
	add_num(rec, "thread_bytes", r->thread_bytes);
	add_num(rec, "requested_bytes", r->requested);
	add_num(rec, "sectors", (uint64_t)r->sectors);
	add_num(rec, "lines", (uint64_t)r->lines);
	add_num(rec, "moved_bytes", r->moved);
	add_pct(rec, "efficiency_pct", r->requested, r->moved);
	add_num(rec, "l1_moved_bytes", r->l1_moved);
	add_pct(rec, "l1_efficiency_pct", r->requested, r->l1_moved);
}

static void text_access_header(FILE *f, int l1_lines, int measured)
{
	fprintf(f, "arch    op     elem  stride  offset  threads  requested  "
		"sectors  lines  moved  efficiency%s%s\n",
		l1_lines ? "   L1 moved  L1 eff." : "",
		measured ? "  req GB/s  moved GB/s" : "");
}

/* Bytes per microsecond are megabytes per second: GB/s is a thousandth. */
static double gbps(uint64_t bytes_per_warp, const struct access_measured *g)
{
	return (double)bytes_per_warp * (double)g->warps / g->us / 1e3;
}

static void measured_access_record(struct record *rec,
				   const struct occ_access_result *r,
				   const struct access_measured *g)
{
	add_num(rec, "measured_warps", g->warps);
	snprintf(add(rec, "measure_us", 0)->value, sizeof rec->c[0].value,
		 "%.2f", g->us);
	snprintf(add(rec, "requested_gbps", 0)->value, sizeof rec->c[0].value,
		 "%.1f", gbps(r->requested, g));
	snprintf(add(rec, "moved_gbps", 0)->value, sizeof rec->c[0].value,
		 "%.1f", gbps(r->moved, g));
}

static void text_access_row(FILE *f, const struct occ_arch *a,
			    const struct occ_access *acc,
			    const struct occ_access_result *r,
			    const struct access_measured *g)
{
	char tag[16], eff[32], l1[32];

	arch_tag(tag, sizeof tag, a);
	format_ratio_percent(eff, r->requested, r->moved);
	fprintf(f, "%-7s %-5s %5d %7" PRIu64 " %7" PRIu64 " %8d %10" PRIu64
		" %8d %6d %6" PRIu64 " %10s%%", tag, op_name(acc->op),
		acc->elem_size, acc->stride, acc->offset, acc->threads,
		r->requested, r->sectors, r->lines, r->moved, eff);
	if (a->l1_load_transaction == a->line_size) {
		format_ratio_percent(l1, r->requested, r->l1_moved);
		fprintf(f, " %10" PRIu64 " %8s%%", r->l1_moved, l1);
	}
	if (g)
		fprintf(f, " %9.1f %11.1f", gbps(r->requested, g),
			gbps(r->moved, g));
	fputc('\n', f);
}

/* The report a person reads for one access. */
static void text_access_report(FILE *f, const struct occ_arch *a,
			       const struct occ_access *acc,
			       const struct occ_access_result *r)
{
	char tag[16], eff[32], label[32];

	arch_tag(tag, sizeof tag, a);
	fprintf(f, "%s (%s): a warp %ss %d-byte elements, %d thread%s, "
		"stride %" PRIu64 ", offset %" PRIu64, tag, a->name,
		op_name(acc->op), acc->elem_size, acc->threads,
		acc->threads == 1 ? "" : "s", acc->stride, acc->offset);
	if (acc->lane_xor)
		fprintf(f, ", lanes permuted by xor %u", acc->lane_xor);
	fprintf(f, "\n\n  %-19s%" PRIu64 " B distinct (%d x %d B = %" PRIu64
		" B)\n", "Requested", r->requested, acc->threads,
		acc->elem_size, r->thread_bytes);
	format_ratio_percent(eff, r->requested, r->moved);
	snprintf(label, sizeof label, "Sectors (%d B)", a->sector_size);
	fprintf(f, "  %-19s%d per request: %" PRIu64 " B moved, efficiency "
		"%s %%\n", label, r->sectors, r->moved, eff);
	snprintf(label, sizeof label, "Lines (%d B)", a->line_size);
	fprintf(f, "  %-19s%d per request\n", label, r->lines);
	if (acc->op == OCC_ACCESS_STORE) {
		fprintf(f, "  Stores are not cached in L1: they move sectors.\n");
	} else if (r->l1_lines) {
		format_ratio_percent(eff, r->requested, r->l1_moved);
		fprintf(f, "  Cached in L1       %" PRIu64 " B moved in whole "
			"lines, efficiency %s %% (-Xptxas -dlcm=ca; the "
			"sector figures are -dlcm=cg)\n", r->l1_moved, eff);
	} else {
		fprintf(f, "  Cached in L1       the same: the L1 fetches "
			"%d-byte sectors\n", a->sector_size);
	}
}

static void text_access_measured(FILE *f, const struct occ_access_result *r,
				  const struct access_measured *g)
{
	fprintf(f, "  Measured           %" PRIu64 " warps, one access each, "
		"in %.1f us: %.1f GB/s requested, %.1f GB/s moved\n",
		g->warps, g->us, gbps(r->requested, g), gbps(r->moved, g));
}

void mem_access_row(struct mem_out *m, const struct occ_arch *a,
		    const struct occ_access *acc,
		    const struct occ_access_result *r,
		    const struct access_measured *g)
{
	struct record rec = { .n = 0 };

	m->requested += r->requested;
	m->moved += r->moved;
	m->l1_moved += r->l1_moved;
	m->sectors += (uint64_t)r->sectors;
	m->lines += (uint64_t)r->lines;
	if (m->format == OUT_TEXT && !m->sweep) {
		text_access_report(m->f, a, acc, r);
		if (g)
			text_access_measured(m->f, r, g);
		m->rows++;
		return;
	}
	if (m->format == OUT_TEXT) {
		if (m->rows++ == 0)
			text_access_header(m->f, a->l1_load_transaction ==
					   a->line_size, g != NULL);
		text_access_row(m->f, a, acc, r, g);
		return;
	}
	access_record(&rec, a, acc, r);
	if (g)
		measured_access_record(&rec, r, g);
	emit(m, &rec);
}

/* --total: the rows as the accesses of one kernel. */
void mem_access_total(struct mem_out *m)
{
	struct record rec = { .n = 0 };
	char eff[32], l1[32];
	static const char *const blank[] = {
		"elem_size", "stride", "offset", "threads", "lane_xor",
		"thread_bytes",
	};
	size_t i;

	if (!m->rows)
		return;
	if (m->format == OUT_TEXT) {
		format_ratio_percent(eff, m->requested, m->moved);
		format_ratio_percent(l1, m->requested, m->l1_moved);
		fprintf(m->f, "total: %" PRIu64 " B requested, %" PRIu64
			" sectors, %" PRIu64 " lines, %" PRIu64 " B moved, "
			"efficiency %s %%", m->requested, m->sectors, m->lines,
			m->moved, eff);
		if (m->l1_moved != m->moved)
			fprintf(m->f, "; cached in L1: %" PRIu64 " B moved, "
				"%s %%", m->l1_moved, l1);
		fputc('\n', m->f);
		return;
	}
	add_none(&rec, "arch");
	add_str(&rec, "op", "total");
	for (i = 0; i < sizeof blank / sizeof blank[0]; i++)
		add_none(&rec, blank[i]);
	add_num(&rec, "requested_bytes", m->requested);
	add_num(&rec, "sectors", m->sectors);
	add_num(&rec, "lines", m->lines);
	add_num(&rec, "moved_bytes", m->moved);
	add_pct(&rec, "efficiency_pct", m->requested, m->moved);
	add_num(&rec, "l1_moved_bytes", m->l1_moved);
	add_pct(&rec, "l1_efficiency_pct", m->requested, m->l1_moved);
	emit(m, &rec);
}

/* ---- L2 persistence plans ---- */

static void hit_ratio_text(char *buf, size_t n, int e4)
{
	snprintf(buf, n, "%d.%04d", e4 / 10000, e4 % 10000);
}

static void plan_record(struct record *rec, const struct occ_l2 *l2,
			uint64_t data, int streams,
			const struct occ_l2_plan *p)
{
	add_num(rec, "data_bytes", data);
	add_num(rec, "streams", (uint64_t)streams);
	add_num(rec, "l2_cache_size", l2->size);
	add_num(rec, "persisting_l2_max", l2->persisting_max);
	add_num(rec, "access_policy_max_window", l2->window_max);
	add_num(rec, "set_aside_bytes", p->set_aside);
	add_num(rec, "window_bytes", p->window);
	hit_ratio_text(add(rec, "hit_ratio", 0)->value, sizeof rec->c[0].value,
		       p->hit_ratio_e4);
	add_num(rec, "persisting_bytes", p->persisting);
	add_num(rec, "uncovered_bytes", p->uncovered);
}

/* Persistence pays when re-reads hit the set-aside instead of DRAM;
 * below this the difference is noise of a few percent. */
#define SPEEDUP_THAT_HELPS 1.05

static void measured_plan_record(struct record *rec,
				 const struct persist_measured *g)
{
	add_num(rec, "measured_launches", (uint64_t)g->launches);
	add_num(rec, "streamed_bytes", g->streamed);
	snprintf(add(rec, "ms_normal", 0)->value, sizeof rec->c[0].value,
		 "%.3f", g->ms_normal);
	snprintf(add(rec, "ms_persisting", 0)->value, sizeof rec->c[0].value,
		 "%.3f", g->ms_persisting);
	snprintf(add(rec, "speedup", 0)->value, sizeof rec->c[0].value,
		 "%.2f", g->ms_normal / g->ms_persisting);
}

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

void mem_plan_row(struct mem_out *m, const struct occ_l2 *l2, uint64_t data,
		  int streams, const struct occ_l2_plan *p,
		  const struct persist_measured *g)
{
	struct record rec = { .n = 0 };

	if (m->format == OUT_TEXT) {
		if (m->rows++)
			fputs("\n", m->f);
		plan_text(m->f, l2, data, streams, p);
		if (g)
			plan_measured_text(m->f, data, g);
		return;
	}
	plan_record(&rec, l2, data, streams, p);
	if (g)
		measured_plan_record(&rec, g);
	emit(m, &rec);
}

/* ---- Evaluating every combination ---- */

static void measure_access(const struct occ_device *gpu,
			   const struct occ_access *acc,
			   struct access_measured *g)
{
	char err[256];

	if (gpu && gpu_access_measure(gpu->index, acc, g, err, sizeof err))
		die("device %d: %s", gpu->index, err);
}

static void access_failed(enum occ_status st, const struct occ_arch *a,
			  const struct occ_access *acc)
{
	char tag[16];

	arch_tag(tag, sizeof tag, a);
	if (st == OCC_ERR_UNKNOWN_ARCH)
		die("%s's table has no globalMemorySectorSize and "
		    "globalMemoryLineSize", tag);
	if (acc->elem_size != 1 && acc->elem_size != 2 && acc->elem_size != 4 &&
	    acc->elem_size != 8 && acc->elem_size != 16)
		die_usage("--elem: '%d': an element is 1, 2, 4, 8 or 16 bytes",
			  acc->elem_size);
	die_usage("--stride %llu with --offset %llu: the addresses of %d-byte "
		  "elements overflow 64 bits", (unsigned long long)acc->stride,
		  (unsigned long long)acc->offset, acc->elem_size);
}

/* Every combination: operation, element size, stride, offset, threads. */
void mem_evaluate_access(const struct occ_arch *a,
			 const struct access_request *o,
			 enum out_format format, const struct occ_device *gpu)
{
	struct seq_iter ie, is, io, it;
	struct occ_access acc;
	struct occ_access_result r;
	struct access_measured g;
	struct mem_out m;
	enum occ_status st;
	int op;

	mem_begin(&m, stdout, format, o->total || o->elem.is_sweep ||
		  o->stride.is_sweep || o->offset.is_sweep ||
		  o->threads.is_sweep || o->ops == 3);
	acc.lane_xor = o->lane_xor;
	for (op = 0; op < 2; op++) {
		if (!(o->ops & (1u << op)))
			continue;
		acc.op = (enum occ_access_op)op;
		for (seq_first(&ie, &o->elem); ; ) {
			acc.elem_size = (int)ie.value;
			for (seq_first(&is, &o->stride); ; ) {
				acc.stride = is.value;
				for (seq_first(&io, &o->offset); ; ) {
					acc.offset = io.value;
					for (seq_first(&it, &o->threads); ; ) {
						acc.threads = (int)it.value;
						st = occ_access_compute(a, &acc, &r);
						if (st != OCC_OK)
							access_failed(st, a, &acc);
						measure_access(gpu, &acc, &g);
						mem_access_row(&m, a, &acc, &r,
							       gpu ? &g : NULL);
						if (!seq_next(&it))
							break;
					}
					if (!seq_next(&io))
						break;
				}
				if (!seq_next(&is))
					break;
			}
			if (!seq_next(&ie))
				break;
		}
	}
	if (o->total)
		mem_access_total(&m);
	if (mem_end(&m) != 0)
		die("write error: %s", strerror(errno));
}

void mem_evaluate_plans(const struct occ_l2 *l2, const struct seq *sizes,
			int streams, enum out_format format,
			const struct occ_device *gpu)
{
	struct occ_l2_plan p;
	struct persist_measured g;
	struct mem_out m;
	struct seq_iter it;
	char err[256];

	mem_begin(&m, stdout, format, sizes->is_sweep);
	for (seq_first(&it, sizes); ; ) {
		if (occ_l2_plan(l2, it.value, streams, &p) != OCC_OK)
			die("internal error: invalid L2 plan");
		if (gpu && gpu_persist_measure(gpu->index, l2, &p, it.value,
					       gpu->sms, &g, err, sizeof err))
			die("device %d: %s", gpu->index, err);
		mem_plan_row(&m, l2, it.value, streams, &p, gpu ? &g : NULL);
		if (!seq_next(&it))
			break;
	}
	if (mem_end(&m) != 0)
		die("write error: %s", strerror(errno));
}
