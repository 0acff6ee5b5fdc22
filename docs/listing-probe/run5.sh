#!/bin/bash
# Issue 29 item 13: peak memory of --kernels on every library of the
# device machine, before (BASE: a copy of main before the change) and
# after (this tree), text and CSV, with the bound on rows waiting
# (READ_WAITING_MB) at 64 (then the default), 16, 8 and 4 MB. From this
# tree's root, yajl unpacked in $D:
#   BASE=../base D=../deps bash docs/listing-probe/run5.sh
T0=$(date +%s)
D=$(cd ${D:-../deps} && pwd); BASE=$(cd ${BASE:-../base} && pwd)
export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
W=/tmp/run5; rm -rf $W; mkdir -p $W
build() { # dir [cppflags]
  (cd $1 && ./configure -q CPPFLAGS="-I$D/usr/include $2" LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j3 src/occcalc >/dev/null 2>&1) || echo "build of $1 failed"
}
for w in 16 8 4; do mkdir -p $W/w$w; cp -r . $W/w$w/; done
build $BASE & build . &
for w in 16 8 4; do build $W/w$w -DREAD_WAITING_MB=$w & done; wait
declare -A B=([base]=$BASE/src/occcalc [w64]=$PWD/src/occcalc)
for w in 16 8 4; do B[w$w]=$W/w$w/src/occcalc; done
git log --oneline -1 2>/dev/null; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
SP=${SP:-$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')}
TC=$SP/torch/lib/libtorch_cuda.so
CUDNN=$SP/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9
cd $W
echo "=== libtorch_cuda.so, 3 rounds: variant format peak seconds"
for i in 1 2 3; do for v in base w64 w16 w8 w4; do for f in text csv; do
  /usr/bin/time -f "$v $f %M KB %e s" -o m.txt ${B[$v]} --kernels $TC -f $f >/dev/null 2>e.txt; tail -1 m.txt
done; done; done
for f in text csv json; do ${B[base]} --kernels $TC -f $f > b.$f 2>&1; ${B[w64]} --kernels $TC -f $f > n.$f 2>&1
  cmp -s b.$f n.$f && echo "libtorch_cuda -f $f: same bytes ($(wc -c < n.$f))" || echo "libtorch_cuda -f $f: DIFFER"; done
echo "=== the slowest others, 3 rounds, text"
for i in 1 2 3; do for L in $CUDNN /usr/local/cuda/lib64/libcublasLt.so.13 /usr/local/cuda/lib64/libcusparse.so.12; do
  for v in w64 w8 w4; do /usr/bin/time -f "$v %M KB %e s $(basename $L)" -o m.txt ${B[$v]} --kernels $L >/dev/null 2>e.txt; tail -1 m.txt; done
done; done
echo "# elapsed $(( $(date +%s) - T0 )) s"
# Every file read before (run3.sh): the toolkit's and every Python
# package's shared object of 2 MB or more; a row per file with GPU code:
# variant-format peak_KB/seconds (CSV for the toolkit's and torch/lib's).
LIBS=$( (ls /usr/local/cuda/lib64/lib*.so.* ; find $SP -name '*.so*' -size +2M) | sort -u)
for L in $LIBS; do
  row="$L"
  for v in base w64 w8 w4; do for f in text csv; do
    case $L in /usr/local/cuda/*|*/torch/lib/*) ;; *) [ $f = csv ] && continue ;; esac
    /usr/bin/time -f "%M %e" -o m.txt ${B[$v]} --kernels $L -f $f >o.txt 2>e.txt
    [ -s o.txt ] || continue 3          # no kernel to read
    row="$row $v-$f $(tail -1 m.txt | tr ' ' '/')"
  done; done
  echo "$row" >> $OUT/run5-all.txt
done
wc -l < $OUT/run5-all.txt
echo "# elapsed $(( $(date +%s) - T0 )) s"
