/* out.h - what rows print through: the formats, values and fields, one
 * table of fields per kind of row (fields.c), --fields' selection, and
 * the writers (out.c), one per format. */
#ifndef OCC_CLI_OUT_H
#define OCC_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_JSONL };
/* --format csv,noheader,nounits (nvidia-smi's words), for CSV and text
 * tables: no header row; values without units (a table's '%'). */
#define OUT_NOHEADER 1u
#define OUT_NOUNITS 2u

/* ---- Values and fields: one table per kind of row (fields.c) ---- */

/* The command line's own; the listings' and --info's others are the
 * library's (occcalc/lists.h). */
extern const struct occ_row_kind kind_occupancy, kind_access, kind_persist,
	kind_info, kind_devices, kind_fields, kind_traffic;

#define MAX_FIELDS 128

/* The fields a run prints, in order. */
struct fieldsel {
	const struct occ_field *f[MAX_FIELDS];
	size_t n;
	unsigned needs;        /* the union of their needs */
};

/* --fields LIST if given (a usage error names an unknown field and lists
 * the kind's), else defaults, a comma-separated list of names. */
void fieldsel_make(struct fieldsel *sel, const struct occ_row_kind *kind,
		   const char *given, const char *defaults);

/* ---- Writers (out.c): one per format, rows computed before ---- */

struct check_set;
struct progress;

struct out {
	FILE *f;
	struct progress *progress; /* a line on the terminal, cleared
				    * before rows are written */
	struct check_set *check;   /* --check: judges each row written */
	enum out_format format;
	const struct fieldsel *sel;
	int record;            /* text and CSV: one row as key/value lines */
	int stream;            /* JSON Lines: flush each row (slow rows) */
	unsigned style;        /* OUT_NOHEADER, OUT_NOUNITS */
	uint64_t rows;
	int piece;             /* rows of a longer output (out_piece_open) */
	char *mem;             /* a piece's text */
	size_t mem_len, mem_cap;
	int mem_failed;        /* it could not grow: the piece is dropped */
	size_t len;
	char buf[1 << 16];
};

void out_open(struct out *o, FILE *f, enum out_format format,
	      const struct fieldsel *sel);
/* The user's --format modifiers (csv,noheader,nounits) for o. */
void out_style(struct out *o, unsigned style);
void out_row(struct out *o, const void *row);
/* A line of text between a text table's rows (a sum, a note). */
void out_text(struct out *o, const char *s);
/* Ends the output; exits with "write error" if writing failed. */
void out_close(struct out *o);
/* Rows of whole's output made elsewhere (on another thread): o writes
 * them to memory as whole would, without the header; out_piece_close
 * ends the piece, out_join appends it to whole, in order. */
int out_piece_open(struct out *o, const struct out *whole);
int out_piece_close(struct out *o);
void out_join(struct out *whole, struct out *piece);

/* JSON that is not a row's (chrome.c), in a piece (out_piece_open):
 * bytes as they are, a string escaped as rows' are, and a row's object
 * of the selected fields as JSON and JSON Lines rows write it. */
void out_put(struct out *o, const char *s, size_t n);
void out_put_json_string(struct out *o, const char *s);
void out_object(struct out *o, const void *row);
/* A piece's text so far (len bytes; NULL: none, or memory failed),
 * taken: the next put starts it again; valid until then. */
const char *out_piece_take(struct out *o, size_t *len);

/* "sm_90" for 9.0 */
void arch_tag(char *buf, size_t n, const struct occ_arch *a);
/* A file to write besides the rows (--plot FILE): '-' is standard
 * output; a FIFO without a reader is an error, not a wait. Exits with
 * the reason if it cannot be opened. */
FILE *out_file_open(const char *path);
/* Closes it (flushes standard output); nonzero if writing failed. */
int out_file_close(FILE *f);
/* Flushes stdout; exits with "write error" if that failed. */
void flush_stdout(void);

#endif
