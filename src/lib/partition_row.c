/*
 * partition_row.c - a configuration computed in a part of the GPU
 * (occcalc/partition_row.h): the part by the target module's rule
 * (occ_target_part), what of it is a bound, the GPCs clusters run on
 * there, and --partition-flags' and --partition-part's words.
 */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"
#include "util.h"

static int largest(const struct occ_gpc_layout *l)
{
	int i, n = 0;

	for (i = 0; i < l->n_gpcs; i++)
		if (l->sms_per_gpc[i] > n)
			n = l->sms_per_gpc[i];
	return n;
}

enum occ_status occ_partition_row_compute(const struct occ_target *t,
					  const char *parts_path,
					  unsigned flags, int min_sms,
					  int group,
					  struct occ_partition_row *p,
					  struct occ_diag *diag)
{
	const struct occ_partition_split *s = &p->part.split;
	enum occ_status st;

	memset(p, 0, sizeof *p);
	p->gpu_sms = t->sms;
	if (p->gpu_sms <= 0)
		return OCC_ERR_MISSING_KEY;
	if (min_sms > p->gpu_sms)
		return OCC_ERR_RANGE;
	st = occ_target_part(t, parts_path, flags, min_sms, group, &p->part,
			     diag);
	if (st != OCC_OK)
		return st;
	if (group >= 0)
		snprintf(p->name, sizeof p->name, "group %d", group);
	else
		snprintf(p->name, sizeof p->name, "remaining");
	p->largest_gpc = occ_layout_basis_exact(t->basis) ?
		largest(&t->layout) : t->gpu ? t->gpu->sms_per_gpc_max : 0;
	p->bound_remaining = s->groups_min != s->groups_max;
	p->bound = !p->part.measured || p->bound_remaining;
	return OCC_OK;
}

void occ_partition_cluster_layout(const struct occ_arch *a,
				  const struct occ_partition_row *p,
				  const char *gpu,
				  struct occ_cluster_layout *L)
{
	int sms = p->part.sms;

	memset(L, 0, sizeof *L);
	L->cap_unknown = occ_cluster_cap_unknown(a);
	if (p->part.measured) {
		L->l = p->part.layout;
		snprintf(L->source, sizeof L->source, "--partition %s of %s: "
			 "%.200s", p->name, gpu ? gpu : "", p->part.source);
	} else if (!p->largest_gpc) {
		L->whole = 1;
		L->l.n_gpcs = 1;
		L->l.sms_per_gpc[0] = L->l.sms = sms;
		snprintf(L->text, sizeof L->text, "not known: a part of %d "
			 "SMs, GPCs not published", sms);
		snprintf(L->source, sizeof L->source, "--partition");
	} else {
		L->bound = 1;
		L->counts.sms = sms;
		L->counts.gpcs = 1;
		L->counts.sms_per_gpc_max = p->largest_gpc;
		L->l.sms = sms;
		snprintf(L->text, sizeof L->text, "not measured: a part of %d "
			 "SMs in GPCs of at most %d", sms, p->largest_gpc);
		snprintf(L->source, sizeof L->source, "--partition (no "
			 "measured layout of this part)");
	}
	occ_cluster_layout_text(L);
}

const struct occ_gpc_layout *
occ_partition_api_layout(const struct occ_partition_row *p,
			 const struct occ_cluster_layout *L)
{
	if (!p->part.measured || L->bound)
		return NULL;
	return &p->part.api;
}

/* ---- The command line's words ---- */

static enum occ_status flag_of(const char *word, unsigned *flags,
			       struct occ_diag *diag)
{
	if (strcmp(word, "ignore-coscheduling") == 0)
		*flags |= OCC_PARTITION_IGNORE_COSCHEDULING;
	else if (strcmp(word, "max-cluster-size") == 0)
		*flags |= OCC_PARTITION_MAX_CLUSTER_SIZE;
	else if (strcmp(word, "default") != 0) {
		if (diag) {
			memset(diag, 0, sizeof *diag);
			occ_copy_string(diag->key, sizeof diag->key, word);
		}
		return OCC_ERR_UNKNOWN_KEY;
	}
	return OCC_OK;
}

enum occ_status occ_partition_flags_parse(const char *s, unsigned *flags,
					  struct occ_diag *diag)
{
	char buf[128], *tok, *save = NULL;
	size_t n = strlen(s);
	enum occ_status st;

	*flags = 0;
	if (n >= sizeof buf)
		return OCC_ERR_RANGE;
	if (!n || strstr(s, ",,") || *s == ',' || s[n - 1] == ',')
		return OCC_ERR_SYNTAX;
	memcpy(buf, s, n + 1);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if ((st = flag_of(tok, flags, diag)) != OCC_OK)
			return st;
	if (*flags == (OCC_PARTITION_IGNORE_COSCHEDULING |
		       OCC_PARTITION_MAX_CLUSTER_SIZE))
		return OCC_ERR_INVALID_INPUT;
	return OCC_OK;
}

enum occ_status occ_partition_part_parse(const char *s, int *group)
{
	enum occ_parse_status ps;
	const char *end = NULL;
	uint64_t n = 0;

	if (strcmp(s, "remaining") == 0 || strcmp(s, "group") == 0) {
		*group = *s == 'r' ? OCC_PARTITION_REMAINING : 0;
		return OCC_OK;
	}
	if (strncmp(s, "group:", 6) != 0)
		return OCC_ERR_SYNTAX;
	ps = occ_parse_u64(s + 6, &n, &end);
	if (ps == OCC_PARSE_SYNTAX || (ps == OCC_PARSE_OK && *end))
		return OCC_ERR_SYNTAX;
	if (ps != OCC_PARSE_OK || n > 1023)
		return OCC_ERR_RANGE;
	*group = (int)n;
	return OCC_OK;
}
