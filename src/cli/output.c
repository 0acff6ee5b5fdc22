/*
 * output.c - what occcalc prints: rows (text, JSON, CSV), the report for
 * one configuration, a table's values, the list of architectures.
 *
 * Rows are formatted by hand into a buffer: a sweep prints millions of
 * them, and printf's parsing would cost more than the model.
 */
#include <string.h>

#include "cli.h"

/* ---- Buffer ---- */

static void __attribute__((noinline)) flush(struct out *o)
{
	if (o->len) {
		fwrite(o->buf, 1, o->len, o->f);
		o->len = 0;
	}
}

static inline void put(struct out *o, const char *s, size_t n)
{
	if (__builtin_expect(o->len + n > sizeof o->buf, 0)) {
		flush(o);
		if (n > sizeof o->buf) {
			fwrite(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void put_char(struct out *o, char c)
{
	if (__builtin_expect(o->len + 1 > sizeof o->buf, 0))
		flush(o);
	o->buf[o->len++] = c;
}

static inline void put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930"
	"31323334353637383940414243444546474849505152535455565758596061"
	"62636465666768697071727374757677787980818283848586878889909192"
	"93949596979899";

static inline int digit_count(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Written in place, two digits at a time: a sweep prints millions. */
static inline void put_u64(struct out *o, uint64_t v)
{
	char *end;
	int n;

	if (__builtin_expect(o->len + 24 > sizeof o->buf, 0))
		flush(o);
	n = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : digit_count(v);
	end = o->buf + o->len + n;
	o->len += (size_t)n;
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--end = digit_pairs[d + 1];
		*--end = digit_pairs[d];
	}
	if (v >= 10) {
		*--end = digit_pairs[v * 2 + 1];
		*--end = digit_pairs[v * 2];
	} else {
		*--end = (char)('0' + v);
	}
}

/* A per-resource limit: unlimited is empty in CSV, null in JSON. */
static void put_limit(struct out *o, int v)
{
	if (v == OCC_UNLIMITED) {
		if (o->format == OUT_JSON)
			put_str(o, "null");
	} else {
		put_u64(o, (uint64_t)v);
	}
}

void format_ratio_percent(char *buf, uint64_t num, uint64_t den)
{
	uint64_t hundredths, rem, whole;
	char digits[24];
	int n = 0;

	/* Measured cycle counts can be large; a few low bits do not show in
	 * two decimals. */
	while (num > UINT64_MAX / 10000) {
		num >>= 1;
		den >>= 1;
	}
	hundredths = num * 10000 / den;
	rem = num * 10000 % den;
	/* A tie goes to the even digit, as printf("%.2f") rounds the exact
	 * binary fractions occupancy is made of: what Nsight Compute and
	 * nvprof print (65.625 % is 65.62, 3.125 % is 3.12). */
	if (2 * rem > den || (2 * rem == den && hundredths % 2))
		hundredths++;
	whole = hundredths / 100;

	do {
		digits[n++] = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole);
	while (n)
		*buf++ = digits[--n];
	*buf++ = '.';
	*buf++ = (char)('0' + hundredths % 100 / 10);
	*buf++ = (char)('0' + hundredths % 10);
	*buf = '\0';
}

static void format_percent(char *buf, const struct occ_result *r)
{
	format_ratio_percent(buf, (uint64_t)r->warps_per_sm,
			     (uint64_t)r->max_warps_per_sm);
}

/* Occupancy averaged over a launch of w->waves waves. */
static void format_launch_percent(char *buf, const struct occ_result *r,
				  const struct occ_waves *w)
{
	format_ratio_percent(buf, (uint64_t)w->grid * (uint64_t)r->warps_per_block,
			     (uint64_t)w->waves * (uint64_t)w->sms *
			     (uint64_t)r->max_warps_per_sm);
}

static void format_limiters(char *buf, unsigned bits)
{
	static const enum occ_resource order[] = {
		OCC_RESOURCE_WARPS, OCC_RESOURCE_REGISTERS,
		OCC_RESOURCE_SHARED_MEMORY, OCC_RESOURCE_BLOCKS,
		OCC_RESOURCE_BARRIERS
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (bits & order[i]) {
			if (buf[0])
				strcat(buf, "+");
			strcat(buf, occ_resource_name(order[i]));
		}
}

void arch_tag(char *buf, size_t n, const struct occ_arch *a)
{
	snprintf(buf, n, "sm_%d%d", a->cc_major, a->cc_minor);
}

/* The tag of the architecture of the last row: rows repeat it. */
static const char *row_arch_tag(const struct occ_arch *a)
{
	static const struct occ_arch *last;
	static char tag[16];

	if (a != last) {
		arch_tag(tag, sizeof tag, a);
		last = a;
	}
	return tag;
}

/* ---- Rows ---- */

/* Column names, in order; JSON uses the same names. */
static const char *const columns[] = {
	"arch", "block", "regs", "smem", "static_smem", "blocks_per_sm",
	"warps_per_sm", "occupancy_pct", "limiter", "max_warps_per_sm",
	"warps_per_block", "limit_warps", "limit_registers",
	"limit_shared_memory", "limit_blocks", "limit_barriers",
	"regs_per_block", "smem_per_block", "smem_per_sm", "carveout",
	"optin", "needs_optin", "barriers", "reason", "min_grid_size", "ties",
	"grid", "waves", "tail_blocks", "launch_occupancy_pct", "kernel",
	"mangled", "stack", "spill_stores", "spill_loads",
	/* With --api or --measure. */
	"kernel_regs", "api_blocks_per_sm", "measured_grid",
	"expected_blocks_per_sm", "measured_blocks_per_sm",
	"achieved_occupancy_pct", "measure_ms", "agrees",
};

#define NCOLUMNS (sizeof columns / sizeof columns[0])
#define NGPU_COLUMNS 8

static void csv_header(struct out *o)
{
	size_t i, n = o->gpu ? NCOLUMNS : NCOLUMNS - NGPU_COLUMNS;

	for (i = 0; i < n; i++) {
		if (i)
			put(o, ",", 1);
		put_str(o, columns[i]);
	}
	put(o, "\n", 1);
}

static void text_header(struct out *o)
{
	put_str(o, "arch     block  regs      smem    static  blocks  warps"
		   "  occupancy  limiter");
	if (o->gpu)
		put_str(o, "        api  resident  achieved");
	put_str(o, o->kernels ? "  kernel\n" : "\n");
}

static void format_achieved(char *buf, const struct gpu_measured *m)
{
	const struct occ_residency *r = &m->residency;

	format_ratio_percent(buf, r->warp_cycles,
			     (uint64_t)r->max_warps_per_sm * r->active_cycles);
}

void out_begin(struct out *o, FILE *f, enum out_format format, int sweep)
{
	o->f = f;
	o->format = format;
	o->sweep = sweep;
	o->rows = 0;
	o->len = 0;
	o->headroom = 0;
	o->gpu = 0;
}

/* The header, once the row options are set: before the first row. */
static void out_header(struct out *o)
{
	if (o->format == OUT_CSV)
		csv_header(o);
	else if (o->format == OUT_TEXT && o->sweep)
		text_header(o);
	else if (o->format == OUT_JSON && o->sweep)
		put(o, "[", 1);
}

/* Field values as strings, shared by JSON and CSV. */
struct fields {
	char arch[16], pct[32], limiter[64], carveout[16];
};

static void fill_fields(struct fields *f, const struct occ_arch *a,
			const struct occ_kernel *k, const struct occ_result *r)
{
	strcpy(f->arch, row_arch_tag(a));
	format_percent(f->pct, r);
	format_limiters(f->limiter, r->limiters);
	if (k->carveout == OCC_CARVEOUT_DEFAULT)
		strcpy(f->carveout, "default");
	else
		snprintf(f->carveout, sizeof f->carveout, "%d", k->carveout);
}

/* "1024 512 256": the block sizes tied for the best occupancy. */
static void format_ties(char *buf, size_t n, const struct occ_best *best)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; best && i < best->n_ties && len + 8 < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%d",
					i ? " " : "", best->ties[i]);
}

/* One separated record: CSV cells or JSON members, in column order. */
/* A name as a CSV cell or JSON string. */
static void put_name(struct out *o, const char *s, int json)
{
	int quote = json || strpbrk(s, ",\"\n") != NULL;

	if (quote)
		put(o, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			put_str(o, json ? "\\\"" : "\"\"");
		else if (json && *s == '\\')
			put_str(o, "\\\\");
		else
			put(o, s, 1);
	}
	if (quote)
		put(o, "\"", 1);
}

static void put_record(struct out *o, const struct occ_arch *a,
		       const struct occ_kernel *k, const struct occ_result *r,
		       const struct row_extra *x)
{
	char ties[OCC_MAX_TIES * 6], launch[32];
	struct occ_waves w;
	const struct occ_best *best = x->best;
	int sms = x->sms;
	int64_t grid = x->grid;
	int have_waves = grid && occ_waves(r, grid, sms, &w) == OCC_OK;

	struct fields f;
	int json = o->format == OUT_JSON;
	size_t col = 0;

	fill_fields(&f, a, k, r);
#define KEY() do { \
		if (col) put_char(o, ','); \
		if (json) { put(o, "\"", 1); put_str(o, columns[col]); \
			    put(o, "\":", 2); } \
		col++; } while (0)
#define STR(s) do { KEY(); if (json) put(o, "\"", 1); put_str(o, s); \
		    if (json) put(o, "\"", 1); } while (0)
#define NUM(v) do { KEY(); put_u64(o, (uint64_t)(v)); } while (0)
#define LIM(v) do { KEY(); put_limit(o, v); } while (0)
#define BOOL(v) do { KEY(); put_str(o, (v) ? "true" : "false"); } while (0)
	STR(f.arch);
	NUM(k->block_size);
	NUM(k->regs_per_thread);
	NUM(k->dynamic_smem);
	NUM(k->static_smem);
	NUM(r->blocks_per_sm);
	NUM(r->warps_per_sm);
	KEY(); put_str(o, f.pct);
	STR(f.limiter);
	NUM(r->max_warps_per_sm);
	NUM(r->warps_per_block);
	LIM(r->limit_warps);
	LIM(r->limit_registers);
	LIM(r->limit_shared_memory);
	LIM(r->limit_blocks);
	LIM(r->limit_barriers);
	NUM(r->regs_per_block);
	NUM(r->smem_per_block);
	NUM(r->smem_per_sm);
	if (json && k->carveout == OCC_CARVEOUT_DEFAULT) {
		KEY(); put_str(o, "null");
	} else if (json) {
		NUM(k->carveout);
	} else {
		STR(f.carveout);
	}
	BOOL(k->optin);
	BOOL(r->needs_optin);
	NUM(k->barriers);
	if (json && r->reason == OCC_LAUNCHES) {
		KEY(); put_str(o, "null");
	} else {
		STR(occ_reason_name(r->reason));
	}
	if (sms) {
		NUM((uint64_t)r->blocks_per_sm * (uint64_t)sms);
	} else {
		KEY(); put_str(o, json ? "null" : "");
	}
	format_ties(ties, sizeof ties, best);
	if (json && !best) {
		KEY(); put_str(o, "null");
	} else {
		STR(ties);
	}
	if (have_waves) {
		format_launch_percent(launch, r, &w);
		NUM(w.grid);
		NUM(w.waves);
		NUM(w.tail_blocks);
		KEY(); put_str(o, launch);
	} else {
		const char *none = json ? "null" : "";

		if (grid) {
			NUM(grid);
		} else {
			KEY(); put_str(o, none);
		}
		KEY(); put_str(o, none);
		KEY(); put_str(o, none);
		KEY(); put_str(o, none);
	}
	if (x->usage) {
		KEY(); put_name(o, x->kernel, json);
		KEY(); put_name(o, x->usage->mangled, json);
		NUM(x->usage->stack);
		NUM(x->usage->spill_stores);
		NUM(x->usage->spill_loads);
	} else {
		int i;

		for (i = 0; i < 5; i++) {
			KEY(); put_str(o, json ? "null" : "");
		}
	}
	if (o->gpu && x->gpu) {
		const struct row_gpu *g = x->gpu;
		char pct[32], ms[32];

		NUM(g->kernel_regs);
		NUM(g->api_blocks);
		if (g->measured) {
			format_achieved(pct, &g->m);
			snprintf(ms, sizeof ms, "%.3f", g->m.ms);
			NUM(g->m.grid);
			NUM(g->expected);
			NUM(g->m.residency.max_blocks_per_sm);
			KEY(); put_str(o, pct);
			KEY(); put_str(o, ms);
		} else {
			int i;

			for (i = 0; i < 5; i++) {
				KEY(); put_str(o, json ? "null" : "");
			}
		}
		BOOL(row_gpu_agrees(g, r));
	}
#undef KEY
#undef STR
#undef NUM
#undef LIM
#undef BOOL
}

/* The API's blocks, the measured ones and the achieved occupancy, with a
 * "!" where they contradict the model. */
static void text_gpu_cells(char *line, size_t n, const struct row_gpu *g,
			   const struct occ_result *r)
{
	size_t len = strlen(line) - 1;   /* over the newline */
	char pct[32] = "-", resident[16] = "-";

	if (g->measured) {
		format_achieved(pct, &g->m);
		strcat(pct, "%");
		snprintf(resident, sizeof resident, "%d",
			 g->m.residency.max_blocks_per_sm);
	}
	snprintf(line + len, n - len, "%*s%5d%10s%10s%s\n",
		 len < 79 ? (int)(79 - len) : 1, "", g->api_blocks, resident,
		 pct, row_gpu_agrees(g, r) ? "" : "  !");
}

static void text_row(struct out *o, const struct occ_arch *a,
		     const struct occ_kernel *k, const struct occ_result *r,
		     const struct row_extra *x)
{
	struct fields f;
	char line[256];

	fill_fields(&f, a, k, r);
	snprintf(line, sizeof line,
		 "%-7s %6d %5d %9llu %9llu %7d %6d %9s%%  %s\n", f.arch,
		 k->block_size, k->regs_per_thread,
		 (unsigned long long)k->dynamic_smem,
		 (unsigned long long)k->static_smem, r->blocks_per_sm,
		 r->warps_per_sm, f.pct,
		 r->blocks_per_sm ? f.limiter : occ_reason_name(r->reason));
	if (o->gpu && x->gpu)
		text_gpu_cells(line, sizeof line, x->gpu, r);
	if (x->kernel) {
		line[strlen(line) - 1] = '\0';
		put_str(o, line);
		put_str(o, "  ");
		put_str(o, x->kernel);
		put(o, "\n", 1);
	} else {
		put_str(o, line);
	}
}

static void put_step_json(struct out *o, const char *name,
			  const struct occ_step *s)
{
	char buf[256];

	snprintf(buf, sizeof buf, "\"%s\":{\"value\":%llu,\"blocks\":%d,"
		 "\"keep_max\":%llu,", name, (unsigned long long)s->value,
		 s->blocks, (unsigned long long)s->keep_max);
	put_str(o, buf);
	if (s->has_gain)
		snprintf(buf, sizeof buf, "\"gain_at\":%llu,\"gain_blocks\":%d,",
			 (unsigned long long)s->gain_at, s->gain_blocks);
	else
		snprintf(buf, sizeof buf, "\"gain_at\":null,\"gain_blocks\":null,");
	put_str(o, buf);
	if (s->has_drop)
		snprintf(buf, sizeof buf, "\"drop_from\":%llu,\"drop_to\":%llu,"
			 "\"drop_blocks\":%d}", (unsigned long long)s->drop_from,
			 (unsigned long long)s->drop_to, s->drop_blocks);
	else
		snprintf(buf, sizeof buf, "\"drop_from\":null,\"drop_to\":null,"
			 "\"drop_blocks\":null}");
	put_str(o, buf);
}

static void put_headroom_json(struct out *o, const struct occ_arch *a,
			      const struct occ_kernel *k)
{
	struct occ_headroom h;

	if (occ_headroom(a, k, &h) != OCC_OK)
		return;
	put_str(o, ",\"headroom\":{");
	put_step_json(o, "registers", &h.regs);
	put(o, ",", 1);
	put_step_json(o, "smem", &h.smem);
	put(o, "}", 1);
}

void out_row(struct out *o, const struct occ_arch *a,
	     const struct occ_kernel *k, const struct occ_result *r,
	     const struct row_extra *x)
{
	if (o->rows == 0)
		out_header(o);
	switch (o->format) {
	case OUT_TEXT:
		text_row(o, a, k, r, x);
		break;
	case OUT_CSV:
		put_record(o, a, k, r, x);
		put(o, "\n", 1);
		break;
	case OUT_JSON:
		if (o->sweep)
			put_str(o, o->rows ? ",\n" : "\n");
		put(o, "{", 1);
		put_record(o, a, k, r, x);
		if (o->headroom)
			put_headroom_json(o, a, k);
		put(o, "}", 1);
		if (!o->sweep)
			put(o, "\n", 1);
		break;
	}
	o->rows++;
}

int out_end(struct out *o)
{
	if (o->rows == 0)
		out_header(o);
	if (o->format == OUT_JSON && o->sweep)
		put_str(o, "\n]\n");
	flush(o);
	return fflush(o->f) == 0 && !ferror(o->f) ? 0 : -1;
}

/* ---- The report ---- */

/* "228 KiB" when whole kibibytes, else "1152 B". */
static const char *human_bytes(char *buf, size_t n, uint64_t v)
{
	if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, n, "%llu KiB", (unsigned long long)(v / 1024));
	else
		snprintf(buf, n, "%llu B", (unsigned long long)v);
	return buf;
}

static const char *blocks_cell(char *buf, size_t n, int v)
{
	if (v == OCC_UNLIMITED)
		snprintf(buf, n, "unlimited");
	else
		snprintf(buf, n, "%d", v);
	return buf;
}

static void report_line(FILE *f, const char *resource, const char *per_block,
			const char *per_sm, int blocks, unsigned bit,
			unsigned limiters)
{
	char cell[32];

	fprintf(f, "  %-15s %12s %12s %12s%s\n", resource, per_block, per_sm,
		blocks_cell(cell, sizeof cell, blocks),
		limiters & bit ? "  <- limiter" : "");
}

static void report_resources(FILE *f, const struct occ_arch *a,
			     const struct occ_kernel *k,
			     const struct occ_result *r)
{
	char pb[32], ps[32];

	fprintf(f, "  %-15s %12s %12s %12s\n", "Resource", "per block",
		"per SM", "blocks/SM");
	snprintf(pb, sizeof pb, "%d", r->warps_per_block);
	snprintf(ps, sizeof ps, "%d", r->max_warps_per_sm);
	report_line(f, "Warps", pb, ps, r->limit_warps, OCC_RESOURCE_WARPS,
		    r->limiters);
	snprintf(pb, sizeof pb, "%d", r->regs_per_block);
	snprintf(ps, sizeof ps, "%d", a->regs_per_sm);
	report_line(f, "Registers", pb, ps, r->limit_registers,
		    OCC_RESOURCE_REGISTERS, r->limiters);
	report_line(f, "Shared memory",
		    human_bytes(pb, sizeof pb, r->smem_per_block),
		    human_bytes(ps, sizeof ps, r->smem_per_sm),
		    r->limit_shared_memory, OCC_RESOURCE_SHARED_MEMORY,
		    r->limiters);
	snprintf(ps, sizeof ps, "%d", a->max_blocks_per_sm);
	report_line(f, "Block slots", "1", ps, r->limit_blocks,
		    OCC_RESOURCE_BLOCKS, r->limiters);
	snprintf(pb, sizeof pb, "%d", k->barriers);
	if (a->max_barriers_per_sm)
		snprintf(ps, sizeof ps, "%d", a->max_barriers_per_sm);
	else
		snprintf(ps, sizeof ps, "-");
	report_line(f, "Barriers", pb, ps, r->limit_barriers,
		    OCC_RESOURCE_BARRIERS, r->limiters);
}

static void report_cannot_launch(FILE *f, const struct occ_arch *a,
				 const struct occ_kernel *k,
				 const struct occ_result *r)
{
	char tag[16];

	arch_tag(tag, sizeof tag, a);
	fputs("Cannot launch: ", f);
	switch (r->reason) {
	case OCC_LAUNCHES:
		break;
	case OCC_BLOCK_TOO_LARGE:
		fprintf(f, "%d threads per block exceed maxThreadsPerBlock "
			"(%d).\n", k->block_size, a->max_threads_per_block);
		break;
	case OCC_TOO_MANY_REGS_THREAD:
		fprintf(f, "%d registers per thread exceed the %d %s allows.\n",
			k->regs_per_thread, a->max_regs_per_thread, tag);
		break;
	case OCC_TOO_MANY_REGS_BLOCK:
		fprintf(f, "the block needs %d registers, more than regsPerBlock "
			"(%d).\n", r->regs_per_block, a->regs_per_block);
		break;
	case OCC_REGS_DO_NOT_FIT_SM:
		fprintf(f, "one block's warps do not fit the register file's "
			"%d sub-partitions.\n", a->reg_sub_partitions);
		break;
	case OCC_STATIC_SMEM_TOO_LARGE:
		fprintf(f, "static shared memory (%llu B) exceeds "
			"sharedMemPerBlock (%llu B), the static limit.\n",
			(unsigned long long)k->static_smem,
			(unsigned long long)a->smem_per_block);
		break;
	case OCC_SMEM_NEEDS_OPTIN:
		fprintf(f, "%llu B of shared memory per block exceed "
			"sharedMemPerBlock (%llu B) and --no-optin was given.\n",
			(unsigned long long)(k->static_smem + k->dynamic_smem),
			(unsigned long long)a->smem_per_block);
		break;
	case OCC_SMEM_TOO_LARGE:
		fprintf(f, "%llu B of shared memory per block exceed "
			"sharedMemPerBlockOptin (%llu B).\n",
			(unsigned long long)(k->static_smem + k->dynamic_smem),
			(unsigned long long)a->smem_per_block_optin);
		break;
	}
}

static void report_notes(FILE *f, const struct occ_arch *a,
			 const struct occ_kernel *k, const struct occ_result *r)
{
	if (a->smem_reserved_per_block)
		fprintf(f, "Note: shared memory per block includes %llu B "
			"reserved by the driver.\n",
			(unsigned long long)a->smem_reserved_per_block);
	if (r->needs_optin && k->optin && r->reason == OCC_LAUNCHES)
		fprintf(f, "Note: above %llu B per block the kernel must opt in: "
			"cudaFuncSetAttribute(kernel, "
			"cudaFuncAttributeMaxDynamicSharedMemorySize, %llu).\n",
			(unsigned long long)a->smem_per_block,
			(unsigned long long)k->dynamic_smem);
	if (k->carveout != OCC_CARVEOUT_DEFAULT && a->n_smem_carveouts == 0)
		fprintf(f, "Note: the carveout preference has no effect on "
			"this architecture.\n");
}

void out_report(FILE *f, const struct occ_arch *a, const struct occ_kernel *k,
		const struct occ_result *r)
{
	char tag[16], pct[32], lim[64], carve[32];

	arch_tag(tag, sizeof tag, a);
	format_percent(pct, r);
	format_limiters(lim, r->limiters);
	if (k->carveout == OCC_CARVEOUT_DEFAULT)
		strcpy(carve, "default");
	else
		snprintf(carve, sizeof carve, "%d %%", k->carveout);
	fprintf(f, "%s (%s), compute capability %d.%d\n", tag, a->name,
		a->cc_major, a->cc_minor);
	fprintf(f, "Kernel: %d threads/block, %d registers/thread, "
		"%llu B static + %llu B dynamic shared memory/block, "
		"carveout %s\n\n", k->block_size, k->regs_per_thread,
		(unsigned long long)k->static_smem,
		(unsigned long long)k->dynamic_smem, carve);
	report_resources(f, a, k, r);
	fprintf(f, "\n");
	fprintf(f, "Active blocks per SM  %d\n", r->blocks_per_sm);
	fprintf(f, "Active warps per SM   %d of %d\n", r->warps_per_sm,
		r->max_warps_per_sm);
	fprintf(f, "Occupancy             %s %%\n", pct);
	fprintf(f, "Limited by            %s\n", lim);
	if (r->blocks_per_sm == 0)
		report_cannot_launch(f, a, k, r);
	report_notes(f, a, k, r);
}

/* ---- Headroom ---- */

/* "16 blocks (100.00 %)" */
static const char *blocks_pct(char *buf, size_t n, int blocks,
			      const struct occ_result *r)
{
	struct occ_result at = *r;
	char pct[32];

	at.warps_per_sm = blocks * r->warps_per_block;
	format_percent(pct, &at);
	if (blocks == 0)
		snprintf(buf, n, "cannot launch");
	else
		snprintf(buf, n, "%d block%s (%s %%)", blocks,
			 blocks == 1 ? "" : "s", pct);
	return buf;
}

static void step_line(FILE *f, const char *what, const char *unit,
		      const struct occ_step *s, const struct occ_result *r)
{
	char b[64];

	fprintf(f, "  %-20s %llu%s: ", what, (unsigned long long)s->value, unit);
	if (s->blocks == 0) {
		if (s->has_gain)
			fprintf(f, "cannot launch; %llu%s or less: %s\n",
				(unsigned long long)s->gain_at, unit,
				blocks_pct(b, sizeof b, s->gain_blocks, r));
		else
			fprintf(f, "cannot launch, whatever its value\n");
		return;
	}
	fprintf(f, "%s up to %llu%s", blocks_pct(b, sizeof b, s->blocks, r),
		(unsigned long long)s->keep_max, unit);
	if (s->has_gain)
		fprintf(f, "; %llu%s or less: %s", (unsigned long long)s->gain_at,
			unit, blocks_pct(b, sizeof b, s->gain_blocks, r));
	if (s->has_drop && s->drop_blocks == 0)
		fprintf(f, "; above %llu%s: cannot launch",
			(unsigned long long)s->keep_max, unit);
	else if (s->has_drop)
		fprintf(f, "; %llu-%llu%s: %s", (unsigned long long)s->drop_from,
			(unsigned long long)s->drop_to, unit,
			blocks_pct(b, sizeof b, s->drop_blocks, r));
	fputc('\n', f);
}

void out_headroom(FILE *f, const struct occ_result *r,
		  const struct occ_headroom *h)
{
	fprintf(f, "\nHeadroom, the other inputs unchanged:\n");
	step_line(f, "Registers/thread", "", &h->regs, r);
	step_line(f, "Dynamic smem/block", " B", &h->smem, r);
}

/* ---- Waves ---- */

void out_waves(FILE *f, const struct occ_result *r, int64_t grid, int sms)
{
	struct occ_waves w;
	struct occ_result fewer = *r;
	char pct[32], tail[32], alt[32];

	fprintf(f, "\nWaves: a grid of %lld blocks on %d SMs\n",
		(long long)grid, sms);
	if (occ_waves(r, grid, sms, &w) != OCC_OK) {
		fprintf(f, "  none: the configuration does not launch\n");
		return;
	}
	format_launch_percent(pct, r, &w);
	format_ratio_percent(tail, (uint64_t)w.tail_blocks, (uint64_t)w.per_wave);
	fprintf(f, "  %lld blocks per wave (%d per SM): %lld full wave%s",
		(long long)w.per_wave, r->blocks_per_sm, (long long)w.full_waves,
		w.full_waves == 1 ? "" : "s");
	if (w.tail_blocks)
		fprintf(f, " and a last wave of %lld blocks (%s %% full)",
			(long long)w.tail_blocks, tail);
	fprintf(f, "\n  Occupancy over the whole launch: %s %%\n", pct);
	if (w.max_resident_per_sm < r->blocks_per_sm)
		fprintf(f, "  Smaller than a wave, the grid spreads over the "
			"SMs: at most %d blocks per SM at once.\n",
			w.max_resident_per_sm);
	if (w.same_waves_blocks < r->blocks_per_sm) {
		fewer.warps_per_sm = w.same_waves_blocks * r->warps_per_block;
		format_percent(alt, &fewer);
		fprintf(f, "  The idle slots of the last wave cancel the extra "
			"occupancy: %d blocks per SM (%s %%) would finish in as "
			"many waves (%lld), if blocks take as long.\n",
			w.same_waves_blocks, alt, (long long)w.waves);
	}
}

/* ---- The recommendation ---- */

void out_best(FILE *f, const struct occ_arch *a, const struct occ_best *best,
	      int sms)
{
	char ties[OCC_MAX_TIES * 6];
	int per_sm = best->result.blocks_per_sm;

	if (best->block_size == 0) {
		fprintf(f, "No block size from %d to %d threads can launch; "
			"the smallest:\n\n", a->warp_size,
			a->max_threads_per_block);
		return;
	}
	fprintf(f, "Best block size       %d threads\n", best->block_size);
	if (best->n_ties > 1) {
		format_ties(ties, sizeof ties, best);
		fprintf(f, "Same occupancy with   %s\n", ties);
		fprintf(f, "                      (the largest is preferred: "
			"cudaOccupancyMaxPotentialBlockSize returns it)\n");
	}
	if (sms)
		fprintf(f, "Minimum grid          %d blocks (%d per SM x %d SMs)"
			"\n", per_sm * sms, per_sm, sms);
	else
		fprintf(f, "Minimum grid          %d blocks per SM x the GPU's "
			"SMs (--sms N)\n", per_sm);
	fputc('\n', f);
}

/* ---- A table's values ---- */

/* A string as the format quotes it: JSON always, with escapes; CSV when
 * it holds a separator or a quote, doubling quotes. */
static void put_quoted(FILE *f, const char *s, enum out_format format)
{
	if (format == OUT_TEXT ||
	    (format == OUT_CSV && !strpbrk(s, ",\"\n"))) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (format == OUT_CSV && c == '"')
			fputs("\"\"", f);
		else if (format == OUT_JSON && (c == '"' || c == '\\'))
			fprintf(f, "\\%c", c);
		else if (format == OUT_JSON && c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A key/value listing: 'key value' lines, 'key,value' rows, or one JSON
 * object. */
struct kv {
	FILE *f;
	enum out_format format;
	int n;
};

static void kv_begin(struct kv *kv, FILE *f, enum out_format format)
{
	kv->f = f;
	kv->format = format;
	kv->n = 0;
	if (format == OUT_CSV)
		fputs("key,value\n", f);
	else if (format == OUT_JSON)
		fputc('{', f);
}

static void kv_key(struct kv *kv, const char *key)
{
	if (kv->format == OUT_JSON)
		fprintf(kv->f, "%s\n  \"%s\": ", kv->n ? "," : "", key);
	else if (kv->format == OUT_CSV)
		fprintf(kv->f, "%s,", key);
	else
		fprintf(kv->f, "%-33s ", key);
	kv->n++;
}

static void kv_end_value(struct kv *kv)
{
	if (kv->format != OUT_JSON)
		fputc('\n', kv->f);
}

static void kv_num(struct kv *kv, const char *key, uint64_t v)
{
	kv_key(kv, key);
	fprintf(kv->f, "%llu", (unsigned long long)v);
	kv_end_value(kv);
}

static void kv_str(struct kv *kv, const char *key, const char *v)
{
	kv_key(kv, key);
	put_quoted(kv->f, v, kv->format);
	kv_end_value(kv);
}

static void kv_end(struct kv *kv)
{
	if (kv->format == OUT_JSON)
		fputs("\n}\n", kv->f);
}

static void kv_arch(struct kv *kv, const struct occ_arch *a)
{
	size_t i, n = occ_arch_key_count();
	char cc[16];
	int j;

	for (i = 0; i < n; i++) {
		const struct occ_key *key = occ_arch_key(i);

		if (!occ_arch_has(a, key))
			continue;
		switch (key->type) {
		case OCC_KEY_CC:
			snprintf(cc, sizeof cc, "%d.%d", a->cc_major, a->cc_minor);
			kv_key(kv, key->name);
			put_quoted(kv->f, cc, kv->format == OUT_JSON ? OUT_JSON
				   : OUT_TEXT);
			kv_end_value(kv);
			break;
		case OCC_KEY_STRING:
			kv_str(kv, key->name, strcmp(key->name, "name") == 0
			       ? a->name : a->products);
			break;
		case OCC_KEY_INT:
		case OCC_KEY_BYTES:
			kv_num(kv, key->name, occ_arch_value(a, key));
			break;
		case OCC_KEY_BYTES_LIST:
			kv_key(kv, key->name);
			fputs(kv->format == OUT_JSON ? "[" : "", kv->f);
			for (j = 0; j < a->n_smem_carveouts; j++)
				fprintf(kv->f, "%s%llu", j ? (kv->format ==
					OUT_JSON ? "," : " ") : "",
					(unsigned long long)a->smem_carveouts[j]);
			fputs(kv->format == OUT_JSON ? "]" : "", kv->f);
			kv_end_value(kv);
			break;
		}
	}
}

void out_info(FILE *f, enum out_format format, const struct occ_arch *a)
{
	struct kv kv;

	kv_begin(&kv, f, format);
	kv_arch(&kv, a);
	kv_str(&kv, "source", a->source);
	kv_end(&kv);
}

void out_device_info(FILE *f, enum out_format format,
		     const struct occ_device *d, const struct occ_arch *merged,
		     const struct occ_arch *table)
{
	struct kv kv;
	size_t i, n = occ_arch_key_count();
	char key[96];
	int differ = 0;

	kv_begin(&kv, f, format);
	kv_num(&kv, "device", (uint64_t)d->index);
	kv_str(&kv, "deviceName", d->name);
	kv_arch(&kv, merged);
	kv_num(&kv, "multiProcessorCount", (uint64_t)d->sms);
	kv_num(&kv, "totalGlobalMem", d->total_mem);
	kv_num(&kv, "l2CacheSize", d->l2_cache);
	kv_num(&kv, "persistingL2CacheMaxSize", d->persisting_l2_max);
	kv_num(&kv, "accessPolicyMaxWindowSize", d->access_policy_max_window);
	kv_num(&kv, "clockRate", (uint64_t)d->clock_khz);
	kv_num(&kv, "memoryClockRate", (uint64_t)d->mem_clock_khz);
	kv_num(&kv, "memoryBusWidth", (uint64_t)d->bus_width);
	/* Where the table says otherwise: the device's value was used. */
	for (i = 0; i < n; i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (!device_reports(k) ||
		    occ_arch_value(table, k) == occ_arch_value(merged, k))
			continue;
		snprintf(key, sizeof key, "table.%s", k->name);
		kv_num(&kv, key, occ_arch_value(table, k));
		differ++;
	}
	kv_num(&kv, "tableContradictions", (uint64_t)differ);
	kv_str(&kv, "source", table->source);
	kv_end(&kv);
}

void out_devices(FILE *f, enum out_format format,
		 const struct occ_device *devs, int n)
{
	int i;

	if (format == OUT_CSV)
		fputs("device,name,cc,sms,memory\n", f);
	else if (format == OUT_JSON)
		fputc('[', f);
	else
		fprintf(f, "%-6s %-5s %5s %14s  %s\n", "device", "cc", "sms",
			"memory", "name");
	for (i = 0; i < n; i++) {
		const struct occ_device *d = &devs[i];
		char cc[16];

		snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
		if (format == OUT_TEXT) {
			fprintf(f, "%-6d %-5s %5d %14llu  %s\n", d->index, cc,
				d->sms, (unsigned long long)d->total_mem,
				d->name);
			continue;
		}
		if (format == OUT_JSON)
			fprintf(f, "%s\n  {\"device\": %d, \"name\": ",
				i ? "," : "", d->index);
		else
			fprintf(f, "%d,", d->index);
		put_quoted(f, d->name, format);
		if (format == OUT_JSON)
			fprintf(f, ", \"cc\": \"%s\", \"sms\": %d, "
				"\"memory\": %llu}", cc, d->sms,
				(unsigned long long)d->total_mem);
		else
			fprintf(f, ",%s,%d,%llu\n", cc, d->sms,
				(unsigned long long)d->total_mem);
	}
	if (format == OUT_JSON)
		fputs("\n]\n", f);
}

/* ---- The list of architectures ---- */

void out_list(FILE *f, enum out_format format, const struct occ_tables *t)
{
	size_t i;

	if (format == OUT_CSV)
		fputs("arch,cc,name,products\n", f);
	else if (format == OUT_JSON)
		fputs("[", f);
	else
		fprintf(f, "%-8s %-5s %-13s %s\n", "arch", "cc", "name",
			"products");
	for (i = 0; i < occ_tables_count(t); i++) {
		const struct occ_arch *a = occ_tables_get(t, i);
		char tag[16], cc[16];

		arch_tag(tag, sizeof tag, a);
		snprintf(cc, sizeof cc, "%d.%d", a->cc_major, a->cc_minor);
		if (format == OUT_CSV) {
			fprintf(f, "%s,%s,", tag, cc);
			put_quoted(f, a->name, format);
			fputc(',', f);
			put_quoted(f, a->products, format);
			fputc('\n', f);
		} else if (format == OUT_JSON) {
			fprintf(f, "%s\n  {\"arch\": \"%s\", \"cc\": \"%s\", "
				"\"name\": ", i ? "," : "", tag, cc);
			put_quoted(f, a->name, format);
			fputs(", \"products\": ", f);
			put_quoted(f, a->products, format);
			fputc('}', f);
		} else {
			fprintf(f, "%-8s %-5s %-13s %s\n", tag, cc, a->name,
				a->products);
		}
	}
	if (format == OUT_JSON)
		fputs("\n]\n", f);
}

/* ---- On the GPU ---- */

void out_gpu(FILE *f, const struct occ_device *d, const struct row_gpu *g,
	     const struct occ_result *r)
{
	char pct[32];

	fprintf(f, "\nOn device %d (%s), a calibrated kernel with %d "
		"registers:\n", d->index, d->name, g->kernel_regs);
	fprintf(f, "  Occupancy API         %d blocks per SM\n", g->api_blocks);
	if (g->measured) {
		format_achieved(pct, &g->m);
		fprintf(f, "  Measured              %d blocks resident per SM, "
			"%s %% achieved occupancy\n",
			g->m.residency.max_blocks_per_sm, pct);
		fprintf(f, "                        (%lld blocks on %d SMs, "
			"%.1f ms)\n", (long long)g->m.grid,
			g->m.residency.sms_used, g->m.ms);
	}
	if (g->measured && g->expected != r->blocks_per_sm)
		fprintf(f, "  (the grid spreads over the SMs: the model expects "
			"at most %d per SM)\n", g->expected);
	if (row_gpu_agrees(g, r))
		fprintf(f, "  %s the model.\n", g->measured
			? "Both agree with" : "It agrees with");
	else
		fprintf(f, "  DISAGREES with the model.\n");
}

int row_gpu_agrees(const struct row_gpu *g, const struct occ_result *r)
{
	if (g->api_blocks != r->blocks_per_sm)
		return 0;
	return !g->measured || g->m.residency.max_blocks_per_sm == g->expected;
}
