#!/bin/sh
# libs.sh OCCCALC [LIBDIR] - occcalc --kernels -f csv on the toolkit's
# largest libraries with GPU code: seconds and peak resident memory
# (/usr/bin/time's maximum resident set size), default threads and one.
occ=$1
dir=${2:-${CUDA_HOME:-/usr/local/cuda}/lib64}
printf '%-40s %8s %6s %8s %10s %10s\n' library MB rows s "peak MB" "1 job s"
for lib in libcublasLt.so.13 libcudnn_engines_precompiled.so.9 libnccl.so.2 \
	libcusparse.so.12 libcusolver.so.12 libcurand.so.10 libcublas.so.13 \
	libnppif.so.13 libnppial.so.13 libnppist.so.13; do
	f=$dir/$lib
	[ -f "$f" ] || continue
	t=$( { /usr/bin/time -f '%e %M' "$occ" --kernels "$f" -f csv >/tmp/occcalc-bench.$$ ; } 2>&1 | tail -n 1)
	rows=$(($(wc -l </tmp/occcalc-bench.$$) - 1))
	t1=$( { /usr/bin/time -f '%e' "$occ" --jobs 1 --kernels "$f" -f csv >/dev/null ; } 2>&1 | tail -n 1)
	set -- $t
	printf '%-40s %8d %6d %8s %10d %10s\n' "$lib" $(($(stat -L -c %s "$f") >> 20)) \
		"$rows" "$1" $(($2 >> 10)) "$t1"
done
rm -f /tmp/occcalc-bench.$$
