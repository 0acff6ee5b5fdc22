/*
 * json.c - the library's JSON reader (src/lib/json.c, over yajl), under
 * every reader of JSON: any bytes are read or refused with a status; the
 * byte, line and column of a refusal agree with the text (the line is one
 * more than the newlines before the byte); every value's offset is where
 * the text has that value's first character, in order; strings are
 * UTF-8 without a NUL; nesting stays within the limit. The first byte
 * chooses the limits (JSON Lines, a short string limit, a shallow depth)
 * and is not part of the text.
 */
#include "fuzz.h"
#include "json.h"

struct seen {
	const uint8_t *text;
	size_t size;
	uint64_t last;
	int depth_max;
};

static int utf8_plain(const char *s, size_t n)
{
	size_t i = 0;

	if (strlen(s) != n)
		return 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t k = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1
			 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5
			 ? 3 : 9;

		if (k == 9 || n - i <= k)
			return 0;
		for (i++; k; k--, i++)
			if (((unsigned char)s[i] & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

static int event(void *ctx, struct occ_json_reader *r,
		 const struct occ_json_event *e)
{
	struct seen *s = ctx;
	unsigned char c;

	(void)r;
	FUZZ_CHECK(e->offset < s->size, "value at %llu of %zu bytes",
		   (unsigned long long)e->offset, s->size);
	FUZZ_CHECK(e->offset >= s->last || e->type == JSON_END,
		   "value at %llu after one at %llu",
		   (unsigned long long)e->offset, (unsigned long long)s->last);
	FUZZ_CHECK(e->depth >= 0 && e->depth <= s->depth_max, "depth %d",
		   e->depth);
	FUZZ_CHECK(!e->key || e->index < 0, "a key and an index");
	c = s->text[e->offset];
	switch (e->type) {
	case JSON_STRING:
		FUZZ_CHECK(c == '"' && utf8_plain(e->text, e->len),
			   "a string at '%c', or not UTF-8", c);
		break;
	case JSON_NUMBER:
		FUZZ_CHECK((c == '-' || (c >= '0' && c <= '9')) &&
			   memcmp(s->text + e->offset, e->text, e->len) == 0,
			   "a number not as written at its offset");
		break;
	case JSON_OBJECT:
	case JSON_ARRAY:
		FUZZ_CHECK(c == (e->type == JSON_OBJECT ? '{' : '['),
			   "a container at '%c'", c);
		break;
	case JSON_END:
		FUZZ_CHECK(c == '}' || c == ']', "an end at '%c'", c);
		break;
	case JSON_NULL:
	case JSON_BOOL:
		FUZZ_CHECK(c == (e->type == JSON_NULL ? 'n' : e->text[0]),
			   "a word at '%c'", c);
		break;
	}
	if (e->type != JSON_END)
		s->last = e->offset;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_json_limits lim = { 0, 0, 0, 0 };
	struct occ_json_err err;
	struct seen s;
	enum occ_status st;
	uint64_t i, line = 1, start = 0;

	if (!size)
		return 0;
	lim.multiple = data[0] & 1;
	lim.string = data[0] & 2 ? 16 : 0;
	lim.depth = data[0] & 4 ? 4 : 0;
	memset(&s, 0, sizeof s);
	s.text = data + 1;
	s.size = size - 1;
	s.depth_max = lim.depth ? lim.depth : OCC_JSON_DEPTH_MAX;
	st = occ_json_read_mem((const char *)data + 1, size - 1, &lim, event,
			       &s, &err);
	if (st == OCC_OK)
		return 0;
	FUZZ_CHECK(st == OCC_ERR_SYNTAX || st == OCC_ERR_RANGE, "status %d",
		   (int)st);
	FUZZ_CHECK(err.what[0] && err.offset <= s.size, "refused at %llu of "
		   "%zu bytes: '%s'", (unsigned long long)err.offset, s.size,
		   err.what);
	for (i = 0; i < err.offset; i++)
		if (s.text[i] == '\n')
			line++, start = i + 1;
	FUZZ_CHECK(err.line == line && err.column == err.offset - start + 1,
		   "byte %llu named %llu:%llu, not %llu:%llu",
		   (unsigned long long)err.offset,
		   (unsigned long long)err.line,
		   (unsigned long long)err.column, (unsigned long long)line,
		   (unsigned long long)(err.offset - start + 1));
	return 0;
}
