/*
 * mode_kernels.c - --ptxas FILE: the occupancy of each kernel of a
 * compiler report ('nvcc -Xptxas -v' or 'cuobjdump --dump-resource-usage'
 * output), with its registers, static shared memory and barriers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct report {
	struct occ_run run;
	const char *input;
	int filter_major, filter_minor;  /* --arch, or -1 */
	int rows;
	struct occ_usage no_table;       /* a kernel without a table */
};

static int report_kernel(const struct occ_usage *u, void *ctx)
{
	struct report *rep = ctx;
	struct session *s = rep->run.s;
	const struct occ_arch *a = occ_tables_find(session_tables(s),
						    u->cc_major, u->cc_minor);
	struct occ_kernel k;
	char *name;

	if (rep->filter_major >= 0 && (u->cc_major != rep->filter_major ||
				       u->cc_minor != rep->filter_minor))
		return 0;
	/* Reported once the reader has closed the file. */
	if (!a) {
		rep->no_table = *u;
		return 1;
	}
	occ_run_kernel_defaults(s->o, &k);
	k.regs_per_thread = u->regs;
	k.static_smem = u->static_smem;
	/* From 9.0 the cubin counts the driver's reserve as the kernel's own;
	 * the model adds it, so take it out (cudaFuncGetAttributes does too). */
	if (u->from_cuobjdump && a->cubin_smem_includes_reserved &&
	    k.static_smem >= a->smem_reserved_per_block)
		k.static_smem -= a->smem_reserved_per_block;
	/* The report's barrier count is the kernel's (the reader refuses
	 * more than a block can have); cuobjdump gives none. */
	if (u->barriers >= 0 && !s->o->barriers_given)
		k.barriers = u->barriers;
	name = demangle(u->mangled);
	rep->run.usage = u;
	rep->run.kernel = name ? name : u->mangled;
	occ_run_blocks(&rep->run, a, &s->o->block, &k);
	free(name);
	rep->rows++;
	return 0;
}

/* Pipes (--ptxas <(nvcc ...)) are read as standard input. */
#define PIPE_HINT "; read a pipe as standard input: --ptxas -"

static void read_failed(enum occ_status st, const struct occ_diag *d)
{
	if (st == OCC_ERR_SYNTAX && d->line == 0)
		die("%s: no kernel resource usage found (expected 'nvcc -Xptxas "
		    "-v' or 'cuobjdump --dump-resource-usage' output)", d->file);
	if (st == OCC_ERR_SYNTAX)
		die("%s:%d: malformed or truncated resource usage", d->file,
		    d->line);
	if (st == OCC_ERR_NOT_REGULAR)
		die("%s: not a regular file%s", d->file, PIPE_HINT);
	die_data(st, d, errno, "");
}

int mode_kernels(struct session *s)
{
	const struct options *o = s->o;
	int from_stdin = strcmp(o->ptxas, "-") == 0;
	struct report rep = { .input = from_stdin ? "<stdin>" : o->ptxas,
			      .filter_major = -1, .filter_minor = -1 };
	const struct occ_usage *u = &rep.no_table;
	struct occ_diag d;
	enum occ_status st;
	int fn_status;

	if (o->arch && occ_arch_parse_name(o->arch, &rep.filter_major,
					   &rep.filter_minor) != OCC_OK)
		die_usage("--arch: '%s': not an architecture (try sm_90, 90 "
			  "or 9.0)", o->arch);
	occ_run_open(&rep.run, s, 1, 1);
	errno = 0;
	if (from_stdin)
		st = occ_usage_parse(stdin, rep.input, report_kernel, &rep,
				     &fn_status, &d);
	else
		st = occ_usage_parse_file(o->ptxas, report_kernel, &rep,
					  &fn_status, &d);
	if (st != OCC_OK)
		read_failed(st, &d);
	if (fn_status)
		die("%s:%d: kernel %s is compiled for compute capability %d.%d, "
		    "which has no table", rep.input, u->line, u->mangled,
		    u->cc_major, u->cc_minor);
	if (rep.rows == 0)
		die("%s: no kernel compiled for --arch %s", rep.input,
		    o->arch ? o->arch : "");
	occ_run_close(&rep.run);
	return 0;
}
