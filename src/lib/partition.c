/*
 * partition.c - SM partitions: the split cuDevSmResourceSplitByCount
 * makes, from the rule measured on H100 and H200 (docs/partition.md), and
 * the measured GPC layout of each part, read from partitions.txt.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "occcalc.h"
#include "util.h"

#define PARTITION_SMS_MAX 1024
#define BOTH_FLAGS (OCC_PARTITION_IGNORE_COSCHEDULING | \
		    OCC_PARTITION_MAX_CLUSTER_SIZE)

const char *occ_partition_flags_name(unsigned flags)
{
	switch (flags) {
	case 0: return "default";
	case OCC_PARTITION_IGNORE_COSCHEDULING: return "ignore-coscheduling";
	case OCC_PARTITION_MAX_CLUSTER_SIZE: return "max-cluster-size";
	default: return NULL;
	}
}

/* cuda.h's guideline for minCount, by architecture; 9.0 measured. */
static void granularity(const struct occ_arch *arch, unsigned flags,
			struct occ_partition_split *s)
{
	if (arch->cc_major >= 9 && !(flags & OCC_PARTITION_IGNORE_COSCHEDULING)) {
		s->min_sms = 8;
		s->alignment = 8;
	} else if (arch->cc_major == 8 &&
		   !(flags & OCC_PARTITION_IGNORE_COSCHEDULING)) {
		s->min_sms = 4;
		s->alignment = 2;
	} else {
		s->min_sms = 2;
		s->alignment = 2;
	}
}

/* Units of the alignment wholly inside one GPC. */
static int units_in_gpcs(const struct occ_gpc_layout *l, int alignment)
{
	int i, n = 0;

	for (i = 0; i < l->n_gpcs; i++)
		n += l->sms_per_gpc[i] / alignment;
	return n;
}

static int round_up(int n, int to)
{
	return (n + to - 1) / to * to;
}

enum occ_status occ_partition_split(const struct occ_arch *arch, int sms,
				    const struct occ_gpc_layout *layout,
				    unsigned flags, int min_sms,
				    struct occ_partition_split *out)
{
	struct occ_partition_split s = { 0 };
	int wanted, units;

	if (flags & ~(unsigned)BOTH_FLAGS || (flags & BOTH_FLAGS) == BOTH_FLAGS ||
	    sms < 1 || sms > PARTITION_SMS_MAX || min_sms < 0 || min_sms > sms ||
	    (layout && layout->sms != sms))
		return OCC_ERR_INVALID_INPUT;
	if (arch->cc_major < 6 ||
	    (arch->cc_major < 9 && (flags & OCC_PARTITION_MAX_CLUSTER_SIZE)))
		return OCC_ERR_UNSUPPORTED;
	granularity(arch, flags, &s);
	wanted = round_up(min_sms > s.min_sms ? min_sms : s.min_sms, s.alignment);
	if (wanted >= sms) {
		/* More than the GPU has: one group of all its SMs. */
		s.group_sms = sms;
		s.groups = s.groups_min = s.groups_max = 1;
		*out = s;
		return OCC_OK;
	}
	s.group_sms = wanted;
	units = sms / s.alignment;
	if (flags & OCC_PARTITION_IGNORE_COSCHEDULING) {
		s.groups_min = s.groups_max = sms / wanted;
	} else if (wanted > s.alignment) {
		s.groups_min = s.groups_max = units / (wanted / s.alignment);
	} else if (layout) {
		s.groups_min = s.groups_max = units_in_gpcs(layout, s.alignment);
	} else {
		s.groups_min = 0;
		s.groups_max = units;
	}
	s.groups = s.groups_max;
	s.remaining_sms = sms - s.groups_max * wanted;
	*out = s;
	return OCC_OK;
}

enum occ_status occ_partition_part_sms(const struct occ_partition_split *s,
				       int group, int *sms)
{
	if (group < OCC_PARTITION_REMAINING)
		return OCC_ERR_INVALID_INPUT;
	if (group >= 0) {
		if (group >= s->groups_max)
			return OCC_ERR_RANGE;
		*sms = s->group_sms;
		return OCC_OK;
	}
	if (s->groups_min != s->groups_max)
		return OCC_ERR_UNSUPPORTED;
	if (s->remaining_sms < 1)
		return OCC_ERR_RANGE;
	*sms = s->remaining_sms;
	return OCC_OK;
}

/* ---- MPS ---- */

#define MPS_MIN_SMS 8

enum occ_status occ_mps_sms(int gpu_sms, int pct, int *sms)
{
	int n;

	if (pct < 1 || pct > 100 || gpu_sms < 1 || gpu_sms > PARTITION_SMS_MAX)
		return OCC_ERR_INVALID_INPUT;
	n = pct * gpu_sms / 200 * 2;
	if (n < MPS_MIN_SMS)
		n = MPS_MIN_SMS;
	*sms = n < gpu_sms ? n : gpu_sms;
	return OCC_OK;
}

/* ---- partitions.txt ---- */

static int flags_from_name(const char *w, unsigned *flags)
{
	unsigned f;

	for (f = 0; f <= OCC_PARTITION_MAX_CLUSTER_SIZE; f++) {
		const char *name = occ_partition_flags_name(f);

		if (name && strcmp(name, w) == 0) {
			*flags = f;
			return 0;
		}
	}
	return -1;
}

/* A group's index ("0".."1023") or "remaining"; -2 for anything else. */
static int group_from_word(const char *w)
{
	char *end;
	long v;

	if (strcmp(w, "remaining") == 0)
		return OCC_PARTITION_REMAINING;
	if (*w < '0' || *w > '9' || strlen(w) > 4)
		return -2;
	v = strtol(w, &end, 10);
	return *end || v >= PARTITION_SMS_MAX ? -2 : (int)v;
}

struct part_key {
	const char *name;
	unsigned flags;
	int group_sms, group;
};

/* "part NAME FLAGS GROUP_SMS GROUP HW API SOURCE...": 1 if it is the part
 * asked for (out filled), 0 if another line, -1 if a malformed part line. */
static int part_line(char *line, const struct part_key *k,
		     struct occ_partition_part *out)
{
	char *save = NULL, *w[7], *rest;
	unsigned flags;
	long group_sms;
	char *end;
	int i, group;

	w[0] = strtok_r(line, " \t", &save);
	if (!w[0] || strcmp(w[0], "part") != 0)
		return 0;
	for (i = 1; i < 7; i++)
		if (!(w[i] = strtok_r(NULL, " \t", &save)))
			return -1;
	rest = strtok_r(NULL, "", &save);
	group_sms = strtol(w[3], &end, 10);
	if (*end || w[3][0] < '1' || w[3][0] > '9' || strlen(w[3]) > 4 ||
	    group_sms > PARTITION_SMS_MAX || flags_from_name(w[2], &flags) ||
	    (group = group_from_word(w[4])) == -2 ||
	    occ_layout_parse(w[5], &out->hw, NULL) != OCC_OK ||
	    occ_layout_parse(w[6], &out->api, NULL) != OCC_OK ||
	    out->hw.sms != out->api.sms || (group >= 0 && out->hw.sms !=
	    group_sms) || !rest || *occ_trim(rest) == '\0')
		return -1;
	if (strcasecmp(w[1], k->name) != 0 || flags != k->flags ||
	    group_sms != k->group_sms || group != k->group)
		return 0;
	occ_copy_string(out->source, sizeof out->source, occ_trim(rest));
	return 1;
}

#define PART_LINE_CHARS 1024

enum occ_status occ_partition_part_read(FILE *f, const char *path,
					const char *name, unsigned flags,
					int group_sms, int group,
					struct occ_partition_part *out,
					struct occ_diag *diag)
{
	char buf[PART_LINE_CHARS], *line;
	struct part_key k = { name, flags, group_sms, group };
	struct occ_partition_part p;
	struct occ_lines in;
	int found = 0;
	enum occ_status st;

	occ_diag_set(diag, path, 0, "");
	/* Every line is read, so that a malformed one is refused wherever
	 * it is, not only before the part asked for. */
	occ_lines_init(&in, f, buf, sizeof buf);
	while ((st = occ_lines_next(&in, &line)) == OCC_OK && line) {
		struct occ_partition_part q;
		int r;

		occ_strip_comment(line);
		if ((r = part_line(occ_trim(line), &k, found ? &q : &p)) < 0) {
			found = -1;
			break;
		}
		found |= r;
	}
	if (found < 0)
		st = OCC_ERR_SYNTAX;
	if (st != OCC_OK) {
		occ_diag_set(diag, path, in.lineno, found < 0 ? "part" : "");
		if (diag && st == OCC_ERR_LINE_TOO_LONG)
			diag->limit = sizeof buf - 1;
		return st;
	}
	if (!found)
		return OCC_ERR_UNKNOWN_ARCH;
	*out = p;
	return OCC_OK;
}

enum occ_status occ_partition_part_find(const char *path, const char *name,
					unsigned flags, int group_sms,
					int group,
					struct occ_partition_part *out,
					struct occ_diag *diag)
{
	enum occ_status st;
	FILE *f;

	occ_diag_set(diag, path, 0, "");
	if ((st = occ_open_regular(path, &f)) != OCC_OK)
		return st;
	st = occ_partition_part_read(f, path, name, flags, group_sms, group,
				     out, diag);
	fclose(f);
	return st;
}
