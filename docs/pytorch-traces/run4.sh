#!/bin/bash
# make check-gpu's checks this session changed, on the device machine:
# trace-ops (operators by NVTX), partition (cluster sizes refused in a
# part), achieved (against Nsight Compute, and theoretical figures equal
# to the run without --achieved), trace (launches against Nsight
# Compute). What they wrote under docs/ and t/fixtures comes back as
# run4-evidence.tar.gz.
set -u
T0=$(date +%s)
D=$PWD/.dev/deps; export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu
exec > >(tee $OUT/run4.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
git status --porcelain >/tmp/before 2>/dev/null
./configure -q CPPFLAGS=-I$D/usr/include LDFLAGS=-L$D/usr/lib/x86_64-linux-gnu >/dev/null && make -s -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
make -s -j16 t/gpu/clustercheck >/dev/null 2>&1
echo "built $(( $(date +%s) - T0 )) s"; touch /tmp/marker; sleep 1
for c in ${CHECKS:-trace-ops partition achieved trace}; do
  t=$(date +%s); timeout ${LIMIT:-200} make -s gpu-check-$c > $OUT/check-$c.txt 2>&1; r=$?
  echo "check $c: exit $r in $(( $(date +%s) - t )) s"; tail -12 $OUT/check-$c.txt
done
find docs t/fixtures -newer /tmp/marker -type f | tar czf $OUT/run4-evidence.tar.gz -T -
tar tzf $OUT/run4-evidence.tar.gz | head -40
echo "total $(( $(date +%s) - T0 )) s"
