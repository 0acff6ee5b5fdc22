/* json.c - the library's JSON reader (src/lib/json.c, over yajl): strings
 * decoded whole and checked, limits, positions, integers, records. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "json.h"
#include "tap.h"

/* The events of a text, one line each: "depth key|index type text". */
struct log {
	char text[4096];
	size_t n;
};

static int record_events(void *ctx, struct occ_json_reader *r,
			 const struct occ_json_event *e)
{
	static const char *const types[] = { "null", "bool", "num", "str",
					     "obj", "arr", "end" };
	struct log *l = ctx;
	char where[64];

	(void)r;
	if (e->key)
		snprintf(where, sizeof where, "%s", e->key);
	else
		snprintf(where, sizeof where, "%lld", (long long)e->index);
	l->n += (size_t)snprintf(l->text + l->n, sizeof l->text - l->n,
				 "%d %s %s %s @%llu\n", e->depth, where,
				 types[e->type], e->text ? e->text : "-",
				 (unsigned long long)e->offset);
	return 0;
}

static enum occ_status read_text(const char *text, struct log *l,
				 struct occ_json_err *err)
{
	memset(l, 0, sizeof *l);
	return occ_json_read_mem(text, strlen(text), NULL, record_events, l,
				 err);
}

/* The one string the text (a JSON string) reads as, or NULL. */
static const char *decode(const char *text, struct occ_json_err *err)
{
	static struct log l;

	if (read_text(text, &l, err) != OCC_OK)
		return NULL;
	l.text[strlen(l.text) - 1] = '\0';
	*strrchr(l.text, ' ') = '\0';
	return l.text + strlen("0 -1 str ");
}

static void strings(void)
{
	struct occ_json_err err;
	const char *s;

	s = decode("\"matmul\\u005fkernel\"", &err);
	tap_ok(s && strcmp(s, "matmul_kernel") == 0,
	       "\\u005f is '_' (F6: it was dropped)");
	s = decode("\"m\\u00e9\\ud83d\\ude00\"", &err);
	tap_ok(s && strcmp(s, "m\xc3\xa9\xf0\x9f\x98\x80") == 0,
	       "\\u00e9 and a surrogate pair decode to UTF-8");
	s = decode("\"\\u001b[31mred\"", &err);
	tap_ok(s && strcmp(s, "\x1b[31mred") == 0,
	       "a control character escaped is read as itself");
	s = decode("\"matmul_kernel\\u0000x\"", &err);
	tap_ok(!s && err.st == OCC_ERR_SYNTAX && err.offset == 14 &&
	       strcmp(err.what, "\\u0000 (a NUL character) in a string") == 0,
	       "\\u0000 refused where it is (%s at %llu)", err.what,
	       (unsigned long long)err.offset);
	s = decode("\"ab\\ud800\"", &err);
	tap_ok(!s && err.offset == 3 && strstr(err.what, "lone UTF-16"),
	       "a high surrogate at the end refused (yajl writes '?')");
	s = decode("\"\\ud800\\u0041\"", &err);
	tap_ok(!s && err.offset == 1 && strstr(err.what, "lone UTF-16"),
	       "a high surrogate before another escape refused (yajl pairs "
	       "them into U+10041)");
	s = decode("\"\\udc00\"", &err);
	tap_ok(!s && strstr(err.what, "lone UTF-16"),
	       "a low surrogate alone refused");
	s = decode("\"\xc3\x28\"", &err);
	tap_ok(!s && err.st == OCC_ERR_SYNTAX, "bytes that are no UTF-8 "
	       "refused (%s)", err.what);
	s = decode("\"\xed\xa0\x80\"", &err);
	tap_ok(!s && strstr(err.what, "no UTF-8"),
	       "a surrogate written as UTF-8 refused");
	s = decode("\"\xc0\xaf\"", &err);
	tap_ok(!s, "an overlong UTF-8 form refused");
}

/* Slices are 64 KB: a pair, a lone surrogate and a number across the
 * boundary, and a line counted in the slice before. */
static void across(void)
{
	static char t[65536 + 64];
	struct occ_json_err err;
	enum occ_status st;
	struct log l;

	memset(t, ' ', sizeof t);
	t[0] = '\n';
	strcpy(t + 65530, "[\"\\ud83d\\ude00\", 12345]");
	tap_ok(read_text(t, &l, &err) == OCC_OK &&
	       strstr(l.text, "str \xf0\x9f\x98\x80 @65531\n") &&
	       strstr(l.text, "num 12345 @65547\n"),
	       "a surrogate pair and a number across a slice boundary");
	strcpy(t + 65530, "[\"\\ud83d\\u0041\"]");
	st = read_text(t, &l, &err);
	tap_ok(st == OCC_ERR_SYNTAX &&
	       err.offset == 65532 && err.line == 2 && err.column == 65532,
	       "a lone surrogate across it: refused where it is (%llu:%llu)",
	       (unsigned long long)err.line, (unsigned long long)err.column);
}

static void structure(void)
{
	struct occ_json_err err;
	enum occ_status st;
	struct log l;
	char deep[200];
	int i;

	tap_ok(read_text("{\"a\": [1, {\"b\": null}], \"c\": true}", &l,
			 &err) == OCC_OK &&
	       strcmp(l.text, "0 -1 obj - @0\n1 a arr - @6\n2 0 num 1 @7\n"
		      "2 1 obj - @10\n3 b null - @16\n2 1 end - @20\n"
		      "1 a end - @21\n1 c bool true @29\n0 -1 end - @33\n") == 0,
	       "events: depth, key or index, value, where each starts");
	if (tap_failed)
		tap_diag("%s", l.text);
	for (i = 0; i < 64; i++)
		deep[i] = '[', deep[64 + i] = ']';
	deep[128] = '\0';
	tap_ok(read_text(deep, &l, &err) == OCC_OK, "64 levels read");
	memmove(deep + 1, deep, 129);
	deep[0] = '[';
	strcat(deep, "]");
	tap_ok(read_text(deep, &l, &err) == OCC_ERR_RANGE &&
	       err.offset == 64 &&
	       strcmp(err.what, "nested deeper than 64 levels") == 0,
	       "65 levels refused at the 65th");
	st = read_text("[1,\n 2,\n  x]", &l, &err);
	tap_ok(st == OCC_ERR_SYNTAX && err.line == 3 && err.column == 3 &&
	       err.offset == 10,
	       "an error's line and column (%llu:%llu, %s)",
	       (unsigned long long)err.line, (unsigned long long)err.column,
	       err.what);
	tap_ok(read_text("{\"a\":1", &l, &err) == OCC_ERR_SYNTAX &&
	       err.offset == 6, "a truncated text: refused at its end (%s)",
	       err.what);
	tap_ok(err.cut_short && err.bytes == 6,
	       "a truncated text: said to be cut short, after its 6 bytes");
	tap_ok(read_text("{\"a\": \"bc", &l, &err) == OCC_ERR_SYNTAX &&
	       err.cut_short && err.bytes == 9,
	       "a text cut inside a string: cut short too");
	tap_ok(read_text("{} {}", &l, &err) == OCC_ERR_SYNTAX &&
	       !err.cut_short, "two values where one is due refused, not "
	       "cut short");
	tap_ok(read_text("{\"a\": x", &l, &err) == OCC_ERR_SYNTAX &&
	       !err.cut_short, "a text wrong before its end: not cut short");
}

static void limits(void)
{
	struct occ_json_limits lim = { 0, 8, 0, 0 };
	struct occ_json_err err;
	struct log l;
	const char *t;

	memset(&l, 0, sizeof l);
	t = "[\"12345678\", 12345678]";
	tap_ok(occ_json_read_mem(t, strlen(t), &lim, record_events, &l, &err)
	       == OCC_OK, "a string and a number of the limit's length read");
	t = "[\"123456789\"]";
	tap_ok(occ_json_read_mem(t, strlen(t), &lim, record_events, &l, &err)
	       == OCC_ERR_RANGE && err.offset == 1,
	       "a string longer: refused where it starts (%s)", err.what);
	t = "[1, 123456789]";
	tap_ok(occ_json_read_mem(t, strlen(t), &lim, record_events, &l, &err)
	       == OCC_ERR_RANGE && err.offset == 4,
	       "a number longer: refused where it starts (%s)", err.what);
	lim.string = 0;
	lim.bytes = 4;
	t = "[1, 2]";
	tap_ok(occ_json_read_mem(t, strlen(t), &lim, record_events, &l, &err)
	       == OCC_ERR_RANGE, "input past its byte limit refused (%s)",
	       err.what);
	lim.bytes = 0;
	lim.multiple = 1;
	t = "{\"a\":1}\n{\"a\":2}\n";
	tap_ok(occ_json_read_mem(t, strlen(t), &lim, record_events, &l, &err)
	       == OCC_OK, "values one after another where asked (JSON Lines)");
}

static void integers(void)
{
	int64_t i;
	uint64_t u;

	tap_ok(occ_json_int("-9223372036854775808", 20, INT64_MIN, INT64_MAX,
			    &i) == 0 && i == INT64_MIN, "INT64_MIN read");
	tap_ok(occ_json_int("9223372036854775808", 19, INT64_MIN, INT64_MAX,
			    &i) == -2, "INT64_MAX + 1: out of range");
	tap_ok(occ_json_uint("18446744073709551615", 20, UINT64_MAX, &u) == 0
	       && u == UINT64_MAX, "UINT64_MAX read");
	tap_ok(occ_json_uint("18446744073709551616", 20, UINT64_MAX, &u) == -2,
	       "UINT64_MAX + 1: out of range, not wrapped");
	tap_ok(occ_json_uint("-1", 2, UINT64_MAX, &u) == -2 &&
	       occ_json_uint("-0", 2, 5, &u) == 0 && u == 0,
	       "-1 below an unsigned range; -0 is 0");
	tap_ok(occ_json_int("1.0", 3, 0, 9, &i) == -1 &&
	       occ_json_int("1e3", 3, 0, 9999, &i) == -1,
	       "a fraction or an exponent is no integer");
	tap_ok(occ_json_int("7", 1, 0, 6, &i) == -2, "above max: out of range");
}

/* Records: a Kineto-like trace's kernel events, flattened. */
struct kin {
	int n;
	char got[512];
};

static int pick(void *ctx, const struct occ_json_reader *r,
		const struct occ_json_event *e)
{
	const char *k = occ_json_key_at(r, 1);

	(void)ctx;
	return e->depth == 2 && k && strcmp(k, "traceEvents") == 0;
}

static int event(void *ctx, struct occ_json_reader *r,
		 const struct occ_json_record *rec)
{
	struct kin *k = ctx;
	const struct occ_json_member *m = occ_json_get(rec, "args.grid"),
				     *name = occ_json_get(rec, "name");
	size_t i, len = strlen(k->got);

	(void)r;
	k->n++;
	len += (size_t)snprintf(k->got + len, sizeof k->got - len, "%s:",
				name ? name->text : "?");
	for (i = m ? (size_t)(m - rec->m) + 1 : rec->n; i < rec->n &&
	     rec->m[i].depth > m->depth; i++)
		len += (size_t)snprintf(k->got + len, sizeof k->got - len,
					" %s", rec->m[i].text);
	snprintf(k->got + len, sizeof k->got - len, ";");
	return 0;
}

static void records(void)
{
	const char *t = "{\"schemaVersion\": 1, \"deviceProperties\": "
		"[{\"name\": \"H100\"}], \"traceEvents\": [{\"name\": \"k1\", "
		"\"args\": {\"grid\": [4, 1, 1], \"block\": [128, 1, 1]}}, "
		"{\"name\": \"k\\u0032\", \"args\": {\"grid\": [8, 2, 1]}}]}";
	struct occ_json_records rc;
	struct occ_json_err err;
	struct kin k;
	enum occ_status st;
	char path[] = "/tmp/occ-json-XXXXXX";
	int fd;
	gzFile g;

	memset(&rc, 0, sizeof rc);
	memset(&k, 0, sizeof k);
	rc.select = pick;
	rc.record = event;
	rc.ctx = &k;
	st = occ_json_read_mem(t, strlen(t), NULL, occ_json_records_event, &rc,
			       &err);
	tap_ok(st == OCC_OK && k.n == 2 &&
	       strcmp(k.got, "k1: 4 1 1;k2: 8 2 1;") == 0,
	       "records: the objects under traceEvents, members by path "
	       "(%s)", k.got);
	occ_json_records_free(&rc);
	rc.max_bytes = 100;
	st = occ_json_read_mem(t, strlen(t), NULL, occ_json_records_event, &rc,
			       &err);
	tap_ok(st == OCC_ERR_RANGE && strstr(err.what, "larger than 100"),
	       "a record past its bound refused (%s)", err.what);
	occ_json_records_free(&rc);

	/* The same from a gzip file, through a file descriptor. */
	if ((fd = mkstemp(path)) < 0 || !(g = gzdopen(dup(fd), "wb"))) {
		tap_ok(0, "a temporary file");
		return;
	}
	gzwrite(g, t, (unsigned)strlen(t));
	gzclose(g);
	lseek(fd, 0, SEEK_SET);
	memset(&k, 0, sizeof k);
	rc.max_bytes = 0;
	st = occ_json_read_fd(fd, NULL, occ_json_records_event, &rc, &err);
	tap_ok(st == OCC_OK && strcmp(k.got, "k1: 4 1 1;k2: 8 2 1;") == 0,
	       "the same records from a gzip file");
	occ_json_records_free(&rc);
	close(fd);
	unlink(path);
}

int main(void)
{
	tap_plan(36);
	strings();
	across();
	structure();
	limits();
	integers();
	records();
	return tap_done();
}
