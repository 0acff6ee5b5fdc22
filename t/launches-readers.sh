#!/bin/sh
# launches-readers.sh - the trace readers on what issue 39 found: a cut
# inside a number, data after a gzip stream, kernel events that are not
# read, keys in any order, records after the end, a file named twice,
# nothing read, the input's own faults, out-of-range estimates and the
# line a long line is on. Each is read right or told in one line.
. "$T/lib.sh"

X=$T/fixtures/readers
F=$T/fixtures/launches
TR=$T/fixtures/traces

# Item 10: cut right after '.', or after 'e' / 'e+': cut short, as a cut
# elsewhere is.
for f in "$X/cut-after-dot.json" "$X/cut-after-dot.json.gz"; do
	run --launches "$f" -f csv --fields kernel
	[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
		grep -q "cut short at byte 1328 of its JSON (inside traceEvents): 2 launches read" "$tmp/err"
	ok $? "a Kineto trace cut after a number's '.' ($(basename "$f")): cut short, 2 launches"
done
head -c 1327 "$X/cut-after-dot.json" >"$tmp/cut-e.json"
for tail in 1e 1e+ 1E- -; do
	{ cat "$tmp/cut-e.json"; printf '%s' "$tail"; } >"$tmp/cut.json"
	run --launches "$tmp/cut.json" -f csv --fields kernel
	[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
		grep -q "cut short at byte" "$tmp/err"
	ok $? "a Kineto trace cut after '$tail': cut short"
done

# Item 11: data after a gzip stream.
gzip -dc "$TR/kineto.json.gz" >"$tmp/k.json"
run --launches "$tmp/k.json" -f csv --fields kernel
cp "$tmp/out" "$tmp/k.csv"
{ gzip -c "$F/small.jsonl"; printf 'plain text\n'; } >"$tmp/then-plain.gz"
expect 1 "then-plain.gz: byte $(gzip -c "$F/small.jsonl" | wc -c) of the file: data after the gzip stream that is not gzip" \
	--launches "$tmp/then-plain.gz"
{ cat "$TR/kineto.json.gz"; printf 'garbage'; } >"$tmp/k-garbage.gz"
expect 1 "k-garbage.gz: byte $(wc -c <"$TR/kineto.json.gz") of the file: data after the gzip stream" \
	--launches "$tmp/k-garbage.gz" -f csv
{ cat "$TR/kineto.json.gz"; printf '\037'; } >"$tmp/k-half.gz"
expect 1 "data after the gzip stream that is not gzip" --launches "$tmp/k-half.gz"
lines=$(wc -l <"$F/small.jsonl")
{ head -3 "$F/small.jsonl" | gzip -c; tail -n $((lines - 3)) "$F/small.jsonl" | gzip -c; } >"$tmp/members.gz"
run --launches "$F/small.jsonl" -f csv --fields kernel
cp "$tmp/out" "$tmp/small.csv"
run --launches "$tmp/members.gz" -f csv --fields kernel
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/small.csv" && [ ! -s "$tmp/err" ]
ok $? "a trace in two gzip members reads as the whole"
head -c 30000 "$TR/kineto.json.gz" >"$tmp/k-cut.gz"
run --launches "$tmp/k-cut.gz" -f csv --fields kernel
[ "$status" -eq 0 ] && grep -q "cut short at byte" "$tmp/err"
ok $? "a gzip stream cut inside its member: the text up to the cut, cut short"
gzip -c "$F/small.jsonl" >"$tmp/crc.gz"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-8] ^= 0xff; open(sys.argv[1], "wb").write(b)' "$tmp/crc.gz"
# zlib has read the CRC when it finds it wrong: the byte after it.
expect 1 "crc.gz: byte $(($(wc -c <"$tmp/crc.gz") - 4)) of the file: gzip stream corrupt: incorrect data check" \
	--launches "$tmp/crc.gz"
if [ -r /proc/self/mem ]; then
	expect 1 "/proc/self/mem: cannot read: Input/output error" --launches /proc/self/mem
else
	skip "no /proc/self/mem"
fi

# Item 12: kernel events that are not read are counted.
run --launches "$X/phases.json" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
	grep -q 'phases.json: 5 kernel events left out: not a complete event ("ph": "X") of category "kernel"' "$tmp/err" &&
	[ "$(wc -l <"$tmp/err")" -eq 2 ]
ok $? "Kineto: B, E, no ph, 'Kernel ', null cat: 5 kernel events left out, in one line"
run --launches "$tmp/k.json" -f csv --fields kernel
! grep -q "left out" "$tmp/err"
ok $? "Kineto: a real trace's other events are not counted as kernels"

# Item 13: keys in any order.
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    print(json.dumps(json.loads(line), sort_keys=True))' "$F/small.jsonl" >"$tmp/sorted.jsonl"
run --launches "$tmp/sorted.jsonl" -f csv --fields kernel
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/small.csv"
ok $? "an occcalc trace with sorted keys (json.dumps sort_keys) reads as the trace"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    print(json.dumps(json.loads(line), sort_keys=True))' "$TR/occcalc-trace.jsonl" >"$tmp/sorted2.jsonl"
run --launches "$TR/occcalc-trace.jsonl" -f csv --fields kernel,occupancy_pct
cp "$tmp/out" "$tmp/real.csv"
run --launches "$tmp/sorted2.jsonl" -f csv --fields kernel,occupancy_pct
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/real.csv"
ok $? "the real occcalc trace with sorted keys: argv and format before type"
python3 -c '
import json, sys
print(json.dumps(json.load(open(sys.argv[1])), sort_keys=True))' "$tmp/k.json" >"$tmp/k-sorted.json"
run --launches "$tmp/k-sorted.json" -f csv --fields kernel
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/k.csv"
ok $? "a Kineto trace with sorted keys reads as the trace"
python3 -c '
import json, sys
print(json.dumps(json.load(open(sys.argv[1])), indent=1))' "$F/kineto.json" >"$tmp/k-indent.json"
run --launches "$tmp/k-indent.json" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 1 ]
ok $? "a Kineto trace printed over lines reads"
python3 -c '
import json, sys
print(json.dumps(json.loads(open(sys.argv[1]).readline()), indent=1, sort_keys=True))' "$F/small.jsonl" >"$tmp/spread.jsonl"
expect 1 "spread.jsonl:1: a record spread over lines (one a line: jq -c)" --launches "$tmp/spread.jsonl"

# Records after the end record, a second end record: read, one line.
{ cat "$F/small.jsonl"; sed -n 3p "$F/small.jsonl"; } >"$tmp/after.jsonl"
run --launches "$tmp/after.jsonl" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq $(($(wc -l <"$tmp/small.csv") + 1)) ] &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "after.jsonl: 1 record after its end record (a trace appended to): read, not in the end record's counts" "$tmp/err"
ok $? "a launch after the end record: read, and one line says so"
{ cat "$F/small.jsonl"; tail -1 "$F/small.jsonl"; } >"$tmp/end2.jsonl"
run --launches "$tmp/end2.jsonl" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "end2.jsonl: 1 record after its end record" "$tmp/err"
ok $? "a second end record: one line"

# The same file twice: refused before anything is read.
ln -s "$F/small.jsonl" "$tmp/link.jsonl"
expect 2 "--launches: '$F/small.jsonl' and '$F/small.jsonl' are the same file" \
	--launches "$F/small.jsonl" "$F/small.jsonl"
expect 2 "are the same file: its launches would count twice" \
	--launches "$F/small.jsonl" "$tmp/link.jsonl"

# Reading no launch fails, as --trace and --kernels do.
head -1 "$F/small.jsonl" >"$tmp/none.jsonl"
tail -1 "$F/small.jsonl" | sed 's/"launches":[0-9]*/"launches":0/' >>"$tmp/none.jsonl"
run --launches "$tmp/none.jsonl" -f csv
[ "$status" -eq 1 ] && grep -q "^occcalc: --launches: no launch in 1 file$" "$tmp/err" &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ]
ok $? "a trace without launches: exit 1, one line"
run --launches "$F/small.jsonl" --kernel nomatch -f csv
[ "$status" -eq 1 ] && grep -q -- "--launches: no launch in 1 file that --kernel matches" "$tmp/err"
ok $? "--kernel matching none: exit 1"

# Item 15: estimates out of range are not taken; JSON never holds inf.
run --launches "$X/est-1e400.json" -f json --fields kernel,kineto_est_pct
[ "$status" -eq 0 ] && python3 -m json.tool "$tmp/out" >/dev/null &&
	grep -q '"kineto_est_pct":null' "$tmp/out" &&
	grep -q "est-1e400.json: 1 launch's Kineto estimate of occupancy is not 0 to 100 %: not taken" "$tmp/err"
ok $? "an estimate of 1e400: not taken, counted; the JSON is JSON"
for v in -1 18446744073709551616 100.5; do
	sed "s/1e400/$v/" "$X/est-1e400.json" >"$tmp/est.json"
	run --launches "$tmp/est.json" -f csv --fields kineto_est_pct
	[ "$status" -eq 0 ] && [ "$(sed -n 2p "$tmp/out")" = "" ] &&
		grep -q "not 0 to 100 %: not taken" "$tmp/err"
	ok $? "an estimate of $v: not taken, counted"
done
sed 's/"est. achieved occupancy %": 1e400/"est_occupancy_pct": 42.5, "occupancy": {"activeBlocksPerMultiprocessor": 8, "limitingFactors": "WARPS", "blockLimitRegs": 8, "blockLimitSharedMem": 2147483647, "blockLimitWarps": 8, "blockLimitBlocks": 32, "blockLimitBarriers": 32, "allocatedRegistersPerBlock": 8192, "allocatedSharedMemPerBlock": 0}/' \
	"$X/est-1e400.json" >"$tmp/est-new.json"
run --launches "$tmp/est-new.json" -f csv --fields kineto_est_pct,occupancy_pct
[ "$status" -eq 0 ] && [ "$(sed -n 2p "$tmp/out")" = "42.50,100.00" ] && ! grep -q "not taken" "$tmp/err"
ok $? "newer PyTorch: est_occupancy_pct taken, Kineto's occupancy object accepted"

# Item 17: a line too long is named by its own number.
{ head -2 "$F/small.jsonl"; head -c 1100000 /dev/zero | tr '\0' ' '; echo; } | gzip -c >"$tmp/long3.gz"
expect 1 "long3.gz:3: line too long" --launches "$tmp/long3.gz"
{ printf '{"type":"header","x":"'; head -c 1100000 /dev/zero | tr '\0' a; printf '"}\n'; } >"$tmp/long1.jsonl"
expect 1 "long1.jsonl:1: line too long" --launches "$tmp/long1.jsonl"

done_testing
