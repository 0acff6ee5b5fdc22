#!/bin/bash
# Issue 29 item 13: peak memory of --kernels on every library of the
# device machine, before (BASE: a built-or-not copy of main before the
# change) and after (this tree), text and CSV, and the rows-waiting bound
# (READ_WAITING_MB) at 64, 16 and 8 MB. From this tree's root, yajl
# unpacked in $D: BASE=../base D=../deps bash docs/listing-probe/run5.sh
T0=$(date +%s)
D=$(cd ${D:-../deps} && pwd); BASE=$(cd ${BASE:-../base} && pwd)
export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
W=/tmp/run5; rm -rf $W; mkdir -p $W
build() { # dir [cppflags]
  (cd $1 && ./configure -q CPPFLAGS="-I$D/usr/include $2" LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j4 src/occcalc >/dev/null 2>&1) || echo "build of $1 failed"
}
for w in 16 8; do rm -rf $W/w$w; mkdir -p $W/w$w; cp -r . $W/w$w/; done
build $BASE & build . & build $W/w16 -DREAD_WAITING_MB=16 & build $W/w8 -DREAD_WAITING_MB=8 & wait
declare -A B=([base]=$BASE/src/occcalc [new]=$PWD/src/occcalc [w16]=$W/w16/src/occcalc [w8]=$W/w8/src/occcalc)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
SP=${SP:-$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')}
TC=$SP/torch/lib/libtorch_cuda.so
cd $W
echo "=== libtorch_cuda.so, 3 runs each: peak KB, seconds"
for i in 1 2 3; do for v in base new w16 w8; do for f in text csv; do
  /usr/bin/time -f "$v $f %M KB %e s" -o m.txt ${B[$v]} --kernels $TC -f $f >/dev/null 2>e.txt; cat m.txt
done; done; done
for f in text csv json; do ${B[base]} --kernels $TC -f $f > b.$f 2>&1; ${B[new]} --kernels $TC -f $f > n.$f 2>&1
  cmp -s b.$f n.$f && echo "libtorch_cuda -f $f: same bytes ($(wc -c < n.$f))" || echo "libtorch_cuda -f $f: DIFFER"; done
echo "# elapsed $(( $(date +%s) - T0 )) s"
# Every file read before (run3.sh): the toolkit's and every Python package's shared object of 2 MB or more.
LIBS=$( (ls /usr/local/cuda/lib64/lib*.so.* ; find $SP -name '*.so*' -size +2M) | sort -u)
# A row per file with GPU code: variant-format peak_KB/seconds.
for L in $LIBS; do
  row="$L"
  for v in base new w8; do for f in text csv; do
    case $L in /usr/local/cuda/*|*/torch/lib/*) ;; *) [ $f = csv ] && continue ;; esac
    /usr/bin/time -f "%M %e" -o m.txt ${B[$v]} --kernels $L -f $f >o.txt 2>e.txt
    [ -s o.txt ] || continue 3          # no kernel to read
    row="$row $v-$f $(tail -1 m.txt | tr ' ' '/')"
  done; done
  echo "$row"
done > all.txt
sort -t' ' -k1,1 all.txt > $OUT/run5-all.txt; wc -l < all.txt
echo "# elapsed $(( $(date +%s) - T0 )) s"
