// demangle.cc - C++ symbol names for people: the one piece of occcalc in
// C++, because the C++ runtime already knows how to demangle.
#include <cxxabi.h>
#include <cstdlib>

#include "cli.h"

extern "C" char *demangle(const char *mangled)
{
	int status = 0;
	char *s = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);

	if (status != 0) {
		std::free(s);
		return nullptr;
	}
	return s;
}
