#!/bin/bash
# Issue 29 item 13: the arena giving up LIST_SHARE bytes for each kernel
# delivered, from 72 MB of budget down to 56 (a tree with
# run10-list-share.patch applied, not kept; built with
# LIST_SHARE 256 and 512), against a fixed 56 MB budget (main at the
# time, in ../base). From this tree's root on the device machine, yajl
# unpacked in ../deps. Prints libtorch_cuda.so's peak (6 rounds, every
# format), the other files' highest, and bench-cuobjdump of each build
# against the fixed budget.
T0=$(date +%s)
D=$(cd ../deps && pwd); export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
for k in 256 512; do mkdir -p /tmp/s$k; cp -r . /tmp/s$k/; done
(cd ../base && ./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null 2>&1 && make -s -j5 src/occcalc >/dev/null 2>&1 || echo "build base failed") &
for k in 256 512; do (cd /tmp/s$k && ./configure -q CPPFLAGS="-I$D/usr/include -DLIST_SHARE=$k" LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null 2>&1 && make -s -j5 src/occcalc >/dev/null 2>&1 || echo "build $k failed") & done; wait
echo "built $(( $(date +%s) - T0 )) s"
B=$(cd ../base && pwd)/src/occcalc
export OCCCALC_TABLES=$PWD/data/arch-tables
SP=$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')
TC=$SP/torch/lib/libtorch_cuda.so
peak() {   # peak LABEL OCCCALC ARGS...: "LABEL KB s"
	l=$1 o=$2; shift 2
	/usr/bin/time -f "$l %M KB %e s" -o /tmp/m.txt $o "$@" >/tmp/o.$(echo $l | cut -d" " -f1) 2>&1; tail -1 /tmp/m.txt
}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
  echo "=== libtorch_cuda.so, 6 rounds, default readers: build format KB s"
  for i in 1 2 3 4 5 6; do for f in text csv jsonl json; do
    peak "fixed $f" $B --kernels $TC -f $f; peak "s256 $f" /tmp/s256/src/occcalc --kernels $TC -f $f; peak "s512 $f" /tmp/s512/src/occcalc --kernels $TC -f $f
    cmp -s /tmp/o.fixed /tmp/o.s256 && cmp -s /tmp/o.fixed /tmp/o.s512 || echo "DIFFER $f"
  done; done
  echo "=== every file with GPU code over 40 MB, text KB s, csv KB s"
  for L in $( (ls /usr/local/cuda/lib64/lib*.so.* ; find $SP -name '*.so*' -size +40M) | sort -u); do
    for b in fixed s256 s512; do
      o=$B; [ $b = fixed ] || o=/tmp/$b/src/occcalc
      /usr/bin/time -f "%M %e" -o /tmp/m.txt $o --kernels $L >/tmp/o.txt 2>/tmp/e.txt
      [ -s /tmp/o.txt ] || continue
      t=$(tail -1 /tmp/m.txt)
      /usr/bin/time -f "%M %e" -o /tmp/m.txt $o --kernels $L -f csv >/dev/null 2>/tmp/e.txt
      echo "$b $L text $t csv $(tail -1 /tmp/m.txt)"
    done
  done
} > $OUT/memory.txt 2>&1
echo "memory $(( $(date +%s) - T0 )) s"
awk '/6 rounds/{f=1;next} /every file/{f=0} f && NF==6 {k=$1" "$2; if(!(k in mn)||$3<mn[k])mn[k]=$3; if($3>mx[k])mx[k]=$3} END{for(k in mn)print k, mn[k], mx[k]}' $OUT/memory.txt | sort
grep -c DIFFER $OUT/memory.txt
for b in fixed s256 s512; do echo "$b text-top $(awk -v b=$b '$1==b && $3=="text" && $2 !~ /libtorch_cuda/ {print $4}' $OUT/memory.txt | sort -n | tail -1) csv-top $(awk -v b=$b '$1==b && $3=="text" && $2 !~ /libtorch_cuda/ {print $7}' $OUT/memory.txt | sort -n | tail -1)"; done
for k in 256 512; do
  (cd /tmp/s$k && make -s bench-cuobjdump BASELINE=$B BENCH_LIBS="/usr/local/cuda/lib64 $SP/nvidia/nccl/lib $SP/nvidia/cudnn/lib" > $OUT/bench$k.txt 2>&1)
  echo "bench $k rc=$? $(( $(date +%s) - T0 )) s: $(tail -1 $OUT/bench$k.txt) $(grep -c DIFFER $OUT/bench$k.txt)"
done
