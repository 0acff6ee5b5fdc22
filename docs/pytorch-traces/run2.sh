#!/bin/bash
# Issue 37 item 7: what --trace costs a host-bound training step on the
# device machine, from the root of a copy of this tree (yajl unpacked in
# .dev/deps): bench/trace-overhead.py --scale host, plain, --trace,
# --trace --trace-calls, the injection library alone, the floor (CUPTI's
# kernel activity enabled, its buffers dropped unread) and torch.profiler,
# interleaved. Then --trace-calls' launches against --trace's on the
# fixture-scale program (the same kernels, configurations and count).
set -u
T0=$(date +%s)
D=$PWD/.dev/deps; export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
exec > >(tee $OUT/run2.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
export OCCCALC_TABLES=$PWD/data/arch-tables
O=$PWD/src/occcalc W=$(mktemp -d)
echo "built $(( $(date +%s) - T0 )) s"
F=kernel,grid,block,cluster_dims,regs,static_smem,smem,blocks_per_sm,occupancy_pct
$O --trace --trace-out $W/a/ -f csv --fields $F -- python3 t/gpu/trace_program.py --scale fixture --steps 3 2>$W/a.err | sort > $W/a.csv
$O --trace --trace-calls --trace-out $W/c/ -f csv --fields $F -- python3 t/gpu/trace_program.py --scale fixture --steps 3 2>$W/c.err | sort > $W/c.csv
echo "=== --trace: $(wc -l < $W/a.csv) rows; --trace-calls: $(wc -l < $W/c.csv) rows; differing lines: $(diff $W/a.csv $W/c.csv | grep -c '^[<>]')"
cat $W/a.err $W/c.err | head -20
diff $W/a.csv $W/c.csv | head -20 | cut -c1-240
python3 bench/trace-overhead.py $O $OUT/trace-overhead-host.md --scale host --rounds 8 --steps 200 --warmup 20 --warmup-s 2 --ncu-rounds 0 --budget-s 330 --lib $PWD/src/trace/.libs/occtrace.so
cat $OUT/trace-overhead-host.md | head -40
echo "total $(( $(date +%s) - T0 )) s"
