#!/bin/sh
# hostile.sh - the third hostile-input round's reproducers (issue 30,
# t/fixtures/hostile/README): each is refused in one line, or read right,
# in bounded time and memory.
. "$T/lib.sh"
H=$T/fixtures/hostile

# run_argv FILE: occcalc with FILE's lines as its arguments.
run_argv() {
	f=$1
	set --
	while IFS= read -r a; do
		set -- "$@" "$a"
	done <"$f"
	run "$@"
}

run_argv "$H/access-offset-wrap.argv"
[ "$status" -eq 2 ] &&
	one_error_line "--offset 18446744073709551615: the addresses of 4-byte elements overflow 64 bits"
ok $? "F1: --offset 2^64-1 is refused as overflowing, not computed as -1"

expect 2 "--offset 9223372036854775808: the addresses of 1-byte elements overflow 64 bits" \
	-a 90 --access load --elem 1 --offset 9223372036854775808
run -a 90 --access load --elem 1 --stride 0 --offset 9223372036854775807 -f csv --fields offset,sectors
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "9223372036854775807,1" ]
ok $? "F1: --offset 2^63-1 of 1-byte elements still fits"

run_argv "$H/check-decimal-truncation.argv"
[ "$status" -eq 2 ] &&
	one_error_line "'40.0000000000000000001': more than 18 digits after the point"
ok $? "F9: a --check number with a 19th digit after the point is refused, not truncated"

run -a 90 -b 64 -r 40 --check 'regs < 40.000000000000000001'
[ "$status" -eq 0 ]
ok $? "F9: 18 digits after the point compare exactly (40 < 40.000000000000000001)"

run -a 90 -b 64 -r 40 --check 'regs == 40.000000000000000000000000'
[ "$status" -eq 0 ]
ok $? "F9: zeros past the 18th digit change nothing"

done_testing
