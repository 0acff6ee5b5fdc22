#!/usr/bin/env python3
"""compare.py OCCCALC CACHE TRUTH.csv [--api] - occcalc's rows for every
cubin of a Triton cache against the driver's recorded truth (TRUTH.csv, as
.dev/data/driver_truth.py and t/gpu/triton.py write it: entry, regs,
blocks_per_sm per cubin). Prints one line per kernel and a last line
"N kernels, M agree"; exit 0 only when every kernel of the truth has one
row in occcalc's answer and they all agree, and occcalc lists no kernel
the truth lacks. With --api (on the GPU, which gives occcalc the layout of
its GPCs), a kernel launched as clusters (num_ctas > 1) must also have
occcalc's max_active_clusters equal to the truth's clusters
(cuOccupancyMaxActiveClusters); a line "clusters: N kernels, M agree"."""
import csv, json, os, subprocess, sys


def occcalc_rows(occ, cache, api):
    out = subprocess.run([occ, "--kernels", cache, "-f", "json", "--fields",
                          "file,kernel,block,smem,regs,blocks_per_sm,num_warps,"
                          "num_ctas,triton_version,cluster,"
                          "max_active_clusters"] + (["--api"] if api else []),
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("occcalc failed: " + out.stderr.strip())
    rows = {}
    for r in json.loads(out.stdout):
        entry = os.path.relpath(r["file"], cache)
        if entry in rows:
            sys.exit("two rows for " + entry)
        rows[entry] = r
    return rows, out.stderr


def main():
    occ, cache, truth_path = sys.argv[1:4]
    api = sys.argv[4:5] == ["--api"]
    rows, err = occcalc_rows(occ, cache, api)
    n = agree = cn = cagree = 0
    with open(truth_path) as f:
        truth = list(csv.DictReader(f))
    for t in truth:
        n += 1
        r = rows.pop(t["entry"], None)
        if r is None:
            print("MISSING %s: occcalc has no row" % t["entry"])
            continue
        if not t["regs"] or not t["blocks_per_sm"]:
            print("DIFF %s: the driver did not answer (%s)" % (t["entry"],
                                                            t["err"]))
            continue
        # A launch above the GPU's shared memory: the driver refuses to
        # raise the limit (err setattr1) and answers 0 blocks, as occcalc.
        ok = (r["regs"] == int(t["regs"]) and
              r["blocks_per_sm"] == int(t["blocks_per_sm"]) and
              r["block"] == 32 * int(t["num_warps"]) and
              r["smem"] == int(t["shared"]))
        agree += ok
        if api and t.get("clusters"):
            cn += 1
            cok = r.get("max_active_clusters") == int(t["clusters"])
            cagree += cok
            print("%s %s clusters of %s: %s/%s" % (
                "ok  " if cok else "DIFF", t["entry"], r.get("cluster"),
                r.get("max_active_clusters"), t["clusters"]))
        print("%s %s %s block %d smem %d: regs %d/%d blocks %d/%d" % (
            "ok  " if ok else "DIFF", t["entry"], t["name"], r["block"],
            r["smem"], r["regs"], int(t["regs"]), r["blocks_per_sm"],
            int(t["blocks_per_sm"])))
    for e in rows:
        print("EXTRA %s: no truth for occcalc's row" % e)
    if err.strip():
        print("stderr: " + err.strip())
    if api:
        print("clusters: %d kernels, %d agree" % (cn, cagree))
    print("%d kernels, %d agree" % (n, agree))
    sys.exit(0 if n and agree == n and cagree == cn and not rows else 1)


main()
