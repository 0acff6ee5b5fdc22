#!/bin/sh
# launches-ncu.sh - every launch of the real traces in t/fixtures/traces
# (one PyTorch program on an H100: occcalc's trace and Kineto's, README
# there) computed by --launches equals Nsight Compute's figures for the
# same launch (ncu.csv, a row per launch in launch order): the blocks each
# resource allows, the theoretical occupancy, the waves, and the clusters
# the GPU holds at once.
. "$T/lib.sh"

F=$T/fixtures/traces
[ -f "$F/ncu.csv" ] || skip_all "no real traces in $F"
command -v python3 >/dev/null 2>&1 ||
	skip_all "python3 is not installed (./bootstrap installs it)"

fields=start_ns,grid,block,limit_warps,limit_registers,limit_shared_memory,limit_blocks,limit_barriers,blocks_per_sm,occupancy_pct,waves_per_multiprocessor,cluster_size,max_active_clusters

# compare TRACE_CSV FORMAT: one line per figure, "ok|not ok FIGURE N MISMATCHES",
# then the first mismatches as '# ' lines. The trace's launches in
# start_ns order are ncu's in its order; Kineto's are its last ones (the
# profiled step).
compare() {
	python3 - "$1" "$F/ncu.csv" "$2" <<'PY'
import csv, sys
kineto = sys.argv[3] == "kineto"
mine = sorted(csv.DictReader(open(sys.argv[1])), key=lambda r: int(r["start_ns"]))
ncu = list(csv.DictReader(open(sys.argv[2])))
ncu = ncu[len(ncu) - len(mine):] if len(mine) <= len(ncu) else ncu
def dims(s):
    return " ".join(s.strip("()").replace(",", " ").split())
def num(s):
    return float(s) if s != "" else None
pairs = [
    ("limit_warps", "launch__occupancy_limit_warps"),
    ("limit_registers", "launch__occupancy_limit_registers"),
    ("limit_shared_memory", "launch__occupancy_limit_shared_mem"),
    ("limit_blocks", "launch__occupancy_limit_blocks"),
    ("occupancy_pct", "sm__maximum_warps_per_active_cycle_pct"),
    ("waves_per_multiprocessor", "launch__waves_per_multiprocessor"),
    ("max_active_clusters", "launch__cluster_max_active"),
]
print("launches %d %d" % (len(mine), len(ncu)))
same = sum(m["grid"] == dims(n["grid"]) and m["block"] == dims(n["block"])
           for m, n in zip(mine, ncu))
print("shapes %d %d" % (same, len(mine)))
# Kineto records no carveout and no cluster: the shared memory is
# modelled at the largest carveout, which allows at least the blocks of
# the one the driver chose, and no cluster figure is computed.
if kineto:
    pairs = [p for p in pairs if p[0] != "max_active_clusters"]
for a, b in pairs:
    bad = []
    for i, (m, n) in enumerate(zip(mine, ncu)):
        x, y = num(m[a]), num(n[b])
        if kineto and a == "limit_shared_memory" and x is not None and \
           y is not None and x >= y:
            continue
        # Launches without clusters: no cluster figure, ncu's 0.
        if a == "max_active_clusters" and x is None and m["cluster_size"] == "1":
            x = 0.0
        if x is None or y is None or abs(x - y) > 0.005:
            bad.append("launch %s: %s %s, ncu %s" % (n["id"], a, m[a], n[b]))
    print("figure %s %d %d" % (a, len(bad), len(mine)))
    for line in bad[:5]:
        print("# " + line)
# The barriers a kernel's code uses (named barriers) are in no trace:
# occcalc counts one, so its limit may lie above ncu's, which never
# limits these launches.
bad = [n["id"] for m, n in zip(mine, ncu)
       if float(n["launch__occupancy_limit_barriers"]) < float(m["blocks_per_sm"])
       or (min(float(m["limit_barriers"]), float(m["limit_blocks"])) !=
           float(n["launch__occupancy_limit_barriers"]) and
           float(n["launch__occupancy_limit_barriers"]) >= 32)]
print("barriers %d %d" % (len(bad), len(mine)))
PY
}

check_trace() {
	name=$1 file=$2 want=$3 format=$4
	run --launches "$file" -f csv --fields "$fields"
	[ "$status" -eq 0 ]
	ok $? "$name: --launches reads it"
	compare "$tmp/out" "$format" >"$tmp/cmp" 2>&1
	set -- $(grep '^launches' "$tmp/cmp")
	[ "${2:-0}" -eq "$want" ] && [ "$3" -ge "$want" ]
	ok $? "$name: $want launches, ncu's last $want beside them (got ${2:-none})"
	set -- $(grep '^shapes' "$tmp/cmp")
	[ "${2:-x}" = "${3:-y}" ]
	ok $? "$name: each launch's grid and block are ncu's launch's"
	grep '^figure' "$tmp/cmp" | cut -d' ' -f2- >"$tmp/figs"
	while read -r fig nbad total; do
		[ "$nbad" -eq 0 ]
		st=$?
		if [ "$format" = kineto ] && [ "$fig" = limit_shared_memory ]; then
			ok $st "$name: $fig of all $total launches at least Nsight Compute's (no carveout in the trace)"
		else
			ok $st "$name: $fig of all $total launches equals Nsight Compute's"
		fi
		grep "^# launch .*: $fig " "$tmp/cmp"
	done <"$tmp/figs"
	set -- $(grep '^barriers' "$tmp/cmp")
	[ "${2:-1}" -eq 0 ]
	ok $? "$name: ncu's barrier limit never binds, and is occcalc's where a kernel uses one barrier"
	grep -v '^\(launches\|shapes\|figure\|barriers\|# \)' "$tmp/cmp" | sed 's/^/# /'
}

check_trace "occcalc's trace" "$F/occcalc-trace.jsonl" 142 occcalc
check_trace "Kineto's trace" "$F/kineto.json.gz" 138 kineto

done_testing
