/*
 * occcalc/kernel_input.h - any input of kernels read as one: a compiler
 * report ('nvcc -Xptxas -v', 'cuobjdump --dump-resource-usage'), a PTX
 * file, a binary (cubin, fatbin, host object, executable, shared
 * library), a directory of them (a Triton cache, a build tree), or the
 * bytes of a descriptor (standard input), told apart by content. Each
 * kernel comes to the caller's callback in one shape whatever it was read
 * from, its resources as the driver reports them. Part of the occcalc
 * API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_KERNEL_INPUT_H
#define OCCCALC_KERNEL_INPUT_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/kernel_input.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A compiler report is text: more than this is no report. */
#define OCC_KERNELS_TEXT_MAX (UINT64_C(256) << 20)
/* A binary from a pipe is held (in memory or a temporary file) up to
 * this much; a file, or a descriptor on one, is read in pieces. */
#define OCC_KERNELS_PIPE_MAX (UINT64_C(2) << 30)

/* What a kernel was read from. */
enum occ_kernel_source {
	OCC_KSRC_PTXAS = 0,     /* nvcc -Xptxas -v */
	OCC_KSRC_CUOBJDUMP,     /* cuobjdump --dump-resource-usage */
	OCC_KSRC_CUBIN,
	OCC_KSRC_FATBIN,
	OCC_KSRC_ELF,           /* a host object, executable or library */
	OCC_KSRC_PTX            /* a PTX file */
};

/* One kernel of one image, as read. */
struct occ_kernel_in {
	const char *mangled;    /* valid during the callback only */
	const char *file;       /* the input's name, in a directory the
	                           file's path; during the callback only */
	char arch[16];          /* as compiled: sm_90a, sm_120f, compute_90 */
	int cc_major, cc_minor;
	enum occ_kernel_source source;
	int regs;
	/* As cudaFuncGetAttributes' sharedSizeBytes (the driver's reserve
	 * taken out where the input counts it, as the tables say); a PTX
	 * file's: what its entry declares; -1: decided by the driver's JIT. */
	int64_t static_smem;
	int barriers;
	/* The local memory the driver allocates per thread: the call
	 * chain's where recorded, else the kernel's own frame. */
	int64_t stack;
	int max_threads;        /* __launch_bounds__' threads; 0: no bound */
	int min_blocks;         /* 0: none; -1: not recorded (a cubin) */
	int max_regs;           /* the register cap ptxas honoured; 0: none */
	int bounds_known;       /* the input records __launch_bounds__ */
	int req_threads[3];     /* an exact block shape required; 0: none */
	int cluster[3];         /* __cluster_dims__; 0: none */
	int64_t spill_stores, spill_loads;   /* bytes; -1: not recorded */
	int line;               /* a compiler report's; 0: none */
	int64_t fatbin_offset;  /* where the driver loads it from; -1 */
	/* With a GPU given (occ_bin_opts.cc_major): how its fatbin's image
	 * was chosen, and whether it is the only one that runs there. */
	enum occ_bin_image image;
	int sole_image;
	int ptx_only;           /* resources decided by the driver's JIT */
	int relocatable;        /* nvcc -rdc code, not linked */
	/* A binary's kernel as its reader gave it (its PTX text, where
	 * occ_bin_opts.ptx_text asks), NULL for a compiler report's. */
	const struct occ_bin_kernel *bin;
};

/* Called for each kernel; a nonzero return stops reading and is given
 * back through fn_status. */
typedef int (*occ_kernel_in_fn)(const struct occ_kernel_in *k, void *ctx);

/* What the input was, once its first bytes are read. */
enum occ_kernels_kind {
	OCC_KERNELS_REPORT = 1, /* a compiler report's text */
	OCC_KERNELS_PTX,        /* a PTX file's text */
	OCC_KERNELS_BINARY,
	OCC_KERNELS_DIR         /* a directory, its binaries walked */
};

/* Bytes the read holds in memory, handed over as soon as they are
 * allocated, so that a callback that never returns (longjmp, exit)
 * leaves them to the caller, who frees them with free(): a report's
 * text (freed by the read when it returns), and a descriptor's bytes
 * held whole (occ_kernels_read_opts.hold_input: kept for the caller). */
struct occ_kernels_held {
	unsigned char *text;
	unsigned char *input;
	size_t input_len;
};

struct occ_kernels_read_opts {
	/* The tables that say what the driver counts as a kernel's static
	 * shared memory; NULL: as the input states it. */
	const struct occ_tables *tables;
	/* How binaries are read: threads, the GPU whose image of each
	 * fatbin is read, the selection, --kernel's want (not asked in a
	 * directory, where every kernel of a cubin comes: Triton's metadata
	 * describes a cubin of one), what the fatbins held. */
	struct occ_bin_opts bin;
	/* Called once the kind is known, before a binary is read or a
	 * text's first kernel comes, with the read's copy of these options:
	 * may set its tables and bin (the GPU), so that tables are loaded
	 * and a device is asked only where the input needs them. NULL:
	 * the options as given. */
	void (*start)(enum occ_kernels_kind kind,
		      struct occ_kernels_read_opts *o, void *ctx);
	/* --arch: a GPU's name (sm_90, 9.0) keeps the kernels whose image
	 * runs there, and, unless all_images, those that do not too, marked
	 * OCC_IMAGE_NONE (a row saying no image runs); a suffixed target
	 * (sm_90a, sm_120f) keeps only its own code. An image a fatbin
	 * chose for the GPU (bin.cc_major) is kept whatever its target.
	 * NULL: every kernel. */
	const char *arch;
	int all_images;
	/* A directory's file that cannot be read, worded "FILE: WHAT" (and
	 * " at byte N" where there is one); the walk goes on. NULL: counted
	 * only. */
	void (*bad_file)(const char *line, void *ctx);
	/* A descriptor's bytes kept whole in held->input (a loader needs
	 * them) rather than a binary spooled to a temporary file. */
	int hold_input;
	struct occ_kernels_held *held;    /* NULL: the read's own */
};

struct occ_kernels_read_stats {
	enum occ_kernels_kind kind;     /* 0: not known (a failed read) */
	int files_read, files_bad;      /* a directory's */
};

/* Why a read failed: the one line a program shows (it begins with the
 * input's name), or, where msg is empty, a compiler report's figure out
 * of range or line too long, as the tables' readers place it. */
struct occ_kernels_diag {
	char msg[8192];
	struct occ_diag data;
};

/* Reads path: a directory's binaries, a regular file by its content
 * (a FIFO or device is refused, never waited on). Returns OCC_OK (a
 * callback's stop in *fn_status), or: OCC_ERR_IO, OCC_ERR_NOT_REGULAR,
 * OCC_ERR_NOMEM; OCC_ERR_RANGE for a report above OCC_KERNELS_TEXT_MAX;
 * OCC_ERR_SYNTAX for text that is no report, a malformed one, or the
 * report of a failed compile; OCC_ERR_NOT_BINARY for a directory
 * without binaries; a binary reader's status (OCC_ERR_CORRUPT, ...);
 * OCC_ERR_RANGE and OCC_ERR_LINE_TOO_LONG (diag.data) from
 * occ_usage_parse. stats (may be NULL) say what was read. */
enum occ_status occ_kernels_read(const char *path,
				 const struct occ_kernels_read_opts *opts,
				 occ_kernel_in_fn fn, void *ctx,
				 int *fn_status,
				 struct occ_kernels_read_stats *stats,
				 struct occ_kernels_diag *diag);

/* The same for fd, named name (standard input: "<stdin>"): a regular
 * file at its start is read as one; else its bytes as they arrive, a
 * binary spooled to a temporary file (in TMPDIR) where it can be and
 * hold_input is not asked, else held whole, within OCC_KERNELS_PIPE_MAX
 * (a report: OCC_KERNELS_TEXT_MAX). fd is left open. */
enum occ_status occ_kernels_read_fd(int fd, const char *name,
				    const struct occ_kernels_read_opts *opts,
				    occ_kernel_in_fn fn, void *ctx,
				    int *fn_status,
				    struct occ_kernels_read_stats *stats,
				    struct occ_kernels_diag *diag);

/* The same for len bytes at buf, named name. */
enum occ_status occ_kernels_read_buf(const void *buf, size_t len,
				     const char *name,
				     const struct occ_kernels_read_opts *opts,
				     occ_kernel_in_fn fn, void *ctx,
				     int *fn_status,
				     struct occ_kernels_read_stats *stats,
				     struct occ_kernels_diag *diag);

/* Why a binary read gave no kernel, from what its fatbins held (the
 * contents occ_bin_opts.contents counted): OCC_ERR_UNSUPPORTED with the
 * line in diag->msg where they hold LTO-IR only (compiled when the
 * program runs) or fatbins outside those the runtime registers; OCC_OK
 * where there is nothing to say (kernels were read and left out, or the
 * binary holds none). */
enum occ_status occ_kernels_none_why(const struct occ_bin_contents *n,
				     const char *input,
				     struct occ_kernels_diag *diag);

/* ---- Which image runs: among those no fatbin chose (a cubin's, a
 * compiler report's rows), and what --arch keeps ---- */

/* A kernel's image as these rules see it (occ_kernel_in's fields). */
struct occ_kernel_image {
	const char *arch;       /* as compiled: sm_90a, sm_120f, compute_90 */
	int cc_major, cc_minor;
	int ptx_only, relocatable, sole_image;
	enum occ_bin_image image;
};

/* Whether k runs on a GPU of that compute capability: CUDA's binary
 * compatibility (occ_bin_image_runs). */
int occ_kernel_runs_on(const struct occ_kernel_image *k, int cc_major,
		       int cc_minor);
/* Whether want (--arch) names a GPU (sm_90, 90, 9.0) rather than the code
 * of a suffixed target (sm_90a, sm_120f). */
int occ_arch_names_gpu(const char *want);
/* Whether k is code for want: its compute capability, and for a suffixed
 * target that target's only. */
int occ_kernel_arch_matches(const char *want, const struct occ_kernel_image *k);
/* Whether --arch want keeps k: code that runs on the GPU it names; a
 * suffixed target keeps only code for that target. */
int occ_kernel_arch_keeps(const char *want, const struct occ_kernel_image *k);
/* How well k suits a GPU of that compute capability, 0: not at all;
 * higher is preferred: a fatbin's image chosen for it, else SASS before
 * PTX, the newest target, the most specific (as the driver would choose
 * were they in one fatbin). Relocatable code never runs as it is. */
int occ_kernel_image_rank(const struct occ_kernel_image *k, int cc_major,
			  int cc_minor);
/* Why the driver loads k's image on the GPU given, a sentence, or NULL
 * where no image was chosen. */
const char *occ_kernel_image_why(const struct occ_kernel_image *k);

/* ---- A Triton cache's launch ---- */

/* What Triton's cache says of a cubin's launch. */
struct occ_triton_entry {
	struct occ_triton_launch launch;
	char name[256];         /* the kernel's, as the metadata names it */
	char version[32];       /* triton_version; "" when absent */
	char entry[256];        /* the cache entry: the cubin's directory */
};

/* Triton's metadata larger than this is none of its (it writes a few
 * KB). */
#define OCC_TRITON_META_MAX (UINT64_C(1) << 20)

/* The launch Triton makes of the kernel mangled, read from a cache (a
 * directory walked) in the cubin at path cubin, which holds in_cubin
 * kernels: from the metadata beside it (NAME.json for NAME.cubin).
 * OCC_OK with *e; OCC_ERR_UNSUPPORTED with diag->msg empty where cubin
 * is no cache entry's (no NAME.cubin, or none of NAME.json,
 * __grp__NAME.json, NAME.ttgir beside it). Else the cubin keeps its own
 * resources and diag->msg is the warning that says why: the metadata
 * missing beside the entry's other files (OCC_ERR_MISSING_KEY),
 * unreadable (OCC_ERR_IO, OCC_ERR_NOT_REGULAR, OCC_ERR_RANGE, too
 * large), malformed (occ_triton_meta_parse's status), partial
 * (OCC_ERR_MISSING_KEY), of another kernel or of a cubin of several
 * (OCC_ERR_INVALID_INPUT). */
enum occ_status occ_triton_entry_read(const char *cubin, const char *mangled,
				      int in_cubin, struct occ_triton_entry *e,
				      struct occ_kernels_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
