// demangle.cc - C++ symbol names for people (occ_demangle,
// occcalc/kernel_row.h): the one piece of libocccalc in C++, because the
// C++ runtime already knows how to demangle, and in the library so that
// every front end names a kernel alike.
#include <cxxabi.h>
#include <cstdlib>

#include "occcalc.h"

extern "C" char *occ_demangle(const char *mangled)
{
	int status = 0;
	char *s = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);

	if (status != 0) {
		std::free(s);
		return nullptr;
	}
	return s;
}
