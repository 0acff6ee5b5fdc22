#!/bin/sh
# binaries.sh - on the GPU machine (make check-gpu): the reader's view of
# t/fixtures/bin beside cuobjdump's and the driver's (t/gpu/binaries.py).
# Usage: binaries.sh BUILDDIR REPORT.md [DRIVER.csv]; BUILDDIR holds
# t/binary-dump and t/gpu/driver-attrs, built; OCCCALC_TABLES is set.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: binaries.sh BUILDDIR REPORT.md [DRIVER.csv]" >&2; exit 2; }
b=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${PYTHON3:-python3} "$top/t/gpu/binaries.py" collect "$b/t/binary-dump" \
	"$b/t/gpu/driver-attrs" "$top/t/fixtures/bin" "$work"
${PYTHON3:-python3} "$top/t/gpu/binaries.py" report "$work" "$2" ${3:+"$3"}
