#!/bin/bash
# Issue 29, items 12 and 13, with the fixes: --api on cuSPARSELt with
# images loaded ahead on threads (progress read from a terminal), and the
# peak memory of every library. bash docs/listing-probe/run3.sh
exec > >(tee $OUT/probe3.txt) 2>&1
T0=$(date +%s)
P=$PWD/docs/listing-probe
Y=$PWD/yajl; [ -d $Y ] && export CPPFLAGS="-I$Y/usr/include" LDFLAGS="-L$Y/usr/lib/x86_64-linux-gnu -Wl,-rpath,$Y/usr/lib/x86_64-linux-gnu"
./configure -q >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
B=$PWD/src/occcalc
git log --oneline -1 2>/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SP=/opt/torch/.venv/lib/python3.12/site-packages
CL=$SP/nvidia/cusparselt/lib/libcusparseLt.so.0
TC=$SP/torch/lib/libtorch_cuda.so
W=/tmp/w; mkdir -p $W; cd $W
el() { echo "# elapsed $(( $(date +%s) - T0 )) s"; }
# tty CMD: CMD with stderr on a terminal (a pty), what it showed there.
tty() { python3 -c 'import pty,sys; pty.spawn(["sh","-c",sys.argv[1]])' "$1" | tr '\r' '\n' > tty.txt; }

echo "=== item 12: cuSPARSELt --api"
$B --kernels $CL -f csv --fields arch,ptx_only,image 2>/dev/null | sort | uniq -c | sort -rn | head -4
export CUDA_CACHE_PATH=/tmp/cache-j1
tty "timeout 25 $B --kernels $CL --api --jobs 1 -f csv >rows1.csv"
echo "--jobs 1, 25 s: $(grep -c . rows1.csv) rows; last progress: $(grep 'images loaded' tty.txt | tail -1)"
export CUDA_CACHE_PATH=/tmp/cache-j16
tty "/usr/bin/time -f 'api default jobs, cold cache: %e s, %M KB, rc %x' timeout 240 $B --kernels $CL --api -f csv >rows16.csv"
grep -c 'images loaded' tty.txt; grep 'images loaded' tty.txt | sed -n '1p;$p'; grep -v 'images loaded' tty.txt | grep . | tail -4
echo "rows: $(grep -c . rows16.csv); agrees: $(awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="agrees") c=i; next} {print $c}' rows16.csv | sort | uniq -c | tr '\n' ' ')"
/usr/bin/time -f 'api default jobs, warm cache: %e s, %M KB' timeout 60 $B --kernels $CL --api -f csv >/dev/null 2>w.err; tail -2 w.err
/usr/bin/time -f 'api --arch sm_90 (SASS only): %e s, %M KB' timeout 60 $B --kernels $CL --arch sm_90 --api -f csv >/dev/null 2>w.err; tail -2 w.err
unset CUDA_CACHE_PATH
el

echo "=== item 13: peak memory, default jobs, every library"
for L in /usr/local/cuda/lib64/lib*.so.* $(find $SP -name '*.so*' -size +2M 2>/dev/null); do
  /usr/bin/time -f "%M KB %e s" -o m.txt timeout 60 $B --kernels $L >/dev/null 2>e.txt; rc=$?
  [ $rc -le 1 ] && grep -q . m.txt && echo "$(tail -1 m.txt) rc=$rc $L"
done | sort -n -r > mem.txt; head -12 mem.txt; wc -l < mem.txt; cp mem.txt $OUT/mem3.txt
for i in 1 2 3; do
  /usr/bin/time -f "libtorch_cuda %M KB %e s" $B --kernels $TC >/dev/null 2>e.txt; tail -1 e.txt
  /usr/bin/time -f "cublasLt %M KB %e s" $B --kernels /usr/local/cuda/lib64/libcublasLt.so.13 >/dev/null 2>e.txt; tail -1 e.txt
  /usr/bin/time -f "cudnn_precompiled %M KB %e s" $B --kernels $SP/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9 >/dev/null 2>e.txt; tail -1 e.txt
done
el
