#!/bin/sh
# exports.sh - libocccalc.so exports exactly the functions occcalc.h
# declares (with the headers it includes, occcalc/*.h): no internal
# helper leaks, nothing declared is missing.
. "$T/lib.sh"

so=$LIBDIR/libocccalc.so
[ -f "$so" ] || skip_all "no shared library built ($so): configure --enable-shared"
command -v nm >/dev/null 2>&1 || skip_all "nm not found"

nm -D --defined-only "$so" | awk '$2 ~ /^[TWDBR]$/ { print $3 }' |
	sort -u >"$tmp/exported"
# Functions, and the tables declared extern (a kind of row's fields).
cat "$HEADER" "$(dirname "$HEADER")"/occcalc/*.h |
	grep -oE '\<occ_[a-z0-9_]+ *\([^*]|^extern [^;(]*\<occ_[a-z0-9_]+;' |
	sed -E 's/ *\(.$//; s/^extern .*\<(occ_[a-z0-9_]+);$/\1/' | sort -u \
	>"$tmp/declared"
[ -s "$tmp/declared" ]
ok $? "occcalc.h declares functions and tables ($(wc -l <"$tmp/declared"))"
extra=$(comm -23 "$tmp/exported" "$tmp/declared" | tr '\n' ' ')
[ -z "$extra" ]
ok $? "the library exports nothing occcalc.h does not declare${extra:+ (extra: $extra)}"
missing=$(comm -13 "$tmp/exported" "$tmp/declared" | tr '\n' ' ')
[ -z "$missing" ]
ok $? "every function occcalc.h declares is exported${missing:+ (missing: $missing)}"

# (A return type before a callback's '(*name)' is no function.)

# The command line uses the library's API, not its insides.
! grep -l '#include "util.h"' "$T"/../src/cli/*.c "$T"/../src/cli/*.h \
	"$T"/../src/gpu/*.c "$T"/../src/gpu/*.h 2>/dev/null | grep -q .
ok $? "no file of the command line includes the library's util.h"

# What occcalc.h includes is installed beside it: a header missing from
# occcalcinc_HEADERS builds here and breaks every program built against
# the installed library (and make distcheck).
sed -n '/^occcalcinc_HEADERS/,/[^\\]$/p' "$T/../Makefile.am" |
	grep -oE 'occcalc/[a-z_]+\.h' | sort -u >"$tmp/installed"
grep -oE '^#include "occcalc/[a-z_]+\.h"' "$HEADER" |
	grep -oE 'occcalc/[a-z_]+\.h' | sort -u >"$tmp/included"
absent=$(comm -13 "$tmp/installed" "$tmp/included" | tr '\n' ' ')
[ -s "$tmp/included" ] && [ -z "$absent" ]
ok $? "every header occcalc.h includes is installed (occcalcinc_HEADERS)${absent:+ (not: $absent)}"

done_testing
