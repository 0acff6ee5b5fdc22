#!/bin/bash
# Issue 29 item 13: libtorch_cuda.so's peak memory and the toolkit's speed
# against cuobjdump with the read's budget (READ_BUDGET_MB) at 72 (the
# default then), 64 and 56 MB. From this tree's root, yajl unpacked in
# ../deps, on the device machine.
T0=$(date +%s)
D=$(cd ../deps && pwd); export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
for b in 72 64 56; do mkdir -p /tmp/b$b; cp -r . /tmp/b$b/; done
for b in 72 64 56; do (cd /tmp/b$b && ./configure -q CPPFLAGS="-I$D/usr/include -DREAD_BUDGET_MB=$b" LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null 2>&1 && make -s -j5 src/occcalc >/dev/null 2>&1 || echo "build $b failed") & done; wait
echo "built $(( $(date +%s) - T0 )) s"
SP=$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')
TC=$SP/torch/lib/libtorch_cuda.so
export OCCCALC_TABLES=$PWD/data/arch-tables
{ for i in 1 2 3 4; do for b in 72 64 56; do for f in text csv; do
  /usr/bin/time -f "b$b $f %M KB %e s" -o /tmp/m.txt /tmp/b$b/src/occcalc --kernels $TC -f $f >/dev/null 2>/tmp/e.txt; tail -1 /tmp/m.txt
done; done; done; } > $OUT/libtorch.txt 2>&1
sort $OUT/libtorch.txt | awk '{k=$1" "$2; if(!(k in mn)||$3<mn[k])mn[k]=$3; if($3>mx[k])mx[k]=$3} END{for(k in mn)print k, mn[k], mx[k]}' | sort
echo "mem $(( $(date +%s) - T0 )) s"
B="/usr/local/cuda/lib64 $SP/nvidia/nccl/lib $SP/nvidia/cudnn/lib"
for b in 64 56; do BASELINE=/tmp/b72/src/occcalc sh bench/vs-cuobjdump.sh /tmp/b$b/src/occcalc $B > $OUT/bench$b.txt 2>&1; tail -1 $OUT/bench$b.txt; done
echo "bench $(( $(date +%s) - T0 )) s"
