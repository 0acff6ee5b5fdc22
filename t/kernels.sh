#!/bin/sh
# kernels.sh - --ptxas: occupancy of the kernels in real compiler reports
# (t/fixtures, made with nvcc and cuobjdump from t/fixtures/kernels.cu).
. "$T/lib.sh"
F=$T/fixtures

run --ptxas "$F/ptxas-sm90.txt" -b 256 -f csv
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out" | wc -l)" -eq 7 ]
ok $? "ptxas output for sm_90: one row per kernel, 7 kernels"
grep -q '^sm_90,256,11,0,2048,4,32,50.00,barriers,.*,named_barriers(float\*),_Z14named_barriersPf,' "$tmp/out"
ok $? "a kernel using 16 barriers is limited by them: 64 / 16 = 4 blocks"
grep -q ',"void occcalc_fixtures::reduce_kernel<float, 256, occcalc_fixtures::max_op>(float const\*, float\*, occcalc_fixtures::max_op)",_ZN16occcalc_fixtures13reduce_kernelIfLi256ENS_6max_opEEEvPKT_PS2_T1_,' "$tmp/out"
ok $? "template kernels are demangled, the mangled name beside them"
grep -q '^sm_90,256,32,.*,"spill(double const\*, double\*, int)",_Z5spillPKdPdi,400,480,544,' "$tmp/out"
ok $? "spills are reported: 400 B stack, 480 B stored, 544 B loaded"

run --ptxas "$F/ptxas-multi.txt" -b 128 -f csv
[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 7 sm_120; 7 sm_75; 7 sm_86;" ]
ok $? "several architectures in one report: each kernel for each"
run --ptxas "$F/ptxas-multi.txt" -a 8.6 -b 128 -f csv
[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = "sm_86" ]
ok $? "--arch keeps the kernels compiled for it"

run --ptxas "$F/cuobjdump-multi.txt" -a sm_75 -b 128 -f json
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) == 7 and all(r["barriers"] == 1 for r in d) and {r["mangled"] for r in d} >= {"_Z5saxpyifPKfPf"}' <"$tmp/out"
	ok $? "cuobjdump output: 7 kernels, barriers taken as 1 (it reports none)"
else
	skip 1 "python3 is not installed (./bootstrap installs it)"
fi
a=$("$OCCCALC" --ptxas "$F/cuobjdump-sm90.txt" -b 256 -f csv | cut -d, -f1-8 | sort)
b=$("$OCCCALC" --ptxas "$F/ptxas-sm90.txt" -b 256 --barriers 1 -f csv | cut -d, -f1-8 | sort)
[ -n "$a" ] && [ "$a" = "$b" ]
ok $? "cuobjdump and ptxas reports of the same object give the same rows"

cat "$F/ptxas-sm90.txt" | "$OCCCALC" --ptxas - -b 256 -f csv >"$tmp/stdin.csv"
run --ptxas "$F/ptxas-sm90.txt" -b 256 -f csv
sed "s|$F/ptxas-sm90.txt|<stdin>|" "$tmp/out" | cmp -s "$tmp/stdin.csv" -
ok $? "--ptxas - reads standard input"

run --ptxas "$F/ptxas-sm90.txt" -f csv
[ "$(grep ',"block_sum(float const\*, float\*)",' "$tmp/out" | cut -d, -f2,8)" = "1024,100.00" ]
ok $? "without --block each kernel gets its best block size"

run --ptxas "$F/ptxas-sm90.txt" -b 128,256 -s 0,4K -f csv
[ "$(tail -n +2 "$tmp/out" | wc -l)" -eq 28 ]
ok $? "block and shared-memory sweeps apply to every kernel: 7 x 2 x 2 rows"

# Names are text, whatever they hold: JSON escapes control characters,
# quotes and backslashes; CSV quotes the cell (RFC 4180).
if command -v python3 >/dev/null 2>&1; then
	run --ptxas "$F/ptxas-odd-name.txt" -b 128 -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[0]["kernel"] == "tab\there\"quote\\slash", d' <"$tmp/out"
	ok $? "a kernel name with a tab, a quote and a backslash is valid JSON"
	run --ptxas "$F/ptxas-odd-name.txt" -b 128 -f jsonl
	python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$tmp/out" &&
		[ "$(wc -l <"$tmp/out")" -eq 1 ]
	ok $? "... and valid JSON Lines, one object on one line"
	run --ptxas "$F/ptxas-odd-name.txt" -b 128 -f csv --fields kernel,block
	python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); assert r[1] == ["tab\there\"quote\\slash", "128"], r' <"$tmp/out"
	ok $? "... and one CSV cell, quoted, its quote doubled"
fi

# Bad input: one 'occcalc:' line and exit 1, never a made-up row.
refused() {
	[ "$status" -eq 1 ] && one_error_line "$1"
	ok $? "$2"
	[ "$status" -eq 1 ] || echo "# exit $status: $(cat "$tmp/err")"
}
: >"$tmp/empty"
run --ptxas "$tmp/empty" -b 128
refused "no kernel resource usage found" "an empty report is refused"
printf 'hello\nworld\n' >"$tmp/prose"
run --ptxas "$tmp/prose" -b 128
refused "no kernel resource usage found" "text that is no report is refused"
head -n 3 "$F/ptxas-sm90.txt" >"$tmp/trunc"
run --ptxas "$tmp/trunc" -b 128
refused "$tmp/trunc:2: malformed or truncated resource usage" "a truncated ptxas report is refused, naming the line"
# A kernel cut short before the next one: refused at its own line, not
# dropped from the rows.
awk '!(/Used [0-9]+ registers/ && ++n == 1)' "$F/ptxas-sm90.txt" >"$tmp/gap"
run --ptxas "$tmp/gap" -b 128
refused "$tmp/gap:2: malformed or truncated resource usage" "a kernel whose usage line is missing before the next is refused, not dropped"
head -n 15 "$F/cuobjdump-sm90.txt" | grep -v 'REG:' >"$tmp/trunc2"
run --ptxas "$tmp/trunc2" -b 128
refused "malformed or truncated resource usage" "a truncated cuobjdump report is refused"
sed 's/Used 22 registers/Used many registers/' "$F/ptxas-sm90.txt" >"$tmp/garbled"
run --ptxas "$tmp/garbled" -b 128
refused "$tmp/garbled:5: malformed or truncated resource usage" "a garbled usage line is refused"
sed "s/'sm_90'/'sm_99'/" "$F/ptxas-sm90.txt" >"$tmp/sm99"
run --ptxas "$tmp/sm99" -b 128
refused "is compiled for compute capability 9.9, which has no table" "a kernel for an unknown architecture is refused"
run --ptxas "$F/ptxas-sm90.txt" -a sm_80 -b 128
refused "no image runs on compute capability 8.0" "--arch on which no kernel runs is refused"
run --ptxas "$tmp/none" -b 128
refused "cannot read" "a missing report is refused"

run --kernels "$T/fixtures/ptxas-sm90.txt" -b 128
head -1 "$tmp/out" | sed 's/^ *//; s/   */\n/g' >"$tmp/columns"
[ "$status" -eq 0 ] && grep -qx 'dyn smem' "$tmp/columns" && grep -qx 'static' "$tmp/columns" &&
	! grep -qx 'smem' "$tmp/columns"
ok $? "the text table heads dynamic shared memory 'dyn smem' and static 'static', not ptxas's ambiguous 'smem'"

# Text: what --grid, --headroom and one --gpu ask for is shown.
B=$T/fixtures/bin
run --kernels "$B/sm_90a.cubin" --gpu H100-SXM -b 256 --grid 1000 --kernel '^_Z5saxpy'
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q ' waves  tail_blocks ' &&
	grep -q '^sm_90a .* 1  *1000  *saxpy' "$tmp/out"
ok $? "--kernels text with --grid: the waves and the last wave's blocks"
run --kernels "$B/sm_90a.cubin" --gpu H100-SXM -b 256 --headroom --kernel '^_Z5saxpy'
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q 'regs_keep_max  regs_gain_at  smem_keep_max  smem_gain_at'
ok $? "--kernels text with --headroom: the headroom columns"
run --kernels "$B/sm_90a.cubin" --gpu H100-SXM -b 256
grep -q '^GPU: H100-SXM, compute capability 9.0, 132 SMs (--list-gpus)\.$' "$tmp/out"
ok $? "--kernels text with one --gpu: the report names the GPU"
run --kernels "$B/sm_90a.cubin" --gpu H100-SXM,A100 -b 256
[ "$status" -eq 0 ] && ! grep -q '^GPU: ' "$tmp/out" &&
	grep -q '^H100-SXM  *A100  *kernel$' "$tmp/out" && grep -q 'no image' "$tmp/out"
ok $? "--kernels text with a list of GPUs: a column each, a GPU with no image said in its cells"

done_testing
