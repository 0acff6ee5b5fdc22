#!/usr/bin/env bash
# .ci/fuzz.sh [SANITIZER_BUILD] - the fuzzing step of CI, bounded in time:
#   1. make fuzz: each libFuzzer harness for FUZZ_TIME seconds (default 60),
#   2. the command-line campaign (t/campaign.sh): RUNS mutated example
#      commands (default 3000, seed 1) on the sanitizer build's occcalc.
# SANITIZER_BUILD is a build directory configured with --enable-sanitizers
# (default _build-san, configured here if absent). Exits 1 on any finding.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
build=${1:-_build-san}
status=0

if [ ! -f "$build/Makefile" ]; then
	mkdir -p "$build"
	(cd "$build" && ../configure -q --enable-sanitizers) || exit 1
fi
(cd "$build" && make -s -j2) || exit 1

echo "--- make fuzz, ${FUZZ_TIME:-60} s per harness"
(cd "$build" && make -s fuzz FUZZ_TIME="${FUZZ_TIME:-60}") || status=1

echo "--- the command-line campaign"
RUNS=${RUNS:-3000} SEED=${SEED:-1} MAX_SECONDS=${MAX_SECONDS:-600} \
	FINDINGS="$top/$build/campaign-findings" \
	t/campaign.sh "$top/$build/src/occcalc" || status=1

exit $status
