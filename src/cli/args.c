/*
 * args.c - option arguments: numbers, lists and ranges within an option's
 * range, and the few arguments with a grammar of their own. Every message
 * names the option and the argument.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- Numbers ---- */

static const char *seq_error_text(enum seq_error e)
{
	static const char *const text[] = {
		[SEQ_OK] = "", [SEQ_EMPTY] = "empty value",
		[SEQ_NOT_NUMBER] = "not a number",
		[SEQ_NEGATIVE] = "must not be negative",
		[SEQ_OVERFLOW] = "number too large",
		[SEQ_TOO_LARGE] = "above the maximum of",
		[SEQ_TOO_SMALL] = "below the minimum of",
		[SEQ_STEP_ZERO] = "a range's step must not be 0",
		[SEQ_REVERSED] = "range reversed: START must not exceed END",
		[SEQ_NOMEM] = "out of memory",
		[SEQ_SHAPE] = "a block shape is XxY or XxYxZ, whole numbers "
		"(16x16, 8x8x4; not a range)",
		[SEQ_SHAPE_ZERO] = "a block dimension must be at least 1",
		[SEQ_SHAPE_LARGE] = "beyond CUDA's block limits",
	};

	return text[e];
}

static void seq_failed(const char *opt, const char *arg, uint64_t min,
		       uint64_t max, enum seq_error e)
{
	if (e == SEQ_SHAPE_LARGE)
		die_usage("--%s: '%s': %s (%d threads; x and y up to %d, z up "
			  "to %d)", opt, arg, seq_error_text(e), BLOCK_MAX_THREADS,
			  BLOCK_MAX_XY, BLOCK_MAX_Z);
	if (e == SEQ_TOO_LARGE || e == SEQ_TOO_SMALL)
		die_usage("--%s: '%s': %s %llu", opt, arg, seq_error_text(e),
			  (unsigned long long)(e == SEQ_TOO_LARGE ? max : min));
	if (e != SEQ_OK)
		die_usage("--%s: '%s': %s", opt, arg, seq_error_text(e));
}

void arg_seq(const char *opt, const char *arg, uint64_t min,
		      uint64_t max, struct seq *out)
{
	seq_failed(opt, arg, min, max, seq_parse(arg, min, max, out));
}

/* Numbers, ranges and block shapes (--block 16x16,32x8). */
void arg_shapes(const char *opt, const char *arg, uint64_t min,
		uint64_t max, struct seq *out)
{
	seq_failed(opt, arg, min, max, seq_parse_shapes(arg, min, max, out));
}

/* An option that takes one number, not a sweep. */
uint64_t arg_number(const char *opt, const char *arg, uint64_t min,
			     uint64_t max)
{
	struct seq s;
	uint64_t v;

	arg_seq(opt, arg, min, max, &s);
	if (s.is_sweep) {
		seq_free(&s);
		die_usage("--%s: '%s': takes a single value", opt, arg);
	}
	v = s.ranges[0].start;
	seq_free(&s);
	return v;
}

/* ---- Arguments with a grammar of their own ---- */

void arg_carveout(const char *opt, const char *arg,
			   struct options *o)
{
	size_t n = strlen(arg);
	char buf[16];

	o->carveout_default = strcmp(arg, "default") == 0;
	if (o->carveout_default)
		return;
	/* "50%" reads naturally; take the number before it. */
	if (n > 1 && n < sizeof buf && arg[n - 1] == '%') {
		memcpy(buf, arg, n - 1);
		buf[n - 1] = '\0';
		arg = buf;
	}
	o->carveout = arg_number(opt, arg, 0, 100);
}

void arg_format(const char *opt, const char *arg,
			 struct options *o)
{
	static const char *const names[] = {
		[OUT_TEXT] = "text", [OUT_CSV] = "csv", [OUT_JSON] = "json",
		[OUT_JSONL] = "jsonl",
	};
	size_t i;

	(void)opt;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(arg, names[i]) == 0) {
			o->format = (enum out_format)i;
			return;
		}
	die_usage("--format: '%s': unknown format (text, csv, json or jsonl)",
		  arg);
}

/* --access load,store */
void arg_ops(const char *opt, const char *arg,
		      struct options *o)
{
	char buf[64], *tok, *save = NULL;

	(void)opt;
	o->access.ops = 0;
	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "load") == 0)
			o->access.ops |= 1u << OCC_ACCESS_LOAD;
		else if (strcmp(tok, "store") == 0)
			o->access.ops |= 1u << OCC_ACCESS_STORE;
		else
			o->access.ops = 0;
		if (!o->access.ops)
			break;
	}
	if (!o->access.ops)
		die_usage("--access: '%s': load, store or load,store", arg);
}

/* --l2 SIZE:MAX:WINDOW, each with the size suffixes. */
void arg_l2(const char *opt, const char *arg, struct options *o)
{
	char buf[128], *f[3], *save = NULL;
	static const char *const names[3] = { "SIZE", "MAX", "WINDOW" };
	struct occ_l2 *l2 = &o->l2;
	uint64_t *v[3] = { &l2->size, &l2->persisting_max, &l2->window_max };
	int i;

	(void)opt;
	snprintf(buf, sizeof buf, "%s", arg);
	for (i = 0; i < 3; i++) {
		f[i] = strtok_r(i ? NULL : buf, ":", &save);
		if (!f[i] || occ_parse_size(f[i], v[i]) != OCC_PARSE_OK)
			die_usage("--l2: '%s': expected SIZE:MAX:WINDOW, the "
				  "device's l2CacheSize, persistingL2CacheMaxSize"
				  " and accessPolicyMaxWindowSize in bytes "
				  "(e.g. 50M:32768000:128M)", arg);
		if (*v[i] > OCC_BYTES_MAX)
			die_usage("--l2: '%s': %s above the limit of %llu bytes "
				  "(2^48 - 1)", arg, names[i],
				  (unsigned long long)OCC_BYTES_MAX);
	}
	if (strtok_r(NULL, ":", &save))
		die_usage("--l2: '%s': expected SIZE:MAX:WINDOW", arg);
	if (l2->persisting_max > l2->size)
		die_usage("--l2: '%s': the set-aside maximum exceeds the L2", arg);
	if (l2->window_max == 0 || l2->size == 0)
		die_usage("--l2: '%s': the L2 and the window must not be 0", arg);
	if (l2->persisting_max == 0)
		die_usage("--l2: '%s': a set-aside maximum of 0: nothing can "
			  "persist", arg);
	o->have_l2 = 1;
}


/* --elem BYTES (a list, as --access sweeps it), or for --traffic
 * NAME=BYTES,... per array, a plain BYTES among them for the others. */
void arg_elem(const char *opt, const char *arg, struct options *o)
{
	seq_free(&o->access.elem);
	o->traffic.elems = strchr(arg, '=') ? arg : NULL;
	arg_seq(opt, o->traffic.elems ? "4" : arg, 1, 16, &o->access.elem);
}

/* --dlcm ca|cg, as -Xptxas -dlcm= compiles loads. */
void arg_dlcm(const char *opt, const char *arg, struct options *o)
{
	if (strcmp(arg, "ca") == 0)
		o->traffic.l1 = OCC_L1_CACHE;
	else if (strcmp(arg, "cg") == 0)
		o->traffic.l1 = OCC_L1_BYPASS;
	else
		die_usage("--%s: '%s': ca (cached in L1) or cg (L2 only)", opt,
			  arg);
}

/* --device N, or 'all' */
void arg_device(const char *opt, const char *arg, struct options *o)
{
	o->device_all = strcmp(arg, "all") == 0;
	if (!o->device_all)
		o->device = arg_number(opt, arg, 0, 1023);
	o->device_given = 1;
}
