/* cli.h - the occcalc command line: sweeps and output (internal). */
#ifndef OCC_CLI_H
#define OCC_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "occcalc.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Sweeps: "128", "64,128,256", "32:1024:32", or a mix ---- */

struct seq_range {
	uint64_t start, end, step;
};

struct seq {
	struct seq_range *ranges;
	size_t n;
	int is_sweep;      /* written as a list or range, even of one value */
};

struct seq_iter {
	const struct seq *s;
	size_t range;
	uint64_t value;
};

enum seq_error {
	SEQ_OK = 0,
	SEQ_EMPTY,         /* nothing between the commas */
	SEQ_NOT_NUMBER,
	SEQ_NEGATIVE,
	SEQ_OVERFLOW,      /* beyond 64 bits */
	SEQ_TOO_LARGE,     /* beyond the option's maximum */
	SEQ_TOO_SMALL,     /* below the option's minimum */
	SEQ_STEP_ZERO,
	SEQ_REVERSED,      /* START > END */
	SEQ_NOMEM
};

/* Parses s into *out, every value within [min, max]. */
enum seq_error seq_parse(const char *s, uint64_t min, uint64_t max,
			 struct seq *out);
void seq_free(struct seq *s);
int seq_first(struct seq_iter *it, const struct seq *s);
/* How many values s holds (saturating). */
uint64_t seq_count(const struct seq *s);
int seq_next(struct seq_iter *it);

/* ---- Output ---- */

enum out_format { OUT_TEXT, OUT_JSON, OUT_CSV };

/* What a row shows beside the model, with --api or --measure. */
struct row_gpu {
	int kernel_regs;       /* the calibrated kernel's, per the runtime */
	int api_blocks;        /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
	int measured;          /* 0: --api only, or nothing launches */
	int expected;          /* the model's most blocks per SM in this launch */
	struct gpu_measured m;
};

/* Whether the API says what the model does, and the measurement finds the
 * blocks per SM the model expects of the launch. */
int row_gpu_agrees(const struct row_gpu *g, const struct occ_result *r);

struct out {
	FILE *f;
	enum out_format format;
	int headroom;       /* JSON objects carry a "headroom" member */
	int kernels;        /* text rows end with the kernel's name */
	int sweep;          /* several rows (a table, an array) */
	int gpu;            /* rows carry the GPU's columns (struct row_gpu) */
	unsigned long long rows;
	char buf[1 << 16];
	size_t len;
};

void out_begin(struct out *o, FILE *f, enum out_format format, int sweep);
/* What a row says beyond the configuration and its result. */
struct row_extra {
	const struct occ_best *best;   /* the recommendation, or NULL */
	int sms;                       /* 0: not given */
	int64_t grid;                  /* 0: not given */
	const struct occ_usage *usage; /* the compiler's report, or NULL */
	const char *kernel;            /* its name, demangled if C++ */
	const struct row_gpu *gpu;     /* with --api or --measure, or NULL */
};

void out_row(struct out *o, const struct occ_arch *a,
	     const struct occ_kernel *k, const struct occ_result *r,
	     const struct row_extra *x);
/* Flushes; returns 0, or -1 when writing failed. */
int out_end(struct out *o);

/* The report a person reads for one configuration. */
void out_report(FILE *f, const struct occ_arch *a,
		const struct occ_kernel *k, const struct occ_result *r);
/* The GPU section of the report: the API's answer and the measurement. */
void out_gpu(FILE *f, const struct occ_device *d, const struct row_gpu *g,
	     const struct occ_result *r);
/* The waves section of the report. */
void out_waves(FILE *f, const struct occ_result *r, int64_t grid, int sms);

/* The headroom section of the report. */
void out_headroom(FILE *f, const struct occ_result *r,
		  const struct occ_headroom *h);

/* The recommendation, before the report at the recommended size. */
void out_best(FILE *f, const struct occ_arch *a, const struct occ_best *best,
	      int sms);
void out_info(FILE *f, enum out_format format, const struct occ_arch *a);
void out_list(FILE *f, enum out_format format, const struct occ_tables *t);

/* "sm_90" for 9.0 */
void arch_tag(char *buf, size_t n, const struct occ_arch *a);

void out_devices(FILE *f, enum out_format format,
		 const struct occ_device *devs, int n);
/* --info for a device: its table merged, the device's figures, and where
 * the two disagree. */
void out_device_info(FILE *f, enum out_format format,
		     const struct occ_device *d, const struct occ_arch *merged,
		     const struct occ_arch *table);

/* num/den in percent with two decimals, ties to even: every percentage
 * occcalc prints goes through here, so all outputs agree. */
void format_ratio_percent(char *buf, uint64_t num, uint64_t den);

/* ---- Messages (main.c): one line on stderr, "occcalc: ..." ---- */

/* A failure while doing what was asked: exit 1. */
void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* An error in how occcalc was called: exit 2. */
void die_usage(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Memory calculators (memory.c): --access and --persist ---- */

struct access_measured;
struct persist_measured;

/* --access: the accesses to compute, every combination of these. */
struct access_request {
	unsigned ops;                  /* 1 << enum occ_access_op */
	struct seq elem, stride, offset, threads;
	unsigned lane_xor;
	int total;                     /* a row summing the others */
};

/* Every access of req on a, measured on gpu unless it is NULL. */
void mem_evaluate_access(const struct occ_arch *a,
			 const struct access_request *req,
			 enum out_format format, const struct occ_device *gpu);
/* A plan for each of sizes, carried out on gpu unless it is NULL. */
void mem_evaluate_plans(const struct occ_l2 *l2, const struct seq *sizes,
			int streams, enum out_format format,
			const struct occ_device *gpu);

struct mem_out {
	FILE *f;
	enum out_format format;
	int sweep;
	uint64_t rows;
	/* Sums of the access rows, for --total. */
	uint64_t requested, moved, l1_moved, sectors, lines;
};

void mem_begin(struct mem_out *m, FILE *f, enum out_format format,
	       int sweep);
/* g: the access measured on the GPU, or NULL. */
void mem_access_row(struct mem_out *m, const struct occ_arch *a,
		    const struct occ_access *acc,
		    const struct occ_access_result *r,
		    const struct access_measured *g);
void mem_access_total(struct mem_out *m);
void mem_plan_row(struct mem_out *m, const struct occ_l2 *l2, uint64_t data,
		  int streams, const struct occ_l2_plan *p,
		  const struct persist_measured *g);
/* Flushes; 0, or -1 when writing failed. */
int mem_end(struct mem_out *m);

/* ---- Charts ---- */

/* Occupancy (percent) as one input varies, the others as configured. */
struct chart_series {
	const char *name;      /* block, registers, smem */
	const char *xlabel;
	const char *unit;
	size_t n;
	uint64_t *x;
	double *y;             /* percent, for drawing */
	int *warps;            /* active warps per SM, for printing */
	int max_warps;
	uint64_t cur_x;        /* the configuration's value */
};

int chart_build(const struct occ_arch *a, const struct occ_kernel *k,
		struct chart_series s[3]);
void chart_free(struct chart_series s[3]);
void chart_text(FILE *f, const struct chart_series s[3],
		const struct occ_result *current);
int chart_svg(FILE *f, const char *title, const struct chart_series s[3],
	      const struct occ_result *current);

/* The demangled name (malloc'ed), or NULL if it is not a C++ symbol. */
char *occ_demangle(const char *mangled);

#ifdef __cplusplus
}
#endif

#endif
