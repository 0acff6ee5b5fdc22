/*
 * help.c - --help, from the option table: a summary that fits a screen
 * (each topic and its options' names), --help TOPIC with one topic's
 * options and their help, --help all with every topic. The man page is
 * the complete reference.
 */
#include <string.h>

#include "opts.h"

static const struct topic_help {
	const char *name;
	const char *heading;   /* --help TOPIC and --help all */
	const char *summary;   /* --help */
	const char *note;      /* after its options, or NULL */
} topics[T_COUNT] = {
	/* A new option lands here until it names its topic (t/cli.sh
	 * fails while any does). */
	[T_UNSET] = { "other", "Other options:", "not yet in a topic",
		NULL },
	[T_KERNEL] = { "kernel", "The kernel:", "the kernel's resources",
		"  --block, --regs, --smem and --static-smem take a list "
		"(64,128,256) or a\n  range START:END[:STEP]; every "
		"combination is evaluated, one row each." },
	[T_LAUNCH] = { "launch", "The GPU and the launch:", "the GPU, "
		"grid, clusters", NULL },
	[T_KERNELS] = { "kernels", "Kernels of a binary or a compiler report:",
		"code", NULL },
	[T_OUTPUT] = { "output", "Output:", "formats and fields",
		NULL },
	[T_CI] = { "ci", "Budgets and builds compared (in CI):", "budgets, "
		"builds compared", NULL },
	[T_GPU] = { "gpu", "On the GPU (no --arch, or the device's own):",
		"the runtime's answers and measurement", NULL },
	[T_ACCESS] = { "access", "Global memory, one warp instruction "
		"(instead of occupancy):", "sectors of one warp's access",
		NULL },
	[T_TRAFFIC] = { "traffic", "Global memory, a whole launch:", "a "
		"launch's traffic by level", NULL },
	[T_PERSIST] = { "persist", "L2 persistence:", "L2 persistence plans",
		NULL },
	[T_LAUNCHES] = { "launches", "A program's kernel launches, as it "
		"ran them, from its traces:", "traces", NULL },
	[T_TRACE] = { "trace", "A program run and traced:", "a run",
		NULL },
	[T_INFO] = { "info", "Tables, lists and this program:", "tables, "
		"lists, help", NULL },
};


/* The help's left column is this wide; longer option names wrap. */
#define HELP_COL 27
#define HELP_WIDTH 78

static void print_option(FILE *f, const struct opt *op)
{
	const char *p, *nl;
	char left[64];

	snprintf(left, sizeof left, "  %c%c%s--%s%s%s",
		 op->key ? '-' : ' ', op->key ? op->key : ' ',
		 op->key ? ", " : "  ", op->name,
		 op->metavar && strncmp(op->metavar, "[=", 2) != 0 ? " " : "",
		 op->metavar ? op->metavar : "");
	fprintf(f, "%-*s", HELP_COL, left);
	if (strlen(left) > HELP_COL - 1)
		fprintf(f, "\n%*s", HELP_COL, "");
	for (p = op->help; (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - p), p, HELP_COL, "");
	fprintf(f, "%s\n", p);
}

static void print_topic(FILE *f, enum topic t)
{
	size_t i;

	fprintf(f, "%s\n", topics[t].heading);
	for (i = 0; i < opts_n; i++)
		if (opts[i].topic == t)
			print_option(f, &opts[i]);
	if (topics[t].note)
		fprintf(f, "\n%s\n", topics[t].note);
}

/* "  kernel    the kernel's resources: --arch --device ...", wrapped
 * under the summary. */
static void print_summary_line(FILE *f, enum topic t)
{
	size_t i, col;

	col = (size_t)fprintf(f, "  %-9s %s:", topics[t].name,
			      topics[t].summary);
	for (i = 0; i < opts_n; i++) {
		if (opts[i].topic != t)
			continue;
		if (col + 3 + strlen(opts[i].name) > HELP_WIDTH)
			col = (size_t)fprintf(f, "\n%11s", "") - 1;
		col += (size_t)fprintf(f, " --%s", opts[i].name);
	}
	fputc('\n', f);
}

static void print_usage(FILE *f)
{
	fputs("Usage: occcalc --arch ARCH [--block N] [OPTION]...\n"
	      "       occcalc --arch ARCH --traffic TEXT --grid N --block N\n"
	      "       occcalc --arch ARCH --info\n"
	      "       occcalc --list-archs\n"
	      "Theoretical occupancy of a CUDA kernel on one streaming "
	      "multiprocessor.\n\n", f);
}

/* Whether some option is listed under t ("other" usually is not). */
static int topic_used(int t)
{
	size_t i;

	for (i = 0; i < opts_n; i++)
		if ((int)opts[i].topic == t)
			return 1;
	return 0;
}

static _Noreturn void unknown_topic(const char *name)
{
	struct nearest nr;
	char near[128];
	int t;

	nearest_init(&nr, name, strlen(name));
	for (t = 0; t < T_COUNT; t++)
		if (topic_used(t))
			nearest_offer(&nr, topics[t].name);
	nearest_offer(&nr, "all");
	/* Only names a typo away, or the list. */
	while (nr.n && nr.dist[nr.n - 1] > 2)
		nr.n--;
	if (!nr.n) {
		help_topic_names(near, sizeof near);
		die_usage("--help: '%s': no such topic or option; the topics: %s",
			  name, near);
	}
	nearest_text(&nr, near, sizeof near);
	die_usage("--help: '%s': no such topic; did you mean %s? (--help "
		  "lists them)", name, near);
}

/* --help OPTION (grid, --grid): the topic that lists it, or -1. */
static int option_topic(const char *name)
{
	size_t i;

	name += strspn(name, "-");
	for (i = 0; i < opts_n; i++)
		if (opts[i].name && opts[i].help &&
		    strcmp(opts[i].name, name) == 0)
			return (int)opts[i].topic;
	return -1;
}

void help_topic_names(char *buf, size_t n)
{
	size_t len = 0;
	int t;

	buf[0] = '\0';
	for (t = 0; t < T_COUNT && len < n; t++)
		if (topic_used(t))
			len += (size_t)snprintf(buf + len, n - len, "%s ",
						topics[t].name);
	if (len < n)
		snprintf(buf + len, n - len, "all");
}

/* The topic named, T_COUNT for 'all', or a usage error. */
static int find_topic(const char *name)
{
	int t;

	if (strcmp(name, "all") == 0)
		return T_COUNT;
	for (t = 0; t < T_COUNT; t++)
		if (topic_used(t) && strcmp(name, topics[t].name) == 0)
			return t;
	if ((t = option_topic(name)) >= 0)
		return t;
	unknown_topic(name);
}

void help_print(FILE *f, const char *name)
{
	int t, printed = 0, only = name ? find_topic(name) : -1;

	print_usage(f);
	if (only < 0) {
		fputs("Options by topic; 'occcalc --help TOPIC' explains a "
		      "topic's, '--help all'\nevery one, and man occcalc "
		      "all of it.\n\n", f);
		for (t = 0; t < T_COUNT; t++)
			if (topic_used(t))
				print_summary_line(f, (enum topic)t);
	}
	for (t = 0; t < T_COUNT && only >= 0; t++) {
		if ((only != T_COUNT && only != t) || !topic_used(t))
			continue;
		fputs(printed++ ? "\n" : "", f);
		print_topic(f, (enum topic)t);
	}
	fputs("\nExit status: 0 success, 1 failure (an error, or no "
	      "configuration can launch),\n2 usage error.\n", f);
}
