/*
 * target.c - the GPU being modelled (occcalc/target.h): one rule for
 * its architecture (a device's properties over its table, the table
 * borrowed where its compute capability has none) and one for its GPC
 * layout (given, measured, listed, bound, whole), whoever asks: the
 * command line's device and --gpu, a traced device, --partition.
 */
#include <stddef.h>
#include <string.h>

#include "util.h"

/* The most SMs a device may have: far above any GPU's, and low enough
 * that SMs x blocks per SM stay within 32 bits. */
#define DEVICE_SMS_MAX (1 << 16)

/* The properties a device gives that a table has too, by the name they
 * share (cudaDeviceProp's), put over the table's where given. */
#define PROP(f) { #f, offsetof(struct occ_launch_device, f), \
		  sizeof ((struct occ_launch_device *)0)->f }
static const struct prop {
	const char *name;
	size_t offset, size;
} props[] = {
	PROP(maxThreadsPerMultiProcessor), PROP(maxThreadsPerBlock),
	PROP(maxBlocksPerMultiProcessor), PROP(regsPerMultiprocessor),
	PROP(regsPerBlock), PROP(sharedMemPerMultiprocessor),
	PROP(sharedMemPerBlock), PROP(sharedMemPerBlockOptin),
	/* 0 is a real reserve (before 8.0), which the table has too. */
	PROP(reservedSharedMemPerBlock),
};
#define N_PROPS (sizeof props / sizeof props[0])

/* Every NVIDIA GPU's warp is its table's (32): checked, not put over. */
static const char warp_key[] = "warpSize";

static uint64_t prop_value(const struct occ_launch_device *d,
			   const struct prop *p)
{
	const char *at = (const char *)d + p->offset;
	uint64_t v64;
	int v;

	if (p->size == sizeof v64) {
		memcpy(&v64, at, sizeof v64);
		return v64;
	}
	memcpy(&v, at, sizeof v);
	return v > 0 ? (uint64_t)v : 0;
}

static const struct occ_key *key_named(const char *name)
{
	const struct occ_key *k;
	size_t i;

	for (i = 0; (k = occ_arch_key(i)); i++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

int occ_target_device_key(const struct occ_key *key)
{
	size_t i;

	if (strcmp(key->name, warp_key) == 0)
		return 1;
	for (i = 0; i < N_PROPS; i++)
		if (strcmp(key->name, props[i].name) == 0)
			return 1;
	return 0;
}

/* The carveouts a device with less shared memory than the table's chip
 * can take: those up to its own. */
static void carveouts_clip(struct occ_arch *a)
{
	int i, n = 0;

	for (i = 0; i < a->n_smem_carveouts; i++)
		if (a->smem_carveouts[i] < a->smem_per_sm)
			a->smem_carveouts[n++] = a->smem_carveouts[i];
	if (a->n_smem_carveouts > 0)
		a->smem_carveouts[n++] = a->smem_per_sm;
	a->n_smem_carveouts = n;
}

/* The table under the device's properties, into arch (left there
 * whether or not they agree); the property no NVIDIA GPU of that
 * compute capability has, or NULL. */
static const char *device_over_table(const struct occ_arch *table,
				     const struct occ_launch_device *d,
				     struct occ_arch *arch)
{
	uint64_t v;
	size_t i;

	*arch = *table;
	arch->cc_major = d->major;
	arch->cc_minor = d->minor;
	for (i = 0; i < N_PROPS; i++)
		if ((v = prop_value(d, &props[i])) > 0)
			occ_arch_set(arch, key_named(props[i].name), v);
	if (arch->smem_per_sm != table->smem_per_sm)
		carveouts_clip(arch);
	/* A ROCm trace's AMD GPU (warps of 64) may give a compute
	 * capability that has a table. */
	if (d->warpSize && d->warpSize != table->warp_size)
		return warp_key;
	if (d->multiProcessorCount < 1 || d->multiProcessorCount > DEVICE_SMS_MAX)
		return "multiProcessorCount";
	return occ_arch_check(arch);
}

/* The newest table below the compute capability, or NULL. */
static const struct occ_arch *table_below(const struct occ_tables *tables,
					  int major, int minor)
{
	const struct occ_arch *a, *below = NULL;
	size_t i;

	for (i = 0; i < occ_tables_count(tables); i++) {
		a = occ_tables_get(tables, i);
		if (a->cc_major * 10 + a->cc_minor < major * 10 + minor)
			below = a;
	}
	return below;
}

void occ_target_table(const struct occ_arch *table, struct occ_target *t)
{
	memset(t, 0, sizeof *t);
	t->arch = *table;
	t->table = table;
}

enum occ_status occ_target_gpu(const struct occ_tables *tables,
			       const struct occ_gpus *gpus, const char *name,
			       struct occ_target *t)
{
	const struct occ_arch *table;
	struct occ_gpu_match m;

	memset(t, 0, sizeof *t);
	if (occ_gpus_match(gpus, name, &m) != OCC_OK)
		return OCC_ERR_UNKNOWN_ARCH;
	table = occ_tables_find(tables, m.gpu[0]->cc_major, m.gpu[0]->cc_minor);
	if (!table)
		return OCC_ERR_UNKNOWN_ARCH;
	occ_target_table(table, t);
	t->gpu = m.gpu[0];
	t->sms = m.gpu[0]->sms;
	return OCC_OK;
}

enum occ_status occ_target_device(const struct occ_tables *tables,
				  const struct occ_launch_device *d,
				  unsigned flags, struct occ_target *t)
{
	const struct occ_arch *table = occ_tables_find(tables, d->major,
						       d->minor);

	memset(t, 0, sizeof *t);
	if (!table && (flags & OCC_TARGET_BORROW)) {
		table = table_below(tables, d->major, d->minor);
		t->borrowed = table != NULL;
	}
	if (!table)
		return OCC_ERR_UNKNOWN_ARCH;
	t->table = table;
	t->sms = d->multiProcessorCount;
	t->fault = device_over_table(table, d, &t->arch);
	return t->fault ? OCC_ERR_INCONSISTENT : OCC_OK;
}

/* ---- The GPC layout ---- */

int occ_layout_basis_exact(enum occ_layout_basis b)
{
	return b == OCC_LAYOUT_GIVEN || b == OCC_LAYOUT_MEASURED ||
	       b == OCC_LAYOUT_LISTED;
}

/* Whether a candidate of `sms` SMs may be the target's: its SMs agree
 * (or either is not known). One that does not is noted. */
static int sms_fit(struct occ_target *t, enum occ_layout_basis b, int sms)
{
	if (!t->sms || !sms || sms == t->sms)
		return 1;
	if (t->mismatch == OCC_LAYOUT_NONE) {
		t->mismatch = b;
		t->mismatch_sms = sms;
	}
	return 0;
}

static enum occ_status take(struct occ_target *t, enum occ_layout_basis b,
			    const struct occ_gpc_layout *l, const char *source)
{
	t->basis = b;
	t->layout = *l;
	occ_copy_string(t->source, sizeof t->source, source);
	if (!t->sms)
		t->sms = l->sms;
	return OCC_OK;
}

/* The list's entry of r->name, where the target has none: a name no
 * entry matches leaves it without. */
static void entry_find(struct occ_target *t,
		       const struct occ_layout_request *r)
{
	struct occ_gpu_match m;

	if (!t->gpu && r->gpus && r->name &&
	    occ_gpus_match(r->gpus, r->name, &m) == OCC_OK)
		t->gpu = m.gpu[0];
}

/* The list's layout of the entry: 1 taken, 0 none (or passed over),
 * -1 the list failed (*st). */
static int listed(struct occ_target *t, const struct occ_layout_request *r,
		  struct occ_diag *diag, enum occ_status *st)
{
	struct occ_gpu_layout g;

	if (!t->gpu || (!r->gpus_path && !r->listed))
		return 0;
	if (r->listed)
		g = *r->listed;
	else
		*st = occ_gpu_layout_find(r->gpus_path, t->gpu->name, &g, diag);
	if (*st == OCC_ERR_UNKNOWN_ARCH)
		return 0;
	if (*st != OCC_OK)
		return -1;
	if (!sms_fit(t, OCC_LAYOUT_LISTED, g.layout.sms))
		return 0;
	take(t, OCC_LAYOUT_LISTED, &g.layout, g.source);
	return 1;
}

/* No layout, but the GPU's published counts: a bound on each figure. */
static int bound(struct occ_target *t)
{
	const struct occ_gpu *g = t->gpu;
	struct occ_gpc_layout l = { .n_gpcs = 0 };

	if (!g || !g->sms_per_gpc_max || !sms_fit(t, OCC_LAYOUT_BOUND, g->sms))
		return 0;
	t->counts.sms = g->sms;
	t->counts.gpcs = g->gpcs ? g->gpcs : 1;
	t->counts.sms_per_gpc_max = g->sms_per_gpc_max;
	l.sms = g->sms;
	take(t, OCC_LAYOUT_BOUND, &l, g->gpcs_source);
	return 1;
}

/* No GPCs known at all: every cluster still runs on SMs of the GPU, so
 * the SMs as one group bound the clusters: the entry's, or the target's
 * where the entry has none or others (a MIG instance's). */
static void whole(struct occ_target *t)
{
	const struct occ_gpu *g = t->gpu && t->gpu->sms ? t->gpu : NULL;
	struct occ_gpc_layout l = { .n_gpcs = 0 };

	if (g && !sms_fit(t, OCC_LAYOUT_WHOLE, g->sms))
		g = NULL;
	l.sms = g ? g->sms : t->sms;
	if (l.sms < 1 || l.sms > OCC_MAX_SMS_PER_GPC) {
		t->layout = l;         /* NONE: the SMs, if any, too many */
		if (!t->sms)
			t->sms = l.sms;
		return;
	}
	l.n_gpcs = 1;
	l.sms_per_gpc[0] = l.sms;
	take(t, OCC_LAYOUT_WHOLE, &l, g ? g->source : "");
}

/* Strict, a candidate of other SMs ends the search. */
static int stopped(const struct occ_target *t, int strict)
{
	return strict && t->mismatch != OCC_LAYOUT_NONE;
}

enum occ_status occ_target_layout(struct occ_target *t,
				  const struct occ_layout_request *r,
				  struct occ_diag *diag)
{
	int strict = (r->flags & OCC_LAYOUT_SMS_STRICT) != 0;
	enum occ_status st = OCC_OK;
	int found;

	t->basis = OCC_LAYOUT_NONE;
	t->mismatch = OCC_LAYOUT_NONE;
	t->mismatch_sms = 0;
	memset(&t->layout, 0, sizeof t->layout);
	memset(&t->counts, 0, sizeof t->counts);
	t->source[0] = '\0';
	if (r->given && sms_fit(t, OCC_LAYOUT_GIVEN, r->given->sms))
		return take(t, OCC_LAYOUT_GIVEN, r->given, "");
	if (stopped(t, strict))
		return OCC_ERR_INCONSISTENT;
	if (r->measured)
		return take(t, OCC_LAYOUT_MEASURED, r->measured, "");
	entry_find(t, r);
	found = listed(t, r, diag, &st);
	if (found)
		return found < 0 ? st : OCC_OK;
	if (!stopped(t, strict) && !bound(t) && !stopped(t, strict))
		whole(t);
	if (!stopped(t, strict))
		return OCC_OK;
	t->basis = OCC_LAYOUT_NONE;
	return OCC_ERR_INCONSISTENT;
}

/* ---- A part of its SMs (green contexts) ---- */

/* Whether partitions.txt's parts of the target's entry are its own: of
 * its chip (the entry's compute capability), its GPCs not the caller's
 * (a layout given is not the chip measured). */
static int parts_measured_here(const struct occ_target *t)
{
	return t->gpu && t->gpu->cc_major == t->arch.cc_major &&
	       t->gpu->cc_minor == t->arch.cc_minor &&
	       t->basis != OCC_LAYOUT_GIVEN && t->mismatch != OCC_LAYOUT_GIVEN;
}

enum occ_status occ_target_part(const struct occ_target *t,
				const char *parts_path, unsigned flags,
				int min_sms, int group,
				struct occ_launch_part *p, struct occ_diag *diag)
{
	const struct occ_gpc_layout *l = occ_layout_basis_exact(t->basis) &&
		t->layout.sms == t->sms ? &t->layout : NULL;
	struct occ_partition_part part;
	enum occ_status st;

	memset(p, 0, sizeof *p);
	p->flags = flags;
	p->group = group;
	st = occ_partition_split(&t->arch, t->sms, l, flags, min_sms,
				 &p->split);
	if (st != OCC_OK)
		return st;
	st = occ_partition_part_sms(&p->split, group, &p->sms);
	if (st != OCC_OK || !parts_path || !parts_measured_here(t))
		return st;
	st = occ_partition_part_find(parts_path, t->gpu->name, flags,
				     p->split.group_sms, group, &part, diag);
	if (st == OCC_ERR_UNKNOWN_ARCH)
		return OCC_OK;          /* not measured */
	if (st != OCC_OK)
		return st;
	/* A part line of another chip of that name (fewer SMs): not this. */
	if (part.hw.sms != p->sms)
		return OCC_OK;
	p->measured = 1;
	p->layout = part.hw;
	p->api = part.api;
	occ_copy_string(p->source, sizeof p->source, part.source);
	return OCC_OK;
}
