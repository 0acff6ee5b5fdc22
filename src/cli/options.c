/*
 * options.c - parsing argv with opts[] (opts_table.c): getopt_long's
 * tables, each option's value into struct options with its range
 * checked, the mode the options select, and the checks against it (an
 * option the mode does not use, pairs that do not go together).
 */
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

/* Why an option a mode does not use is refused: the first rule whose
 * groups and mode match, else the general one. */
static const struct refusal {
	unsigned groups;       /* 0: any option */
	const struct mode *mode;   /* NULL: any mode (or any memory one) */
	int memory;            /* the calculators of memory transactions */
	const char *fmt;       /* %1$s: the option, %2$s: the mode */
} refusals[] = {
	{ G_GPU, &mode_kernels, 0, "--measure launches a calibrated kernel, "
	  "not the ones of --kernels (--api asks the driver about them)" },
	{ G_CHART, &mode_kernels, 0, "--chart and --plot draw one "
	  "configuration, not a sweep or a compiler report" },
	{ G_OCC, NULL, 1, "%1$s is an occupancy option; %2$s computes memory "
	  "transactions" },
	{ G_TRAFFIC, NULL, 0, "%1$s goes with --traffic" },
	{ G_ACCESS, NULL, 0, "%1$s goes with --access" },
	{ G_PERSIST, NULL, 0, "--l2 and --streams go with --persist" },
	{ 0, NULL, 0, "%1$s does not apply to %2$s" },
};

int opt_applies(const struct opt *op, const struct mode *m)
{
	size_t i;

	if (op->reach == REACH_ALL)
		return 1;
	if (op->reach == REACH_TABLES)
		return m->tables != TABLES_NONE;
	for (i = 0; i < OPT_MODES; i++)
		if (op->modes[i] == m)
			return 1;
	return 0;
}

static int refusal_matches(const struct refusal *r, const struct opt *op,
			   const struct mode *m)
{
	if (r->groups && !(r->groups & op->groups))
		return 0;
	if (r->mode)
		return r->mode == m;
	return !r->memory || m->memory;
}

/* ---- Parsing ---- */

static void *dest(const struct opt *op, struct options *o)
{
	return (char *)o + op->dest;
}

static void take(const struct opt *op, const char *arg, struct options *o)
{
	switch (op->kind) {
	case ARG_FLAG:
		*(int *)dest(op, o) = op->set;
		break;
	case ARG_NONE:
		break;
	case ARG_SEQ:
		seq_free(dest(op, o));
		arg_seq(op->name, arg, op->min, op->max, dest(op, o));
		break;
	case ARG_SHAPES:
		seq_free(dest(op, o));
		arg_shapes(op->name, arg, op->min, op->max, dest(op, o));
		break;
	case ARG_NUM:
		*(uint64_t *)dest(op, o) = arg_number(op->name, arg, op->min,
							op->max);
		break;
	case ARG_STR:
		*(const char **)dest(op, o) = arg;
		break;
	case ARG_FN:
		op->parse(op->name, arg, o);
		break;
	}
}

static void defaults(struct options *o)
{
	size_t i;

	memset(o, 0, sizeof *o);
	o->mode = MODE_OCCUPANCY;
	o->carveout_default = 1;
	o->optin = 1;
	o->format = OUT_TEXT;
	for (i = 0; i < opts_n; i++)
		if (opts[i].def && (opts[i].kind == ARG_SEQ ||
				    opts[i].kind == ARG_SHAPES))
			arg_seq(opts[i].name, opts[i].def, 0, UINT64_MAX,
				  dest(&opts[i], o));
		else if (opts[i].def && opts[i].kind == ARG_FN)
			opts[i].parse(opts[i].name, opts[i].def, o);
		else if (opts[i].def)
			*(uint64_t *)dest(&opts[i], o) =
				strtoull(opts[i].def, NULL, 10);
}

/* getopt_long's tables, from opts[]. */
static void getopt_tables(struct option *longs, char *shorts)
{
	size_t i, n = 0;

	shorts[n++] = ':';
	for (i = 0; i < opts_n; i++) {
		longs[i].name = opts[i].name;
		longs[i].has_arg = opts[i].optional ? optional_argument
				   : opts[i].kind == ARG_FLAG ||
				     opts[i].kind == ARG_NONE ? no_argument
				   : required_argument;
		longs[i].flag = NULL;
		longs[i].val = 256 + (int)i;
		if (opts[i].key) {
			shorts[n++] = (char)opts[i].key;
			if (opts[i].optional)      /* "h::" */
				shorts[n++] = ':';
			if ((opts[i].kind != ARG_FLAG &&
			     opts[i].kind != ARG_NONE) || opts[i].optional)
				shorts[n++] = ':';
		}
	}
	memset(&longs[opts_n], 0, sizeof longs[opts_n]);
	shorts[n] = '\0';
}

/* The option getopt_long returned: its index in opts[]. */
static int opt_index(int c)
{
	size_t i;

	if (c >= 256 && c < 256 + (int)opts_n)
		return c - 256;
	for (i = 0; i < opts_n; i++)
		if (opts[i].key && opts[i].key == c)
			return (int)i;
	return -1;
}

/* A misspelt long option: the nearest names, where some are near. */
static _Noreturn void unknown_long(const char *arg)
{
	const char *name = arg + strspn(arg, "-");
	size_t len = strcspn(name, "="), i;
	struct nearest nr;
	char near[160], dashed[NEAREST_MAX][64];

	nearest_init(&nr, name, len);
	for (i = 0; i < opts_n; i++)
		if (opts[i].name && opts[i].help)
			nearest_offer(&nr, opts[i].name);
	/* Only names a typo away: a third of the length, two at least. */
	while (nr.n && nr.dist[nr.n - 1] > (int)(len / 3 > 2 ? len / 3 : 2))
		nr.n--;
	if (!nr.n)
		die_usage("unknown option '%s' (see --help)", arg);
	for (i = 0; i < nr.n; i++) {
		snprintf(dashed[i], sizeof dashed[i], "--%s", nr.name[i]);
		nr.name[i] = dashed[i];
	}
	nearest_text(&nr, near, sizeof near);
	die_usage("unknown option '%s'; did you mean %s? (see --help)", arg,
		  near);
}

static _Noreturn void bad_option(int c, char **argv)
{
	int i = opt_index(optopt);

	if (c == ':' && i >= 0)
		die_usage("option '--%s' needs a value", opts[i].name);
	if (c == ':')
		die_usage("option '%s' needs a value", argv[optind - 1]);
	if (optopt)
		die_usage("unknown option '-%c' (see --help)", optopt);
	unknown_long(argv[optind - 1]);
}

/* The mode an option selects: a second one is refused. */
static void select_mode(const struct opt *op, struct options *o,
			const struct mode **selected)
{
	const struct mode *m = op->selects;

	if (*selected && *selected != m)
		die_usage("%s and %s are separate %s; give one",
			  (*selected)->name, m->name,
			  (*selected)->memory && m->memory ? "calculators"
			  : "modes");
	*selected = m;
	o->mode = m;
}

static void record(struct options *o, int i)
{
	int j;

	for (j = 0; j < o->n_given; j++)
		if (o->given[j] == i)
			return;
	if (o->n_given < (int)(sizeof o->given / sizeof o->given[0]))
		o->given[o->n_given++] = i;
}

/* ---- Checks, once the mode is known ---- */

static _Noreturn void refuse(const struct opt *op, const struct mode *m)
{
	char name[40];
	size_t i;

	snprintf(name, sizeof name, "--%s", op->name);
	for (i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
		if (refusal_matches(&refusals[i], op, m))
			die_usage(refusals[i].fmt, name, m->name);
	die_usage("%s does not apply to %s", name, m->name);
}

/* Options that go together only in some ways. */
static void check_pairs(const struct options *o)
{
	int sweep = o->block.is_sweep || o->regs.is_sweep ||
		    o->smem.is_sweep || o->static_smem.is_sweep;

	if ((o->chart || o->plot) && sweep)
		die_usage("--chart and --plot draw one configuration, not a sweep "
			  "or a compiler report");
	if (o->have_l2 && o->measure)
		die_usage("--persist --measure runs on the device, with its own "
			  "L2 figures: leave out --l2");
	if (o->api && o->gpu)
		die_usage("--api and --measure run on this machine's GPU; --gpu "
			  "names a model (use --device N)");
	/* A trace's cluster launches use it too: no --cluster needed. */
	if (o->layout_text && !o->cluster.n && !o->ptxas &&
	    !o->partition.given && o->mode != MODE_LAUNCHES &&
	    o->mode != MODE_TRACE)
		die_usage("--layout goes with --cluster, --partition, "
			  "--launches or --trace");
	if ((option_given(o, "partition-flags") ||
	     option_given(o, "partition-part")) && !o->partition.given)
		die_usage("--partition-flags and --partition-part go with "
			  "--partition MIN_SMS");
	if (o->trace_calls && o->achieved)
		die_usage("--achieved measures the launches of CUPTI's activity "
			  "records: it does not go with --trace-calls");
	if (o->partition.given && o->measure)
		die_usage("--measure launches on the whole GPU: it does not go "
			  "with --partition (--api asks the driver inside the "
			  "part)");
	if (o->device_all && (o->arch || o->gpu))
		die_usage("--device all runs on each GPU of this machine, with "
			  "its own table: leave out --arch and --gpu");
	if (o->device_all && o->mode != MODE_OCCUPANCY)
		die_usage("--device all goes with an occupancy calculation");
	if (o->chart && o->format != OUT_TEXT)
		die_usage("--chart draws in the text format only (--plot FILE "
			  "writes SVG)");
}

static void check(struct options *o)
{
	int i;

	for (i = 0; i < o->n_given; i++)
		if (!opt_applies(&opts[o->given[i]], o->mode))
			refuse(&opts[o->given[i]], o->mode);
	if (o->measure)
		o->api = 1;
	o->have_block = option_given(o, "block");
	o->regs_given = option_given(o, "regs");
	o->barriers_given = option_given(o, "barriers");
	o->partition.given = option_given(o, "partition");
	check_pairs(o);
}

/* The first "--": --trace's command follows it, and occcalc never reads
 * the command's options as its own. */
static int command_start(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--trace") == 0)
			die_usage("--trace runs the command given after '--': "
				  "occcalc --trace [OPTIONS] -- COMMAND [ARGS...]");
	return argc;
}

/* Parses options up to end (the "--"); what follows is --trace's
 * command, or for the other modes more arguments, as getopt would have
 * taken them. */
static int take_command(int argc, char **argv, int end, struct options *o)
{
	int i;

	if (o->mode == MODE_TRACE) {
		if (optind < end)
			die_usage("unexpected argument '%s' before '--' (the "
				  "command goes after it)", argv[optind]);
		if (end + 1 >= argc)
			die_usage("--trace: no command after '--'");
		o->command = argv + end + 1;
		return optind = argc;
	}
	if (end < argc) {               /* the "--" taken out */
		for (i = end; i + 1 < argc; i++)
			argv[i] = argv[i + 1];
		argv[--argc] = NULL;
	}
	return argc;
}

void options_parse(int argc, char **argv, struct options *o)
{
	struct option longs[OPTS_MAX + 1];
	char shorts[3 * OPTS_MAX + 2];
	const struct mode *selected = NULL;
	int c, i, end;

	defaults(o);
	getopt_tables(longs, shorts);
	opterr = 0;
	end = command_start(argc, argv);
	while ((c = getopt_long(end, argv, shorts, longs, NULL)) != -1) {
		i = opt_index(c);
		if (i < 0 || c == ':')
			bad_option(c, argv);
		if (strcmp(opts[i].name, "help") == 0) {
			/* --help TOPIC as well as --help=TOPIC */
			if (!optarg && optind < end && argv[optind][0] != '-')
				optarg = argv[optind++];
			help_print(stdout, optarg);
			flush_stdout();
			cli_exit(EXIT_SUCCESS);
		}
		if (strcmp(opts[i].name, "completion") == 0) {
			completion_print(stdout, optarg);
			flush_stdout();
			cli_exit(EXIT_SUCCESS);
		}
		if (strcmp(opts[i].name, "version") == 0) {
			printf("occcalc %s\n", OCC_VERSION);
			flush_stdout();
			cli_exit(EXIT_SUCCESS);
		}
		if (opts[i].selects)
			select_mode(&opts[i], o, &selected);
		take(&opts[i], optarg, o);
		record(o, i);
	}
	argc = take_command(argc, argv, end, o);
	/* --kernels a.o b.o, or a shell's glob: the other paths. */
	if (optind < argc && o->ptxas) {
		o->more_kernels = (const char *const *)argv + optind;
		o->n_more_kernels = argc - optind;
		optind = argc;
	}
	if (optind < argc && o->launches) {
		o->more_launches = (const char *const *)argv + optind;
		o->n_more_launches = argc - optind;
		optind = argc;
	}
	if (optind < argc)
		die_usage("unexpected argument '%s' (see --help)", argv[optind]);
	check(o);
}

int option_given(const struct options *o, const char *name)
{
	int i;

	for (i = 0; i < o->n_given; i++)
		if (strcmp(opts[o->given[i]].name, name) == 0)
			return 1;
	return 0;
}

void options_free(struct options *o)
{
	size_t i;

	for (i = 0; i < opts_n; i++)
		if (opts[i].kind == ARG_SEQ || opts[i].kind == ARG_SHAPES)
			seq_free(dest(&opts[i], o));
	seq_free(&o->access.elem);      /* --elem's, an ARG_FN */
	seq_free(&o->access.stride);    /* --stride's, an ARG_FN */
}
