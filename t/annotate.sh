#!/bin/sh
# annotate.sh - --annotate and --chrome-trace (issue 37, item 1): a
# Kineto trace written back byte for byte with an "occcalc" object in
# each kernel event's args, whose figures are the launch rows'; an
# occcalc trace (and --trace's run) as a Chrome trace of its own; gzip,
# standard output, bounded memory on a large trace, and the OUTs that
# are refused with no partial file left.
. "$T/lib.sh"

FIELDS=occupancy_pct,blocks_per_sm,warps_per_sm,limiter,waves,tail_blocks,waves_per_multiprocessor,unknown
EXTRA=cluster_size,max_active_clusters,cluster_occupancy_pct,achieved_occupancy_pct,reason

# check.py IN OUT ROWS BASE_ROWS: OUT is IN plus the objects, as the
# issue asks; says what differs, exits 1 then.
cat >"$tmp/check.py" <<'PY'
import gzip, json, sys

def text(path):
    with open(path, "rb") as f:
        head = f.read(2)
    return (gzip.open if head == b"\x1f\x8b" else open)(path, "rb").read()

inp, out = text(sys.argv[1]), text(sys.argv[2])
rows = [json.loads(l) for l in open(sys.argv[3])]
base = open(sys.argv[4], "rb").read().splitlines()

def fail(why):
    print("# " + why)
    sys.exit(1)

# The inserted text, found in the output: ',"occcalc":{...}' each.
dec = json.JSONDecoder()
cut, objects, at, key = bytearray(), [], 0, b'"occcalc":'
while True:
    i = out.find(key, at)
    if i < 0:
        break
    s = out[i + len(key):].decode("utf-8", "surrogateescape")
    obj, n = dec.raw_decode(s)
    j = i - 1 if out[i - 1:i] == b"," else i
    cut += out[at:j]
    objects.append(out[i + len(key):i + len(key) + len(s[:n].encode("utf-8", "surrogateescape"))])
    at = i + len(key) + len(s[:n].encode("utf-8", "surrogateescape"))
cut += out[at:]
if bytes(cut) != inp:
    fail("the output without the inserted members is not the input, byte for byte")

a, b = json.loads(inp), json.loads(out)
kernels = [e for e in b["traceEvents"] if e.get("cat") == "kernel" and e.get("ph") == "X"]
for e in kernels:
    if "occcalc" not in e.get("args", {}):
        fail("a kernel event without the object: %s" % e.get("name"))
    del e["args"]["occcalc"]
if a != b:
    fail("the output parsed, its objects removed, is not the input parsed")
if len(objects) != len(kernels) or len(rows) != len(kernels) or len(base) != len(kernels):
    fail("%d objects, %d kernel events, %d rows" % (len(objects), len(kernels), len(rows)))
for i, (o, r, t) in enumerate(zip(objects, rows, base)):
    obj = json.loads(o)
    for k in ("occupancy_pct", "blocks_per_sm", "limiter", "waves"):
        if k not in obj:
            fail("launch %d: no %s" % (i, k))
    for k, v in obj.items():
        if r.get(k) != v:
            fail("launch %d: %s %r, its row %r" % (i, k, v, r.get(k)))
    for k in ("cluster_size", "max_active_clusters", "achieved_occupancy_pct", "reason"):
        want = r.get(k) is not None and not (k == "cluster_size" and r[k] == 1)
        if want != (k in obj):
            fail("launch %d: %s %s" % (i, k, "missing" if want else "not its"))
    # The row's text, as -f jsonl writes it, starts the object's.
    if not o.startswith(t[:-1]):
        fail("launch %d: %s is not written as its row %s" % (i, o, t))
PY

annotated() {
	in=$1 name=$2
	run --launches "$in" --annotate "$tmp/$name.json"
	s1=$status
	"$OCCCALC" --launches "$in" -f jsonl --fields "$FIELDS,$EXTRA" >"$tmp/rows" 2>/dev/null
	"$OCCCALC" --launches "$in" -f jsonl --fields "$FIELDS" >"$tmp/base" 2>/dev/null
	[ "$s1" -eq 0 ] && python3 "$tmp/check.py" "$in" "$tmp/$name.json" "$tmp/rows" "$tmp/base"
	ok $? "$name: the input byte for byte plus an \"occcalc\" object in each kernel's args, its figures the rows'"

	run --launches "$in" --annotate "$tmp/$name.json.gz"
	[ "$status" -eq 0 ] && gzip -dc "$tmp/$name.json.gz" | cmp -s - "$tmp/$name.json"
	ok $? "$name: OUT.gz is gzip of what OUT holds"

	run --launches "$in" --annotate -
	[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/$name.json"
	ok $? "$name: --annotate - writes it to standard output, nothing else"
}

annotated "$T/fixtures/launches/kineto.json" kineto
annotated "$T/fixtures/pytorch/pt-step-kineto.json.gz" pt-step

python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
k = [e for e in d['traceEvents'] if e.get('cat') == 'kernel']
sys.exit(not (len(k) == 644 and all(e['args']['occcalc']['occupancy_pct'] > 0 for e in k)))
" "$tmp/pt-step.json"
ok $? "pt-step: 644 kernel events, each with an occupancy (Kineto says 0 for the GEMMs)"

run --launches "$T/fixtures/launches/kineto.json" --kernel nvjet --annotate "$tmp/nvjet.json"
[ "$status" -eq 0 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
k = [e for e in d['traceEvents'] if e.get('cat') == 'kernel']
sys.exit(not (len(k) == 3 and [('occcalc' in e['args']) == e['name'].startswith('nvjet') for e in k] == [True] * 3))
" "$tmp/nvjet.json"
ok $? "--kernel REGEX: only the kernels it matches get the object, the trace whole"

# ---- An occcalc trace: a Chrome trace of its launches ----

# chrome.py TRACE ROWS: a Chrome trace of ROWS' launches, in order.
cat >"$tmp/chrome.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2])]
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
meta = [e for e in d["traceEvents"] if e.get("ph") == "M"]
def fail(why):
    print("# " + why)
    sys.exit(1)
if len(ev) != len(rows) or not meta:
    fail("%d events, %d rows" % (len(ev), len(rows)))
for i, (e, r) in enumerate(zip(ev, rows)):
    a = e["args"]
    if (e["cat"], e["name"], e["pid"], e["tid"]) != ("kernel", r["kernel"], r["device"], r["stream"]):
        fail("launch %d: %r" % (i, e))
    if (a["grid"], a["block"], a["registers per thread"], a["shared memory"]) != \
       (r["grid"], r["block"], r["regs"], r["smem_total"]):
        fail("launch %d: args %r" % (i, a))
    if round(e["ts"] * 1000) != r["start_ns"] % 10**9 + r["start_ns"] // 10**9 * 10**9 or \
       round(e["dur"] * 1000) != r["duration_ns"]:
        if abs(e["ts"] * 1000 - r["start_ns"]) > 1000 or round(e["dur"] * 1000) != r["duration_ns"]:
            fail("launch %d: ts %r dur %r, start_ns %r duration_ns %r" % (i, e["ts"], e["dur"], r["start_ns"], r["duration_ns"]))
    for k, v in a["occcalc"].items():
        if r.get(k) != v:
            fail("launch %d: %s %r, its row %r" % (i, k, v, r.get(k)))
    if (r["cluster_size"] or 1) > 1 and "max_active_clusters" not in a["occcalc"]:
        fail("launch %d: a cluster launch without its cluster figures" % i)
PY
J="$T/fixtures/pytorch/pt-step-trace-1.jsonl.gz"
run --launches "$J" --annotate "$tmp/j.json"
s1=$status
"$OCCCALC" --launches "$J" -f jsonl \
	--fields "kernel,device,stream,grid,block,regs,smem_total,start_ns,duration_ns,$FIELDS,$EXTRA" \
	>"$tmp/jrows" 2>/dev/null
[ "$s1" -eq 0 ] && python3 "$tmp/chrome.py" "$tmp/j.json" "$tmp/jrows"
ok $? "an occcalc trace with --annotate: a Chrome trace, an event a launch with its row's figures"

run --launches "$J" --chrome-trace "$tmp/j2.json"
[ "$status" -eq 0 ] && cmp -s "$tmp/j.json" "$tmp/j2.json"
ok $? "--launches FILE.jsonl --chrome-trace: the same trace"

A="$T/fixtures/pytorch/pt-step-achieved-1.jsonl.gz"
measured=$("$OCCCALC" --launches "$A" -f jsonl --fields achieved_occupancy_pct 2>/dev/null | grep -vc null)
run --launches "$A" --chrome-trace "$tmp/a.json" -f csv
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
k = [e['args']['occcalc'] for e in d['traceEvents'] if e.get('ph') == 'X']
sys.exit(not (len(k) == 2304 and sum('achieved_occupancy_pct' in o for o in k) == int(sys.argv[2])))
" "$tmp/a.json" "$measured" && [ "$status" -eq 0 ] && [ "$measured" -gt 100 ] &&
	[ "$(wc -l <"$tmp/out")" -eq 2305 ]
ok $? "--achieved's launches: achieved_occupancy_pct in the $measured measured; the rows printed beside"

# --trace: the run's launches as a Chrome trace (a stand-in for the
# traced program writes its file, as t/trace-run.sh's does).
OCCCALC_TRACE_LIB="$tmp/occtrace.so"
: >"$OCCCALC_TRACE_LIB"
export OCCCALC_TRACE_LIB
real="$T/fixtures/traces/occcalc-trace.jsonl"
cat >"$tmp/writes" <<EOS
#!/bin/sh
out=\$OCCCALC_TRACE_OUT run=\$OCCCALC_TRACE_RUN
[ -d "\$out" ] && out="\$out/occcalc-trace.\$run.\$\$.jsonl"
{ head -n 3 "$real"; echo '{"type":"end","launches":1,"dropped":0}'; } >"\$out"
EOS
chmod +x "$tmp/writes"
run --trace --chrome-trace "$tmp/t.json.gz" -- "$tmp/writes"
[ "$status" -eq 0 ] && gzip -dc "$tmp/t.json.gz" | python3 -c "
import json, sys
d = json.load(sys.stdin)
e = [e for e in d['traceEvents'] if e.get('ph') == 'X']
sys.exit(not (len(e) == 1 and e[0]['cat'] == 'kernel' and 'occupancy_pct' in e[0]['args']['occcalc']))"
ok $? "--trace --chrome-trace OUT.gz: the run's launch as a Chrome trace event"

# ---- A large trace: streamed, in bounded memory ----

python3 - "$tmp/big.json.gz" <<'PY'
import gzip, sys
ev = ('{"ph": "X", "cat": "kernel", "name": "k%d", "pid": 0, "tid": 7, '
      '"ts": %d.500, "dur": 3.250, "args": {"device": 0, "stream": 7, '
      '"correlation": %d, "registers per thread": 32, "shared memory": %d, '
      '"grid": [%d, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %%": 50}}')
with gzip.open(sys.argv[1], "wt", 1) as f:
    f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": '
            '"NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0, '
            '"numSms": 132}], "traceEvents": [\n')
    f.write(",\n".join(ev % (i % 500, i, i, (i % 7) * 4096, 100 + i % 3000)
                       for i in range(200000)))
    f.write('\n]}\n')
PY
if grep -q __asan_init "$OCCCALC" 2>/dev/null; then
	run --launches "$tmp/big.json.gz" --annotate "$tmp/big-out.json.gz"
	rss=0
else
	"$MAXRSS" "$tmp/rss" "$OCCCALC" --launches "$tmp/big.json.gz" \
		--annotate "$tmp/big-out.json.gz" >"$tmp/out" 2>"$tmp/err"
	status=$?
	rss=$(cat "$tmp/rss" 2>/dev/null || echo 999999999)
fi
[ "$status" -eq 0 ] && [ "$rss" -lt 32768 ] && gzip -dc "$tmp/big-out.json.gz" | python3 -c "
import json, sys
d = json.load(sys.stdin)
k = [e for e in d['traceEvents'] if 'occcalc' in e['args']]
sys.exit(not (len(k) == 200000 and k[-1]['args']['occcalc']['blocks_per_sm'] > 0))"
ok $? "200,000 kernel events annotated in under 32 MB ($rss KB; a sanitizer build: not measured)"

# ---- OUTs refused, and nothing left named OUT ----

K="$T/fixtures/launches/kineto.json"
expect 1 "$tmp/no/x.json: cannot write: No such file or directory" \
	--launches "$K" --annotate "$tmp/no/x.json"
cp "$K" "$tmp/in.json"
expect 2 "--annotate: '$tmp/in.json' is the input file" \
	--launches "$tmp/in.json" --annotate "$tmp/in.json"
cmp -s "$K" "$tmp/in.json"
ok $? "the input named as OUT is left as it was"
ln -s in.json "$tmp/link.json"
expect 2 "is the input file" --launches "$tmp/in.json" --annotate "$tmp/link.json"
mkfifo "$tmp/fifo"
expect 1 "$tmp/fifo: cannot write: a FIFO" --launches "$K" --annotate "$tmp/fifo"
expect 2 "--annotate writes the trace of one file: 2 given" \
	--launches "$K" "$T/fixtures/launches/small.jsonl" --annotate "$tmp/o.json"
expect 2 "--annotate and --chrome-trace: one trace is written" \
	--launches "$K" --annotate "$tmp/o.json" --chrome-trace "$tmp/p.json"
expect 2 "--annotate" --trace --annotate "$tmp/o.json" -- true
expect 1 "args.occcalc (a trace annotated already)" \
	--launches "$tmp/kineto.json" --annotate "$tmp/twice.json"
# The note on what Kineto traces lack comes first, then the failure.
if [ -w /dev/full ]; then
	run --launches "$K" --annotate /dev/full
	[ "$status" -eq 1 ] && [ ! -s "$tmp/out" ] &&
		tail -n 1 "$tmp/err" | grep -qx "occcalc: /dev/full: cannot write: No space left on device"
	ok $? "OUT that cannot be written (/dev/full): exit 1, one line"
else
	skip 1 "no /dev/full"
fi

# A run that fails midway leaves OUT as it was and nothing beside it.
mkdir "$tmp/d"
echo keep >"$tmp/d/out.json"
head -c 2000 "$K" | sed 's/"registers per thread"/"regs"/' >"$tmp/d/bad.json"
run --launches "$tmp/d/bad.json" --annotate "$tmp/d/out.json"
[ "$status" -eq 1 ] && [ "$(cat "$tmp/d/out.json")" = keep ] &&
	[ "$(ls "$tmp/d" | wc -l)" -eq 2 ]
ok $? "a trace that fails to read: OUT untouched, no temporary file left"
run --launches "$tmp/d/bad.json" --annotate "$tmp/d/new.json.gz"
[ "$status" -eq 1 ] && [ ! -e "$tmp/d/new.json.gz" ] && [ "$(ls "$tmp/d" | wc -l)" -eq 2 ]
ok $? "... and none made where OUT was not"

run --help launches
grep -q -- "--annotate FILE" "$tmp/out" && grep -q -- "--chrome-trace FILE" "$tmp/out"
ok $? "--help launches lists --annotate and --chrome-trace"

echo "1..$n"
[ "$failed" -eq 0 ]
