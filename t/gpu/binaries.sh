#!/bin/sh
# binaries.sh - on the GPU machine: build the reader, then compare its
# reading of t/fixtures/bin with cuobjdump and the driver API
# (t/gpu/binaries.py), the report into $1 (default docs/binaries-validation.md).
# ZSTD_DIR: where zstd.h and libzstd.so are, when the system has none.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
md=${1:-$top/docs/binaries-validation.md}
out=${OUT:-$(mktemp -d)}
b=$top/_gpubuild
mkdir -p "$b" "$out"
cd "$b"
if [ -n "$ZSTD_DIR" ]; then
	export CPPFLAGS="-I$ZSTD_DIR/include" LDFLAGS="-L$ZSTD_DIR/lib"
	export LD_LIBRARY_PATH="$ZSTD_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
"$top/configure" -q --without-cuda --with-zstd >/dev/null
make -s -j8 libocccalc.la t/binary-dump >/dev/null
cuda=${CUDA_DIR:-/usr/local/cuda}
gcc -std=c11 -O2 -I"$top/src/lib" -I"$cuda/include" \
	"$top/t/gpu/driver-attrs.c" .libs/libocccalc.a $LDFLAGS -lzstd \
	-L"$cuda/lib64/stubs" -lcuda -o driver-attrs
OCCCALC_TABLES=$top/data/arch-tables; export OCCCALC_TABLES
python3 "$top/t/gpu/binaries.py" collect "$b/t/binary-dump" "$b/driver-attrs" \
	"$top/t/fixtures/bin" "$out"
python3 "$top/t/gpu/binaries.py" report "$out" "$md"
