/* kernel_list.h - --kernels' kernels as read, in one shape whatever they
 * were read from (kernels_read.c), with their names once each (names.c,
 * occ_demangle). What --kernels adds beyond the binary is in kernels.h. */
#ifndef OCC_CLI_KERNEL_LIST_H
#define OCC_CLI_KERNEL_LIST_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"
#include "ptxas_jit.h"

#ifdef __cplusplus
extern "C" {
#endif

struct session;

/* What few kernels have (kernel_info.more): a compiler report's spills
 * and line, an exact block shape or cluster a cubin requires, Triton's
 * launch. */
struct kernel_more {
	int64_t spill_stores, spill_loads;   /* -1: not recorded */
	int line;                /* in a compiler report; 0: none */
	int req_threads[3], cluster[3];      /* 0: none */
	struct occ_triton_entry *launch;   /* Triton's, or NULL */
};

/* One kernel of one architecture, as read; -1: not recorded there. A
 * list holds one for each kernel of each image read (PyTorch's
 * libtorch_cuda.so: 130,499) while the read's memory is in use, so it
 * is packed: 96 bytes on 64-bit systems, where 184 were. */
struct kernel_info {
	const char *mangled;     /* the list's names' */
	const char *name;        /* demangled, or NULL: not C++ or not needed */
	const char *file;        /* the kernel_list's copy */
	/* NULL: none of it (kernel_more() gives the defaults); else the
	 * list's (kernels_more_set). */
	const struct kernel_more *more;
	int64_t static_smem;     /* as cudaFuncGetAttributes' sharedSizeBytes */
	int64_t stack;
	int64_t fatbin_offset;   /* where the driver loads it from: -1 cubin */
	const char *arch;        /* as compiled: sm_90a, sm_120f, compute_90
				    (the list's copy) */
	int cc_major, cc_minor;
	int regs;
	int barriers;
	int max_threads;         /* 0: no bound */
	int min_blocks;          /* 0: none */
	int max_regs;            /* the register cap ptxas honoured; 0: none */
	unsigned source : 3;     /* enum occ_kernel_source */
	/* With a GPU named, the image of its fatbin the driver loads there:
	 * how it was chosen (enum occ_bin_image), and whether it is the
	 * only image of its fatbin that runs there. */
	unsigned image : 3;
	unsigned sole_image : 1;
	unsigned ptx_only : 1;   /* resources decided by the driver's JIT */
	unsigned bounds_known : 1;   /* the input records __launch_bounds__ */
	unsigned relocatable : 1;    /* nvcc -rdc code, not linked: not loaded */
	/* PTX whose resources are the toolkit's ptxas's for the GPU named
	 * (--ptxas-jit): a prediction of the driver's compiler. */
	unsigned from_ptxas : 1;
};

/* The rare fields' defaults: not recorded, none. */
extern const struct kernel_more kernel_no_more;
/* k's rare fields, the defaults where it has none. */
const struct kernel_more *kernel_more(const struct kernel_info *k);

/* Each kernel name once (names.c). */
struct name_entry {
	char *mangled, *name;    /* name: demangled, NULL if not C++ */
	uint32_t hash;           /* its low half: slots are fewer than 2^32 */
	int demangled;           /* name was computed */
};

/* The names a run keeps, mangled and demangled, and the kernels: at
 * most this much, whatever the input (cuBLASLt's are 9 MB of names and
 * 47,137 kernels with --all-images). */
#define NAMES_MAX ((size_t)256 << 20)
#define KERNELS_MAX ((size_t)1 << 20)

struct name_table {
	struct name_entry *e;
	size_t n, cap;           /* cap: a power of 2 */
	size_t bytes;            /* of the names kept, up to NAMES_MAX */
	size_t last;             /* the entry found last: a row asks twice */
};

/* The table's entry for mangled, added if new. */
const struct name_entry *names_intern(struct name_table *t,
				      const char *mangled);
/* The demangled name of mangled (NULL: not C++), demangled here where
 * it is not yet. */
const char *names_demangle(struct name_table *t, const char *mangled);
/* Every name of the table not yet demangled, on up to jobs threads (0:
 * one per processor), within NAMES_MAX. */
void names_demangle_all(struct name_table *t, int jobs);
void names_free(struct name_table *t);
/* Past NAMES_MAX: the one line that says so, and the end of the run. */
void names_too_many(void) __attribute__((noreturn));



struct kernel_list;

/* A linked kernel of the file being written (kernels_stream.c). */
struct linked_kernel {
	const char *mangled;     /* the list's names' */
	const char *arch;        /* the list's archs' */
};

/* Rows written as kernels settle (kernels_stream.c): what the list holds
 * is then only the kernels something read later may still change. */
struct kernel_stream {
	/* Whether rows may be written yet (end: all is read), the run
	 * opened for them; and the rows of settled kernels v. */
	int (*ready)(void *ctx, struct kernel_list *l, int end);
	void (*rows)(void *ctx, struct kernel_list *v);
	void *ctx;
	int relocatable;         /* -rdc images beside linked ones left out */
	int keep_cc;             /* kernels_keep_loaded's GPU; 0: none */
	int walk;                /* a directory is read (Triton's metadata) */
	int loadable;            /* a kernel read runs on the GPU named */
	size_t since;            /* kernels read since the last look */
	size_t written;          /* kernels whose rows are written */
	struct linked_kernel *linked;   /* linked_file's, a hash set */
	size_t linked_cap, n_linked;
	const char *linked_file;
};

struct kernel_list {
	struct kernel_info *k;
	size_t n, cap;
	struct more_chunk *more;   /* the kernels' rare fields (kernel_more) */
	struct name_table names;
	struct name_table archs; /* each kernel_info.arch once */
	int need_names;          /* demangled names are printed or matched */
	char **files;            /* the files read, for kernel_info.file */
	size_t nfiles;
	/* What the library's read holds (standard input's bytes, kept for
	 * --api; a report's text while it is read): freed with the list,
	 * also when a run ends midway. */
	struct occ_kernels_held held;
	char *skipped;           /* a directory's files not read, a line each */
	size_t skipped_len, nskipped;
	int text;                /* read from a compiler report */
	int target_cc;           /* the GPU images are chosen for; 0: none */
	size_t no_image;         /* kernels with no image that runs there */
	size_t relocatable_dropped;   /* -rdc images of kernels also linked */
	struct occ_bin_contents contents;   /* what a binary's fatbins held */
	struct ptxas_jit jit;    /* --ptxas-jit: the last PTX compiled */
	regex_t re;              /* --kernel */
	int have_re;
	const struct kernel_info **order;   /* --gpu LIST: grouped */
	struct kernel_stream *stream;       /* NULL: held whole, else */
	struct kernel_stream streaming;     /* what it points to */
};

/* ---- Kernels of a compiler report or a binary (kernels_read.c, the
 * list's upkeep in kernels_list.c) ---- */

/* The kernels of path (a report, a binary, a directory, or "-"), those
 * --arch and --kernel keep; dies on what cannot be read. With st, their
 * rows are written as they settle (kernels_stream.c). */
void kernels_read(struct session *s, const char *path, struct kernel_list *l,
		  const struct kernel_stream *st);
/* Writes the rows of the kernels at l's start that nothing read later
 * can change, once there are enough of them, or of all (end: all of a
 * path is read); how many kernels were taken from the list's start. */
size_t kernels_stream_settle(struct kernel_list *l, int end);
void kernels_stream_free(struct kernel_stream *st);
void kernels_free(struct kernel_list *l);
/* The demangled names of l's n kernels at k, demangled where not yet. */
void kernels_name(struct kernel_list *l, struct kernel_info *k, size_t n);
/* Takes out the PTX read beside the SASS chosen (OCC_IMAGE_BESIDE), once
 * its launch bounds have been given to the SASS rows. */
void kernels_drop_beside(struct kernel_list *l);
/* The library's rules of which image runs (occcalc/kernel_input.h) on
 * a kernel of the list; cc: major * 10 + minor. */
int kernel_arch_matches(const char *want, const struct kernel_info *k);
int kernel_runs_on(const struct kernel_info *k, int cc);
int kernel_image_rank(const struct kernel_info *k, int cc);
const char *kernel_image_why(const struct kernel_info *k);
/* Of each kernel's images in one file that no fatbin chose (cubins, a
 * report's rows), only the one kernel_image_rank prefers on cc, where
 * one runs there: as the driver would choose were they in one fatbin;
 * where none does, one of those marked OCC_IMAGE_NONE. */
void kernels_keep_loaded(struct kernel_list *l, int cc);

#ifdef __cplusplus
}
#endif

#endif
