#!/bin/bash
# make check-gpu on the device machine, for issue 38, once the library
# had taken --kernels' reading and rows, --check, --compare, the launch
# summary, sweeps and --partition: python (import occcalc with Triton and
# PyTorch: kernels() of a Triton cache, launch_summary() of a profiled
# step), suite (t/gpu.sh), validate, cluster, kernels-api, partition and
# triton (--kernels of Triton caches against the driver). What they wrote under docs/ comes back as
# run6-evidence.tar.gz.
set -u
T0=$(date +%s)
D=$PWD/.dev/deps; export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
exec > >(tee $OUT/run6.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
git status --porcelain >/tmp/before 2>/dev/null
./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
make -s -j16 t/gpu/clustercheck >/dev/null 2>&1
echo "built $(( $(date +%s) - T0 )) s"; touch /tmp/marker; sleep 1
for c in ${CHECKS:-python suite validate cluster kernels-api partition}; do
  t=$(date +%s); timeout $( [ $c = suite ] && echo 330 || echo ${LIMIT:-200}) make -s gpu-check-$c > $OUT/check-$c.txt 2>&1; r=$?
  echo "check $c: exit $r in $(( $(date +%s) - t )) s"; tail -12 $OUT/check-$c.txt
done
find docs t/fixtures -newer /tmp/marker -type f | tar czf $OUT/run6-evidence.tar.gz -T -
tar tzf $OUT/run6-evidence.tar.gz | head -40
echo "total $(( $(date +%s) - T0 )) s"
