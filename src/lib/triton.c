/*
 * triton.c - the launch Triton records beside each cubin of its cache
 * (NAME.json: num_warps, num_ctas, shared, name, triton_version, target):
 * a strict JSON reader that walks the whole document and keeps the
 * top-level keys that say how the kernel is launched. Any bytes either
 * read or are refused with the offset and the reason; nesting is bounded,
 * so that no input exhausts the stack.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "occcalc.h"
#include "util.h"

/* Deeper than any metadata Triton writes (it nests 3 levels). */
#define JSON_MAX_DEPTH 64

struct json {
	const char *p, *end, *start;
	struct occ_bin_diag *d;
	enum occ_status st;        /* the first failure */
};

static int fail(struct json *j, enum occ_status st, const char *what)
{
	if (j->st == OCC_OK) {
		j->st = st;
		j->d->offset = (uint64_t)(j->p - j->start);
		snprintf(j->d->what, sizeof j->d->what, "%s", what);
	}
	return -1;
}

static void space(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int hex4(struct json *j)
{
	int i;

	for (i = 0; i < 4; i++, j->p++)
		if (j->p >= j->end ||
		    !((*j->p >= '0' && *j->p <= '9') ||
		      (*j->p >= 'a' && *j->p <= 'f') ||
		      (*j->p >= 'A' && *j->p <= 'F')))
			return fail(j, OCC_ERR_SYNTAX, "a \\u escape without "
				    "four hex digits");
	return 0;
}

/* A string at j->p (past its quote when done); its plain characters are
 * copied into out (n bytes, escapes kept as they are written), cut short
 * where out is full. */
static int string(struct json *j, char *out, size_t n)
{
	size_t k = 0;

	if (j->p >= j->end || *j->p != '"')
		return fail(j, OCC_ERR_SYNTAX, "a string expected");
	for (j->p++; j->p < j->end && *j->p != '"'; ) {
		unsigned char c = (unsigned char)*j->p;

		if (c < 0x20)
			return fail(j, OCC_ERR_SYNTAX, "a control character "
				    "in a string");
		if (out && k + 1 < n)
			out[k++] = (char)c;
		j->p++;
		if (c != '\\')
			continue;
		if (j->p >= j->end)
			break;
		c = (unsigned char)*j->p++;
		if (c == 'u' && hex4(j) < 0)
			return -1;
		if (!strchr("\"\\/bfnrtu", c) || c == 0)
			return fail(j, OCC_ERR_SYNTAX, "an unknown escape in "
				    "a string");
		if (out && k + 1 < n)
			out[k++] = (char)c;
	}
	if (out && n)
		out[k] = '\0';
	if (j->p >= j->end)
		return fail(j, OCC_ERR_SYNTAX, "a string without its end");
	j->p++;
	return 0;
}

/* A number; *integer set when it is one that fits in int64_t. */
static int number(struct json *j, int64_t *value, int *integer)
{
	int64_t v = 0;
	int big = 0, neg = 0;

	if (j->p < j->end && *j->p == '-')
		neg = 1, j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return fail(j, OCC_ERR_SYNTAX, "a value expected");
	if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' &&
	    j->p[1] <= '9')
		return fail(j, OCC_ERR_SYNTAX, "a number with a leading zero");
	for (; j->p < j->end && *j->p >= '0' && *j->p <= '9'; j->p++) {
		if (v > (INT64_MAX - 9) / 10)
			big = 1;
		else
			v = v * 10 + (*j->p - '0');
	}
	*integer = !big;
	if (j->p < j->end && *j->p == '.') {
		*integer = 0;
		if (++j->p >= j->end || *j->p < '0' || *j->p > '9')
			return fail(j, OCC_ERR_SYNTAX, "a fraction without "
				    "digits");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		*integer = 0;
		if (++j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return fail(j, OCC_ERR_SYNTAX, "an exponent without "
				    "digits");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	*value = neg ? -v : v;
	return 0;
}

static int literal(struct json *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return fail(j, OCC_ERR_SYNTAX, "a value expected");
	j->p += n;
	return 0;
}

/* What a value was, for the keys the launch is read from. */
struct value {
	enum { V_OTHER, V_INT, V_STRING } kind;
	int64_t i;
	char s[256];
};

/* Where a container sits: what its members say. */
enum place { P_OTHER, P_TOP, P_TARGET, P_CLUSTER };

static int value(struct json *j, int depth, struct value *v,
		 struct occ_triton_meta *m, enum place in);

/* An integer key of the launch, range-checked before it is narrowed. */
static int launch_int(struct json *j, const struct value *v, int64_t max,
		      const char *key, int64_t *out)
{
	char what[96];

	if (v->kind != V_INT) {
		snprintf(what, sizeof what, "\"%s\" is not an integer", key);
		return fail(j, OCC_ERR_BAD_VALUE, what);
	}
	if (v->i < 0 || v->i > max) {
		snprintf(what, sizeof what, "\"%s\" %lld outside 0-%lld", key,
			 (long long)v->i, (long long)max);
		return fail(j, OCC_ERR_RANGE, what);
	}
	*out = v->i;
	return 0;
}

/* A top-level key: kept where it is one of the launch's. */
static int top_key(struct json *j, struct occ_triton_meta *m,
		   const char *key, const struct value *v)
{
	int64_t x;

	if (strcmp(key, "num_warps") == 0) {
		if (launch_int(j, v, OCC_TRITON_MAX_WARPS, key, &x) < 0)
			return -1;
		m->num_warps = (int)x;
	} else if (strcmp(key, "num_ctas") == 0) {
		if (launch_int(j, v, OCC_TRITON_MAX_CTAS, key, &x) < 0)
			return -1;
		m->num_ctas = (int)x;
	} else if (strcmp(key, "shared") == 0) {
		if (launch_int(j, v, (int64_t)OCC_BYTES_MAX, key, &x) < 0)
			return -1;
		m->shared = x;
	} else if (strcmp(key, "name") == 0 && v->kind == V_STRING) {
		snprintf(m->name, sizeof m->name, "%s", v->s);
	} else if (strcmp(key, "triton_version") == 0 &&
		   v->kind == V_STRING) {
		snprintf(m->version, sizeof m->version, "%.31s", v->s);
	}
	return 0;
}

/* A member of a container, where its place makes it one of the launch's. */
static int member(struct json *j, struct occ_triton_meta *m, enum place in,
		  const char *key, const struct value *v, int index)
{
	int64_t x;

	if (in == P_TOP)
		return top_key(j, m, key, v);
	if (in == P_TARGET && strcmp(key, "arch") == 0 && v->kind == V_INT &&
	    v->i > 0 && v->i < 1000)
		m->arch = (int)v->i;
	if (in == P_CLUSTER) {
		if (index >= 3)
			return fail(j, OCC_ERR_BAD_VALUE, "\"cluster_dims\" "
				    "has more than 3 values");
		if (launch_int(j, v, OCC_TRITON_MAX_CTAS, "cluster_dims",
			       &x) < 0)
			return -1;
		m->cluster_dims[index] = (int)x;
	}
	return 0;
}

/* An object or an array at j->p, depth bounded. */
static int container(struct json *j, int depth, struct occ_triton_meta *m,
		     enum place in)
{
	int object = *j->p == '{', index = 0;
	char close = object ? '}' : ']', key[64];
	const char *vstart, *after;
	struct value v;

	if (depth >= JSON_MAX_DEPTH)
		return fail(j, OCC_ERR_RANGE, "nested deeper than 64 levels");
	j->p++;
	space(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;; index++) {
		enum place sub = P_OTHER;

		key[0] = '\0';
		space(j);
		if (object && string(j, key, sizeof key) < 0)
			return -1;
		space(j);
		if (object && (j->p >= j->end || *j->p++ != ':'))
			return fail(j, OCC_ERR_SYNTAX, "':' expected");
		space(j);
		if (in == P_TOP && strcmp(key, "target") == 0)
			sub = P_TARGET;
		if (in == P_TOP && strcmp(key, "cluster_dims") == 0)
			sub = P_CLUSTER;
		vstart = j->p;
		if (value(j, depth + 1, &v, m, sub) < 0)
			return -1;
		/* A value refused is named where it starts. */
		after = j->p;
		j->p = vstart;
		if (member(j, m, in, key, &v, index) < 0)
			return -1;
		j->p = after;
		space(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		return fail(j, OCC_ERR_SYNTAX, object ? "',' or '}' expected"
			    : "',' or ']' expected");
	}
}

/* Any value; containers take 'in' as their place. */
static int value(struct json *j, int depth, struct value *v,
		 struct occ_triton_meta *m, enum place in)
{
	int integer;

	v->kind = V_OTHER;
	if (j->p >= j->end)
		return fail(j, OCC_ERR_SYNTAX, "a value expected");
	switch (*j->p) {
	case '{':
	case '[':
		return container(j, depth, m, in);
	case '"':
		v->kind = V_STRING;
		return string(j, v->s, sizeof v->s);
	case 't':
		return literal(j, "true");
	case 'f':
		return literal(j, "false");
	case 'n':
		return literal(j, "null");
	default:
		if (number(j, &v->i, &integer) < 0)
			return -1;
		v->kind = integer ? V_INT : V_OTHER;
		return 0;
	}
}

enum occ_status occ_triton_meta_parse(const char *text, size_t len,
				      struct occ_triton_meta *m,
				      struct occ_bin_diag *diag)
{
	struct json j = { text, text + len, text, diag, OCC_OK };
	struct value v;

	memset(m, 0, sizeof *m);
	m->num_warps = m->num_ctas = m->arch = -1;
	m->shared = -1;
	diag->offset = 0;
	diag->what[0] = '\0';
	space(&j);
	if (j.p >= j.end || *j.p != '{') {
		fail(&j, OCC_ERR_SYNTAX, "not a JSON object");
		return j.st;
	}
	if (value(&j, 0, &v, m, P_TOP) < 0)
		return j.st;
	space(&j);
	if (j.p != j.end)
		fail(&j, OCC_ERR_SYNTAX, "text after the JSON object");
	return j.st;
}
