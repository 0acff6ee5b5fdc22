#!/bin/sh
# golden.sh - what users see, byte for byte: each t/golden/NAME.cmd holds
# the arguments of one occcalc call, NAME.out its expected standard output.
# The table directory prints as TABLES, the test directory as $T.
. "$T/lib.sh"

for cmd in "$T"/golden/*.cmd; do
	name=$(basename "$cmd" .cmd)
	args=$(cat "$cmd")
	# shellcheck disable=SC2086
	eval "set -- $args"
	run "$@"
	sed "s|$OCCCALC_TABLES|TABLES|g; s|$T/|\$T/|g" "$tmp/out" >"$tmp/got"
	diff -u "$T/golden/$name.out" "$tmp/got" >"$tmp/diff"
	[ $? -eq 0 ] && [ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]
	ok $? "$name: occcalc $args"
	sed 's/^/# /' "$tmp/diff" "$tmp/err"
done

done_testing
