/*
 * config_needs.c - the names of a configuration row's needs
 * (occcalc/config.h), so that a binding takes their values from the
 * library rather than a copy of the header's.
 */
#include <stddef.h>

#include "occcalc.h"

const char *occ_config_need_name(unsigned i)
{
	static const char *const names[] = {
#define NAME(bit, x) [bit] = #x
		NAME(0, OCC_CONFIG_HEADROOM), NAME(1, OCC_CONFIG_MAX_DYN),
#undef NAME
	};
	_Static_assert(OCC_CONFIG_HEADROOM == 1u << 0 &&
		       OCC_CONFIG_MAX_DYN == 1u << 1,
		       "a need's bit is its index in names[]");

	return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}
