/*
 * traffic_text.c - --traffic's text read into accesses: --define's names
 * and the launch's (blockDim, gridDim) given to the library's reader,
 * --elem's sizes per array, and the messages that refuse an index,
 * listing the forms it may take.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* --elem NAME=BYTES,...: the sizes, a bare BYTES for the arrays not
 * named (4 without it). */
static void named_sizes(struct occ_kernel_text *k, const char *arg)
{
	char buf[512], *tok, *save = NULL, *eq;
	int a;

	if (strlen(arg) >= sizeof buf)
		die_usage("--elem: longer than %zu characters", sizeof buf - 1);
	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!strchr(tok, '='))
			for (a = 0; a < k->n_arrays; a++)
				occ_kernel_set_elem(k, k->names[a], (int)
					arg_number("elem", tok, 1, 16));
	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!(eq = strchr(tok, '=')))
			continue;
		*eq = '\0';
		if (!occ_kernel_set_elem(k, tok, (int)arg_number("elem", eq + 1,
								  1, 16)))
			die_usage("--elem: '%s': the accesses have no array "
				  "'%s'", arg, tok);
	}
}

/* The forms an index may take, for the message that refuses one. */
#define FORMS "an index is an affine expression in the thread's index i " \
	"(i+c, i-c, c-i, i*k, k*i+c, (i^m), i/g) and in threadIdx.x/y/z, " \
	"blockDim.x/y/z, blockIdx and gridDim .x/y/z (as --grid has), " \
	"with integer constants, names given by --define N=4096 or defined " \
	"first ('int row = blockIdx.y*blockDim.y + threadIdx.y; " \
	"a[row*N + threadIdx.x]')"

/* The length of the plain name (not CUDA's: no '.') at s, or 0. */
static size_t name_len(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return s[n] == '.' || s[n] == '[' ? 0 : n;
}

/* The text, with --define's names and the launch's (its block shape,
 * or none for a thread count); then --elem's named sizes. */
void traffic_parse(struct occ_kernel_text *k,
		   const struct occ_kernel_env *names, const char *text,
		   const char *elems, const uint64_t *grid, uint64_t block,
		   const uint16_t *dim)
{
	struct occ_kernel_env env = *names;
	size_t at;
	enum occ_status st;

	if (grid[0]) {
		env.grid_dim = grid[0];
		env.grid_yz[0] = grid[1];
		env.grid_yz[1] = grid[2];
		env.block_dim[0] = dim && dim[0] ? dim[0] : block;
		env.block_dim[1] = dim && dim[1] ? dim[1] : 1;
		env.block_dim[2] = dim && dim[2] ? dim[2] : 1;
	}
	st = occ_kernel_parse_env(text, &env, k, &at);

	if (st == OCC_ERR_DUPLICATE_KEY)
		die_usage("--traffic: '%s': '%.*s' at character %zu: a name is "
			  "defined once, and not CUDA's (threadIdx, blockIdx, "
			  "blockDim, gridDim, warpSize) or --define's", text,
			  (int)name_len(text + at), text + at, at + 1);
	if (st == OCC_ERR_SYNTAX && text[at] == '=')
		die_usage("--traffic: '%s': the '=' at character %zu assigns "
			  "nothing, or to nothing", text, at + 1);
	if (st == OCC_ERR_SYNTAX && text[at] == '0' &&
	    (text[at + 1] == 'x' || text[at + 1] == 'X'))
		die_usage("--traffic: '%s': '%.*s' at character %zu: hex "
			  "constants are not taken (write it in decimal)",
			  text, (int)strspn(text + at, "0123456789abcdefABCDEFxX"),
			  text + at, at + 1);
	if (st == OCC_ERR_SYNTAX && k->n == 0 && at == 0)
		die_usage("--traffic: '%s': no access NAME[INDEX]", text);
	if (st == OCC_ERR_SYNTAX && !text[at])
		die_usage("--traffic: '%s': ends at character %zu, inside an "
			  "access", text, at);
	if (st == OCC_ERR_SYNTAX && grid[0] &&
	    (strncmp(text + at, "blockIdx.", 9) == 0 ||
	     strncmp(text + at, "gridDim.", 8) == 0) &&
	    strchr("yz", text[at + (text[at] == 'b' ? 9 : 8)]))
		die_usage("--traffic: '%s': '%.*s' at character %zu: the grid has "
			  "no %c dimension (--grid 64 is one-dimensional: give "
			  "--grid 64x64, or 64x64x4)", text,
			  text[at] == 'b' ? 10 : 9, text + at, at + 1,
			  text[at + (text[at] == 'b' ? 9 : 8)]);
	if (!grid[0] && k->uses_builtins)
		die_usage("--traffic: '%s': threadIdx, blockIdx, blockDim and "
			  "gridDim need a launch of blocks: --grid and --block, "
			  "not --count", text);
	if (st == OCC_ERR_SYNTAX && name_len(text + at) &&
	    (strlen(k->index_name) != name_len(text + at) ||
	     strncmp(k->index_name, text + at, name_len(text + at))))
		die_usage("--traffic: '%s': '%.*s' at character %zu is not the "
			  "name the text gives the thread's index first, nor "
			  "defined (--define %.*s=N): %s", text,
			  (int)name_len(text + at), text + at, at + 1,
			  (int)name_len(text + at), text + at, FORMS);
	if (st == OCC_ERR_SYNTAX)
		die_usage("--traffic: '%s': not understood at character %zu "
			  "('%s'): %s", text, at + 1, text + at, FORMS);
	if (st == OCC_ERR_RANGE)
		die_usage("--traffic: character %zu: parentheses and signs "
			  "nested more than %d deep", at + 1,
			  OCC_MAX_KERNEL_NESTING);
	if (st != OCC_OK)
		die_usage("--traffic: '%s': out of range at character %zu ('%s')"
			  ": a constant or factor over 64 bits, a divisor not a "
			  "power of two up to 32, an XOR over 31, a name over 31 "
			  "characters, or over %d accesses, %d arrays or 16 "
			  "definitions", text, at + 1, text + at,
			  OCC_MAX_KERNEL_ACCESSES, OCC_MAX_KERNEL_ARRAYS);
	if (elems)
		named_sizes(k, elems);
}

/* --define NAME=N,...: integers of either sign. */
void traffic_defines(struct occ_kernel_env *env, const char *arg)
{
	char buf[512], *tok, *save = NULL, *eq, *end;
	long long v;

	if (strlen(arg) >= sizeof buf)
		die_usage("--define: longer than %zu characters", sizeof buf - 1);
	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			die_usage("--define: '%s': NAME=INTEGER, as N=4096", tok);
		*eq = '\0';
		errno = 0;
		v = strtoll(eq + 1, &end, 10);
		if (eq[1] == '\0' || *end || isspace((unsigned char)eq[1]))
			die_usage("--define: '%s=%s': not an integer", tok,
				  eq + 1);
		if (errno == ERANGE)
			die_usage("--define: '%s=%s': beyond 64 bits", tok,
				  eq + 1);
		if (!occ_kernel_env_define(env, tok, v))
			die_usage("--define: '%s': a name is a C identifier of "
				  "up to 31 characters, not CUDA's, given once "
				  "(%d at most)", tok, OCC_MAX_KERNEL_NAMES);
	}
}
