/*
 * mode_traffic.c - --traffic TEXT: a whole launch's global memory
 * traffic, level by level, in the shape of Nsight Compute's Memory
 * Tables: warp instructions and L1/TEX requests, sectors and bytes of
 * loads and stores; what goes from L1 to L2 (a range where loads can hit
 * in L1); device memory as a range. Three rows per launch (load, store,
 * total), for every combination of --block (or --count), --elem and
 * --threads.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* What the rows of one launch share. */
struct launch {
	char arch[16];
	const struct occ_arch *a;
	const char *text;
	const char *defines;           /* --define's, or NULL */
	const struct occ_kernel_text *k;
	uint64_t grid, block;          /* 0: --count */
	const uint64_t *grid_dim;      /* --grid's x, y, z (y 0: 1-D) */
	const uint16_t *dim;           /* --block's shape, or NULL */
	int elem;                      /* every access's size, or 0 */
	int threads;                   /* active threads of each warp */
	uint64_t footprint;            /* bytes */
	struct occ_traffic t;
};

/* A row's figures: counts, then the bytes of sector counts. */
enum {
	X_INSTR, X_REQ, X_SECT, X_LINES, X_REQUESTED, X_L2_MIN, X_L2_MAX,
	X_DIST, X_L1_BYTES, X_L2_MIN_B, X_L2_MAX_B, X_DRAM_MIN, X_DRAM_MAX,
	X_N
};

enum { OP_LOAD, OP_STORE, OP_TOTAL };

struct traffic_row {
	const struct launch *l;
	int op;
	uint64_t x[X_N];
};

/* ---- Fields ---- */

#define ROW const struct traffic_row *r = p; (void)f
#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)

GETTER(get_x)
{
	ROW;
	occ_val_uint(v, r->x[f->arg]);
}
GETTER(get_arch)
{
	ROW;
	v->type = OCC_VAL_STR;
	v->s = r->l->arch;
}
GETTER(get_kernel)
{
	ROW;
	v->type = OCC_VAL_STR;
	v->s = r->l->text;
}
/* Launch numbers: arg 0 grid, 1 block, 2 threads, 3 warps, 4 active
 * threads, 5 element size, 6 footprint; 0 is absent. */
GETTER(get_launch)
{
	ROW;
	const struct launch *l = r->l;
	const uint64_t n[] = { l->grid, l->block, l->t.threads, l->t.warps,
			       (uint64_t)l->threads, (uint64_t)l->elem,
			       l->footprint };

	v->type = OCC_VAL_NULL;
	if (n[f->arg] || f->arg == 6)
		occ_val_uint(v, n[f->arg]);
}
GETTER(get_l1_cached)
{
	ROW;
	v->type = OCC_VAL_BOOL;
	v->u = (uint64_t)r->l->t.load.l1_cached;
}
GETTER(get_op)
{
	static const char *const names[] = { "load", "store", "total" };

	ROW;
	v->type = OCC_VAL_STR;
	v->s = names[r->op];
}
/* Device memory reads and writes what L1 loads and stores. */
GETTER(get_dram_op)
{
	static const char *const names[] = { "read", "write", "total" };

	ROW;
	v->type = OCC_VAL_STR;
	v->s = names[r->op];
}
GETTER(get_per_request)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->x[X_REQ])
		occ_val_dec(v, f, (double)r->x[X_SECT] / (double)r->x[X_REQ]);
}
GETTER(get_efficiency)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->x[X_L2_MAX_B])
		occ_val_pct(v, r->x[X_REQUESTED], r->x[X_L2_MAX_B]);
}

#define COL(label, width) { label, width, 2, OCC_TXT_DASH, NULL, 0 }
#define X(name, desc, x, label, width) { name, OCC_FT_INT, desc, get_x, NULL, \
	COL(label, width), 0, x }
#define L(name, desc, arg, label, width) { name, OCC_FT_INT, desc, get_launch, \
	NULL, COL(label, width), 0, arg }

static const struct occ_field fields[] = {
	{ "arch", OCC_FT_STR, "the architecture", get_arch, NULL,
	  { NULL, -7, 0, 0, NULL, 0 }, 0, 0 },
	{ "kernel", OCC_FT_STR, "the accesses, as --traffic gives them",
	  get_kernel, NULL, COL(NULL, -20), 0, 0 },
	L("grid", "blocks launched (absent: --count)", 0, NULL, 10),
	L("block", "threads per block (absent: --count)", 1, NULL, 6),
	L("launch_threads", "threads launched", 2, "threads", 10),
	L("warps", "warps launched, partial ones included", 3, NULL, 9),
	L("threads", "active threads of each warp", 4, "active", 6),
	L("elem_size", "every access's element size, bytes (absent: they "
	  "differ)", 5, "elem", 4),
	{ "l1_cached", OCC_FT_BOOL, "whether loads are cached in L1",
	  get_l1_cached, NULL, COL("L1", 5), 0, 0 },
	{ "op", OCC_FT_STR, "load, store, or total", get_op, NULL,
	  COL(NULL, -5), 0, 0 },
	X("instructions", "warp-level global instructions", X_INSTR, NULL, 12),
	X("requests", "L1/TEX requests", X_REQ, NULL, 10),
	X("sectors", "L1/TEX sectors", X_SECT, NULL, 10),
	{ "sectors_per_request", OCC_FT_DEC, "sectors over requests",
	  get_per_request, NULL, COL("sectors/req", 11), 0, 0 },
	X("l1_bytes", "L1/TEX bytes: sectors x sector size", X_L1_BYTES,
	  "L1 bytes", 11),
	X("lines", "distinct cache lines per request, summed", X_LINES,
	  NULL, 9),
	X("requested_bytes", "distinct bytes per request, summed",
	  X_REQUESTED, "requested", 11),
	X("l2_sectors_min", "sectors from L1 to L2 when every access that "
	  "can hit in L1 does", X_L2_MIN, "L2 sect. min", 12),
	X("l2_sectors_max", "sectors from L1 to L2 when none hits",
	  X_L2_MAX, "L2 sect. max", 12),
	X("l2_bytes_min", "l2_sectors_min x sector size", X_L2_MIN_B,
	  "L2 bytes min", 12),
	X("l2_bytes_max", "l2_sectors_max x sector size", X_L2_MAX_B,
	  "L2 bytes max", 12),
	{ "efficiency_pct", OCC_FT_DEC, "requested over l2_bytes_max, percent",
	  get_efficiency, NULL, { "efficiency", 10, 2, OCC_TXT_PCT | OCC_TXT_DASH,
	  NULL, 0 }, 0, 0 },
	X("dram_bytes_min", "device memory bytes, each sector once",
	  X_DRAM_MIN, "DRAM min", 11),
	X("dram_bytes_max", "device memory bytes, every sector L2 receives",
	  X_DRAM_MAX, "DRAM max", 11),
	L("footprint_bytes", "distinct bytes of the launch, loads and stores "
	  "together, whole sectors", 6, "footprint", 11),
};

const struct occ_row_kind kind_traffic = {
	"traffic", fields, sizeof fields / sizeof fields[0], NULL
};

static const struct occ_field *field_named(const char *name)
{
	size_t i;

	for (i = 0; i < kind_traffic.n; i++)
		if (strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

/* ---- Rows ---- */

static int ops_row(const struct launch *l, const struct occ_traffic_ops *o,
		   struct traffic_row *r)
{
	static const int of[][2] = {
		{ X_L1_BYTES, X_SECT }, { X_L2_MIN_B, X_L2_MIN },
		{ X_L2_MAX_B, X_L2_MAX }, { X_DRAM_MIN, X_DIST },
		{ X_DRAM_MAX, X_L2_MAX },
	};
	uint64_t sector = (uint64_t)l->t.sector_size;
	size_t i;

	r->x[X_INSTR] = o->instructions;
	r->x[X_REQ] = o->requests;
	r->x[X_SECT] = o->sectors;
	r->x[X_LINES] = o->lines;
	r->x[X_REQUESTED] = o->requested;
	r->x[X_L2_MIN] = o->l2_min;
	r->x[X_L2_MAX] = o->l2_max;
	r->x[X_DIST] = o->distinct;
	for (i = 0; i < sizeof of / sizeof of[0]; i++)
		if (__builtin_mul_overflow(r->x[of[i][1]], sector,
					   &r->x[of[i][0]]))
			return 0;
	return 1;
}

/* The launch's rows, load, store and total; 0 when a figure does not fit
 * 64 bits. */
static int make_rows(struct launch *l, struct traffic_row rows[3])
{
	int i, op;

	for (op = 0; op < 3; op++) {
		rows[op].l = l;
		rows[op].op = op;
	}
	if (!ops_row(l, &l->t.load, &rows[OP_LOAD]) ||
	    !ops_row(l, &l->t.store, &rows[OP_STORE]) ||
	    __builtin_mul_overflow(l->t.footprint,
				   (uint64_t)l->t.sector_size, &l->footprint))
		return 0;
	for (i = 0; i < X_N; i++)
		if (__builtin_add_overflow(rows[OP_LOAD].x[i],
					   rows[OP_STORE].x[i],
					   &rows[OP_TOTAL].x[i]))
			return 0;
	return 1;
}

/* ---- The report: three tables, one per level ---- */

struct col {
	const char *name, *label;
};

static void level_table(FILE *fp, const struct traffic_row rows[3],
			const char *level, occ_field_get op_text,
			const struct col *cols, size_t n)
{
	struct occ_field f[8];
	struct fieldsel sel;
	struct out out;
	size_t i;

	f[0] = *field_named("op");
	f[0].text.label = level;
	f[0].text.width = -13;
	f[0].text.get = op_text;
	for (i = 0; i < n; i++) {
		f[i + 1] = *field_named(cols[i].name);
		if (cols[i].label)
			f[i + 1].text.label = cols[i].label;
	}
	sel.n = n + 1;
	sel.needs = 0;
	for (i = 0; i < sel.n; i++)
		sel.f[i] = &f[i];
	out_open(&out, fp, OUT_TEXT, &sel);
	for (i = 0; i < 3; i++)
		out_row(&out, &rows[i]);
	out_close(&out);
}

/* The arrays' element sizes: "4-byte elements", or each array's. */
static void elements_text(FILE *f, const struct launch *l)
{
	int a;
	size_t i;

	if (l->elem) {
		fprintf(f, "%d-byte elements", l->elem);
		return;
	}
	fputs("elements of", f);
	for (a = 0; a < l->k->n_arrays; a++)
		for (i = 0; i < l->k->n; i++)
			if (l->k->acc[i].array == a) {
				fprintf(f, "%s %s %d B", a ? "," : "",
					l->k->names[a],
					l->k->acc[i].access.elem_size);
				break;
			}
}

static void report_head(FILE *f, const struct launch *l)
{
	const struct occ_traffic *t = &l->t;
	char shape[24];

	fprintf(f, "%s (%s): ", l->arch, l->a->name);

	if (l->grid) {
		fprintf(f, "%" PRIu64, l->grid);
		if (l->grid_dim[2])
			fprintf(f, " (%" PRIu64 "x%" PRIu64 "x%" PRIu64 ")",
				l->grid_dim[0], l->grid_dim[1], l->grid_dim[2]);
		else if (l->grid_dim[1])
			fprintf(f, " (%" PRIu64 "x%" PRIu64 ")",
				l->grid_dim[0], l->grid_dim[1]);
		fprintf(f, " block%s of ", plural((long long)l->grid));
	}
	if (l->grid && l->dim) {
		seq_shape_text(shape, sizeof shape, l->dim);
		fprintf(f, "%s (%" PRIu64 ") threads, ", shape, l->block);
	} else if (l->grid) {
		fprintf(f, "%" PRIu64 " thread%s, ", l->block,
			plural((long long)l->block));
	}
	fprintf(f, "%" PRIu64 " thread%s in %" PRIu64 " warp%s\n%s",
		t->threads, plural(t->threads), t->warps,
		plural(t->warps), l->text);
	if (l->defines)
		fprintf(f, " (%s)", l->defines);
	fputs(": ", f);
	elements_text(f, l);
	if (l->threads < 32)
		fprintf(f, ", %d active thread%s per warp", l->threads,
			plural(l->threads));
	fprintf(f, "; loads %scached in L1%s\n\n", t->load.l1_cached ? ""
		: "not ", t->load.l1_lines ? ", which fetches whole lines" : "");
}

static void report(FILE *f, const struct launch *l,
		   const struct traffic_row rows[3])
{
	static const struct col l1[] = {
		{ "instructions", NULL }, { "requests", NULL },
		{ "sectors", NULL }, { "sectors_per_request", NULL },
		{ "l1_bytes", "bytes" }, { "requested_bytes", NULL },
		{ "lines", NULL },
	};
	static const struct col l2[] = {
		{ "l2_sectors_min", "sectors min" },
		{ "l2_sectors_max", "sectors max" },
		{ "l2_bytes_min", "bytes min" }, { "l2_bytes_max", "bytes max" },
		{ "efficiency_pct", NULL },
	};
	static const struct col dram[] = {
		{ "dram_bytes_min", "bytes min" },
		{ "dram_bytes_max", "bytes max" },
	};

	report_head(f, l);
	/* Lines are the transactions only where the L1 fetches lines. */
	level_table(f, rows, "L1/TEX", NULL, l1, 6 + (size_t)l->t.load.l1_lines);
	fputc('\n', f);
	level_table(f, rows, "L1 to L2", NULL, l2, 5);
	fputc('\n', f);
	level_table(f, rows, "Device memory", get_dram_op, dram, 2);
	fprintf(f, "\nL2 min: each sector%s once (every access that can hit "
		"in L1 does); max: no hit.\nDevice memory min: each sector "
		"once; max: every sector L2 receives. Footprint %" PRIu64
		" B.\n", l->t.load.l1_lines ? " or line" : "", l->footprint);
}

/* ---- The accesses and the launch ---- */

struct traffic_run {
	struct session *s;
	const struct occ_arch *a;
	struct occ_kernel_env env;     /* --define's names */
	struct occ_kernel_text k;      /* as parsed, named sizes set */
	int report;                    /* text, one launch: the report */
	struct fieldsel sel;
	struct out out;
};

static void compute_failed(const struct launch *l, enum occ_status st)
{
	const struct occ_traffic *t = &l->t;
	const struct occ_kernel_access *acc = &l->k->acc[t->fault_access];

	if (st == OCC_ERR_UNKNOWN_ARCH)
		die("%s's table has no globalMemorySectorSize and "
		    "globalMemoryLineSize", l->arch);
	if (st == OCC_ERR_NOMEM)
		die("out of memory");
	if (st == OCC_ERR_UNSUPPORTED && t->fault == OCC_TRAFFIC_TILE_GROUP)
		die("--traffic: '%s': %s's index divides the thread's index "
		    "by %u in blocks of %" PRIu64 " threads, placed by "
		    "blockIdx.x/y/z: not computed (blocks of a multiple of "
		    "%u are)", l->text, l->k->names[acc->array], acc->group,
		    l->block, acc->group);
	if (st == OCC_ERR_UNSUPPORTED && t->fault == OCC_TRAFFIC_TILE_LISTED)
		die("--traffic: '%s': a grid tiled by blockIdx.x/y/z whose "
		    "sectors fall in too many separate runs to list (more "
		    "than 2^20)", l->text);
	if (st == OCC_ERR_UNSUPPORTED && t->fault == OCC_TRAFFIC_SPAN_LISTED)
		die("--traffic: '%s': one repeating span of the launch touches "
		    "more distinct sectors and lines than are held (2^24 "
		    "numbers, 128 MB): not counted", l->text);
	if (st == OCC_ERR_UNSUPPORTED)
		die("--traffic: '%s': an array accessed with two different "
		    "strides over %" PRIu64 " threads: too many to list",
		    l->text, t->threads);
	if (t->fault == OCC_TRAFFIC_BAD_ACCESS)
		die_usage("--elem: %s has %d-byte elements: an element is 1, 2, "
			  "4, 8 or 16 bytes", l->k->names[acc->array],
			  acc->access.elem_size);
	if (t->fault == OCC_TRAFFIC_ADDRESS_OVERFLOW)
		die_usage("--traffic: '%s': the addresses of %s (%d-byte "
			  "elements) overflow 64 bits over %" PRIu64 " threads",
			  l->text, l->k->names[acc->array],
			  acc->access.elem_size, t->threads);
	if (t->fault == OCC_TRAFFIC_THREADS_OVERFLOW)
		die_usage("--grid %" PRIu64 " x --block %" PRIu64 ": the thread "
			  "count overflows 64 bits", l->grid, l->block);
	die("--traffic: '%s': the launch's totals do not fit 64 bits",
	    l->text);
}

/* One launch of `size` threads (--count) or blocks of `size`. */
static void one_launch(struct traffic_run *run, uint64_t size,
		       const uint16_t *dim, int elem, int threads)
{
	const struct options *o = run->s->o;
	struct occ_kernel_text k;
	struct occ_launch ol = { 1, size, o->traffic.l1, 0, 0, 0, 0 };
	struct traffic_row rows[3];
	struct launch l;
	enum occ_status st;
	size_t i;

	/* Only blockDim, gridDim and the like change with the launch: text
	 * without them is mode_traffic's one reading. */
	if (run->k.uses_builtins)
		traffic_parse(&run->k, &run->env, o->traffic.text,
			      o->traffic.elems, o->grid_dim, size, dim);
	k = run->k;
	memset(&l, 0, sizeof l);
	arch_tag(l.arch, sizeof l.arch, run->a);
	l.a = run->a;
	l.text = o->traffic.text;
	l.defines = o->traffic.defines;
	l.k = &k;
	l.threads = threads;
	l.elem = o->traffic.elems ? k.acc[0].access.elem_size : elem;
	for (i = 0; i < k.n; i++) {
		if (!o->traffic.elems)
			k.acc[i].access.elem_size = elem;
		k.acc[i].access.threads = threads;
		if (k.acc[i].access.elem_size != l.elem)
			l.elem = 0;
	}
	if (o->grid) {
		l.grid = ol.grid = o->grid;
		l.grid_dim = o->grid_dim;
		l.block = size;
		ol.grid_y = (uint32_t)o->grid_dim[1];
		ol.grid_z = (uint32_t)o->grid_dim[2];
	}
	if (o->grid && dim) {
		l.dim = dim;
		ol.block_x = dim[0];
		ol.block_y = dim[1];
	}
	st = occ_traffic_compute(run->a, &ol, k.acc, k.n, &l.t);
	if (st != OCC_OK)
		compute_failed(&l, st);
	if (!make_rows(&l, rows))
		die("--traffic: '%s': the launch's bytes do not fit 64 bits",
		    l.text);
	if (run->report)
		report(stdout, &l, rows);
	/* The report prints no rows: --check judges them all the same. */
	for (i = 0; run->report && run->out.check && i < 3; i++)
		check_judge(run->out.check, &rows[i]);
	if (!run->report)
		for (i = 0; i < 3; i++)
			out_row(&run->out, &rows[i]);
}

/* A sweep of block sizes is refused whole, before its first row, if one
 * is above the architecture's limit. */
static void check_blocks(const struct traffic_run *run, const struct seq *b)
{
	const uint64_t max = (uint64_t)run->a->max_threads_per_block;
	const struct seq_range *r;
	uint64_t last, first;
	char arch[16];
	size_t i;

	for (i = 0; i < b->n; i++) {
		r = &b->ranges[i];
		last = r->start + (r->end - r->start) / r->step * r->step;
		if (last <= max)
			continue;
		first = r->start > max ? r->start
			: r->start + ((max - r->start) / r->step + 1) * r->step;
		arch_tag(arch, sizeof arch, run->a);
		die_usage("--block: '%" PRIu64 "': above %s's "
			  "maxThreadsPerBlock, %d", first, arch,
			  run->a->max_threads_per_block);
	}
}

/* The block's shape where --block gave one (16x16), else NULL. */
static const uint16_t *block_dim(const struct options *o,
				 const struct seq_iter *size)
{
	const uint16_t *dim = size->s->ranges[size->range].dim;

	return o->grid && dim[0] ? dim : NULL;
}

/* Every launch size, element size and thread count, innermost last. */
static void sweep(struct traffic_run *run, const struct seq *sizes)
{
	const struct options *o = run->s->o;
	struct seq_iter size, elem, threads;

	seq_first(&size, sizes);
	do {
		seq_first(&elem, &o->access.elem);
		do {
			seq_first(&threads, &o->access.threads);
			do
				one_launch(run, size.value,
					   block_dim(o, &size),
					   (int)elem.value, (int)threads.value);
			while (seq_next(&threads));
		} while (seq_next(&elem));
	} while (seq_next(&size));
}

#define TEXT_FIELDS "grid,block,launch_threads,threads,elem_size,op," \
	"instructions,requests,sectors,sectors_per_request," \
	"l2_bytes_min,l2_bytes_max,dram_bytes_min,dram_bytes_max"
#define ALL_FIELDS "arch,kernel,grid,block,launch_threads,warps,threads," \
	"elem_size,l1_cached,op,instructions,requests,sectors," \
	"sectors_per_request,l1_bytes,lines,requested_bytes,l2_sectors_min," \
	"l2_sectors_max,l2_bytes_min,l2_bytes_max,efficiency_pct," \
	"dram_bytes_min,dram_bytes_max,footprint_bytes"

/* The launch: --grid and --block, or --count; the sizes to sweep. */
static const struct seq *launch_sizes(const struct options *o)
{
	int count = o->traffic.count.n > 0;

	if (count && (o->grid || o->have_block))
		die_usage("--count is the launch's thread count: give it, or "
			  "--grid and --block, not both");
	if (!count && !(o->grid && o->have_block))
		die_usage("--traffic needs a launch: --grid N and --block N, or "
			  "--count N");
	return count ? &o->traffic.count : &o->block;
}

static int run_traffic(struct session *s)
{
	const struct options *o = s->o;
	const struct seq *sizes = launch_sizes(o);
	struct traffic_run run;
	struct seq_iter first;

	memset(&run, 0, sizeof run);
	run.s = s;
	run.a = o->arch ? session_find_arch(s, o->arch)
			: session_device_arch(s);
	if (o->traffic.defines)
		traffic_defines(&run.env, o->traffic.defines);
	/* read once before any output, as the first launch reads it */
	seq_first(&first, sizes);
	traffic_parse(&run.k, &run.env, o->traffic.text, o->traffic.elems,
		      o->grid_dim, first.value, block_dim(o, &first));
	run.report = o->format == OUT_TEXT && !o->fields &&
		     !sizes->is_sweep && !o->access.elem.is_sweep &&
		     !o->access.threads.is_sweep;
	fieldsel_make(&run.sel, &kind_traffic, o->fields,
		      o->format == OUT_TEXT ? TEXT_FIELDS : ALL_FIELDS);
	if (o->grid)
		check_blocks(&run, sizes);
	out_open(&run.out, stdout, o->format, &run.sel);
	out_style(&run.out, o->format_style);
	check_attach(s, &run.out, &kind_traffic);
	sweep(&run, sizes);
	if (!run.report)
		out_close(&run.out);
	return 0;
}

const struct mode mode_traffic = {
	.name = "--traffic",
	.run = run_traffic,
	.tables = TABLES_READ,
	.memory = 1,
	.kinds = { &kind_traffic },
};
