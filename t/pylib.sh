#!/bin/sh
# pylib.sh - runs t/python/NAME.py for t/python-NAME.sh (sourced): the
# Python package (python/occcalc) over the library just built. The
# scripts print TAP; they run where python3 is found and the library is
# shared, and skip otherwise.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

py=${PYTHON:-python3}
[ "$py" != : ] && command -v "$py" >/dev/null 2>&1 ||
	skip_all "no python3"
[ -f "$LIBDIR/libocccalc.so" ] ||
	skip_all "no shared library built: configure --enable-shared"
# Python cannot load a library built with AddressSanitizer unless its
# runtime comes first; the sanitizer build tests the C side.
[ -z "$SAN_CFLAGS" ] ||
	skip_all "a sanitizer build (python3 would need its runtime preloaded)"
OCCCALC_LIB=$LIBDIR/libocccalc.so
PYTHONPATH=$T/../python:$T/python${PYTHONPATH:+:$PYTHONPATH}
export OCCCALC_LIB PYTHONPATH
exec "$py" "$T/python/$(basename "$0" .sh | sed 's/^python-//').py"
