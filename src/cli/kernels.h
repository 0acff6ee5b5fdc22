/*
 * kernels.h - what --kernels adds to a kernel beyond its binary (internal
 * to the command line): Triton's launch (kernels_triton.c), the cluster
 * launches kernels declare (kernels_cluster.c), PTX files' lines
 * (kernels_ptx.c); how binaries are read (kernels_opts.c) and the input
 * read (kernels_read.c, over the library's occ_kernels_read); the summary
 * and notes under the text table (kernels_summary.c); the driver beside
 * the model (--api, kernels_api.c); the list's upkeep (kernels_list.c).
 */
#ifndef OCC_CLI_KERNELS_H
#define OCC_CLI_KERNELS_H

#include "cli.h"

struct occ_row;
struct row_gpu;

/* How the library reads binaries (kernels_opts.c): --jobs, and --arch's
 * compute capability (f, which opts points to) for images left unread. */
struct arch_filter {
	int cc_major, cc_minor;
	int exact;               /* a suffixed target: its own code only */
};
void kernels_bin_opts(const struct options *o, struct occ_bin_opts *opts,
		      struct arch_filter *f);
/* Whether kernel names are demangled: printed, matched or compared. */
int kernels_names_needed(const struct options *o);

/* ---- Reading --kernels' input: the library reads it, kernels_read.c
 * makes the list's kernels of what it hands over ---- */

struct reader {
	struct session *s;
	struct kernel_list *l;
	const char *input;       /* as messages name it */
	int walk;                /* a directory: a Triton cache, perhaps */
	struct occ_kernels_read_opts opts;
	struct arch_filter arch; /* --arch's, for opts.bin.select */
	struct {                 /* the cubin whose kernels are coming */
		const char *file;
		size_t first;    /* its first kept kernel in the list */
		int kernels;     /* all it holds, kept or not */
	} cubin;
};

/* The library's record of k (occcalc/kernel_input.h), for its rules of
 * a kernel's row (occcalc/kernel_row.h); valid while k is. */
void kernel_in_of(const struct kernel_info *k, struct occ_kernel_in *in);

/* How messages name an input: standard input ('-') as "<stdin>". */
const char *kernels_input_name(const char *path);
/* Another path's kernels, added to l (--kernels a.o b.o). */
void kernels_read_add(struct session *s, const char *path,
		      struct kernel_list *l);

/* The list (kernels_list.c): a new kernel at its end, zeroed; the list's
 * copy of a file name, shared by its kernels; -rdc code taken out where
 * linked code was read beside it (in the same file). */
struct kernel_info *kernels_add(struct kernel_list *l);
/* k's rare fields set to m's: in the list's copy k has, else in a new
 * one, none made where m has only the defaults; the list frees them,
 * launches included. */
void kernels_more_set(struct kernel_list *l, struct kernel_info *k,
		      const struct kernel_more *m);
/* Lets go of every kernel's rare fields: none of the list's kernels may
 * have any (kernels_stream.c, once all are written). */
void kernels_more_free(struct kernel_list *l);
const char *kernels_file_name(struct kernel_list *l, const char *file);
void kernels_drop_relocatable(struct kernel_list *l);
/* A cubin's minimum blocks (__launch_bounds__), from its PTX beside it. */
void kernels_min_blocks_from_ptx(struct kernel_list *l);

/* A cubin of a Triton cache (in_cubin kernels, of which l->k[first ..
 * first + n) are kept): the launch its metadata records, attached to its
 * one kernel where the metadata names it; warned about where the
 * metadata is missing, partial, malformed or describes another kernel. */
void kernels_triton(struct kernel_list *l, size_t first, size_t n,
		    int in_cubin, const char *cubin);
/* The blocks and dynamic shared memory ki's rows take: Triton's launch
 * where --block and --smem do not say otherwise (one value each, in the
 * seqs given), else the options'. */
void kernels_launch(const struct options *o, const struct kernel_info *ki,
		   struct seq *block, struct seq_range *br,
		   const struct seq **blocks, const struct seq **smem,
		   struct seq *dyn, struct seq_range *dr);
/* The text table's note on the rows at Triton's launch, if any. */
void kernels_triton_note(struct out *out, const struct kernel_list *l,
			 const struct options *o);

/* Whether cluster launches are computed in this run (--cluster, or a
 * kernel declaring one with a layout to compute it with: --layout, --gpu,
 * or the device), the layout prepared; warns once when declared clusters
 * cannot be computed. target: a GPU of --gpu LIST's table (its clusters,
 * or none), else NULL. */
int kernels_clusters_prepare(struct session *s, const struct kernel_list *l,
			     const struct occ_arch *target);
/* Rows written as kernels are read (kernels_stream.c): whether cluster
 * launches are never computed in this run (no layout, no --cluster), or
 * whether k, just read, decides it (never, or a kernel with clusters
 * that declares one or takes --cluster's); the kernels of l the warning
 * that they cannot be computed counts, and that warning (n of them). */
int kernels_clusters_never(const struct session *s);
int kernels_clusters_decides(struct session *s, const struct kernel_info *k);
size_t kernels_clusters_declared(struct session *s, const struct kernel_list *l);
void kernels_clusters_warn(size_t n);
/* The kernels that declare their cluster. */
size_t kernels_declaring(const struct kernel_list *l);
/* The cluster launches of ki's rows on arch a: the one it declares (its
 * binary's __cluster_dims__, or Triton's num_ctas), which wins, else
 * --cluster's; none where clusters are off or a has none. */
void kernels_cluster_for(const struct options *o, const struct occ_arch *a,
			 const struct kernel_info *ki, int on,
			 struct cluster_request *req);
/* The text table's note on declared clusters, if any. */
void kernels_cluster_note(struct out *out, const struct kernel_list *l,
			  const struct options *o, int on);

/* A PTX kernel's line under the text table: what its PTX states. */
void kernels_ptx_line(char *buf, size_t n, const struct kernel_info *k);

/* The summary under the text table (kernels_summary.c): the rows counted
 * by what limits them, and the lowest occupancies. */
#define SUMMARY_LOWEST 3   /* the summary's lowest-occupancy rows */

/* --api: the driver, and the file whose code it loads. */
struct api {
	struct gpu_loader *loader;
	const struct occ_arch *dev_arch;
	const char *file;
	unsigned char *buf;
	size_t len;
	const unsigned char *fixed;  /* standard input's bytes */
	size_t fixed_len;
	const void *refused;         /* the last image the driver refused */
	const unsigned char *ok;     /* per kernel: the driver can say */
	int fixed_started;           /* standard input's images loading */
	int ptx_queried;             /* PTX rows go to the driver too */
	const char *preload_file;    /* whose images are loading */
	struct progress progress;
};

/* The most threads a block of k may have on a: its bound, else what its
 * registers allow (the driver's CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK).
 * --compare compares kernels there unless --block is given. */
int kernel_max_threads(const struct occ_arch *a, const struct occ_kernel *k);

void kernels_api_open(struct api *a, struct session *s,
		      const struct kernel_list *l);
/* Row's kernel as the driver reads it, into g (row->gpu when it can). */
void kernels_api_row(struct api *a, struct session *s,
		     const struct kernel_list *l, struct occ_row *row,
		     struct row_gpu *g);
void kernels_api_close(struct api *a);

struct summary_low {
	uint64_t warps, max_warps;   /* occupancy, as a fraction */
	const struct kernel_info *ki;
	int block;
	char cluster[24];            /* a cluster launch's shape, or "" */
};

struct kernel_summary {
	uint64_t rows, cannot, below_min, by[5];
	struct summary_low low[SUMMARY_LOWEST];
	size_t n_low;
};

/* Counts row (computed with its cluster launches when clusters). */
void kernels_summary_count(struct kernel_summary *s, const struct occ_row *row,
			   int clusters);
/* row (or its cluster launch) among the lowest occupancies, if it is. */
void kernels_summary_low(struct kernel_summary *s, const struct occ_row *row);
/* Adds the counts of rows that came after s's (made on another thread). */
void kernels_summary_add(struct kernel_summary *s,
			 const struct kernel_summary *later);
/* The summary and the notes under the text table. */
void kernels_notes(struct out *out, const struct kernel_list *l,
		   const struct options *o, const struct kernel_summary *sum,
		   int clusters);

#endif
