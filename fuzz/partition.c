/*
 * partition.c - fuzzing the SM partitions: partitions.txt's reader and the
 * split. A part it accepts has as many SMs in its runtime layout as in its
 * hardware one, a group's as many as its group has, and reads back the
 * same from its own line. The first bytes also choose a split (SMs,
 * minCount, flags, compute capability), whose figures must add up: groups
 * of at least minCount SMs, no more than the SMs hold, the rest left over.
 */
#include "fuzz.h"
#include "occcalc.h"
#include "util.h"

static const char *const flag_words[] = {
	"default", "ignore-coscheduling", "max-cluster-size"
};

static enum occ_status read_part(const char *text, size_t len,
				 const char *name, unsigned flags, int sms,
				 int group, struct occ_partition_part *p)
{
	FILE *f = fmemopen((void *)text, len, "r");
	struct occ_diag d;
	enum occ_status st;

	if (!f)
		return OCC_ERR_NOMEM;
	st = occ_partition_part_read(f, "partitions.txt", name, flags, sms,
				     group, p, &d);
	fclose(f);
	return st;
}

static void check_part(const char *name, unsigned flags, int sms, int group,
		       const struct occ_partition_part *p)
{
	struct occ_partition_part back;
	char line[900], hw[300], api[300], g[16], source[256];
	int n;

	FUZZ_CHECK(p->hw.sms == p->api.sms && p->hw.sms >= 1 &&
		   (group < 0 || p->hw.sms == sms) && p->source[0],
		   "%s %u %d %d: hw %d SMs, api %d", name, flags, sms, group,
		   p->hw.sms, p->api.sms);
	occ_layout_format(&p->hw, hw, sizeof hw);
	occ_layout_format(&p->api, api, sizeof api);
	snprintf(g, sizeof g, group < 0 ? "remaining" : "%d", group);
	/* A source cut at its limit may end in blanks the line drops. */
	snprintf(source, sizeof source, "%s", p->source);
	occ_trim_end(source);
	n = snprintf(line, sizeof line, "part %s %s %d %s %s %s %s\n", name,
		     occ_partition_flags_name(flags), sms, g, hw, api, source);
	if (n <= 0 || (size_t)n >= sizeof line)
		return;
	FUZZ_CHECK(read_part(line, (size_t)n, name, flags, sms, group,
			     &back) == OCC_OK &&
		   back.hw.sms == p->hw.sms && back.hw.n_gpcs == p->hw.n_gpcs &&
		   back.api.n_gpcs == p->api.n_gpcs &&
		   strcmp(back.source, source) == 0,
		   "a part reads back differently from its line: %s", line);
}

/* The part named by the input's first line, if it names one. */
static void first_line_part(const char *text, size_t len)
{
	char name[64], flags[32], g[16];
	struct occ_partition_part p;
	int sms, group;
	unsigned f;

	if (sscanf(text, "part %63s %31s %d %15s", name, flags, &sms, g) != 4)
		return;
	for (f = 0; f < 3 && strcmp(flags, flag_words[f]) != 0; f++)
		;
	if (f == 3)
		return;
	group = strcmp(g, "remaining") == 0 ? OCC_PARTITION_REMAINING : atoi(g);
	if (read_part(text, len, name, f, sms, group, &p) == OCC_OK)
		check_part(name, f, sms, group, &p);
}

static void check_split(const uint8_t *data, size_t size)
{
	struct occ_arch a;
	struct occ_partition_split s;
	int sms, min;
	unsigned flags;

	if (size < 6)
		return;
	memset(&a, 0, sizeof a);
	a.cc_major = data[0] % 13;
	sms = (data[1] | data[2] << 8) % 1100;
	min = (data[3] | data[4] << 8) % 1100;
	flags = data[5] % 5;
	if (occ_partition_split(&a, sms, NULL, flags, min, &s) != OCC_OK)
		return;
	FUZZ_CHECK(s.group_sms >= min && s.group_sms <= sms &&
		   s.groups_min <= s.groups_max && s.groups == s.groups_max &&
		   (int64_t)s.groups_max * s.group_sms + s.remaining_sms == sms &&
		   s.remaining_sms >= 0 && s.groups_min >= 0 &&
		   (s.group_sms == sms || s.group_sms % s.alignment == 0),
		   "split of %d SMs for %d, flags %u on %d.x: %d-%d x %d, %d left",
		   sms, min, flags, a.cc_major, s.groups_min, s.groups_max,
		   s.group_sms, s.remaining_sms);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);

	check_split(data, size);
	if (text) {
		first_line_part(text, strlen(text));
		free(text);
	}
	return 0;
}
