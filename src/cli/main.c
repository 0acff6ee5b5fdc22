/*
 * main.c - occcalc, the command line: parse the options, pick the mode,
 * run it, flush. Each mode is one file with one entry point (modes[]);
 * options are defined in options.c, output fields beside each mode.
 * All messages for the user go through here, prefixed "occcalc:".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

#define EXIT_USAGE 2

static const struct mode {
	enum mode_id id;
	int (*exec)(struct session *s);
	int tables;            /* reads the architecture tables first */
} modes[] = {
	{ MODE_OCCUPANCY, mode_occupancy, 1 },
	{ MODE_KERNELS, mode_kernels, 1 },
	{ MODE_ACCESS, mode_access, 1 },
	{ MODE_PERSIST, mode_persist, 1 },
	{ MODE_INFO, mode_info, 1 },
	{ MODE_LIST_ARCHS, mode_list_archs, 1 },
	{ MODE_LIST_GPUS, mode_list_gpus, 0 },
	{ MODE_LIST_DEVICES, mode_list_devices, 0 },
	{ MODE_LIST_FIELDS, mode_list_fields, 0 },
	{ MODE_TRAFFIC, mode_traffic, 1 },
};

/* Every message to the user: one line on stderr, then exit. */
static _Noreturn void vdie(int status, const char *fmt, va_list ap)
{
	fputs("occcalc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

_Noreturn void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
}

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

	fputs("occcalc: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void say(const char *fmt, ...)
{
	va_list ap;

	fputs("occcalc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Without --arch the device gives the SM count; with it, something must. */
static void check_grid(const struct options *o)
{
	if (o->grid && !o->sms && (o->arch || o->ptxas) && !o->api &&
	    o->mode != MODE_TRAFFIC)
		die_usage("--grid needs the GPU's SM count: --sms N or --gpu "
			  "NAME");
}

int main(int argc, char **argv)
{
	struct options o;
	struct session s = { 0 };
	const struct mode *m = NULL;
	size_t i;
	int status;

	options_parse(argc, argv, &o);
	s.o = &o;
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (modes[i].id == o.mode)
			m = &modes[i];
	session_apply_gpu(&s);
	check_grid(&o);
	if (m->tables)
		session_tables(&s);
	status = m->exec(&s);
	flush_stdout();
	gpu_ctx_release(&s.gpu);
	if (s.tables)
		occ_tables_free(s.tables);
	options_free(&o);
	return status;
}
