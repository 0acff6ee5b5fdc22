#!/bin/bash
# Issue 37 item 7: --trace-calls' launches against --trace's (activity
# records) on t/gpu/trace_program.py at fixture scale and on
# bench/pt-step.py: the same kernels, configurations and count.
set -u
T0=$(date +%s)
D=$PWD/.dev/deps; export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
exec > >(tee $OUT/run3.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
export OCCCALC_TABLES=$PWD/data/arch-tables
O=$PWD/src/occcalc W=$(mktemp -d)
F=kernel,grid,block,cluster_dims,regs,static_smem,smem,smem_limit_config
G=blocks_per_sm,occupancy_pct,max_active_clusters
for p in "t/gpu/trace_program.py --scale fixture --steps 3" "bench/pt-step.py --steps 2"; do
  echo "=== $p"
  $O --trace --trace-out $W/a/ -f csv --fields $F,$G -- python3 $p 2>$W/a.err > $W/a.csv
  $O --trace --trace-calls --trace-out $W/c/ -f csv --fields $F,$G -- python3 $p 2>$W/c.err > $W/c.csv
  sort $W/a.csv | cut -d, -f1-8 > $W/a8; sort $W/c.csv | cut -d, -f1-8 > $W/c8
  echo "rows: activity $(wc -l < $W/a.csv), calls $(wc -l < $W/c.csv); configurations differing: $(diff $W/a8 $W/c8 | grep -c '^[<>]'); with occupancy: $(diff <(sort $W/a.csv) <(sort $W/c.csv) | grep -c '^[<>]')"
  diff <(sort $W/a.csv) <(sort $W/c.csv) | cut -c1-200 | head -8
  tail -3 $W/c.err
  $O --launches $W/c/ 2>&1 | head -12 || true
  rm -rf $W/a $W/c
done
echo "total $(( $(date +%s) - T0 )) s"
