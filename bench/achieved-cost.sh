#!/bin/sh
# achieved-cost.sh - make bench-achieved, on a machine with a GPU: the wall
# time of one PyTorch program (t/gpu/trace_program.py --scale fixture
# --steps STEPS) plain, under occcalc --trace, under occcalc --trace
# --achieved (its defaults: 10 kernels, 3 launches of each measured), and
# under Nsight Compute's Occupancy section (ncu --clock-control none
# --section Occupancy, which replays every launch), interleaved, ROUNDS
# rounds; the medians into OUT (markdown).
#   achieved-cost.sh OCCCALC OUT [ROUNDS] [STEPS]  (PYTHON3, NCU)
set -eu
occcalc=${1:?usage: achieved-cost.sh OCCCALC OUT [ROUNDS] [STEPS]}
out=${2:?usage: achieved-cost.sh OCCCALC OUT [ROUNDS] [STEPS]}
rounds=${3:-3}
steps=${4:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON3:-python3}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
w=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-cost.XXXXXX")
trap 'rm -rf "$w"' EXIT
prog="$py $here/t/gpu/trace_program.py --scale fixture --steps $steps"
ms() { "$py" -c 'import time; print(time.monotonic_ns() // 1000000)'; }
# shellcheck disable=SC2086
$prog >/dev/null
for r in $(seq "$rounds"); do
	for how in plain trace achieved ncu; do
		t0=$(ms)
		# shellcheck disable=SC2086
		case $how in
		plain) $prog >/dev/null ;;
		trace) "$occcalc" --trace --trace-out "$w/t.jsonl" -- $prog >/dev/null ;;
		achieved) "$occcalc" --trace --achieved --trace-out "$w/a.jsonl" -- $prog >/dev/null ;;
		ncu) "$ncu" --clock-control none --section Occupancy --log-file "$w/ncu.txt" $prog >/dev/null ;;
		esac
		echo "$how $(( $(ms) - t0 ))" >>"$w/times"
	done
done
launches=$(grep -c '"type":"launch"' "$w/a.jsonl")
measured=$(grep -c '"achieved_occupancy_pct"' "$w/a.jsonl")
"$py" - "$w/times" "$out" "$rounds" "$steps" "$launches" "$measured" <<'PY'
import statistics, subprocess, sys
times, out, rounds, steps, launches, measured = sys.argv[1:]
t = {}
for line in open(times):
    how, ms = line.split()
    t.setdefault(how, []).append(int(ms))
med = {k: statistics.median(v) for k, v in t.items()}
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                      "--format=csv,noheader", "-i", "0"],
                     capture_output=True, text=True).stdout.strip()
with open(out, "w") as f:
    f.write("| run | median wall time | runs (ms) | vs plain | vs --trace |\n"
            "| --- | ---: | --- | ---: | ---: |\n")
    names = {"plain": "plain", "trace": "`occcalc --trace`",
             "achieved": "`occcalc --trace --achieved` (10 kernels, 3 launches each)",
             "ncu": "`ncu --clock-control none --section Occupancy`"}
    for k in ("plain", "trace", "achieved", "ncu"):
        f.write("| %s | %.2f s | %s | %.2fx | %.2fx |\n" % (
            names[k], med[k] / 1000, ", ".join(map(str, t[k])),
            med[k] / med["plain"], med[k] / med["trace"]))
    f.write("\n%s; `trace_program.py --scale fixture --steps %s`: %s "
            "launches, %s measured by --achieved; %s rounds, interleaved "
            "(bench/achieved-cost.sh).\n" % (gpu, steps, launches, measured,
                                              rounds))
print(open(out).read())
PY
