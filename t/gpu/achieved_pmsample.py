#!/usr/bin/env python3
"""achieved_pmsample.py - the tables of the PM sampling evaluation
(docs/achieved-pmsampling.md) from what t/gpu/achieved_pmsample.sh
measured: each launch of achieved_pmsample.cu, its achieved occupancy
from the PM sampler's samples against Nsight Compute's
sm__warps_active.avg.pct_of_peak_sustained_active for the same launch
(a run of the same program with --no-sample; launches in the same
order; the references' launch 0 is the warm-up, made before sampling).

  achieved_pmsample.py DIR... > TABLES.md     (per-launch CSV: PMSAMPLE_CSV)

A launch's figure from the samples, as warps active over cycles active
(sm__warps_active.sum / (sm__cycles_active.sum x 64)) summed over
  seg    its own run of samples with active SM cycles (a gapped launch;
         needs no clock),
  time   the samples that overlap its time: the trace's start_ns/end_ns
         where the sampler ran inside occcalc --trace, else the kernel's
         own %globaltimer moved by the offset the gapped launches show
         between it and the samples' timestamps (the median of their
         segment starts less their first block's start)."""
import bisect
import csv
import glob
import lzma
import os
import re
import sys

import achieved_compare  # same folder
from achieved_compare import trace_launches

WARPS_PER_SM = 64
SHAPES = ["full_wave", "partial_wave", "one_block", "smem_limited"]


def read_text(path):
    if os.path.exists(path):
        with open(path) as f:
            return f.read()
    with lzma.open(path + ".xz", "rt") as f:
        return f.read()


def samples_of(path):
    """(start, end, warps active, cycles active), the first left out:
    its start is not a time (later than its end, in every run)."""
    out = []
    for line in read_text(path).splitlines():
        x = line.split(",")
        out.append((int(x[1]), int(x[2]), float(x[3]), float(x[4])))
    return out[1:]


def pct(w, c):
    return 100.0 * w / (c * WARPS_PER_SM) if c > 0 else None


def segments(samples):
    segs, inside = [], False
    for s in samples:
        if s[3] > 0:
            if not inside:
                segs.append([s[0], s[1], 0.0, 0.0])
            segs[-1][1] = s[1]
            segs[-1][2] += s[2]
            segs[-1][3] += s[3]
        inside = s[3] > 0
    return segs


def over_time(samples, starts, t0, t1):
    i = max(0, bisect.bisect_right(starts, t0) - 1)
    w = c = 0.0
    while i < len(samples) and samples[i][0] < t1:
        s = samples[i]
        if min(s[1], t1) > max(s[0], t0):
            w += s[2]
            c += s[3]
        i += 1
    return pct(w, c)


def launches_of(path):
    text = read_text(path).splitlines()
    notes = [l[2:] for l in text if l.startswith("# ")]
    body = [l for l in text if l.startswith("launch,")]
    return notes, list(csv.DictReader(body))


def run(d, name, ncu, rows_out):
    """One sampled run: its clock figures and per-launch differences."""
    notes, launches = launches_of(os.path.join(d, name + ".txt"))
    samples = samples_of(os.path.join(d, name + "-samples.csv"))
    starts = [s[0] for s in samples]
    segs = segments(samples)
    gapped = [l for l in launches if l["phase"] == "gapped"]
    offs = sorted(segs[k][0] - int(gapped[k]["t0"]) for k in range(
        len(gapped))) if len(segs) >= len(gapped) else []
    off = offs[len(offs) // 2] if offs else 0
    traced = None
    tpath = os.path.join(d, name + ".jsonl")
    if os.path.exists(tpath):
        traced = trace_launches(tpath)[1:]        # the warm-up left out
    info = dict(run=os.path.basename(d.rstrip("/")) + "/" + name,
                interval=re.search(r"interval (\d+) ns",
                                   " ".join(notes)).group(1),
                samples=len(samples), segments=len(segs),
                offset=(off / 1e3, offs[0] / 1e3, offs[-1] / 1e3)
                if offs else None,
                lost=[n for n in notes if "OUT_OF_MEMORY" in n
                      or "overflow" in n])
    if traced:
        d_tr = [segs[k][0] - traced[k]["start_ns"] for k in range(len(gapped))]
        info["trace_vs_samples"] = (min(d_tr) / 1e3, max(d_tr) / 1e3)
        d_gt = [traced[k]["start_ns"] - int(launches[k]["t0"])
                for k in range(len(launches))]
        info["trace_vs_globaltimer"] = (min(d_gt) / 1e3, max(d_gt) / 1e3)
    diffs = {}
    for k, l in enumerate(launches):
        ref = ncu[k + 1]
        if traced:
            t0, t1 = traced[k]["start_ns"], traced[k]["end_ns"]
        else:
            t0, t1 = int(l["t0"]) + off, int(l["t1"]) + off
        tv = over_time(samples, starts, t0, t1)
        sv = pct(segs[k][2], segs[k][3]) if l["phase"] == "gapped" and \
            len(segs) >= len(gapped) else None
        rows_out.append(dict(run=info["run"], index=k, phase=l["phase"],
                             shape=l["shape"], cycles=l["cycles"],
                             duration_us=round((int(l["t1"]) - int(l["t0"]))
                                               / 1e3, 1),
                             ncu=ref, pm_segment="" if sv is None else
                             round(sv, 4), pm_time="" if tv is None else
                             round(tv, 4)))
        key = (l["phase"], int(l["cycles"]))
        cell = diffs.setdefault(key, {s: [None, None] for s in SHAPES})
        for j, v in enumerate((sv, tv)):
            if v is not None:
                prev = cell[l["shape"]][j]
                dv = v - ref
                cell[l["shape"]][j] = dv if prev is None or \
                    abs(dv) > abs(prev) else prev
    return info, diffs


def fmt(x):
    return "-" if x is None else "%+.2f" % x


def main():
    rows = []
    for d in sys.argv[1:]:
        ncu = [v for _, v in achieved_compare.ncu_values(
            os.path.join(d, "ncu.csv"))]
        occ = [l.get("achieved_occupancy_pct")
               for l in trace_launches(os.path.join(d, "occcalc.jsonl"))]
        with open(os.path.join(d, "machine.txt")) as f:
            machine = ", ".join(f.read().split("\n")).strip(", ")
        spread = max(abs(a - b) for a, b in zip(occ, ncu) if a is not None)
        print("## %s\n\n%s. occcalc --trace --achieved against Nsight "
              "Compute on the same launches (--no-sample): largest "
              "difference %.2f points (the partial waves; the others "
              "within %.2f).\n" % (
                  os.path.basename(d.rstrip("/")), machine, spread,
                  max(abs(a - b) for i, (a, b) in enumerate(zip(occ, ncu))
                      if a is not None and i > 0 and (i - 1) % 4 != 1)))
        names = sorted(os.path.basename(p)[:-4] for p in
                       glob.glob(os.path.join(d, "*.txt"))
                       if os.path.basename(p) != "machine.txt")
        for name in names:
            info, diffs = run(d, name, ncu, rows)
            print("### %s: interval %s ns%s\n" % (
                info["run"], info["interval"],
                ", inside occcalc --trace" if "trace_vs_samples" in info
                else (", gaps of 5 ms" if "gap5000" in name else "")))
            print("%d samples, %d runs of active samples (32 gapped "
                  "launches, then the back-to-back ones)." % (
                      info["samples"], info["segments"]))
            if info["offset"]:
                print(" The samples' timestamps less the kernels' "
                      "%%globaltimer: %.1f us (%.1f to %.1f)." %
                      info["offset"])
            if "trace_vs_samples" in info:
                print(" A gapped launch's first active sample starts %.1f "
                      "to %.1f us from its start_ns in the trace; the "
                      "trace's start_ns less the kernel's %%globaltimer: "
                      "%.1f to %.1f us." % (info["trace_vs_samples"] +
                                            info["trace_vs_globaltimer"]))
            for n in info["lost"]:
                print(" Samples lost: `%s`." % n)
            print("\nPM less Nsight Compute, the larger of the two launches "
                  "of each (points), by run of samples / by time:\n")
            print("| phase | cycles a block | " + " | ".join(SHAPES) + " |")
            print("| --- | ---: | " + " | ".join("---:" for _ in SHAPES)
                  + " |")
            for (phase, cycles), cell in sorted(
                    diffs.items(), key=lambda kv: (kv[0][0] != "gapped",
                                                   -kv[0][1])):
                print("| %s | %d | %s |" % (phase, cycles, " | ".join(
                    "%s / %s" % (fmt(cell[s][0]), fmt(cell[s][1]))
                    for s in SHAPES)))
            print()
    out = os.environ.get("PMSAMPLE_CSV")
    if out and rows:
        with open(out, "w", newline="") as f:
            w = csv.DictWriter(f, list(rows[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
