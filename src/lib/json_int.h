/*
 * json_int.h - the JSON reader's state, shared by the three files it is
 * written in: json.c (yajl's callbacks, the slices fed), json_scan.c
 * (the scan ahead of yajl) and json_errors.c (failures and where they
 * are). Nothing outside the reader includes it: json.h is its interface.
 */
#ifndef OCC_JSON_INT_H
#define OCC_JSON_INT_H

#include <yajl/yajl_parse.h>

#include "json.h"

/* The scan ahead of yajl: where it is in the text. */
enum scan_state { S_OUT, S_STR, S_ESC, S_HEX, S_WANT_BS, S_WANT_U };

struct scan {
	enum scan_state state;
	int hex, low;               /* digits left; a low surrogate due */
	unsigned u;
	uint64_t str_at, esc_at, high_at, run;
};

/* An open container: its members' key or next index. */
struct level {
	int array;
	int64_t index;
	char *key;
	size_t cap;
};

struct occ_json_reader {
	yajl_handle h;
	occ_json_event_fn fn;
	void *ctx;
	struct occ_json_limits lim;
	struct occ_json_err *err;
	int failed;
	int at_end;                 /* all of the text given: yajl finishes */
	/* The slice yajl reads, where it starts, the lines before it. */
	const unsigned char *slice;
	size_t slice_len;
	uint64_t base, total, lines, line_start;
	struct scan sc;
	/* Where each string scanned and not yet delivered starts. */
	uint64_t *starts;
	size_t head, count, cap;
	/* Containers open: lv[d] holds what is at depth d (1 ..). */
	int depth;
	struct level lv[OCC_JSON_DEPTH_MAX + 2];
	char *tmp;                  /* a number's text, NUL-terminated */
	size_t tmp_cap;
};

/* json_scan.c: one byte of a slice at offset at, scanned before yajl
 * reads it: 0, or -1 with the failure set. */
OCC_INTERNAL int occ_json_scan_byte(struct occ_json_reader *r, unsigned c,
				    uint64_t at);
/* Where the string yajl hands over now starts: the first one scanned
 * and not yet delivered. */
OCC_INTERNAL uint64_t occ_json_pop_start(struct occ_json_reader *r);
/* Whether s (n bytes) is UTF-8 as RFC 3629 has it. */
OCC_INTERNAL int occ_json_utf8_ok(const unsigned char *s, size_t n);

/* json_errors.c: yajl's refusal, at the token it refused, in the
 * project's words, as the read's failure. */
OCC_INTERNAL void occ_json_yajl_failed(struct occ_json_reader *r);

#endif
