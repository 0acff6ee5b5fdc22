/*
 * seq.c - the grammar of an option's values (occcalc/sweep.h): lists,
 * ranges, suffixes and block shapes as the command line takes them, the
 * values generated and counted, and each way a text is refused with its
 * reason, its status and the bound it crossed.
 */
#include <stdint.h>
#include <string.h>

#include "occcalc.h"
#include "tap.h"

/* The values of s (at most n) into v: their count, or -1 if refused. */
static int values(const char *s, uint64_t min, uint64_t max, unsigned flags,
		  uint64_t *v, int n)
{
	struct occ_seq q;
	struct occ_seq_iter it;
	int got = 0;

	if (occ_seq_parse(s, min, max, flags, &q, NULL, NULL) != OCC_OK)
		return -1;
	for (occ_seq_first(&it, &q); got < n; ) {
		v[got++] = it.value;
		if (!occ_seq_next(&it))
			break;
	}
	occ_seq_free(&q);
	return got;
}

static void test_valid(void)
{
	uint64_t v[8];
	struct occ_seq q;
	char text[16];

	tap_ok(values("128", 1, 1024, 0, v, 8) == 1 && v[0] == 128,
	       "one value");
	tap_ok(values("32:128:32", 1, 1024, 0, v, 8) == 4 && v[0] == 32 &&
	       v[3] == 128, "a range includes its end");
	tap_ok(values("1:10:4", 1, 1024, 0, v, 8) == 3 && v[2] == 9,
	       "a range stops at the last step within its end");
	tap_ok(values("64,16,0:8K:4K", 0, 1 << 20, 0, v, 8) == 5 &&
	       v[0] == 64 && v[1] == 16 && v[4] == 8192,
	       "a list of values and ranges, in its order, with suffixes");
	tap_ok(values("16x16,8x8x4", 1, 1024, OCC_SEQ_SHAPES, v, 8) == 2 &&
	       v[0] == 256 && v[1] == 256, "block shapes: their threads");
	tap_ok(occ_seq_parse("16x8,64", 1, 1024, OCC_SEQ_SHAPES, &q, NULL,
			     NULL) == OCC_OK && q.is_sweep && q.n == 2 &&
	       q.ranges[0].dim[0] == 16 && q.ranges[0].dim[1] == 8 &&
	       !q.ranges[1].dim[0] && occ_seq_has_shape(&q),
	       "a shape keeps its dimensions");
	occ_seq_shape_text(text, sizeof text, q.ranges[0].dim);
	tap_ok(strcmp(text, "16x8") == 0, "a shape's text");
	tap_ok(occ_seq_count(&q) == 2, "counted");
	occ_seq_free(&q);
	tap_ok(occ_seq_parse("7", 0, 10, 0, &q, NULL, NULL) == OCC_OK &&
	       !q.is_sweep && !occ_seq_has_shape(&q), "one value is no sweep");
	occ_seq_free(&q);
	tap_ok(occ_seq_parse("7:7", 0, 10, 0, &q, NULL, NULL) == OCC_OK &&
	       q.is_sweep, "a range of one value is a sweep");
	occ_seq_free(&q);
	tap_ok(occ_seq_parse("0:18446744073709551615", 0, UINT64_MAX, 0, &q,
			     NULL, NULL) == OCC_OK &&
	       occ_seq_count(&q) == UINT64_MAX, "a count saturates");
	occ_seq_free(&q);
}

struct refusal {
	const char *text;
	unsigned flags;
	enum occ_seq_error why;
	enum occ_status st;
	uint64_t limit;       /* diag's, where one is said */
};

static void test_invalid(void)
{
	static const struct refusal r[] = {
		{ "", 0, OCC_SEQ_EMPTY, OCC_ERR_SYNTAX, 0 },
		{ "32,,64", 0, OCC_SEQ_EMPTY, OCC_ERR_SYNTAX, 0 },
		{ "abc", 0, OCC_SEQ_NOT_NUMBER, OCC_ERR_SYNTAX, 0 },
		{ "1:2:3:4", 0, OCC_SEQ_NOT_NUMBER, OCC_ERR_SYNTAX, 0 },
		{ "-4", 0, OCC_SEQ_NEGATIVE, OCC_ERR_RANGE, 0 },
		{ "99999999999999999999", 0, OCC_SEQ_OVERFLOW, OCC_ERR_RANGE,
		  0 },
		{ "2000", 0, OCC_SEQ_TOO_LARGE, OCC_ERR_RANGE, 1024 },
		{ "0", 0, OCC_SEQ_TOO_SMALL, OCC_ERR_RANGE, 1 },
		{ "32:64:0", 0, OCC_SEQ_STEP_ZERO, OCC_ERR_INVALID_INPUT, 0 },
		{ "64:32", 0, OCC_SEQ_REVERSED, OCC_ERR_INVALID_INPUT, 0 },
		{ "16x", OCC_SEQ_SHAPES, OCC_SEQ_SHAPE, OCC_ERR_SYNTAX, 0 },
		{ "16x16:32", OCC_SEQ_SHAPES, OCC_SEQ_SHAPE, OCC_ERR_SYNTAX, 0 },
		{ "2x2x2x2", OCC_SEQ_SHAPES, OCC_SEQ_SHAPE, OCC_ERR_SYNTAX, 0 },
		{ "16x0", OCC_SEQ_SHAPES, OCC_SEQ_SHAPE_ZERO, OCC_ERR_RANGE, 0 },
		{ "2x2x128", OCC_SEQ_SHAPES, OCC_SEQ_SHAPE_LARGE, OCC_ERR_RANGE,
		  0 },
		{ "64x32", OCC_SEQ_SHAPES, OCC_SEQ_SHAPE_LARGE, OCC_ERR_RANGE,
		  0 },
		{ "16x16", 0, OCC_SEQ_NOT_NUMBER, OCC_ERR_SYNTAX, 0 },
	};
	struct occ_diag diag;
	struct occ_seq q;
	enum occ_seq_error why;
	enum occ_status st;
	size_t i;

	for (i = 0; i < sizeof r / sizeof r[0]; i++) {
		st = occ_seq_parse(r[i].text, 1, 1024, r[i].flags, &q, &why,
				   &diag);
		tap_ok(st == r[i].st && why == r[i].why &&
		       (!r[i].limit || diag.limit == r[i].limit) &&
		       q.ranges == NULL, "'%s' refused: reason %d, status %d",
		       r[i].text, (int)why, (int)st);
	}
}

/* The words are the command line's: its usage errors quote them. */
static void test_words(void)
{
	char buf[160];

	occ_seq_refusal(OCC_SEQ_TOO_LARGE, 255, buf, sizeof buf);
	tap_ok(strcmp(buf, "above the maximum of 255") == 0, "%s", buf);
	occ_seq_refusal(OCC_SEQ_SHAPE_LARGE, 0, buf, sizeof buf);
	tap_ok(strcmp(buf, "beyond CUDA's block limits (1024 threads; x and "
		      "y up to 1024, z up to 64)") == 0, "%s", buf);
	occ_seq_refusal(OCC_SEQ_REVERSED, 0, buf, sizeof buf);
	tap_ok(strcmp(buf, "range reversed: START must not exceed END") == 0,
	       "%s", buf);
	occ_seq_refusal(OCC_SEQ_OK, 0, buf, sizeof buf);
	tap_ok(buf[0] == '\0', "no words for no refusal");
}

int main(void)
{
	test_valid();
	test_invalid();
	test_words();
	tap_plan(tap_n);
	return tap_done();
}
