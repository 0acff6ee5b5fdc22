#!/bin/sh
# trace_ops.sh - make check-gpu's check of the launches' operators under
# --trace: trace_program.py's steps under emit_nvtx (an NVTX range per
# PyTorch operator) traced with --trace and with --trace --trace-calls,
# against torch.profiler's Chrome trace of the same steps, each kernel's
# cpu_op by its External id. Per kernel name, the operators of its
# launches (as multisets) must agree on at least 95 % of the launches
# in both modes; the table goes to DOCS/trace-ops.md.
#   trace_ops.sh DOCS   (OCCCALC, PYTHON3 from the environment)
set -eu
docs=${1:?usage: trace_ops.sh DOCS}
here=$(cd "$(dirname "$0")" && pwd)
occcalc=${OCCCALC:-occcalc}
py=${PYTHON3:-python3}
w=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-ops.XXXXXX")
trap 'rm -rf "$w"' EXIT
prog="$py $here/trace_program.py --scale fixture --warmup 2 --steps 3"
$prog >/dev/null                 # builds trace_cluster.cu, fills Triton's cache
# shellcheck disable=SC2086
"$occcalc" --trace -f csv --fields kernel,op -- $prog --nvtx >"$w/activity.csv"
# shellcheck disable=SC2086
"$occcalc" --trace --trace-calls -f csv --fields kernel,op -- $prog --nvtx >"$w/calls.csv"
# shellcheck disable=SC2086
$prog --kineto "$w/k.json"   # the profiler and emit_nvtx do not go together
"$occcalc" --launches "$w/k.json" -f csv --fields kernel,op >"$w/kineto.csv"
"$py" - "$w" "$docs/trace-ops.md" <<'PY'
import collections, csv, subprocess, sys
w, out = sys.argv[1], sys.argv[2]
def ops(name):
    by = collections.defaultdict(collections.Counter)
    for r in csv.DictReader(open("%s/%s.csv" % (w, name))):
        by[r["kernel"]][r["op"] or "(none)"] += 1
    return by
k = ops("kineto")
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                      "--format=csv,noheader", "-i", "0"],
                     stdout=subprocess.PIPE, text=True).stdout.strip()
lines = ["# --trace's operators against torch.profiler's", "",
         "Made by `make check-gpu GPU_CHECKS=trace-ops` (t/gpu/trace_ops.sh) "
         "on %s: t/gpu/trace_program.py's 3 timed steps under emit_nvtx; "
         "each kernel's operator from the NVTX range its launch was made in "
         "(--trace, --trace --trace-calls) and from its cpu_op by External id "
         "(torch.profiler of the same steps, a separate run)." % gpu, "",
         "| mode | launches in the steps (Kineto) | with the same operator | share |",
         "| --- | ---: | ---: | ---: |"]
ok = True
for mode in ("activity", "calls"):
    t = ops(mode)
    total = sum(sum(c.values()) for c in k.values())
    same = 0
    for kern, want in k.items():
        got = t.get(kern, collections.Counter())
        same += sum(min(n, got[op]) for op, n in want.items())
    share = same / total if total else 0
    ok &= share >= 0.95
    lines.append("| %s | %d | %d | %.1f %% |" % (mode, total, same, 100 * share))
lines.append("")
lines.append("The traces hold the warm-up launches too (no range: op absent); "
             "the profiler's, the timed steps alone.")
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(0 if ok else 1)
PY
