/* ci.h - occcalc in CI (included by cli.h, after the types it uses):
 * --check and --check-file (check.c), --compare (compare.c), --gpu LIST
 * and --arch LIST (targets.c). */
#ifndef OCC_CI_H
#define OCC_CI_H

struct occ_run;
struct occ_row;

/* --gpu NAME's lookup, for a name of --gpu's list. */
void session_lookup_gpu(struct session *s, const char *name,
			struct occ_gpu *g);

/* ---- Several GPUs or architectures (targets.c) ---- */

/* --gpu LIST or --arch LIST: the targets, the first applied; refuses
 * lists where they do not apply. Nothing without a list. */
void targets_prepare(struct session *s);
/* Target i's architecture, SM count and name into the options. */
void target_apply(struct session *s, int i);
/* Of the images of one kernel, the one t loads, or NULL. */
const struct kernel_info *target_image(const struct kernel_info *const *group,
				       size_t n, const struct target *t);
/* The text matrix: a row per kernel, a cell per GPU. */
void matrix_row(struct session *s, const char *file, const char *mangled,
		const char *kernel);
void matrix_rewind(struct session *s);
int matrix_find(struct session *s, const char *file, const char *mangled);
void matrix_cell(struct session *s, int gpu, const char *text);
/* The cell replaced (matrix_cell keeps the first text set): a cluster
 * launch's, after its plain launch's. */
void matrix_cell_set(struct session *s, int gpu, const char *text);
void matrix_print(struct session *s, struct out *o);
void matrix_free(struct matrix *m);

/* ---- --check and --check-file (check.c) ---- */

/* Parses the checks against kind's fields (a usage error names the
 * column), once a run. Nothing without --check. */
void check_prepare(struct session *s, const struct occ_row_kind *kind);
/* The same, and has out judge each row it writes. */
void check_attach(struct session *s, struct out *out,
		  const struct occ_row_kind *kind);
/* What rows must compute for the checks to judge them (a field checked
 * but not printed included). */
unsigned check_needs(const struct session *s);
void check_judge(struct check_set *c, const void *row);
/* The run's exit status: status without checks, else 1 if a row failed
 * one (each said on stderr as it was written), 0 if none did. */
int check_status(struct session *s, int status);
void check_free(struct check_set *c);

/* ---- --compare (compare.c) ---- */

extern const struct occ_row_kind kind_compare;
/* --kernels NEW --compare BASELINE: the rows that changed, added,
 * removed; mode_kernels' entry with --compare. */
int mode_compare(struct session *s);
void compare_free(struct compare *c);

/* --gpu LIST, --arch LIST with --kernels: for each target in turn, the
 * input read again for it (i > 0, into the session's target_kernels[i];
 * l for the first), begin(ctx, i, its list), then row(ctx, i, k,
 * img) for each kernel k (a file's images of one symbol) with the image
 * the target loads, or NULL; the matrix's rows and cells kept. */
void targets_kernels(struct session *s, struct kernel_list *l,
		     void (*begin)(void *ctx, int i, struct kernel_list *l),
		     void (*row)(void *ctx, int i, const struct kernel_info *k,
				 const struct kernel_info *img),
		     void *ctx);

/* A regular text file whole, at most max bytes, NUL-terminated (to
 * free), read without blocking (a FIFO is refused); NULL with the reason
 * in err if it cannot be read. text_file_read exits 1 with it instead. */
char *text_file_load(const char *path, uint64_t max, size_t *len, char *err,
		     size_t n);
char *text_file_read(const char *path, uint64_t max, size_t *len);

/* The rows of l's kernels, each handed to sink (mode_kernels.c). */
void kernels_rows(struct session *s, struct kernel_list *l,
		  void (*sink)(struct occ_run *, const struct occ_row *),
		  void *ctx);

#endif
