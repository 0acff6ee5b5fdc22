#!/bin/bash
# Issue 29, item 12 verified: t/gpu.sh, and --kernels cuSPARSELt --api in a
# text table and in CSV, cold JIT cache, stderr on a terminal.
# bash docs/listing-probe/run4.sh (writes $OUT/probe4.txt)
exec > >(tee $OUT/probe4.txt) 2>&1
T0=$(date +%s)
Y=$PWD/yajl; [ -d $Y ] && export CPPFLAGS="-I$Y/usr/include" LDFLAGS="-L$Y/usr/lib/x86_64-linux-gnu -Wl,-rpath,$Y/usr/lib/x86_64-linux-gnu"
./configure -q >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
B=$PWD/src/occcalc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s check TESTS='t/gpu.sh' >/dev/null 2>&1; grep -E '^(ok|not ok)' t/gpu.log | tail -8
CL=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparselt/lib/libcusparseLt.so.0
W=/tmp/w; mkdir -p $W; cd $W
tty() { python3 -c 'import pty,sys; pty.spawn(["sh","-c",sys.argv[1]])' "$1" | tr '\r' '\n' > tty.txt; }
el() { echo "# elapsed $(( $(date +%s) - T0 )) s"; }
export CUDA_CACHE_PATH=/tmp/cache-text
tty "/usr/bin/time -f 'text --api, cold cache: %e s, %M KB, rc %x' timeout 100 $B --kernels $CL --api >text.out"
grep -c 'images loaded' tty.txt; grep 'images loaded' tty.txt | sed -n '1p;$p'; grep -v 'images loaded' tty.txt | grep . | tail -3
grep -E '^Kernels|agree|disagree' text.out | head -5
el
export CUDA_CACHE_PATH=/tmp/cache-csv
tty "/usr/bin/time -f 'csv --api, cold cache: %e s, %M KB, rc %x' timeout 150 $B --kernels $CL --api -f csv --fields arch,ptx_only,api_regs,api_blocks_per_sm,agrees >csv.out"
grep -c 'images loaded' tty.txt; grep 'images loaded' tty.txt | sed -n '1p;$p'; grep -v 'images loaded' tty.txt | grep . | tail -3
awk -F, 'NR>1{print $2, ($3==""?"no-api":"api"), $5}' csv.out | sort | uniq -c
el
