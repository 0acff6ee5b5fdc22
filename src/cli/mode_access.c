/*
 * mode_access.c - --access: the sectors and lines one warp instruction
 * touches, for every combination of element size, stride, offset and
 * active threads; with --total a row summing them, with --measure each
 * pattern launched and its bandwidth measured.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

struct access_row {
	char arch[16];
	const struct occ_access *acc;  /* NULL: the --total row */
	struct occ_access_result r;
	uint64_t sectors, lines;       /* wide: the total sums them */
	const struct access_measured *g;
};

/* Bytes per microsecond are megabytes per second: GB/s is a thousandth. */
static double gbps(uint64_t bytes_per_warp, const struct access_measured *g)
{
	return (double)bytes_per_warp * (double)g->warps / g->us / 1e3;
}

/* ---- Fields ---- */

#define ROW const struct access_row *a = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define ACC_GETTER(fn, expr) GETTER(fn) { ROW; v->type = a->acc ? OCC_VAL_UINT \
	: OCC_VAL_NULL; if (a->acc) v->u = (uint64_t)(expr); }
#define RES_GETTER(fn, expr) GETTER(fn) { ROW; v->type = OCC_VAL_UINT; \
	v->u = (uint64_t)(expr); }

GETTER(get_arch)
{
	ROW;
	v->type = a->acc ? OCC_VAL_STR : OCC_VAL_NULL;
	v->s = a->arch;
}
GETTER(get_op)
{
	ROW;
	v->type = OCC_VAL_STR;
	v->s = !a->acc ? "total" : a->acc->op == OCC_ACCESS_LOAD ? "load"
							       : "store";
}
ACC_GETTER(get_elem, a->acc->elem_size)
/* Either sign: written out, as a decimal is. */
GETTER(get_stride)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (a->acc) {
		snprintf(v->buf, sizeof v->buf, "%" PRId64, a->acc->stride);
		v->type = OCC_VAL_DEC;
		v->s = v->buf;
	}
}
ACC_GETTER(get_offset, a->acc->offset)
ACC_GETTER(get_threads, a->acc->threads)
ACC_GETTER(get_lane_xor, a->acc->lane_xor)
ACC_GETTER(get_thread_bytes, a->r.thread_bytes)
RES_GETTER(get_requested, a->r.requested)
RES_GETTER(get_sectors, a->sectors)
RES_GETTER(get_lines, a->lines)
RES_GETTER(get_moved, a->r.moved)
RES_GETTER(get_l1_moved, a->r.l1_moved)
GETTER(get_efficiency)
{
	ROW;
	occ_val_pct(v, a->r.requested, f->arg ? a->r.l1_moved : a->r.moved);
}
GETTER(get_measured_warps)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (a->g)
		occ_val_uint(v, a->g->warps);
}
/* Measured figures, written with arg's decimals. */
GETTER(get_measured)
{
	ROW;
	double x;

	v->type = OCC_VAL_NULL;
	if (!a->g)
		return;
	x = f->arg == 0 ? a->g->us : gbps(f->arg == 1 ? a->r.requested
						       : a->r.moved, a->g);
	occ_val_dec(v, f, x);
}

#define NUM(name, desc, get, label, width) { name, OCC_FT_INT, desc, get, NULL, \
	{ label, width, 1, 0, NULL, 0 }, 0, 0 }

static const struct occ_field fields[] = {
	{ "arch", OCC_FT_STR, "the architecture (absent: the --total row)",
	  get_arch, NULL, { NULL, -7, 0, 0, NULL, 0 }, 0, 0 },
	{ "op", OCC_FT_STR, "load, store, or total", get_op, NULL,
	  { NULL, -5, 1, 0, NULL, 0 }, 0, 0 },
	NUM("elem_size", "element size, bytes", get_elem, "elem", 5),
	NUM("stride", "elements between consecutive threads", get_stride,
	    NULL, 7),
	NUM("offset", "elements from a 128-byte aligned base", get_offset,
	    NULL, 7),
	NUM("threads", "active threads of the warp", get_threads, NULL, 8),
	NUM("lane_xor", "the lane permutation mask", get_lane_xor, NULL, 8),
	NUM("thread_bytes", "threads x element size", get_thread_bytes,
	    NULL, 12),
	NUM("requested_bytes", "distinct bytes the threads touch",
	    get_requested, "requested", 10),
	NUM("sectors", "sectors per request", get_sectors, NULL, 8),
	NUM("lines", "cache lines per request", get_lines, NULL, 6),
	NUM("moved_bytes", "bytes the sectors move", get_moved, "moved", 6),
	{ "efficiency_pct", OCC_FT_DEC, "requested over moved, percent",
	  get_efficiency, NULL, { "efficiency", 11, 1, OCC_TXT_PCT, NULL, 0 }, 0, 0 },
	NUM("l1_moved_bytes", "bytes a load cached in L1 moves",
	    get_l1_moved, "L1 moved", 10),
	{ "l1_efficiency_pct", OCC_FT_DEC, "requested over l1_moved_bytes, percent",
	  get_efficiency, NULL, { "L1 eff. ", 9, 1, OCC_TXT_PCT, NULL, 0 }, 0, 1 },
	{ "measured_warps", OCC_FT_INT, "warps launched, one access each "
	  "(--measure)", get_measured_warps, NULL, { 0 }, 0, 0 },
	{ "measure_us", OCC_FT_DEC, "the launch, microseconds", get_measured, NULL,
	  { 0 }, 0, 0 },
	{ "requested_gbps", OCC_FT_DEC, "requested bytes per second, GB/s",
	  get_measured, NULL, { "req GB/s", 9, 1, 0, NULL, 0 }, 0, 1 },
	{ "moved_gbps", OCC_FT_DEC, "moved bytes per second, GB/s", get_measured,
	  NULL, { "moved GB/s", 11, 1, 0, NULL, 0 }, 0, 2 },
};

const struct occ_row_kind kind_access = {
	"access", fields, sizeof fields / sizeof fields[0], NULL
};

/* ---- The report for one access ---- */

static void report(FILE *f, const struct occ_arch *a,
		   const struct access_row *row)
{
	const struct occ_access *acc = row->acc;
	const struct occ_access_result *r = &row->r;
	char eff[32], label[32];

	fprintf(f, "%s (%s): a warp %ss %d-byte elements, %d thread%s, "
		"stride %" PRId64 ", offset %" PRId64, row->arch, a->name,
		acc->op == OCC_ACCESS_LOAD ? "load" : "store", acc->elem_size,
		acc->threads, plural(acc->threads), acc->stride,
		acc->offset);
	if (acc->lane_xor)
		fprintf(f, ", lanes permuted by xor %u", acc->lane_xor);
	fprintf(f, "\n\n  %-19s%" PRIu64 " B distinct (%d x %d B = %" PRIu64
		" B)\n", "Requested", r->requested, acc->threads,
		acc->elem_size, r->thread_bytes);
	occ_format_percent(eff, r->requested, r->moved);
	snprintf(label, sizeof label, "Sectors (%d B)", a->sector_size);
	fprintf(f, "  %-19s%d per request: %" PRIu64 " B moved, efficiency "
		"%s %%\n", label, r->sectors, r->moved, eff);
	snprintf(label, sizeof label, "Lines (%d B)", a->line_size);
	fprintf(f, "  %-19s%d per request\n", label, r->lines);
	if (acc->op == OCC_ACCESS_STORE) {
		fprintf(f, "  Stores are not cached in L1: they move sectors.\n");
	} else if (r->l1_lines) {
		occ_format_percent(eff, r->requested, r->l1_moved);
		fprintf(f, "  Cached in L1       %" PRIu64 " B moved in whole "
			"lines, efficiency %s %% (-Xptxas -dlcm=ca; the "
			"sector figures are -dlcm=cg)\n", r->l1_moved, eff);
	} else {
		fprintf(f, "  Cached in L1       the same: the L1 fetches "
			"%d-byte sectors\n", a->sector_size);
	}
	if (row->g)
		fprintf(f, "  Measured           %" PRIu64 " warps, one access "
			"each, in %.1f us: %.1f GB/s requested, %.1f GB/s "
			"moved\n", row->g->warps, row->g->us,
			gbps(r->requested, row->g), gbps(r->moved, row->g));
}

/* The --total line of a text table. */
static void total_text(struct out *o, const struct access_row *t)
{
	char line[512], eff[32], l1[32];
	int n;

	occ_format_percent(eff, t->r.requested, t->r.moved);
	occ_format_percent(l1, t->r.requested, t->r.l1_moved);
	n = snprintf(line, sizeof line, "total: %" PRIu64 " B requested, %"
		     PRIu64 " sectors, %" PRIu64 " lines, %" PRIu64 " B moved, "
		     "efficiency %s %%", t->r.requested, t->sectors, t->lines,
		     t->r.moved, eff);
	if (t->r.l1_moved != t->r.moved)
		snprintf(line + n, sizeof line - (size_t)n, "; cached in L1: %"
			 PRIu64 " B moved, %s %%", t->r.l1_moved, l1);
	out_text(o, line);
	out_text(o, "\n");
}

/* ---- Evaluating every combination ---- */

struct access_run {
	struct session *s;
	const struct occ_arch *a;
	int report;                    /* text, one access: the report */
	struct fieldsel sel;
	struct out out;
	struct access_row total;
	/* The first access whose last lane lies below element 0. */
	int below;
	struct occ_access below_acc;
};

static void offset_overflows(const struct occ_access *acc, uint64_t offset)
{
	die_usage("--stride %lld with --offset %llu: the addresses of %d-byte "
		  "elements overflow 64 bits", (long long)acc->stride,
		  (unsigned long long)offset, acc->elem_size);
}

static void access_failed(enum occ_status st, const struct access_row *row,
			  const struct occ_access *acc)
{
	if (st == OCC_ERR_UNKNOWN_ARCH)
		die("%s's table has no globalMemorySectorSize and "
		    "globalMemoryLineSize", row->arch);
	if (acc->elem_size != 1 && acc->elem_size != 2 && acc->elem_size != 4 &&
	    acc->elem_size != 8 && acc->elem_size != 16)
		die_usage("--elem: '%d': an element is 1, 2, 4, 8 or 16 bytes",
			  acc->elem_size);
	offset_overflows(acc, (uint64_t)acc->offset);
}

static void one_access(struct access_run *run, const struct occ_access *acc)
{
	struct access_row row;
	struct access_measured g;
	enum occ_status st;
	char err[256];

	arch_tag(row.arch, sizeof row.arch, run->a);
	row.acc = acc;
	row.g = NULL;
	st = occ_access_compute(run->a, acc, &row.r);
	if (st != OCC_OK)
		access_failed(st, &row, acc);
	if (run->s->o->measure && acc->stride < 0)
		die_usage("--measure: --stride %lld: the measured kernel reads "
			  "forward (a stride of 0 or more)",
			  (long long)acc->stride);
	if (run->s->o->measure) {
		if (gpu_access_measure(&run->s->gpu, acc, &g, err, sizeof err))
			session_device_failed(run->s, err);
		row.g = &g;
	}
	row.sectors = (uint64_t)row.r.sectors;
	row.lines = (uint64_t)row.r.lines;
	run->total.r.requested += row.r.requested;
	run->total.r.moved += row.r.moved;
	run->total.r.l1_moved += row.r.l1_moved;
	run->total.sectors += row.sectors;
	run->total.lines += row.lines;
	if (run->report)
		report(stdout, run->a, &row);
	else
		out_row(&run->out, &row);
}

/* Every thread count, offset, stride and element size, innermost first. */
static void sweep(struct access_run *run, struct occ_access *acc)
{
	const struct access_request *q = &run->s->o->access;
	const struct seq *axes[4] = { &q->elem, &q->stride, &q->offset,
				      &q->threads };
	struct seq_iter it[4];
	int depth = 0;

	seq_first(&it[0], axes[0]);
	for (;;) {
		acc->elem_size = (int)it[0].value;
		if (depth < 3) {
			depth++;
			seq_first(&it[depth], axes[depth]);
			continue;
		}
		acc->stride = seq_signed(it[1].value);
		/* The option takes what a user may type (up to 2^64 - 1);
		 * the model's offset is signed, and an offset past
		 * INT64_MAX elements is past every 64-bit address. */
		if (it[2].value > INT64_MAX)
			offset_overflows(acc, it[2].value);
		acc->offset = (int64_t)it[2].value;
		acc->threads = (int)it[3].value;
		if (!run->below && acc->stride < 0 &&
		    (__int128)acc->offset +
		    (__int128)acc->stride * (acc->threads - 1) < 0) {
			run->below = 1;
			run->below_acc = *acc;
		}
		one_access(run, acc);
		while (depth >= 0 && !seq_next(&it[depth]))
			depth--;
		if (depth < 0)
			return;
	}
}

/* A negative stride from a small offset puts lanes below element 0: the
 * model takes those addresses as they are, which a program indexing an
 * array from its start never makes. Said once. */
static void below_zero_notice(const struct access_run *run)
{
	const struct occ_access *a = &run->below_acc;
	__int128 need = -(__int128)a->stride * (a->threads - 1);

	if (!run->below)
		return;
	warn("--stride %lld with --offset %lld: lanes address elements down "
	     "to %lld, below element 0 (lane i reads offset + i x stride); "
	     "give --offset %lld to keep the warp at element 0 and above",
	     (long long)a->stride, (long long)a->offset,
	     (long long)((__int128)a->offset - need), (long long)need);
}

static void open_run(struct access_run *run, struct session *s)
{
	const struct options *o = s->o;
	const struct access_request *q = &o->access;
	int l1 = run->a->l1_load_transaction == run->a->line_size;
	char defaults[512];

	run->report = o->format == OUT_TEXT && !o->fields && !q->total &&
		      !q->elem.is_sweep && !q->stride.is_sweep &&
		      !q->offset.is_sweep && !q->threads.is_sweep && q->ops != 3;
	snprintf(defaults, sizeof defaults, "arch,op,elem_size,stride,offset,"
		 "threads,%srequested_bytes,sectors,lines,moved_bytes,"
		 "efficiency_pct%s%s", o->format == OUT_TEXT ? ""
		 : "lane_xor,thread_bytes,", o->format != OUT_TEXT || l1
		 ? ",l1_moved_bytes,l1_efficiency_pct" : "",
		 !o->measure ? "" : o->format == OUT_TEXT
		 ? ",requested_gbps,moved_gbps"
		 : ",measured_warps,measure_us,requested_gbps,moved_gbps");
	fieldsel_make(&run->sel, &kind_access, o->fields, defaults);
	out_open(&run->out, stdout, o->format, &run->sel);
	out_style(&run->out, o->format_style);
	check_attach(s, &run->out, &kind_access);
	run->out.stream = o->measure;
}

static int run_access(struct session *s)
{
	const struct options *o = s->o;
	struct access_run run;
	struct occ_access acc;
	int op;

	if (o->traffic.elems)
		die_usage("--elem: '%s': NAME=BYTES names the arrays of "
			  "--traffic", o->traffic.elems);
	memset(&run, 0, sizeof run);
	run.s = s;
	/* The device's architecture finds the device, for --measure. */
	run.a = o->arch && !o->measure ? session_find_arch(s, o->arch)
				       : session_device_arch(s);
	open_run(&run, s);
	memset(&acc, 0, sizeof acc);
	acc.lane_xor = (unsigned)o->access.lane_xor;
	for (op = 0; op < 2; op++)
		if (o->access.ops & (1u << op)) {
			acc.op = (enum occ_access_op)op;
			sweep(&run, &acc);
		}
	if (o->access.total && o->format == OUT_TEXT && !o->fields) {
		total_text(&run.out, &run.total);
	} else if (o->access.total) {
		out_row(&run.out, &run.total);
	}
	if (!run.report)
		out_close(&run.out);
	below_zero_notice(&run);
	return 0;
}

const struct mode mode_access = {
	.name = "--access",
	.run = run_access,
	.tables = TABLES_READ,
	.memory = 1,
	.kinds = { &kind_access },
};
