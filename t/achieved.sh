#!/bin/sh
# achieved.sh - --trace --achieved without a GPU: the figures a real run
# measured (t/fixtures/traces/occcalc-achieved.jsonl, made on an H100 by
# make check-gpu's achieved step) read into the launch rows and the
# summary, checked against Nsight Compute's for the same launches
# (achieved-ncu.csv beside it); what --achieved asks of the injection
# library; --check on the figure. The measurement itself is checked on
# the GPU (t/gpu/achieved.sh).
. "$T/lib.sh"

F=$T/fixtures/traces
A=$F/occcalc-achieved.jsonl

run --launches "$A" -f csv,noheader --fields correlation,achieved_occupancy_pct,duration_ns
measured=$(awk -F, '$2 != ""' "$tmp/out" | wc -l)
[ "$status" -eq 0 ] && [ "$measured" -eq 101 ] &&
	grep -q '"achieved_measured":101,' "$A"
ok $? "the 101 launches the run measured (3 of each kernel, as its end record counts) read with their figure, the others without"

[ "$(awk -F, '$2 != "" && !($3 > 0)' "$tmp/out" | wc -l)" -eq 0 ]
ok $? "each measured launch has a duration: the profiler's (CUPTI's record of it has none)"

# Against Nsight Compute: the trace's launches in call order are its IDs.
# A launch agrees within 1 point of one of its two runs (caches flushed
# or not) or between them.
sort -t, -k1,1n "$tmp/out" | awk -F, 'NR == FNR { if (FNR > 1) { a[FNR - 2] = $2; b[FNR - 2] = $3 }; next }
	$2 != "" {
		i = FNR - 1; x = $2 + 0; lo = a[i] < b[i] ? a[i] : b[i]; hi = a[i] + b[i] - lo
		d = x - a[i]; if (d < 0) d = -d; e = x - b[i]; if (e < 0) e = -e
		n++; if (d <= 1 || e <= 1 || (x >= lo && x <= hi)) agree++
	}
	END { print n, agree }' "$F/achieved-ncu.csv" - >"$tmp/agree"
read -r n_measured n_agree <"$tmp/agree"
echo "# $n_agree of $n_measured measured launches agree with Nsight Compute"
[ "$n_measured" -eq 101 ] && [ "$n_agree" -ge 96 ]
ok $? "the measured figures agree with Nsight Compute's for the same launches (at least 95 %)"

run --launches "$A"
[ "$status" -eq 0 ] && grep -q '  tail          achieved  limiter$' "$tmp/out" &&
	grep -q '^nvjet_sm90_tst_64x48_64x15_2x4_h_bz_NNT .*  14\.11% (18\.75%)  registers+shared_memory$' "$tmp/out"
ok $? "the summary's achieved column: a cuBLAS GEMM at 14.11 % achieved of its 18.75 %"

run --launches "$T/fixtures/launches/small.jsonl"
[ "$status" -eq 0 ] && ! grep -q achieved "$tmp/out"
ok $? "no achieved column for a trace without measurements"

run --launches "$A" -f csv --fields kernel,achieved_occupancy_pct \
	--check 'achieved_occupancy_pct == none || achieved_occupancy_pct >= 5'
[ "$status" -eq 1 ] && grep -q "^occcalc: --check: 9 of 142 rows fail" "$tmp/err"
ok $? "--check gates on the achieved figure (9 launches measured below 5 %)"

# A stand-in for the traced program: the environment --achieved sets,
# and the fixture as its trace, named and headed with the run's id as the
# injection library writes it (docs/trace-format.md).
cat >"$tmp/prog" <<EOS
#!/bin/sh
echo "OCCCALC_ACHIEVED=\${OCCCALC_ACHIEVED-unset}" >"$tmp/env"
sed "1s/\"version\":1,/&\"run\":\"\$OCCCALC_TRACE_RUN\",/" "$A" \
	>"\$OCCCALC_TRACE_OUT/occcalc-trace.\$OCCCALC_TRACE_RUN.\$\$.jsonl"
EOS
chmod +x "$tmp/prog"
OCCCALC_TRACE_LIB="$tmp/occtrace.so"
: >"$OCCCALC_TRACE_LIB"
export OCCCALC_TRACE_LIB
for a in "--achieved 3" "--achieved=all,7 7" "- unset"; do
	set -- $a
	opt=$1
	[ "$opt" = - ] && opt=
	mkdir -p "$tmp/d"
	run --trace $opt --trace-out "$tmp/d/" -- "$tmp/prog"
	[ "$status" -eq 0 ] && [ "$(cat "$tmp/env")" = "OCCCALC_ACHIEVED=$2" ]
	ok $? "--trace ${opt:-without --achieved}: OCCCALC_ACHIEVED=$2 for the command"
	rm -rf "$tmp/d"
done

mkdir -p "$tmp/d"
run --trace --achieved=2 --trace-out "$tmp/d/" -- "$tmp/prog"
[ "$(grep -c '%)  ' "$tmp/out")" -eq 2 ] && grep -q 'Shown for the kernels with the most GPU time' "$tmp/out"
ok $? "--achieved=2: the achieved column for the 2 kernels with the most GPU time"
rm -rf "$tmp/d"

expect 2 "--achieved: '0': below the minimum of 1" --trace --achieved=0 -- true
expect 2 "--achieved: 'x': not a number" --trace --achieved=3,x -- true
expect 2 "--achieved does not apply to --launches" --launches "$A" --achieved

# The reader: a figure that is no percentage is refused with its key.
head -3 "$F/occcalc-trace.jsonl" | sed 's/"end_ns":\([0-9]*\)}$/"end_ns":\1,"achieved_occupancy_pct":250}/' >"$tmp/bad.jsonl"
run --launches "$tmp/bad.jsonl"
[ "$status" -eq 1 ] && grep -q "achieved_occupancy_pct" "$tmp/err"
ok $? "an achieved_occupancy_pct of 250 is refused, naming the key"

done_testing
