/*
 * json_errors.c - the JSON reader's failures (json.h's struct
 * occ_json_err): a failure's byte offset as a line and a column, and
 * yajl's refusals placed at the token refused and told in the project's
 * words. Apart from json.c because only a failure comes here: the
 * messages and the search for where a token starts are no part of
 * reading.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_int.h"

/* ---- Errors and positions ---- */

static void position(struct occ_json_reader *r, uint64_t off)
{
	uint64_t lines = r->lines, start = r->line_start, i;

	if (off > r->total)
		off = r->total;
	for (i = r->base; r->slice && i < off && i - r->base < r->slice_len;
	     i++)
		if (r->slice[i - r->base] == '\n')
			lines++, start = i + 1;
	r->err->offset = off;
	r->err->line = lines + 1;
	r->err->column = off >= start ? off - start + 1 : 1;
}

int occ_json_fail(struct occ_json_reader *r, enum occ_status st,
		  uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return -1;
	r->failed = 1;
	r->err->st = st;
	va_start(ap, fmt);
	vsnprintf(r->err->what, sizeof r->err->what, fmt, ap);
	va_end(ap);
	position(r, offset);
	return -1;
}

static int is_word_char(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

/* Where the token yajl's parser refused starts (it stands past it, or on
 * a string's closing quote): a string refused is the first one scanned
 * and not delivered; a number's or a word's start is found in the slice. */
static uint64_t token_start(struct occ_json_reader *r, uint64_t end)
{
	uint64_t at = end;

	if (r->count && r->starts[r->head] < end)
		return r->starts[r->head];
	if (!r->slice || end <= r->base || end - r->base > r->slice_len)
		return end;
	if (!is_word_char(r->slice[end - r->base - 1]))
		return end - 1;
	while (at > r->base && is_word_char(r->slice[at - r->base - 1]))
		at--;
	return at;
}

/* yajl's words for its errors, in the project's where they differ. */
void occ_json_yajl_failed(struct occ_json_reader *r)
{
	static const char *const say[][2] = {
		{ "premature EOF", "the text ends inside a JSON value" },
		{ "trailing garbage", "text after the JSON value" },
		{ "invalid object key (must be a string)",
		  "expected a field name in quotes" },
		{ "object key and value must be separated by a colon (':')",
		  "expected ':' after a key" },
		{ "after key and value, inside map, I expect ',' or '}'",
		  "expected ',' or '}' in an object" },
		{ "after array element, I expect ',' or ']'",
		  "expected ',' or ']' in an array" },
		{ "unallowed token at this point in JSON text",
		  "not a JSON value here" },
		{ "invalid char in json text", "a character JSON has not "
		  "here" },
		{ "invalid bytes in UTF8 string", "a string that is no UTF-8" },
		{ "invalid character inside string",
		  "a control character in a string" },
		{ "inside a string, '\\' occurs before a character which it "
		  "may not", "an unknown escape in a string" },
		{ "invalid (non-hex) character occurs after '\\u' inside "
		  "string", "a \\u escape without four hex digits" },
		{ "probable comment found in input text, comments are not "
		  "enabled", "a comment: JSON has none" },
	};
	unsigned char *e = yajl_get_error(r->h, 0, NULL, 0);
	const char *text = e ? (const char *)e : "not JSON", *colon;
	uint64_t at = r->base + yajl_get_bytes_consumed(r->h);
	char what[160];
	size_t i, n;
	int cut;

	/* yajl's lexer stands past the byte it refused, its parser past
	 * the token. */
	if (strncmp(text, "lexical", 7) == 0 && at > r->base)
		at--;
	else if (strncmp(text, "parse", 5) == 0)
		at = token_start(r, at);

	if ((colon = strstr(text, ": ")) != NULL)
		text = colon + 2;
	n = strcspn(text, "\n");
	while (n && text[n - 1] == '.')
		n--;
	snprintf(what, sizeof what, "%.*s", (int)n, text);
	/* At the end of the text, yajl refuses the token it holds: a
	 * number cut after its '.' or 'e' is the text cut short too, as a
	 * string cut anywhere is (yajl's "premature EOF"). */
	cut = !r->failed && (strcmp(what, say[0][0]) == 0 ||
			     (r->at_end && strncmp(e ? (const char *)e : "",
						   "lexical", 7) == 0));
	for (i = 0; i < sizeof say / sizeof say[0]; i++)
		if (strcmp(what, say[i][0]) == 0)
			snprintf(what, sizeof what, "%s", say[i][1]);
	if (e)
		yajl_free_error(r->h, e);
	occ_json_fail(r, OCC_ERR_SYNTAX, at, "%s", what);
	r->err->cut_short = cut;
}
