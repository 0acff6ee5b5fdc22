#!/bin/sh
# launches.sh - --launches: the launches of trace files (occcalc's JSON
# Lines and Kineto's Chrome traces), each on the GPU it ran on. The
# fixtures in t/fixtures/launches are written by hand from
# docs/trace-format.md and libkineto's output (README there); the real
# traces with Nsight Compute's figures are checked in t/launches-ncu.sh.
. "$T/lib.sh"

F=$T/fixtures/launches

# The field of one CSV row, by name: csv_field FILE ROW NAME.
csv_field() {
	awk -F, -v row="$2" -v name="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		NR == row + 1 { print $c }' "$1"
}

fields=kernel,blocks_per_sm,occupancy_pct,limiter,waves,tail_blocks,waves_per_multiprocessor,max_active_clusters,cluster_size
run --launches "$F/small.jsonl" -f csv --fields "$fields"
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] &&
	[ "$(sed -n 2p "$tmp/out")" = "void gemm<128>(float*),3,18.75,shared_memory,6,20,5.05,198,2" ]
ok $? "an opted-in launch of 72 KB + the 1 KB reserve on the 228 KB it ran with: 3 blocks, 18.75 %, 6 waves, 20 in the last; 198 clusters of 2 on the H100's layout"

[ "$(sed -n 3p "$tmp/out")" = "\"void add(float*, int)\",8,100.00,warps+registers,1,1000,0.95,,1" ]
ok $? "a launch without clusters: no cluster figures, cluster_size 1"

run --launches "$F/kineto.json" -f csv --fields kernel,occupancy_pct,kineto_est_pct,smem_total,static_smem,unknown
[ "$status" -eq 0 ] &&
	[ "$(sed -n 2p "$tmp/out")" = "nvjet_sm90_tst_128x64_64x8_2x1_v_bz_coopA_NNN,18.75,0.00,215040,,smem_split+carveout+cluster" ]
ok $? "Kineto: its 0 % beside 18.75 % for an opted-in GEMM; static shared memory absent; what it does not record named"

[ "$(grep -vc " no op: " "$tmp/err")" -eq 1 ] &&
	grep -q "kineto.json: a Kineto trace records no cluster dimensions" "$tmp/err"
ok $? "Kineto: one line says what the trace does not record"

cp "$tmp/out" "$tmp/plain"
gzip -c "$F/kineto.json" >"$tmp/trace.bin"
run --launches "$tmp/trace.bin" -f csv --fields kernel,occupancy_pct,kineto_est_pct,smem_total,static_smem,unknown
[ "$status" -eq 0 ] && cmp -s "$tmp/plain" "$tmp/out"
ok $? "a gzip file named .bin reads as the plain one: told by content"

gzip -c "$F/small.jsonl" >"$tmp/small.gz"
run --launches "$tmp/small.gz" -f jsonl --fields kernel,grid,block
[ "$status" -eq 0 ] &&
	[ "$(head -1 "$tmp/out")" = '{"kernel":"void gemm<128>(float*)","grid":[2000,1,1],"block":[128,1,1]}' ]
ok $? "occcalc's trace gzipped; grid and block as [x, y, z]"

# A trace cut short: no end record, and a last line without its newline.
head -4 "$F/small.jsonl" >"$tmp/cut.jsonl"
sed -n 5p "$F/small.jsonl" | head -c 120 >>"$tmp/cut.jsonl"
run --launches "$tmp/cut.jsonl" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	grep -q "cut.jsonl: cut short (no end record): 2 launches read up to its last whole line" "$tmp/err"
ok $? "a trace cut short reads up to its last whole line and says so"

# A Kineto trace cut short (a job killed as the profiler wrote it): the
# real one of t/fixtures/traces, cut inside its 18th kernel event.
K=$T/fixtures/traces/kineto.json.gz
gzip -dc "$K" >"$tmp/kineto-whole.json"
run --launches "$tmp/kineto-whole.json" -f csv --fields kernel,grid,block,regs,occupancy_pct
cp "$tmp/out" "$tmp/whole.csv"
at=$(grep -b -o '"cat": "kernel"' "$tmp/kineto-whole.json" | sed -n 18p | cut -d: -f1)
head -c $((at + 20)) "$tmp/kineto-whole.json" >"$tmp/kineto-cut.json"
run --launches "$tmp/kineto-cut.json" -f csv --fields kernel,grid,block,regs,occupancy_pct
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 18 ] &&
	head -18 "$tmp/whole.csv" | cmp -s - "$tmp/out" &&
	grep -q "kineto-cut.json: cut short at byte $((at + 20)) of its JSON (inside traceEvents): 17 launches read up to there" "$tmp/err"
ok $? "a Kineto trace cut inside its 18th kernel event: the 17 launches before it, as the whole trace has them, and one line naming the byte"

below=$(sed -n 2,18p "$tmp/whole.csv" | awk -F, '$NF < 90' | wc -l)
run --launches "$tmp/kineto-cut.json" --check 'occupancy_pct >= 90'
[ "$status" -eq 1 ] && [ "$below" -gt 0 ] &&
	grep -q -- "--check: $below of 17 rows fail" "$tmp/err"
ok $? "--check judges the launches read up to the cut: $below of them below 90 %"

# The compressed file cut short: what it holds up to the cut is its text
# up to there, read as the plain text cut there is.
head -c 30000 "$K" >"$tmp/kineto-cut.json.gz"
gzip -dc "$tmp/kineto-cut.json.gz" >"$tmp/kineto-cut2.json" 2>/dev/null
cutbytes=$(wc -c <"$tmp/kineto-cut2.json")
run --launches "$tmp/kineto-cut2.json" -f csv --fields kernel,grid,block,regs,occupancy_pct
cp "$tmp/out" "$tmp/cut2.csv"
run --launches "$tmp/kineto-cut.json.gz" -f csv --fields kernel,grid,block,regs,occupancy_pct
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 2 ] &&
	cmp -s "$tmp/cut2.csv" "$tmp/out" &&
	grep -q "kineto-cut.json.gz: cut short at byte $cutbytes of its JSON (inside traceEvents): $(($(wc -l <"$tmp/out") - 1)) launches read up to there" "$tmp/err"
ok $? "a gzip Kineto trace cut short: the launches of its text up to the cut, and the byte of that text"

sed 's/"dropped":0/"dropped":17/' "$F/small.jsonl" >"$tmp/dropped.jsonl"
run --launches "$tmp/dropped.jsonl" -f csv
[ "$status" -eq 0 ] && grep -q "CUPTI dropped 17 records: launches missing from the trace" "$tmp/err"
ok $? "records CUPTI dropped are said"

sed '3s/"grid":\[2000,1,1\]/"grid":[2000,1]/' "$F/small.jsonl" >"$tmp/bad.jsonl"
expect 1 "bad.jsonl:3: grid: not a value of its type" --launches "$tmp/bad.jsonl" -f csv
sed '3s/"regs":40,//' "$F/small.jsonl" >"$tmp/bad.jsonl"
expect 1 "bad.jsonl:3: regs: missing" --launches "$tmp/bad.jsonl"
sed '3s/"regs":40/"regs":99999999999999999999/' "$F/small.jsonl" >"$tmp/bad.jsonl"
expect 1 "bad.jsonl:3: regs: out of range" --launches "$tmp/bad.jsonl"
sed '1s/"version":1/"version":2/' "$F/small.jsonl" >"$tmp/bad.jsonl"
expect 1 "bad.jsonl:1: version: a trace format this occcalc does not read" --launches "$tmp/bad.jsonl"
printf '{"traceEvents": [ {"ph": "X", "cat": "kernel", "name": "k", "args": {"device": 0}}' >"$tmp/bad.json"
expect 1 "bad.json:1: registers per thread: missing" --launches "$tmp/bad.json"
printf '{"deviceProperties": [\n{"id": 0, "computeMajor": 9' >"$tmp/bad.json"
expect 1 "bad.json:2: the text ends inside a JSON value" --launches "$tmp/bad.json"
printf '{"traceEvents": [\n{"ph": "X", "cat": "kernel", "args": {"grid": "x"}}]}' >"$tmp/bad.json"
expect 1 "bad.json:2: grid: not a value of its type" --launches "$tmp/bad.json"
printf '[1, 2]' >"$tmp/bad.json"
expect 1 "bad.json: not a PyTorch profiler or occcalc trace: a JSON array, not the object a trace is" --launches "$tmp/bad.json"
: >"$tmp/empty"
expect 1 "empty: empty file" --launches "$tmp/empty"
# A directory is read as its trace files (t/launches-inputs.sh); a
# device is no file to read.
expect 1 "/dev/null: not a regular file" --launches /dev/null
printf '\037\213garbage' >"$tmp/bad.gz"
expect 1 "bad.gz: byte 4 of the file: gzip stream corrupt" --launches "$tmp/bad.gz"

run --launches "$F/small.jsonl" "$F/kineto.json" -f csv --fields file,kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 7 ] &&
	[ "$(cut -d, -f1 "$tmp/out" | sort | uniq -c | awk '{print $1}' | sort -n | tr '\n' ' ')" = "1 3 3 " ]
ok $? "several files read together, each row naming its file"

run --launches "$F/small.jsonl" --kernel gemm -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	grep -q "1 launch of kernels --kernel does not match left out" "$tmp/err"
ok $? "--kernel keeps the launches of the kernels it matches, and says how many it left out"

run --launches "$F/small.jsonl" --kernel gemm --check 'occupancy_pct >= 40'
[ "$status" -eq 1 ] &&
	grep -q "check failed: arch sm_90, kernel void gemm<128>(float\*), device 0, correlation 812: occupancy_pct >= 40 (occupancy_pct 18.75)" "$tmp/err"
ok $? "--check fails a run with a launch of gemm below 40 %, naming the launch by its correlation id"

run --launches "$F/small.jsonl" --kernel add --check 'occupancy_pct >= 40'
[ "$status" -eq 0 ]
ok $? "--check passes when every launch keeps to it"

sed 's/"device":0,"name"/"device":3,"name"/' "$F/small.jsonl" >"$tmp/nodev.jsonl"
run --launches "$tmp/nodev.jsonl" -f csv --fields kernel,occupancy_pct,reason
[ "$status" -eq 0 ] && grep -q "3 launches on a device the trace does not describe: no occupancy figures" "$tmp/err" &&
	[ "$(sed -n 2p "$tmp/out")" = "void gemm<128>(float*),,on a device the trace does not describe" ]
ok $? "launches on a device the trace does not describe: rows without figures, counted in one line"

sed 's/"major":9,"minor":0/"major":4,"minor":2/' "$F/small.jsonl" >"$tmp/noarch.jsonl"
run --launches "$tmp/noarch.jsonl" -f csv
[ "$status" -eq 0 ] && grep -q "3 launches on a GPU whose compute capability has no table" "$tmp/err"
ok $? "a compute capability without a table: counted in one line"

# Rows are judged as they are read: a file that cannot be read is refused
# before any, so that its line is the only one (fuzz cli found it after
# the first file's failed rows).
expect 1 "missing.jsonl: cannot read" --launches "$T/fixtures/traces/occcalc-trace.jsonl" \
	"$tmp/missing.jsonl" --check 'occupancy_pct >= 40' -f csv
expect 1 "not a regular file" --launches "$T/fixtures/traces/occcalc-trace.jsonl" \
	/dev/null --check 'occupancy_pct >= 40' -f csv

# --partition (issue 32): each launch as if it ran in a part of its GPU.
# The figures themselves are golden outputs (t/golden/launches-partition-*).
run --list-fields
for f in partition_part partition_groups partition_sms partition_remaining_sms \
	partition_part_sms partition_layout; do
	grep -q "^launch  *$f " "$tmp/out" || { echo "# $f missing"; false; break; }
done
ok $? "--list-fields: the partition fields of the launch rows"

run --launches "$T/fixtures/traces/occcalc-trace.jsonl" --partition 32 -f csv
[ "$status" -eq 0 ] &&
	[ "$(head -1 "$tmp/out" | cut -d, -f1-5)" = "file,device,partition_part,partition_part_sms,stream" ] &&
	[ "$(sed -n 2p "$tmp/out" | cut -d, -f2-4)" = "0,group 0,32" ]
ok $? "with --partition the default fields name the part and its SMs"

TR=$T/fixtures/traces/occcalc-trace.jsonl
sed 's/"name":"NVIDIA H100 80GB HBM3"/"name":"NVIDIA H100 PCIe"/; s/"multiProcessorCount":132/"multiProcessorCount":114/' \
	"$TR" >"$tmp/pcie.jsonl"
run --launches "$tmp/pcie.jsonl" --kernel cluster_mix --partition 8 -f csv \
	--fields partition_groups,partition_remaining_sms,partition_part_sms,max_active_clusters,unknown
[ "$status" -eq 0 ] &&
	[ "$(sed -n 2p "$tmp/out")" = "14,,8,,layout" ] &&
	grep -q "2 cluster launches in --partition's group, whose GPCs are not measured on its GPU (partitions.txt): no cluster figures" "$tmp/err"
ok $? "a GPU whose layout is not measured (an H100 PCIe): at most 14 groups of 8, the remainder not known, no cluster figures, said in one line"

expect 2 "the SMs left over of device 0 of $tmp/pcie.jsonl (NVIDIA H100 PCIe, sm_90, 114 SMs) depend on the GPU's GPC layout" \
	--launches "$tmp/pcie.jsonl" --partition 8 --partition-part remaining
expect 2 "the split of device 0 of $TR (NVIDIA H100 80GB HBM3, sm_90, 132 SMs) makes 4 groups of 32 SMs" \
	--launches "$TR" --partition 32 --partition-part group:4
expect 2 "into groups of 132 SMs leaves none of the 132 over" --launches "$TR" --partition 132 --partition-part remaining

# ---- The GPU list's layouts: one rule (occ_target_layout) for every mode ----

# A malformed layout line stops --launches as it stops --cluster: the
# device's layout is never taken as not known from a list that cannot be
# read.
tables=$OCCCALC_TABLES
cp -r "$OCCCALC_TABLES" "$tmp/tables"
OCCCALC_TABLES="$tmp/tables"
echo "layout H100-SXM 8,,16 broken" >>"$tmp/tables/gpus.txt"
line=$(wc -l <"$tmp/tables/gpus.txt")
expect 1 "gpus.txt:$line: expected 'layout NAME LAYOUT SOURCE'" --launches "$TR"
expect 1 "gpus.txt:$line: expected 'layout NAME LAYOUT SOURCE'" \
	--gpu H100-SXM --cluster 2 -b 128
OCCCALC_TABLES=$tables

done_testing
