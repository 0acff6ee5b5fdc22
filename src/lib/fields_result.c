/*
 * fields_result.c - the fields of the model's answer for one launch
 * configuration (struct occ_result), read the same way for every kind of
 * row that shows them: occupancy rows and launch rows. A kind says where
 * its row holds the result (OCC_RESULT_GETTERS in occcalc/fields.h); a
 * row without one (PTX only, a launch not modelled) shows them absent.
 */
#include <stddef.h>

#include "occcalc.h"

#define RESULT_INT(r, f) (*(const int *)((const char *)(r) + (f)->arg))
#define RESULT_U64(r, f) (*(const uint64_t *)((const char *)(r) + (f)->arg))

void occ_result_int(const struct occ_result *r, const struct occ_field *f,
		struct occ_val *v)
{
	if (!r)
		v->type = OCC_VAL_NULL;
	else
		occ_val_uint(v, (uint64_t)RESULT_INT(r, f));
}

void occ_result_bytes(const struct occ_result *r, const struct occ_field *f,
		  struct occ_val *v)
{
	if (!r)
		v->type = OCC_VAL_NULL;
	else
		occ_val_uint(v, RESULT_U64(r, f));
}

/* A resource's own limit: absent where it does not limit at all. */
void occ_result_limit(const struct occ_result *r, const struct occ_field *f,
		  struct occ_val *v)
{
	if (!r || RESULT_INT(r, f) == OCC_UNLIMITED)
		v->type = OCC_VAL_NULL;
	else
		occ_val_uint(v, (uint64_t)RESULT_INT(r, f));
}

void occ_result_occupancy(const struct occ_result *r, const struct occ_field *f,
		      struct occ_val *v)
{
	(void)f;
	if (!r)
		v->type = OCC_VAL_NULL;
	else
		occ_val_pct(v, (uint64_t)r->warps_per_sm,
			(uint64_t)r->max_warps_per_sm);
}

void occ_result_limiter(const struct occ_result *r, const struct occ_field *f,
		    struct occ_val *v)
{
	(void)f;
	if (!r)
		v->type = OCC_VAL_NULL;
	else
		occ_val_limiters(v, r->limiters);
}
