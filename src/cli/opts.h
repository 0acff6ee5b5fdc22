/* opts.h - the option table, defined in opts_table.c and shared by
 * options.c (which parses and checks with it), help.c and completion.c
 * (which print from it). Internal to the command line. */
#ifndef OCC_OPTS_H
#define OCC_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

enum arg_kind {
	ARG_FLAG,      /* no argument: stores .set in an int */
	ARG_NONE,      /* no argument, nothing stored: selects its mode, or
			* acts at once (--help, --version) */
	ARG_SEQ,       /* numbers: a list or range within [min, max] */
	ARG_SHAPES,    /* the same, or block shapes: 16x16, 8x8x4 */
	ARG_NUM,       /* one number within [min, max] */
	ARG_STR,       /* a name or a file */
	ARG_FN         /* parsed by .parse */
};

/* --help's topics: each option names the one it is listed under
 * (help.c's topics[] says what each holds). */
enum topic { T_UNSET,          /* an option that names none: "other" */
	     T_KERNEL, T_LAUNCH, T_KERNELS, T_OUTPUT, T_CI, T_GPU, T_ACCESS,
	     T_TRAFFIC, T_PERSIST, T_LAUNCHES, T_TRACE, T_INFO, T_COUNT };

/* Groups of options, for the messages that refuse them. */
#define G_OCC 1u       /* describe a kernel's occupancy */
#define G_GPU 2u       /* --api, --measure */
#define G_CHART 4u
#define G_ACCESS 8u    /* describe an access pattern */
#define G_PERSIST 16u  /* describe a persistence plan */
#define G_TRAFFIC 32u  /* describe a launch's traffic */

/* The modes an option applies to: those it lists, or every one, or
 * those that read something in the tables' directory (--tables). */
enum opt_reach { REACH_LISTED, REACH_ALL, REACH_TABLES };
#define OPT_MODES 8

struct opt {
	const char *name;
	int key;               /* the short option, or 0 */
	enum arg_kind kind;
	const char *metavar;
	uint64_t min, max;
	size_t dest;           /* offsetof(struct options, ...) */
	int set;               /* ARG_FLAG */
	const char *def;       /* the default, parsed as the user's would be */
	enum opt_reach reach;
	const struct mode *modes[OPT_MODES];  /* REACH_LISTED's */
	const struct mode *selects;           /* the mode it selects, or NULL */
	unsigned groups;
	arg_parse parse;       /* ARG_FN */
	enum topic topic;      /* where --help lists it */
	/* What a shell completes its argument with: words, or @archs,
	 * @gpus, @topics (asked of occcalc); files for a FILE or PATH,
	 * directories for a DIR; else nothing. */
	const char *complete;
	int optional;          /* its argument may be left out (--help) */
	const char *help;
};

extern const struct opt opts[];
extern const size_t opts_n;
#define OPTS_MAX 128           /* opts_n's bound, for getopt's tables */

/* Whether op applies to mode m. */
int opt_applies(const struct opt *op, const struct mode *m);

/* --help [TOPIC] on f: the summary without a topic, a topic's options,
 * or 'all' of them; a usage error for a topic that does not exist. */
void help_print(FILE *f, const char *topic);
/* The names of --help's topics, space-separated, into buf. */
void help_topic_names(char *buf, size_t n);
/* --completion bash|zsh: the script, from opts[] (completion.c). */
void completion_print(FILE *f, const char *shell);

#endif
