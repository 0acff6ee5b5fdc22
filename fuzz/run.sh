#!/bin/sh
# run.sh SRCDIR SECONDS HARNESS... - runs each built fuzzer (fuzz/fuzz-NAME
# in the current directory) for SECONDS on its corpora; new inputs collect
# in fuzz/corpus/NAME, findings in fuzz/findings/. Prints one line per
# harness and exits 1 if any found something.
srcdir=$1 seconds=$2
shift 2
. "$srcdir/fuzz/corpora.sh"
mkdir -p fuzz/findings
found=0
for h in "$@"; do
	seeds=
	for d in $(corpora "$h"); do
		seeds="$seeds $srcdir/$d"
	done
	mkdir -p "fuzz/corpus/$h"
	log=fuzz/fuzz-$h.log
	# -timeout: one input running 10 s is a hang; -rss_limit_mb: a leak.
	# shellcheck disable=SC2086
	"./fuzz/fuzz-$h" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$PWD/fuzz/findings/$h-" \
		"fuzz/corpus/$h" $seeds >"$log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$st" -eq 0 ]; then
		echo "fuzz $h: ${runs:-?} runs in ${seconds} s, $cov, no finding"
	else
		found=1
		echo "fuzz $h: FINDING (exit $st), see $log and fuzz/findings/:"
		grep -E 'ERROR|runtime error|fuzz check failed|Test unit written' \
			"$log" | head -n 5
	fi
done
exit $found
