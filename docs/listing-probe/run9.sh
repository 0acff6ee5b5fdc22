#!/bin/bash
# Issue 29 item 13: the read's arena given first fit, grown for an image
# larger than it, and a 56 MB budget (this tree), against the final main
# of the previous session (ae04492, in ../base: best fit, 72 MB). From
# this tree's root on the device machine, yajl unpacked in ../deps.
# Prints: libtorch_cuda.so's peak in 8 rounds of both builds, each format;
# the peaks of four inputs at 2, 4, 8 and 15 readers, both builds, two
# rounds; every file with GPU code at the default readers (this tree).
T0=$(date +%s)
D=$(cd ../deps && pwd); export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
for x in ../base .; do (cd $x && ./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null 2>&1 && make -s -j8 src/occcalc >/dev/null 2>&1 || echo "build $x failed") & done; wait
echo "built $(( $(date +%s) - T0 )) s"
N=$PWD/src/occcalc B=$(cd ../base && pwd)/src/occcalc
export OCCCALC_TABLES=$PWD/data/arch-tables
SP=$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')
TC=$SP/torch/lib/libtorch_cuda.so
peak() {   # peak LABEL OCCCALC ARGS...: "LABEL KB s", output compared
	l=$1 o=$2; shift 2
	/usr/bin/time -f "$l %M KB %e s" -o /tmp/m.txt $o "$@" >/tmp/o.$(basename $(dirname $(dirname $o))) 2>&1; tail -1 /tmp/m.txt
}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
  echo "=== libtorch_cuda.so, 8 rounds, default readers: build format KB s"
  for i in 1 2 3 4 5 6 7 8; do for f in text csv jsonl json; do
    peak "base $f" $B --kernels $TC -f $f; peak "new $f" $N --kernels $TC -f $f
    cmp -s /tmp/o.base /tmp/o.$(basename $PWD) || echo "DIFFER $f"
  done; done
  echo "=== readers: build jobs file KB s (text)"
  for i in 1 2; do for j in 2 4 8 15; do
    for L in $TC /usr/local/cuda/lib64/libcublasLt.so.13 $SP/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9 /usr/local/cuda/lib64; do
      peak "base $j $(basename $L)" $B --kernels $L --jobs $j; peak "new $j $(basename $L)" $N --kernels $L --jobs $j
      cmp -s /tmp/o.base /tmp/o.$(basename $PWD) || echo "DIFFER $j $L"
    done
  done; done
} > $OUT/memory.txt 2>&1
echo "memory $(( $(date +%s) - T0 )) s"
{ echo "=== every file with GPU code (toolkit lib64, every python package .so >= 2 MB), this tree: text KB s, csv KB s"
  for L in $( (ls /usr/local/cuda/lib64/lib*.so.* ; find $SP -name '*.so*' -size +2M) | sort -u); do
    /usr/bin/time -f "%M %e" -o /tmp/m.txt $N --kernels $L >/tmp/o.txt 2>/tmp/e.txt
    [ -s /tmp/o.txt ] || continue
    t=$(tail -1 /tmp/m.txt)
    /usr/bin/time -f "%M %e" -o /tmp/m.txt $N --kernels $L -f csv >/dev/null 2>/tmp/e.txt
    echo "$L text $t csv $(tail -1 /tmp/m.txt)"
  done
} > $OUT/every.txt 2>&1
echo "every $(( $(date +%s) - T0 )) s"
grep -A64 "8 rounds" $OUT/memory.txt | awk 'NF==6 && ($1=="base"||$1=="new"){k=$1" "$2; if(!(k in mn)||$3<mn[k])mn[k]=$3; if($3>mx[k])mx[k]=$3} END{for(k in mn)print k, mn[k], mx[k]}' | sort
grep -c DIFFER $OUT/memory.txt
echo text-top; awk '/every file/{f=1;next} f{print $3, $1}' $OUT/every.txt | sort -rn | head -3
echo csv-top; awk '/every file/{f=1;next} f{print $6, $1}' $OUT/every.txt | sort -rn | head -3
if [ "${BENCH:-1}" = 1 ]; then
make -s bench-cuobjdump BASELINE=$B BENCH_LIBS="/usr/local/cuda/lib64 $SP/nvidia/nccl/lib $SP/nvidia/cudnn/lib" > $OUT/bench.txt 2>&1
echo "bench rc=$? $(( $(date +%s) - T0 )) s"
tail -1 $OUT/bench.txt; grep -c DIFFER $OUT/bench.txt
fi
