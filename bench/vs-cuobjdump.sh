#!/bin/sh
# vs-cuobjdump.sh OCCCALC LIBDIR... - occcalc --kernels -f csv against
# cuobjdump --dump-resource-usage on the same files (every file of 1 MB or
# more with a .nv_fatbin section), alternating, best of 3 wall-clock
# seconds each; the ratio per file and over the whole set. With
# BASELINE set to another occcalc, that one runs in the same rounds (its
# own column and ratio), and the two must print the same bytes.
LC_ALL=C       # a decimal point, whatever the user's locale
export LC_ALL
occ=$1
shift
base=${BASELINE:-}
# One run's wall-clock seconds: the command's start (fork and exec), run
# and exit. Under bash 5 the clock is read without starting a process;
# elsewhere date(1) is started around it, and each figure counts a part
# of date's own start and exit too (docs/kernels-speed.md).
best1() {   # best1 CMD...
	if [ -n "${EPOCHREALTIME:-}" ]; then
		s=$EPOCHREALTIME
		"$@" >/dev/null 2>&1
		e=$EPOCHREALTIME
	else
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s.%N)
	fi
	echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }'
}
least() { echo "$@" | tr ' ' '\n' | sort -n | head -n 1; }
ratio() { echo "$1 $2" | awk '{ printf "%.1fx", ($2 > 0 ? $1 / $2 : 0) }'; }
# Same bytes from both occcalc builds, or "DIFFER": standard output and
# error each (where a warning falls among the rows is not a difference:
# streamed rows come before a count the end of the file gives).
same() {
	w=/tmp/vs-cuobjdump.$$
	"$occ" --kernels "$1" -f csv >$w.a 2>$w.ae
	"$base" --kernels "$1" -f csv >$w.b 2>$w.be
	cmp -s $w.a $w.b && cmp -s $w.ae $w.be && echo same || echo DIFFER
	rm -f $w.a $w.b $w.ae $w.be
}
if [ -n "$base" ]; then
	printf '%-40s %5s %8s %9s %6s %8s %6s %5s\n' file MB occcalc \
		cuobjdump ratio baseline ratio rows
else
	printf '%-44s %7s %9s %9s %7s\n' file MB occcalc cuobjdump ratio
fi
tot_o=0 tot_c=0 tot_b=0
for dir in "$@"; do
	for f in "$dir"/*.so*; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		[ "$(stat -c %s "$f")" -ge 1048576 ] || continue
		if command -v objdump >/dev/null; then
			objdump -h "$f" 2>/dev/null | grep -q nv_fatbin || continue
		fi
		o= c= b=
		for i in 1 2 3; do   # alternating: one of each, three times
			o="$o $(best1 "$occ" --kernels "$f" -f csv)"
			c="$c $(best1 cuobjdump --dump-resource-usage "$f")"
			[ -z "$base" ] ||
				b="$b $(best1 "$base" --kernels "$f" -f csv)"
		done
		o=$(least $o) c=$(least $c)
		tot_o=$(echo "$tot_o $o" | awk '{ print $1 + $2 }')
		tot_c=$(echo "$tot_c $c" | awk '{ print $1 + $2 }')
		mb=$(($(stat -c %s "$f") >> 20))
		if [ -n "$base" ]; then
			b=$(least $b)
			tot_b=$(echo "$tot_b $b" | awk '{ print $1 + $2 }')
			printf '%-40s %5d %8s %9s %6s %8s %6s %5s\n' \
				"$(basename "$f")" "$mb" "$o" "$c" \
				"$(ratio "$c" "$o")" "$b" "$(ratio "$c" "$b")" \
				"$(same "$f")"
		else
			printf '%-44s %7d %9s %9s %7s\n' "$(basename "$f")" \
				"$mb" "$o" "$c" "$(ratio "$c" "$o")"
		fi
	done
done
if [ -n "$base" ]; then
	printf '%-40s %5s %8.2f %9.2f %6s %8.2f %6s\n' "whole set" "" \
		"$tot_o" "$tot_c" "$(ratio "$tot_c" "$tot_o")" "$tot_b" \
		"$(ratio "$tot_c" "$tot_b")"
else
	printf '%-44s %7s %9.2f %9.2f %7s\n' "whole set" "" "$tot_o" "$tot_c" \
		"$(ratio "$tot_c" "$tot_o")"
fi
