/*
 * kernel_input_errors.c - inputs that give no kernel, said in one line:
 * the report of a failed compile (the errors nvcc, the host compiler and
 * the tools write: how many, on which lines, the first) rather than read
 * as no kernels, and a binary whose fatbins hold no kernel but something
 * else.
 */
#define _GNU_SOURCE 1  /* memmem */
#include <stdio.h>
#include <string.h>

#include "kernel_input_int.h"

/* The summary nvcc's front end ends with ("1 error detected in the
 * compilation of ..."): it marks a failed build, but is not an error. */
#define ERROR_SUMMARY "error detected in the compilation of"

static int has(const char *line, size_t n, const char *mark)
{
	return memmem(line, n, mark, strlen(mark)) != NULL;
}

/* Lines that say the compile failed: nvcc's front end ("k.cu(12): error:
 * ..."), the host compiler ("k.cpp:3:1: error: ..."), and the tools'
 * "ptxas fatal   : ..." and friends. */
static int compiler_error(const char *line, size_t n)
{
	static const char *const marks[] = {
		"): error", ": error:", ": fatal error:", "ptxas fatal",
		"ptxas error", "nvcc fatal", "nvcc error", "nvlink fatal",
		"nvlink error", "fatbinary fatal", ERROR_SUMMARY
	};
	size_t i;

	for (i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (has(line, n, marks[i]))
			return 1;
	return 0;
}

/* The lines of a failed build the message names; the rest are counted. */
#define ERROR_LINES_NAMED 4

struct build_errors {
	int n, lines;                  /* errors; lines marking a failure */
	int at[ERROR_LINES_NAMED];     /* the first errors' line numbers */
	char first[160];               /* the first error (or summary) */
};

static void note_error(struct build_errors *e, const char *p, size_t n,
		       int line)
{
	int summary = has(p, n, ERROR_SUMMARY);

	if (e->lines++ == 0 || (e->n == 0 && !summary))
		snprintf(e->first, sizeof e->first, "%.*s", (int)n, p);
	if (summary)
		return;
	if (e->n < ERROR_LINES_NAMED)
		e->at[e->n] = line;
	e->n++;
}

/* "line 3", "lines 1, 5 and 9", "lines 1, 2, 3, 4 and 6 more" */
static void error_lines(char *buf, size_t size, const struct build_errors *e)
{
	int i, named = e->n < ERROR_LINES_NAMED ? e->n : ERROR_LINES_NAMED;
	size_t len = (size_t)snprintf(buf, size, "line%s", kin_plural(e->n));

	for (i = 0; i < named && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %d",
					i == 0 ? "" : i + 1 == e->n ? " and"
					: ",", e->at[i]);
	if (e->n > named && len < size)
		snprintf(buf + len, size - len, " and %d more", e->n - named);
}

enum occ_status kin_compiler_errors(struct kin_read *r, const char *text,
				    size_t len)
{
	const char *p = text, *end = text + len, *nl;
	char where[96];
	struct build_errors e;
	int line = 0;

	memset(&e, 0, sizeof e);
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		line++;
		/* A line ends at a NUL too, as C strings do. */
		if (compiler_error(p, strnlen(p, (size_t)(nl - p))))
			note_error(&e, p, strnlen(p, (size_t)(nl - p)), line);
	}
	if (!e.lines)
		return OCC_OK;
	if (e.n == 0)          /* only the summary: it is the one error */
		return kin_fail(r, OCC_ERR_SYNTAX, "%s: the compiler reported "
				"errors (%s): no kernel to read", r->input,
				e.first);
	error_lines(where, sizeof where, &e);
	return kin_fail(r, OCC_ERR_SYNTAX, "%s: the compiler reported %d "
			"error%s (%s%s %s): no kernel to read", r->input, e.n,
			kin_plural(e.n), where, e.n == 1 ? ":" : "; the first:",
			e.first);
}

enum occ_status occ_kernels_none_why(const struct occ_bin_contents *n,
				     const char *input,
				     struct occ_kernels_diag *diag)
{
	memset(diag, 0, sizeof *diag);
	if (n->kernels)
		return OCC_OK;   /* all left out by the caller's choice */
	if (n->ltoir && !n->data_fatbins)
		snprintf(diag->msg, sizeof diag->msg, "%s: no kernel to read: "
			 "its %llu fatbin%s hold%s %llu LTO-IR image%s (nvcc "
			 "-dlto), which is linked and compiled to SASS only when "
			 "the program runs (nvJitLink): no registers or shared "
			 "memory exist before", input,
			 (unsigned long long)n->fatbins,
			 kin_plural((long long)n->fatbins),
			 n->fatbins == 1 ? "s" : "", (unsigned long long)n->ltoir,
			 kin_plural((long long)n->ltoir));
	else if (n->data_fatbins)
		snprintf(diag->msg, sizeof diag->msg, "%s: no kernel in the "
			 "fatbins the CUDA runtime registers (%llu, .nv_fatbin); "
			 "%llu more fatbins lie in its other sections, outside "
			 "what the runtime registers: occcalc does not read "
			 "those", input, (unsigned long long)n->fatbins,
			 (unsigned long long)n->data_fatbins);
	else
		return OCC_OK;
	return OCC_ERR_UNSUPPORTED;
}
