/* cli.h - the occcalc command line (internal): modes, options, rows and
 * the fields that print them. HACKING.md says which table to touch to add
 * a field, an option or a mode. */
#ifndef OCC_CLI_H
#define OCC_CLI_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "occcalc.h"
#include "gpu.h"
#include "gpu_cluster.h"
#include "words.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Sweeps: "128", "64,128,256", "32:1024:32", or a mix (sweep.c) ---- */

struct seq_range {
	uint64_t start, end, step;
	uint16_t dim[3];   /* a block shape (16x16: 16, 16, 0), else 0 */
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
	SEQ_NOMEM,
	SEQ_SHAPE,         /* not XxY or XxYxZ */
	SEQ_SHAPE_ZERO,    /* a dimension of 0 */
	SEQ_SHAPE_LARGE    /* beyond CUDA's block limits */
};

/* CUDA's limits on a block's shape, the same on every compute
 * capability from 2.0 (the CUDA C++ Programming Guide, "Technical
 * Specifications per Compute Capability": maximum x- or y-dimension of a
 * block 1024, z-dimension 64, threads per block 1024). */
#define BLOCK_MAX_XY 1024
#define BLOCK_MAX_Z 64
#define BLOCK_MAX_THREADS 1024

/* Parses s into *out, every value within [min, max]. */
enum seq_error seq_parse(const char *s, uint64_t min, uint64_t max,
			 struct seq *out);
/* The same, where an item may also be a block shape (16x16, 8x8x4): its
 * threads, the product, with the shape in its range's dim. */
enum seq_error seq_parse_shapes(const char *s, uint64_t min, uint64_t max,
				struct seq *out);
/* "16x16" for a shape (dim[0] != 0) into buf. */
void seq_shape_text(char *buf, size_t n, const uint16_t dim[3]);
void seq_free(struct seq *s);
int seq_first(struct seq_iter *it, const struct seq *s);
/* How many values s holds (saturating). */
uint64_t seq_count(const struct seq *s);
int seq_next(struct seq_iter *it);

#ifndef OCC_TABLES_DIR
#define OCC_TABLES_DIR "/usr/local/share/occcalc/arch-tables"
#endif

/* ---- Modes: one file and one entry point each (main.c's table) ---- */

enum mode_id {
	MODE_OCCUPANCY, MODE_KERNELS, MODE_ACCESS, MODE_PERSIST, MODE_INFO,
	MODE_LIST_ARCHS, MODE_LIST_GPUS, MODE_LIST_DEVICES, MODE_LIST_FIELDS,
	MODE_TRAFFIC,
	MODE_COUNT
};

#define M(id) (1u << (id))
#define M_ALL ((1u << MODE_COUNT) - 1)

/* ---- Options (options.c): one table defines them all ---- */

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_JSONL };
/* --format csv,noheader,nounits (nvidia-smi's words), for CSV and text
 * tables: no header row; values without units (a table's '%'). */
#define OUT_NOHEADER 1u
#define OUT_NOUNITS 2u

/* --access: the accesses to compute, every combination of these. */
struct access_request {
	unsigned ops;                  /* 1 << enum occ_access_op */
	struct seq elem, stride, offset, threads;
	uint64_t lane_xor;
	int total;                     /* a row summing the others */
};

/* --traffic: a kernel's accesses as text, over a launch (--grid and
 * --block, or --count); --elem and --threads sweep with access's seqs. */
struct traffic_request {
	const char *text;
	const char *elems;             /* --elem NAME=BYTES,...; or NULL */
	const char *defines;           /* --define NAME=N,...; or NULL */
	struct seq count;
	enum occ_l1_policy l1;         /* --dlcm */
};

/* --cluster: the shapes asked for, in order (cluster.c). */
#define MAX_CLUSTER_ITEMS 64

struct cluster_item {
	struct occ_cluster_shape shape;
	int best;                      /* 'best': the size is the model's */
	char name[24];                 /* as given: "4", "2x2", "best" */
	const char *source;            /* NULL: --cluster; else what declares */
};

struct cluster_request {
	struct cluster_item items[MAX_CLUSTER_ITEMS];
	int n;
};

/* Where every option's value lands. Numbers are kept wide, as parsed
 * within the option's range, and narrowed where they are used. */
struct options {
	enum mode_id mode;
	const char *arch, *tables, *gpu, *ptxas, *plot, *fields;
	const char *const *more_kernels; int n_more_kernels;  /* --kernels a b */
	const char *kernel_re;          /* --kernel REGEX */
	uint64_t jobs;                  /* --jobs N; 0: one per processor */
	const char *completion;         /* --completion SHELL */
	const char *check[32];          /* --check EXPR, each given */
	int n_check;
	const char *check_file;         /* --check-file FILE */
	const char *compare;            /* --compare BASELINE */
	int all;                        /* --all: unchanged rows too */
	int gpu_list;                   /* --gpu took a list (targets.c) */
	struct seq block, regs, smem, static_smem;
	int have_block;                 /* --block given */
	int regs_given;                 /* --regs given */
	struct occ_smem_growth growth;  /* fixed part: the --smem value */
	uint64_t sms, grid, device;     /* 0: not given (device: 0) */
	uint64_t carveout, barriers, streams;
	int carveout_default, barriers_given;
	int chart, api, measure, headroom, optin;
	int all_images;                 /* --kernels: not only the loaded */
	int ptxas_jit;                  /* --kernels: PTX through ptxas */
	enum out_format format;
	unsigned format_style;          /* OUT_NOHEADER | OUT_NOUNITS */
	struct access_request access;
	struct traffic_request traffic;
	struct seq persist;
	int have_l2;
	struct occ_l2 l2;
	struct cluster_request cluster;
	const char *layout_text;        /* --layout, parsed into layout */
	struct occ_gpc_layout layout;
	int device_all;                 /* --device all */
	/* The options given, in order: for the checks against the mode. */
	int given[64];
	int n_given;
};

/* Option arguments (args.c): a usage error naming the option where the
 * argument is wrong. */
void arg_seq(const char *opt, const char *arg, uint64_t min, uint64_t max,
	     struct seq *out);
void arg_shapes(const char *opt, const char *arg, uint64_t min, uint64_t max,
		struct seq *out);
uint64_t arg_number(const char *opt, const char *arg, uint64_t min,
		    uint64_t max);
typedef void (*arg_parse)(const char *opt, const char *arg, struct options *o);
void arg_carveout(const char *opt, const char *arg, struct options *o);
void arg_format(const char *opt, const char *arg, struct options *o);
void arg_ops(const char *opt, const char *arg, struct options *o);
void arg_l2(const char *opt, const char *arg, struct options *o);
void arg_elem(const char *opt, const char *arg, struct options *o);
void arg_dlcm(const char *opt, const char *arg, struct options *o);
/* --stride: a list or range of integers of either sign, kept in the
 * seq offset by 2^63 (so that they order as numbers); seq_signed reads
 * one back. */
void arg_stride(const char *opt, const char *arg, struct options *o);
#define SEQ_SIGNED_ZERO (UINT64_C(1) << 63)
static inline int64_t seq_signed(uint64_t v)
{
	return (int64_t)(v - SEQ_SIGNED_ZERO);
}
void arg_device(const char *opt, const char *arg, struct options *o);
void arg_cluster(const char *opt, const char *arg, struct options *o);
void arg_layout(const char *opt, const char *arg, struct options *o);
void arg_check(const char *opt, const char *arg, struct options *o);

/* Parses argv; exits with a usage error (or after --help) as it must. */
void options_parse(int argc, char **argv, struct options *o);
void options_free(struct options *o);
/* Whether the user gave the option with this long name. */
int option_given(const struct options *o, const char *name);

/* ---- Messages (msg.c): one line on stderr, "occcalc: ..." ---- */

#define EXIT_USAGE 2

/* Every message quotes what the user gave escaped (\n, \t, \x1b): it is
 * always one line. */

/* A failure while doing what was asked: exit 1. */
void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* An error in how occcalc was called: exit 2. */
void die_usage(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The line of a failure a mode returns as its status, not by die():
 * "occcalc: ...". */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A data file (a table, the GPU list, a compiler report) that cannot be
 * read, from the library's status and diag: the file, its line and the
 * limit broken; err is errno; hint follows a file not found. Exit 1. */
void die_data(enum occ_status st, const struct occ_diag *d, int err,
	      const char *hint) __attribute__((noreturn));
/* Ends the run with status: exit() in the program (occcalc.c); the
 * in-process fuzz harness (fuzz/cli.c) returns to its caller instead. */
void cli_exit(int status) __attribute__((noreturn));

/* ---- Values and fields: one table per kind of row (fields.c) ---- */

enum val_type {
	VAL_NULL,      /* absent: null in JSON, the field's 'none' text else */
	VAL_UINT,
	VAL_DEC,       /* a number already written out (s): 75.00 */
	VAL_STR,       /* text: quoted in JSON and, where needed, in CSV */
	VAL_BOOL,
	VAL_SET,       /* names (strs): a JSON array, '+'-joined elsewhere */
	VAL_LIST       /* numbers (list): a JSON array, ' '-joined elsewhere */
};

struct val {
	enum val_type type;
	uint64_t u;
	const char *s;
	const char *strs[8];
	const uint64_t *list;
	size_t n;
	char buf[48];          /* room for a getter's text */
	uint64_t nums[4];      /* and for its list */
};

struct field;
typedef void (*field_get)(const void *row, const struct field *f,
			  struct val *v);

/* How a field shows in a text table: the header label, the width
 * (negative: left-aligned), the spaces before it, and: */
#define TXT_PCT 1u     /* a percentage: '%' after the value */
#define TXT_DASH 2u    /* absent: '-' */

struct text_col {
	const char *label;     /* NULL: the field's name */
	int width;
	int gap;
	unsigned flags;
	field_get get;         /* what the text shows, if not the value */
	int at;                /* starts at this column, if the line is short */
};

/* What a field needs computed before it prints (enum need bits). */
#define NEED_HEADROOM 1u
#define NEED_MAX_DYN 2u

enum field_type { FT_INT, FT_DEC, FT_STR, FT_BOOL, FT_SET, FT_LIST };

struct field {
	const char *name;
	enum field_type type;
	const char *desc;
	field_get get;
	const char *none;      /* CSV and text for an absent value ("") */
	struct text_col text;
	unsigned needs;
	size_t arg;            /* for getters shared by several fields */
};

/* The fields of one kind of row. */
struct row_kind {
	const char *name;
	const struct field *fields;
	size_t n;
};

extern const struct row_kind kind_occupancy, kind_access, kind_persist,
	kind_info, kind_archs, kind_gpus, kind_devices, kind_fields, kind_traffic;

const char *field_type_name(enum field_type t);
/* A decimal value: a percentage (two decimals, ties to even), or x. */
void val_pct(struct val *v, uint64_t num, uint64_t den);
/* x with the decimals out_decimals() gives field f. */
void val_dec(struct val *v, const struct field *f, double x);
void val_uint(struct val *v, uint64_t u);

#define MAX_FIELDS 128

/* The fields a run prints, in order. */
struct fieldsel {
	const struct field *f[MAX_FIELDS];
	size_t n;
	unsigned needs;        /* the union of their needs */
};

/* --fields LIST if given (a usage error names an unknown field and lists
 * the kind's), else defaults, a comma-separated list of names. */
void fieldsel_make(struct fieldsel *sel, const struct row_kind *kind,
		   const char *given, const char *defaults);

/* ---- Writers (out.c): one per format, rows computed before ---- */

struct check_set;

struct out {
	FILE *f;
	struct check_set *check;   /* --check: judges each row written */
	enum out_format format;
	const struct fieldsel *sel;
	int record;            /* text and CSV: one row as key/value lines */
	int stream;            /* JSON Lines: flush each row (slow rows) */
	unsigned style;        /* OUT_NOHEADER, OUT_NOUNITS */
	int headless;          /* text: no header for a table of no row */
	uint64_t rows;
	size_t len;
	char buf[1 << 16];
};

void out_open(struct out *o, FILE *f, enum out_format format,
	      const struct fieldsel *sel);
/* The user's --format modifiers (csv,noheader,nounits) for o. */
void out_style(struct out *o, unsigned style);
void out_row(struct out *o, const void *row);
/* A line of text between a text table's rows (a sum, a note). */
void out_text(struct out *o, const char *s);
/* Ends the output; exits with "write error" if writing failed. */
void out_close(struct out *o);

/* The decimals a decimal field prints, by its unit, in every mode and
 * format alike: percentages (_pct), ratios and rates 2; times (_ms, _us)
 * 3; hit_ratio 4. */
int out_decimals(const char *field_name);
/* num/den in percent with two decimals, ties to even: every percentage
 * occcalc prints goes through here, so all outputs agree. */
void format_ratio_percent(char *buf, uint64_t num, uint64_t den);
/* "sm_90" for 9.0 */
void arch_tag(char *buf, size_t n, const struct occ_arch *a);
/* A file to write besides the rows (--plot FILE): '-' is standard
 * output; a FIFO without a reader is an error, not a wait. Exits with
 * the reason if it cannot be opened. */
FILE *out_file_open(const char *path);
/* Closes it (flushes standard output); nonzero if writing failed. */
int out_file_close(FILE *f);
/* Flushes stdout; exits with "write error" if that failed. */
void flush_stdout(void);

/* ---- The session: what a run has found, passed to every mode ---- */

/* The GPC layout --cluster computes with, and where it comes from. */
struct session_layout {
	struct occ_gpc_layout l;
	char text[512];                /* 8,16x5,18x2,2x4 */
	char source[320];
	int from_list;                 /* the GPU list's: one chip's */
	int bound;                     /* none: each row's most, from counts */
	int whole;                     /* no GPCs known: l is all SMs as one */
	int cap_unknown;               /* the arch's cluster blocks per SM */
	struct occ_gpc_counts counts;
};

/* Whether a row's cluster figures are upper bounds: no layout, no GPCs
 * known, or no cluster blocks-per-SM cap known (cluster_bound). */
int cluster_upper_bound(const struct session_layout *L);

enum kernel_source { KSRC_PTXAS, KSRC_CUOBJDUMP, KSRC_CUBIN, KSRC_FATBIN,
		     KSRC_ELF, KSRC_PTX };

/* One kernel of one architecture, as read; -1: not recorded there. */
struct kernel_info {
	const char *mangled;     /* the list's names' */
	const char *name;        /* demangled, or NULL: not C++ or not needed */
	const char *file;        /* the kernel_list's copy */
	char arch[16];           /* as compiled: sm_90a, sm_120f, compute_90 */
	int cc_major, cc_minor;
	enum kernel_source source;
	int ptx_only;            /* resources decided by the driver's JIT */
	int regs;
	int64_t static_smem;     /* as cudaFuncGetAttributes' sharedSizeBytes */
	int barriers;
	int64_t stack, spill_stores, spill_loads;
	int bounds_known;        /* the input records __launch_bounds__ */
	int max_threads;         /* 0: no bound */
	int min_blocks;          /* 0: none */
	int max_regs;            /* the register cap ptxas honoured; 0: none */
	int req_threads[3], cluster[3];
	int64_t fatbin_offset;   /* where the driver loads it from: -1 cubin */
	int relocatable;         /* nvcc -rdc code, not linked: not loaded */
	/* With a GPU named, the image of its fatbin the driver loads there:
	 * how it was chosen, the fatbin's images, how many run there. */
	enum occ_bin_image image;
	int images, images_run;
	/* PTX whose resources are the toolkit's ptxas's for the GPU named
	 * (--ptxas-jit): a prediction of the driver's compiler. */
	int from_ptxas;
	int line;                /* in a compiler report */
	struct kernel_launch *launch;   /* Triton's (kernels.h), or NULL */
};

/* Each kernel name once (names.c). */
struct name_entry {
	char *mangled, *name;    /* name: demangled, NULL if not C++ */
	uint64_t hash;
	int demangled;           /* name was computed */
};

struct name_table {
	struct name_entry *e;
	size_t n, cap;           /* cap: a power of 2 */
};

/* The table's entry for mangled, added if new, demangled once when asked. */
const struct name_entry *names_intern(struct name_table *t,
				      const char *mangled, int demangled);
void names_free(struct name_table *t);
#include "ptxas_jit.h"

struct kernel_list {
	struct kernel_info *k;
	size_t n, cap;
	struct name_table names;
	int need_names;          /* demangled names are printed or matched */
	char **files;            /* the files read, for kernel_info.file */
	size_t nfiles;
	unsigned char *stdin_buf;   /* a binary read from standard input */
	size_t stdin_len;
	unsigned char *report;   /* a compiler report's text while it is read */
	int text;                /* read from a compiler report */
	int files_bad;           /* in a directory, warned about */
	int target_cc;           /* the GPU images are chosen for; 0: none */
	size_t no_image;         /* kernels with no image that runs there */
	size_t relocatable_dropped;   /* -rdc kernels beside linked code */
	struct occ_bin_contents contents;   /* what a binary's fatbins held */
	struct ptxas_jit jit;    /* --ptxas-jit: the last PTX compiled */
	regex_t re;              /* --kernel */
	int have_re;
	const struct kernel_info **order;   /* --gpu LIST: grouped */
};

#define MAX_TARGETS 32

struct target {
	char name[48];                    /* the GPU's; "" for an --arch */
	char arch[16];
	int cc_major, cc_minor;
	uint64_t sms;                     /* the GPU's; 0 for an --arch */
};

struct matrix;

struct session {
	struct options *o;
	struct occ_tables *tables;        /* loaded by session_tables() */
	struct occ_device dev;            /* the GPU, once found */
	int have_dev;
	const struct occ_arch *table;     /* its table (or the one borrowed) */
	struct occ_arch merged;           /* the table with its values in */
	char gpu_arch[16];                /* --gpu's architecture */
	char gpu_name[48];                /* and its name in the list */
	struct occ_gpu listed;            /* --gpu's entry: L2, GPCs */
	/* A measured sweep's progress and what it found. */
	uint64_t progress_rows, progress_total;
	int progress;
	uint64_t disagreements;
	int warned_regs;
	struct session_layout layout;     /* with --cluster */
	uint64_t sms_given;               /* --sms, --gpu's: for --device all */
	struct gpu_ctx gpu;               /* the GPU layer's: released at exit */
	/* --kernels: what was read, held here so that a failure while it is
	 * read or shown frees it at exit as a finished run does. */
	struct kernel_list kernels;
	/* The configurations modelled, and those of them that launch: a run
	 * where none can launch fails (session_status). */
	uint64_t configs, configs_launching;
	FILE *plot;                       /* --plot's file, until written */
	/* --check decides the exit status alone: set by the check engine,
	 * so that a configuration that cannot launch does not fail the run
	 * by itself. */
	int status_by_check;
	struct check_set *checks;         /* --check, once attached */
	struct compare *compare;          /* --compare's two sides */
	/* --gpu LIST or --arch LIST: each computed in turn (targets.c). */
	struct target targets[MAX_TARGETS];
	int n_targets;
	struct kernel_list target_kernels[MAX_TARGETS];   /* read for each */
	struct matrix *matrix;            /* --kernels --gpu LIST, text */
};

/* --check, --compare, --gpu LIST and --arch LIST: ci.h */

const struct occ_tables *session_tables(struct session *s);
/* --arch's table: a usage error when there is none. */
const struct occ_arch *session_find_arch(struct session *s, const char *name);
/* The GPU's architecture: its table merged with what it reports. */
const struct occ_arch *session_device_arch(struct session *s);
/* --gpu: the SM count, and the architecture unless --arch names one. */
void session_apply_gpu(struct session *s);
/* gpus.txt beside the tables, and the list it holds (or exit 1). */
void session_gpus_path(struct session *s, char *buf, size_t n);
struct occ_gpus *session_gpus(struct session *s);
/* --device all: uses device index next, found afresh. */
void session_use_device(struct session *s, int index);
/* A GPU query failed: the message, exit 1. */
void session_device_failed(const struct session *s, const char *err)
	__attribute__((noreturn));
/* A configuration modelled: counted for session_status(). */
void session_count_config(struct session *s, const struct occ_result *r);
/* The exit status of a mode whose rows are configurations: 1, with a
 * line saying so, when some were modelled and none can launch (unless
 * --check decides: status_by_check); else 0. */
int session_status(const struct session *s);

/* ---- A run (main.c): what the program's main() does, in parts ---- */

struct cli {
	struct options o;
	struct session s;
};

void cli_init(struct cli *c);
/* Parses argv, runs the mode it picks; its exit status. A message that
 * ends the run calls cli_exit(). */
int cli_run(struct cli *c, int argc, char **argv);
/* Frees what the run holds, whether it returned or ended in cli_exit(). */
void cli_free(struct cli *c);

int mode_occupancy(struct session *s);
int mode_kernels(struct session *s);
int mode_access(struct session *s);
int mode_persist(struct session *s);
int mode_traffic(struct session *s);
/* --traffic's text into k (traffic_text.c): with --define's names and,
 * for a launch of blocks (grid not 0), blockDim from block or its shape
 * dim (or NULL) and gridDim; --elem's NAME=BYTES sizes (elems, or NULL)
 * set. A text that cannot be read is a usage error listing the forms. */
void traffic_parse(struct occ_kernel_text *k,
		   const struct occ_kernel_env *names, const char *text,
		   const char *elems, uint64_t grid, uint64_t block,
		   const uint16_t *dim);
/* --define NAME=N,...: integers of either sign, into env. */
void traffic_defines(struct occ_kernel_env *env, const char *arg);
int mode_info(struct session *s);
int mode_list_archs(struct session *s);
int mode_list_gpus(struct session *s);
int mode_list_devices(struct session *s);
int mode_list_fields(struct session *s);

/* ---- Kernels of a compiler report or a binary (kernels_read.c) ---- */

/* The kernels of path (a report, a binary, a directory, or "-"), those
 * --arch and --kernel keep; dies on what cannot be read. */
void kernels_read(struct session *s, const char *path, struct kernel_list *l);
void kernels_free(struct kernel_list *l);
/* Takes out the PTX read beside the SASS chosen (OCC_IMAGE_BESIDE), once
 * its launch bounds have been given to the SASS rows. */
void kernels_drop_beside(struct kernel_list *l);
/* The target, with a binary's suffix: whether --arch keeps it. */
int kernel_arch_matches(const char *want, const struct kernel_info *k);
/* Why the driver loads k's image on the GPU named (a sentence), or NULL
 * where no image was chosen. */
const char *kernel_image_why(const struct kernel_info *k);

/* ---- Occupancy rows (occupancy.c, fields_occupancy.c) ---- */

/* What a row shows beside the model, with --api or --measure. */
struct row_gpu {
	int kernel_regs;       /* the calibrated kernel's, per the runtime */
	int api_blocks;        /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
	int measured;          /* 0: --api only, or nothing launches */
	int expected;          /* the model's most blocks per SM in this launch */
	struct gpu_measured m;
	int have_api_dyn;      /* the runtime's most dynamic shared memory: */
	uint64_t api_dyn;      /*   cudaOccupancyAvailableDynamicSMemPerBlock */
	int api_dyn_blocks;    /*   and the runtime's blocks with that much */
	int agrees;            /* the API and the measurement agree */
	int have_func;         /* --kernels --api: the driver on the kernel */
	struct gpu_func func;
};

struct occ_row {
	const struct occ_arch *a;
	char arch[16];
	struct occ_kernel k;
	struct occ_result r;
	const struct occ_best *best;   /* without --block */
	uint64_t ties[OCC_MAX_TIES];
	int sms;                       /* 0: not given */
	int64_t grid;                  /* 0: not given */
	int have_waves;
	struct occ_waves w;
	int have_headroom;
	struct occ_headroom h;
	int have_max_dyn;
	uint64_t max_dyn;
	char block_shape[24];          /* --block's shape, or "" */
	int regs_assumed;              /* no --regs: taken as 0 */
	const struct kernel_info *ki;  /* --kernels: the kernel, or NULL */
	const char *kernel;            /* its name, demangled if C++ */
	const struct row_gpu *gpu;     /* with --api or --measure, or NULL */
	int no_model;                  /* PTX only: nothing to compute */
	const struct occ_device *dev;  /* the GPU it was computed for */
	const struct row_cluster *cl;  /* with --cluster, or NULL */
	const char *gpu_name;          /* --gpu LIST: the row's GPU */
	int no_image;                  /* --gpu LIST: the GPU loads no image */
};

/* A cluster launch of the row's configuration (cluster.c). */
/* A kind of GPC of the layout (those of one size) and what one holds. */
struct gpc_kind {
	int sms, count;                    /* SMs each; GPCs of the kind */
	struct occ_cluster_result c;       /* one such GPC alone */
};

struct row_cluster {
	struct occ_cluster_shape shape;
	char name[24];                     /* "2x2", "4" */
	int best;                          /* chosen by --cluster best */
	struct occ_cluster_result c;      /* an upper bound with layout->bound */
	struct occ_gpc_layout own;        /* then the layout that gives it */
	const char *source;                /* the item's */
	struct gpc_kind kinds[OCC_MAX_GPCS];   /* in the layout's order */
	int n_kinds;
	struct occ_cluster_best portable, nonportable;
	const struct session_layout *layout;
	int have_api;                      /* --api: */
	struct gpu_cluster_api api;
	int measured;                      /* --measure, where one fits: */
	struct gpu_cluster_measured m;
	int agrees;
};

/* --cluster: refuses an architecture without clusters and sizes beyond
 * its table, and finds the layout (--layout, the device's measured, or
 * --gpu's in the GPU list), before any row is printed. */
void cluster_prepare(struct session *s, const struct occ_arch *a);
/* A cluster shape as the user writes it: "4", "2x2", "2x2x2". */
void cluster_shape_name(char *buf, size_t n,
			const struct occ_cluster_shape *c);
/* The names of the limits set in bits (enum occ_cluster_limit), in one
 * order for every output; how many (at most 3). */
size_t cluster_limiter_names(unsigned bits, const char *names[3]);
/* The cluster launch of row for item: the model, and the GPU's answers
 * with --api and --measure. */
void cluster_compute(struct session *s, const struct occ_row *row,
		     const struct cluster_item *item, struct row_cluster *cl);
/* The report's section on it (report_cluster.c). */
void report_cluster(FILE *f, const struct occ_row *row, int recommend);
void report_cluster_gpu(FILE *f, const struct occ_device *d,
			const struct occ_row *row);

/* The occupancy of every combination the options sweep, for kernel k
 * (its registers, static memory and barriers set), printed as rows of o. */
struct occ_run {
	struct session *s;
	const struct occ_arch *a;
	struct fieldsel sel;
	struct out out;
	int report;                    /* text, one configuration: the report */
	const struct kernel_info *ki;
	const char *kernel;
	const uint16_t *shape;         /* the block's, from --block */
	const struct occ_arch *tag_of; /* tag is this architecture's name */
	char tag[16];
	const char *gpu_name;          /* --gpu LIST: the GPU computed for */
	int launch;                    /* the block is the launch's (Triton's) */
	const struct seq *smem;        /* its dynamic shared memory, or NULL:
	                                  --smem's */
	const struct cluster_request *clusters;  /* the row's cluster launches,
	                                  or NULL: --cluster's */
	/* --kernels: each cluster launch of a row, for its summary. */
	void (*cluster_hook)(struct occ_run *run, const struct occ_row *row);
	/* --kernels: the driver on the row's kernel, and the row counted. */
	void (*hook)(struct occ_run *run, struct occ_row *row,
		     struct row_gpu *g);
	void *hook_ctx;
	/* --compare: each row handed here instead of printed. */
	void (*sink)(struct occ_run *run, const struct occ_row *row);
	void *sink_ctx;
	/* Cluster rows written as upper bounds: CAP_UNKNOWN, LAYOUT_UNKNOWN
	 * bits, for the note under a text table. */
	unsigned cluster_bounds;
};
#define CLUSTER_CAP_UNKNOWN 1u
#define CLUSTER_LAYOUT_UNKNOWN 2u

void occ_run_open(struct occ_run *run, struct session *s, int sweep,
		  int kernels);
void occ_run_blocks(struct occ_run *run, const struct occ_arch *a,
		    const struct seq *blocks, struct occ_kernel *k);
void occ_run_close(struct occ_run *run);
void occ_run_kernel_defaults(const struct options *o, struct occ_kernel *k);

/* The report a person reads for one configuration (report.c). */
void report_occupancy(FILE *f, const struct occ_row *row);
void report_gpu(FILE *f, const struct occ_device *d, const struct occ_row *row);
void format_limiters(char *buf, unsigned bits);

/* The demangled name (malloc'ed), or NULL if it is not a C++ symbol. */
char *demangle(const char *mangled);

#include "ci.h"

#ifdef __cplusplus
}
#endif

#endif
