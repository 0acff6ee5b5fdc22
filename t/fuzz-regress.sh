#!/bin/sh
# fuzz-regress.sh - every fuzz harness, built without libFuzzer, replays its
# seeds and the reproducers kept in t/fuzz-repro/ without a finding: a
# crash, a sanitizer report (in the sanitizer build) or a failed check.
. "$T/lib.sh"
. "$T/../fuzz/corpora.sh"

for h in $FUZZ_HARNESSES; do
	dirs=
	# A harness with no reproducers kept has no directory of them (git
	# keeps no empty directories).
	for d in $(corpora "$h"); do
		[ -d "$T/../$d" ] && dirs="$dirs $T/../$d"
	done
	# shellcheck disable=SC2086
	"$FUZZ_REPLAY/replay-$h" $dirs >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ]
	ok $? "fuzz harness $h: $(cat "$tmp/out") replay without a finding"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$tmp/err" | head -n 20
done

done_testing
