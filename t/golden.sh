#!/bin/sh
# golden.sh - what users see, byte for byte: each t/golden/NAME.cmd holds
# the arguments of one occcalc call, NAME.out its expected standard output
# (NAME.status and NAME.err its exit status and standard error, if any).
# The table directory prints as TABLES, the test directory as $T.
. "$T/lib.sh"

for cmd in "$T"/golden/*.cmd; do
	name=$(basename "$cmd" .cmd)
	args=$(cat "$cmd")
	# shellcheck disable=SC2086
	eval "set -- $args"
	run "$@"
	sed "s|$OCCCALC_TABLES|TABLES|g; s|$T/|\$T/|g" "$tmp/out" >"$tmp/got"
	# NAME.status: the exit status expected, if not 0; NAME.err: the
	# standard error expected, if not empty.
	want=0
	[ -f "$T/golden/$name.status" ] && want=$(cat "$T/golden/$name.status")
	: >"$tmp/want-err"
	if [ -f "$T/golden/$name.err" ]; then cp "$T/golden/$name.err" "$tmp/want-err"; fi
	diff -u "$T/golden/$name.out" "$tmp/got" >"$tmp/diff"
	sed "s|$OCCCALC_TABLES|TABLES|g; s|$T/|\$T/|g" "$tmp/err" >"$tmp/got-err"
	diff -u "$tmp/want-err" "$tmp/got-err" >>"$tmp/diff"
	[ ! -s "$tmp/diff" ] && [ "$status" -eq "$want" ]
	ok $? "$name: occcalc $args"
	sed 's/^/# /' "$tmp/diff"
	[ "$status" -eq "$want" ] || echo "# exit status $status, not $want"
done

done_testing
