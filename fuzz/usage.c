/*
 * usage.c - fuzzing the compiler-report reader (ptxas and cuobjdump
 * output). Every kernel it reports must be within the domain the header
 * promises, and a kernel written back as a report must read the same.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "occcalc.h"

static void check_domain(const struct occ_usage *u)
{
	FUZZ_CHECK(u->regs >= 0 && u->regs <= 1024, "regs %d", u->regs);
	FUZZ_CHECK(u->barriers >= -1 &&
		   u->barriers <= OCC_MAX_BARRIERS_PER_BLOCK,
		   "barriers %d", u->barriers);
	FUZZ_CHECK(u->static_smem <= OCC_BYTES_MAX, "smem %" PRIu64,
		   u->static_smem);
	FUZZ_CHECK(u->cc_major > 0 && u->cc_minor >= 0 && u->cc_minor <= 9,
		   "compute capability %d.%d", u->cc_major, u->cc_minor);
	FUZZ_CHECK(memchr(u->mangled, '\0', sizeof u->mangled) != NULL,
		   "an unterminated name");
	FUZZ_CHECK(u->line > 0, "a kernel without a line");
}

/* Names as compilers write them: the round trip is exact for those. */
static int plain_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '$' ||
		      *s == '.'))
			return 0;
	return 1;
}

static void write_report(FILE *f, const struct occ_usage *u)
{
	if (u->from_cuobjdump) {
		fprintf(f, "arch = sm_%d%d\n Function %s:\n  REG:%d STACK:%"
			PRIu64 " SHARED:%" PRIu64 " LOCAL:0\n", u->cc_major,
			u->cc_minor, u->mangled, u->regs, u->stack,
			u->static_smem);
		return;
	}
	fprintf(f, "ptxas info    : Compiling entry function '%s' for "
		"'sm_%d%d'\nptxas info    : Function properties for %s\n"
		"    %" PRIu64 " bytes stack frame, %" PRIu64 " bytes spill "
		"stores, %" PRIu64 " bytes spill loads\nptxas info    : Used "
		"%d registers", u->mangled, u->cc_major, u->cc_minor,
		u->mangled, u->stack, u->spill_stores, u->spill_loads,
		u->regs);
	if (u->barriers >= 0)
		fprintf(f, ", used %d barriers", u->barriers);
	fprintf(f, ", %" PRIu64 " bytes smem, 8 bytes cmem[0]\n",
		u->static_smem);
}

static int keep_first(const struct occ_usage *u, void *ctx)
{
	struct occ_usage *copy = ctx;

	*copy = *u;
	return 1;
}

static void check_round_trip(const struct occ_usage *u)
{
	struct occ_usage back;
	struct occ_diag d;
	char *text = NULL;
	size_t len = 0;
	int fn_status;
	FILE *f;

	if (!plain_name(u->mangled) || u->cc_major > 99)
		return;
	f = open_memstream(&text, &len);
	write_report(f, u);
	fclose(f);
	f = fmemopen(text, len, "r");
	FUZZ_CHECK(occ_usage_parse(f, "again", keep_first, &back, &fn_status,
				   &d) == OCC_OK && fn_status == 1,
		   "a kernel's own report is refused at line %d:\n%s", d.line,
		   text);
	fclose(f);
	free(text);
	FUZZ_CHECK(strcmp(back.mangled, u->mangled) == 0 &&
		   back.cc_major == u->cc_major &&
		   back.cc_minor == u->cc_minor && back.regs == u->regs &&
		   back.static_smem == u->static_smem &&
		   back.barriers == u->barriers && back.stack == u->stack &&
		   (u->from_cuobjdump ||
		    (back.spill_stores == u->spill_stores &&
		     back.spill_loads == u->spill_loads)),
		   "a kernel reads back differently from its report");
}

static int each_kernel(const struct occ_usage *u, void *ctx)
{
	(void)ctx;
	check_domain(u);
	check_round_trip(u);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_diag d;
	enum occ_status st;
	int fn_status;
	FILE *f = fuzz_stream(data, size);

	if (!f)
		return 0;
	st = occ_usage_parse(f, "fuzz.txt", each_kernel, NULL, &fn_status, &d);
	fclose(f);
	FUZZ_CHECK(st == OCC_OK || strcmp(d.file, "fuzz.txt") == 0,
		   "a refusal that names no file");
	FUZZ_CHECK(st != OCC_ERR_RANGE || d.key[0], "a range error naming "
		   "no figure");
	return 0;
}
