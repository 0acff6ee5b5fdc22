/*
 * completion.c - occcalc --completion bash|zsh: a shell's completion
 * script, written from the option table, so that every option and every
 * word an option takes (.complete) is in it. The build writes both and
 * make install puts them where bash-completion and zsh look.
 */
#include <string.h>

#include "opts.h"

/* Where an option's argument comes from, for the shells. */
enum source { SRC_NONE, SRC_WORDS, SRC_FILES, SRC_DIRS, SRC_ARCHS,
	      SRC_GPUS };

/* The names occcalc lists for --arch and --gpu, asked of the occcalc
 * being completed ($1: the command as typed). */
#define LIST_ARCHS "--list-archs -f csv,noheader --fields arch"
#define LIST_GPUS "--list-gpus -f csv,noheader --fields name"

static enum source arg_source(const struct opt *op, const char **words,
			      char *topics, size_t n)
{
	*words = op->complete;
	if (op->complete && strcmp(op->complete, "@archs") == 0)
		return SRC_ARCHS;
	if (op->complete && strcmp(op->complete, "@gpus") == 0)
		return SRC_GPUS;
	if (op->complete && strcmp(op->complete, "@topics") == 0) {
		help_topic_names(topics, n);
		*words = topics;
	}
	if (*words)
		return SRC_WORDS;
	if (op->metavar && (strcmp(op->metavar, "FILE") == 0 ||
			    strcmp(op->metavar, "PATH") == 0))
		return SRC_FILES;
	if (op->metavar && strcmp(op->metavar, "DIR") == 0)
		return SRC_DIRS;
	return SRC_NONE;
}

static int takes_arg(const struct opt *op)
{
	return (op->kind != ARG_FLAG && op->kind != ARG_NONE) || op->optional;
}

/* ---- bash ---- */

/* "-a|--arch" */
static void bash_pattern(FILE *f, const struct opt *op)
{
	if (op->key)
		fprintf(f, "-%c|", op->key);
	fprintf(f, "--%s", op->name);
}

static void bash_case(FILE *f, const struct opt *op)
{
	char topics[256];
	const char *words;
	enum source src = arg_source(op, &words, topics, sizeof topics);

	if (src == SRC_NONE)
		return;                /* bash_free_args: one case for them */
	fputs("\t", f);
	bash_pattern(f, op);
	fputs(")\n\t\t", f);
	switch (src) {
	case SRC_WORDS:
		fprintf(f, "COMPREPLY=($(compgen -W '%s' -- \"$cur\"))", words);
		break;
	case SRC_FILES:
	case SRC_DIRS:
		fprintf(f, "compopt -o filenames 2>/dev/null\n\t\tCOMPREPLY=("
			"$(compgen -%c -- \"$cur\"))", src == SRC_FILES ? 'f'
			: 'd');
		break;
	case SRC_ARCHS:
	case SRC_GPUS:
		fprintf(f, "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" "
			"%s 2>/dev/null)\" -- \"$cur\"))",
			src == SRC_ARCHS ? LIST_ARCHS : LIST_GPUS);
		break;
	case SRC_NONE:
		break;
	}
	fputs("\n\t\treturn ;;\n", f);
}

/* The options whose argument is typed, not chosen: nothing offered. */
static void bash_free_args(FILE *f)
{
	char topics[256];
	const char *words;
	size_t i, n = 0;

	for (i = 0; i < opts_n; i++) {
		if (!takes_arg(&opts[i]) || arg_source(&opts[i], &words, topics,
						       sizeof topics) != SRC_NONE)
			continue;
		fputs(n++ % 4 ? "|" : n > 1 ? "|\\\n\t" : "\t", f);
		bash_pattern(f, &opts[i]);
	}
	fputs(")\n\t\tCOMPREPLY=()\n\t\treturn ;;\n", f);
}

static void bash_script(FILE *f)
{
	size_t i;

	fputs("# bash completion for occcalc, written from its option table "
	      "by\n# 'occcalc --completion bash': regenerate, do not edit.\n"
	      "_occcalc()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && "
	      "prev=${COMP_WORDS[COMP_CWORD-1]}\n\tcase $prev in\n", f);
	for (i = 0; i < opts_n; i++)
		if (takes_arg(&opts[i]))
			bash_case(f, &opts[i]);
	bash_free_args(f);
	fputs("\tesac\n\tCOMPREPLY=($(compgen -W '", f);
	for (i = 0; i < opts_n; i++) {
		fprintf(f, "%s--%s", i ? " " : "", opts[i].name);
		if (opts[i].key)
			fprintf(f, " -%c", opts[i].key);
	}
	fputs("' -- \"$cur\"))\n}\ncomplete -F _occcalc occcalc\n", f);
}

/* ---- zsh ---- */

/* The help's first line as an _arguments description, in single quotes:
 * brackets and colons escaped, quotes closed and reopened. */
static void zsh_description(FILE *f, const char *help)
{
	size_t n = strcspn(help, "\n"), i;

	while (n > 0 && strchr(",; ", help[n - 1]))
		n--;
	for (i = 0; i < n; i++) {
		const char *p = help + i;

		if (*p == '\'')
			fputs("'\\''", f);
		else if (*p == '[' || *p == ']' || *p == ':' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else
			fputc(*p, f);
	}
}

static void zsh_action(FILE *f, const struct opt *op)
{
	char topics[256];
	const char *words;
	const char *meta = op->metavar ? op->metavar : "ARG";

	if (strcmp(meta, "[TOPIC]") == 0)
		meta = "TOPIC";
	switch (arg_source(op, &words, topics, sizeof topics)) {
	case SRC_WORDS:
		fprintf(f, ":%s:(%s)", meta, words);
		break;
	case SRC_FILES:
		fprintf(f, ":%s:_files", meta);
		break;
	case SRC_DIRS:
		fprintf(f, ":%s:_files -/", meta);
		break;
	case SRC_ARCHS:
	case SRC_GPUS:
		fprintf(f, ":%s:_occcalc_%s", meta,
			op->complete[1] == 'a' ? "archs" : "gpus");
		break;
	case SRC_NONE:
		fprintf(f, ":%s: ", meta);
		break;
	}
}

static void zsh_spec(FILE *f, const struct opt *op)
{
	int arg = takes_arg(op);

	fputs("\t", f);
	if (op->key)
		fprintf(f, "'(-%c --%s)'{-%c%s,--%s%s}'", op->key, op->name,
			op->key, arg && !op->optional ? "+" : "", op->name,
			arg && !op->optional ? "=" : "");
	else
		fprintf(f, "'--%s%s", op->name,
			arg && !op->optional ? "=" : "");
	fputc('[', f);
	zsh_description(f, op->help);
	fputc(']', f);
	if (op->optional)
		fputc(':', f);         /* '::': the argument may be left out */
	if (arg)
		zsh_action(f, op);
	fputs("' \\\n", f);
}

static void zsh_script(FILE *f)
{
	size_t i;

	fputs("#compdef occcalc\n# zsh completion for occcalc, written from "
	      "its option table by\n# 'occcalc --completion zsh': regenerate, "
	      "do not edit.\n", f);
	fprintf(f, "_occcalc_archs() {\n\tcompadd -- ${(f)\"$(${words[1]} "
		"%s 2>/dev/null)\"}\n}\n", LIST_ARCHS);
	fprintf(f, "_occcalc_gpus() {\n\tcompadd -- ${(f)\"$(${words[1]} "
		"%s 2>/dev/null)\"}\n}\n", LIST_GPUS);
	fputs("_arguments -s -S \\\n", f);
	for (i = 0; i < opts_n; i++)
		zsh_spec(f, &opts[i]);
	fputs("\t&& return 0\n", f);
}

void completion_print(FILE *f, const char *shell)
{
	if (strcmp(shell, "bash") == 0)
		bash_script(f);
	else if (strcmp(shell, "zsh") == 0)
		zsh_script(f);
	else
		die_usage("--completion: '%s': not a shell occcalc completes "
			  "(bash or zsh)", shell);
}
