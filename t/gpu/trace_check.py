#!/usr/bin/env python3
"""trace_check.py - make check-gpu's trace check: t/gpu/trace_program.py
run under occcalc --trace and under Nsight Compute (the same launches,
in the same order: the program is seeded), and each traced launch's
row compared with ncu's figures for it: grid, block, registers, shared
memory, the blocks each resource allows, the theoretical occupancy, the
waves and the clusters the GPU holds at once. Writes the evidence to
OUT.md; fails if any launch differs, if a launch is missing, or if the
trace dropped records. Skips (exit 0, saying so) without a GPU, PyTorch
or the injection library.

  trace_check.py OCCCALC OUT.md"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu as profiler  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "trace_program.py")
FIELDS = ("start_ns,kernel,grid,block,regs,static_smem,smem,limit_warps,"
          "limit_registers,limit_shared_memory,limit_blocks,blocks_per_sm,"
          "occupancy_pct,waves_per_multiprocessor,cluster_size,"
          "max_active_clusters,cupti_max_active_clusters")
METRICS = ["launch__grid_size", "launch__block_size",
           "launch__registers_per_thread",
           "launch__shared_mem_per_block_static",
           "launch__shared_mem_per_block_dynamic",
           "launch__occupancy_limit_warps",
           "launch__occupancy_limit_registers",
           "launch__occupancy_limit_shared_mem",
           "launch__occupancy_limit_blocks",
           "sm__maximum_warps_per_active_cycle_pct",
           "launch__waves_per_multiprocessor",
           "launch__cluster_max_active"]
# occcalc's field, ncu's metric, the largest difference allowed (ncu
# prints the waves with two decimals).
PAIRS = [("regs", "launch__registers_per_thread", 0),
         ("static_smem", "launch__shared_mem_per_block_static", 0),
         ("smem", "launch__shared_mem_per_block_dynamic", 0),
         ("limit_warps", "launch__occupancy_limit_warps", 0),
         ("limit_registers", "launch__occupancy_limit_registers", 0),
         ("limit_shared_memory", "launch__occupancy_limit_shared_mem", 0),
         ("limit_blocks", "launch__occupancy_limit_blocks", 0),
         ("occupancy_pct", "sm__maximum_warps_per_active_cycle_pct", 0.005),
         ("waves_per_multiprocessor", "launch__waves_per_multiprocessor",
          0.0051),
         ("max_active_clusters", "launch__cluster_max_active", 0)]


def skip(why):
    print("trace check: SKIP: %s" % why)
    sys.exit(0)


def value(row, field):
    v = row[field]
    if v == "" and field in ("max_active_clusters", "limit_registers",
                             "limit_shared_memory"):
        return None
    return float(v)


def main():
    occcalc, out_md = sys.argv[1:3]
    py = os.environ.get("PYTHON3", "python3")
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    probe = subprocess.run([py, "-c", "import torch, triton; "
                            "assert torch.cuda.is_available()"],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        skip("no GPU with PyTorch and Triton here")
    work = tempfile.mkdtemp(prefix="occcalc-trace-check.")
    prog = [py, PROGRAM, "--scale", "fixture",
            "--build", os.path.join(work, "build")]
    subprocess.run(prog, check=True)          # builds, fills caches
    trace = os.path.join(work, "t.jsonl")
    r = subprocess.run([occcalc, "--trace", "--trace-out", trace, "-f",
                        "csv", "--fields", FIELDS, "--"] + prog,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0 and "injection library" in r.stderr:
        skip(r.stderr.strip())
    if r.returncode != 0:
        sys.exit("trace check: occcalc --trace failed (%d): %s" %
                 (r.returncode, r.stderr.strip()))
    mine = sorted(csv.DictReader(io.StringIO(r.stdout)),
                  key=lambda x: int(x["start_ns"]))
    with open(trace) as f:
        end = [ln for ln in f if '"type":"end"' in ln]
    dropped = end[0].split('"dropped":')[1].split(",")[0] if end else "?"
    _, launches = profiler.profile(ncu, METRICS, prog)
    problems = []
    if len(mine) != len(launches):
        problems.append("%d launches traced, %d profiled" %
                        (len(mine), len(launches)))
    if dropped != "0":
        problems.append("the trace's end record: dropped %s" % dropped)
    counts = {a: 0 for a, _, _ in PAIRS}
    shapes = 0
    for i, (m, n) in enumerate(zip(mine, launches)):
        blocks = 1
        threads = 1
        for x in m["grid"].split():
            blocks *= int(x)
        for x in m["block"].split():
            threads *= int(x)
        if blocks == n["launch__grid_size"] and \
           threads == n["launch__block_size"]:
            shapes += 1
        else:
            problems.append("launch %d (%s): grid %s block %s, ncu %d x %d" %
                            (i, m["kernel"][:60], m["grid"], m["block"],
                             n["launch__grid_size"], n["launch__block_size"]))
        for a, b, tol in PAIRS:
            x, y = value(m, a), n[b]
            if x is None and y == 0:     # no cluster, no registers...
                x = 0.0
            if x is not None and abs(x - y) <= tol:
                counts[a] += 1
            else:
                problems.append("launch %d (%s): %s %s, ncu %s" %
                                (i, m["kernel"][:60], a, m[a], y))
    dev, driver, when = profiler.device(occcalc)
    with open(out_md, "w") as f:
        f.write("# occcalc --trace against Nsight Compute\n\n")
        f.write("`make check-gpu GPU_CHECKS=trace` (t/gpu/trace_check.py) "
                "on %s, driver %s, %s UTC: `t/gpu/trace_program.py --scale "
                "fixture` under `occcalc --trace` and under `ncu "
                "--clock-control none`, each launch's row beside ncu's "
                "figures for the same launch.\n\n" % (dev, driver, when))
        f.write("- Launches: %d traced (%s dropped), %d profiled; grid and "
                "block agree for %d.\n" % (len(mine), dropped,
                                          len(launches), shapes))
        f.write("\n| occcalc field | Nsight Compute metric | launches "
                "equal |\n| --- | --- | ---: |\n")
        for a, b, _ in PAIRS:
            f.write("| `%s` | `%s` | %d of %d |\n" % (a, b, counts[a],
                                                   len(mine)))
        f.write("\n%s\n" % ("All agree." if not problems else
                            "Differences:\n\n" + "\n".join(
                                "- " + p for p in problems[:50])))
    shutil.rmtree(work, ignore_errors=True)
    print("trace check: %d launches, %d problems (%s)" %
          (len(mine), len(problems), out_md))
    for p in problems[:20]:
        print("trace check: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
