/*
 * launches_names.c - kernel names as people recognise them in the
 * summary of --launches: a demangled C++ name is mostly its namespaces,
 * return type, parameters and template arguments, so 41 characters of it
 * made half the rows of a PyTorch trace read alike. A name is shown as
 * the function's own name with its first template argument
 * ("vectorized_elementwise_kernel<8, …>"); where two names would read
 * alike they keep more (the last argument too, then the whole template
 * cut in the middle, then the whole name), so that every row is told
 * from the others.
 */
#include <stdlib.h>
#include <string.h>

#include "launches_sum.h"

#define ELLIPSIS "\xe2\x80\xa6"          /* U+2026, one column */
#define ARG_KEPT 24                      /* of one template argument */
#define BASE_KEPT 100                    /* of the whole template */
#define SHORT_KEPT 64                    /* of a name at the first levels */
#define LEVELS 4

size_t name_columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* text[0..len) into out, its middle left out past max bytes. */
static size_t put_cut(char *out, const char *text, size_t len, size_t max)
{
	size_t head = max / 2, tail = max - head - 1;

	while (len && text[0] == ' ')
		text++, len--;
	while (len && text[len - 1] == ' ')
		len--;
	if (len <= max) {
		memcpy(out, text, len);
		return len;
	}
	/* Cut between UTF-8 characters. */
	while (head && ((unsigned char)text[head] & 0xc0) == 0x80)
		head--;
	while (tail && ((unsigned char)text[len - tail] & 0xc0) == 0x80)
		tail--;
	memcpy(out, text, head);
	memcpy(out + head, ELLIPSIS, 3);
	memcpy(out + head + 3, text + len - tail, tail);
	return head + 3 + tail;
}

static int opens(char c)
{
	return c == '<' || c == '(' || c == '[' || c == '{';
}

static int closes(char c)
{
	return c == '>' || c == ')' || c == ']' || c == '}';
}

#define ANON "(anonymous namespace)"

/* The function's own name in s: after its return type and namespaces,
 * before its parameters ([*b, *e)). */
static void base_of(const char *s, size_t *b, size_t *e)
{
	size_t i, n = strlen(s), start = 0;
	int depth = 0;

	for (i = 0; i < n; i++) {
		if (depth == 0 && strncmp(s + i, ANON, strlen(ANON)) == 0) {
			i += strlen(ANON) - 1;
			continue;
		}
		/* "operator()" and its like are names, not parameters. */
		if (depth == 0 && strncmp(s + i, "operator", 8) == 0 &&
		    i + 8 < n && !(s[i + 8] == '_' || (s[i + 8] >= 'a' &&
							s[i + 8] <= 'z'))) {
			i += s[i + 8] == '(' ? 9 : 8;
			continue;
		}
		if (depth == 0 && s[i] == '(')
			break;
		if (opens(s[i]))
			depth++;
		else if (closes(s[i]) && depth > 0)
			depth--;
		else if (depth == 0 && s[i] == ' ')
			start = i + 1;
		else if (depth == 0 && s[i] == ':' && s[i + 1] == ':')
			start = i + 2;
	}
	*b = start;
	*e = i;
}

/* The name at level 0..LEVELS-1 into out (at least strlen(s) * 2 + 64
 * bytes). */
static void shorten_at(const char *s, int level, char *out)
{
	size_t b, e, lt, i, len = 0, arg[2] = { 0, 0 }, last = 0, nargs = 0;
	int depth = 0;

	base_of(s, &b, &e);
	if (level >= LEVELS - 1 || e <= b) {
		strcpy(out, s);
		return;
	}
	if (level == LEVELS - 2) {
		out[put_cut(out, s + b, e - b, BASE_KEPT)] = '\0';
		return;
	}
	for (lt = b; lt < e && s[lt] != '<'; lt++)
		;
	memcpy(out, s + b, lt - b);
	len = lt - b;
	if (lt == e || s[e - 1] != '>') {
		out[len] = '\0';
		return;
	}
	/* The template's arguments: the first, and the last. */
	for (i = lt + 1; i < e - 1; i++) {
		if (opens(s[i]))
			depth++;
		else if (closes(s[i]) && depth > 0)
			depth--;
		else if (depth == 0 && s[i] == ',') {
			if (!nargs++)
				arg[0] = i;
			last = i + 1;
		}
	}
	arg[1] = e - 1;
	out[len++] = '<';
	len += put_cut(out + len, s + lt + 1, (nargs ? arg[0] : arg[1]) - lt - 1,
		       ARG_KEPT);
	if (nargs && (level == 0 || nargs > 1)) {
		memcpy(out + len, ", " ELLIPSIS, 5);
		len += 5;
	}
	if (nargs && level == 1) {
		memcpy(out + len, ", ", 2);
		len += 2;
		len += put_cut(out + len, s + last, arg[1] - last, ARG_KEPT);
	}
	out[len++] = '>';
	out[len] = '\0';
}

/* The name at level 0..LEVELS-1, no longer than SHORT_KEPT bytes at the
 * first two (a plain C name of 150 characters too). */
static void shorten(const char *s, int level, char *out)
{
	size_t len;
	char *tmp;

	shorten_at(s, level, out);
	len = strlen(out);
	if (level >= LEVELS - 2 || len <= SHORT_KEPT ||
	    !(tmp = strdup(out)))
		return;
	out[put_cut(out, tmp, len, SHORT_KEPT)] = '\0';
	free(tmp);
}

struct shown {
	const char *full;
	char *text;
	int level;
};

static int by_text(const void *x, const void *y)
{
	const struct shown *a = *(struct shown *const *)x;
	const struct shown *b = *(struct shown *const *)y;

	return strcmp(a->text, b->text);
}

/* Gives more to names that read alike: 1 when one did. */
static int more_where_alike(struct shown **v, size_t n)
{
	size_t i, j;
	int any = 0;

	qsort(v, n, sizeof *v, by_text);
	for (i = 0; i < n; i = j) {
		int differ = 0;

		for (j = i + 1; j < n && strcmp(v[i]->text, v[j]->text) == 0; j++)
			differ |= strcmp(v[i]->full, v[j]->full) != 0;
		if (!differ)
			continue;
		for (; i < j; i++)
			if (v[i]->level < LEVELS - 1) {
				v[i]->level++;
				shorten(v[i]->full, v[i]->level, v[i]->text);
				any = 1;
			}
	}
	return any;
}

int names_shorten(const char *const *names, size_t n, char **out)
{
	struct shown *s = calloc(n ? n : 1, sizeof *s);
	struct shown **v = calloc(n ? n : 1, sizeof *v);
	size_t i;
	int ok = s && v;

	for (i = 0; ok && i < n; i++) {
		s[i].full = names[i];
		s[i].text = malloc(2 * strlen(names[i]) + 64);
		ok = s[i].text != NULL;
		if (ok)
			shorten(names[i], 0, s[i].text);
		v[i] = &s[i];
	}
	while (ok && more_where_alike(v, n))
		;
	for (i = 0; i < n; i++) {
		out[i] = s ? s[i].text : NULL;
		if (!ok && s)
			free(s[i].text);
	}
	free(s);
	free(v);
	return ok;
}
