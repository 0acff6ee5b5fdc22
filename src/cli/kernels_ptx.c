/*
 * kernels_ptx.c - a PTX kernel's line under the --kernels text table. PTX
 * in a binary is listed by name; a PTX file also says what its text
 * states (the directives of __launch_bounds__, __maxnreg__, .reqntid, and
 * the .shared its body declares), registers being unknown until ptxas or
 * the driver compiles it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

static size_t put(char *buf, size_t n, size_t at, const char *fmt, int v)
{
	int w;

	if (at >= n)
		return at;
	w = snprintf(buf + at, n - at, fmt, v);
	return w < 0 ? at : at + (size_t)w;
}

void kernels_ptx_line(char *buf, size_t n, const struct kernel_info *k)
{
	size_t at;
	const int *req = kernel_more(k)->req_threads;
	int w = snprintf(buf, n, "%-12s %s", k->arch,
			 k->name ? k->name : k->mangled);

	at = w < 0 ? 0 : (size_t)w;
	if (k->source == OCC_KSRC_PTX) {
		if (at + 2 < n) {
			memcpy(buf + at, ": ", 3);
			at += 2;
		}
		if (k->max_threads > 0)
			at = put(buf, n, at, ".maxntid %d threads, ",
				 k->max_threads);
		if (req[0] > 0)
			at = put(buf, n, at, ".reqntid %d threads, ",
				 req[0] * (req[1] > 0 ? req[1] : 1) *
				 (req[2] > 0 ? req[2] : 1));
		if (k->min_blocks > 0)
			at = put(buf, n, at, ".minnctapersm %d, ", k->min_blocks);
		if (k->max_regs > 0)
			at = put(buf, n, at, ".maxnreg %d, ", k->max_regs);
		if (at < n)
			snprintf(buf + at, n - at, "%lld B of .shared declared; "
				 "registers unknown until compiled",
				 (long long)(k->static_smem > 0 ? k->static_smem
					     : 0));
	}
	at = strlen(buf);
	if (at + 1 < n) {
		buf[at] = '\n';
		buf[at + 1] = '\0';
	}
}
