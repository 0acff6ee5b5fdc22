/*
 * tables.c - reading architecture tables.
 *
 * A table is a text file of 'key = value' lines; '#' starts a comment.
 * Every key the model needs must be there exactly once, and the values
 * must agree with each other: a table that would make the model compute
 * nonsense is refused, naming the file, the line and the key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "util.h"

struct key_desc {
	struct occ_key pub;
	size_t offset;      /* into struct occ_arch */
	size_t size;        /* of a string field */
	uint64_t min, max;  /* of a number */
};

#define INT_KEY(k, field, req, lo, hi) \
	{ { k, OCC_KEY_INT, req }, offsetof(struct occ_arch, field), 0, lo, hi }
#define BYTES_KEY(k, field, req, lo, hi) \
	{ { k, OCC_KEY_BYTES, req }, offsetof(struct occ_arch, field), 0, lo, hi }
#define STRING_KEY(k, field, req) \
	{ { k, OCC_KEY_STRING, req }, offsetof(struct occ_arch, field), \
	  sizeof(((struct occ_arch *)0)->field), 0, 0 }

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)

static const struct key_desc keys[] = {
	{ { "computeCapability", OCC_KEY_CC, 1 }, 0, 0, 0, 0 },
	STRING_KEY("name", name, 1),
	STRING_KEY("products", products, 0),
	INT_KEY("warpSize", warp_size, 1, 1, 1024),
	INT_KEY("maxThreadsPerBlock", max_threads_per_block, 1, 1, 1 << 16),
	INT_KEY("maxThreadsPerMultiProcessor", max_threads_per_sm, 1, 1, 1 << 16),
	INT_KEY("maxBlocksPerMultiProcessor", max_blocks_per_sm, 1, 1, 1024),
	INT_KEY("regsPerMultiprocessor", regs_per_sm, 1, 1, 1 << 24),
	INT_KEY("regsPerBlock", regs_per_block, 1, 1, 1 << 24),
	INT_KEY("maxRegistersPerThread", max_regs_per_thread, 1, 1,
		OCC_MAX_REGS_ANY_ARCH),
	INT_KEY("registerAllocationUnitSize", reg_alloc_unit, 1, 1, 1 << 16),
	INT_KEY("registerFileSubPartitions", reg_sub_partitions, 1, 1, 64),
	INT_KEY("registerLaunchCheckSubPartitions",
		reg_launch_check_sub_partitions, 0, 1, 64),
	BYTES_KEY("sharedMemPerMultiprocessor", smem_per_sm, 1, 1, 64 * MIB),
	BYTES_KEY("sharedMemPerBlock", smem_per_block, 1, 1, 64 * MIB),
	BYTES_KEY("sharedMemPerBlockOptin", smem_per_block_optin, 1, 1, 64 * MIB),
	BYTES_KEY("reservedSharedMemPerBlock", smem_reserved_per_block, 1, 0,
		  64 * MIB),
	BYTES_KEY("sharedMemAllocationUnitSize", smem_alloc_unit, 1, 1, 64 * KIB),
	{ { "sharedMemCarveoutSizes", OCC_KEY_BYTES_LIST, 0 },
	  offsetof(struct occ_arch, smem_carveouts), 0, 0, 64 * MIB },
	/* At least what one block may use, or some blocks could never run. */
	INT_KEY("maxBarriersPerMultiprocessor", max_barriers_per_sm, 0,
		OCC_MAX_BARRIERS_PER_BLOCK, 4096),
	INT_KEY("cubinSharedIncludesReserved", cubin_smem_includes_reserved, 0,
		0, 1),
	INT_KEY("globalMemorySectorSize", sector_size, 0, 1, 4096),
	INT_KEY("globalMemoryLineSize", line_size, 0, 1, 4096),
	INT_KEY("l1CachedLoadTransactionSize", l1_load_transaction, 0, 1, 4096),
	INT_KEY("l2PersistingAccesses", l2_persisting, 0, 0, 1),
	INT_KEY("clusterSizePortable", cluster_size_portable, 0, 1, 1024),
	INT_KEY("clusterSizeMax", cluster_size_max, 0, 1, 1024),
	INT_KEY("clusterBlocksPerMultiprocessor", cluster_blocks_per_sm, 0, 1,
		1024),
};

#define NKEYS (sizeof keys / sizeof keys[0])

size_t occ_arch_key_count(void)
{
	return NKEYS;
}

const struct occ_key *occ_arch_key(size_t i)
{
	return i < NKEYS ? &keys[i].pub : NULL;
}

static const struct key_desc *desc_of(const struct occ_key *key)
{
	return (const struct key_desc *)key;
}

static int *int_field(struct occ_arch *a, const struct key_desc *d)
{
	return (int *)((char *)a + d->offset);
}

static uint64_t *bytes_field(struct occ_arch *a, const struct key_desc *d)
{
	return (uint64_t *)((char *)a + d->offset);
}

int occ_arch_has(const struct occ_arch *arch, const struct occ_key *key)
{
	const struct key_desc *d = desc_of(key);
	struct occ_arch *a = (struct occ_arch *)arch;

	switch (key->type) {
	case OCC_KEY_CC:
		return 1;
	case OCC_KEY_STRING:
		return ((char *)a + d->offset)[0] != '\0';
	case OCC_KEY_INT:
		return key->required || *int_field(a, d) != 0;
	case OCC_KEY_BYTES:
		return 1;
	case OCC_KEY_BYTES_LIST:
		return arch->n_smem_carveouts > 0;
	}
	return 0;
}

uint64_t occ_arch_value(const struct occ_arch *arch, const struct occ_key *key)
{
	const struct key_desc *d = desc_of(key);
	struct occ_arch *a = (struct occ_arch *)arch;

	if (key->type == OCC_KEY_INT)
		return (uint64_t)*int_field(a, d);
	if (key->type == OCC_KEY_BYTES)
		return *bytes_field(a, d);
	return 0;
}

void occ_arch_set(struct occ_arch *arch, const struct occ_key *key,
		  uint64_t value)
{
	const struct key_desc *d = desc_of(key);

	if (key->type == OCC_KEY_INT)
		*int_field(arch, d) = (int)value;
	else if (key->type == OCC_KEY_BYTES)
		*bytes_field(arch, d) = value;
}

/* ---- Parsing one file ---- */

struct parse {
	const char *path;
	struct occ_arch *arch;
	struct occ_diag *diag;
	int line_of[NKEYS];      /* 0: key not seen */
};

static enum occ_status fail(struct parse *p, enum occ_status st, int line,
			    const char *key)
{
	occ_diag_set(p->diag, p->path, line, key);
	return st;
}

static enum occ_status parse_cc(const char *v, struct occ_arch *a)
{
	int major, minor;

	if (occ_arch_parse_name(v, &major, &minor) != OCC_OK ||
	    !strchr(v, '.'))
		return OCC_ERR_BAD_VALUE;
	a->cc_major = major;
	a->cc_minor = minor;
	return OCC_OK;
}

static enum occ_status parse_bytes_list(const char *v, struct occ_arch *a,
					const struct key_desc *d)
{
	char buf[512];
	char *tok, *save = NULL;
	int n = 0;

	if (strlen(v) >= sizeof buf)
		return OCC_ERR_BAD_VALUE;
	strcpy(buf, v);
	for (tok = strtok_r(buf, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		uint64_t x;

		if (n == OCC_MAX_CARVEOUTS ||
		    occ_parse_size(tok, &x) != 0 || x > d->max)
			return OCC_ERR_BAD_VALUE;
		if (n > 0 && x <= a->smem_carveouts[n - 1])
			return OCC_ERR_INCONSISTENT; /* must ascend */
		a->smem_carveouts[n++] = x;
	}
	if (n == 0)
		return OCC_ERR_BAD_VALUE;
	a->n_smem_carveouts = n;
	return OCC_OK;
}

static enum occ_status parse_value(const struct key_desc *d, const char *v,
				   struct occ_arch *a)
{
	uint64_t x;

	switch (d->pub.type) {
	case OCC_KEY_CC:
		return parse_cc(v, a);
	case OCC_KEY_STRING:
		if (strlen(v) >= d->size)
			return OCC_ERR_BAD_VALUE;
		strcpy((char *)a + d->offset, v);
		return OCC_OK;
	case OCC_KEY_INT:
	case OCC_KEY_BYTES:
		if (occ_parse_size(v, &x) != 0 || x < d->min || x > d->max)
			return OCC_ERR_BAD_VALUE;
		if (d->pub.type == OCC_KEY_INT)
			*int_field(a, d) = (int)x;
		else
			*bytes_field(a, d) = x;
		return OCC_OK;
	case OCC_KEY_BYTES_LIST:
		return parse_bytes_list(v, a, d);
	}
	return OCC_ERR_BAD_VALUE;
}

static const struct key_desc *find_key(const char *name, size_t *index)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].pub.name, name) == 0) {
			*index = i;
			return &keys[i];
		}
	return NULL;
}

static enum occ_status parse_line(struct parse *p, char *line, int lineno)
{
	char *eq, *key, *value;
	const struct key_desc *d;
	size_t idx;
	enum occ_status st;

	occ_strip_comment(line);
	key = occ_trim(line);
	if (*key == '\0')
		return OCC_OK;
	eq = strchr(key, '=');
	if (!eq)
		return fail(p, OCC_ERR_SYNTAX, lineno, "");
	*eq = '\0';
	key = occ_trim(key);
	value = occ_trim(eq + 1);
	if (*key == '\0' || *value == '\0')
		return fail(p, OCC_ERR_SYNTAX, lineno, key);
	d = find_key(key, &idx);
	if (!d)
		return fail(p, OCC_ERR_UNKNOWN_KEY, lineno, key);
	if (p->line_of[idx])
		return fail(p, OCC_ERR_DUPLICATE_KEY, lineno, key);
	p->line_of[idx] = lineno;
	st = parse_value(d, value, p->arch);
	return st == OCC_OK ? OCC_OK : fail(p, st, lineno, key);
}

static int key_line(const struct parse *p, const char *name)
{
	size_t i;

	return find_key(name, &i) ? p->line_of[i] : 0;
}

/* A number outside its key's range, or a carveout above the table's
 * largest value: the first such key's name, or NULL. */
static const char *out_of_range(const struct occ_arch *a)
{
	struct occ_arch *m = (struct occ_arch *)a;
	size_t i;
	int j;

	for (i = 0; i < NKEYS; i++) {
		const struct key_desc *d = &keys[i];
		uint64_t v;

		if (d->pub.type == OCC_KEY_BYTES_LIST) {
			for (j = 0; j < a->n_smem_carveouts; j++)
				if (a->smem_carveouts[j] > d->max)
					return d->pub.name;
			continue;
		}
		if (d->pub.type == OCC_KEY_INT)
			v = (uint64_t)(int64_t)*int_field(m, d);
		else if (d->pub.type == OCC_KEY_BYTES)
			v = *bytes_field(m, d);
		else
			continue;
		/* An optional key's 0 is its absence. */
		if ((d->pub.required || v != 0) && (v < d->min || v > d->max))
			return d->pub.name;
	}
	return NULL;
}

#define RELATION(cond, keyname) do { if (!(cond)) return keyname; } while (0)

/* Relations the model relies on (it divides by some of them): a table
 * breaking one is a typo, a traced device breaking one a corrupt trace. */
static const char *relation_broken(const struct occ_arch *a)
{
	int n = a->n_smem_carveouts;

	RELATION(a->max_threads_per_block % a->warp_size == 0,
		 "maxThreadsPerBlock");
	RELATION(a->max_threads_per_sm % a->warp_size == 0,
		 "maxThreadsPerMultiProcessor");
	RELATION(a->max_threads_per_block <= a->max_threads_per_sm,
		 "maxThreadsPerBlock");
	RELATION(a->regs_per_block <= a->regs_per_sm, "regsPerBlock");
	RELATION(a->regs_per_sm >= a->reg_alloc_unit,
		 "registerAllocationUnitSize");
	RELATION(a->regs_per_sm % a->reg_sub_partitions == 0,
		 "registerFileSubPartitions");
	RELATION(a->smem_per_block <= a->smem_per_block_optin,
		 "sharedMemPerBlockOptin");
	RELATION(a->smem_per_block_optin + a->smem_reserved_per_block <=
		 a->smem_per_sm, a->smem_reserved_per_block > a->smem_per_sm
		 ? "reservedSharedMemPerBlock" : "sharedMemPerBlockOptin");
	RELATION(a->smem_per_sm % a->smem_alloc_unit == 0,
		 "sharedMemAllocationUnitSize");
	RELATION(n == 0 || a->smem_carveouts[n - 1] == a->smem_per_sm,
		 "sharedMemCarveoutSizes");
	/* Sectors tile lines, and what L1 moves is one or the other. */
	RELATION(!a->line_size || (a->sector_size &&
				   a->line_size % a->sector_size == 0),
		 "globalMemoryLineSize");
	RELATION(!a->l1_load_transaction ||
		 a->l1_load_transaction == a->sector_size ||
		 a->l1_load_transaction == a->line_size,
		 "l1CachedLoadTransactionSize");
	/* Cluster figures: the portable size alone (what NVIDIA documents
	 * for every architecture with clusters), or with the largest size
	 * and a cluster launch's blocks per SM, which come together. */
	RELATION(!a->cluster_size_max == !a->cluster_blocks_per_sm,
		 a->cluster_size_max ? "clusterBlocksPerMultiprocessor"
				     : "clusterSizeMax");
	RELATION(a->cluster_size_portable || !a->cluster_size_max,
		 "clusterSizePortable");
	RELATION(!a->cluster_size_max ||
		 a->cluster_size_portable <= a->cluster_size_max,
		 "clusterSizePortable");
	RELATION(a->cluster_blocks_per_sm <= a->max_blocks_per_sm,
		 "clusterBlocksPerMultiprocessor");
	return NULL;
}

const char *occ_arch_check(const struct occ_arch *a)
{
	const char *key = out_of_range(a);

	return key ? key : relation_broken(a);
}

static enum occ_status check_consistency(struct parse *p)
{
	const char *key = relation_broken(p->arch);

	return key ? fail(p, OCC_ERR_INCONSISTENT, key_line(p, key), key)
		   : OCC_OK;
}

static enum occ_status check_required(struct parse *p)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (keys[i].pub.required && !p->line_of[i])
			return fail(p, OCC_ERR_MISSING_KEY, 0, keys[i].pub.name);
	return OCC_OK;
}

#define TABLE_LINE_CHARS 1024

enum occ_status occ_arch_read(FILE *f, const char *path,
			      struct occ_arch *arch, struct occ_diag *diag)
{
	struct parse p;
	struct occ_lines in;
	char buf[TABLE_LINE_CHARS], *line;
	enum occ_status st;

	memset(&p, 0, sizeof p);
	memset(arch, 0, sizeof *arch);
	p.path = path;
	p.arch = arch;
	p.diag = diag;
	occ_lines_init(&in, f, buf, sizeof buf);
	while ((st = occ_lines_next(&in, &line)) == OCC_OK && line) {
		st = parse_line(&p, line, in.lineno);
		if (st != OCC_OK)
			return st;
	}
	if (st != OCC_OK) {
		fail(&p, st, in.lineno, "");
		if (diag && st == OCC_ERR_LINE_TOO_LONG)
			diag->limit = sizeof buf - 1;
		return st;
	}
	st = check_required(&p);
	if (st == OCC_OK)
		st = check_consistency(&p);
	if (st == OCC_OK)
		occ_copy_string(arch->source, sizeof arch->source, path);
	return st;
}

enum occ_status occ_arch_load(const char *path, struct occ_arch *arch,
			      struct occ_diag *diag)
{
	FILE *f;
	enum occ_status st = occ_open_regular(path, &f);

	if (st != OCC_OK) {
		memset(arch, 0, sizeof *arch);
		occ_diag_set(diag, path, 0, "");
		return st;
	}
	st = occ_arch_read(f, path, arch, diag);
	fclose(f);
	return st;
}

/* ---- Names ---- */

static int parse_digits(const char **s, int *out, int max_digits)
{
	int n = 0, v = 0;

	while (**s >= '0' && **s <= '9' && n < max_digits) {
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	*out = v;
	return n;
}

/* "sm_90", "sm_90a", "sm_100f", "compute_90", "90", "100", "9.0", "10.0" */
enum occ_status occ_arch_parse_name(const char *s, int *major, int *minor)
{
	int a, b, nd;

	if (strncmp(s, "sm_", 3) == 0)
		s += 3;
	else if (strncmp(s, "compute_", 8) == 0)
		s += 8;
	else if (strncmp(s, "SM_", 3) == 0)
		s += 3;
	nd = parse_digits(&s, &a, 3);
	if (nd == 0)
		return OCC_ERR_BAD_ARCH_NAME;
	if (*s == '.') {
		s++;
		if (parse_digits(&s, &b, 1) != 1 || *s != '\0' || nd > 2)
			return OCC_ERR_BAD_ARCH_NAME;
		*major = a;
		*minor = b;
		return a > 0 ? OCC_OK : OCC_ERR_BAD_ARCH_NAME;
	}
	/* Feature suffixes name the same resources: sm_90a, sm_100f. */
	if ((*s == 'a' || *s == 'f') && s[1] == '\0')
		s++;
	if (*s != '\0' || nd < 2)
		return OCC_ERR_BAD_ARCH_NAME;
	*major = a / 10;
	*minor = a % 10;
	return *major > 0 ? OCC_OK : OCC_ERR_BAD_ARCH_NAME;
}

const char *occ_status_name(enum occ_status st)
{
	static const char *const names[] = {
#define NAME(x) [x] = #x
		NAME(OCC_OK), NAME(OCC_ERR_NOMEM), NAME(OCC_ERR_IO),
		NAME(OCC_ERR_NO_TABLES), NAME(OCC_ERR_SYNTAX),
		NAME(OCC_ERR_UNKNOWN_KEY), NAME(OCC_ERR_DUPLICATE_KEY),
		NAME(OCC_ERR_MISSING_KEY), NAME(OCC_ERR_BAD_VALUE),
		NAME(OCC_ERR_INCONSISTENT), NAME(OCC_ERR_MISNAMED),
		NAME(OCC_ERR_UNKNOWN_ARCH), NAME(OCC_ERR_BAD_ARCH_NAME),
		NAME(OCC_ERR_INVALID_INPUT), NAME(OCC_ERR_UNSUPPORTED),
		NAME(OCC_ERR_CORRUPT), NAME(OCC_ERR_NOT_BINARY),
		NAME(OCC_ERR_NOT_REGULAR), NAME(OCC_ERR_LINE_TOO_LONG),
		NAME(OCC_ERR_RANGE),
#undef NAME
	};

	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : NULL;
}

const char *occ_strerror(enum occ_status st)
{
	switch (st) {
	case OCC_OK: return "success";
	case OCC_ERR_NOMEM: return "out of memory";
	case OCC_ERR_IO: return "cannot read";
	case OCC_ERR_NO_TABLES: return "no architecture tables (*.arch) found";
	case OCC_ERR_SYNTAX: return "expected 'key = value'";
	case OCC_ERR_UNKNOWN_KEY: return "unknown key";
	case OCC_ERR_DUPLICATE_KEY: return "key given twice";
	case OCC_ERR_MISSING_KEY: return "required key missing";
	case OCC_ERR_BAD_VALUE: return "malformed or out-of-range value";
	case OCC_ERR_INCONSISTENT: return "value inconsistent with the rest of the table";
	case OCC_ERR_MISNAMED: return "file name does not match computeCapability (sm_XY.arch for X.Y)";
	case OCC_ERR_UNKNOWN_ARCH: return "no table for that architecture";
	case OCC_ERR_BAD_ARCH_NAME: return "not an architecture name";
	case OCC_ERR_INVALID_INPUT: return "invalid kernel parameters";
	case OCC_ERR_UNSUPPORTED: return "not supported";
	case OCC_ERR_CORRUPT: return "truncated or malformed binary";
	case OCC_ERR_NOT_BINARY: return "not a cubin, fatbin or ELF file";
	case OCC_ERR_NOT_REGULAR: return "not a regular file";
	case OCC_ERR_LINE_TOO_LONG: return "line too long";
	case OCC_ERR_RANGE: return "value out of range";
	}
	return "unknown error";
}
