/*
 * check.c - --check EXPR and --check-file FILE: budgets a run's rows must
 * keep, for CI. Each expression is parsed against the fields of the kind
 * of row the mode prints (a malformed one is a usage error naming its
 * column), judged on every row as it is written, and a row that fails is
 * said on stderr with the comparisons that fail and their values. With
 * any check given, the checks alone decide the exit status: 1 if a row
 * failed one, else 0.
 *
 * A comparison whose field a row does not have (null in JSON) decides
 * nothing; && || ! then follow three-valued logic (false && unknown is
 * false, true || unknown is true), and a row whose check stays undecided
 * passes, counted in a warning that names the field. 'FIELD == none'
 * asks for absence itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* --check-file is a few budgets, not a data set. */
#define CHECK_FILE_MAX (UINT64_C(1) << 20)

struct check_item {
	const char *text;
	char where[300];           /* "--check" or "FILE:LINE" */
	int have_re;
	regex_t re;                /* --check-file: the kernels it is for */
	uint64_t matched, decided;
	char absent[64];           /* a field absent where undecided */
	struct occ_check *e;
};

/* The fields that name a row in a message, those of its kind that are
 * there (a launch's correlation id tells it from the kernel's others). */
#define N_IDS 9

struct check_set {
	const struct occ_row_kind *kind;
	struct check_item *items;
	size_t n;
	char *file_text;           /* --check-file's, which items point into */
	const struct occ_field *kernel, *mangled;
	const struct occ_field *id[N_IDS]; /* what names a row in a message */
	/* The files --kernels read: a row names its file where there are
	 * several (a directory's libraries may hold kernels of one name). */
	const size_t *files;
	uint64_t rows, failed, undecided;
	char undecided_field[64];
};

void check_free(struct check_set *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		occ_check_free(c->items[i].e);
		if (c->items[i].have_re)
			regfree(&c->items[i].re);
	}
	free(c->items);
	free(c->file_text);
	free(c);
}

static struct check_item *add_item(struct check_set *c, const char *text)
{
	struct check_item *it = realloc(c->items, (c->n + 1) * sizeof *it);

	if (!it)
		die("out of memory");
	c->items = it;
	it = &c->items[c->n++];
	memset(it, 0, sizeof *it);
	it->text = text;
	return it;
}

static void compile(struct check_set *c, struct check_item *it)
{
	struct occ_check_error err;
	enum occ_status st = occ_check_parse(it->text, c->kind, &it->e, &err);

	if (st == OCC_ERR_NOMEM)
		die("out of memory");
	if (st != OCC_OK)
		die_usage("%s '%s': column %zu: %s", it->where, it->text,
			  err.column, err.msg);
}

/* ---- Small text files (--check-file, --compare's JSON) ---- */

char *text_file_load(const char *path, uint64_t max, size_t *len, char *err,
		     size_t n)
{
	struct stat sb;
	char *buf = NULL;
	size_t got = 0;
	ssize_t r = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &sb) != 0) {
		snprintf(err, n, "cannot read: %s", strerror(errno));
	} else if (!S_ISREG(sb.st_mode)) {
		snprintf(err, n, "not a regular file");
	} else if ((uint64_t)sb.st_size > max) {
		snprintf(err, n, "larger than %llu bytes",
			 (unsigned long long)max);
	} else if (!(buf = malloc((size_t)sb.st_size + 1))) {
		snprintf(err, n, "too large to read into memory");
	} else {
		while (got < (size_t)sb.st_size &&
		       ((r = read(fd, buf + got, (size_t)sb.st_size - got)) > 0
			|| (r < 0 && errno == EINTR)))
			got += r > 0 ? (size_t)r : 0;
		if (r < 0) {
			snprintf(err, n, "cannot read: %s", strerror(errno));
			free(buf);
			buf = NULL;
		} else {
			buf[got] = '\0';
			*len = got;
		}
	}
	if (fd >= 0)
		close(fd);
	return buf;
}

char *text_file_read(const char *path, uint64_t max, size_t *len)
{
	char err[256], *text = text_file_load(path, max, len, err, sizeof err);

	if (!text)
		die("%s: %s", path, err);
	return text;
}

/* ---- --check-file: 'REGEX: EXPR' a line ---- */

static void file_line(struct check_set *c, const char *path, int line,
		      char *text)
{
	char *colon = strrchr(text, ':'), *re = text, *end;
	struct check_item *it;
	int st;

	while (*re == ' ' || *re == '\t')
		re++;
	if (!*re || *re == '#')
		return;
	if (!colon)
		die_usage("%s:%d: expected 'REGEX: EXPR' (a kernel name pattern, "
			  "a colon, a check)", path, line);
	for (end = colon; end > re && (end[-1] == ' ' || end[-1] == '\t');)
		end--;
	*end = '\0';
	for (colon++; *colon == ' ' || *colon == '\t'; colon++)
		;
	it = add_item(c, colon);
	snprintf(it->where, sizeof it->where, "%s:%d", path, line);
	if ((st = regcomp(&it->re, re, REG_EXTENDED | REG_NOSUB)) != 0) {
		char why[128];

		regerror(st, &it->re, why, sizeof why);
		die_usage("%s:%d: '%s': not a regular expression: %s", path,
			  line, re, why);
	}
	it->have_re = 1;
	compile(c, it);
}

static void read_check_file(struct check_set *c, const char *path)
{
	size_t len, i, start;
	int line = 1;
	char *t;

	c->file_text = text_file_read(path, CHECK_FILE_MAX, &len);
	t = c->file_text;
	if (memchr(t, '\0', len))
		die("%s: not a text file (it holds a NUL byte)", path);
	for (start = i = 0; i <= len; i++) {
		if (i < len && t[i] != '\n')
			continue;
		t[i] = '\0';
		if (i > start && t[i - 1] == '\r')
			t[i - 1] = '\0';
		file_line(c, path, line++, t + start);
		start = i + 1;
	}
}

/* ---- Attaching to a writer ---- */

static struct check_set *checks_make(struct session *s,
				     const struct occ_row_kind *kind)
{
	static const char *const ids[N_IDS] = { "gpu", "arch", "block",
		"kernel", "file", "device", "name", "op", "correlation" };
	const struct options *o = s->o;
	struct check_set *c = calloc(1, sizeof *c);
	size_t i, n = 0;

	if (!c)
		die("out of memory");
	s->checks = c;
	s->status_by_check = 1;     /* the checks decide the exit status */
	c->kind = kind;
	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		c->id[n] = occ_field_find(kind, ids[i], strlen(ids[i]));
		if (c->id[n])
			n++;
	}
	c->files = &s->kernels.nfiles;
	c->kernel = occ_field_find(kind, "kernel", strlen("kernel"));
	c->mangled = occ_field_find(kind, "mangled", strlen("mangled"));
	for (i = 0; i < (size_t)o->n_check; i++) {
		struct check_item *it = add_item(c, o->check[i]);

		snprintf(it->where, sizeof it->where, "--check");
		compile(c, it);
	}
	if (o->check_file) {
		if (!c->kernel)
			die_usage("--check-file: its budgets are per kernel; %s "
				  "rows have no kernel field", kind->name);
		read_check_file(c, o->check_file);
	}
	return c;
}

void check_prepare(struct session *s, const struct occ_row_kind *kind)
{
	if (!s->o->n_check && !s->o->check_file)
		return;
	if (!s->checks)
		checks_make(s, kind);
	else if (s->checks->kind != kind)
		die_usage("--check: the run prints %s rows and %s rows; check "
			  "one kind", s->checks->kind->name, kind->name);
}

void check_attach(struct session *s, struct out *out,
		  const struct occ_row_kind *kind)
{
	check_prepare(s, kind);
	out->check = s->checks;
}

unsigned check_needs(const struct session *s)
{
	unsigned needs = 0;
	size_t i;

	for (i = 0; s->checks && i < s->checks->n; i++)
		needs |= occ_check_needs(s->checks->items[i].e);
	return needs;
}

/* ---- Judging a row ---- */

static int text_matches(const struct occ_field *f, const regex_t *re,
			const void *row)
{
	struct occ_val v;

	if (!f)
		return 0;
	memset(&v, 0, sizeof v);
	f->get(row, f, &v);
	return v.type == OCC_VAL_STR && regexec(re, v.s, 0, NULL, 0) == 0;
}

/* "sm_90, block 256, kernel foo": the fields that name the row. */
static void row_name(const struct check_set *c, const void *row, char *buf,
		     size_t n)
{
	struct occ_val v;
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < N_IDS && c->id[i] && len + 1 < n; i++) {
		memset(&v, 0, sizeof v);
		if (strcmp(c->id[i]->name, "file") == 0 && *c->files < 2)
			continue;
		c->id[i]->get(row, c->id[i], &v);
		if (v.type == OCC_VAL_STR && v.s[0])
			len += (size_t)snprintf(buf + len, n - len, "%s%s %s",
						len ? ", " : "", c->id[i]->name,
						v.s);
		else if (v.type == OCC_VAL_UINT)
			len += (size_t)snprintf(buf + len, n - len, "%s%s %llu",
						len ? ", " : "", c->id[i]->name,
						(unsigned long long)v.u);
	}
	if (!len)
		snprintf(buf, n, "row %llu", (unsigned long long)c->rows);
}

/* Whether the row keeps it: 1 yes, 0 no (said), -1 undecided. */
static int judge(struct check_set *c, struct check_item *it, const void *row)
{
	const struct occ_field *absent;
	char why[1024], name[1024];

	switch (occ_check_eval(it->e, row, &absent)) {
	case OCC_CHECK_TRUE:
		it->decided++;
		return 1;
	case OCC_CHECK_UNKNOWN:
		if (!c->undecided_field[0])
			snprintf(c->undecided_field, sizeof c->undecided_field,
				 "%s", absent ? absent->name : "?");
		if (!it->absent[0])
			snprintf(it->absent, sizeof it->absent, "%s",
				 absent ? absent->name : "?");
		return -1;
	case OCC_CHECK_FALSE:
		it->decided++;
		break;
	}
	occ_check_explain(it->e, row, why, sizeof why);
	row_name(c, row, name, sizeof name);
	say("check failed: %s: %s%s%s%s", name, why,
	    it->have_re ? " (" : "", it->have_re ? it->where : "",
	    it->have_re ? ")" : "");
	return 0;
}

void check_judge(struct check_set *c, const void *row)
{
	size_t i;
	int failed = 0, undecided = 0, v;

	c->rows++;
	for (i = 0; i < c->n; i++) {
		struct check_item *it = &c->items[i];

		if (it->have_re && !text_matches(c->kernel, &it->re, row) &&
		    !text_matches(c->mangled, &it->re, row))
			continue;
		it->matched++;
		v = judge(c, it, row);
		failed |= v == 0;
		undecided |= v < 0;
	}
	c->failed += (uint64_t)failed;
	c->undecided += (uint64_t)undecided;
}

/* Why a field can be absent from every row, where the input explains it. */
static const char *absent_why(const char *field)
{
	if (strcmp(field, "spill_stores") == 0 ||
	    strcmp(field, "spill_loads") == 0)
		return ": a binary does not record spills (ptxas -v's report "
		       "does); on a binary gate on stack, the local memory a "
		       "thread uses, which spills make non-zero ('stack == 0')";
	return "";
}

/* A check that decided no row: it can never fail on this input. */
static int never_decided(const struct check_item *it)
{
	if (!it->matched || it->decided)
		return 0;
	warn("%s '%s' judged none of %llu row%s: %s is absent from every one%s",
	     it->where, it->text, (unsigned long long)it->matched,
	     plural(it->matched), it->absent, absent_why(it->absent));
	return 1;
}

int check_status(struct session *s, int status)
{
	struct check_set *c = s->checks;
	size_t i, never;

	if (!s->o->n_check && !s->o->check_file)
		return status;
	/* Every mode judges the rows it computes: none is a run that
	 * checked nothing, which must not pass for one that checked. */
	if (!c || !c->rows) {
		say("--check: no row was checked");
		return EXIT_FAILURE;
	}
	for (i = 0; i < c->n; i++)
		if (c->items[i].have_re && !c->items[i].matched)
			warn("%s: no kernel matches this budget's pattern",
			     c->items[i].where);
	for (i = 0, never = 0; i < c->n; i++)
		never += never_decided(&c->items[i]);
	if (c->undecided && !never)
		warn("--check: %llu row%s not judged where %s is absent (write "
		     "'%s == none || ...' to decide)",
		     (unsigned long long)c->undecided, plural(c->undecided),
		     c->undecided_field, c->undecided_field);
	if (!c->failed)
		return 0;
	say("--check: %llu of %llu row%s fail%s", (unsigned long long)c->failed,
	    (unsigned long long)c->rows, plural(c->rows),
	    c->failed == 1 ? "s" : "");
	return EXIT_FAILURE;
}
