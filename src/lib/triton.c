/*
 * triton.c - the launch Triton records beside each cubin of its cache
 * (NAME.json: num_warps, num_ctas, shared, name, triton_version, target),
 * read with the library's JSON reader (json.c): the whole document is
 * read, strictly, and the keys that say how the kernel is launched are
 * kept. Any bytes either read or are refused with the offset and the
 * reason; nesting is bounded (64 levels, 20 deeper than Triton writes).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

/* An integer key of the launch, range-checked before it is narrowed. */
static int launch_int(struct occ_json_reader *r,
		      const struct occ_json_event *e, int64_t max,
		      const char *key, int64_t *out)
{
	int st = e->type == JSON_NUMBER ? occ_json_int(e->text, e->len, 0,
						       max, out) : -1;

	if (st == -1)
		return occ_json_fail(r, OCC_ERR_BAD_VALUE, e->offset,
				     "\"%s\" is not an integer", key);
	if (st == -2)
		return occ_json_fail(r, OCC_ERR_RANGE, e->offset,
				     "\"%s\" %.40s outside 0-%lld", key,
				     e->text, (long long)max);
	return 0;
}

/* s into out (n bytes), cut short of n on a character's boundary. */
static void copy_utf8(char *out, size_t n, const char *s, size_t len)
{
	if (len >= n) {
		len = n - 1;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(out, s, len);
	out[len] = '\0';
}

/* A top-level key: kept where it is one of the launch's. */
static int top_key(struct occ_json_reader *r, struct occ_triton_meta *m,
		   const struct occ_json_event *e)
{
	const char *key = e->key;
	int64_t x;

	if (strcmp(key, "num_warps") == 0) {
		if (launch_int(r, e, OCC_TRITON_MAX_WARPS, key, &x) < 0)
			return -1;
		m->num_warps = (int)x;
	} else if (strcmp(key, "num_ctas") == 0) {
		if (launch_int(r, e, OCC_TRITON_MAX_CTAS, key, &x) < 0)
			return -1;
		m->num_ctas = (int)x;
	} else if (strcmp(key, "shared") == 0) {
		if (launch_int(r, e, (int64_t)OCC_BYTES_MAX, key, &x) < 0)
			return -1;
		m->shared = x;
	} else if (strcmp(key, "name") == 0 && e->type == JSON_STRING) {
		/* Cut, it would name another kernel. */
		if (e->len >= sizeof m->name)
			return occ_json_fail(r, OCC_ERR_RANGE, e->offset,
					     "\"name\" longer than %zu bytes",
					     sizeof m->name - 1);
		memcpy(m->name, e->text, e->len + 1);
	} else if (strcmp(key, "triton_version") == 0 &&
		   e->type == JSON_STRING) {
		copy_utf8(m->version, sizeof m->version, e->text, e->len);
	}
	return 0;
}

/* Each value: the launch's where its place makes it one of them. */
static int on_value(void *ctx, struct occ_json_reader *r,
		    const struct occ_json_event *e)
{
	struct occ_triton_meta *m = ctx;
	const char *up = occ_json_key_at(r, 1);
	int64_t x;

	if (e->type == JSON_END)
		return 0;
	if (e->depth == 0)
		return e->type == JSON_OBJECT ? 0 : occ_json_fail(r,
			OCC_ERR_SYNTAX, e->offset, "not a JSON object");
	if (e->depth == 1)
		return top_key(r, m, e);
	if (e->depth != 2 || !up)
		return 0;
	if (strcmp(up, "target") == 0 && e->key &&
	    strcmp(e->key, "arch") == 0 && e->type == JSON_NUMBER &&
	    occ_json_int(e->text, e->len, 1, 999, &x) == 0)
		m->arch = (int)x;
	if (strcmp(up, "cluster_dims") == 0) {
		if (e->index < 0)
			return occ_json_fail(r, OCC_ERR_BAD_VALUE, e->offset,
					     "\"cluster_dims\" is not an "
					     "array");
		if (e->index >= 3)
			return occ_json_fail(r, OCC_ERR_BAD_VALUE, e->offset,
					     "\"cluster_dims\" has more than "
					     "3 values");
		if (launch_int(r, e, OCC_TRITON_MAX_CTAS, "cluster_dims",
			       &x) < 0)
			return -1;
		m->cluster_dims[e->index] = (int)x;
	}
	return 0;
}

enum occ_status occ_triton_meta_parse(const char *text, size_t len,
				      struct occ_triton_meta *m,
				      struct occ_bin_diag *diag)
{
	struct occ_json_limits lim = { OCC_JSON_DEPTH_MAX, 0, 0, 0 };
	struct occ_json_err err;
	enum occ_status st;

	memset(m, 0, sizeof *m);
	m->num_warps = m->num_ctas = m->arch = -1;
	m->shared = -1;
	diag->offset = 0;
	diag->what[0] = '\0';
	st = occ_json_read_mem(text, len, &lim, on_value, m, &err);
	if (st != OCC_OK) {
		diag->offset = err.offset;
		snprintf(diag->what, sizeof diag->what, "%s", err.what);
	}
	return st;
}

static const char *launch_missing(const struct occ_triton_meta *m)
{
	if (m->num_warps < 0)
		return "num_warps";
	if (m->num_warps == 0)
		return "num_warps above 0";
	if (m->shared < 0)
		return "shared";
	if (!m->name[0])
		return "name";
	if (m->num_ctas == 0)
		return "num_ctas above 0";
	return NULL;
}

static void launch_cluster(const struct occ_triton_meta *m, int c[3])
{
	const int *d = m->cluster_dims;
	int i;

	memset(c, 0, 3 * sizeof *c);
	if (d[0] > 0 && (int64_t)d[0] * (d[1] ? d[1] : 1) *
	    (d[2] ? d[2] : 1) > 1) {
		for (i = 0; i < 3; i++)
			c[i] = d[i] > 0 ? d[i] : 1;
	} else if (m->num_ctas > 1) {
		c[0] = m->num_ctas;
		c[1] = c[2] = 1;
	}
}

enum occ_status occ_triton_launch_of(const struct occ_triton_meta *m,
				     struct occ_triton_launch *launch,
				     const char **missing)
{
	const char *lacks;

	if (!m || !launch)
		return OCC_ERR_INVALID_INPUT;
	memset(launch, 0, sizeof *launch);
	lacks = launch_missing(m);
	if (missing)
		*missing = lacks;
	if (lacks)
		return OCC_ERR_MISSING_KEY;
	launch->block = 32 * m->num_warps;
	launch->dynamic_smem = m->shared;
	launch->num_warps = m->num_warps;
	launch->num_ctas = m->num_ctas > 0 ? m->num_ctas : 1;
	launch_cluster(m, launch->cluster);
	return OCC_OK;
}
