/*
 * occcalc/kernel_row.h - a kernel's row: the configuration's fields
 * (occ_config_kind), then the kernel's own as it was read (where it came
 * from, its stack and spills, its launch bounds, the image the driver
 * loads, Triton's launch), as `occcalc --kernels PATH` prints them. The
 * command line's table takes these fields from OCC_KERNEL_FIELDS and
 * reads them through occ_kernel_value, so a program reads the same
 * values; and which table a kernel's rows are computed with is decided
 * here (occ_kernel_table), for every front end.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_KERNEL_ROW_H
#define OCCCALC_KERNEL_ROW_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/kernel_row.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What a row knows of its kernel beside its configuration. */
struct occ_kernel_of {
	const struct occ_config_row *c;  /* the row's configuration */
	const struct occ_kernel_in *k;   /* the kernel as read; NULL: none,
					    and every field is absent */
	const char *name;                /* demangled; NULL: k->mangled */
	int from_ptxas;                  /* PTX compiled by the toolkit's
					    ptxas for the GPU named */
	const struct occ_triton_entry *launch;   /* Triton's, or NULL */
};

/* A kernel's row: its configuration (c.no_model for a PTX-only kernel,
 * c.no_image where no image runs on the GPU named), and the kernel. */
struct occ_kernel_row {
	struct occ_config_row c;
	struct occ_kernel_of of;         /* of.c: &c */
};

/* The kernel's fields, each read by one rule (occ_kernel_value); an
 * entry's arg in a table of them. */
enum occ_kernel_field_id {
	OCC_KF_KERNEL, OCC_KF_MANGLED, OCC_KF_STACK, OCC_KF_SPILL_STORES,
	OCC_KF_SPILL_LOADS, OCC_KF_FILE, OCC_KF_CONTAINER, OCC_KF_PTX_ONLY,
	OCC_KF_IMAGE, OCC_KF_IMAGE_WHY, OCC_KF_RELOCATABLE,
	OCC_KF_FROM_PTXAS, OCC_KF_BOUNDS_KNOWN, OCC_KF_MAX_THREADS,
	OCC_KF_MIN_BLOCKS, OCC_KF_REACHES_MIN, OCC_KF_MAX_REGS,
	OCC_KF_PTX_SHARED, OCC_KF_REQUIRED_BLOCK, OCC_KF_CLUSTER_DIMS,
	OCC_KF_TRITON_KERNEL, OCC_KF_TRITON_VERSION, OCC_KF_TRITON_ENTRY,
	OCC_KF_NUM_WARPS, OCC_KF_NUM_CTAS,
	OCC_KF_COUNT
};

/* Field id of the kernel o into v (absent where o has no kernel or the
 * input does not record it); occ_kernel_text the text table's cell,
 * where it differs: spills as stored/loaded, '?' for a bound a compiler
 * report cannot say, the minimum blocks with '!' when the prediction
 * falls short, or the register cap (r64). */
void occ_kernel_value(const struct occ_kernel_of *o, size_t id,
		      struct occ_val *v);
void occ_kernel_text(const struct occ_kernel_of *o, size_t id,
		     struct occ_val *v);

/* The fields of a kernel's row (struct occ_kernel_row rows):
 * occ_config_kind's, then kernel, then OCC_KERNEL_FIELDS. */
extern const struct occ_row_kind occ_kernel_kind;

#define OCC_KERNEL_NAME_DESC "the kernel's name, demangled (--kernels)"

/* The fields' entries after kernel, for a table of rows that hold a
 * kernel elsewhere (occcalc's): a table defines OCC_KERNEL_FIELD(name,
 * type, desc, getter, id, text column) and OCC_KERNEL_TEXT(getter) to
 * make its entries; getter names the library's. */
#define OCC_KERNEL_FIELDS \
	OCC_KERNEL_FIELD("mangled", OCC_FT_STR, "the kernel's symbol", \
		get_kernel_field, OCC_KF_MANGLED, { 0 }) \
	OCC_KERNEL_FIELD("stack", OCC_FT_INT, "its local memory per thread " \
		"as the driver allocates it, bytes: from a binary the call " \
		"chain's, from a compiler report its own frame", \
		get_kernel_field, OCC_KF_STACK, \
		{ NULL, 6, 1, OCC_TXT_DASH, NULL, 0 }) \
	OCC_KERNEL_FIELD("spill_stores", OCC_FT_INT, "bytes it spills (a " \
		"ptxas report only)", get_kernel_field, OCC_KF_SPILL_STORES, \
		{ "spills", 8, 1, OCC_TXT_DASH, \
		OCC_KERNEL_TEXT(text_kernel_field), 0 }) \
	OCC_KERNEL_FIELD("spill_loads", OCC_FT_INT, "bytes it loads back", \
		get_kernel_field, OCC_KF_SPILL_LOADS, { 0 }) \
	OCC_KERNEL_FIELD("file", OCC_FT_STR, "the file the kernel was read " \
		"from", get_kernel_field, OCC_KF_FILE, { 0 }) \
	OCC_KERNEL_FIELD("container", OCC_FT_STR, "what it was read from: " \
		"ptxas, cuobjdump, cubin, fatbin, elf (an object, executable " \
		"or library) or ptx", get_kernel_field, OCC_KF_CONTAINER, { 0 }) \
	OCC_KERNEL_FIELD("ptx_only", OCC_FT_BOOL, "PTX only: the driver " \
		"compiles it when loaded, its resources unknown until then", \
		get_kernel_field, OCC_KF_PTX_ONLY, { 0 }) \
	OCC_KERNEL_FIELD("image", OCC_FT_STR, "with a GPU named, the image " \
		"of its fatbin the driver loads there: sass, or ptx (compiled " \
		"by the driver)", get_kernel_field, OCC_KF_IMAGE, { 0 }) \
	OCC_KERNEL_FIELD("image_why", OCC_FT_STR, "why the driver loads that " \
		"image", get_kernel_field, OCC_KF_IMAGE_WHY, { 0 }) \
	OCC_KERNEL_FIELD("relocatable", OCC_FT_BOOL, "relocatable device " \
		"code (nvcc -rdc) not linked yet: the driver loads the linked " \
		"code", get_kernel_field, OCC_KF_RELOCATABLE, { 0 }) \
	OCC_KERNEL_FIELD("from_ptxas", OCC_FT_BOOL, "PTX the driver " \
		"compiles, its resources the toolkit's ptxas's for the GPU " \
		"named (--ptxas-jit): a prediction of the driver's", \
		get_kernel_field, OCC_KF_FROM_PTXAS, { 0 }) \
	OCC_KERNEL_FIELD("bounds_known", OCC_FT_BOOL, "whether the input " \
		"records __launch_bounds__ (a binary does, a compiler report " \
		"does not)", get_kernel_field, OCC_KF_BOUNDS_KNOWN, { 0 }) \
	OCC_KERNEL_FIELD("max_threads", OCC_FT_INT, "__launch_bounds__' " \
		"maximum threads per block (absent: none, or not recorded)", \
		get_kernel_field, OCC_KF_MAX_THREADS, { "bound", 6, 1, \
		OCC_TXT_DASH, OCC_KERNEL_TEXT(text_kernel_field), 0 }) \
	OCC_KERNEL_FIELD("min_blocks_per_sm", OCC_FT_INT, "__launch_bounds__' " \
		"minimum blocks per SM (absent: none, or not recorded: a " \
		"cubin keeps only max_regs)", get_kernel_field, \
		OCC_KF_MIN_BLOCKS, { "min", 5, 1, OCC_TXT_DASH, \
		OCC_KERNEL_TEXT(text_kernel_field), 0 }) \
	OCC_KERNEL_FIELD("reaches_min_blocks", OCC_FT_BOOL, "whether " \
		"blocks_per_sm reaches min_blocks_per_sm", get_kernel_field, \
		OCC_KF_REACHES_MIN, { 0 }) \
	OCC_KERNEL_FIELD("max_regs", OCC_FT_INT, "the register cap ptxas " \
		"honoured (__maxnreg__, -maxrregcount, or the minimum blocks)", \
		get_kernel_field, OCC_KF_MAX_REGS, { 0 }) \
	OCC_KERNEL_FIELD("ptx_shared", OCC_FT_INT, "the static shared memory " \
		"a PTX file's entry declares, bytes (registers unknown until " \
		"compiled)", get_kernel_field, OCC_KF_PTX_SHARED, { 0 }) \
	OCC_KERNEL_FIELD("required_block", OCC_FT_LIST, "the block shape the " \
		"kernel requires, x y z", get_kernel_field, \
		OCC_KF_REQUIRED_BLOCK, { 0 }) \
	OCC_KERNEL_FIELD("cluster_dims", OCC_FT_LIST, "its cluster shape " \
		"(__cluster_dims__), x y z", get_kernel_field, \
		OCC_KF_CLUSTER_DIMS, { 0 }) \
	OCC_KERNEL_FIELD("triton_kernel", OCC_FT_STR, "the kernel's name in " \
		"Triton's metadata (a Triton cache)", get_kernel_field, \
		OCC_KF_TRITON_KERNEL, { 0 }) \
	OCC_KERNEL_FIELD("triton_version", OCC_FT_STR, "the Triton that " \
		"compiled it", get_kernel_field, OCC_KF_TRITON_VERSION, { 0 }) \
	OCC_KERNEL_FIELD("triton_entry", OCC_FT_STR, "its entry (directory) " \
		"in the Triton cache", get_kernel_field, OCC_KF_TRITON_ENTRY, \
		{ 0 }) \
	OCC_KERNEL_FIELD("num_warps", OCC_FT_INT, "Triton's num_warps: the " \
		"block is 32 times as many threads", get_kernel_field, \
		OCC_KF_NUM_WARPS, { 0 }) \
	OCC_KERNEL_FIELD("num_ctas", OCC_FT_INT, "Triton's num_ctas: the CTAs " \
		"of one cluster it launches", get_kernel_field, \
		OCC_KF_NUM_CTAS, { 0 })

/* The table k's rows are computed with: the GPU named's (named, of
 * compute capability named_cc_major.named_cc_minor; NULL: none) where
 * k's image runs there, as the driver runs sm_80 SASS on an 8.9 GPU with
 * 8.9's limits; else the table of k's own compute capability in t.
 * OCC_OK with *a; OCC_ERR_UNKNOWN_ARCH where t has none. */
enum occ_status occ_kernel_table(const struct occ_tables *t,
				 const struct occ_arch *named,
				 int named_cc_major, int named_cc_minor,
				 const struct occ_kernel_in *k,
				 const struct occ_arch **a);

/* The demangled name of mangled (malloc'ed; free() it), or NULL where
 * it is no C++ symbol: the C++ runtime's __cxa_demangle. */
char *occ_demangle(const char *mangled);

/* ---- A kernel's row computed ---- */

/* The kernel's resources into kk (its defaults set: carveout, opt-in,
 * the barriers asked): registers, static shared memory, its bound, and
 * its barrier count where the input records one and barriers_given is
 * 0 (a cuobjdump report has none). */
void occ_kernel_row_resources(const struct occ_kernel_in *k,
			      int barriers_given, struct occ_kernel *kk);

/* Triton's launch L (NULL: none) where the caller does not say: its
 * block of 32 x num_warps threads into *block unless block_given, its
 * "shared" bytes into *smem unless smem_given; what it set
 * (OCC_KERNEL_LAUNCH_BLOCK, _SMEM bits). */
#define OCC_KERNEL_LAUNCH_BLOCK 1u
#define OCC_KERNEL_LAUNCH_SMEM 2u
unsigned occ_kernel_row_launch(const struct occ_triton_entry *L,
			       int block_given, int smem_given,
			       uint64_t *block, uint64_t *smem);

/* Whether k's row has no figures of the model, and c (zeroed) set for
 * it: no image that runs on the GPU named (c->no_image; the fields then
 * name the kernel and its file only), or PTX whose resources the
 * driver's JIT decides (its arch, block: the block given, 0: none). */
int occ_kernel_row_bare(const struct occ_kernel_in *k, int block,
			struct occ_config_row *c);
/* c (zeroed) as a row saying no image of its kernel runs on the GPU
 * named: whatever image k records, where the caller knows it does not
 * run there (a GPU of several named). */
void occ_kernel_row_no_image(struct occ_config_row *c);

/* What a kernel's row asks beside the kernel. */
struct occ_kernel_query {
	/* The launch: q.k's defaults (occ_config_query_init), block_size
	 * (0: the best one), growth.fixed the dynamic shared memory, sms,
	 * grid, needs; the kernel's resources are put over q.k. */
	struct occ_config_query q;
	int block_given, smem_given, barriers_given;   /* by the caller,
					    not replaced by Triton's launch
					    or the kernel's barriers */
	const struct occ_tables *tables; /* the kernels' own tables */
	const struct occ_arch *named;    /* the GPU named's; NULL: none */
	int named_cc_major, named_cc_minor;
};

/* The row of o's kernel (o->c is set to &row->c) at q's launch on
 * occ_kernel_table's table, as occcalc --kernels makes it: a bare row
 * (occ_kernel_row_bare), else the model's at Triton's launch where q does
 * not give it. Statuses: occ_kernel_table's, occ_config_compute's. */
enum occ_status occ_kernel_row_compute(const struct occ_kernel_query *q,
				       const struct occ_kernel_of *o,
				       struct occ_kernel_row *row);

/* ---- A kernel's cluster launch ---- */

/* The cluster k declares: its binary's __cluster_dims__, else the one
 * Triton's launch makes (launch: NULL, none; num_ctas above 1). 1 with
 * its shape in *c and *source "__cluster_dims__" or "num_ctas"; 0 where
 * it declares none or is PTX only. */
int occ_kernel_cluster_declared(const struct occ_kernel_in *k,
				const struct occ_triton_entry *launch,
				struct occ_cluster_shape *c,
				const char **source);
/* Whether k declares a cluster and its own compute capability's table
 * in t has clusters: its rows are then cluster launches, where a layout
 * is known to compute them on. */
int occ_kernel_declares_cluster(const struct occ_tables *t,
				const struct occ_kernel_in *k,
				const struct occ_triton_entry *launch);

/* Which cluster launch a kernel's row takes, in a run computing them. */
enum occ_kernel_cluster {
	OCC_KERNEL_CLUSTER_NONE,      /* the plain launch */
	OCC_KERNEL_CLUSTER_DECLARED,  /* the one it declares, which wins */
	OCC_KERNEL_CLUSTER_GIVEN      /* the caller's (occcalc's --cluster),
					 if any */
};
/* k's on table a: the cluster it declares (*c, *source as
 * occ_kernel_cluster_declared sets them), else the caller's; none where
 * k is PTX only, a has no clusters, or the declared cluster is larger
 * than a takes (it cannot launch as declared). */
enum occ_kernel_cluster occ_kernel_cluster_for(const struct occ_arch *a,
					       const struct occ_kernel_in *k,
					       const struct occ_triton_entry
					       *launch,
					       struct occ_cluster_shape *c,
					       const char **source);

/* The fields a kernel's row adds where a run computes cluster launches
 * (absent in a row without one), after OCC_KERNEL_ROW_FIELDS. */
#define OCC_KERNEL_ROW_CLUSTER_FIELDS ",cluster,cluster_size," \
	"cluster_portable,cluster_blocks_per_sm,max_active_clusters," \
	"cluster_active_blocks,cluster_occupancy_pct,cluster_limiter," \
	"cluster_reason,cluster_gpcs_used,cluster_idle_slots," \
	"cluster_potential_size,cluster_potential_size_nonportable," \
	"cluster_best_size,cluster_best_active_blocks,layout,layout_source," \
	"cluster_source"

/* ---- Which of a file's kernels are shown ---- */

/* A kernel's image as the list's rules compare them. */
struct occ_kernel_pick {
	const char *file;        /* the file read (kernels of one file
				    compare equal) */
	const char *mangled;
	struct occ_kernel_image im;
	int64_t fatbin_offset;   /* its fatbin's (-1: none) */
	int min_blocks;          /* -1: not recorded (a cubin) */
};
/* The i-th kernel of list into *p. */
typedef void (*occ_kernel_pick_fn)(const void *list, size_t i,
				   struct occ_kernel_pick *p);

/* Of each kernel's images in one file that no fatbin chose (cubins, a
 * compiler report's rows), only the one occ_kernel_image_rank prefers on
 * a GPU of cc_major.cc_minor, where one runs there, as the driver would
 * choose were they in one fatbin; where none does, one of those marked
 * OCC_IMAGE_NONE (a row saying so). drop[i] (n bytes) is set for each
 * kernel of list left out. OCC_ERR_NOMEM. */
enum occ_status occ_kernels_keep_loaded(const void *list, size_t n,
					occ_kernel_pick_fn pick, int cc_major,
					int cc_minor, unsigned char *drop);

/* A cubin does not record __launch_bounds__' minimum blocks; the PTX of
 * the same kernel beside it in its fatbin (list's entries of one file
 * and fatbin_offset, in a row) does (.minnctapersm): min_blocks[i] (n
 * ints) is the first such PTX's for a SASS kernel without its own, else
 * 0. OCC_ERR_NOMEM. */
enum occ_status occ_kernels_min_blocks_from_ptx(const void *list, size_t n,
						occ_kernel_pick_fn pick,
						int *min_blocks);

/* Relocatable device code (nvcc -rdc) is linked before the driver runs
 * it: of a file holding a kernel both linked and relocatable for one
 * architecture (NCCL, NVSHMEM; list's entries of one file in a row), the
 * relocatable image is left out, drop[i] (n bytes) set for it; a kernel
 * a file holds only as relocatable code (cuBLASLt's) stays, linked by
 * the library at run time. OCC_ERR_NOMEM. */
enum occ_status occ_kernels_drop_relocatable(const void *list, size_t n,
					     occ_kernel_pick_fn pick,
					     unsigned char *drop);

/* ---- A kernel's rows for a program ---- */

/* The fields occcalc --kernels -f json writes unless others are asked
 * for: the configuration's, the kernel's name and spills, the most
 * dynamic shared memory, then where it came from and its bounds. */
#define OCC_KERNEL_ROW_NAME_FIELDS ",kernel,mangled,stack,spill_stores," \
	"spill_loads"
#define OCC_KERNEL_ROW_BOUND_FIELDS ",file,container,ptx_only," \
	"bounds_known,max_threads,min_blocks_per_sm,reaches_min_blocks," \
	"max_regs,required_block,cluster_dims"
#define OCC_KERNEL_ROW_FIELDS OCC_CONFIG_FIELDS_MODEL \
	OCC_KERNEL_ROW_NAME_FIELDS ",max_dynamic_smem_per_block" \
	OCC_KERNEL_ROW_BOUND_FIELDS

/* Each kernel of path (a compiler report, PTX, a binary, a directory of
 * them: occ_kernels_read) as occcalc --kernels path -f jsonl writes its
 * row, handed to fn: on the GPU that arch and gpu name (occ_env_gpu;
 * both NULL: each kernel on its own architecture's table), arch keeping
 * kernels as --arch does; block (0: the best one, or Triton's launch)
 * and smem (dynamic shared memory, bytes; -1: none, or Triton's) as
 * --block and --smem give them; fields as the list names them (NULL:
 * OCC_KERNEL_ROW_FIELDS). A file's kernels are held until it ends, a
 * row at a time handed over: relocatable code beside the linked left
 * out (occ_kernels_drop_relocatable), with a GPU named of a kernel's
 * images in a file the one it loads (occ_kernels_keep_loaded), a
 * cubin's minimum blocks from the PTX beside it
 * (occ_kernels_min_blocks_from_ptx), that PTX then left out. Where a
 * kernel read declares a cluster (occ_kernel_declares_cluster; the
 * input is read twice to know it) and gpu names a GPU, every row has
 * the cluster fields too (default: OCC_KERNEL_ROW_CLUSTER_FIELDS after
 * OCC_KERNEL_ROW_FIELDS), a kernel's that launches one
 * (occ_kernel_cluster_for) that launch on the GPU's layout, others
 * absent; with arch only no layout is known and the rows are plain
 * (occcalc warns so), any cluster field asked absent. OCC_ERR_UNSUPPORTED with diag->msg where no kernel
 * read runs on the GPU named (as occcalc fails; in a directory, after
 * the rows of the files before). Statuses: occ_env_gpu's,
 * occ_row_kind_select's and the layout's (diag->data),
 * occ_kernels_read's (diag), occ_kernel_row_compute's;
 * OCC_ERR_INVALID_INPUT where fn stops. */
enum occ_status occ_env_kernels_json(const struct occ_env *env,
				     const char *path, const char *arch,
				     const char *gpu, int block, int64_t smem,
				     const char *fields, occ_json_row_fn fn,
				     void *ctx, struct occ_kernels_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
