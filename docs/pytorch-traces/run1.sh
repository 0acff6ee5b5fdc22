#!/bin/bash
# Issue 37 and 39: real traces of bench/pt-step.py on the device machine,
# from the root of a copy of this tree (yajl unpacked in .dev/deps):
#   pt-step-kineto.json.gz   torch.profiler's Chrome trace (record_shapes,
#                            with_stack, with_modules), 4 steps
#   pt-step-trace.jsonl.gz   occcalc --trace of the same program, 4 steps
#   pt-step-achieved.jsonl.gz  occcalc --trace --achieved=all, 4 steps
#   run1.txt                 the device, the build, and what each run said
set -u
T0=$(date +%s)
D=$PWD/.dev/deps; export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
exec > >(tee $OUT/run1.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, "cuda", torch.version.cuda)'
./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo "build failed"; make -j16 2>&1 | tail -20; exit 1; }
echo "built $(( $(date +%s) - T0 )) s"
export OCCCALC_TABLES=$PWD/data/arch-tables
O=$PWD/src/occcalc
W=$(mktemp -d)
python3 bench/pt-step.py --steps 4 --profile $W/k.json && gzip -9 -c $W/k.json > $OUT/pt-step-kineto.json.gz
echo "kineto $(( $(date +%s) - T0 )) s: $(stat -c %s $W/k.json) bytes"
$O --trace --trace-out $W/t.jsonl -f csv --fields kernel,grid,block,blocks_per_sm,occupancy_pct -- python3 bench/pt-step.py --steps 4 > $W/t.csv
echo "trace rc $? $(( $(date +%s) - T0 )) s: $(wc -l < $W/t.csv) rows; files: $(ls $W)"
cat $W/t.jsonl $W/t.jsonl.* 2>/dev/null | gzip -9 > $OUT/pt-step-trace.jsonl.gz
$O --trace --achieved=all --trace-out $W/a.jsonl -f csv --fields kernel,grid,block,smem_executed,blocks_per_sm,occupancy_pct,achieved_occupancy_pct,unknown -- python3 bench/pt-step.py --steps 4 > $W/a.csv
echo "achieved rc $? $(( $(date +%s) - T0 )) s: $(wc -l < $W/a.csv) rows; files: $(ls $W)"
cat $W/a.jsonl $W/a.jsonl.* 2>/dev/null | gzip -9 > $OUT/pt-step-achieved.jsonl.gz
echo "=== the same launches with and without --achieved (theoretical figures)"
python3 - $W/t.csv $W/a.csv <<'PY'
import csv, sys
t = list(csv.DictReader(open(sys.argv[1])))
a = list(csv.DictReader(open(sys.argv[2])))
print("rows", len(t), len(a))
diff = meas = above = 0
for x, y in zip(t, a):
    if (x["kernel"], x["grid"], x["block"]) != (y["kernel"], y["grid"], y["block"]):
        print("order differs at", x["kernel"][:60], y["kernel"][:60]); break
    if y["achieved_occupancy_pct"]:
        meas += 1
        if float(y["achieved_occupancy_pct"]) > float(y["occupancy_pct"] or 0) + 1: above += 1
    if (x["blocks_per_sm"], x["occupancy_pct"]) != (y["blocks_per_sm"], y["occupancy_pct"]):
        diff += 1
        print("DIFF", y["kernel"][:70], y["smem_executed"], x["blocks_per_sm"], y["blocks_per_sm"], y["unknown"])
print("measured", meas, "theoretical differs", diff, "achieved above theoretical + 1", above)
PY
echo "total $(( $(date +%s) - T0 )) s"
