#!/bin/sh
# achieved_pmsample.sh - the measurements of the PM sampling evaluation
# (docs/achieved-pmsampling.md), on a machine with a GPU: the prototype
# achieved_pmsample.cu sampling its own launches at each interval, and
# the same launches (--no-sample) under Nsight Compute and under
# occcalc --trace --achieved; t/gpu/achieved_pmsample.py makes the table.
#   achieved_pmsample.sh OUTDIR [INTERVAL_NS ...]
#   (OCCCALC, NVCC, NCU, CUDA_DIR from the environment)
# OUTDIR gets pm-INTERVAL.txt (the prototype's output), pm-INTERVAL-
# samples.csv (every sample), gap5000.txt and traced.txt (with their
# samples; traced.jsonl: the trace), ncu.csv, occcalc.jsonl and
# metrics.txt (the metrics Nsight Compute lists as PM-sampling-capable
# on the chip).
set -eu
out=${1:?usage: achieved_pmsample.sh OUTDIR [INTERVAL_NS ...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
occcalc=${OCCCALC:-occcalc}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
nvcc=${NVCC:-nvcc}
cuda=${CUDA_DIR:-/usr/local/cuda}
metric=sm__warps_active.avg.pct_of_peak_sustained_active
mkdir -p "$out"

"$nvcc" -arch=native -o "$out/pms" "$here/achieved_pmsample.cu" \
	-I"$cuda/extras/CUPTI/include" -L"$cuda/extras/CUPTI/lib64" \
	-L"$cuda/lib64" -Xlinker -rpath -Xlinker "$cuda/extras/CUPTI/lib64" \
	-Xlinker -rpath -Xlinker "$cuda/lib64" -lcupti -lcuda
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0
  "$ncu" --version | tail -1; date -u '+%F %H:%M UTC'; } >"$out/machine.txt"
"$ncu" --query-metrics-collection pmsampling --chip gh100 >"$out/metrics.txt" 2>&1 || :
[ $# -gt 0 ] || set -- 10000 100000
for i in "$@"; do
	PMSAMPLE_SAMPLES="$out/pm-$i-samples.csv" timeout 120 \
		"$out/pms" --interval "$i" >"$out/pm-$i.txt" 2>&1 ||
		echo "achieved_pmsample: interval $i: exit $?"
	grep '^#' "$out/pm-$i.txt" || :
done
# The clocks: gaps of 5 ms instead of 2 (does the samples' offset from
# the kernels' global timer follow the gap?), and the sampler inside a
# program traced by occcalc --trace (CUPTI's activity records beside
# it: the launches' start_ns against the samples' timestamps).
PMSAMPLE_SAMPLES="$out/gap5000-samples.csv" timeout 60 "$out/pms" \
	--interval 10000 --gap-us 5000 >"$out/gap5000.txt" 2>&1 ||
	echo "achieved_pmsample: gaps of 5 ms: exit $?"
PMSAMPLE_SAMPLES="$out/traced-samples.csv" timeout 60 "$occcalc" --trace \
	--trace-out "$out/traced.jsonl" -- "$out/pms" --interval 10000 \
	>"$out/traced.txt" 2>&1 || echo "achieved_pmsample: traced: exit $?"
grep '^#' "$out/gap5000.txt" "$out/traced.txt" || :
"$ncu" --clock-control none --cache-control none --csv --metrics $metric \
	--log-file "$out/ncu.csv" "$out/pms" --no-sample >/dev/null
"$occcalc" --trace --achieved=all,1000000 --trace-out "$out/occcalc.jsonl" \
	-- "$out/pms" --no-sample >/dev/null
rm -f "$out/pms"
