/*
 * args.c - option arguments: numbers, lists and ranges within an option's
 * range, and the few arguments with a grammar of their own. Every message
 * names the option and the argument.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- Numbers ---- */

static void seq_failed(const char *opt, const char *arg, uint64_t min,
		       uint64_t max, enum occ_seq_error e)
{
	char words[160];

	if (e == OCC_SEQ_OK)
		return;
	occ_seq_refusal(e, e == OCC_SEQ_TOO_SMALL ? min : max, words,
			sizeof words);
	die_usage("--%s: '%s': %s", opt, arg, words);
}

void arg_seq(const char *opt, const char *arg, uint64_t min,
		      uint64_t max, struct seq *out)
{
	enum occ_seq_error e;

	occ_seq_parse(arg, min, max, 0, out, &e, NULL);
	seq_failed(opt, arg, min, max, e);
}

/* Numbers, ranges and block shapes (--block 16x16,32x8). */
void arg_shapes(const char *opt, const char *arg, uint64_t min,
		uint64_t max, struct seq *out)
{
	enum occ_seq_error e;

	occ_seq_parse(arg, min, max, OCC_SEQ_SHAPES, out, &e, NULL);
	seq_failed(opt, arg, min, max, e);
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

/* csv,noheader,nounits: nvidia-smi's modifiers, after the format. */
static void format_style(const char *s, struct options *o)
{
	size_t len;

	if (o->format != OUT_CSV && o->format != OUT_TEXT)
		die_usage("--format: noheader and nounits go with csv or text, "
			  "not %s", o->format == OUT_JSON ? "json" : "jsonl");
	for (; ; s += len + 1) {
		len = strcspn(s, ",");
		if (len == 8 && strncmp(s, "noheader", 8) == 0)
			o->format_style |= OUT_NOHEADER;
		else if (len == 7 && strncmp(s, "nounits", 7) == 0)
			o->format_style |= OUT_NOUNITS;
		else
			die_usage("--format: '%.*s': not a modifier (noheader, "
				  "nounits)", (int)len, s);
		if (!s[len])
			return;
	}
}

void arg_format(const char *opt, const char *arg,
			 struct options *o)
{
	static const char *const names[] = {
		[OUT_TEXT] = "text", [OUT_CSV] = "csv", [OUT_JSON] = "json",
		[OUT_JSONL] = "jsonl",
	};
	size_t i, len = strcspn(arg, ",");

	(void)opt;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == len && strncmp(arg, names[i], len) == 0)
			break;
	if (i == sizeof names / sizeof names[0])
		die_usage("--format: '%.*s': unknown format (text, csv, json or "
			  "jsonl)", (int)len, arg);
	o->format = (enum out_format)i;
	o->format_style = 0;
	if (arg[len])
		format_style(arg + len + 1, o);
}

/* --access load,store */
/* --tables DIR: an empty name is no directory (it was taken as not
 * given). */
void arg_tables(const char *opt, const char *arg, struct options *o)
{
	if (!*arg)
		die_usage("--%s: '': an empty directory name", opt);
	o->tables = arg;
}

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
		enum occ_parse_status st = OCC_PARSE_SYNTAX;

		f[i] = strtok_r(i ? NULL : buf, ":", &save);
		if (f[i])
			st = occ_parse_size_decimal(f[i], v[i]);
		if (st == OCC_PARSE_FRACTION)
			die_usage("--l2: '%s': %s '%s' is not a whole number of "
				  "bytes", arg, names[i], f[i]);
		if (st != OCC_PARSE_OK)
			die_usage("--l2: '%s': expected SIZE:MAX:WINDOW, the "
				  "device's l2CacheSize, persistingL2CacheMaxSize"
				  " and accessPolicyMaxWindowSize in bytes, K or M"
				  " (e.g. 50M:31.25M:128M)", arg);
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

/* One value of either sign, offset by 2^63; 0 when it is not a number
 * within 64 signed bits. */
static int signed_value(const char *v, uint64_t *out)
{
	uint64_t m;
	int neg = *v == '-';

	if (v[neg] == '-' || v[neg] == '+' ||
	    occ_parse_size(v + neg, &m) != OCC_PARSE_OK ||
	    m > (neg ? SEQ_SIGNED_ZERO : SEQ_SIGNED_ZERO - 1))
		return 0;
	*out = neg ? SEQ_SIGNED_ZERO - m : SEQ_SIGNED_ZERO + m;
	return 1;
}

/* START[:END[:STEP]] of either sign, appended to out offset by 2^63. */
static int signed_item(char *item, char *out, size_t n)
{
	char *part[3] = { item, NULL, NULL };
	uint64_t v[3] = { 0, 0, 1 };
	size_t len = strlen(out);
	int k = 1, i;

	for (char *p = item; *p; p++)
		if (*p == ':') {
			if (k == 3)
				return 0;
			*p = '\0';
			part[k++] = p + 1;
		}
	for (i = 0; i < k; i++)
		if (i < 2 ? !signed_value(part[i], &v[i]) :
		    occ_parse_size(part[i], &v[i]) != OCC_PARSE_OK)
			return 0;
	if (k == 1)
		v[1] = v[0];
	if (v[0] > v[1] || v[2] == 0)
		return 0;
	snprintf(out + len, n - len, "%s%" PRIu64 ":%" PRIu64 ":%" PRIu64,
		 len ? "," : "", v[0], v[1], v[2]);
	return 1;
}

void arg_stride(const char *opt, const char *arg, struct options *o)
{
	char in[256], out[2048], *item, *next;

	if (strlen(arg) >= sizeof in)
		die_usage("--%s: longer than %zu characters", opt,
			  sizeof in - 1);
	snprintf(in, sizeof in, "%s", arg);
	out[0] = '\0';
	for (item = in; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (!signed_item(item, out, sizeof out))
			die_usage("--%s: '%s': integers of either sign within "
				  "64 bits, a list or a rising range (-4:4:2)",
				  opt, arg);
	}
	seq_free(&o->access.stride);
	arg_seq(opt, out, 0, UINT64_MAX, &o->access.stride);
	/* "1" is one value; "1:1" would read as a sweep */
	o->access.stride.is_sweep = strchr(arg, ',') || strchr(arg, ':');
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
	o->device_given = 1;
	if (!o->device_all)
		o->device = arg_number(opt, arg, 0, 1023);
}

/* --achieved[=N[,L]]: the N kernels shown (default 10, or all: 0),
 * L launches of each measured (0: the default). */
void arg_achieved(const char *opt, const char *arg, struct options *o)
{
	char n[32];
	const char *comma = arg ? strchr(arg, ',') : NULL;
	size_t len = arg ? (comma ? (size_t)(comma - arg) : strlen(arg)) : 0;

	o->achieved = 1;
	o->achieved_top = 10;
	o->achieved_launches = 0;
	if (!arg)
		return;
	if (len >= sizeof n)
		die_usage("--%s: '%s' is not N[,L] (N kernels or all, L "
			  "launches)", opt, arg);
	memcpy(n, arg, len);
	n[len] = '\0';
	o->achieved_top = strcmp(n, "all") == 0 ? 0 :
		arg_number(opt, n, 1, 1000000);
	if (comma)
		o->achieved_launches = arg_number(opt, comma + 1, 1, 1000000);
}

/* --grid N, NxM or NxMxK: CUDA's gridDim limits (2^31-1 blocks in x,
 * 65,535 in y and z), and at most 2^31-1 blocks in all, the block count
 * the rest of the model takes. */
void arg_grid(const char *opt, const char *arg, struct options *o)
{
	static const uint64_t max[3] = { INT32_MAX, 65535, 65535 };
	char buf[96], *p, *x;
	uint64_t total = 1;
	int d;

	if (strlen(arg) >= sizeof buf)
		die_usage("--%s: '%.40s...': too long", opt, arg);
	snprintf(buf, sizeof buf, "%s", arg);
	memset(o->grid_dim, 0, sizeof o->grid_dim);
	for (p = buf, d = 0; p; p = x, d++) {
		if ((x = strchr(p, 'x')))
			*x++ = '\0';
		if (d == 3)
			die_usage("--%s: '%s': a grid has at most 3 dimensions "
				  "(64, 64x64, 8x8x4)", opt, arg);
		o->grid_dim[d] = arg_number(opt, p, 1, max[d]);
		if (__builtin_mul_overflow(total, o->grid_dim[d], &total) ||
		    total > INT32_MAX)
			die_usage("--%s: '%s': more than %d blocks in all", opt,
				  arg, INT32_MAX);
	}
	o->grid = total;
}

/* --check EXPR, repeatable: kept as given, parsed once the mode's rows
 * are known (check.c). */
void arg_check(const char *opt, const char *arg, struct options *o)
{
	if (o->n_check == (int)(sizeof o->check / sizeof o->check[0]))
		die_usage("--%s: more than %zu checks", opt,
			  sizeof o->check / sizeof o->check[0]);
	o->check[o->n_check++] = arg;
}
