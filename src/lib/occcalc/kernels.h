/*
 * occcalc/kernels.h - real kernels: what the toolchain reports, and binaries.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_KERNELS_H
#define OCCCALC_KERNELS_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/kernels.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Real kernels: the resource usage the toolchain reports ---- */

struct occ_usage {
	char mangled[2048];     /* the kernel's symbol */
	int cc_major, cc_minor; /* compiled for */
	int regs;
	uint64_t static_smem;
	int barriers;           /* -1: not reported (cuobjdump) */
	uint64_t stack;         /* stack frame, bytes */
	uint64_t spill_stores, spill_loads;  /* bytes; ptxas only */
	int line;               /* where the kernel's report ends */
	int from_cuobjdump;     /* else from ptxas */
	char arch[16];          /* the target as written: "sm_90a" */
};

/* Called for each kernel; a nonzero return stops the parse and is
 * returned. */
typedef int (*occ_usage_fn)(const struct occ_usage *u, void *ctx);

/* Reads 'nvcc -Xptxas -v' or 'cuobjdump --dump-resource-usage' output and
 * calls fn for each kernel as soon as its report is complete. Returns
 * OCC_ERR_SYNTAX (diag: the line) for a malformed report, a truncated one
 * (a kernel without its usage line), or input holding no kernel report at
 * all; OCC_ERR_RANGE (diag: the line, the figure as key, the limit) for a
 * figure above what any GPU allows (registers above 1024, barriers above
 * OCC_MAX_BARRIERS_PER_BLOCK, shared memory above OCC_BYTES_MAX, a kernel
 * name longer than occ_usage.mangled holds); OCC_ERR_LINE_TOO_LONG for a
 * line of 8192 characters or more; OCC_ERR_IO when reading fails. */
enum occ_status occ_usage_parse(FILE *f, const char *name, occ_usage_fn fn,
				void *ctx, int *fn_status,
				struct occ_diag *diag);

/* occ_usage_parse on the file at path, which must be a regular file
 * (OCC_ERR_NOT_REGULAR otherwise, never blocking on a FIFO); OCC_ERR_IO
 * with errno set when it cannot be opened. */
enum occ_status occ_usage_parse_file(const char *path, occ_usage_fn fn,
				     void *ctx, int *fn_status,
				     struct occ_diag *diag);

/* ---- Kernels from binaries: cubins, fatbins and host ELF files ---- */

/* How a fatbin entry was stored. */
enum occ_bin_compression {
	OCC_BIN_STORED = 0,
	OCC_BIN_LZ4,            /* nvcc -compress-mode=speed */
	OCC_BIN_ZSTD            /* default, balance and size */
};

/* Where a kernel was found, outermost first. */
enum occ_bin_container {
	OCC_BIN_CUBIN = 1,      /* a bare cubin (CUDA ELF) */
	OCC_BIN_FATBIN,         /* a bare fatbin */
	OCC_BIN_HOST_ELF,       /* an object, executable or shared library */
	OCC_BIN_PTX             /* a PTX file: shared_section is the static
	                           shared memory its .entry declares */
};

/* How the image a kernel was read from was chosen, when a device is given
 * (occ_bin_opts.cc_major): the driver loads one image of each fatbin. */
enum occ_bin_image {
	OCC_IMAGE_ALL = 0,      /* no device given, or not in a fatbin */
	OCC_IMAGE_SASS,         /* SASS that runs there, preferred to PTX */
	OCC_IMAGE_PTX,          /* no SASS runs there: PTX the driver compiles */
	OCC_IMAGE_NONE,         /* no image of its fatbin runs there */
	/* PTX beside the SASS chosen, read only for what a cubin does not
	 * record (__launch_bounds__' minimum blocks): not what runs. */
	OCC_IMAGE_BESIDE
};

/* One kernel of one architecture, as the binary records it. Fields the
 * binary does not hold are -1 (see each). */
struct occ_bin_kernel {
	const char *mangled;    /* valid during the callback only */
	/* The target as compiled, suffix kept: "sm_90a", "sm_120f"; for a PTX
	 * entry "compute_90". */
	char arch[16];
	int cc_major, cc_minor;
	int ptx_only;           /* PTX: resources are decided by the driver's
	                           JIT; regs, smem, barriers, stack are -1 */
	int regs;
	/* The kernel's .nv.shared section: its static shared memory, plus,
	 * from compute capability 9.0, the driver's reserved 1024 bytes (as
	 * cuobjdump's SHARED); occ_bin_static_smem takes the reserve out. */
	int64_t shared_section;
	/* From a relocatable cubin (nvcc -rdc): device code still to be
	 * linked, whose shared section does not include the reserve yet. */
	int relocatable;
	int barriers;           /* block barriers (EIATTR_NUM_BARRIERS) */
	int64_t frame;          /* stack frame, bytes per thread */
	int64_t stack;          /* cumulative stack size (calls included) */
	/* __launch_bounds__: its maximum threads (0: none) as x, y, z, and
	 * the minimum blocks per SM (0: none). A cubin does not record the
	 * minimum (ptxas folds it into max_regs): -1 there. */
	int max_threads[3];
	int min_blocks;
	int req_threads[3];     /* an exact block shape required; 0: none */
	int max_regs;           /* register cap ptxas honoured; 0: none */
	int cluster[3];         /* __cluster_dims__; 0: none */
	int max_cluster_rank;   /* 0: none */
	/* Where: the outer container, the fatbin (byte offset in the file,
	 * -1 when none) and how the entry was stored. */
	enum occ_bin_container container;
	int64_t fatbin_offset;
	enum occ_bin_compression compression;
	/* With a device given: how its image was chosen, the images of its
	 * fatbin (SASS and PTX) and how many of them could run there. With
	 * OCC_IMAGE_NONE every image is reported, so that its kernels can be
	 * named; otherwise only the chosen one. */
	enum occ_bin_image image;
	int images, images_run;
	/* PTX: its entry's text (not NUL-terminated, no padding), for a compiler
	 * the caller runs; valid during the callback only. NULL otherwise. */
	const char *ptx_text;
	size_t ptx_len;
	/* The file it was read from (occ_bin_read's name; in a walk, the
	 * path): valid during the callback only. */
	const char *file;
};

/* What is wrong with a binary: the file, the byte offset (in the file) of
 * the part at fault, and a sentence naming it. */
struct occ_bin_diag {
	char file[512];
	uint64_t offset;
	char what[256];
};

/* Called for each kernel; a nonzero return stops reading and is given
 * back through fn_status. */
typedef int (*occ_bin_fn)(const struct occ_bin_kernel *k, void *ctx);

/* A fatbin entry's image as its header describes it, before it is read:
 * PTX or a cubin, the SM number (90 for 9.0) and the target's suffix. */
struct occ_bin_image_head {
	int ptx;
	unsigned sm;
	int arch_specific;      /* "sm_90a" */
	int family;             /* "sm_120f" */
};

/* Whether an image of target im runs on a GPU of compute capability
 * cc_major.cc_minor, by CUDA's binary compatibility (docs/image-choice.md):
 * SASS sm_XY on X.Z for Z >= Y, sm_XYf alike (its family), sm_XYa only on
 * X.Y; PTX compute_XY on X.Y and every later GPU (the driver compiles it),
 * compute_XYf within its major, compute_XYa only on X.Y. Code that runs
 * on a later GPU runs with that GPU's limits, not its target's. */
int occ_bin_image_runs(const struct occ_bin_image_head *im, int cc_major,
		       int cc_minor);

/* Whether to read an image; those refused are never decompressed. */
typedef int (*occ_bin_select_fn)(const struct occ_bin_image_head *im,
				 void *ctx);

/* How to read: the threads that read a fatbin's images at once (0:
 * occ_bin_default_jobs(); 1: in order on the calling thread), and which
 * images.
 * Kernels reach the callback in the same order whatever the threads, on
 * the calling thread. */
struct occ_bin_contents;

struct occ_bin_opts {
	int jobs;
	occ_bin_select_fn select;   /* NULL: every image */
	void *select_ctx;
	/* Of each fatbin, only the image the driver loads on this compute
	 * capability (0.0: every image); the others are not decompressed. */
	int cc_major, cc_minor;
	/* What was read, counted into (zeroed first), or NULL. */
	struct occ_bin_contents *contents;
	/* Whether PTX rows carry their entry's text (ptx_text): kept for
	 * the callback, a copy per image, only when asked. */
	int ptx_text;
	/* Whether a kernel of this mangled name is wanted (NULL: all),
	 * asked on the reading threads, so callable from any: an image's
	 * rows wait there for delivery, and one not wanted is counted
	 * (contents) but neither held nor delivered. */
	int (*want)(const char *mangled, void *ctx);
	void *want_ctx;
};

/* Whether buf starts like something occ_bin_read reads: an ELF file or a
 * fatbin. */
int occ_bin_sniff(const void *buf, size_t len);
/* Whether buf is PTX text (comments, then ".version"): occ_bin_read reads
 * it too, its kernels PTX only. */
int occ_bin_is_ptx(const void *buf, size_t len);

/* Reads every kernel of a cubin, fatbin or host ELF file held in memory,
 * recognised by content. Never reads outside buf. Returns
 * OCC_ERR_NOT_BINARY for other data, OCC_ERR_CORRUPT for a truncated or
 * malformed one (nothing past the fault is reported), OCC_ERR_UNSUPPORTED
 * for an entry compressed with an algorithm this build cannot decompress
 * (Zstandard without libzstd), OCC_ERR_NOMEM; diag says what and where.
 * name is the file name put in diag. */
enum occ_status occ_bin_read(const void *buf, size_t len, const char *name,
			     occ_bin_fn fn, void *ctx, int *fn_status,
			     struct occ_bin_diag *diag);

/* The same for a file, which must be a regular file (a FIFO or device is
 * refused without blocking): OCC_ERR_IO when it cannot be read. */
enum occ_status occ_bin_read_file(const char *path, occ_bin_fn fn,
				  void *ctx, int *fn_status,
				  struct occ_bin_diag *diag);

/* occ_bin_read and occ_bin_read_file as opts say (NULL: one thread,
 * every image). */
enum occ_status occ_bin_read_opts(const void *buf, size_t len,
				  const char *name,
				  const struct occ_bin_opts *opts,
				  occ_bin_fn fn, void *ctx, int *fn_status,
				  struct occ_bin_diag *diag);
enum occ_status occ_bin_read_file_opts(const char *path,
				       const struct occ_bin_opts *opts,
				       occ_bin_fn fn, void *ctx,
				       int *fn_status,
				       struct occ_bin_diag *diag);
/* occ_bin_read_file_opts for a regular file already open on fd (standard
 * input redirected from a file), named name in diag: read with pread
 * from its offset 0, pieces at a time as a file is; fd is left open. */
enum occ_status occ_bin_read_fd_opts(int fd, const char *name,
				     const struct occ_bin_opts *opts,
				     occ_bin_fn fn, void *ctx, int *fn_status,
				     struct occ_bin_diag *diag);

/* What the fatbins read held, by entry kind: for a file without kernels,
 * what it holds instead. */
struct occ_bin_contents {
	uint64_t fatbins;
	uint64_t sass, ptx, ltoir, other;   /* their entries */
	uint64_t kernels;                   /* given to the callback */
	/* A host file whose fatbin sections hold no kernel: fatbins found
	 * in its other sections (cuFFT 12 keeps its code in .ldata), which
	 * are not read. */
	uint64_t data_fatbins;
};

/* Called for each file of a directory that could not be read; reading
 * goes on unless it returns nonzero. */
typedef int (*occ_bin_warn_fn)(enum occ_status st,
			       const struct occ_bin_diag *diag, void *ctx);

struct occ_bin_walk_stats {
	int files_read;         /* binaries read */
	int files_skipped;      /* files that are no binary, and symlinks */
	int files_bad;          /* given to warn: unreadable, corrupt, or
	                           not a regular file (a FIFO) */
};

/* Reads every binary under dir (a Triton cache, a build tree), in name
 * order, directories depth-first; symbolic links are not followed. Bad
 * files go to warn and the walk goes on. Returns OCC_ERR_IO when dir
 * itself cannot be read. */
enum occ_status occ_bin_walk(const char *dir, occ_bin_fn fn,
			     occ_bin_warn_fn warn, void *ctx, int *fn_status,
			     struct occ_bin_walk_stats *stats,
			     struct occ_bin_diag *diag);

/* occ_bin_walk as opts say. */
enum occ_status occ_bin_walk_opts(const char *dir,
				  const struct occ_bin_opts *opts,
				  occ_bin_fn fn, occ_bin_warn_fn warn,
				  void *ctx, int *fn_status,
				  struct occ_bin_walk_stats *stats,
				  struct occ_bin_diag *diag);
/* ---- Triton's launch: the metadata beside each cubin of its cache ---- */

#define OCC_TRITON_MAX_WARPS 1024   /* above any block a GPU launches */
#define OCC_TRITON_MAX_CTAS 1024    /* above any cluster a GPU launches */

/* What Triton's NAME.json says of the launch. */
struct occ_triton_meta {
	char name[256];         /* the kernel's; "" when absent */
	char version[32];       /* triton_version; "" when absent */
	int num_warps;          /* the block is 32 x num_warps; -1: absent */
	int num_ctas;           /* CTAs per cluster; -1: absent */
	int64_t shared;         /* dynamic shared memory, bytes; -1: absent */
	int cluster_dims[3];    /* older Triton's cluster_dims; 0: absent */
	int arch;               /* target.arch (90); -1: absent */
};

/* Reads the JSON text of a Triton metadata file (any bytes: a strict JSON
 * reader, nesting bounded). OCC_OK with the keys found (absent ones as
 * above: the caller says whether enough are there); OCC_ERR_SYNTAX for
 * text that is no JSON object, OCC_ERR_BAD_VALUE for a launch key of the
 * wrong type, OCC_ERR_RANGE for one out of range or nesting too deep
 * (diag: the byte offset and what is wrong; diag->file untouched). */
enum occ_status occ_triton_meta_parse(const char *text, size_t len,
				      struct occ_triton_meta *m,
				      struct occ_bin_diag *diag);

/* The launch Triton's launcher makes of a kernel whose metadata is m. */
struct occ_triton_launch {
	int block;              /* 32 x num_warps threads */
	int64_t dynamic_smem;   /* its "shared" bytes */
	int num_warps, num_ctas;
	int cluster[3];         /* the cluster it launches; 0 0 0: none */
};

/* The launch of m: OCC_OK, or OCC_ERR_MISSING_KEY where m lacks what the
 * launch needs, *missing (unless NULL) then naming it ("num_warps", "num_warps above
 * 0", "shared", "name", "num_ctas above 0"). The cluster is cluster_dims
 * where they make one of more than a CTA (Triton before 3.3), else
 * num_ctas CTAs along x (its launcher's cluster dimension attribute). */
enum occ_status occ_triton_launch_of(const struct occ_triton_meta *m,
				     struct occ_triton_launch *launch,
				     const char **missing);

/* The threads that jobs 0 stands for: one per processor, less one on a
 * machine of 8 or more, where the calling thread (which walks the file
 * and delivers the rows in order, a sixteenth of the work on cuBLASLt)
 * would otherwise share a processor with a reader. */
int occ_bin_default_jobs(void);

/* Whether this build decompresses Zstandard (fatbins nvcc writes by
 * default and with -compress-mode=size or balance). */
int occ_bin_has_zstd(void);

/* The static shared memory ptxas reports (cudaFuncGetAttributes'
 * sharedSizeBytes): the section less the reserve where the table says the
 * cubin includes it. */
uint64_t occ_bin_static_smem(const struct occ_arch *arch,
			     const struct occ_bin_kernel *k);

#ifdef __cplusplus
}
#endif

#endif
