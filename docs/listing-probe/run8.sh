#!/bin/bash
T0=$(date +%s)
D=$(cd ../deps && pwd); export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
for x in ../base .; do (cd $x && ./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null 2>&1 && make -s -j8 src/occcalc >/dev/null 2>&1 || echo "build $x failed") & done; wait
echo "built $(( $(date +%s) - T0 )) s"
O=$PWD/src/occcalc
export OCCCALC_TABLES=$PWD/data/arch-tables
SP=$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')
TC=$SP/torch/lib/libtorch_cuda.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
  echo "=== libtorch_cuda.so, 8 rounds: format peak_KB seconds"
  for i in 1 2 3 4 5 6 7 8; do for f in text csv jsonl json; do
    /usr/bin/time -f "$f %M KB %e s" -o /tmp/m.txt $O --kernels $TC -f $f >/dev/null 2>/tmp/e.txt; tail -1 /tmp/m.txt
  done; done
  echo "=== every file with GPU code (toolkit lib64, every python package .so >= 2 MB): text peak_KB seconds, csv peak_KB seconds"
  for L in $( (ls /usr/local/cuda/lib64/lib*.so.* ; find $SP -name '*.so*' -size +2M) | sort -u); do
    /usr/bin/time -f "%M %e" -o /tmp/m.txt $O --kernels $L >/tmp/o.txt 2>/tmp/e.txt
    [ -s /tmp/o.txt ] || continue
    t=$(tail -1 /tmp/m.txt)
    /usr/bin/time -f "%M %e" -o /tmp/m.txt $O --kernels $L -f csv >/dev/null 2>/tmp/e.txt
    echo "$L text $t csv $(tail -1 /tmp/m.txt)"
  done
} > $OUT/memory.txt 2>&1
echo "memory $(( $(date +%s) - T0 )) s"
grep -A33 "8 rounds" $OUT/memory.txt | sort | awk 'NF==5{k=$1; if(!(k in mn)||$2<mn[k])mn[k]=$2; if($2>mx[k])mx[k]=$2} END{for(k in mn)print k, mn[k], mx[k]}'
echo text-others; awk '/every file/{f=1;next} f{print $3, $1}' $OUT/memory.txt | sort -rn | head -3
echo csv-others; awk '/every file/{f=1;next} f{print $6, $1}' $OUT/memory.txt | sort -rn | head -3
make -s bench-cuobjdump BASELINE=$(cd ../base && pwd)/src/occcalc BENCH_LIBS="/usr/local/cuda/lib64 $SP/nvidia/nccl/lib $SP/nvidia/cudnn/lib" > $OUT/bench.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 )) s"
tail -1 $OUT/bench.txt; grep -c DIFFER $OUT/bench.txt
