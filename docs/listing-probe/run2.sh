#!/bin/bash
# Issue 29, second look (items 9, 12, 13): where --api's time goes on
# cuSPARSELt, the driver's per-fatbin load times, malloc's peak on
# libtorch_cuda. bash docs/listing-probe/run2.sh (writes under $OUT).
exec > >(tee $OUT/probe2.txt) 2>&1
T0=$(date +%s)
P=$PWD/docs/listing-probe
Y=$PWD/yajl; [ -d $Y ] && export CPPFLAGS="-I$Y/usr/include" LDFLAGS="-L$Y/usr/lib/x86_64-linux-gnu -Wl,-rpath,$Y/usr/lib/x86_64-linux-gnu"
./configure -q >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
B=$PWD/src/occcalc
export PYTHONUNBUFFERED=1
SP=/opt/torch/.venv/lib/python3.12/site-packages
CL=$SP/nvidia/cusparselt/lib/libcusparseLt.so.0
TC=$SP/torch/lib/libtorch_cuda.so
W=/tmp/w; mkdir -p $W; cd $W
el() { echo "# elapsed $(( $(date +%s) - T0 )) s"; }
which gdb perf strace valgrind
cc -O2 -shared -fPIC $P/peak.c -o peak.so -ldl

echo "=== item 12: occcalc --api, sampled"
timeout 30 $B --kernels $CL --arch sm_90 --api -f csv --fields kernel,arch,api_regs >rows.csv 2>api.err &
pid=$!
for t in 3 8 15 25; do
  sleep $(( t - ${last:-0} )); last=$t
  echo "--- t=$t s rows $(wc -l <rows.csv) $(grep VmRSS /proc/$pid/status)"
  command -v gdb >/dev/null && [ $t != 25 ] && timeout 10 gdb -p $pid -batch -ex 'thread apply all bt 14' 2>/dev/null | grep -E '^#|^Thread' | head -40
done
wait $pid; echo "rc=$? rows $(wc -l <rows.csv)"; head -3 api.err
el
CUDA_CACHE_DISABLE=1 timeout 40 python3 $P/cuprobe.py $CL --limit 25 > probe_lt.txt 2>&1
head -30 probe_lt.txt; tail -3 probe_lt.txt
awk '$3==1{s+=$6;a+=$9;n++;f+=$8} $3==0&&$4>0{j+=$6;m++} END{print "sass fatbins",n,"load",s,"s functions",f,"attrs",a,"s; ptx fatbins",m,j" s"}' probe_lt.txt
cp probe_lt.txt $OUT/
CUDA_MODULE_LOADING=EAGER CUDA_CACHE_DISABLE=1 timeout 25 python3 $P/cuprobe.py $CL --limit 15 > probe_lt_eager.txt 2>&1
head -12 probe_lt_eager.txt; tail -2 probe_lt_eager.txt; cp probe_lt_eager.txt $OUT/
el

echo "=== item 9: a relocatable cubin loaded eagerly"
nvcc -arch=sm_90 -rdc=true -cubin -o k_rdc.cubin $P/k.cu
nvcc -arch=sm_90 -rdc=true -fatbin -o k_rdc.fatbin $P/k.cu
for f in k_rdc.cubin k_rdc.fatbin; do
  echo _Z13selfcontainedPfi > n1
  CUDA_MODULE_LOADING=EAGER python3 $P/cuprobe.py $f --names n1 2>&1
  CUDA_MODULE_LOADING=LAZY python3 $P/cuprobe.py $f --names n1 2>&1
done
el

echo "=== item 13: malloc's peak"
for a in "" "--kernel ^zzz_none$" "--jobs 1" "-f csv --fields mangled,regs"; do
  LD_PRELOAD=$W/peak.so /usr/bin/time -f "%M KB %e s [$a]" $B --kernels $TC $a >/dev/null 2>e.txt; grep -v 'peak malloc 0 KB' e.txt | tail -2
done
for L in $SP/nvidia/cu13/lib/libcusparse.so.12 /usr/local/cuda/lib64/libcublasLt.so.13; do
  LD_PRELOAD=$W/peak.so /usr/bin/time -f "%M KB %e s [$L]" $B --kernels $L >/dev/null 2>e.txt; grep -v 'peak malloc 0 KB' e.txt | tail -2
done
$B --kernels $TC -f csv --fields mangled 2>/dev/null | awk 'NR>1{n++; s+=length($0); u[$0]=1} END{print n" rows, mangled bytes "s", unique "length(u)}'
el
