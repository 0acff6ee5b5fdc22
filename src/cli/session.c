/*
 * session.c - what a run finds out once and every mode may need: the
 * architecture tables, the GPU (its table merged with what it reports),
 * and --gpu's model. Kept in struct session, passed to each mode: no
 * state hides in statics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static _Noreturn void die_tables(enum occ_status st, const struct occ_diag *d,
				 int err)
{
	if (st == OCC_ERR_IO && d->line == 0)
		die("%s: %s: %s", d->file, occ_strerror(st), strerror(err));
	if (st == OCC_ERR_NO_TABLES)
		die("%s: %s", d->file, occ_strerror(st));
	if (d->line > 0 && d->key[0])
		die("%s:%d: %s: %s", d->file, d->line, d->key,
		    occ_strerror(st));
	if (d->line > 0)
		die("%s:%d: %s", d->file, d->line, occ_strerror(st));
	die("%s: %s: %s", d->file, d->key, occ_strerror(st));
}

static const char *tables_dir(const struct session *s)
{
	const char *dir = s->o->tables;

	if (!dir)
		dir = getenv("OCCCALC_TABLES");
	if (!dir || !*dir)
		dir = OCC_TABLES_DIR;
	return dir;
}

const struct occ_tables *session_tables(struct session *s)
{
	struct occ_diag d;
	enum occ_status st;

	if (s->tables)
		return s->tables;
	errno = 0;
	st = occ_tables_load(tables_dir(s), &s->tables, &d);
	if (st != OCC_OK)
		die_tables(st, &d, errno);
	return s->tables;
}

const struct occ_arch *session_find_arch(struct session *s, const char *name)
{
	const struct occ_arch *a;
	int major, minor;

	if (occ_arch_parse_name(name, &major, &minor) != OCC_OK)
		die_usage("--arch: '%s': not an architecture (try sm_90, 90 "
			  "or 9.0)", name);
	a = occ_tables_find(session_tables(s), major, minor);
	if (!a)
		die_usage("--arch: '%s': no table for compute capability %d.%d "
			  "(--list-archs lists them)", name, major, minor);
	return a;
}

void session_device_failed(const struct session *s, const char *err)
{
	die("device %d: %s", s->dev.index, err);
}

static void query_device(struct session *s)
{
	const struct options *o = s->o;
	char err[256] = "";
	int n = 0, index = (int)o->device;

	if ((device_count(&n, err, sizeof err) != 0 || n == 0) && o->api)
		die("--%s needs a CUDA device: %s", o->measure ? "measure" : "api",
		    err[0] ? err : "none found");
	if (n == 0 && o->mode == MODE_PERSIST)
		die_usage("--persist needs the device's L2 figures: no CUDA device "
			  "(%s); give --arch and --l2 SIZE:MAX:WINDOW",
			  err[0] ? err : "none found");
	if (n == 0)
		die_usage("no architecture: no CUDA device (%s); name one with "
			  "--arch (e.g. --arch sm_90; --list-archs lists them)",
			  err[0] ? err : "none found");
	if (index >= n)
		die_usage("--device %d: this machine has %d CUDA device%s", index,
			  n, n == 1 ? "" : "s");
	if (device_query(index, &s->dev, err, sizeof err) != 0)
		die("device %d: %s", index, err);
	/* A MIG instance is a slice of the GPU: the runtime reports the
	 * slice's SMs, and L2 persistence is not available in it. */
	if (s->dev.mig)
		warn("device %d is a MIG instance: its %d SMs and its memory are "
		     "the instance's, not the whole GPU's", index, s->dev.sms);
	s->have_dev = 1;
}

/* The table keys the device does not report, as a list for a message. */
static void unreported_keys(const struct occ_arch *a, char *keys, size_t n)
{
	size_t i, len = 0;

	keys[0] = '\0';
	for (i = 0; i < occ_arch_key_count(); i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (k->type == OCC_KEY_CC || k->type == OCC_KEY_STRING ||
		    device_reports(k) || !occ_arch_has(a, k) ||
		    len + strlen(k->name) + 3 >= n)
			continue;
		len += (size_t)snprintf(keys + len, n - len, "%s%s",
					len ? ", " : "", k->name);
	}
}

/* A device whose compute capability has no table: what the runtime does
 * not report (allocation units, carveouts, barriers...) comes from the
 * newest table below it, and the user is told which values those are. */
static const struct occ_arch *borrow_table(struct session *s)
{
	const struct occ_tables *t = session_tables(s);
	const struct occ_device *d = &s->dev;
	const struct occ_arch *a, *below = NULL;
	char keys[1024];
	size_t i;

	for (i = 0; i < occ_tables_count(t); i++) {
		a = occ_tables_get(t, i);
		if (a->cc_major * 10 + a->cc_minor < d->cc_major * 10 + d->cc_minor)
			below = a;
	}
	if (!below)
		die("device %d (%s) is compute capability %d.%d: no table at or "
		    "below it", d->index, d->name, d->cc_major, d->cc_minor);
	unreported_keys(below, keys, sizeof keys);
	warn("device %d (%s) is compute capability %d.%d, which has no table: "
	     "using the limits it reports, and for what it does not report "
	     "(%s) the values of compute capability %d.%d, unverified for it",
	     d->index, d->name, d->cc_major, d->cc_minor, keys, below->cc_major,
	     below->cc_minor);
	return below;
}

/* No --arch: the GPU's architecture, its table merged with what the
 * device reports (the device wins). With --api or --measure, an --arch must
 * be the device's own. */
const struct occ_arch *session_device_arch(struct session *s)
{
	struct options *o = s->o;
	const struct occ_device *d = &s->dev;
	int major, minor;

	if (s->have_dev)
		return &s->merged;
	query_device(s);
	s->table = occ_tables_find(session_tables(s), d->cc_major, d->cc_minor);
	if (!s->table)
		s->table = borrow_table(s);
	if (o->arch && (occ_arch_parse_name(o->arch, &major, &minor) != OCC_OK
			|| major != d->cc_major || minor != d->cc_minor))
		die_usage("--arch %s: device %d (%s) is compute capability "
			  "%d.%d, and --api and --measure run on it", o->arch,
			  d->index, d->name, d->cc_major, d->cc_minor);
	device_merge(s->table, d, &s->merged);
	s->merged.cc_major = d->cc_major;
	s->merged.cc_minor = d->cc_minor;
	if (!o->sms)
		o->sms = (uint64_t)d->sms;
	return &s->merged;
}

void session_use_device(struct session *s, int index)
{
	s->o->device = (uint64_t)index;
	s->o->sms = s->sms_given;
	s->have_dev = 0;
	session_device_arch(s);
}

void session_gpus_path(struct session *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s/gpus.txt", tables_dir(s));
}

void session_apply_gpu(struct session *s)
{
	struct options *o = s->o;
	struct occ_gpu g;
	struct occ_diag d;
	char path[1024];
	enum occ_status st;
	int major, minor;

	if (!o->gpu)
		return;
	session_gpus_path(s, path, sizeof path);
	errno = 0;
	st = occ_gpu_find(path, o->gpu, &g, &d);
	if (st == OCC_ERR_UNKNOWN_ARCH)
		die_usage("--gpu: '%s': not in %s (--list-gpus lists them; "
			  "--sms N gives any SM count)", o->gpu, path);
	if (st == OCC_ERR_IO)
		die("%s: cannot read: %s", path, strerror(errno));
	if (st != OCC_OK)
		die("%s:%d: expected 'NAME CC SMS SOURCE'", d.file, d.line);
	if (o->arch && (occ_arch_parse_name(o->arch, &major, &minor) != OCC_OK ||
			major != g.cc_major || minor != g.cc_minor))
		die_usage("--gpu %s is compute capability %d.%d, not --arch %s",
			  g.name, g.cc_major, g.cc_minor, o->arch);
	snprintf(s->gpu_arch, sizeof s->gpu_arch, "%d.%d", g.cc_major,
		 g.cc_minor);
	o->arch = s->gpu_arch;
	if (!o->sms)
		o->sms = (uint64_t)g.sms;
}
