/*
 * occcalc/query.h - what a program (a Python binding, a tuner) asks in
 * one call, answered as the command line answers it: the tables and the
 * GPU list read once into an environment, read-only after (share it
 * between threads), and a configuration's row on a GPU named as occcalc's
 * --arch and --gpu name it, written as the JSON object occcalc -f json
 * writes for it.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_QUERY_H
#define OCCCALC_QUERY_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/query.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct occ_env;

/* The tables in dir (NULL: $OCCCALC_TABLES if set, else where 'make
 * install' put them) and the GPU list beside them (gpus.txt). Statuses
 * and diag as occ_tables_load and occ_gpus_load give them. */
enum occ_status occ_env_open(const char *dir, struct occ_env **out,
			     struct occ_diag *diag);
void occ_env_free(struct occ_env *env);
const struct occ_tables *occ_env_tables(const struct occ_env *env);
const struct occ_gpus *occ_env_gpus(const struct occ_env *env);

/* The GPU of a row: arch ("sm_90", "9.0", "90"), gpu (a name of the GPU
 * list, as --gpu matches it) or both, which must agree; *sms the list's
 * SM count for gpu (0: none, or no gpu). OCC_ERR_BAD_ARCH_NAME for an
 * arch that is no name, OCC_ERR_UNKNOWN_ARCH for one without a table or a
 * gpu not matched once (diag->key: what was asked), OCC_ERR_INCONSISTENT
 * when they disagree, OCC_ERR_INVALID_INPUT for neither. */
enum occ_status occ_env_gpu(const struct occ_env *env, const char *arch,
			    const char *gpu, const struct occ_arch **a,
			    int *sms, struct occ_diag *diag);

/* A query with occcalc's defaults: no block (the best one), 0 registers,
 * no shared memory, one barrier, the default carveout, opt-in allowed. */
void occ_config_query_init(struct occ_config_query *q);
/* sizeof (struct occ_config_query), for bindings that lay it out. */
size_t occ_config_query_size(void);

/* The fields of kind named in list (comma-separated; NULL: all of them)
 * into f (max), their count in *n and the union of their needs in
 * *needs. OCC_ERR_UNKNOWN_KEY names the first unknown one in diag->key;
 * OCC_ERR_RANGE for more than max. */
enum occ_status occ_row_kind_select(const struct occ_row_kind *kind,
				    const char *list,
				    const struct occ_field **f, size_t max,
				    size_t *n, unsigned *needs,
				    struct occ_diag *diag);

/* The row of q on the GPU that arch and gpu name (occ_env_gpu; the
 * list's SMs unless q->sms is set) as JSON, fields as the list names
 * them (NULL: occ_config_default_fields' for q->needs, which the fields
 * then set), into buf as occ_row_json writes
 * (*len: the length it needs; buf holds it whole when *len < cap).
 * Statuses: occ_env_gpu's, occ_row_kind_select's, occ_config_compute's;
 * OCC_ERR_MISSING_KEY for a grid on a GPU of no known SM count. */
enum occ_status occ_env_config_json(const struct occ_env *env,
				    const char *arch, const char *gpu,
				    const struct occ_config_query *q,
				    const char *fields, char *buf, size_t cap,
				    size_t *len, struct occ_diag *diag);

/* The row of q launched in clusters of shape (NULL: the portable size
 * with the most CTAs resident, occcalc --cluster best) on the GPU that
 * arch and gpu name, as occcalc --cluster writes it: q's default fields
 * (occ_config_default_fields), then occ_cluster_kind's. The GPC layout
 * is the target's (occ_target_layout): gpu's in the list, else the SMs
 * (q->sms) as one group. OCC_ERR_MISSING_KEY (diag key "layout") where
 * neither is known; occ_env_config_json's and occ_cluster_row_compute's
 * statuses. */
enum occ_status occ_env_cluster_json(const struct occ_env *env,
				     const char *arch, const char *gpu,
				     const struct occ_config_query *q,
				     const struct occ_cluster_shape *shape,
				     char *buf, size_t cap, size_t *len,
				     struct occ_diag *diag);

/* Called with each row's JSON object (len bytes, NUL-terminated), valid
 * until it returns; nonzero stops the read, which returns
 * OCC_ERR_INVALID_INPUT. */
typedef int (*occ_json_row_fn)(void *ctx, const char *json, size_t len);

/* Each launch of the trace at path (an occcalc trace or a Kineto one,
 * plain or gzip) as occcalc --launches path -f jsonl writes it, handed to
 * fn as it is read: never more than one row held. gpu: a name of the
 * list to model every launch on (occcalc --gpu), or NULL; fields as the
 * list names them (NULL: OCC_LAUNCH_FIELDS). launches (may be NULL): the
 * rows handed over. Statuses as occ_launch_rows_read_file's. */
enum occ_status occ_env_launches_json(const struct occ_env *env,
				      const char *path, const char *gpu,
				      const char *fields, occ_json_row_fn fn,
				      void *ctx, uint64_t *launches,
				      struct occ_diag *diag);

/* The summary of the trace at path by kernel or operator (by: "kernel",
 * "op"; NULL: kernel) and GPU, each group handed to fn as the JSON object
 * occcalc --launches path --summary -f jsonl writes for it
 * (OCC_LAUNCH_SUMMARY_FIELDS, _OP), ranked by GPU time; gpu as
 * occ_env_launches_json's. What is held grows with the groups, never the
 * launches. OCC_ERR_INVALID_INPUT for another by; statuses as
 * occ_launch_rows_read_file's, OCC_ERR_NOMEM. */
enum occ_status occ_env_launch_summary_json(const struct occ_env *env,
					    const char *path, const char *gpu,
					    const char *by, occ_json_row_fn fn,
					    void *ctx, struct occ_diag *diag);

/* Called with the next n bytes of the output; nonzero: it failed. */
typedef int (*occ_write_fn)(void *ctx, const void *p, size_t n);

/* The Kineto trace at path (PyTorch's profiler's, plain or gzip) written
 * to write as occcalc --launches path --annotate writes it: byte for byte,
 * with "occcalc":{...} added to each kernel event's args (its occupancy,
 * blocks, warps, limiter, waves; OCC_LAUNCH_ANNOTATION_FIELDS), modelled
 * on gpu (a name of the list) if given. OCC_ERR_UNSUPPORTED for an
 * occcalc trace (nothing written); OCC_ERR_IO where write failed; the
 * reader's statuses (occ_launches_annotate_file). */
enum occ_status occ_env_annotate(const struct occ_env *env, const char *path,
				 const char *gpu, occ_write_fn write,
				 void *ctx, struct occ_diag *diag);

/* Each table as occcalc --list-archs -f json lists it, then each GPU of
 * the list as --list-gpus does, handed to fn one row at a time; fields as
 * the list names them (NULL: OCC_ARCHS_FIELDS, OCC_GPUS_FIELDS).
 * Statuses: occ_row_kind_select's; OCC_ERR_INVALID_INPUT when fn stops. */
enum occ_status occ_env_archs_json(const struct occ_env *env,
				   const char *fields, occ_json_row_fn fn,
				   void *ctx, struct occ_diag *diag);
enum occ_status occ_env_gpus_json(const struct occ_env *env,
				  const char *fields, occ_json_row_fn fn,
				  void *ctx, struct occ_diag *diag);

/* The record of the table of the GPU that arch and gpu name (occ_env_gpu)
 * as occcalc --arch ARCH --info -f json writes its object, fields as the
 * list names them (NULL: all of them, as --info shows), into buf as
 * occ_row_json writes (*len: the length it needs). Statuses: occ_env_gpu's
 * and occ_row_kind_select's. */
enum occ_status occ_env_info_json(const struct occ_env *env,
				  const char *arch, const char *gpu,
				  const char *fields, char *buf, size_t cap,
				  size_t *len, struct occ_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
