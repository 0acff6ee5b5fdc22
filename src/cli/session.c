/*
 * session.c - what a run finds out once and every mode may need: the
 * architecture tables, the GPU (its table merged with what it reports),
 * and --gpu's model. Kept in struct session, passed to each mode: no
 * state hides in statics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Where the tables were looked for and not found: what to set. */
#define TABLES_HINT "; set OCCCALC_TABLES (or --tables DIR) to the " \
	"directory of sm_XY.arch files, data/arch-tables in the source tree"

/* Run from its build tree, occcalc reads its source tree's tables (those
 * it was built and tested with), not whatever an older install left. */
static const char *build_tree_tables(void)
{
#if defined(OCC_BUILD_DIR) && defined(OCC_SOURCE_TABLES)
	struct stat self, built;

	if (stat("/proc/self/exe", &self) == 0 &&
	    stat(OCC_BUILD_DIR "/occcalc", &built) == 0 &&
	    self.st_dev == built.st_dev && self.st_ino == built.st_ino)
		return OCC_SOURCE_TABLES;
#endif
	return NULL;
}

/* --tables, else $OCCCALC_TABLES, else the build tree's, else the
 * installed ones. */
static const char *tables_dir(const struct session *s)
{
	const char *dir = s->o->tables;

	if (!dir)
		dir = getenv("OCCCALC_TABLES");
	if (!dir || !*dir)
		dir = build_tree_tables();
	if (!dir)
		dir = occ_tables_dir();
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
		die_data(st, &d, errno, TABLES_HINT);
	return s->tables;
}

static void match_names(char *buf, size_t n, const struct occ_gpu_match *m);

void session_not_arch(struct session *s, const char *name)
{
	struct occ_gpu_match m;
	char names[512];

	/* A GPU's name given as an architecture (-a H100): --gpu takes it. */
	if (occ_gpus_match(session_gpus(s), name, &m) == OCC_OK)
		die_usage("--arch: '%s': not an architecture but a GPU: give "
			  "--gpu %s (compute capability %d.%d; --arch takes "
			  "sm_90, 90 or 9.0)", name, m.gpu[0]->name,
			  m.gpu[0]->cc_major, m.gpu[0]->cc_minor);
	if (m.ambiguous) {
		match_names(names, sizeof names, &m);
		die_usage("--arch: '%s': not an architecture but a GPU's name: "
			  "give --gpu with one of %s (--arch takes sm_90, 90 or "
			  "9.0)", name, names);
	}
	die_usage("--arch: '%s': not an architecture (try sm_90, 90 or 9.0)",
		  name);
}

const struct occ_arch *session_find_arch(struct session *s, const char *name)
{
	const struct occ_arch *a;
	int major, minor;

	if (occ_arch_parse_name(name, &major, &minor) != OCC_OK)
		session_not_arch(s, name);
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

static void sm_limit_warn(const struct occ_device *d);

static void query_device(struct session *s)
{
	const struct options *o = s->o;
	char err[256] = "";
	int n = 0, index = (int)o->device;

	if ((device_count(&n, err, sizeof err) != 0 || n == 0) && o->api)
		die("--%s needs a CUDA device: %s", o->measure ? "measure" : "api",
		    err[0] ? err : "none found");
	if (n == 0 && o->device_given && o->mode == MODE_KERNELS)
		die("--device %d names a GPU whose image of each kernel is read: "
		    "no CUDA device (%s); name one with --gpu or --arch",
		    index, err[0] ? err : "none found");
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
			  n, plural(n));
	if (device_query(index, &s->dev, err, sizeof err) != 0)
		die("device %d: %s", index, err);
	s->gpu.device = index;
	session_sm_limit(s, &s->dev);
	sm_limit_warn(&s->dev);
	s->have_dev = 1;
}

void session_sm_limit(struct session *s, struct occ_device *d)
{
	struct occ_gpu_match m;
	int expect = 0;

	d->gpu_sms = 0;
	if (!d->mig && d->mps && occ_gpus_match(session_gpus(s), d->name, &m) ==
	    OCC_OK && m.gpu[0]->sms >= d->sms)
		d->gpu_sms = m.gpu[0]->sms;
	if (d->mig) {
		d->sm_limit = SM_LIMIT_MIG;
		return;
	}
	if (!d->mps) {
		d->sm_limit = SM_LIMIT_NONE;
		return;
	}
	if (d->gpu_sms && d->mps_pct)
		occ_mps_sms(d->gpu_sms, d->mps_pct, &expect);
	/* The runtime reports the SMs the client has (docs/mps.md): fewer
	 * than its own percentage gives, the server's percentage is lower. */
	if (d->gpu_sms && d->sms < d->gpu_sms && d->sms < expect)
		d->sm_limit = SM_LIMIT_MPS_SERVER;
	else if (d->gpu_sms && d->sms < d->gpu_sms && !d->mps_pct)
		d->sm_limit = SM_LIMIT_MPS_SERVER;
	else if (d->mps_pct && d->mps_pct < 100 &&
		 (!d->gpu_sms || d->sms < d->gpu_sms))
		d->sm_limit = SM_LIMIT_MPS_CLIENT;
	else
		d->sm_limit = SM_LIMIT_MPS;
}

/* What limits the SMs, said once where it is not the whole GPU. */
static void sm_limit_warn(const struct occ_device *d)
{
	char whole[64] = "";

	if (d->gpu_sms)
		snprintf(whole, sizeof whole, " of the GPU's %d", d->gpu_sms);
	switch (d->sm_limit) {
	case SM_LIMIT_MIG:
		/* The runtime reports the slice's SMs; L2 persistence is not
		 * available in it. */
		warn("device %d is a MIG instance: its %d SMs and its memory "
		     "are the instance's, not the whole GPU's", d->index, d->sms);
		break;
	case SM_LIMIT_MPS_CLIENT:
		warn("device %d is an MPS client limited by its "
		     "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=%d to %d SMs%s, which the "
		     "runtime reports and its kernels run on (docs/mps.md): "
		     "computed with them; its GPCs are not known (cluster figures "
		     "are upper bounds)", d->index, d->mps_pct, d->sms, whole);
		break;
	case SM_LIMIT_MPS_SERVER:
		warn("device %d is an MPS client limited by its server's "
		     "active-thread percentage (nvidia-cuda-mps-control's "
		     "set_default_active_thread_percentage or "
		     "set_active_thread_percentage%s) to %d SMs%s, which the "
		     "runtime reports and its kernels run on (docs/mps.md): "
		     "computed with them; its GPCs are not known (cluster figures "
		     "are upper bounds)", d->index, d->mps_pct ? ", lower than "
		     "its CUDA_MPS_ACTIVE_THREAD_PERCENTAGE" : "", d->sms, whole);
		break;
	default:
		break;
	}
}

/* The table keys the device does not report, as a list for a message. */
static void unreported_keys(const struct occ_arch *a, char *keys, size_t n)
{
	size_t i, len = 0;

	keys[0] = '\0';
	for (i = 0; i < occ_arch_key_count(); i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (k->type == OCC_KEY_CC || k->type == OCC_KEY_STRING ||
		    occ_target_device_key(k) || !occ_arch_has(a, k) ||
		    len + strlen(k->name) + 3 >= n)
			continue;
		len += (size_t)snprintf(keys + len, n - len, "%s%s",
					len ? ", " : "", k->name);
	}
}

/* A device whose compute capability has no table borrows the newest
 * below it (occ_target_device): the user is told which values those
 * are. */
static void borrowed_warn(const struct occ_device *d, const struct occ_arch *below)
{
	char keys[1024];

	unreported_keys(below, keys, sizeof keys);
	warn("device %d (%s) is compute capability %d.%d, which has no table: "
	     "using the limits it reports, and for what it does not report "
	     "(%s) the values of compute capability %d.%d, unverified for it",
	     d->index, d->name, d->cc_major, d->cc_minor, keys, below->cc_major,
	     below->cc_minor);
}

/* The device modelled by the library's rule: its properties over its
 * table (or one borrowed). */
static void device_target(struct session *s, struct occ_target *t)
{
	const struct occ_device *d = &s->dev;
	enum occ_status st = occ_target_device(session_tables(s), &d->props,
					       OCC_TARGET_BORROW, t);

	if (st == OCC_ERR_UNKNOWN_ARCH)
		die("device %d (%s) is compute capability %d.%d: no table at or "
		    "below it", d->index, d->name, d->cc_major, d->cc_minor);
	if (t->borrowed)
		borrowed_warn(d, t->table);
	s->table = t->table;
}

/* No --arch: the GPU's architecture, its table merged with what the
 * device reports (the device wins). With --api or --measure, an --arch must
 * be the device's own. */
const struct occ_arch *session_device_arch(struct session *s)
{
	struct options *o = s->o;
	const struct occ_device *d = &s->dev;
	struct occ_target t;
	int major, minor;

	if (s->have_dev)
		return &s->merged;
	query_device(s);
	device_target(s, &t);
	if (o->arch && (occ_arch_parse_name(o->arch, &major, &minor) != OCC_OK
			|| major != d->cc_major || minor != d->cc_minor))
		die_usage("--arch %s: device %d (%s) is compute capability "
			  "%d.%d, and --api and --measure run on it", o->arch,
			  d->index, d->name, d->cc_major, d->cc_minor);
	if (t.fault)
		die("device %d (%s, compute capability %d.%d): its %s is not "
		    "what an NVIDIA GPU of that compute capability has, or "
		    "contradicts its other properties", d->index, d->name,
		    d->cc_major, d->cc_minor, t.fault);
	s->merged = t.arch;
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

const struct occ_gpus *session_gpus(struct session *s)
{
	struct occ_gpus *l;
	struct occ_diag d;
	char path[1024];
	enum occ_status st;

	if (s->gpus)                   /* --gpu LIST asks once per name */
		return s->gpus;
	session_gpus_path(s, path, sizeof path);
	errno = 0;
	st = occ_gpus_load(path, &l, &d);
	if (st != OCC_OK)
		session_gpus_failed(st, &d, errno);
	return s->gpus = l;
}

void session_gpus_failed(enum occ_status st, const struct occ_diag *d,
			 int err)
{
	if (st == OCC_ERR_SYNTAX && strcmp(d->key, "layout") == 0)
		die("%s:%d: expected 'layout NAME LAYOUT SOURCE'", d->file,
		    d->line);
	if (st == OCC_ERR_SYNTAX && strcmp(d->key, "GPUs") == 0)
		die("%s:%d: more than %llu GPUs in the list", d->file, d->line,
		    (unsigned long long)d->limit);
	if (st == OCC_ERR_SYNTAX && d->key[0])
		die("%s:%d: a %s longer than %llu characters", d->file, d->line,
		    d->key, (unsigned long long)d->limit);
	if (st == OCC_ERR_SYNTAX)
		die("%s:%d: expected 'NAME CC SMS SOURCE', 'alias NAME DEVICE "
		    "NAME', 'l2 NAME SIZE MAX WINDOW SOURCE' or 'gpcs NAME GPCS "
		    "MAX SOURCE', each name unlike the others", d->file, d->line);
	die_data(st, d, err, "");
}

/* "H100-SXM, H100-PCIe" (and how many more) */
static void match_names(char *buf, size_t n, const struct occ_gpu_match *m)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < m->n && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					i ? ", " : "", m->gpu[i]->name);
	if (m->more && len < n)
		snprintf(buf + len, n - len, " and %zu more", m->more);
}

/* --gpu NAME: one GPU of the list, or a usage error naming the closest. */
static void find_gpu(struct session *s, struct occ_gpu *g)
{
	const struct occ_gpus *l = session_gpus(s);
	struct occ_gpu_match m;
	char names[512], path[1024];
	const char *name = s->o->gpu;

	if (occ_gpus_match(l, name, &m) == OCC_OK) {
		*g = *m.gpu[0];
		return;
	}
	match_names(names, sizeof names, &m);
	session_gpus_path(s, path, sizeof path);
	if (m.ambiguous)
		die_usage("--gpu: '%s' is ambiguous: did you mean %s?", name,
			  names);
	if (m.n)
		die_usage("--gpu: '%s': not in %s: did you mean %s? "
			  "(--list-gpus lists them; --sms N gives any SM count)",
			  name, path, names);
	die_usage("--gpu: '%s': not in %s (--list-gpus lists them; --sms N "
		  "gives any SM count)", name, path);
}

void session_lookup_gpu(struct session *s, const char *name,
			struct occ_gpu *g)
{
	const char *given = s->o->gpu;

	s->o->gpu = name;
	find_gpu(s, g);
	s->o->gpu = given;
}

void session_apply_gpu(struct session *s)
{
	struct options *o = s->o;
	struct occ_gpu g;
	int major, minor;

	if (!o->gpu)
		return;
	find_gpu(s, &g);
	if (o->arch && (occ_arch_parse_name(o->arch, &major, &minor) != OCC_OK ||
			major != g.cc_major || minor != g.cc_minor))
		die_usage("--gpu %s is compute capability %d.%d, not --arch %s",
			  g.name, g.cc_major, g.cc_minor, o->arch);
	snprintf(s->gpu_arch, sizeof s->gpu_arch, "%d.%d", g.cc_major,
		 g.cc_minor);
	snprintf(s->gpu_name, sizeof s->gpu_name, "%s", g.name);
	o->arch = s->gpu_arch;
	s->listed = g;
	if (!o->sms && !g.sms && o->grid)
		die_usage("--grid: the GPU list gives no SM count for %s (%s): "
			  "give --sms N", g.name, g.source);
	if (!o->sms)
		o->sms = (uint64_t)g.sms;
}

void session_count_configs(struct session *s, uint64_t configs,
			   uint64_t launching)
{
	s->configs += configs;
	s->configs_launching += launching;
}

/* A run asked what launches; when nothing does, that is its failure,
 * as a compiler's is: a script sees it without reading the report. */
int session_status(const struct session *s)
{
	if (s->status_by_check || s->configs == 0 || s->configs_launching)
		return EXIT_SUCCESS;
	if (s->configs == 1)
		say("the configuration cannot launch");
	else
		say("none of the %llu configurations can launch",
		    (unsigned long long)s->configs);
	return EXIT_FAILURE;
}
