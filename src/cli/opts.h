/* opts.h - the option table, shared by options.c (which defines it and
 * parses with it) and help.c (which prints --help from it). Internal to
 * the command line. */
#ifndef OCC_OPTS_H
#define OCC_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

enum arg_kind {
	ARG_FLAG,      /* no argument: stores .set in an int */
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

struct opt {
	const char *name;
	int key;               /* the short option, or 0 */
	enum arg_kind kind;
	const char *metavar;
	uint64_t min, max;
	size_t dest;           /* offsetof(struct options, ...) */
	int set;               /* ARG_FLAG */
	const char *def;       /* the default, parsed as the user's would be */
	unsigned modes;        /* the modes that use it */
	int selects;           /* the mode it selects, or -1 */
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

/* --help [TOPIC] on f: the summary without a topic, a topic's options,
 * or 'all' of them; a usage error for a topic that does not exist. */
void help_print(FILE *f, const char *topic);
/* The names of --help's topics, space-separated, into buf. */
void help_topic_names(char *buf, size_t n);
/* --completion bash|zsh: the script, from opts[] (completion.c). */
void completion_print(FILE *f, const char *shell);

#endif
