#!/usr/bin/env python3
"""trace-overhead.py - what occcalc --trace costs a PyTorch training step
('make bench-trace', on a machine with a GPU): t/gpu/trace_program.py's
steady-state step run plain, under occcalc --trace, under torch.profiler
and under Nsight Compute (--section Occupancy), interleaved round after
round (each round in another order, so that none always comes first);
the median of each, and its ratio to plain, of

  - the step: the median wall time of one timed training step in a run
    (the program's own clock, after its warm-up), the figure the
    overhead goal is about;
  - the run: the whole process's wall time, start-up and (for --trace)
    the summary included;
  - the host memory: the largest resident set of the process tree
    (wait4's ru_maxrss: the program's, or the largest of its parent's and
    its own).

The step moves from process to process by more than --trace adds, so
each round's step is also divided by the same round's plain step: the
median of these paired ratios, their quartiles and their least and
greatest say whether a ratio holds beyond the noise.

Nsight Compute profiles every launch, so it runs fewer steps
(--ncu-steps) and only in the first --ncu-rounds rounds (33 s a run).
--budget-s starts no round that would end past that many seconds (the
longest round so far taken as the next one's length).

  trace-overhead.py OCCCALC OUT.md [--rounds N] [--steps N] [--warmup N]
                    [--warmup-s S] [--ncu-steps N] [--ncu-rounds N]
                    [--budget-s S] [--launches N [--lib OCCTRACE.SO]]

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


def lib_env(a, work, name, **extra):
    """The environment of a run with the injection library alone (no
    summary), writing to name in work; None without --lib."""
    if not a.lib:
        return None
    return dict(os.environ, CUDA_INJECTION64_PATH=a.lib,
                OCCCALC_TRACE_OUT=os.path.join(work, name), **extra)


def quartiles(v):
    """The least, the quartiles and the greatest of v."""
    if len(v) < 2:
        return v[0], v[0], v[0], v[0], v[0]
    q1, q2, q3 = statistics.quantiles(v, n=4, method="inclusive")
    return min(v), q1, q2, q3, max(v)


def step_table(configs, res, rounds):
    """The medians, and each run's step paired with its round's plain."""
    med = {n: {k: statistics.median(d[k]) for k in ("step", "wall", "rss")}
           for n, d in res.items()}
    p = med["plain"]
    lines = [
        "| run | runs | step (median) | x plain | run wall (median) "
        "| x plain | max RSS | beside plain |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, _, _ in configs:
        m = med[name]
        lines.append("| %s | %d | %.2f ms | %.2fx | %.2f s | %.2fx "
                     "| %.0f MiB | %+.0f MiB |" % (
                         name, len(res[name]["step"]), 1e3 * m["step"],
                         m["step"] / p["step"], m["wall"],
                         m["wall"] / p["wall"], m["rss"],
                         m["rss"] - p["rss"]))
    lines += ["", "Each run's step divided by the plain step of its round "
              "(%d rounds):" % rounds, "",
              "| run | paired rounds | least | first quartile | median "
              "| third quartile | greatest | rounds at most 1.10x |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, _, _ in configs[1:]:
        r = [s / res["plain"]["step"][i] for i, s
             in zip(res[name]["round"], res[name]["step"])]
        lo, q1, q2, q3, hi = quartiles(r)
        lines.append("| %s | %d | %.2fx | %.2fx | %.2fx | %.2fx | %.2fx "
                     "| %d of %d |" % (name, len(r), lo, q1, q2, q3, hi,
                                       sum(x <= 1.10 for x in r), len(r)))
    host = [statistics.median(h) for h in res["plain"]["host"]]
    step = res["plain"]["step"]
    lines += ["", "The plain step's host time (its launches, up to the "
              "synchronize), median of the runs: %.2f ms of %.2f ms; "
              "Python's garbage collector ran %d times in the %d timed "
              "steps of the plain runs." % (
                  1e3 * statistics.median(host),
                  1e3 * statistics.median(step),
                  sum(res["plain"]["gc"]),
                  len(step) * len(res["plain"]["host"][0]))]
    return lines


def trace_counts(path):
    """The launch records a trace holds, and its end record's launches and
    CUPTI's dropped records (None where it has no end record)."""
    records, end = 0, None
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b'{"type":"launch"'):
                records += 1
            elif line.startswith(b'{"type":"end"'):
                end = json.loads(line)
    return records, end


def launches_table(a, py, work):
    lines = ["", "%d launches of a 1-element add:" % a.launches, "",
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
    lines.append("")
    made = a.launches + 1           # and torch.zeros' fill
    for name, f in (("the traced run", "tiny.jsonl"),
                    ("the library alone", "lib.jsonl")):
        path = os.path.join(work, f)
        if not os.path.exists(path):
            continue
        records, end = trace_counts(path)
        lines.append(
            "The trace of %s: %.0f MB, %d launch records of the %d "
            "launches made (the adds and torch.zeros' fill); its end "
            "record: %s." % (
                name, os.path.getsize(path) / 1e6, records, made,
                "%d launches, %d dropped by CUPTI" % (end["launches"],
                                                     end["dropped"])
                if end else "none (the trace was cut short)"))
        if (not end or records != made or end["launches"] != made or
                end["dropped"]):
            lines.append("**Launches were lost** in %s." % name)
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("occcalc")
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--warmup-s", type=float, default=0.0)
    ap.add_argument("--ncu-steps", type=int, default=1)
    ap.add_argument("--ncu-rounds", type=int, default=None,
                    help="Nsight Compute in the first N rounds only")
    ap.add_argument("--budget-s", type=float, default=0.0)
    ap.add_argument("--launches", type=int, default=0)
    ap.add_argument("--lib", help="the injection library, for a run of "
                    "the tiny launches with it alone (no summary)")
    ap.add_argument("--ncu", default=shutil.which("ncu") or
                    "/usr/local/cuda/bin/ncu")
    ap.add_argument("--program", default=PROGRAM,
                    help="the training program (t/gpu/trace_program.py)")
    ap.add_argument("--scale", default="bench",
                    help="its scale: bench, or host (host-bound steps)")
    a = ap.parse_args()
    if a.ncu_rounds is None:
        a.ncu_rounds = a.rounds
    began = time.perf_counter()
    py = sys.executable
    work = tempfile.mkdtemp(prefix="occcalc-bench-trace.")
    timing = os.path.join(work, "timing.json")
    prog = [py, a.program, "--scale", a.scale, "--timing", timing]
    steady = ["--warmup", str(a.warmup), "--warmup-s", str(a.warmup_s),
              "--steps", str(a.steps)]
    ncu_name = "ncu --section Occupancy"
    configs = [
        ("plain", prog + steady),
        ("--trace", [a.occcalc, "--trace", "--trace-out",
                     os.path.join(work, "t.jsonl"), "--"] + prog + steady),
        ("--trace --trace-calls",
         [a.occcalc, "--trace", "--trace-calls", "--trace-out",
          os.path.join(work, "c.jsonl"), "--"] + prog + steady),
        ("the library alone", prog + steady, lib_env(a, work, "l.jsonl")),
        ("floor: CUPTI's records dropped", prog + steady,
         lib_env(a, work, "f.jsonl", OCCCALC_TRACE_FLOOR="1")),
        ("torch.profiler", prog + steady +
         ["--kineto", os.path.join(work, "k.json")]),
        (ncu_name,
         [a.ncu, "--clock-control", "none", "--section", "Occupancy",
          "--log-file", os.path.join(work, "ncu.txt")] + prog +
         ["--warmup", "1", "--steps", str(a.ncu_steps)]),
    ]
    if a.ncu_rounds == 0:
        configs.pop()
    # Each (name, command, environment): the library's runs need --lib.
    configs = [c if len(c) == 3 else c + (None,) for c in configs
               if len(c) == 2 or c[2] is not None]
    # A first run builds the cluster kernel and fills Triton's cache.
    subprocess.run(prog + ["--steps", "1"], check=True)
    res = {name: {"step": [], "wall": [], "rss": [], "round": [],
                  "host": [], "gc": [], "each": []} for name, _, _ in configs}
    rounds, longest = 0, 0.0
    for r in range(a.rounds):
        now = time.perf_counter() - began
        if a.budget_s and r and now + longest > a.budget_s:
            print("budget: %d rounds in %.0f s" % (r, now), flush=True)
            break
        t_round = time.perf_counter()
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for name, cmd, env in order:
            if name == ncu_name and r >= a.ncu_rounds:
                continue
            if os.path.exists(timing):
                os.unlink(timing)
            wall, rss, st = run(cmd, env)
            if st != 0 or not os.path.exists(timing):
                sys.exit("bench-trace: %s failed (status %d)" % (name, st))
            with open(timing) as f:
                t = json.load(f)
            d = res[name]
            d["step"].append(t["median_s"])
            d["host"].append(t["host_s"])
            d["each"].append(t["step_s"])
            d["gc"].append(sum(t["gc_collections"]))
            d["wall"].append(wall)
            d["rss"].append(rss)
            d["round"].append(r)
            print("round %d %-24s step %.2f ms  run %.2f s  %.0f MiB" %
                  (r + 1, name, 1e3 * d["step"][-1], wall, rss),
                  flush=True)
        rounds = r + 1
        longest = max(longest, time.perf_counter() - t_round)
        with open(a.out + ".rounds.json", "w") as f:
            json.dump(res, f)
    lines = step_table(configs, res, rounds)
    if a.launches:
        lines += launches_table(a, py, work)
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                          "--format=csv,noheader", "-i", "0"],
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    raw = {n: {k: d[k] for k in ("step", "wall", "rss", "round")}
           for n, d in res.items()}
    with open(a.out, "w") as f:
        f.write("# make bench-trace\n\n`bench/trace-overhead.py %s` on %s, "
                "%s UTC (docs/trace.md says what each figure is).\n\n" % (
                    " ".join(sys.argv[3:]), gpu or "an unnamed GPU",
                    time.strftime("%Y-%m-%d %H:%M", time.gmtime())))
        f.write("\n".join(lines) + "\n")
        f.write("\nRaw (s, s, MiB, round per run):\n\n```\n%s\n```\n" %
                json.dumps(raw, indent=1))
    print("\n".join(lines))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
