#!/bin/bash
# first device run of --achieved (prototype): results under $OUT
set -u
O=$OUT/r; mkdir -p $O
exec > >(tee $O/log.txt) 2>&1
ms() { date +%s%N; }
tm() { local name=$1; shift; local t0=$(ms); "$@"; local st=$?; echo "TIME $name $(( ($(ms)-t0)/1000000 )) ms status $st" >> $O/times.txt; }
SR=$PWD/sysroot; export LD_LIBRARY_PATH=$SR/lib
./configure -q CPPFLAGS=-I$SR/include LDFLAGS="-L$SR/lib -L$SR/linklib" >/dev/null 2>&1 && make -s -j16 >/dev/null 2>&1 || { make -j16 2>&1 | tail -30; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
grep -i profil /proc/driver/nvidia/params
ncu --version | tail -1
NCU="ncu --clock-control none"
M=sm__warps_active.avg.pct_of_peak_sustained_active
nvcc -arch=sm_90 -o probe t/gpu/achieved_probe.cu -lcuda || exit 1
tm probe_plain ./probe
tm probe_ach env OCCCALC_ACHIEVED=100 src/occcalc --trace --trace-out $O/probe.jsonl -- ./probe > $O/probe.txt 2>$O/probe.err
cat $O/probe.err; tail -1 $O/probe.jsonl
grep -c achieved_occupancy_pct $O/probe.jsonl
tm probe_ncu $NCU --csv --metrics $M,launch__grid_size,launch__occupancy_limit_shared_mem,sm__maximum_warps_per_active_cycle_pct ./probe > $O/probe-ncu.csv 2>&1
P="python3 t/gpu/trace_program.py --scale fixture"
$P >/dev/null 2>&1
for i in 1 2; do
tm py_plain $P >/dev/null
tm py_trace src/occcalc --trace --trace-out /tmp/t$i.jsonl -- $P >/dev/null 2>&1
tm py_ach1 env OCCCALC_ACHIEVED=1 src/occcalc --trace --trace-out $O/py-ach1-$i.jsonl -- $P > /dev/null 2>$O/py-ach1.err
tm py_ach10 env OCCCALC_ACHIEVED=10 src/occcalc --trace --trace-out /tmp/a10-$i.jsonl -- $P > /dev/null 2>&1
done
tm py_achall env OCCCALC_ACHIEVED=100000 src/occcalc --trace --trace-out $O/py-all.jsonl -- $P > $O/py-all.txt 2>$O/py-all.err
cat $O/py-ach1.err $O/py-all.err | head; tail -1 $O/py-all.jsonl
tm py_ncu_metric $NCU --csv --metrics $M --log-file $O/py-ncu.csv $P >/dev/null 2>&1
tm py_ncu_occ $NCU --section Occupancy --log-file /tmp/occ.txt $P >/dev/null 2>&1
tm py_achall_2 env OCCCALC_ACHIEVED=100000 src/occcalc --trace --trace-out $O/py-all2.jsonl -- $P > /dev/null 2>&1
cat $O/times.txt; gzip -9 $O/*.jsonl $O/*.csv 2>/dev/null
cd $OUT && tar czf r.tgz r && rm -rf r
