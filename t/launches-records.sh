#!/bin/sh
# launches-records.sh - --launches on records that contradict themselves
# or the device they ran on, and on traces made to grow memory: a device
# whose properties no GPU has is named and its launches get no figures; a
# launch that ran is never "cannot launch"; a carveout the launch cannot
# have run with is not taken; the memory held is bounded whatever the
# trace repeats (hostile-5's findings 1 to 4, 14 and 16).
. "$T/lib.sh"

H100='"name":"NVIDIA H100 80GB HBM3","major":9,"minor":0,"multiProcessorCount":132,"warpSize":32,"maxThreadsPerMultiProcessor":2048,"maxThreadsPerBlock":1024,"maxBlocksPerMultiProcessor":32,"regsPerMultiprocessor":65536,"regsPerBlock":65536,"sharedMemPerMultiprocessor":233472,"sharedMemPerBlock":49152,"sharedMemPerBlockOptin":232448'

# trace FILE NAME:VALUE LAUNCH...: a header, the H100 with its property
# NAME set to VALUE (none: ''), each launch (members after the device's),
# an end record.
trace() {
	f=$1 set=$2
	shift 2
	dev="$H100,\"reservedSharedMemPerBlock\":1024"
	[ -z "$set" ] ||
		dev=$(echo "$dev" | sed "s/\"${set%%:*}\":[0-9]*/\"${set%%:*}\":${set#*:}/")
	{
		echo '{"type":"header","format":"occcalc-trace","version":1}'
		echo "{\"type\":\"device\",\"device\":0,$dev}"
		for l in "$@"; do
			echo "{\"type\":\"launch\",\"device\":0,\"kernel\":\"k\",$l,\"start_ns\":0,\"end_ns\":1000}"
		done
		echo "{\"type\":\"end\",\"launches\":$#,\"dropped\":0}"
	} >"$tmp/$f"
}

L='"grid":[2000,1,1],"block":[128,1,1],"cluster":[0,0,0],"regs":32,"static_smem":0'
GEMM='"grid":[2000,1,1],"block":[128,1,1],"cluster":[0,0,0],"regs":40,"static_smem":0,"smem":73728'
BIG='"grid":[264,1,1],"block":[384,1,1],"cluster":[0,0,0],"regs":168,"static_smem":0,"smem":224508'
FIELDS=blocks_per_sm,occupancy_pct,limiter,reason,unknown

# ---- A device's properties get the checks a table gets ----

for p in 'reservedSharedMemPerBlock:4294967296' \
	 'reservedSharedMemPerBlock:4294968320' \
	 'reservedSharedMemPerBlock:300000' \
	 'sharedMemPerBlockOptin:281474976710655' \
	 'multiProcessorCount:0' 'regsPerBlock:131072' 'warpSize:64'; do
	name=${p%%:*} value=${p#*:}
	trace dev.jsonl "$p" "$L,\"smem\":0,\"smem_executed\":233472"
	run --launches "$tmp/dev.jsonl" -f csv --fields $FIELDS
	[ "$status" -eq 0 ] &&
		[ "$(sed -n 2p "$tmp/out")" = ",,,on a device whose recorded properties no NVIDIA GPU of its compute capability has," ] &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "^occcalc: warning: device 0 (NVIDIA H100 80GB HBM3, compute capability 9.0): .*$name.*its 1 launch gets no occupancy figures" "$tmp/err"
	ok $? "a device record's $name of $value: the device named in one line with the property, its launch without figures"
done

trace optin.jsonl sharedMemPerBlockOptin:281474976710655 "$L,\"smem\":120000"
run --launches "$tmp/optin.jsonl"
[ "$status" -eq 0 ] && grep -q "^k  *0  *1 " "$tmp/out" &&
	grep -q "sharedMemPerBlockOptin 281474976710655" "$tmp/err"
ok $? "the text summary of a device whose opt-in is 2^48 - 1: no figures, no crash"

# ---- A carveout the launch cannot have run with is not taken ----

# CUPTI's record of a launch under the range profiler (--achieved): 32 KB
# executed for a block of 224,508 B. Modelled at the largest, as the same
# launch outside the profiler ran.
trace big.jsonl '' "$BIG,\"smem_executed\":32768" "$BIG,\"smem_executed\":233472" "$BIG,\"smem_executed\":102400"
run --launches "$tmp/big.jsonl" -f csv --fields $FIELDS
[ "$status" -eq 0 ] &&
	[ "$(sed -n 2p "$tmp/out")" = "1,18.75,registers+shared_memory,,carveout+smem_executed" ] &&
	[ "$(sed -n 3p "$tmp/out")" = "1,18.75,registers+shared_memory,," ] &&
	[ "$(sed -n 4p "$tmp/out")" = "1,18.75,registers+shared_memory,,carveout+smem_executed" ]
ok $? "a recorded carveout smaller than one block (32 KB, 100 KB for 224,508 B): not taken, the launch modelled as the one that ran with 228 KB"

trace exec.jsonl '' "$GEMM,\"smem_executed\":281474976710655" "$L,\"smem\":0,\"smem_executed\":1" "$L,\"smem\":0,\"smem_executed\":100000"
run --launches "$tmp/exec.jsonl" -f csv --fields $FIELDS
[ "$status" -eq 0 ] &&
	[ "$(sed -n 2p "$tmp/out")" = "3,18.75,shared_memory,,carveout+smem_executed" ] &&
	[ "$(sed -n 3p "$tmp/out")" = "16,100.00,warps+registers,,carveout+smem_executed" ] &&
	[ "$(sed -n 4p "$tmp/out")" = "16,100.00,warps+registers,,carveout+smem_executed" ]
ok $? "a recorded carveout above the SM's (2^48 - 1), below one block (1 B) or not one of the SM's (100,000 B): not taken"

# ---- A launch that ran is never "cannot launch" ----

trace nofit.jsonl '' '"grid":[10,1,1],"block":[1024,1,1],"cluster":[0,0,0],"regs":255,"static_smem":0,"smem":0,"smem_executed":233472'
run --launches "$tmp/nofit.jsonl" -f csv --fields $FIELDS
[ "$status" -eq 0 ] &&
	[ "$(sed -n 2p "$tmp/out")" = ",,,\"no block of which fits the SM as recorded, though it ran: the record contradicts itself or its device\"," ] &&
	grep -q "^occcalc: warning: 1 launch no block of which fits the SM as recorded" "$tmp/err"
ok $? "a record no block of which fits (1024 threads of 255 registers): no figures and why, not 0 blocks"

run --launches "$tmp/nofit.jsonl"
[ "$status" -eq 0 ] && ! grep -q "cannot launch" "$tmp/out" &&
	grep -q "^1 launch without occupancy figures" "$tmp/out"
ok $? "the text summary of that launch: without figures, never 'cannot launch'"

for c in '[2,0,1]:a dimension of 0' '[32,1,1]:32 blocks, over the 16 of sm_90' \
	 '[3,1,1]:not dividing the grid of 2000'; do
	dims=${c%%:*} what=${c#*:}
	trace cl.jsonl '' "\"grid\":[2000,1,1],\"block\":[128,1,1],\"cluster\":$dims,\"regs\":32,\"static_smem\":0,\"smem\":0,\"smem_executed\":233472"
	run --launches "$tmp/cl.jsonl" -f csv --fields $FIELDS,cluster_size
	[ "$status" -eq 0 ] &&
		sed -n 2p "$tmp/out" | grep -q '^,,,"whose clusters no GPU runs' &&
		grep -q "^occcalc: warning: 1 launch whose clusters no GPU runs" "$tmp/err"
	ok $? "a cluster of $dims ($what): no figures, and one line why"
done

# ---- Memory held: bounded whatever the trace repeats ----

if grep -q __asan_init "$OCCCALC" 2>/dev/null; then
	asan=1
else
	asan=0
fi
MB=1024
rss_run() {
	"$MAXRSS" "$tmp/rss" "$OCCCALC" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	rss=$(cat "$tmp/rss" 2>/dev/null || echo 999999999)
}

# A million device records before one launch: kept once (2.7 GB before).
python3 - "$tmp/devbomb.jsonl.gz" "$H100" <<'EOF'
import gzip, sys
dev = ('{"type":"device","device":0,%s}\n' % sys.argv[2]).encode()
with gzip.open(sys.argv[1], "wb", 6) as f:
    f.write(b'{"type":"header","format":"occcalc-trace","version":1}\n')
    for i in range(100):
        f.write(dev * 10000)
    f.write(b'{"type":"launch","device":0,"kernel":"k","grid":[2000,1,1],"block":[128,1,1],"regs":32,"static_smem":0,"smem":0}\n')
    f.write(b'{"type":"end","launches":1,"dropped":0}\n')
EOF
for fmt in text csv; do
	rss_run --launches "$tmp/devbomb.jsonl.gz" -f $fmt
	[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		{ [ "$asan" = 1 ] || [ "$rss" -lt $((16 * MB)) ]; }
	ok $? "a million device records of one device, -f $fmt: read in under 16 MB ($rss KB)"
done

# Devices that differ, past what any trace describes: refused in a line.
python3 - "$tmp/devs.jsonl" "$H100" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"type":"header","format":"occcalc-trace","version":1}\n')
    for i in range(1100):
        f.write('{"type":"device","device":0,%s,"l2CacheSize":%d}\n' % (sys.argv[2], 1 + i))
EOF
run --launches "$tmp/devs.jsonl" -f csv
[ "$status" -eq 1 ] && one_error_line "devs.jsonl: more than 1024 different devices described"
ok $? "1,100 different device records: refused in one line, not held"

# A million kernel names: the summary holds 8,192 kernels and says how
# many launches it does not list (2.65 GB for 100,000 before).
python3 - "$tmp/names.jsonl.gz" <<'EOF'
import gzip, sys
with gzip.open(sys.argv[1], "wt", 6) as f:
    f.write('{"type":"header","format":"occcalc-trace","version":1}\n')
    f.write('{"type":"device","device":0,"name":"NVIDIA H100 80GB HBM3","major":9,"minor":0,"multiProcessorCount":132}\n')
    for i in range(1000000):
        f.write('{"type":"launch","device":0,"kernel":"k%d","grid":[2000,1,1],"block":[128,1,1],"regs":32,"static_smem":0,"smem":0,"start_ns":%d,"end_ns":%d}\n' % (i, i * 1000, i * 1000 + 500))
    f.write('{"type":"end","launches":1000000,"dropped":0}\n')
EOF
if [ "$asan" = 1 ]; then
	skip "a million kernel names: a sanitizer build's memory is not occcalc's"
	skip "a million kernel names, -f csv: likewise"
else
	rss_run --launches "$tmp/names.jsonl.gz"
	[ "$status" -eq 0 ] && [ "$rss" -lt $((64 * MB)) ] &&
		grep -q "^1000000 launches of 8192 kernels in 1 file" "$tmp/out" &&
		grep -q "^991808 launches of kernels past the first 8192 are in the totals, not listed" "$tmp/out"
	ok $? "a million kernel names: the summary in under 64 MB ($rss KB), 991,808 launches said to be unlisted"
	rss_run --launches "$tmp/names.jsonl.gz" -f csv --fields kernel
	[ "$status" -eq 0 ] && [ "$rss" -lt $((16 * MB)) ] &&
		[ "$(wc -l <"$tmp/out")" -eq 1000001 ]
	ok $? "a million kernel names, -f csv: every row, in under 16 MB ($rss KB)"
fi

# ---- --layout for a GPU the list does not name ----

sed 's/"NVIDIA H100 80GB HBM3"/"Some Future GPU"/' "$T/fixtures/traces/occcalc-trace.jsonl" >"$tmp/future.jsonl"
run --launches "$T/fixtures/traces/occcalc-trace.jsonl" -f csv --fields kernel,cluster_size,max_active_clusters
cp "$tmp/out" "$tmp/listed"
run --launches "$tmp/future.jsonl" --layout "$("$OCCCALC" --gpu H100-SXM --cluster 2 -b 128 -f csv,noheader --fields layout | tr -d '"')" -f csv --fields kernel,cluster_size,max_active_clusters
[ "$status" -eq 0 ] && cmp -s "$tmp/listed" "$tmp/out" &&
	grep -q ',2,[0-9]' "$tmp/out"
ok $? "--launches --layout: a GPU the list lacks gets the cluster figures of the listed one of that layout"

run --launches "$tmp/future.jsonl" --layout 8,16x5 -f csv --fields kernel,max_active_clusters
[ "$status" -eq 0 ] &&
	grep -q "^occcalc: warning: --layout 8,16x5: 88 SMs, not the 132 of device 0 (Some Future GPU): not used for its cluster launches" "$tmp/err"
ok $? "--launches --layout of other SMs than the device's: not used, in one line"

# ---- Text output: what a trace names is escaped ----

trace esc.jsonl '' "$L,\"smem\":0,\"smem_executed\":233472"
sed 's/"kernel":"k"/"kernel":"\\u001b[31mred\\nrow"/' "$tmp/esc.jsonl" >"$tmp/esc2.jsonl"
run --launches "$tmp/esc2.jsonl"
[ "$status" -eq 0 ] && ! tr -d '\n' <"$tmp/out" | grep -q "$(printf '\033')" &&
	grep -qF '\x1b[31mred\nrow' "$tmp/out"
ok $? "the summary: a kernel name's ESC and newline escaped (\\x1b, \\n)"

run --launches "$tmp/esc2.jsonl" --fields kernel,regs
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
	[ "$(sed -n 2p "$tmp/out" | tr -s ' ')" = '\x1b[31mred\nrow 32' ]
ok $? "a text table: the name escaped, the row one line"

echo "1..$n"
[ "$failed" -eq 0 ]
