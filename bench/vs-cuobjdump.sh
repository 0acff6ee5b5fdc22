#!/bin/sh
# vs-cuobjdump.sh OCCCALC LIBDIR... - occcalc --kernels -f csv against
# cuobjdump --dump-resource-usage on the same files (every file of 1 MB or
# more with a .nv_fatbin section), alternating, best of 3 wall-clock
# seconds each; the ratio per file and over the whole set.
occ=$1
shift
best1() {   # best1 CMD...: one run's wall-clock seconds
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }'
}
printf '%-44s %7s %9s %9s %7s\n' file MB occcalc cuobjdump ratio
tot_o=0 tot_c=0
for dir in "$@"; do
	for f in "$dir"/*.so*; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		[ "$(stat -c %s "$f")" -ge 1048576 ] || continue
		if command -v objdump >/dev/null; then
			objdump -h "$f" 2>/dev/null | grep -q nv_fatbin || continue
		fi
		o= c=
		for i in 1 2 3; do   # alternating: one of each, three times
			o=$(echo "$o $(best1 "$occ" --kernels "$f" -f csv)")
			c=$(echo "$c $(best1 cuobjdump --dump-resource-usage "$f")")
		done
		o=$(echo $o | tr ' ' '\n' | sort -n | head -n 1)
		c=$(echo $c | tr ' ' '\n' | sort -n | head -n 1)
		tot_o=$(echo "$tot_o $o" | awk '{ print $1 + $2 }')
		tot_c=$(echo "$tot_c $c" | awk '{ print $1 + $2 }')
		printf '%-44s %7d %9s %9s %6.1fx\n' "$(basename "$f")" \
			$(($(stat -c %s "$f") >> 20)) "$o" "$c" \
			"$(echo "$c $o" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
	done
done
printf '%-44s %7s %9.2f %9.2f %6.1fx\n' "whole set" "" "$tot_o" "$tot_c" \
	"$(echo "$tot_c $tot_o" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
