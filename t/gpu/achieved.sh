#!/bin/sh
# achieved.sh - make check-gpu's --achieved check, on a machine with a GPU:
# occcalc --trace --achieved against Nsight Compute's
# sm__warps_active.avg.pct_of_peak_sustained_active (kernel replay,
# --clock-control none) for the same launches of the same programs:
#   achieved_probe.cu  launches of known shape (a full wave, a partial last
#                      wave, one block, shared memory that limits it), on the
#                      runtime's and the driver's launch calls
#   trace_program.py   a PyTorch step: cuBLAS GEMMs, SDPA, cuDNN, Triton, a
#                      CUDA C++ cluster kernel
# every launch measured (--achieved=all,1000000), Nsight Compute run with its
# caches flushed before each launch (its default) and not (as the program
# ran). Writes DOCS/achieved-ncu.md and DOCS/achieved-ncu.csv, and the CI
# fixture's trace (--achieved's defaults) to FIXTURE.
#   achieved.sh DOCS FIXTURE   (OCCCALC, PYTHON3, NCU, NVCC from the environment)
set -eu
docs=${1:?usage: achieved.sh DOCS FIXTURE}
fixture=${2:?usage: achieved.sh DOCS FIXTURE}
here=$(cd "$(dirname "$0")" && pwd)
occcalc=${OCCCALC:-occcalc}
py=${PYTHON3:-python3}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
nvcc=${NVCC:-nvcc}
w=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-achieved.XXXXXX")
trap 'rm -rf "$w"' EXIT
metric=sm__warps_active.avg.pct_of_peak_sustained_active
export PYTHONUNBUFFERED=1

"$nvcc" -arch=native -o "$w/probe" "$here/achieved_probe.cu" -lcuda
prog="$py $here/trace_program.py --scale fixture"
$prog >/dev/null                 # builds trace_cluster.cu, fills Triton's cache

{ echo "# Achieved occupancy: occcalc --trace --achieved against Nsight Compute"
  echo
  echo "Made by \`make check-gpu GPU_CHECKS=achieved\` (t/gpu/achieved.sh) on"
  echo "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0),"
  echo "$("$ncu" --version | tail -1), $(date -u '+%F %H:%M UTC')."
  echo "Every launch measured (\`--achieved=all,1000000\`); Nsight Compute:"
  echo "\`ncu --clock-control none --metrics $metric\`"
  echo "(kernel replay), once with its default \`--cache-control all\` and once"
  echo "with \`--cache-control none\`. Per launch: achieved-ncu.csv (\`diff\`:"
  echo "to the closer of the two)."; } >"$w/md"

st=0
for t in probe python; do
	case $t in
	probe) cmd="$w/probe"; name="achieved_probe.cu (launches of known shape)" ;;
	python) cmd=$prog; name="trace_program.py (PyTorch: cuBLAS, SDPA, cuDNN, Triton, CUDA C++)" ;;
	esac
	# shellcheck disable=SC2086
	"$occcalc" --trace --achieved=all,1000000 --trace-out "$w/$t.jsonl" -- \
		$cmd >"$w/$t.txt"
	# shellcheck disable=SC2086
	"$ncu" --clock-control none --csv --metrics $metric \
		--log-file "$w/$t-ncu.csv" $cmd >/dev/null
	# shellcheck disable=SC2086
	"$ncu" --clock-control none --cache-control none --csv --metrics $metric \
		--log-file "$w/$t-ncu-nocache.csv" $cmd >/dev/null
	"$py" "$here/achieved_compare.py" "$name" "$w/$t.jsonl" "$w/$t-ncu.csv" \
		"$w/$t-ncu-nocache.csv" "$w/$t.csv" "$w/md" || st=1
	tail -1 "$w/$t.jsonl"
done
# The theoretical figures of the measured launches: those of the same
# launches traced without --achieved (the range profiler's record of a
# launch holds no carveout it ran with: docs/achieved.md), every one.
F=kernel,grid,block,cluster_dims,regs,static_smem,smem,blocks_per_sm,occupancy_pct,waves
# shellcheck disable=SC2086
"$occcalc" --trace --trace-out "$w/plain.jsonl" -- $prog >/dev/null
"$occcalc" --launches "$w/plain.jsonl"* -f csv --fields $F >"$w/plain-th.csv" 2>/dev/null
"$occcalc" --launches "$w/python.jsonl"* -f csv --fields $F >"$w/python-th.csv" 2>/dev/null
if "$py" - "$w/plain-th.csv" "$w/python-th.csv" >>"$w/md" <<'PY'
import collections, csv, sys
a = collections.Counter(tuple(r) for r in csv.reader(open(sys.argv[1])))
b = collections.Counter(tuple(r) for r in csv.reader(open(sys.argv[2])))
n = sum(b.values()) - 1
diff = sum(((a - b) + (b - a)).values())
print("\nTheoretical figures of the %d launches trace_program.py makes under "
      "--achieved=all against the same launches traced without it (blocks "
      "per SM, occupancy, waves, by configuration): %d differ." % (n, diff))
sys.exit(1 if diff else 0)
PY
then echo "achieved: theoretical figures equal to the run without --achieved"
else echo "achieved: theoretical figures DIFFER from the run without --achieved"; st=1
fi
cp "$w/md" "$docs/achieved-ncu.md"
{ head -1 "$w/probe.csv" | sed 's/^/program,/'
  tail -n +2 "$w/probe.csv" | sed 's/^/probe,/'
  tail -n +2 "$w/python.csv" | sed 's/^/python,/'; } >"$docs/achieved-ncu.csv"

# A CUDA graph captured and replayed: the program's result unchanged, the
# captured launches left alone, the side stream's launches before the
# capture measured.
"$occcalc" --trace --achieved=all,100 --trace-out "$w/graph.jsonl" -f csv \
	--fields stream,graph_id,achieved_occupancy_pct -- \
	"$py" "$here/achieved_graph.py" >"$w/graph.txt"
if [ "$(head -1 "$w/graph.txt")" = 3.0 ] &&
   ! grep -q '^[0-9]*,[1-9][0-9]*,[0-9]' "$w/graph.txt" &&
   [ "$(grep -c '^[0-9]*,0,[0-9]' "$w/graph.txt")" -ge 7 ]; then
	echo "achieved_graph: the graph's launches untouched, 3.0; the others measured"
else
	echo "achieved_graph: FAILED"; cat "$w/graph.txt"; st=1
fi

# Counters kept from this user: CUPTI's profiler refusing to start
# (achieved_noprivs.c, preloaded): the one line saying so and how to
# allow them, the trace written (its launches without figures), the
# program's exit status.
cc -shared -fPIC -I"${CUDA_DIR:-/usr/local/cuda}/include" \
	-o "$w/noprivs.so" "$here/achieved_noprivs.c"
set +e
LD_PRELOAD="$w/noprivs.so" "$occcalc" --trace --achieved \
	--trace-out "$w/noprivs.jsonl" -- sh -c "'$w/probe' 1000; exit 3" \
	>"$w/noprivs.txt" 2>"$w/noprivs.err"
s=$?
set -e
msg="occcalc trace: achieved occupancy not measured: the GPU's performance counters are restricted to administrators here (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); run as root, load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0, or give the container --cap-add SYS_ADMIN; the trace is still written"
if [ "$s" -eq 3 ] && [ "$(grep -c 'achieved occupancy not measured' "$w/noprivs.err")" -eq 1 ] &&
   grep -qxF "$msg" "$w/noprivs.err" &&
   [ "$(grep -c '"type":"launch"' "$w/noprivs.jsonl")" -eq 8 ] &&
   ! grep -q achieved_occupancy_pct "$w/noprivs.jsonl" &&
   grep -q '"achieved_measured":0,' "$w/noprivs.jsonl"; then
	echo "achieved_noprivs: the one line, 8 launches traced unmeasured, exit 3"
else
	echo "achieved_noprivs: FAILED (exit $s)"; cat "$w/noprivs.err"
	grep -v '"type":"launch"' "$w/noprivs.jsonl" || :; st=1
fi

# The CI fixture: --achieved's defaults on the PyTorch step.
# shellcheck disable=SC2086
"$occcalc" --trace --achieved --trace-out "$fixture" -- $prog >/dev/null
exit $st
