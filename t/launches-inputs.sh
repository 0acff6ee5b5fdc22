#!/bin/sh
# launches-inputs.sh - issue 37 items 4 and 5 on the real traces:
# --gpu NAME with --launches (what-if rows equal occcalc --gpu's for the
# same configuration; the GPU of a trace without deviceProperties; a
# trace whose devices come after its events), standard input, a
# directory of traces, and the files that are no trace.
. "$T/lib.sh"

P=$T/fixtures/pytorch
TR=$T/fixtures/traces
K=$P/pt-step-kineto.json.gz
FIELDS=blocks_per_sm,occupancy_pct,limiter

# What-if: 24 launches picked at random (a fixed seed) from the Kineto
# trace and from occcalc's (its static/dynamic split), each against
# occcalc --gpu L40S for its block, registers and shared memory.
whatif_agree() {
	trace=$1 gpu=$2
	run --launches "$trace" --gpu "$gpu" -f csv,noheader \
		--fields block_threads,regs,static_smem,smem,smem_total,$FIELDS
	[ "$status" -eq 0 ] || return 1
	# Cluster launches (no figures where the GPU has no clusters) left out.
	awk -F, 'BEGIN { srand(37) } $6 != "" && rand() < 0.05 && n < 24 { print; n++ }' \
		"$tmp/out" >"$tmp/pick"
	[ -s "$tmp/pick" ] || return 1
	while IFS=, read -r b r st dy tot rest; do
		if [ -n "$st" ]; then
			set -- -S "$st" --smem "$dy"
		else
			set -- --smem "$tot"
		fi
		want=$("$OCCCALC" --gpu "$gpu" -b "$b" -r "$r" "$@" \
			-f csv,noheader --fields $FIELDS 2>/dev/null)
		[ "$want" = "$rest" ] ||
			{ echo "# -b $b -r $r $*: $rest, occcalc --gpu: $want"; return 1; }
	done <"$tmp/pick"
}
whatif_agree "$K" L40S
ok $? "--gpu L40S: 24 random launches of the Kineto trace equal occcalc --gpu L40S -b -r --smem"
whatif_agree "$P/pt-step-trace-1.jsonl.gz" A100-SXM
ok $? "--gpu A100-SXM: 24 random launches of occcalc's trace equal occcalc --gpu -b -r -S --smem"

run --launches "$P/pt-step-trace-1.jsonl.gz" --gpu A100-SXM -f csv --fields occupancy_pct
[ "$status" -eq 0 ] && grep -qxF "occcalc: warning: 174 launches with clusters the GPU --gpu names does not run (none before compute capability 9.0, or larger than its largest): they cannot launch there: no occupancy figures" "$tmp/err"
ok $? "--gpu A100-SXM: cluster launches cannot launch there, counted in one line"
expect 2 "--gpu takes a list with an occupancy calculation or --kernels; give one here" --launches "$K" --gpu H100-SXM,L40S

# A what-if launch that does not fit cannot launch there: a row, not a
# contradiction.
run --launches "$K" --gpu L40S -f csv,noheader --fields blocks_per_sm,reason --kernel '^nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT$'
[ "$status" -eq 0 ] && [ "$(sort -u "$tmp/out")" = "0,shared_memory_per_block" ] &&
	! grep -q contradicts "$tmp/err"
ok $? "--gpu L40S: a GEMM of 221 KB of shared memory cannot launch there (0 blocks: shared_memory_per_block)"

run --launches "$K" --gpu L40S
[ "$status" -eq 0 ] && sed -n 2p "$tmp/out" | grep -qxF "  L40S: sm_89, 142 SMs (--gpu: every launch as it would run on it, not on the GPU it ran on)"
ok $? "--gpu: the summary names the GPU modelled"

# A trace without deviceProperties: none without --gpu, the GPU with it.
gzip -dc "$K" | python3 -c 'import json, sys
d = json.load(sys.stdin); del d["deviceProperties"]; json.dump(d, sys.stdout)' >"$tmp/nodev.json"
run --launches "$tmp/nodev.json" -f csv --fields $FIELDS
[ "$status" -eq 0 ] && grep -qF "644 launches on a device the trace does not describe: no occupancy figures" "$tmp/err"
ok $? "a Kineto trace without deviceProperties: its launches get no figures, said"
run --launches "$K" -f csv --fields $FIELDS
cp "$tmp/out" "$tmp/own.csv"
run --launches "$tmp/nodev.json" --gpu H200 -f csv --fields $FIELDS
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/own.csv"
ok $? "--gpu H200 gives a trace without deviceProperties the figures of the H200 it ran on"

# deviceProperties after traceEvents: a file read devices first.
gzip -dc "$K" | python3 -c 'import json, sys
d = json.load(sys.stdin); p = d.pop("deviceProperties"); d["deviceProperties"] = p
json.dump(d, sys.stdout)' >"$tmp/late.json"
run --launches "$tmp/late.json" -f csv --fields $FIELDS
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/own.csv"
ok $? "deviceProperties after traceEvents: every launch gets its figures"
gzip -c "$tmp/late.json" >"$tmp/late.json.gz"
run --launches "$tmp/late.json.gz" -f csv --fields $FIELDS
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/own.csv"
ok $? "deviceProperties after traceEvents, gzip: every launch gets its figures"
cat "$tmp/late.json" | "$OCCCALC" --launches - -f csv --fields $FIELDS >"$tmp/out" 2>"$tmp/err"
grep -qxF "occcalc: warning: <stdin>: its deviceProperties come after its traceEvents, and <stdin> cannot be read twice: the launches before them have no device (give its file's path, or --gpu NAME)" "$tmp/err"
ok $? "deviceProperties after traceEvents on a pipe: one line says why there are no figures"

# Standard input, plain or gzip by content.
gzip -dc "$TR/kineto.json.gz" >"$tmp/k.json"
run --launches "$tmp/k.json" -f csv --fields kernel,$FIELDS
cp "$tmp/out" "$tmp/k.csv"
cat "$TR/kineto.json.gz" | "$OCCCALC" --launches - -f csv --fields kernel,$FIELDS >"$tmp/out" 2>/dev/null
cmp -s "$tmp/out" "$tmp/k.csv"
ok $? "--launches - reads a gzip trace from a pipe"
cat "$tmp/k.json" | "$OCCCALC" --launches - -f csv --fields file >"$tmp/out" 2>/dev/null
[ "$(sed -n 2p "$tmp/out")" = "<stdin>" ]
ok $? "--launches -: rows name the file <stdin>"
expect 2 "--launches: '-' given twice: standard input is read once" --launches - -

# A directory --trace-out wrote: its traces in name order.
mkdir "$tmp/d"
cp "$P/pt-step-trace-1.jsonl.gz" "$tmp/d/occcalc-trace.a.2.jsonl.gz"
gzip -dc "$TR/occcalc-trace.jsonl" >/dev/null 2>&1 || cp "$TR/occcalc-trace.jsonl" "$tmp/d/occcalc-trace.a.1.jsonl"
cp "$TR/ncu.csv" "$tmp/d/ncu.csv"
run --launches "$tmp/d/occcalc-trace.a.1.jsonl" "$tmp/d/occcalc-trace.a.2.jsonl.gz" -f csv --fields file,kernel,$FIELDS
cp "$tmp/out" "$tmp/files.csv"
run --launches "$tmp/d" -f csv --fields file,kernel,$FIELDS
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/files.csv" &&
	grep -qxF "occcalc: warning: $tmp/d: 2 trace files, read in name order: occcalc-trace.a.1.jsonl first" "$tmp/err"
ok $? "--launches DIR: its trace files in name order, their count said"
mkdir "$tmp/empty"
expect 1 "empty: no trace file in it (occcalc-trace.*.jsonl as --trace-out writes, *.json, *.json.gz)" --launches "$tmp/empty"

# No kernel events, and files that are no trace.
printf '{"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1.0, "dur": 2.0}]}\n' >"$tmp/cpu.json"
expect 1 "cpu.json: no kernel events: a PyTorch profiler trace records them with ProfilerActivity.CUDA in torch.profiler.profile's activities" --launches "$tmp/cpu.json"
expect 1 "ncu.csv: not a PyTorch profiler or occcalc trace: an Nsight Compute CSV (ncu --csv), not JSON" --launches "$TR/ncu.csv"
printf '{"traceEvents": [{"ph": "X", "cat": "gpu", "name": "draw", "ts": 1, "dur": 2}], "displayTimeUnit": "ms"}\n' >"$tmp/chrome.json"
expect 1 "chrome.json: not a PyTorch profiler or occcalc trace: another tool's Chrome trace: no kernel or PyTorch event" --launches "$tmp/chrome.json"
printf 'lorem ipsum dolor\nsit amet\n' >"$tmp/text.txt"
expect 1 "text.txt: not a PyTorch profiler or occcalc trace: text, not JSON" --launches "$tmp/text.txt"
printf '{"name": "x", "value": 1}\n' >"$tmp/obj.json"
expect 1 "obj.json: not a PyTorch profiler or occcalc trace: a JSON object without traceEvents or a record's type" --launches "$tmp/obj.json"
printf '[{"ph": "X"}]\n' >"$tmp/arr.json"
expect 1 "arr.json: not a PyTorch profiler or occcalc trace: a JSON array, not the object a trace is" --launches "$tmp/arr.json"

# Item 6: --compare between two traces, or a trace and its rows.
run --launches "$K" --compare "$K"
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "0 changed, 0 added, 0 removed, 70 unchanged (--all lists them)" ]
ok $? "--compare: the Kineto trace against itself reports no change (44 kernels, 26 operators)"
run --launches "$P/pt-step-trace-1.jsonl.gz" --compare "$P/pt-step-trace-1.jsonl.gz" -f csv,noheader
[ "$status" -eq 0 ] && [ ! -s "$tmp/out" ]
ok $? "--compare: occcalc's trace against itself, csv: no row"
"$OCCCALC" --launches "$K" -f jsonl >"$tmp/base.jsonl" 2>/dev/null
run --launches "$K" --compare "$tmp/base.jsonl" --all -f csv,noheader --fields by,change
[ "$status" -eq 0 ] && [ "$(sort -u "$tmp/out")" = "kernel,unchanged
op,unchanged" ] && [ "$(grep -c '^kernel' "$tmp/out")" -eq 44 ] &&
	[ "$(grep -c '^op' "$tmp/out")" -eq 26 ]
ok $? "--compare: a trace against the rows --launches -f jsonl wrote of it: 44 kernels and 26 operators, all unchanged"
run --launches "$K" --gpu L40S --compare "$K" --check 'occupancy_pct >= old_occupancy_pct' -f csv --fields key
[ "$status" -eq 1 ] && grep -qxF "occcalc: --check: 26 of 70 rows fail" "$tmp/err"
ok $? "--compare --gpu L40S --check 'occupancy_pct >= old_occupancy_pct': 26 of 70 rows (kernels and operators) fail, exit 1"
run --launches "$K" --gpu L40S --compare "$K" -f csv,noheader --fields by,changed,old_occupancy_pct,occupancy_pct,d_occupancy_pct,old_limiter,limiter --kernel '^nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT$'
[ "$status" -eq 0 ] && [ "$(grep '^kernel,' "$tmp/out")" = "kernel,occupancy_pct+limiter,18.75,0.00,-18.75,registers+shared_memory,shared_memory" ]
ok $? "--compare --gpu L40S: a GEMM's occupancy 18.75 -> 0 and its limiter, per kernel"
run --launches "$TR/kineto.json.gz" --compare "$K" -f csv,noheader --fields change
[ "$status" -eq 0 ] && [ "$(grep -c added "$tmp/out")" -gt 0 ] && [ "$(grep -c removed "$tmp/out")" -gt 0 ]
ok $? "--compare of two programs' traces: kernels added and removed"
# Grouping takes any string field the rows have: an 'op' of the rows.
python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    r["op"] = "aten::mm" if r["kernel"].startswith("nvjet") else "aten::other"
    print(json.dumps(r))' "$tmp/base.jsonl" >"$tmp/base-op.jsonl"
run --launches "$K" --compare "$tmp/base-op.jsonl" -f csv,noheader --fields change,by,key,old_launches
[ "$status" -eq 0 ] && [ "$(grep -v '^added,' "$tmp/out")" = "changed,op,aten::mm,108
removed,op,aten::other,536" ]
ok $? "--compare groups by op where the rows have it: the baseline's aten::other gone, its aten::mm of other launches"
expect 1 "ncu.csv: not a PyTorch profiler or occcalc trace, nor occcalc's rows: an Nsight Compute CSV (ncu --csv), not JSON" --launches "$K" --compare "$TR/ncu.csv"

echo "1..$n"
[ "$failed" -eq 0 ]
