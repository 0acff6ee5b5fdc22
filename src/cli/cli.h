/* cli.h - the occcalc command line (internal): modes, options, the
 * session and a run. What rows print through is in out.h, the rows of
 * occupancy in occupancy.h, sweeps in seq.h, messages in msg.h, --cluster
 * in cluster.h, --kernels' list in kernel_list.h (and kernels.h), CI in
 * ci.h. HACKING.md says which table to touch to add a field, an option or
 * a mode. */
#ifndef OCC_CLI_H
#define OCC_CLI_H

#include "occcalc.h"
#include "gpu.h"
#include "words.h"
#include "seq.h"
#include "msg.h"
#include "out.h"
#include "cluster.h"
#include "partition.h"
#include "kernel_list.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef OCC_TABLES_DIR
#define OCC_TABLES_DIR "/usr/local/share/occcalc/arch-tables"
#endif

/* ---- Modes: one file each, listed once in main.c's modes[] ---- */

struct session;
struct occ_row_kind;

/* What a mode reads of the architecture tables' directory: --tables
 * applies to the modes that read something there. */
enum mode_tables {
	TABLES_NONE,
	TABLES_DIR,            /* gpus.txt beside them, not the tables */
	TABLES_READ            /* the tables, read before the mode runs */
};

#define MODE_KINDS 3

/* A mode, defined in its file as mode_xxx: everything the command line
 * needs to know of it besides its options (opts[] names the modes each
 * option applies to). */
struct mode {
	const char *name;      /* in messages: "--kernels" */
	int (*run)(struct session *s);
	enum mode_tables tables;
	/* A calculator of memory transactions (--access, --persist,
	 * --traffic): the occupancy options are refused as such. */
	int memory;
	/* The kinds of row it prints, for --list-fields (each listed once,
	 * in modes[]' order). */
	const struct occ_row_kind *kinds[MODE_KINDS];
};

/* The table of the modes (main.c, where each is declared). */
extern const struct mode *const modes[];
extern const size_t modes_n;

/* The modes other code asks about (o->mode == MODE_KERNELS): a mode is
 * declared here only when code outside its file and the tables names it. */
extern const struct mode mode_occupancy, mode_kernels, mode_persist,
	mode_traffic, mode_launches, mode_trace;
#define MODE_OCCUPANCY (&mode_occupancy)
#define MODE_KERNELS (&mode_kernels)
#define MODE_PERSIST (&mode_persist)
#define MODE_TRAFFIC (&mode_traffic)
#define MODE_LAUNCHES (&mode_launches)
#define MODE_TRACE (&mode_trace)

/* ---- Options (opts_table.c, options.c): one table defines them all ---- */

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

/* Where every option's value lands. Numbers are kept wide, as parsed
 * within the option's range, and narrowed where they are used. */
struct options {
	const struct mode *mode;
	const char *arch, *tables, *gpu, *ptxas, *plot, *fields;
	const char *const *more_kernels; int n_more_kernels;  /* --kernels a b */
	const char *launches;           /* --launches FILE */
	const char *const *more_launches; int n_more_launches;  /* the rest */
	const char *kernel_re;          /* --kernel REGEX */
	const char *by;                 /* --by kernel|op */
	int wide;                       /* --wide */
	int summary;                    /* --summary */
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
	uint64_t grid_dim[3];           /* --grid's x, y, z; 0: not given */
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
	struct partition_request partition;   /* --partition, its flags, part */
	int device_all;                 /* --device all */
	int device_given;               /* --device N: that GPU named */
	const char *trace_out;          /* --trace-out PATH */
	int trace_calls;                /* --trace-calls */
	const char *annotate;           /* --annotate OUT */
	const char *chrome_trace;       /* --chrome-trace OUT */
	char *const *command;           /* --trace -- COMMAND ARGS... */
	int achieved;                   /* --achieved[=N] given */
	uint64_t achieved_top;          /* its N kernels shown; 0: all */
	uint64_t achieved_launches;     /* its L launches a kernel; 0: default */
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
void arg_tables(const char *opt, const char *arg, struct options *o);
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
void arg_achieved(const char *opt, const char *arg, struct options *o);
void arg_grid(const char *opt, const char *arg, struct options *o);
void arg_cluster(const char *opt, const char *arg, struct options *o);
void arg_layout(const char *opt, const char *arg, struct options *o);
void arg_check(const char *opt, const char *arg, struct options *o);

/* Parses argv; exits with a usage error (or after --help) as it must. */
void options_parse(int argc, char **argv, struct options *o);
void options_free(struct options *o);
/* Whether the user gave the option with this long name. */
int option_given(const struct options *o, const char *name);

/* ---- The session: what a run has found, passed to every mode ---- */

#define MAX_TARGETS OCC_TARGETS_MAX

struct target {
	char name[48];                    /* the GPU's; "" for an --arch */
	char arch[16];
	int cc_major, cc_minor;
	uint64_t sms;                     /* the GPU's; 0 for an --arch */
};

struct matrix;
struct launch_run;
struct lcompare;

struct session {
	struct options *o;
	struct occ_tables *tables;        /* loaded by session_tables() */
	struct occ_gpus *gpus;            /* loaded by session_gpus() */
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
	struct occ_cluster_layout layout;     /* with --cluster */
	struct session_partition partition;   /* with --partition */
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
	struct launch_run *launches;      /* --launches, while it reads */
	struct lcompare *launch_compare;  /* --launches --compare's sides */
	struct trace_run trace;           /* --trace: the files written */
};

/* --check, --compare, --gpu LIST and --arch LIST: ci.h */

const struct occ_tables *session_tables(struct session *s);
/* --arch's table: a usage error when there is none. */
const struct occ_arch *session_find_arch(struct session *s, const char *name);
/* --arch NAME that is not an architecture: a usage error, pointing to
 * --gpu where NAME is a GPU's. */
void session_not_arch(struct session *s, const char *name)
	__attribute__((noreturn));
/* The GPU's architecture: its table merged with what it reports. */
const struct occ_arch *session_device_arch(struct session *s);
/* --gpu: the SM count, and the architecture unless --arch names one. */
void session_apply_gpu(struct session *s);
/* gpus.txt beside the tables, and the list it holds (or exit 1), read
 * once. */
void session_gpus_path(struct session *s, char *buf, size_t n);
const struct occ_gpus *session_gpus(struct session *s);
/* Exits with what a GPU list's status and diag say (errno's err for
 * OCC_ERR_IO): its loading, or its layout lines' (occ_target_layout). */
void session_gpus_failed(enum occ_status st, const struct occ_diag *d,
			 int err) __attribute__((noreturn));
/* --device all: uses device index next, found afresh. */
void session_use_device(struct session *s, int index);
/* A GPU query failed: the message, exit 1. */
void session_device_failed(const struct session *s, const char *err)
	__attribute__((noreturn));
/* What limits the SMs device d gives this process (MIG, an MPS
 * percentage: the client's or its server's), the whole GPU's SMs from
 * the GPU list by d's name. */
void session_sm_limit(struct session *s, struct occ_device *d);
/* A long list's rows on threads (pieces.c): a worker opens a piece of
 * ctx's and makes items [from, to) into it; the calling thread joins the
 * pieces in order (non-zero: stop, the pieces left dropped). pieces_run
 * returns -1 when threads are not worth it (the caller makes the rows
 * itself), 1 when a join stopped it, else 0. */
struct pieces_job {
	size_t n;
	int jobs;                  /* threads; 0: one per processor */
	void *ctx;
	void *(*open)(void *ctx);  /* NULL: out of memory, told by join */
	void (*make)(void *piece, size_t from, size_t to);
	int (*join)(void *ctx, void *piece);
	void (*drop)(void *piece);
};
int pieces_run(const struct pieces_job *j);

/* Configurations modelled, and how many launch: for session_status(). */
void session_count_configs(struct session *s, uint64_t configs,
			   uint64_t launching);
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

/* --launches FILE... (mode_launches.c; launches.h has the rest). */
void launches_free(struct launch_run *run);
void launches_compare_free(struct lcompare *lc);
/* --traffic's text into k (traffic_text.c): with --define's names and,
 * for a launch of blocks (grid[0] not 0), blockDim from block or its shape
 * dim (or NULL) and gridDim from grid's x, y, z (0: no such dimension); --elem's NAME=BYTES sizes (elems, or NULL)
 * set. A text that cannot be read is a usage error listing the forms. */
void traffic_parse(struct occ_kernel_text *k,
		   const struct occ_kernel_env *names, const char *text,
		   const char *elems, const uint64_t *grid, uint64_t block,
		   const uint16_t *dim);
/* --define NAME=N,...: integers of either sign, into env. */
void traffic_defines(struct occ_kernel_env *env, const char *arg);

#include "ci.h"

#ifdef __cplusplus
}
#endif

#endif
