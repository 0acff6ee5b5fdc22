#!/bin/bash
T0=$(date +%s)
D=$(cd ../deps && pwd); export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >$OUT/conf.log 2>&1 || { echo configure failed; tail $OUT/conf.log; exit 1; }
make -s -j16 >$OUT/build.log 2>&1 || { echo build failed; tail -30 $OUT/build.log; exit 1; }
echo "built $(( $(date +%s) - T0 )) s"
O=$PWD/src/occcalc
SP=$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')
TC=$SP/torch/lib/libtorch_cuda.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
  echo "=== libtorch_cuda.so, 8 rounds: format peak_KB seconds"
  for i in 1 2 3 4 5 6 7 8; do for f in text csv jsonl; do
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
grep -A25 "8 rounds" $OUT/memory.txt
timeout 200 make -j16 gpu-check-suite >$OUT/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^# [A-Z]+:" test-suite.log; grep -E "^(FAIL|ERROR)" test-suite.log | head
tar czf $OUT/docs.tgz docs/gpu-tests.log t/gpu.log 2>/dev/null
