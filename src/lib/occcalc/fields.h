/*
 * occcalc/fields.h - rows and their fields: every kind of row occcalc
 * writes (an occupancy configuration, a launch of a trace, ...) is one
 * table of fields, each a name, a type, a description and a getter that
 * reads the row into a value. The command line prints these tables in
 * every format; a program reads the same values, or a row's JSON object,
 * through the same getters, so it cannot get another answer.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_FIELDS_H
#define OCCCALC_FIELDS_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/fields.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum occ_val_type {
	OCC_VAL_NULL,  /* absent: null in JSON */
	OCC_VAL_UINT,
	OCC_VAL_DEC,   /* a number already written out (s): 75.00 */
	OCC_VAL_STR,   /* text */
	OCC_VAL_BOOL,
	OCC_VAL_SET,   /* names (strs): a JSON array of strings */
	OCC_VAL_LIST   /* numbers (list): a JSON array of numbers */
};

/* A field's value in a row: valid until the row changes. */
struct occ_val {
	enum occ_val_type type;
	uint64_t u;
	const char *s;
	const char *strs[8];
	const uint64_t *list;
	size_t n;
	char buf[48];          /* room for a getter's text */
	uint64_t nums[4];      /* and for its list */
};

struct occ_field;
typedef void (*occ_field_get)(const void *row, const struct occ_field *f,
			      struct occ_val *v);

/* How a field shows in a text table (the command line's): the header
 * label, the width (negative: left-aligned), the spaces before it, and: */
#define OCC_TXT_PCT 1u     /* a percentage: '%' after the value */
#define OCC_TXT_DASH 2u    /* absent: '-' */
#define OCC_TXT_DIMS 4u    /* a list of dimensions: 2048x1x1, one cell */

struct occ_text_col {
	const char *label;     /* NULL: the field's name */
	int width;
	int gap;
	unsigned flags;
	occ_field_get get;     /* what the text shows, if not the value */
	int at;                /* starts at this column, if the line is short */
};

enum occ_field_type { OCC_FT_INT, OCC_FT_DEC, OCC_FT_STR, OCC_FT_BOOL,
		      OCC_FT_SET, OCC_FT_LIST };

struct occ_field {
	const char *name;
	enum occ_field_type type;
	const char *desc;
	occ_field_get get;
	const char *none;      /* CSV and text for an absent value ("") */
	struct occ_text_col text;
	unsigned needs;        /* what the row must have computed (its kind's
				  bits) */
	size_t arg;            /* for getters shared by several fields */
};

/* The fields of one kind of row: base's (a kind it extends, whose rows
 * its own rows begin with), then its own. */
struct occ_row_kind {
	const char *name;
	const struct occ_field *fields;
	size_t n;
	const struct occ_row_kind *base;   /* NULL: none */
};

/* How many fields kind has, its base's included, and its i-th. */
size_t occ_row_kind_count(const struct occ_row_kind *kind);
const struct occ_field *occ_row_kind_field(const struct occ_row_kind *kind,
					   size_t i);
/* kind's field named by the len bytes at name, or NULL. */
const struct occ_field *occ_field_find(const struct occ_row_kind *kind,
				       const char *name, size_t len);
/* "integer", "decimal", "string", "boolean", "set", "list". */
const char *occ_field_type_name(enum occ_field_type t);

/* num/den in percent with two decimals, ties to even (buf: 24 bytes):
 * every percentage occcalc writes goes through here, so all agree. */
void occ_format_percent(char *buf, uint64_t num, uint64_t den);
/* The decimals a decimal field is written with, by its unit: times
 * (_ms, _us) 3, hit_ratio 4, the rest (percentages, ratios) 2. */
int occ_field_decimals(const char *field_name);

/* Values as getters make them. */
void occ_val_uint(struct occ_val *v, uint64_t u);
void occ_val_pct(struct occ_val *v, uint64_t num, uint64_t den);
/* x with f's decimals; absent when not finite. */
void occ_val_dec(struct occ_val *v, const struct occ_field *f, double x);
/* The set of the limiting resources (enum occ_resource bits), in the one
 * order every kind of row names them. */
void occ_val_limiters(struct occ_val *v, unsigned limiters);
/* v as text into buf: a number in decimal, true or false, a set
 * '+'-joined, a list ' '-joined; "" when absent. */
void occ_val_format(char *buf, size_t n, const struct occ_val *v);

/* v as JSON into buf (cap bytes, NUL-terminated when cap > 0); returns
 * the length it needs, as snprintf does: a decimal that is no JSON number
 * is null, strings are escaped (quotes, backslashes, control
 * characters). */
size_t occ_val_json(const struct occ_val *v, char *buf, size_t cap);
/* row's object of fields f[0..n) ({"name":value,...}) into buf, as
 * occ_val_json. */
size_t occ_row_json(const struct occ_field *const *f, size_t n,
		    const void *row, char *buf, size_t cap);

/* The fields of the model's result (struct occ_result), read one way for
 * every kind of row: r is the row's result (NULL: it has none, and they
 * are absent), f's arg the member's offset in it (OCC_RESULT_AT). A kind's
 * table gets getters of its rows from OCC_RESULT_GETTERS(where), where(row)
 * giving the result: get_result_int, _bytes (uint64_t members), _limit
 * (absent where OCC_UNLIMITED), _occupancy, _limiter. */
void occ_result_int(const struct occ_result *r, const struct occ_field *f,
		    struct occ_val *v);
void occ_result_bytes(const struct occ_result *r, const struct occ_field *f,
		      struct occ_val *v);
void occ_result_limit(const struct occ_result *r, const struct occ_field *f,
		      struct occ_val *v);
void occ_result_occupancy(const struct occ_result *r,
			  const struct occ_field *f, struct occ_val *v);
void occ_result_limiter(const struct occ_result *r, const struct occ_field *f,
			struct occ_val *v);
#define OCC_RESULT_AT(member) offsetof(struct occ_result, member)
#define OCC_RESULT_GETTER(name, where) \
	static void get_result_##name(const void *p, const struct occ_field *f, \
				      struct occ_val *v) \
	{ occ_result_##name(where(p), f, v); }
#define OCC_RESULT_GETTERS(where) OCC_RESULT_GETTER(int, where) \
	OCC_RESULT_GETTER(bytes, where) OCC_RESULT_GETTER(limit, where) \
	OCC_RESULT_GETTER(occupancy, where) OCC_RESULT_GETTER(limiter, where)

/* The limits of a result (struct occ_result's limit_*), for every kind of
 * row that has them: a table defines LIMIT(name, member, desc) to make
 * its entry. */
#define OCC_LIMIT_FIELDS \
	LIMIT("limit_warps", limit_warps, \
	      "blocks per SM the warp slots alone allow"), \
	LIMIT("limit_registers", limit_registers, "blocks per SM the " \
	      "registers alone allow (absent: no registers used)"), \
	LIMIT("limit_shared_memory", limit_shared_memory, "blocks per SM the " \
	      "shared memory alone allows (absent: none used)"), \
	LIMIT("limit_blocks", limit_blocks, \
	      "blocks per SM the block slots allow"), \
	LIMIT("limit_barriers", limit_barriers, "blocks per SM the barriers " \
	      "alone allow (absent: they do not limit)")

#ifdef __cplusplus
}
#endif

#endif
