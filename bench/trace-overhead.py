#!/usr/bin/env python3
"""trace-overhead.py - what occcalc --trace costs a PyTorch training step
('make bench-trace', on a machine with a GPU): t/gpu/trace_program.py's
steady-state step run plain, under occcalc --trace, under torch.profiler
and under Nsight Compute (--section Occupancy), the four interleaved
round after round; the median of each, and its ratio to plain, of

  - the step: the wall time of one timed training step (the program's
    own clock, after its warm-up steps), the figure the overhead goal is
    about;
  - the run: the whole process's wall time, start-up and (for --trace)
    the summary included;
  - the host memory: the largest resident set of the process tree
    (wait4's ru_maxrss: the program's, or the largest of its parent's and
    its own).

Nsight Compute profiles every launch, so it runs fewer steps (--ncu-steps).

  trace-overhead.py OCCCALC OUT.md [--rounds N] [--steps N] [--warmup N]
                    [--ncu-steps N] [--launches N [--lib OCCTRACE.SO]]

--launches N adds a run of N tiny launches (1-element adds), plain and
traced: the memory a long trace holds, beside the program's own; with
--lib, also with the library alone, without --trace's summary."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "..", "t", "gpu", "trace_program.py")
TINY = ("import sys, torch\n"
        "x = torch.zeros(1, device='cuda')\n"
        "for _ in range(int(sys.argv[1])): x.add_(1)\n"
        "torch.cuda.synchronize()\n")


def run(cmd, env=None):
    """Runs cmd; its wall time (s), its tree's max RSS (MiB), status."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    return wall, ru.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("occcalc")
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--ncu-steps", type=int, default=1)
    ap.add_argument("--launches", type=int, default=0)
    ap.add_argument("--lib", help="the injection library, for a run of "
                    "the tiny launches with it alone (no summary)")
    ap.add_argument("--ncu", default=shutil.which("ncu") or
                    "/usr/local/cuda/bin/ncu")
    a = ap.parse_args()
    py = sys.executable
    work = tempfile.mkdtemp(prefix="occcalc-bench-trace.")
    timing = os.path.join(work, "timing.json")
    prog = [py, PROGRAM, "--scale", "bench", "--timing", timing]
    steady = ["--warmup", str(a.warmup), "--steps", str(a.steps)]
    configs = [
        ("plain", prog + steady),
        ("--trace", [a.occcalc, "--trace", "--trace-out",
                     os.path.join(work, "t.jsonl"), "--"] + prog + steady),
        ("torch.profiler", prog + steady +
         ["--kineto", os.path.join(work, "k.json")]),
        ("ncu --section Occupancy",
         [a.ncu, "--clock-control", "none", "--section", "Occupancy",
          "--log-file", os.path.join(work, "ncu.txt")] + prog +
         ["--warmup", "1", "--steps", str(a.ncu_steps)]),
    ]
    # A first run builds the cluster kernel and fills Triton's cache.
    subprocess.run(prog + ["--steps", "1"], check=True)
    res = {name: {"step": [], "wall": [], "rss": []} for name, _ in configs}
    for r in range(a.rounds):
        for name, cmd in configs:
            if os.path.exists(timing):
                os.unlink(timing)
            wall, rss, st = run(cmd)
            if st != 0 or not os.path.exists(timing):
                sys.exit("bench-trace: %s failed (status %d)" % (name, st))
            with open(timing) as f:
                res[name]["step"].append(json.load(f)["median_s"])
            res[name]["wall"].append(wall)
            res[name]["rss"].append(rss)
            print("round %d %-24s step %.2f ms  run %.2f s  %.0f MiB" %
                  (r + 1, name, 1e3 * res[name]["step"][-1], wall, rss),
                  flush=True)
        with open(a.out + ".rounds.json", "w") as f:
            json.dump(res, f)
    med = {n: {k: statistics.median(v) for k, v in d.items()}
           for n, d in res.items()}
    p = med["plain"]
    lines = [
        "| run | step (median) | x plain | run wall (median) | x plain "
        "| max RSS | beside plain |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, _ in configs:
        m = med[name]
        lines.append("| %s | %.2f ms | %.2fx | %.2f s | %.2fx | %.0f MiB "
                     "| %+.0f MiB |" % (
                         name, 1e3 * m["step"], m["step"] / p["step"],
                         m["wall"], m["wall"] / p["wall"], m["rss"],
                         m["rss"] - p["rss"]))
    if a.launches:
        lines += ["", "%d launches of a 1-element add:" % a.launches, "",
                  "| run | wall | max RSS |", "| --- | ---: | ---: |"]
        env = dict(os.environ, CUDA_INJECTION64_PATH=a.lib or "",
                   OCCCALC_TRACE_OUT=os.path.join(work, "lib.jsonl"))
        for name, cmd, e in [
                ("plain", [py, "-c", TINY, str(a.launches)], None),
                ("the library alone (CUDA_INJECTION64_PATH)",
                 [py, "-c", TINY, str(a.launches)], env),
                ("--trace (and its summary)",
                 [a.occcalc, "--trace", "--trace-out",
                  os.path.join(work, "tiny.jsonl"), "--", py,
                  "-c", TINY, str(a.launches)], None)]:
            if e is not None and not a.lib:
                continue
            wall, rss, st = run(cmd, e)
            if st != 0:
                sys.exit("bench-trace: %s (tiny) failed" % name)
            lines.append("| %s | %.2f s | %.0f MiB |" % (name, wall, rss))
        size = os.path.getsize(os.path.join(work, "tiny.jsonl"))
        lines.append("")
        lines.append("The trace of the traced run: %.0f MB." % (size / 1e6))
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                          "--format=csv,noheader", "-i", "0"],
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    with open(a.out, "w") as f:
        f.write("# make bench-trace\n\n`bench/trace-overhead.py %s` on %s, "
                "%s UTC (docs/trace.md says what each figure is).\n\n" % (
                    " ".join(sys.argv[3:]), gpu or "an unnamed GPU",
                    time.strftime("%Y-%m-%d %H:%M", time.gmtime())))
        f.write("\n".join(lines) + "\n")
        f.write("\nRaw (s, s, MiB per round):\n\n```\n%s\n```\n" %
                json.dumps(res, indent=1))
    print("\n".join(lines))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
