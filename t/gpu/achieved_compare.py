#!/usr/bin/env python3
"""achieved_compare.py - occcalc --trace --achieved's figures against Nsight
Compute's sm__warps_active.avg.pct_of_peak_sustained_active for the same
launches of the same program (separate runs; the program launches the
same kernels in the same order each time): the trace's launches in
launch-call order (CUPTI's correlation ids, one thread) are Nsight
Compute's IDs.

  achieved_compare.py NAME TRACE.jsonl NCU.csv [NCU_NOCACHE.csv] OUT.csv OUT.md

NCU.csv: ncu --csv --metrics ... with its default --cache-control all
(caches flushed before each launch); NCU_NOCACHE.csv: --cache-control
none, as the traced program ran. OUT.csv: one row per launch; OUT.md: a
section of the table by kernel, appended. Exit 1 when fewer than
PASS_SHARE of the measured launches agree with Nsight Compute, or when
nothing was measured. A launch agrees when it is within 1 point of one
of Nsight Compute's runs or between them: where its own runs differ by
more (a partial last wave's blocks land differently run to run), that
is the precision the reference has. Launches of the same kernel with
the same grid, block and shared memory are the same measurement: the
range is that of all of them in both runs (a partial last wave's
achieved occupancy differs between identical launches of one run as
much as between runs: which SMs take the last blocks is the block
scheduler's)."""
import csv
import io
import json
import sys

METRIC = "sm__warps_active.avg.pct_of_peak_sustained_active"
PASS_SHARE = 0.95


def ncu_values(path):
    with open(path, errors="replace") as f:
        text = f.read()
    start = text.index('"ID"')
    out = {}
    for r in csv.DictReader(io.StringIO(text[start:])):
        if r["Metric Name"] == METRIC:
            out[int(r["ID"])] = (r["Kernel Name"],
                                 float(r["Metric Value"].replace(",", "")))
    return [out[i] for i in sorted(out)]


def trace_launches(path):
    rows = []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "launch":
                rows.append(r)
    rows.sort(key=lambda r: r["correlation"])
    return rows


def launch_key(l):
    """What makes two launches the same measurement."""
    return (l.get("mangled") or l["kernel"], tuple(l["grid"]),
            tuple(l["block"]), l.get("smem"))


def main():
    name, tr, ncu = sys.argv[1:4]
    rest = sys.argv[4:]
    nocache = rest.pop(0) if len(rest) == 3 else None
    out_csv, out_md = rest
    launches = trace_launches(tr)
    a = ncu_values(ncu)
    b = ncu_values(nocache) if nocache else None
    if len(a) != len(launches) or (b and len(b) != len(launches)):
        sys.exit("achieved_compare: %s: %d launches traced, Nsight Compute "
                 "%d%s" % (name, len(launches), len(a),
                           " and %d" % len(b) if b else ""))
    rows, per_kernel, same = [], {}, {}
    for i, l in enumerate(launches):
        same.setdefault(launch_key(l), []).extend(
            [a[i][1]] + ([b[i][1]] if b else []))
    for i, l in enumerate(launches):
        ours = l.get("achieved_occupancy_pct")
        if ours is None:
            continue
        ref = [a[i][1]] + ([b[i][1]] if b else [])
        pool = same[launch_key(l)]
        d = min(abs(ours - x) for x in ref)
        agrees = d <= 1 or min(pool) <= ours <= max(pool)
        rows.append(dict(id=i, kernel=l["kernel"][:100], grid="x".join(
            map(str, l["grid"])), block="x".join(map(str, l["block"])),
            occcalc=ours, ncu=a[i][1], ncu_nocache=b[i][1] if b else "",
            diff=round(d, 4), agrees=int(agrees), ncu_spread=round(abs(a[i][1] - b[i][1]), 4)
            if b else ""))
        k = per_kernel.setdefault(l["kernel"], [0, 0, 0.0, 0.0, 0.0])
        k[0] += 1
        k[1] += agrees
        k[2] = max(k[2], d)
        k[3] += ours
        k[4] += ref[-1]
    if not rows:
        sys.exit("achieved_compare: %s: no launch was measured" % name)
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    within = sum(r["diff"] <= 1 for r in rows)
    agree = sum(r["agrees"] for r in rows)
    worst = max(r["diff"] for r in rows)
    spread = [r["ncu_spread"] for r in rows if r["ncu_spread"] != ""]
    with open(out_md, "a") as f:
        f.write("\n## %s\n\n%d launches measured; %d (%.1f %%) within 1 "
                "point of Nsight Compute (the closer of its runs), the "
                "largest difference %.2f points; %d agree (within 1 point, "
                "or within the range Nsight Compute's runs gave it and "
                "the launches identical to it).%s\n\n" % (
                    name, len(rows), within, 100.0 * within / len(rows),
                    worst, agree, (" Nsight Compute's two runs (caches flushed, "
                            "not flushed) differ by up to %.2f points, %d "
                            "launches by more than 1." % (
                                max(spread), sum(s > 1 for s in spread)))
                    if spread else ""))
        f.write("| kernel | launches | agree | largest diff | "
                "occcalc mean | ncu mean |\n| --- | ---: | ---: | ---: | "
                "---: | ---: |\n")
        for k, v in sorted(per_kernel.items(), key=lambda kv: -kv[1][0]):
            f.write("| `%s` | %d | %d | %.2f | %.2f | %.2f |\n" % (
                k[:70].replace("|", "\\|"), v[0], v[1], v[2], v[3] / v[0],
                v[4] / v[0]))
    print("achieved_compare: %s: %d launches, %d within 1 point, %d agree, "
          "largest %.2f" % (name, len(rows), within, agree, worst))
    sys.exit(0 if agree >= PASS_SHARE * len(rows) else 1)


if __name__ == "__main__":
    main()
