#!/bin/sh
# launches-ops.sh - issue 37's items 2 and 3 on the real trace of
# t/fixtures/pytorch: each kernel's op is the cpu_op of its External id
# (even where that event comes after the kernel's), --by op's rows add up,
# text tables read back as csv does, shortened names stay distinct, and a
# kernel on two GPUs is two rows.
. "$T/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3"
K="$T/fixtures/pytorch/pt-step-kineto.json.gz"

# What Kineto links: the cpu_op of each kernel's External id, computed
# here with python3's json module, in file order (shapes of 4 KB or more
# are not kept).
py_ops() {
	python3 - "$1" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]) if sys.argv[1].endswith('.gz')
              else open(sys.argv[1]))
ops = {e['args']['External id']: e for e in d['traceEvents']
       if e.get('cat') == 'cpu_op'}
for e in d['traceEvents']:
    if e.get('cat') == 'kernel' and e.get('ph') == 'X':
        o = ops.get(e['args'].get('External id'))
        dims = json.dumps(o['args']['Input Dims']) \
            if o and 'Input Dims' in o['args'] else None
        print(json.dumps([o['name'] if o else None,
                          dims if dims and len(dims) < 4096 else None]))
PY
}
occ_ops() {
	"$OCCCALC" --launches "$1" -f jsonl --fields op,op_shapes 2>/dev/null |
		python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l); print(json.dumps([r["op"], r["op_shapes"]]))'
}

py_ops "$K" >"$tmp/want"
occ_ops "$K" >"$tmp/got"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"
ok $? "every kernel's op and op_shapes are the name and Input Dims of the cpu_op with its External id ($(wc -l <"$tmp/want") kernels)"

# The cpu_ops moved after the kernels (as libkineto may write them): read
# twice, the same ops; through a pipe, read once, none.
python3 - "$K" "$tmp/late.json" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
ev = d['traceEvents']
d['traceEvents'] = [e for e in ev if e.get('cat') != 'cpu_op'] + \
                   [e for e in ev if e.get('cat') == 'cpu_op']
json.dump(d, open(sys.argv[2], 'w'))
PY
occ_ops "$tmp/late.json" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
ok $? "cpu_op events after their kernels: the same op for every kernel"

"$OCCCALC" --launches "$K" -f csv --fields module 2>/dev/null |
	grep -c 'nn.Module: Linear_0' >"$tmp/n"
[ "$(cat "$tmp/n")" -gt 0 ]
ok $? "forward kernels get the innermost nn.Module they ran in"

# ---- --by op ----

run --launches "$K" --by op
python3 - "$tmp/out" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
total = int(re.match(r'(\d+) launch', lines[0]).group(1))
i = next(i for i, l in enumerate(lines) if l.startswith('op '))
s = 0
for l in lines[i + 1:]:
    if not l.strip():
        break
    # op, gpu, launches, ...: the op's name may hold spaces
    m = re.match(r'(.*?)\s+(\d+)\s+(\d+)\s+(\d+\+?)\s+[\d.]+\s', l)
    s += int(m.group(3))
sys.exit(0 if s == total == 644 else 1)
PY
ok $? "--by op: the rows' launches add up to the launch count"
grep -q '^aten::mm ' "$tmp/out"
ok $? "--by op: aten::mm is a row"

run --launches "$K" --by layer
[ "$status" = 2 ]
ok $? "--by layer: a usage error"

# ---- Names ----

run --launches "$K"
python3 - "$tmp/out" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
i = next(i for i, l in enumerate(lines) if l.startswith('kernel '))
rows = []
for l in lines[i + 1:]:
    if not l.strip():
        break
    rows.append(l.split('  ')[0].strip())
ok = len(rows) == len(set(rows)) == 44 and \
     'vectorized_elementwise_kernel<8, …>' not in rows and \
     any(r.startswith('reduce_kernel<128, ') for r in rows) and \
     max(len(r) for r in rows) <= 110
sys.exit(0 if ok else 1)
PY
ok $? "the summary's 44 kernel names, shortened, all distinct"

run --launches "$K" --wide
grep -q '^void at::native::vectorized_gather_kernel<16, long>(char\*' "$tmp/out"
ok $? "--wide: full names"

# ---- Text tables read back as csv ----

F=kernel,grid,block,op,op_shapes,module,regs,smem_total,occupancy_pct,limiter
"$OCCCALC" --launches "$K" -f text --fields $F 2>/dev/null >"$tmp/text"
"$OCCCALC" --launches "$K" -f csv --fields $F 2>/dev/null >"$tmp/csv"
python3 - "$tmp/text" "$tmp/csv" <<'PY'
import csv, re, sys
text = [re.split(r'  +', l.rstrip('\n')) for l in open(sys.argv[1])]
rows = list(csv.reader(open(sys.argv[2])))
def norm(v):
    return v.replace(' ', 'x') if re.fullmatch(r'[\d ]+', v) else v
want = [rows[0]] + [[norm(v) if v else '-' for v in r] for r in rows[1:]]
sys.exit(0 if text == want else 1)
PY
ok $? "--fields in text: a header, a cell per field, the values of csv (grid as 2048x1x1)"

# ---- A kernel on two GPUs: two rows ----

python3 - "$K" "$tmp/two.json" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
p = dict(d['deviceProperties'][0]); p['id'] = 1
d['deviceProperties'].append(p)
n = 0
for e in d['traceEvents']:
    if e.get('cat') == 'kernel' and 'nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT' in e['name']:
        n += 1
        if n % 2:
            e['args']['device'] = 1
json.dump(d, open(sys.argv[2], 'w'))
PY
run --launches "$tmp/two.json"
[ "$(grep -c '^nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT ' "$tmp/out")" = 2 ] &&
	grep -q '^nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT  *1  *14 ' "$tmp/out" &&
	grep -q '^nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT  *0  *14 ' "$tmp/out"
ok $? "a kernel on two GPUs: a row for each, 14 launches each"

# ---- occcalc's trace: an op key ----

printf '%s\n' '{"type":"header","format":"occcalc-trace","version":1}' \
 '{"type":"device","device":0,"name":"NVIDIA H100 80GB HBM3","major":9,"minor":0,"multiProcessorCount":132}' \
 '{"type":"launch","device":0,"kernel":"k","op":"aten::mm","grid":[1,1,1],"block":[128,1,1],"cluster":[0,0,0],"regs":32,"static_smem":0,"smem":0}' \
 '{"type":"end","launches":1,"dropped":0}' >"$tmp/t.jsonl"
run --launches "$tmp/t.jsonl" -f csv --fields op,module
[ "$(cat "$tmp/out")" = "op,module
aten::mm," ]
ok $? "occcalc's trace: a launch's op key is its op"

done_testing
