#!/bin/sh
# trace_fixtures.sh - makes the trace fixtures of t/fixtures/traces/ on a
# machine with a GPU (README there): trace_program.py run three times,
# launching the same kernels in the same order each time,
#   under occcalc --trace              -> occcalc-trace.jsonl
#   under torch.profiler (Kineto)      -> kineto.json.gz
#   under Nsight Compute               -> ncu-log.csv.gz (its log) and
#                                         ncu.csv (a row per launch)
# and the device it ran on -> device.txt.
#   trace_fixtures.sh OUTDIR   (OCCCALC, PYTHON3, NCU from the environment)
set -eu
out=${1:?usage: trace_fixtures.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
occcalc=${OCCCALC:-occcalc}
py=${PYTHON3:-python3}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
prog="$here/trace_program.py"
mkdir -p "$out"
export PYTHONUNBUFFERED=1
# A first run builds trace_cluster.cu and fills Triton's cache, so that
# the runs below compile nothing.
"$py" "$prog" --scale fixture
rm -f "$out/occcalc-trace.jsonl"
"$occcalc" --trace --trace-out "$out/occcalc-trace.jsonl" -- \
	"$py" "$prog" --scale fixture >/dev/null
"$py" "$prog" --scale fixture --kineto "$out/kineto.json.gz"
# LaunchStats and Occupancy by metric name, and the cluster figures.
"$ncu" --clock-control none --csv --print-metric-name name \
	--section LaunchStats --section Occupancy \
	--metrics launch__cluster_max_active,launch__cluster_max_potential_size,launch__cluster_size \
	--log-file "$out/ncu-log.csv" "$py" "$prog" --scale fixture
"$py" "$here/ncu_compact.py" "$out/ncu-log.csv" "$out/ncu.csv"
gzip -9f "$out/ncu-log.csv"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0
  "$ncu" --version | tail -1
  "$py" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  date -u '+%F %H:%M UTC'; } >"$out/device.txt"
