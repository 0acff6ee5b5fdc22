/*
 * main.c - occcalc, the command line.
 *
 * Parses options, loads the architecture tables, evaluates every
 * combination of the swept values and prints each as it is computed.
 * All messages for the user are written here, prefixed "occcalc:".
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"

#ifndef OCC_TABLES_DIR
#define OCC_TABLES_DIR "/usr/local/share/occcalc/arch-tables"
#endif

#define EXIT_USAGE 2
#define SMEM_MAX UINT64_C(0xffffffff)  /* cuLaunchKernel's unsigned int */

static const char *progname = "occcalc";

enum {
	OPT_BARRIERS = 256, OPT_OPTIN, OPT_NO_OPTIN, OPT_SMEM_PER_THREAD,
	OPT_SMEM_PER_WARP, OPT_SMS, OPT_HEADROOM, OPT_GRID, OPT_GPU, OPT_LIST_GPUS,
	OPT_PTXAS, OPT_CHART, OPT_PLOT, OPT_DEVICE, OPT_LIST_DEVICES, OPT_API,
	OPT_MEASURE, OPT_ACCESS, OPT_ELEM, OPT_STRIDE, OPT_OFFSET, OPT_THREADS,
	OPT_LANE_XOR, OPT_TOTAL, OPT_PERSIST, OPT_STREAMS, OPT_L2
};

/* Each warp of a measurement works this long: about 50 us at Hopper's
 * clocks, long beside the few hundred cycles a warp takes to start and
 * retire, short enough that a configuration measures in milliseconds. */
#define MEASURE_SPIN_CYCLES 100000
/* Without --grid a measurement launches this many waves of the larger of
 * the model's and the API's blocks per SM, so that an SM that could hold
 * more blocks than predicted would show it. */
#define MEASURE_WAVES 2

static const struct option long_options[] = {
	{ "arch", required_argument, NULL, 'a' },
	{ "block", required_argument, NULL, 'b' },
	{ "regs", required_argument, NULL, 'r' },
	{ "smem", required_argument, NULL, 's' },
	{ "static-smem", required_argument, NULL, 'S' },
	{ "smem-per-thread", required_argument, NULL, OPT_SMEM_PER_THREAD },
	{ "smem-per-warp", required_argument, NULL, OPT_SMEM_PER_WARP },
	{ "sms", required_argument, NULL, OPT_SMS },
	{ "grid", required_argument, NULL, OPT_GRID },
	{ "gpu", required_argument, NULL, OPT_GPU },
	{ "list-gpus", no_argument, NULL, OPT_LIST_GPUS },
	{ "ptxas", required_argument, NULL, OPT_PTXAS },
	{ "chart", no_argument, NULL, OPT_CHART },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "list-devices", no_argument, NULL, OPT_LIST_DEVICES },
	{ "api", no_argument, NULL, OPT_API },
	{ "measure", no_argument, NULL, OPT_MEASURE },
	{ "access", required_argument, NULL, OPT_ACCESS },
	{ "elem", required_argument, NULL, OPT_ELEM },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "lane-xor", required_argument, NULL, OPT_LANE_XOR },
	{ "total", no_argument, NULL, OPT_TOTAL },
	{ "persist", required_argument, NULL, OPT_PERSIST },
	{ "streams", required_argument, NULL, OPT_STREAMS },
	{ "l2", required_argument, NULL, OPT_L2 },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "carveout", required_argument, NULL, 'c' },
	{ "barriers", required_argument, NULL, OPT_BARRIERS },
	{ "optin", no_argument, NULL, OPT_OPTIN },
	{ "no-optin", no_argument, NULL, OPT_NO_OPTIN },
	{ "format", required_argument, NULL, 'f' },
	{ "headroom", no_argument, NULL, OPT_HEADROOM },
	{ "info", no_argument, NULL, 'i' },
	{ "list-archs", no_argument, NULL, 'l' },
	{ "tables", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char short_options[] = ":a:b:r:s:S:c:f:ilt:hV";

struct options {
	const char *arch;
	const char *tables;
	struct seq block, regs, smem, static_smem;
	int have_block;
	struct occ_smem_growth growth;  /* fixed part: the --smem value */
	int sms;                        /* 0: not given */
	int64_t grid;                   /* 0: not given */
	const char *gpu;
	const char *ptxas;              /* a compiler report to read */
	int chart;                      /* terminal charts */
	int device;                     /* CUDA device, when no --arch */
	int list_devices;
	const char *plot;               /* SVG charts to this file */
	int barriers_given;
	int carveout;
	int barriers;
	int optin;
	enum out_format format;
	int info, list, list_gpus;
	int headroom;
	int api;                        /* ask the runtime's occupancy API */
	int measure;                    /* and launch calibrated kernels */
	struct access_request access;   /* --access */
	/* --persist: an L2 persistence plan */
	struct seq persist;
	int streams;
	int have_l2;
	struct occ_l2 l2;
	const char *occupancy_opt;      /* an occupancy-only option given */
	const char *access_opt;         /* an --access-only option given */
};

/* The GPU a run computes for, and what it has done on it so far. */
struct on_device {
	const struct occ_device *d;
	uint64_t rows, total;           /* progress of a measured sweep */
	int progress;                   /* stderr is a terminal */
	uint64_t disagreements;
	int warned_regs;
};

static struct on_device gpu_ctx;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: occcalc --arch ARCH [--block N] [OPTION]...\n"
"       occcalc --arch ARCH --info\n"
"       occcalc --list-archs\n"
"Theoretical occupancy of a CUDA kernel on one streaming multiprocessor.\n"
"\n"
"Kernel:\n"
"  -a, --arch ARCH          architecture: sm_90, 90 or 9.0 (see --list-archs);\n"
"                           without it, the GPU's (--device)\n"
"      --device N           the CUDA device to use without --arch (default 0)\n"
"  -b, --block N            threads per block; without it, the block size\n"
"                           that maximises occupancy\n"
"  -r, --regs N             registers per thread (default 0)\n"
"  -s, --smem BYTES         dynamic shared memory per block (default 0);\n"
"                           suffixes K and M multiply by 1024 and 1048576\n"
"  -S, --static-smem BYTES  static shared memory per block (default 0)\n"
"      --smem-per-thread BYTES, --smem-per-warp BYTES\n"
"                           dynamic shared memory that grows with the block,\n"
"                           added to --smem\n"
"      --sms N              SMs of the GPU: the minimum grid that fills it,\n"
"                           and the waves of --grid\n"
"      --gpu NAME           a GPU from the list (--list-gpus): its SMs, and its\n"
"                           architecture unless --arch is given\n"
"      --grid N             blocks launched: full waves, the last wave, and\n"
"                           the occupancy averaged over the launch\n"
"  -c, --carveout PCT       shared-memory carveout preference, 0-100 or\n"
"                           'default'\n"
"      --barriers N         block barriers the kernel uses, 0-16 (default 1)\n"
"      --optin              allow more than sharedMemPerBlock through\n"
"                           cudaFuncAttributeMaxDynamicSharedMemorySize\n"
"                           (the default)\n"
"      --no-optin           the kernel does not raise its dynamic limit\n"
"      --ptxas FILE         the kernels of a compiler report, 'nvcc -Xptxas -v'\n"
"                           or 'cuobjdump --dump-resource-usage' output ('-':\n"
"                           standard input): one row per kernel, with its\n"
"                           registers, static shared memory and barriers\n"
"\n"
"  --block, --regs, --smem and --static-smem take a list (64,128,256) or a\n"
"  range START:END[:STEP]; every combination is evaluated, one row each.\n"
"\n"
"Output:\n"
"  -f, --format FMT         text, json or csv (default text)\n"
"      --chart              draw occupancy against block size, registers and\n"
"                           shared memory, this configuration marked\n"
"      --plot FILE          the same three charts as SVG, into FILE\n"
"      --headroom           JSON: add each object's register and shared-memory\n"
"                           headroom (the text report always has it)\n"
"  -i, --info               print the architecture's table values\n"
"  -l, --list-archs         list the architectures that have a table\n"
"      --list-gpus          list the GPUs --gpu knows\n"
"      --list-devices       list this machine's CUDA devices\n"
"\n"
"On the GPU (no --arch, or the device's own):\n"
"      --api                also ask the runtime's occupancy API about a\n"
"                           calibrated kernel with exactly these resources\n"
"      --measure            and launch it: blocks resident per SM and\n"
"                           achieved occupancy, measured (--grid N: N blocks);\n"
"                           with --access, each pattern's bandwidth; with\n"
"                           --persist, re-reads timed without and with the plan\n"
"  -t, --tables DIR         read architecture tables from DIR\n"
"                           (default: $OCCCALC_TABLES, else %s)\n"
"\n"
"Global memory (instead of occupancy):\n"
"      --access OP          load, store or load,store: the sectors and lines\n"
"                           one warp instruction touches, and its efficiency\n"
"      --elem BYTES         element size: 1, 2, 4, 8 or 16 (default 4)\n"
"      --stride N           elements between consecutive threads (default 1;\n"
"                           0: all threads read one element)\n"
"      --offset N           elements from a 128-byte aligned base (default 0)\n"
"      --threads N          active threads of the warp, 1-32 (default 32)\n"
"      --lane-xor MASK      thread i takes thread (i ^ MASK)'s element\n"
"      --total              add a line summing the rows: one kernel's accesses\n"
"      --persist BYTES      plan L2 persistence for data re-read by a kernel:\n"
"                           the set-aside, the window, the hitRatio, the code\n"
"      --streams N          concurrent streams sharing the set-aside (default 1)\n"
"      --l2 SIZE:MAX:WINDOW the L2 figures (l2CacheSize,\n"
"                           persistingL2CacheMaxSize, accessPolicyMaxWindowSize)\n"
"                           instead of the device's\n"
"\n"
"  -h, --help               print this help and exit\n"
"  -V, --version            print the version and exit\n"
"\n"
"Exit status: 0 success, 1 failure, 2 usage error.\n",
		OCC_TABLES_DIR);
}

/* Every message to the user: one line on stderr, then exit. */
static _Noreturn void vdie(int status, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

/* An error in how occcalc was called: exit 2. */
_Noreturn void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
}

/* A failure while doing what was asked: exit 1. */
_Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_FAILURE, fmt, ap);
}

/* Something the user should know that does not stop the run. */
void warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *seq_error_text(enum seq_error e)
{
	switch (e) {
	case SEQ_OK: return "";
	case SEQ_EMPTY: return "empty value";
	case SEQ_NOT_NUMBER: return "not a number";
	case SEQ_NEGATIVE: return "must not be negative";
	case SEQ_OVERFLOW: return "number too large";
	case SEQ_TOO_LARGE: return "above the maximum of";
	case SEQ_TOO_SMALL: return "below the minimum of";
	case SEQ_STEP_ZERO: return "a range's step must not be 0";
	case SEQ_REVERSED: return "range reversed: START must not exceed END";
	case SEQ_NOMEM: return "out of memory";
	}
	return "?";
}

static void parse_seq(const char *opt, const char *arg, uint64_t min,
		      uint64_t max, struct seq *out)
{
	enum seq_error e = seq_parse(arg, min, max, out);

	if (e == SEQ_TOO_LARGE)
		die_usage("--%s: '%s': %s %llu", opt, arg, seq_error_text(e),
			  (unsigned long long)max);
	if (e == SEQ_TOO_SMALL)
		die_usage("--%s: '%s': %s %llu", opt, arg, seq_error_text(e),
			  (unsigned long long)min);
	if (e != SEQ_OK)
		die_usage("--%s: '%s': %s", opt, arg, seq_error_text(e));
}

/* An option that takes one number, not a sweep. */
static uint64_t parse_number(const char *opt, const char *arg, uint64_t min,
			     uint64_t max)
{
	struct seq s;
	uint64_t v;

	parse_seq(opt, arg, min, max, &s);
	if (s.is_sweep) {
		seq_free(&s);
		die_usage("--%s: '%s': takes a single value", opt, arg);
	}
	v = s.ranges[0].start;
	seq_free(&s);
	return v;
}

static int parse_small(const char *opt, const char *arg, int max)
{
	return (int)parse_number(opt, arg, 0, (uint64_t)max);
}

static int parse_carveout(const char *arg)
{
	size_t n = strlen(arg);
	char buf[16];

	if (strcmp(arg, "default") == 0)
		return OCC_CARVEOUT_DEFAULT;
	/* "50%" reads naturally; take the number before it. */
	if (n > 1 && n < sizeof buf && arg[n - 1] == '%') {
		memcpy(buf, arg, n - 1);
		buf[n - 1] = '\0';
		return parse_small("carveout", buf, 100);
	}
	return parse_small("carveout", arg, 100);
}

static enum out_format parse_format(const char *arg)
{
	if (strcmp(arg, "text") == 0)
		return OUT_TEXT;
	if (strcmp(arg, "json") == 0)
		return OUT_JSON;
	if (strcmp(arg, "csv") == 0)
		return OUT_CSV;
	die_usage("--format: '%s': unknown format (text, json or csv)", arg);
}

static const char *option_name(int c, char *buf, size_t n)
{
	const struct option *o;

	for (o = long_options; o->name; o++)
		if (o->val == c) {
			snprintf(buf, n, "--%s", o->name);
			return buf;
		}
	snprintf(buf, n, "-%c", c);
	return buf;
}

/* --access load,store */
static unsigned parse_ops(const char *arg)
{
	char buf[64], *tok, *save = NULL;
	unsigned ops = 0;

	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "load") == 0)
			ops |= 1u << OCC_ACCESS_LOAD;
		else if (strcmp(tok, "store") == 0)
			ops |= 1u << OCC_ACCESS_STORE;
		else
			die_usage("--access: '%s': load, store or load,store",
				  arg);
	}
	if (!ops)
		die_usage("--access: '%s': load, store or load,store", arg);
	return ops;
}

/* --l2 SIZE:MAX:WINDOW, each with the size suffixes. */
static void parse_l2(const char *arg, struct occ_l2 *l2)
{
	char buf[128], *f[3], *save = NULL;
	uint64_t *v[3] = { &l2->size, &l2->persisting_max, &l2->window_max };
	int i;

	snprintf(buf, sizeof buf, "%s", arg);
	for (i = 0; i < 3; i++) {
		f[i] = strtok_r(i ? NULL : buf, ":", &save);
		if (!f[i] || occ_parse_size(f[i], v[i]) != OCC_PARSE_OK)
			die_usage("--l2: '%s': expected SIZE:MAX:WINDOW, the "
				  "device's l2CacheSize, persistingL2CacheMaxSize"
				  " and accessPolicyMaxWindowSize in bytes "
				  "(e.g. 50M:32768000:128M)", arg);
	}
	if (strtok_r(NULL, ":", &save))
		die_usage("--l2: '%s': expected SIZE:MAX:WINDOW", arg);
	if (l2->persisting_max > l2->size)
		die_usage("--l2: '%s': the set-aside maximum exceeds the L2", arg);
	if (l2->window_max == 0 || l2->size == 0)
		die_usage("--l2: '%s': the L2 and the window must not be 0", arg);
}

/* Options that describe a kernel's occupancy, not a memory access. */
static int is_occupancy_option(int c)
{
	switch (c) {
	case 'b': case 'r': case 's': case 'S': case 'c':
	case OPT_SMEM_PER_THREAD: case OPT_SMEM_PER_WARP: case OPT_GRID:
	case OPT_PTXAS: case OPT_CHART: case OPT_PLOT: case OPT_BARRIERS:
	case OPT_OPTIN: case OPT_NO_OPTIN: case OPT_HEADROOM: case OPT_API:
	case OPT_GPU: case 'i':
		return 1;
	}
	return 0;
}

/* --access and --persist each stand alone. */
static void check_memory_options(const struct options *o)
{
	if (o->access.ops && o->persist.n)
		die_usage("--access and --persist are separate calculators; "
			  "give one");
	if ((o->access.ops || o->persist.n) && o->occupancy_opt)
		die_usage("%s is an occupancy option; --%s computes memory "
			  "transactions", o->occupancy_opt,
			  o->access.ops ? "access" : "persist");
	if (o->persist.n && o->have_l2 && o->measure)
		die_usage("--persist --measure runs on the device, with its own "
			  "L2 figures: leave out --l2");
	if (!o->persist.n && (o->have_l2 || o->streams != 1))
		die_usage("--l2 and --streams go with --persist");
	if (!o->access.ops && o->access_opt)
		die_usage("%s goes with --access", o->access_opt);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;
	char name[32];
	static char occ_name[32], access_name[32];

	memset(o, 0, sizeof *o);
	parse_seq("elem", "4", 0, 16, &o->access.elem);
	parse_seq("stride", "1", 0, 1, &o->access.stride);
	parse_seq("offset", "0", 0, 0, &o->access.offset);
	parse_seq("threads", "32", 0, 32, &o->access.threads);
	o->streams = 1;
	parse_seq("regs", "0", 0, 0, &o->regs);
	parse_seq("smem", "0", 0, 0, &o->smem);
	parse_seq("static-smem", "0", 0, 0, &o->static_smem);
	parse_seq("block", "0", 0, 0, &o->block);
	o->carveout = OCC_CARVEOUT_DEFAULT;
	o->barriers = 1;
	o->optin = 1;
	o->format = OUT_TEXT;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options,
				NULL)) != -1) {
		if (!o->occupancy_opt && is_occupancy_option(c))
			o->occupancy_opt = option_name(c, occ_name,
						       sizeof occ_name);
		if (!o->access_opt && c >= OPT_ELEM && c <= OPT_TOTAL)
			o->access_opt = option_name(c, access_name,
						    sizeof access_name);
		switch (c) {
		case 'a': o->arch = optarg; break;
		case 'b':
			seq_free(&o->block);
			parse_seq("block", optarg, 1, INT32_MAX, &o->block);
			o->have_block = 1;
			break;
		case 'r':
			seq_free(&o->regs);
			parse_seq("regs", optarg, 0, OCC_MAX_REGS_ANY_ARCH,
				  &o->regs);
			break;
		case 's':
			seq_free(&o->smem);
			parse_seq("smem", optarg, 0, SMEM_MAX, &o->smem);
			break;
		case 'S':
			seq_free(&o->static_smem);
			parse_seq("static-smem", optarg, 0, SMEM_MAX,
				  &o->static_smem);
			break;
		case OPT_SMEM_PER_THREAD:
			o->growth.per_thread = parse_number("smem-per-thread",
							    optarg, 0, SMEM_MAX);
			break;
		case OPT_SMEM_PER_WARP:
			o->growth.per_warp = parse_number("smem-per-warp",
							  optarg, 0, SMEM_MAX);
			break;
		case OPT_SMS:
			o->sms = (int)parse_number("sms", optarg, 1, 1 << 20);
			break;
		case OPT_GRID:
			o->grid = (int64_t)parse_number("grid", optarg, 1,
							INT32_MAX);
			break;
		case OPT_GPU: o->gpu = optarg; break;
		case OPT_PTXAS: o->ptxas = optarg; break;
		case OPT_CHART: o->chart = 1; break;
		case OPT_DEVICE:
			o->device = (int)parse_number("device", optarg, 0, 1023);
			break;
		case OPT_LIST_DEVICES: o->list_devices = 1; break;
		case OPT_API: o->api = 1; break;
		case OPT_ACCESS: o->access.ops = parse_ops(optarg); break;
		case OPT_ELEM:
			seq_free(&o->access.elem);
			parse_seq("elem", optarg, 1, 16, &o->access.elem);
			break;
		case OPT_STRIDE:
			seq_free(&o->access.stride);
			parse_seq("stride", optarg, 0, UINT64_MAX, &o->access.stride);
			break;
		case OPT_OFFSET:
			seq_free(&o->access.offset);
			parse_seq("offset", optarg, 0, UINT64_MAX, &o->access.offset);
			break;
		case OPT_THREADS:
			seq_free(&o->access.threads);
			parse_seq("threads", optarg, 1, 32, &o->access.threads);
			break;
		case OPT_LANE_XOR:
			o->access.lane_xor = (unsigned)parse_small("lane-xor", optarg, 31);
			break;
		case OPT_TOTAL: o->access.total = 1; break;
		case OPT_PERSIST:
			seq_free(&o->persist);
			parse_seq("persist", optarg, 1, UINT64_C(1) << 48,
				  &o->persist);
			break;
		case OPT_STREAMS:
			o->streams = (int)parse_number("streams", optarg, 1, 1024);
			break;
		case OPT_L2: parse_l2(optarg, &o->l2); o->have_l2 = 1; break;
		case OPT_MEASURE: o->measure = o->api = 1; break;
		case OPT_PLOT: o->plot = optarg; break;
		case OPT_LIST_GPUS: o->list_gpus = 1; break;
		case 'c': o->carveout = parse_carveout(optarg); break;
		case OPT_BARRIERS:
			o->barriers = parse_small("barriers", optarg,
						  OCC_MAX_BARRIERS_PER_BLOCK);
			o->barriers_given = 1;
			break;
		case OPT_OPTIN: o->optin = 1; break;
		case OPT_NO_OPTIN: o->optin = 0; break;
		case 'f': o->format = parse_format(optarg); break;
		case 'i': o->info = 1; break;
		case OPT_HEADROOM: o->headroom = 1; break;
		case 'l': o->list = 1; break;
		case 't': o->tables = optarg; break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case 'V':
			printf("occcalc %s\n", OCC_VERSION);
			exit(EXIT_SUCCESS);
		case ':':
			die_usage("option '%s' needs a value",
				  optopt ? option_name(optopt, name, sizeof name)
					 : argv[optind - 1]);
			break;
		default:
			if (optopt)
				die_usage("unknown option '-%c' (see --help)",
					  optopt);
			die_usage("unknown option '%s' (see --help)",
				  argv[optind - 1]);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s' (see --help)", argv[optind]);
	if ((o->chart || o->plot) && (o->ptxas || o->block.is_sweep ||
				      o->regs.is_sweep || o->smem.is_sweep ||
				      o->static_smem.is_sweep))
		die_usage("--chart and --plot draw one configuration, not a sweep "
			  "or a compiler report");
	check_memory_options(o);
	if (o->api && o->ptxas)
		die_usage("--api and --measure take a configuration, not a "
			  "compiler report (--ptxas)");
	if (o->api && o->gpu)
		die_usage("--api and --measure run on this machine's GPU; --gpu "
			  "names a model (use --device N)");
	if (o->chart && o->format != OUT_TEXT)
		die_usage("--chart draws in the text format only (--plot FILE "
			  "writes SVG)");
}

static _Noreturn void die_tables(enum occ_status st, const struct occ_diag *d,
		       int err)
{
	if (st == OCC_ERR_IO && d->line == 0)
		die("%s: %s: %s", d->file, occ_strerror(st), strerror(err));
	if (st == OCC_ERR_LINE_TOO_LONG)
		die("%s:%d: line too long (at most %llu characters)", d->file,
		    d->line, (unsigned long long)d->limit);
	if (st == OCC_ERR_RANGE)
		die("%s:%d: %s: above the limit of %llu", d->file, d->line,
		    d->key, (unsigned long long)d->limit);
	if (st == OCC_ERR_NO_TABLES || st == OCC_ERR_NOT_REGULAR)
		die("%s: %s", d->file, occ_strerror(st));
	if (d->line > 0 && d->key[0])
		die("%s:%d: %s: %s", d->file, d->line, d->key,
		    occ_strerror(st));
	if (d->line > 0)
		die("%s:%d: %s", d->file, d->line, occ_strerror(st));
	die("%s: %s: %s", d->file, d->key, occ_strerror(st));
}

static const char *tables_dir(const char *dir)
{
	if (!dir)
		dir = getenv("OCCCALC_TABLES");
	if (!dir || !*dir)
		dir = OCC_TABLES_DIR;
	return dir;
}

static struct occ_tables *load_tables(const char *dir)
{
	struct occ_tables *t;
	struct occ_diag d;
	enum occ_status st;

	dir = tables_dir(dir);
	errno = 0;
	st = occ_tables_load(dir, &t, &d);
	if (st != OCC_OK)
		die_tables(st, &d, errno);
	return t;
}

static void query_device(const struct options *o, struct occ_device *d)
{
	char err[256] = "";
	int n = 0, index = o->device;

	if ((device_count(&n, err, sizeof err) != 0 || n == 0) && o->api)
		die("--%s needs a CUDA device: %s", o->measure ? "measure" : "api",
		    err[0] ? err : "none found");
	if (n == 0 && o->persist.n)
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
	if (device_query(index, d, err, sizeof err) != 0)
		die("device %d: %s", index, err);
	/* A MIG instance is a slice of the GPU: the runtime reports the
	 * slice's SMs, and L2 persistence is not available in it. */
	if (d->mig)
		warn("device %d is a MIG instance: its %d SMs and its memory are "
		     "the instance's, not the whole GPU's", index, d->sms);
}

static void list_devices(enum out_format format)
{
	struct occ_device devs[64];
	char err[256] = "";
	int n, i;

	if (device_count(&n, err, sizeof err) != 0)
		die("no CUDA device: %s", err);
	if (n == 0)
		die("no CUDA device found");
	for (i = 0; i < n && i < 64; i++)
		if (device_query(i, &devs[i], err, sizeof err) != 0)
			die("device %d: %s", i, err);
	out_devices(stdout, format, devs, i);
}

static const struct occ_arch *find_arch(const struct occ_tables *t,
					const char *name)
{
	const struct occ_arch *a;
	int major, minor;

	if (occ_arch_parse_name(name, &major, &minor) != OCC_OK)
		die_usage("--arch: '%s': not an architecture (try sm_90, 90 "
			  "or 9.0)", name);
	a = occ_tables_find(t, major, minor);
	if (!a)
		die_usage("--arch: '%s': no table for compute capability %d.%d "
			  "(--list-archs lists them)", name, major, minor);
	return a;
}

static void gpus_path(char *buf, size_t n, const struct options *o)
{
	snprintf(buf, n, "%s/gpus.txt", tables_dir(o->tables));
}

/* --gpu: the SM count, and the architecture unless --arch names one. */
static void apply_gpu(struct options *o, char *arch_buf, size_t n)
{
	struct occ_gpu g;
	struct occ_diag d;
	char path[1024];
	enum occ_status st;
	int major, minor;

	if (!o->gpu)
		return;
	gpus_path(path, sizeof path, o);
	errno = 0;
	st = occ_gpu_find(path, o->gpu, &g, &d);
	if (st == OCC_ERR_UNKNOWN_ARCH)
		die_usage("--gpu: '%s': not in %s (--list-gpus lists them; "
			  "--sms N gives any SM count)", o->gpu, path);
	if (st == OCC_ERR_SYNTAX)
		die("%s:%d: expected 'NAME CC SMS SOURCE'", d.file, d.line);
	if (st != OCC_OK)
		die_tables(st, &d, errno);
	if (o->arch && (occ_arch_parse_name(o->arch, &major, &minor) != OCC_OK ||
			major != g.cc_major || minor != g.cc_minor))
		die_usage("--gpu %s is compute capability %d.%d, not --arch %s",
			  g.name, g.cc_major, g.cc_minor, o->arch);
	snprintf(arch_buf, n, "%d.%d", g.cc_major, g.cc_minor);
	o->arch = arch_buf;
	if (!o->sms)
		o->sms = g.sms;
}

static void list_gpus(const struct options *o)
{
	char path[1024], line[1024];
	FILE *f;

	gpus_path(path, sizeof path, o);
	f = fopen(path, "r");
	if (!f)
		die("%s: cannot read: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f))
		if (line[0] != '#' && line[0] != '\n')
			fputs(line, stdout);
	fclose(f);
}

static int finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error: %s", strerror(errno));
	return EXIT_SUCCESS;
}

static void draw_charts(const struct occ_arch *a, const struct options *o,
			const struct occ_kernel *k, const struct occ_result *r)
{
	struct chart_series s[3];
	char title[256], tag[16];
	FILE *f;

	if (!o->chart && !o->plot)
		return;
	if (chart_build(a, k, s) != 0)
		die("out of memory");
	if (o->chart)
		chart_text(stdout, s, r);
	if (o->plot) {
		arch_tag(tag, sizeof tag, a);
		snprintf(title, sizeof title, "occcalc: %s, %d threads, %d "
			 "registers, %llu B static + %llu B dynamic shared "
			 "memory", tag, k->block_size, k->regs_per_thread,
			 (unsigned long long)k->static_smem,
			 (unsigned long long)k->dynamic_smem);
		f = fopen(o->plot, "w");
		if (!f)
			die("%s: cannot write: %s", o->plot, strerror(errno));
		if (chart_svg(f, title, s, r) != 0 || fclose(f) != 0)
			die("%s: write error", o->plot);
	}
	chart_free(s);
}

/* ---- --api and --measure ---- */

/* The registers the calibrated kernel for regs actually has: ptxas gives
 * no kernel fewer than its lower bound (24 on every architecture CUDA 13
 * builds for), so a row asking fewer is computed for what runs. */
static int calibrated_regs(int regs)
{
	char err[256];
	int got;

	if (gpu_kernel_regs(gpu_ctx.d->index, regs, &got, err, sizeof err) != 0)
		die("device %d: %s", gpu_ctx.d->index, err);
	if (got != regs && !gpu_ctx.warned_regs) {
		warn("the calibrated kernel for %d registers has %d (the fewest "
		     "ptxas allocates); its rows are computed for %d", regs, got,
		     got);
		gpu_ctx.warned_regs = 1;
	}
	return got;
}

static void show_progress(void)
{
	if (!gpu_ctx.progress)
		return;
	gpu_ctx.rows++;
	fprintf(stderr, "\r%s: measured %llu of %llu", progname,
		(unsigned long long)gpu_ctx.rows,
		(unsigned long long)gpu_ctx.total);
	if (gpu_ctx.rows == gpu_ctx.total)
		fputc('\n', stderr);
}

/* The runtime's answer for k, and with --measure a launch of it. */
static void run_on_gpu(const struct options *o, const struct occ_kernel *k,
		       const struct occ_result *r, struct row_gpu *g)
{
	const struct occ_device *d = gpu_ctx.d;
	struct occ_waves w;
	char err[256];
	int most;

	memset(g, 0, sizeof *g);
	g->kernel_regs = k->regs_per_thread;
	if (gpu_api_blocks(d->index, k, &g->api_blocks, err, sizeof err) != 0)
		die("device %d: %s", d->index, err);
	/* Launched only where both expect it to run; where they differ the
	 * row says so. */
	if (o->measure && r->blocks_per_sm > 0 && g->api_blocks > 0) {
		most = g->api_blocks > r->blocks_per_sm ? g->api_blocks
							 : r->blocks_per_sm;
		g->m.grid = o->grid ? o->grid
				    : (int64_t)MEASURE_WAVES * most * d->sms;
		g->m.spin_cycles = MEASURE_SPIN_CYCLES;
		g->expected = occ_waves(r, g->m.grid, d->sms, &w) == OCC_OK
			      ? w.max_resident_per_sm : r->blocks_per_sm;
		if (gpu_measure(d->index, k, r->max_warps_per_sm, &g->m, err,
				sizeof err) != 0)
			die("device %d: %s", d->index, err);
		g->measured = 1;
	}
	if (!row_gpu_agrees(g, r))
		gpu_ctx.disagreements++;
	if (o->measure)
		show_progress();
}

/* One configuration: at the given block size, or at the best one. */
static void evaluate_one(const struct occ_arch *a, const struct options *o,
			 struct occ_kernel *k, struct out *out,
			 const struct occ_usage *usage, const char *kernel)
{
	struct occ_best best;
	struct occ_smem_growth g = o->growth;
	struct row_extra x;
	struct row_gpu gpu;

	g.fixed = k->dynamic_smem;
	best.n_ties = 0;
	if (o->have_block) {
		k->dynamic_smem = occ_smem_growth_at(&g, a, k->block_size);
		if (occ_compute(a, k, &best.result) != OCC_OK)
			die("internal error: invalid configuration");
	} else {
		if (occ_best_block_size(a, k, &g, &best) != OCC_OK)
			die("internal error: invalid configuration");
		k->block_size = best.block_size ? best.block_size : a->warp_size;
		k->dynamic_smem = best.dynamic_smem;
	}
	if (o->api)
		run_on_gpu(o, k, &best.result, &gpu);
	if (o->format == OUT_TEXT && !out->sweep) {
		struct occ_headroom h;

		if (!o->have_block)
			out_best(stdout, a, &best, o->sms);
		out_report(stdout, a, k, &best.result);
		if (o->grid)
			out_waves(stdout, &best.result, o->grid, o->sms);
		if (occ_headroom(a, k, &h) == OCC_OK)
			out_headroom(stdout, &best.result, &h);
		if (o->api)
			out_gpu(stdout, gpu_ctx.d, &gpu, &best.result);
		draw_charts(a, o, k, &best.result);
	} else {
		x.best = o->have_block ? NULL : &best;
		x.sms = o->sms;
		x.grid = o->grid;
		x.usage = usage;
		x.kernel = kernel;
		x.gpu = o->api ? &gpu : NULL;
		out_row(out, a, k, &best.result, &x);
		if (!out->sweep)
			draw_charts(a, o, k, &best.result);
	}
	k->dynamic_smem = g.fixed;
}

/* Every block size and dynamic shared memory for k's other values. */
static void evaluate_blocks(const struct occ_arch *a, const struct options *o,
			    const struct seq *blocks, struct occ_kernel *k,
			    struct out *out, const struct occ_usage *usage,
			    const char *kernel)
{
	struct seq_iter ib, id;

	for (seq_first(&ib, blocks); ; ) {
		for (seq_first(&id, &o->smem); ; ) {
			k->block_size = (int)ib.value;
			k->dynamic_smem = id.value;
			evaluate_one(a, o, k, out, usage, kernel);
			if (!seq_next(&id))
				break;
		}
		if (!seq_next(&ib))
			break;
	}
}

static void kernel_defaults(struct occ_kernel *k, const struct options *o)
{
	occ_kernel_init(k);
	k->carveout = o->carveout;
	k->barriers = o->barriers;
	k->optin = o->optin;
}

static void end_output(struct out *out)
{
	if (out_end(out) != 0)
		die("write error: %s", strerror(errno));
}

/* Evaluates every combination: block size outermost, then registers,
 * static and dynamic shared memory. */
static void evaluate(const struct occ_arch *a, const struct options *o)
{
	struct seq_iter ib, ir, is;
	struct occ_kernel k;
	static struct out out;
	struct seq_range r;
	struct seq one = { &r, 1, 0 };
	int sweep = o->block.is_sweep || o->regs.is_sweep ||
		    o->smem.is_sweep || o->static_smem.is_sweep;

	kernel_defaults(&k, o);
	out_begin(&out, stdout, o->format, sweep);
	out.headroom = o->headroom;
	out.gpu = o->api;
	if (o->measure) {
		gpu_ctx.total = seq_count(&o->block) * seq_count(&o->regs) *
				seq_count(&o->static_smem) * seq_count(&o->smem);
		gpu_ctx.progress = gpu_ctx.total > 1 && isatty(STDERR_FILENO);
	}
	for (seq_first(&ib, &o->block); ; ) {
		r.start = r.end = ib.value;
		r.step = 1;
		for (seq_first(&ir, &o->regs); ; ) {
			k.regs_per_thread = o->api ? calibrated_regs((int)ir.value)
						   : (int)ir.value;
			for (seq_first(&is, &o->static_smem); ; ) {
				k.static_smem = is.value;
				evaluate_blocks(a, o, &one, &k, &out, NULL, NULL);
				if (!seq_next(&is))
					break;
			}
			if (!seq_next(&ir))
				break;
		}
		if (!seq_next(&ib))
			break;
	}
	end_output(&out);
}

/* ---- --ptxas: the kernels of a compiler report ---- */

struct report {
	const struct options *o;
	const struct occ_tables *t;
	const char *input;
	int filter_major, filter_minor;  /* --arch, or -1 */
	struct out *out;
	int rows;
};

static int report_kernel(const struct occ_usage *u, void *ctx)
{
	struct report *rep = ctx;
	const struct occ_arch *a = occ_tables_find(rep->t, u->cc_major,
						    u->cc_minor);
	struct occ_kernel k;
	char *name;

	if (rep->filter_major >= 0 && (u->cc_major != rep->filter_major ||
				       u->cc_minor != rep->filter_minor))
		return 0;
	if (!a)
		die("%s:%d: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table", rep->input, u->line, u->mangled,
		    u->cc_major, u->cc_minor);
	kernel_defaults(&k, rep->o);
	k.regs_per_thread = u->regs;
	k.static_smem = u->static_smem;
	/* From 9.0 the cubin counts the driver's reserve as the kernel's own;
	 * the model adds it, so take it out (cudaFuncGetAttributes does too). */
	if (u->from_cuobjdump && a->cubin_smem_includes_reserved &&
	    k.static_smem >= a->smem_reserved_per_block)
		k.static_smem -= a->smem_reserved_per_block;
	/* The report's barrier count is the kernel's; cuobjdump gives none. */
	if (u->barriers >= 0 && !rep->o->barriers_given)
		k.barriers = u->barriers > OCC_MAX_BARRIERS_PER_BLOCK
			     ? OCC_MAX_BARRIERS_PER_BLOCK : u->barriers;
	name = occ_demangle(u->mangled);
	evaluate_blocks(a, rep->o, &rep->o->block, &k, rep->out, u,
			name ? name : u->mangled);
	free(name);
	rep->rows++;
	return 0;
}

static void evaluate_report(const struct occ_tables *t,
			    const struct options *o)
{
	static struct out out;
	int from_stdin = strcmp(o->ptxas, "-") == 0;
	struct report rep = { o, t, from_stdin ? "<stdin>" : o->ptxas, -1, -1,
			      &out, 0 };
	struct occ_diag d;
	enum occ_status st;
	int fn_status;

	if (o->arch && occ_arch_parse_name(o->arch, &rep.filter_major,
					   &rep.filter_minor) != OCC_OK)
		die_usage("--arch: '%s': not an architecture (try sm_90, 90 "
			  "or 9.0)", o->arch);
	out.kernels = 1;
	out_begin(&out, stdout, o->format, 1);
	out.headroom = o->headroom;
	errno = 0;
	st = from_stdin ? occ_usage_parse(stdin, rep.input, report_kernel, &rep,
					  &fn_status, &d)
			: occ_usage_parse_file(o->ptxas, report_kernel, &rep,
					       &fn_status, &d);
	if (st == OCC_ERR_SYNTAX && d.line == 0)
		die("%s: no kernel resource usage found (expected 'nvcc -Xptxas "
		    "-v' or 'cuobjdump --dump-resource-usage' output)", d.file);
	if (st == OCC_ERR_SYNTAX)
		die("%s:%d: malformed or truncated resource usage", d.file,
		    d.line);
	if (st != OCC_OK)
		die_tables(st, &d, errno);
	if (rep.rows == 0)
		die("%s: no kernel compiled for --arch %s", rep.input, o->arch);
	end_output(&out);
}

/* A device whose compute capability has no table: what the runtime does
 * not report (allocation units, carveouts, barriers...) comes from the
 * newest table below it, and the user is told which values those are. */
static const struct occ_arch *borrow_table(const struct occ_tables *t,
					   const struct occ_device *d)
{
	const struct occ_arch *a, *below = NULL;
	char keys[1024] = "";
	size_t i, len = 0;

	for (i = 0; i < occ_tables_count(t); i++) {
		a = occ_tables_get(t, i);
		if (a->cc_major * 10 + a->cc_minor < d->cc_major * 10 + d->cc_minor)
			below = a;
	}
	if (!below)
		die("device %d (%s) is compute capability %d.%d: no table at or "
		    "below it", d->index, d->name, d->cc_major, d->cc_minor);
	for (i = 0; i < occ_arch_key_count(); i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (k->type == OCC_KEY_CC || k->type == OCC_KEY_STRING ||
		    device_reports(k) || !occ_arch_has(below, k) ||
		    len + strlen(k->name) + 3 >= sizeof keys)
			continue;
		len += (size_t)snprintf(keys + len, sizeof keys - len, "%s%s",
					len ? ", " : "", k->name);
	}
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
static const struct occ_arch *device_arch(const struct occ_tables *t,
					  struct options *o,
					  const struct occ_arch **table_out)
{
	static struct occ_device d;
	const struct occ_arch *table;
	static struct occ_arch merged;
	int major, minor;

	query_device(o, &d);
	table = occ_tables_find(t, d.cc_major, d.cc_minor);
	if (!table)
		table = borrow_table(t, &d);
	if (o->arch && (occ_arch_parse_name(o->arch, &major, &minor) != OCC_OK
			|| major != d.cc_major || minor != d.cc_minor))
		die_usage("--arch %s: device %d (%s) is compute capability "
			  "%d.%d, and --api and --measure run on it", o->arch,
			  d.index, d.name, d.cc_major, d.cc_minor);
	device_merge(table, &d, &merged);
	merged.cc_major = d.cc_major;
	merged.cc_minor = d.cc_minor;
	if (!o->sms)
		o->sms = d.sms;
	gpu_ctx.d = &d;
	if (table_out)
		*table_out = table;
	return &merged;
}

static void evaluate_on_device(const struct occ_tables *t, struct options *o)
{
	const struct occ_arch *table, *merged = device_arch(t, o, &table);

	if (o->info) {
		out_device_info(stdout, o->format, gpu_ctx.d, merged, table);
		return;
	}
	evaluate(merged, o);
	if (gpu_ctx.disagreements)
		warn("%llu configuration%s where the runtime or the measurement "
		     "disagrees with the model (see the agrees column)",
		     (unsigned long long)gpu_ctx.disagreements,
		     gpu_ctx.disagreements == 1 ? "" : "s");
}

/* ---- --access and --persist ---- */

/* The architecture: --arch's table, else the device's. */
static const struct occ_arch *memory_arch(const struct occ_tables *t,
					  struct options *o)
{
	return o->arch && !o->measure ? find_arch(t, o->arch)
				      : device_arch(t, o, NULL);
}

/* The L2 figures: --l2's, else the device's, where persistence works. */
static void plan_l2(const struct occ_tables *t, struct options *o,
		    struct occ_l2 *l2)
{
	const struct occ_arch *a = memory_arch(t, o);
	const struct occ_device *d = gpu_ctx.d;
	char tag[16];

	arch_tag(tag, sizeof tag, a);
	if (!a->l2_persisting)
		die("%s (%s) has no L2 set-aside for persisting accesses "
		    "(compute capability 8.0 and later)", tag, a->name);
	if (o->have_l2) {
		*l2 = o->l2;
		return;
	}
	if (!d)
		die_usage("--persist with --arch needs the device's L2 figures: "
			  "--l2 SIZE:MAX:WINDOW");
	if (d->mig)
		die("device %d is a MIG instance: the L2 set-aside is disabled "
		    "in MIG mode", d->index);
	if (d->mps)
		die("device %d is shared through MPS: cudaDeviceSetLimit cannot "
		    "change the set-aside; start the MPS server with "
		    "CUDA_DEVICE_DEFAULT_PERSISTING_L2_CACHE_PERCENTAGE_LIMIT",
		    d->index);
	if (!d->persisting_l2_max)
		die("device %d (%s) reports no L2 set-aside "
		    "(persistingL2CacheMaxSize 0)", d->index, d->name);
	l2->size = d->l2_cache;
	l2->persisting_max = d->persisting_l2_max;
	l2->window_max = d->access_policy_max_window;
}

static void evaluate_access(const struct occ_tables *t, struct options *o)
{
	/* First: finding the device's architecture finds the device. */
	const struct occ_arch *a = memory_arch(t, o);

	mem_evaluate_access(a, &o->access, o->format,
			    o->measure ? gpu_ctx.d : NULL);
}

static void evaluate_persist(const struct occ_tables *t, struct options *o)
{
	struct occ_l2 l2;

	plan_l2(t, o, &l2);
	mem_evaluate_plans(&l2, &o->persist, o->streams, o->format,
			   o->measure ? gpu_ctx.d : NULL);
}

static void free_options(struct options *o)
{
	seq_free(&o->access.elem);
	seq_free(&o->access.stride);
	seq_free(&o->access.offset);
	seq_free(&o->access.threads);
	seq_free(&o->persist);
	seq_free(&o->block);
	seq_free(&o->regs);
	seq_free(&o->smem);
	seq_free(&o->static_smem);
}

int main(int argc, char **argv)
{
	struct options o;
	struct occ_tables *t;
	char gpu_arch[16];

	parse_options(argc, argv, &o);
	if (o.list_devices) {
		list_devices(o.format);
		free_options(&o);
		return finish_output();
	}
	if (o.list_gpus) {
		list_gpus(&o);
		free_options(&o);
		return finish_output();
	}
	apply_gpu(&o, gpu_arch, sizeof gpu_arch);
	/* Without --arch the device gives the SM count. */
	if (o.grid && !o.sms && (o.arch || o.ptxas) && !o.api)
		die_usage("--grid needs the GPU's SM count: --sms N or --gpu "
			  "NAME");
	t = load_tables(o.tables);
	if (o.list) {
		out_list(stdout, o.format, t);
	} else if (o.access.ops) {
		evaluate_access(t, &o);
	} else if (o.persist.n) {
		evaluate_persist(t, &o);
	} else if ((!o.arch && !o.ptxas) || o.api) {
		evaluate_on_device(t, &o);
	} else if (o.info) {
		out_info(stdout, o.format, find_arch(t, o.arch));
	} else if (o.ptxas) {
		evaluate_report(t, &o);
	} else {
		evaluate(find_arch(t, o.arch), &o);
	}
	occ_tables_free(t);
	free_options(&o);
	return finish_output();
}
