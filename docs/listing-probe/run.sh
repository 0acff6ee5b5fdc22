#!/bin/bash
# Issue 29, items 9, 12, 13, on the GPU machine. Run from the tree's root:
#   bash docs/listing-probe/run.sh   (writes under $OUT)
# Everything it printed is in $OUT/probe.txt, committed as
# docs/listing-probe-h100.txt.
exec > >(tee $OUT/probe.txt) 2>&1
T0=$(date +%s)
P=$PWD/docs/listing-probe
Y=$PWD/yajl; [ -d $Y ] && export CPPFLAGS="-I$Y/usr/include" LDFLAGS="-L$Y/usr/lib/x86_64-linux-gnu -Wl,-rpath,$Y/usr/lib/x86_64-linux-gnu"
./configure -q >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
B=$PWD/src/occcalc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
SP=$(python3 -c 'import torch,os;print(os.path.dirname(os.path.dirname(torch.__file__)))')
echo "site-packages: $SP"
W=/tmp/w; mkdir -p $W; cd $W
el() { echo "# elapsed $(( $(date +%s) - T0 )) s"; }

echo "=== item 9: relocatable code and the driver"
nvcc -arch=sm_90 -rdc=true -cubin -o k_rdc.cubin $P/k.cu
nvcc -arch=sm_90 -rdc=true -fatbin -o k_rdc.fatbin $P/k.cu
nvcc -arch=sm_90 -cubin -o k.cubin $P/k.cu
nvcc -arch=sm_90 -rdc=true -cubin -o ext_rdc.cubin $P/ext.cu
nvcc -arch=sm_90 -rdc=true -fatbin -o ext_rdc.fatbin $P/ext.cu
for f in k.cubin k_rdc.cubin k_rdc.fatbin ext_rdc.cubin ext_rdc.fatbin; do
  echo "--- $f"; readelf -h $f 2>/dev/null | grep Type
  $B --kernels $f -f csv --fields mangled,arch,relocatable,regs,static_smem,stack 2>&1
  python3 $P/cuprobe.py $f 2>&1
  echo selfcontained >n1; echo _Z13selfcontainedPfi >>n1; echo _Z14calls_externalPfi >>n1
  python3 $P/cuprobe.py $f --names n1 2>&1 | tail -4
done
for L in /usr/local/cuda/lib64/lib*.so.* $(find $SP -name 'lib*.so*' -size +2M 2>/dev/null); do
  $B --kernels $L --all-images -f csv --fields mangled,arch,relocatable 2>/dev/null |
  awk -F, -v f=$L 'NR>1{k=$1","$2; if($3=="true") r[k]=1; else l[k]=1} END{for(k in r){split(k,a,","); if(!(k in l)) ro[a[2]]++; else du[a[2]]++} for(x in ro) print f, "rdc-only", x, ro[x]; for(x in du) print f, "rdc-dup", x, du[x]}'
done
el

echo "=== item 12: --api on cuSPARSELt"
CL=$(find $SP /usr -name 'libcusparseLt.so*' 2>/dev/null | head -1); echo "cusparseLt: $CL"; ls -la $CL
$B --kernels $CL -f csv --fields arch,ptx_only 2>&1 | sort | uniq -c | sort -rn | head
export CUDA_CACHE_PATH=/tmp/jitcache1
/usr/bin/time -f 'api --arch sm_90 only: %e s %M KB' timeout 45 $B --kernels $CL --arch sm_90 --api -f csv >/dev/null 2>api1.err; tail -3 api1.err
CUDA_CACHE_DISABLE=1 timeout 60 python3 $P/cuprobe.py $CL --limit 45 > probe_lt.txt 2>&1; grep -v '^[0-9]' probe_lt.txt | tail -5
sort -k6 -g -r probe_lt.txt | head -8; awk '$3==1{s+=$6;n++} $3==0&&$4>0{j+=$6;m++} END{print "sass fatbins",n,s" s; ptx fatbins",m,j" s"}' probe_lt.txt
cp probe_lt.txt $OUT/
CUDA_MODULE_LOADING=EAGER CUDA_CACHE_DISABLE=1 timeout 30 python3 $P/cuprobe.py $CL --limit 20 2>&1 | grep '^#'
/usr/bin/time -f 'api whole, cold cache: %e s %M KB' timeout 45 $B --kernels $CL --api -f csv >/dev/null 2>api2.err; rc=$?; tail -3 api2.err
[ $rc = 0 ] && /usr/bin/time -f 'api whole, warm cache: %e s %M KB' timeout 45 $B --kernels $CL --api -f csv >/dev/null 2>api3.err; tail -3 api3.err
unset CUDA_CACHE_PATH
el

echo "=== item 13: peak memory, default jobs"
for L in /usr/local/cuda/lib64/lib*.so.* $(find $SP -name '*.so*' -size +2M 2>/dev/null); do
  /usr/bin/time -f "%M KB %e s" -o m.txt timeout 60 $B --kernels $L >/dev/null 2>e.txt; rc=$?
  [ $rc -le 1 ] && grep -q . m.txt && echo "$(tail -1 m.txt) rc=$rc $L"
done | sort -n -r > mem.txt; head -25 mem.txt; cp mem.txt $OUT/
el
TC=$(find $SP -name 'libtorch_cuda.so' | head -1); echo "libtorch_cuda: $TC"; ls -la $TC
$B --kernels $TC -f csv --fields arch 2>/dev/null | wc -l
$B --kernels $TC --all-images -f csv --fields arch 2>/dev/null | wc -l
python3 -c "
import sys,collections
exec(open('$P/cuprobe.py').read().replace(\"cu = C.CDLL('libcuda.so.1')\",'cu=None').replace('\nmain()\n','\n'))
fb=fatbins(open('$TC','rb').read()); e=[x for o,es in fb for x in es]
print('fatbins',len(fb),'entries',len(e),'usize top',sorted((x[5] for x in e),reverse=True)[:12])
print('stored>=16MB',sum(x[5]>=16<<20 for x in e),'>=56MB',sum(x[5]>=56<<20 for x in e))
"
for a in "" "--jobs 1" "--jobs 4" "--jobs 8" "--kernel ^zzz_none$" "-f csv --fields mangled,regs" "-f csv"; do
  /usr/bin/time -f "%M KB %e s  [$a]" timeout 60 $B --kernels $TC $a >/dev/null 2>e.txt; tail -1 e.txt
done
MALLOC_ARENA_MAX=2 /usr/bin/time -f "%M KB %e s  [MALLOC_ARENA_MAX=2]" $B --kernels $TC >/dev/null 2>e.txt; tail -1 e.txt
cd $P/../.. && cp -a . /tmp/b48 && cd /tmp/b48 && touch src/lib/sched.c && make -s -j16 CFLAGS='-g -O2 -DREAD_BUDGET_MB=40' >/dev/null 2>&1 &&
/usr/bin/time -f "%M KB %e s  [READ_BUDGET_MB=40]" /tmp/b48/src/occcalc --kernels $TC >/dev/null 2>$W/e.txt; tail -1 $W/e.txt
el
