/*
 * cli.c - fuzzing the whole command line, in process: the input is an
 * argument vector (split on NUL bytes if it holds any, so that arguments
 * may hold newlines; else one argument a line), run through the CLI's
 * cli_run() as occcalc's main() runs it, and judged as a user would:
 *   - the exit status is 0, 1 or 2;
 *   - on failure, stderr is exactly one error line starting "occcalc: ",
 *     after "occcalc: warning: " lines where the run said some first
 *     (with --check, a line per failing row, then the count);
 *   - on success, stderr holds only "occcalc: " lines (warnings);
 *   - CSV output says nothing that cannot be: a percentage outside
 *     0-100, a negative number, nan or inf, more warps than the SM has,
 *     or an occupancy that is not the active warps over the SM's.
 *
 * The seam: the CLI ends a run through cli_exit() (src/cli/msg.h), which
 * the program defines as exit() (src/cli/occcalc.c) and this harness as a
 * longjmp back here; what the run holds is in struct cli, which
 * cli_free() releases either way. Standard output and error are memory
 * streams for the run (glibc's stdout and stderr are assignable), so a
 * sanitizer's report, written to the real descriptor 2, still shows.
 *
 * Each run happens in a scratch directory of its own holding the files a
 * command may name: ptxas.txt, multi.txt, cuobjdump.txt (reports from
 * t/fixtures), trace.jsonl and kineto.json (t/fixtures/launches), fifo
 * (a FIFO no process writes or reads), dir, and tables (a copy of
 * data/arch-tables). An argument holding '/', or
 * ending in ".." (the parent, alone or as an option's value), is not
 * run, so nothing outside that directory is ever written or read (a
 * walk of the parent read whatever the machine's /tmp held, for longer
 * than a run may take), nor one that sweeps more than MAX_ROWS
 * configurations (signed lists and ranges, --stride -4MB:2, counted
 * too: t/fuzz-repro/cli/stride-sweep-4M-rows, 4,194,305 rows, was
 * reported as a 12 s timeout); the reports are restored and anything a
 * run created is removed after each run. Nor is --trace: it runs the
 * command that follows it.
 * Standard input holds the sm_90 report.
 */
#include <dirent.h>
#include <fcntl.h>
#include <strings.h>
#include <getopt.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "cli.h"

#ifndef FUZZ_SRCDIR
#error "FUZZ_SRCDIR: the source tree, for the fixtures and the tables"
#endif

#define MAX_ARGS 64

static jmp_buf *exit_to;
static int exit_status;

_Noreturn void cli_exit(int status)
{
	exit_status = status;
	longjmp(*exit_to, 1);
}

/* ---- The scratch directory ---- */

static const struct fixture {
	const char *name, *from;
} fixtures[] = {
	{ "ptxas.txt", "t/fixtures/ptxas-sm90.txt" },
	{ "multi.txt", "t/fixtures/ptxas-multi.txt" },
	{ "cuobjdump.txt", "t/fixtures/cuobjdump-sm90.txt" },
	{ "trace.jsonl", "t/fixtures/launches/small.jsonl" },
	{ "kineto.json", "t/fixtures/launches/kineto.json" },
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

static struct {
	char dir[256];
	int home;              /* the directory the harness was started in */
	char *text[NFIXTURES];
	size_t len[NFIXTURES];
} scratch;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	if (!f) {
		perror(path);
		abort();
	}
	*len = 0;
	do {
		if (*len == cap && !(buf = realloc(buf, cap = cap * 2 + 4096)))
			abort();
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

static void copy_tables(void)
{
	const char *src = FUZZ_SRCDIR "/data/arch-tables";
	DIR *d = opendir(src);
	struct dirent *e;
	char from[4096], to[512];
	size_t len;

	if (!d || mkdir("tables", 0777) != 0)
		abort();
	while ((e = readdir(d)) != NULL) {
		char *text;

		if (e->d_name[0] == '.')
			continue;
		snprintf(from, sizeof from, "%s/%s", src, e->d_name);
		snprintf(to, sizeof to, "tables/%s", e->d_name);
		text = slurp(from, &len);
		spit(to, text, len);
		free(text);
	}
	closedir(d);
}

/* The scratch directory removed, at exit. */
static void scratch_remove(void)
{
	DIR *d;
	struct dirent *e;
	char path[512];

	if (chdir(scratch.dir) != 0)
		return;
	if ((d = opendir("tables")) != NULL) {
		while ((e = readdir(d)) != NULL) {
			snprintf(path, sizeof path, "tables/%s", e->d_name);
			if (e->d_name[0] != '.')
				unlink(path);
		}
		closedir(d);
	}
	rmdir("tables");
	rmdir("dir");
	unlink("fifo");
	if ((d = opendir(".")) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.' || e->d_name[1] > '.')
				unlink(e->d_name);
		closedir(d);
	}
	if (chdir("/") == 0)
		rmdir(scratch.dir);
}

static void scratch_make(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	size_t i;

	snprintf(scratch.dir, sizeof scratch.dir, "%s/occcalc-fuzz-cli.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	scratch.home = open(".", O_RDONLY | O_DIRECTORY);
	if (scratch.home < 0 || !mkdtemp(scratch.dir) || chdir(scratch.dir) != 0)
		abort();
	for (i = 0; i < NFIXTURES; i++) {
		snprintf(path, sizeof path, "%s/%s", FUZZ_SRCDIR,
			 fixtures[i].from);
		scratch.text[i] = slurp(path, &scratch.len[i]);
	}
	if (mkfifo("fifo", 0666) != 0 || mkdir("dir", 0777) != 0)
		abort();
	copy_tables();
	snprintf(path, sizeof path, "%s/tables", scratch.dir);
	setenv("OCCCALC_TABLES", path, 1);
	atexit(scratch_remove);
	if (fchdir(scratch.home) != 0)
		abort();
}

static int kept(const char *name)
{
	size_t i;

	for (i = 0; i < NFIXTURES; i++)
		if (strcmp(name, fixtures[i].name) == 0)
			return 1;
	return strcmp(name, "fifo") == 0 || strcmp(name, "dir") == 0 ||
	       strcmp(name, "tables") == 0;
}

/* The reports as they were; whatever a run wrote (--plot) removed. */
static void scratch_reset(void)
{
	DIR *d = opendir(".");
	struct dirent *e;
	size_t i;

	if (!d)
		abort();
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !kept(e->d_name) && unlink(e->d_name) != 0)
			abort();
	closedir(d);
	for (i = 0; i < NFIXTURES; i++)
		spit(fixtures[i].name, scratch.text[i], scratch.len[i]);
}

/* ---- The argument vector ---- */

static int names_parent(const char *arg)
{
	size_t n = strlen(arg);

	return n >= 2 && strcmp(arg + n - 2, "..") == 0;
}

/* Splits buf (NUL-terminated at len) in place; 0 if it is not run. */
static int split(char *buf, size_t len, char **argv)
{
	char sep = memchr(buf, '\0', len) ? '\0' : '\n';
	char *p = buf, *end = buf + len, *q;
	int argc = 0;

	argv[argc++] = "occcalc";
	while (p < end) {
		q = memchr(p, sep, (size_t)(end - p));
		if (!q)
			q = end;
		*q = '\0';
		if (strchr(p, '/') || names_parent(p) || argc == MAX_ARGS ||
		    strcmp(p, "--trace") == 0)
			return 0;
		argv[argc++] = p;
		p = q + 1;
	}
	argv[argc] = NULL;
	return argc;
}

/* A sweep as long as it is asked to be is an answer, not a hang, and a
 * run cannot be cut short in process: command lines whose arguments, read
 * as lists and ranges, multiply to more than MAX_ROWS values are not run
 * (the campaign, t/campaign.sh, runs such sweeps with a cap on output). */
#define MAX_ROWS 64

/* One number of a signed list (--stride -4MB:2,-1): its value, or 0
 * when it is none. */
static int signed_value(const char *s, size_t len, __int128 *v)
{
	char buf[64];
	struct seq q;
	struct seq_iter it;
	int neg = len && s[0] == '-';

	if (len - neg == 0 || len - neg >= sizeof buf)
		return 0;
	memcpy(buf, s + neg, len - neg);
	buf[len - neg] = '\0';
	if (occ_seq_parse(buf, 0, UINT64_MAX, 0, &q, NULL, NULL) != OCC_OK)
		return 0;
	if (seq_count(&q) != 1 || !seq_first(&it, &q)) {
		seq_free(&q);
		return 0;
	}
	*v = neg ? -(__int128)it.value : (__int128)it.value;
	seq_free(&q);
	return 1;
}

/* How many values s holds as a list of signed numbers and rising ranges
 * (A:B, A:B:STEP), as --stride takes them; 1 if it is none. */
static uint64_t signed_values(const char *s)
{
	__int128 part[3], total = 0;
	const char *item = s, *end, *p, *colon;
	int k;

	for (; *item; item = *end ? end + 1 : end) {
		end = item + strcspn(item, ",");
		part[2] = 1;
		for (k = 0, p = item; k < 3 && p <= end; k++, p = colon + 1) {
			colon = memchr(p, ':', (size_t)(end - p));
			if (!colon)
				colon = end;
			if (!signed_value(p, (size_t)(colon - p), &part[k]))
				return 1;
			if (colon == end)
				break;
		}
		if (k == 0)
			total += 1;
		else if (part[2] > 0 && part[1] >= part[0])
			total += (part[1] - part[0]) / part[2] + 1;
		if (total > UINT32_MAX)
			return UINT32_MAX;
	}
	return total ? (uint64_t)total : 1;
}

/* How many values s holds as a list or range (1 if it is none). */
static uint64_t values(const char *s)
{
	struct seq q;
	uint64_t n;

	if (occ_seq_parse(s, 0, UINT64_MAX, OCC_SEQ_SHAPES, &q, NULL,
			  NULL) != OCC_OK)
		return signed_values(s);
	n = seq_count(&q);
	seq_free(&q);
	return n;
}

/* An argument, or the value joined to its option: -b64:1024, -ab1:99,
 * --block=1:1024. */
static uint64_t arg_values(const char *a)
{
	uint64_t most = values(a), n;
	const char *p;

	if (a[0] == '-' && a[1] != '-')
		for (p = a + 1; *p; p++)
			if ((n = values(p + 1)) > most)
				most = n;
	if (a[0] == '-' && a[1] == '-' && (p = strchr(a, '=')) != NULL &&
	    (n = values(p + 1)) > most)
		most = n;
	return most;
}

static int too_long(char *const *argv)
{
	uint64_t rows = 1, n;

	for (argv++; *argv; argv++) {
		n = arg_values(*argv);
		if (n > MAX_ROWS || (rows *= n) > MAX_ROWS)
			return 1;
	}
	return 0;
}

/* ---- The run ---- */

struct outcome {
	int status;
	char *out, *err;
	size_t out_len, err_len;
};

static void run(int argc, char **argv, struct outcome *r)
{
	FILE *saved_out = stdout, *saved_err = stderr, *saved_in = stdin;
	jmp_buf here;
	struct cli c;

	stdout = open_memstream(&r->out, &r->out_len);
	stderr = open_memstream(&r->err, &r->err_len);
	stdin = fmemopen(scratch.text[0], scratch.len[0], "r");
	if (!stdout || !stderr || !stdin)
		abort();
	optind = 0;     /* getopt_long starts afresh */
	exit_to = &here;
	cli_init(&c);
	if (setjmp(here) == 0)
		r->status = cli_run(&c, argc, argv);
	else
		r->status = exit_status;
	cli_free(&c);
	fclose(stdout);
	fclose(stderr);
	fclose(stdin);
	stdout = saved_out;
	stderr = saved_err;
	stdin = saved_in;
}

/* ---- Judging it ---- */

/* Whether an argument holds s: a message may quote it back. */
static int typed(char *const *argv, const char *s)
{
	for (; *argv; argv++)
		if (strstr(*argv, s))
			return 1;
	return 0;
}

static void check_messages(char *const *argv, const struct outcome *r)
{
	const char *p;

	FUZZ_CHECK(r->status >= 0 && r->status <= 2, "exit status %d",
		   r->status);
	FUZZ_CHECK(!strstr(r->err, "internal error") || typed(argv, "internal"),
		   "%s", r->err);
	/* --check: a line per failing row, then the count, exit 1. */
	if (r->status == 1 && strstr(r->err, "occcalc: --check: ") &&
	    (typed(argv, "--check") || typed(argv, "--check-file"))) {
		for (p = r->err; p < r->err + r->err_len; p = strchr(p, '\n') + 1)
			FUZZ_CHECK(strncmp(p, "occcalc: ", 9) == 0 &&
				   strchr(p, '\n'), "--check says '%s'", p);
		return;
	}
	/* A failure is one error line, after the warnings that went before
	 * it (what a trace read up to there said: cut short, launches left
	 * out). */
	if (r->status != 0) {
		const char *last = r->err;

		FUZZ_CHECK(r->err_len > 9 && r->err[r->err_len - 1] == '\n',
			   "exit %d, and no line on stderr", r->status);
		for (p = r->err; p < r->err + r->err_len - 1;
		     p = strchr(p, '\n') + 1) {
			FUZZ_CHECK(strncmp(p, "occcalc: ", 9) == 0, "exit %d, "
				   "and stderr says '%s'", r->status, p);
			last = p;
		}
		for (p = r->err; p < last; p = strchr(p, '\n') + 1)
			FUZZ_CHECK(strncmp(p, "occcalc: warning: ", 18) == 0,
				   "exit %d, and more than one error: '%s'",
				   r->status, r->err);
		FUZZ_CHECK(strncmp(last, "occcalc: warning: ", 18) != 0,
			   "exit %d, and no error line: '%s'", r->status,
			   r->err);
		return;
	}
	for (p = r->err; p < r->err + r->err_len; p = strchr(p, '\n') + 1)
		FUZZ_CHECK(strncmp(p, "occcalc: ", 9) == 0 && strchr(p, '\n'),
			   "exit 0, and stderr says '%s'", p);
}

/* One CSV line's cells, unquoted, in place (line NUL-terminated). */
static size_t csv_cells(char *line, char **cell, size_t max)
{
	size_t n = 0;
	char *p = line, *w;

	while (n < max) {
		cell[n++] = w = p;
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
				*w++ = *p == '"' ? *++p : *p;
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ',')
				*w++ = *p++;
		}
		if (*p != ',') {
			*w = '\0';
			break;
		}
		*w = '\0';
		p++;
	}
	return n;
}

static int is_name_list(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == ','))
			return 0;
	return 1;
}

static int column(char **head, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(head[i], name) == 0)
			return (int)i;
	return -1;
}

static int number(char **cell, size_t n, int col, double *v)
{
	char *end;

	if (col < 0 || (size_t)col >= n || !cell[col][0])
		return 0;
	*v = strtod(cell[col], &end);
	return *end == '\0';
}

static void check_row(char **head, char **cell, size_t n)
{
	double w, m, occ;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *c = cell[i], *h = head[i];
		size_t hl = strlen(h);

		if (strcmp(h, "kernel") == 0 || strcmp(h, "mangled") == 0)
			continue;
		/* --stride takes either sign */
		FUZZ_CHECK(!(c[0] == '-' && c[1] >= '0' && c[1] <= '9') ||
			   strcmp(h, "stride") == 0, "%s is negative: %s", h,
			   c);
		FUZZ_CHECK(strcasecmp(c, "nan") && strcasecmp(c, "inf") &&
			   strcasecmp(c, "-nan") && strcasecmp(c, "-inf"),
			   "%s is %s", h, c);
		if (hl > 4 && strcmp(h + hl - 4, "_pct") == 0 && c[0])
			FUZZ_CHECK(strtod(c, NULL) >= 0 && strtod(c, NULL) <= 100,
				   "%s is %s", h, c);
	}
	if (number(cell, n, column(head, n, "warps_per_sm"), &w) &&
	    number(cell, n, column(head, n, "max_warps_per_sm"), &m)) {
		FUZZ_CHECK(w <= m, "%g warps of %g", w, m);
		if (m > 0 && number(cell, n, column(head, n, "occupancy_pct"),
				    &occ))
			FUZZ_CHECK(occ - 100 * w / m < 0.0051 &&
				   100 * w / m - occ < 0.0051,
				   "occupancy %g%% for %g warps of %g", occ, w, m);
	}
}

/* A CSV table (a header of field names, rows as wide): its numbers. */
static void check_csv(const struct outcome *r)
{
	char *text, *line, *save = NULL, *head[MAX_FIELDS + 1],
	     *cell[MAX_FIELDS + 1];
	size_t n, nh;

	if (r->status != 0 || !r->out_len)
		return;
	text = fuzz_string((const uint8_t *)r->out, r->out_len);
	line = strtok_r(text, "\n", &save);
	if (!line || !strchr(line, ',') || !is_name_list(line)) {
		free(text);
		return;
	}
	nh = csv_cells(line, head, MAX_FIELDS + 1);
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		n = csv_cells(line, cell, MAX_FIELDS + 1);
		if (n == nh)
			check_row(head, cell, n);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 1];
	struct outcome r = { 0 };
	int argc;

	if (!scratch.dir[0])
		scratch_make();
	buf = fuzz_string(data, size);
	argc = split(buf, size, argv);
	if (argc > 0 && !too_long(argv)) {
		if (chdir(scratch.dir) != 0)
			abort();
		run(argc, argv, &r);
		scratch_reset();
		if (fchdir(scratch.home) != 0)
			abort();
		check_messages(argv, &r);
		check_csv(&r);
	}
	free(r.out);
	free(r.err);
	free(buf);
	return 0;
}
