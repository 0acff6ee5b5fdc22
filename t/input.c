/*
 * input.c - hostile data files: compiler reports, tables and the GPU list
 * with figures out of range, signs, overlong lines, NUL bytes, and files
 * that are not regular files. Each is refused with a status that names the
 * line, and for a figure the limit it broke; none is read as a number.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "occcalc.h"
#include "util.h"

static int kernels_seen, last_regs, last_barriers;
static uint64_t last_smem;

static int count_kernel(const struct occ_usage *u, void *ctx)
{
	(void)ctx;
	kernels_seen++;
	last_regs = u->regs;
	last_barriers = u->barriers;
	last_smem = u->static_smem;
	return 0;
}

static const char entry[] =
	"ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n";

/* Parses n bytes of text as a report; *d says where it stopped. */
static enum occ_status report_n(const char *text, size_t n,
				struct occ_diag *d)
{
	FILE *f = fmemopen((void *)text, n, "r");
	enum occ_status st;
	int fn_status;

	kernels_seen = 0;
	memset(d, 0, sizeof *d);
	st = occ_usage_parse(f, "r.txt", count_kernel, NULL, &fn_status, d);
	fclose(f);
	return st;
}

static enum occ_status report(const char *text, struct occ_diag *d)
{
	return report_n(text, strlen(text), d);
}

/* A ptxas report of one kernel whose usage line is `used`. */
static enum occ_status ptxas(const char *used, struct occ_diag *d)
{
	char text[512];

	snprintf(text, sizeof text, "%sptxas info    : %s\n", entry, used);
	return report(text, d);
}

static enum occ_status cuobjdump(const char *usage, struct occ_diag *d)
{
	char text[512];

	snprintf(text, sizeof text, "arch = sm_90\n Function _Z1kPf:\n%s\n",
		 usage);
	return report(text, d);
}

static int range_at(enum occ_status st, const struct occ_diag *d, int line,
		    const char *key, uint64_t limit)
{
	return st == OCC_ERR_RANGE && d->line == line &&
	       strcmp(d->key, key) == 0 && d->limit == limit &&
	       strcmp(d->file, "r.txt") == 0 && kernels_seen == 0;
}

static void test_report_ranges(void)
{
	struct occ_diag d;
	enum occ_status st;

	st = ptxas("Used 40 registers, used 1 barriers, 4096 bytes smem", &d);
	tap_ok(st == OCC_OK && kernels_seen == 1 && last_regs == 40 &&
	       last_barriers == 1 && last_smem == 4096,
	       "a well-formed ptxas usage line reads as written");
	st = ptxas("Used 4294967336 registers, used 1 barriers", &d);
	tap_ok(range_at(st, &d, 2, "registers", 1024),
	       "ptxas: 4294967336 registers is out of range at line 2 "
	       "(limit 1024), not 40");
	st = ptxas("Used 99999999999999999999999 registers", &d);
	tap_ok(range_at(st, &d, 2, "registers", 1024),
	       "ptxas: a register count beyond 64 bits is out of range");
	st = ptxas("Used 40 registers, used 4294967296 barriers", &d);
	tap_ok(range_at(st, &d, 2, "barriers", OCC_MAX_BARRIERS_PER_BLOCK),
	       "ptxas: 4294967296 barriers is out of range (limit 16), not 0");
	st = ptxas("Used 40 registers, used 2147483648 barriers", &d);
	tap_ok(range_at(st, &d, 2, "barriers", OCC_MAX_BARRIERS_PER_BLOCK),
	       "ptxas: 2^31 barriers is out of range, not 'not reported'");
	st = ptxas("Used 40 registers, used 17 barriers", &d);
	tap_ok(range_at(st, &d, 2, "barriers", OCC_MAX_BARRIERS_PER_BLOCK),
	       "ptxas: 17 barriers is out of range, not taken as 16");
	st = ptxas("Used 40 registers, 281474976710656 bytes smem", &d);
	tap_ok(range_at(st, &d, 2, "shared memory", OCC_BYTES_MAX),
	       "ptxas: 2^48 bytes of shared memory is out of range "
	       "(limit OCC_BYTES_MAX)");
	st = cuobjdump("  REG:4294967336 STACK:0 SHARED:0 LOCAL:0", &d);
	tap_ok(range_at(st, &d, 3, "registers", 1024),
	       "cuobjdump: REG:4294967336 is out of range at line 3");
	st = cuobjdump("  REG:40 STACK:0 SHARED:281474976710656 LOCAL:0", &d);
	tap_ok(range_at(st, &d, 3, "shared memory", OCC_BYTES_MAX),
	       "cuobjdump: SHARED:2^48 is out of range");
}

static int syntax_at(enum occ_status st, const struct occ_diag *d, int line)
{
	return st == OCC_ERR_SYNTAX && d->line == line && kernels_seen == 0;
}

static void test_report_signs(void)
{
	struct occ_diag d;
	enum occ_status st;

	st = ptxas("Used 40 registers, -40 bytes smem", &d);
	tap_ok(syntax_at(st, &d, 2), "ptxas: '-40 bytes smem' is refused, "
	       "not read as 0");
	st = ptxas("Used 40 registers, +40 bytes smem", &d);
	tap_ok(syntax_at(st, &d, 2), "ptxas: '+40 bytes smem' is refused");
	st = ptxas("Used -40 registers", &d);
	tap_ok(syntax_at(st, &d, 2), "ptxas: '-40 registers' is refused");
	st = ptxas("Used 40 registers, used -1 barriers", &d);
	tap_ok(syntax_at(st, &d, 2), "ptxas: '-1 barriers' is refused");
	st = ptxas("Used 40 registers, Used 50 registers", &d);
	tap_ok(syntax_at(st, &d, 2), "ptxas: registers given twice on a line "
	       "are refused");
	st = cuobjdump("  REG:-40 STACK:0 SHARED:0 LOCAL:0", &d);
	tap_ok(syntax_at(st, &d, 3), "cuobjdump: REG:-40 is refused");
	st = cuobjdump("  REG:40 STACK:0 SHARED:-1024 LOCAL:0", &d);
	tap_ok(syntax_at(st, &d, 3), "cuobjdump: SHARED:-1024 is refused");
	st = cuobjdump("  REG:40 STACK:0 SHARED:+1024 LOCAL:0", &d);
	tap_ok(syntax_at(st, &d, 3), "cuobjdump: SHARED:+1024 is refused");
	st = report("ptxas info    : Compiling entry function '_Z1kPf' for "
		    "'sm_90'\nptxas info    : Function properties for _Z1kPf\n"
		    "    -8 bytes stack frame, 0 bytes spill stores, 0 bytes "
		    "spill loads\nptxas info    : Used 40 registers\n", &d);
	tap_ok(syntax_at(st, &d, 3), "ptxas: a negative stack frame is "
	       "refused");
	st = report(" Function _Z1kPf:\n  REG:40 STACK:0 SHARED:0 LOCAL:0\n",
		    &d);
	tap_ok(syntax_at(st, &d, 1), "cuobjdump: a kernel before any 'arch =' "
	       "line is refused, not compiled for 0.0");
}

static void test_report_lines(void)
{
	struct occ_diag d;
	enum occ_status st;
	size_t n = 9000;
	char *text = malloc(n + 256), name[2100];

	/* A line past the buffer: its tail is not a usage line of its own. */
	memcpy(text, entry, sizeof entry - 1);
	memset(text + sizeof entry - 1, 'x', n);
	strcpy(text + sizeof entry - 1 + n,
	       " Used 40 registers\nptxas info    : Used 40 registers\n");
	st = report(text, &d);
	tap_ok(st == OCC_ERR_LINE_TOO_LONG && d.line == 2 && d.limit == 8191 &&
	       kernels_seen == 0,
	       "a report line of 9000 characters is refused at its line "
	       "(limit 8191), its tail not read");
	free(text);
	{
		static const char nul[] = "ptxas info    : Compiling entry "
			"function '_Z1kPf' for 'sm_90'\nptxas info    : Used "
			"4\0000 registers\n";

		st = report_n(nul, sizeof nul - 1, &d);
	}
	tap_ok(st == OCC_ERR_SYNTAX && d.line == 2 && kernels_seen == 0,
	       "a report whose usage line is cut by a NUL byte is refused");
	memset(name, 'k', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	text = malloc(4096);
	snprintf(text, 4096, "arch = sm_90\n Function %s:\n  REG:40 STACK:0 "
		 "SHARED:0 LOCAL:0\n", name);
	st = report(text, &d);
	tap_ok(st == OCC_ERR_RANGE && d.line == 2 && d.limit == 2047 &&
	       kernels_seen == 0,
	       "a kernel name of 2099 characters is refused, not truncated");
	free(text);
}

static char dir[] = "/tmp/occcalc-input.XXXXXX";

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static void test_not_regular(void)
{
	char fifo[256], sub[256];
	struct occ_tables *t = NULL;
	struct occ_arch a;
	struct occ_gpu g;
	struct occ_diag d;
	int fn_status;
	enum occ_status st;

	snprintf(fifo, sizeof fifo, "%s/sm_90.arch", dir);
	if (mkfifo(fifo, 0600) != 0) {
		printf("Bail out! mkfifo: %s\n", strerror(errno));
		exit(1);
	}
	st = occ_tables_load(dir, &t, &d);
	tap_ok(st == OCC_ERR_NOT_REGULAR && strcmp(d.file, fifo) == 0 && !t,
	       "a FIFO named *.arch in the table directory is refused, not "
	       "read (no hang)");
	st = occ_usage_parse_file(fifo, count_kernel, NULL, &fn_status, &d);
	tap_ok(st == OCC_ERR_NOT_REGULAR && strcmp(d.file, fifo) == 0,
	       "a FIFO given as a compiler report is refused (no hang)");
	st = occ_gpu_find(fifo, "H100", &g, &d);
	tap_ok(st == OCC_ERR_NOT_REGULAR, "a FIFO as the GPU list is refused");
	unlink(fifo);
	snprintf(sub, sizeof sub, "%s/sm_90.arch", dir);
	mkdir(sub, 0700);
	st = occ_arch_load(sub, &a, &d);
	tap_ok(st == OCC_ERR_NOT_REGULAR, "a directory as a table is refused");
	rmdir(sub);
	st = occ_usage_parse_file("/dev/null", count_kernel, NULL, &fn_status,
				  &d);
	tap_ok(st == OCC_ERR_NOT_REGULAR, "a device (/dev/null) as a report is "
	       "refused");
	snprintf(sub, sizeof sub, "%s/absent", dir);
	errno = 0;
	st = occ_usage_parse_file(sub, count_kernel, NULL, &fn_status, &d);
	tap_ok(st == OCC_ERR_IO && errno == ENOENT,
	       "a missing report: OCC_ERR_IO, errno ENOENT");
}

/* The shipped sm_120 table with fewer barriers per SM than a block may
 * use: such a block could never run, and the model could not say why. */
static void test_barrier_floor(const char *path)
{
	char src[512], line[1100];
	const char *tables = getenv("OCCCALC_TABLES");
	FILE *in, *out;
	struct occ_arch a;
	struct occ_diag d;
	enum occ_status st;

	snprintf(src, sizeof src, "%s/sm_120.arch", tables ? tables : ".");
	in = fopen(src, "r");
	out = fopen(path, "w");
	if (!in || !out) {
		printf("Bail out! cannot copy %s\n", src);
		exit(1);
	}
	while (fgets(line, sizeof line, in))
		fputs(strncmp(line, "maxBarriersPerMultiprocessor", 28) == 0
		      ? "maxBarriersPerMultiprocessor = 12\n" : line, out);
	fclose(in);
	fclose(out);
	st = occ_arch_load(path, &a, &d);
	tap_ok(st == OCC_ERR_BAD_VALUE &&
	       strcmp(d.key, "maxBarriersPerMultiprocessor") == 0,
	       "a table with 12 barriers per SM (below the 16 a block may use) "
	       "is refused");
	unlink(path);
}

static void test_data_lines(void)
{
	char path[256], *text = malloc(4096);
	struct occ_gpu g;
	struct occ_arch a;
	struct occ_diag d;
	enum occ_status st;

	/* The tail of the long line would be a GPU of its own. */
	memset(text, 'x', 2000);
	strcpy(text + 2000, " H100X 9.0 132 tail\n");
	write_file("gpus.txt", "# name cc sms source\n");
	snprintf(path, sizeof path, "%s/gpus.txt", dir);
	{
		FILE *f = fopen(path, "a");

		fputs("H100 9.0 132 datasheet\n", f);
		fputs(text, f);
		fclose(f);
	}
	st = occ_gpu_find(path, "H100X", &g, &d);
	tap_ok(st == OCC_ERR_LINE_TOO_LONG && d.line == 3 && d.limit == 1023,
	       "gpus.txt: a 2000-character line is refused at line 3 (limit "
	       "1023), its tail not read as a GPU");
	st = occ_gpu_find(path, "H100", &g, &d);
	tap_ok(st == OCC_ERR_LINE_TOO_LONG && d.line == 3,
	       "gpus.txt: a list with a bad line is refused whole, even for a "
	       "GPU listed before it");
	write_file("gpus.txt", "H100 9.0 +132 datasheet\n");
	st = occ_gpu_find(path, "H100", &g, &d);
	tap_ok(st == OCC_ERR_SYNTAX && d.line == 1,
	       "gpus.txt: a signed SM count is refused");
	memcpy(text, "H100 9.0 132 ", 13);
	memset(text + 13, 's', 300);
	strcpy(text + 313, "\n");
	write_file("gpus.txt", text);
	st = occ_gpu_find(path, "H100", &g, &d);
	tap_ok(st == OCC_ERR_SYNTAX && d.line == 1,
	       "gpus.txt: a source of 300 characters is refused, not cut short");
	memcpy(text, "warpSize = 32 #", 15);
	memset(text + 15, 'x', 1100);
	strcpy(text + 1115, "\n");
	write_file("t.arch", text);
	snprintf(path, sizeof path, "%s/t.arch", dir);
	st = occ_arch_load(path, &a, &d);
	tap_ok(st == OCC_ERR_LINE_TOO_LONG && d.line == 1 && d.limit == 1023,
	       "a table line of 1115 characters is refused, even in a comment");
	unlink(path);
	test_barrier_floor(path);
	snprintf(path, sizeof path, "%s/gpus.txt", dir);
	unlink(path);
	free(text);
}

static void test_size_junk(void)
{
	uint64_t v;

	tap_ok(occ_parse_size("18446744073709551616x", &v) == OCC_PARSE_SYNTAX &&
	       occ_parse_size("18446744073709551616", &v) == OCC_PARSE_RANGE &&
	       occ_parse_size("17592186044416M", &v) == OCC_PARSE_RANGE &&
	       occ_parse_size("17592186044415M", &v) == OCC_PARSE_OK &&
	       v == UINT64_C(17592186044415) << 20,
	       "sizes: no size is told before too large a one; 2^64 and 2^44 "
	       "MiB are too large, one MiB less is not");
}

/* Decimal sizes, as NVIDIA writes cache sizes: exact or refused. */
static void test_size_decimal(void)
{
	uint64_t v = 0, w = 0;

	tap_ok(occ_parse_size_decimal("31.25M", &v) == OCC_PARSE_OK &&
	       v == 32768000 && occ_parse_size_decimal("1.5K", &w) ==
	       OCC_PARSE_OK && w == 1536,
	       "decimal sizes: 31.25M is 32768000 bytes, 1.5K is 1536");
	tap_ok(occ_parse_size_decimal("50M", &v) == OCC_PARSE_OK &&
	       v == 52428800 && occ_parse_size_decimal("7", &w) ==
	       OCC_PARSE_OK && w == 7,
	       "decimal sizes: whole sizes read as occ_parse_size reads them");
	tap_ok(occ_parse_size_decimal("0.1K", &v) == OCC_PARSE_FRACTION &&
	       occ_parse_size_decimal("1.5", &v) == OCC_PARSE_FRACTION &&
	       occ_parse_size_decimal("0.000000001M", &v) ==
	       OCC_PARSE_FRACTION,
	       "decimal sizes: 0.1K (102.4 B), 1.5 and 0.000000001M are not "
	       "whole bytes");
	tap_ok(occ_parse_size_decimal("1.", &v) == OCC_PARSE_SYNTAX &&
	       occ_parse_size_decimal(".5M", &v) == OCC_PARSE_SYNTAX &&
	       occ_parse_size_decimal("1.5.5M", &v) == OCC_PARSE_SYNTAX &&
	       occ_parse_size_decimal("0.0000000001M", &v) ==
	       OCC_PARSE_SYNTAX && occ_parse_size_decimal("1.5X", &v) ==
	       OCC_PARSE_SYNTAX,
	       "decimal sizes: no digits on a side of the point, two points, "
	       "ten decimals or another suffix are not sizes");
	tap_ok(occ_parse_size_decimal("17592186044415.5M", &v) ==
	       OCC_PARSE_OK && v == (UINT64_C(17592186044415) << 20) +
	       (1 << 19) && occ_parse_size_decimal("17592186044416.5M", &v) ==
	       OCC_PARSE_RANGE,
	       "decimal sizes: just below 2^64 reads, just above is too large");
}

/* The GPU list's 'l2' lines and unknown SM counts. */
static void test_gpu_l2(void)
{
	char path[4200];
	struct occ_gpu g;
	struct occ_diag d;

	write_file("gpus.txt", "X1 9.0 - a source\n"
		   "l2 X1 50M 31.25M 128M measured\n");
	snprintf(path, sizeof path, "%s/gpus.txt", dir);
	tap_ok(occ_gpu_find(path, "X1", &g, &d) == OCC_OK && g.sms == 0 &&
	       g.l2_size == 52428800 && g.l2_persisting_max == 32768000 &&
	       g.l2_window_max == 134217728 &&
	       strcmp(g.l2_source, "measured") == 0,
	       "gpus.txt: SMS '-' is not known (0); an l2 line gives the L2, "
	       "set-aside, window and source");
	write_file("gpus.txt", "X1 9.0 8 a\nl2 X1 6M - - whitepaper\n");
	tap_ok(occ_gpu_find(path, "X1", &g, &d) == OCC_OK &&
	       g.l2_size == 6291456 && !g.l2_persisting_max &&
	       !g.l2_window_max,
	       "gpus.txt: '-' for a set-aside and window not known");
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	tap_plan(42);
	test_report_ranges();
	test_report_signs();
	test_report_lines();
	test_not_regular();
	test_data_lines();
	test_size_junk();
	test_size_decimal();
	test_gpu_l2();
	rmdir(dir);
	return tap_done();
}
