#!/usr/bin/env python3
"""validate.py - occcalc's model against the GPU and Nsight Compute.

Runs sweeps of `occcalc --measure` under ncu, so that each calibrated launch
is measured twice: by occcalc (its warps' SM clocks) and by the hardware
counters. For every configuration it records the model's prediction, the
runtime occupancy API, the measured residency and achieved occupancy, and
ncu's sm__warps_active.avg.pct_of_peak_sustained_active and
launch__occupancy_limit_*. It passes only if the model's blocks per SM equal
the API's and ncu's, the blocks measured resident equal the model's
expectation for the launch (its blocks per SM, or fewer when the grid is
smaller than a wave and spreads over the SMs), and the achieved occupancy
is within 2 points of ncu's, everywhere.

Usage: validate.py OCCCALC REPORT.md [CSV]
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu as profiler  # noqa: E402

TOLERANCE = 2.0   # percentage points, achieved occupancy against ncu
MIN_CONFIGS = 60
LIMITERS = ("warps", "registers", "shared_memory", "blocks")

NCU_METRICS = [
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_blocks",
    "launch__registers_per_thread",
    "launch__grid_size",
]

# Each sweep is one occcalc run (one ncu session). Together they cover
# every limiter, carveout preferences, and grids whose last wave is partial.
SWEEPS = [
    ["--block", "32,64,96,128,256,384,512,768,1024",
     "--regs", "24,32,40,56,64,96,128,168,255"],
    ["--block", "64,128,256", "--regs", "32",
     "--smem", "8K,20K,40K,60K,100K,150K,227K"],
    ["--block", "128", "--regs", "32", "--smem", "8K,30K,60K",
     "--carveout", "0"],
    ["--block", "128", "--regs", "32", "--smem", "8K,30K,60K",
     "--carveout", "50"],
    ["--block", "128,256,1024", "--regs", "32,64", "--grid", "100"],
    ["--block", "128,256,1024", "--regs", "32,64", "--grid", "1000"],
    ["--block", "128,256,1024", "--regs", "32,64", "--grid", "1700"],
    ["--block", "96,640", "--regs", "40", "--smem", "0,24K", "--grid", "5000"],
]


def run_sweep(occcalc, args, ncu):
    out, launches = profiler.profile(ncu, NCU_METRICS, [
        occcalc, "--measure", "--format", "csv"] + args)
    rows = list(csv.DictReader(io.StringIO(out)))
    measured = [r for r in rows if r["measured_grid"]]
    if len(measured) != len(launches):
        sys.exit("validate: %d measured rows but ncu saw %d launches (%s)"
                 % (len(measured), len(launches), " ".join(args)))
    for row, launch in zip(measured, launches):
        row["ncu"] = launch
    return measured


def limit_cell(v):
    return v if v else "-"


def check(row):
    ncu = row["ncu"]
    pred, api = int(row["blocks_per_sm"]), int(row["api_blocks_per_sm"])
    expected = int(row["expected_blocks_per_sm"])
    meas = int(row["measured_blocks_per_sm"])
    achieved = float(row["achieved_occupancy_pct"])
    ncu_achieved = ncu[NCU_METRICS[0]]
    row["diff"] = achieved - ncu_achieved
    row["ncu_blocks"] = min(int(ncu[m]) for m in NCU_METRICS[1:5])
    row["ok"] = (pred == api == row["ncu_blocks"] and expected == meas and
                 abs(row["diff"]) <= TOLERANCE and
                 int(ncu["launch__grid_size"]) ==
                 int(row["measured_grid"]))
    return row["ok"]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().split("\n")[-1])
    occcalc, report = sys.argv[1], sys.argv[2]
    ncu = os.environ.get("NCU", "ncu")
    rows = []
    for args in SWEEPS:
        rows += run_sweep(occcalc, args, ncu)
    failures = [r for r in rows if not check(r)]
    limiters = {l: sum(1 for r in rows if l in r["limiter"].split("+"))
                for l in LIMITERS}
    partial = sum(1 for r in rows if r["tail_blocks"] not in ("", "0"))
    problems = []
    if len(rows) < MIN_CONFIGS:
        problems.append("only %d configurations (at least %d)"
                        % (len(rows), MIN_CONFIGS))
    problems += ["no configuration limited by %s" % l
                 for l, n in limiters.items() if n == 0]
    if partial == 0:
        problems.append("no grid with a partial last wave")
    dev, driver, now = profiler.device(occcalc)
    worst = max(abs(r["diff"]) for r in rows)
    with open(report, "w") as f:
        f.write("# occcalc on the GPU: model, occupancy API, measurement "
                "and Nsight Compute\n\n")
        f.write("Made by `make check-gpu` (t/gpu/validate.py) on %s UTC.\n\n"
                % now)
        f.write("- Device: %s\n- Driver: %s\n" % (dev, driver))
        f.write("- Configurations: %d; by limiter: %s; with a partial last "
                "wave: %d\n" % (len(rows), ", ".join(
                    "%s %d" % kv for kv in limiters.items()), partial))
        f.write("- Model = API = ncu blocks per SM: %d of %d\n"
                % (sum(1 for r in rows if int(r["blocks_per_sm"]) ==
                       int(r["api_blocks_per_sm"]) == r["ncu_blocks"]),
                   len(rows)))
        f.write("- Measured resident blocks per SM = the model's expectation "
                "for the launch: %d of %d (of them, %d where the full "
                "blocks per SM were expected)\n" % (
                    sum(1 for r in rows if int(r["expected_blocks_per_sm"]) ==
                        int(r["measured_blocks_per_sm"])), len(rows),
                    sum(1 for r in rows if int(r["blocks_per_sm"]) ==
                        int(r["expected_blocks_per_sm"]) ==
                        int(r["measured_blocks_per_sm"]))))
        f.write("- Achieved occupancy within %.0f points of ncu's: %d of %d "
                "(largest difference %.2f)\n" % (
                    TOLERANCE, sum(1 for r in rows if abs(r["diff"]) <=
                                   TOLERANCE), len(rows), worst))
        f.write("- Result: **%s**\n\n" % ("PASS" if not failures and
                                           not problems else "FAIL"))
        for p in problems:
            f.write("- Problem: %s\n" % p)
        f.write("\nColumns: the configuration; the model's blocks per SM and "
                "limiter; the runtime API's blocks; ncu's "
                "launch__occupancy_limit_warps/registers/shared_mem/blocks; "
                "the blocks per SM the model expects resident in this launch "
                "and those measured; the model's occupancy over "
                "the launch (with --grid) or theoretical; the achieved "
                "occupancy occcalc measured and ncu's "
                "sm__warps_active.avg.pct_of_peak_sustained_active.\n\n")
        f.write("| block | regs | smem | carveout | grid | model | limiter "
                "| API | ncu limits w/r/s/b | expected | measured | model % "
                "| achieved % | ncu % | diff | ok |\n")
        f.write("|" + "---|" * 16 + "\n")
        for r in rows:
            n = r["ncu"]
            f.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                    "| %s | %s | %s | %+.2f | %s |\n" % (
                        r["block"], r["regs"], r["smem"], r["carveout"],
                        r["measured_grid"], r["blocks_per_sm"], r["limiter"],
                        r["api_blocks_per_sm"], "/".join(
                            str(int(n[m])) for m in NCU_METRICS[1:5]),
                        r["expected_blocks_per_sm"],
                        r["measured_blocks_per_sm"],
                        r["launch_occupancy_pct"] or r["occupancy_pct"],
                        r["achieved_occupancy_pct"],
                        "%.2f" % n[NCU_METRICS[0]],
                        r["diff"], "yes" if r["ok"] else "**NO**"))
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["block", "regs", "smem", "carveout", "grid",
                        "blocks_per_sm", "limiter", "api_blocks_per_sm",
                        "expected_blocks_per_sm", "measured_blocks_per_sm",
                        "model_pct",
                        "achieved_pct", "ncu_achieved_pct"] + NCU_METRICS[1:])
            for r in rows:
                w.writerow([r["block"], r["regs"], r["smem"], r["carveout"],
                            r["measured_grid"], r["blocks_per_sm"],
                            r["limiter"], r["api_blocks_per_sm"],
                            r["expected_blocks_per_sm"],
                            r["measured_blocks_per_sm"],
                            r["launch_occupancy_pct"] or r["occupancy_pct"],
                            r["achieved_occupancy_pct"],
                            r["ncu"][NCU_METRICS[0]]] +
                           [int(r["ncu"][m]) for m in NCU_METRICS[1:]])
    print("validate: %d configurations, %d failed%s; report in %s"
          % (len(rows), len(failures),
             "".join("; " + p for p in problems), report))
    return 1 if failures or problems else 0


if __name__ == "__main__":
    sys.exit(main())
