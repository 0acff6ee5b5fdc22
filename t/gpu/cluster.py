#!/usr/bin/env python3
"""cluster.py - occcalc's cluster model against the GPU and Nsight Compute.

Runs t/gpu/clustercheck, which measures the device's GPC layout (where
clusters' CTAs run) and then, for every configuration, computes the model
from that layout, asks the runtime (cudaOccupancyMaxActiveClusters,
cudaOccupancyMaxPotentialClusterSize) about a calibrated cluster kernel with
exactly those resources, and launches more clusters than fit, measuring the
clusters resident at once and the blocks per SM. Then it runs a subset, one
wave each, under ncu for launch__cluster_max_active. It passes only if, for
every configuration, the calibrated kernel has exactly the registers asked,
the model's clusters = the API's = the measured, the
model's blocks per SM in a cluster launch = the measured, the model's
potential cluster size = the API's, and ncu agrees wherever it reports.

Then the same configurations through the command line, `occcalc --cluster
... --api --measure -f csv` (OCCCALC names the binary): every row's model,
API and measurement must agree again, and equal clustercheck's.

Usage: cluster.py CLUSTERCHECK REPORT.md [CSV]
"""
import csv
import datetime
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu as profiler  # noqa: E402

MIN_CONFIGS = 150
FEWEST_REGS = 24   # ptxas allocates no fewer
NCU_METRICS = ["launch__cluster_max_active",
               "launch__cluster_max_potential_size", "launch__cluster_size",
               "launch__grid_size"]


def read(text):
    """clustercheck's output: its '#' lines, and its rows."""
    notes = [l[2:] for l in text.splitlines() if l.startswith("# ")]
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    return notes, list(csv.DictReader(io.StringIO(body)))


def note(notes, key):
    return next((n[len(key) + 1:] for n in notes if n.startswith(key + " ")),
                "")


def listed_layout(name):
    """The GPU list's layout line for the device, if any: by the list's
    name, or by an alias that is the device's name."""
    gpus = os.path.join(os.environ.get("OCCCALC_TABLES", ""), "gpus.txt")
    device = name.split(",")[0].strip()
    key = device.replace("NVIDIA ", "").replace(" ", "-")
    with open(gpus) as f:
        lines = [l.split("#")[0].split() for l in f]
    for w in lines:
        if len(w) > 2 and w[0] == "alias" and " ".join(w[2:]) == device:
            key = w[1]
    for w in lines:
        if len(w) > 3 and w[0] == "layout" and w[1].lower() == key.lower():
            return w[1], w[2], " ".join(w[3:])
    return key, None, None


def device(name):
    """The device, the driver, the time."""
    smi = subprocess.run(
        ["nvidia-smi", "--query-gpu=driver_version,uuid", "--format=csv,noheader",
         "-i", os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]],
        stdout=subprocess.PIPE, text=True).stdout.split("\n")[0].split(", ")
    now = datetime.datetime.now(datetime.timezone.utc)
    return ("%s (%s)" % (name, smi[1] if len(smi) > 1 else "?"),
            smi[0] or "unknown", now.strftime("%Y-%m-%d %H:%M"))


def check(r):
    n = int
    launched = not r["launch_error"]
    r["ok"] = (n(r["kernel_regs"]) == max(n(r["regs"]), FEWEST_REGS) and
               n(r["blocks_per_sm"]) == n(r["api_blocks_per_sm"]) and
               n(r["clusters"]) == n(r["api_clusters"]) and
               n(r["potential"]) == n(r["api_potential"]) and
               n(r["potential_nonportable"]) ==
               n(r["api_potential_nonportable"]) and
               (n(r["measured_clusters"]) == n(r["clusters"]) and
                n(r["measured_blocks_per_sm"]) ==
                n(r["cluster_blocks_per_sm"]) if launched
                else n(r["clusters"]) == 0) and
               r.get("ncu_ok", True))
    return r["ok"]


def attach_ncu(rows, sub, launches):
    """ncu's figures onto the rows of the same configuration."""
    key = lambda r: (r["regs"], r["block"], r["smem"], r["shape"])
    by = {key(r): r for r in rows}
    for s, l in zip(sub, launches):
        r = by.get(key(s))
        if r is None:
            continue
        r["ncu_active"] = int(l["launch__cluster_max_active"])
        r["ncu_potential"] = int(l["launch__cluster_max_potential_size"])
        want = int(r["api_potential_nonportable"] if int(r["size"]) > 8
                   else r["api_potential"])
        r["ncu_ok"] = (r["ncu_active"] == int(r["api_clusters"]) and
                       r["ncu_potential"] == want)


CLI_FIELDS = ("regs,block,smem,cluster,cluster_size,blocks_per_sm,"
              "cluster_blocks_per_sm,max_active_clusters,"
              "api_max_active_clusters,measured_clusters,"
              "measured_cluster_blocks_per_sm,cluster_potential_size,"
              "api_cluster_potential_size,cluster_agrees,layout")


def cli_rows(occcalc, rows):
    """The configurations of rows through occcalc, one call per kernel."""
    kernels = {}
    for r in rows:
        kernels.setdefault((r["regs"], r["block"], r["smem"]),
                           []).append(r["shape"])
    out = []
    for (regs, block, smem), shapes in kernels.items():
        p = subprocess.run(
            [occcalc, "--regs", regs, "--block", block, "--smem", smem,
             "--cluster", ",".join(shapes), "--api", "--measure",
             "--format", "csv", "--fields", CLI_FIELDS],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # 1 with its rows: a kernel none of whose configurations can
        # launch (occcalc's exit status since 2026-11-24).
        if p.returncode not in (0, 1) or not p.stdout.strip():
            out.append({"error": p.stderr.strip(), "regs": regs,
                        "block": block, "smem": smem})
            continue
        out += list(csv.DictReader(io.StringIO(p.stdout)))
    return out


def cli_check(occcalc, rows):
    """(rows through occcalc, how many agree, how many equal clustercheck's,
    problems)."""
    got = cli_rows(occcalc, rows)
    by = {(r["regs"], r["block"], r["smem"], r["shape"]): r for r in rows}
    agree = same = 0
    problems = [g["error"] for g in got if "error" in g]
    for g in got:
        if "error" in g:
            continue
        agree += g["cluster_agrees"] == "true"
        r = by.get((g["regs"], g["block"], g["smem"], g["cluster"]))
        same += bool(r) and (
            g["max_active_clusters"] == r["clusters"] and
            g["api_max_active_clusters"] == r["api_clusters"] and
            g["cluster_blocks_per_sm"] == r["cluster_blocks_per_sm"] and
            (g["measured_clusters"] == r["measured_clusters"]
             if g["measured_clusters"] else r["launch_error"] != ""))
    if agree < len(rows) or same < len(rows):
        problems.append("through occcalc: %d rows of %d, %d agree, %d equal "
                        "clustercheck's" % (len(got), len(rows), agree, same))
    return len(got), agree, same, problems


def write_report(path, rows, notes, dev, problems, failures, cli=None):
    name, listed, source = listed_layout(note(notes, "device"))
    measured = note(notes, "layout").split(" ")[0]
    with open(path, "w") as f:
        f.write("# Thread-block clusters on the GPU: model, runtime API, "
                "measurement and Nsight Compute\n\n")
        f.write("Made by `make check-gpu` (t/gpu/cluster.py) on %s UTC.\n\n"
                % dev[2])
        f.write("- Device: %s\n- Driver: %s\n" % (dev[0], dev[1]))
        f.write("- GPC layout measured (SMs each GPC offers clusters): `%s`"
                "\n" % note(notes, "layout"))
        f.write("- The GPU list's layout for %s: %s\n" % (name, (
            "`%s` (%s): %s" % (listed, source, "the same" if listed ==
                                measured else "**differs**"))
            if listed else "none"))
        f.write("- Configurations: %d (cluster sizes %s; block sizes %s)\n"
                % (len(rows), ",".join(sorted({r["size"] for r in rows},
                                              key=int)),
                   ",".join(sorted({r["block"] for r in rows}, key=int))))
        f.write("- The kernel's registers (cudaFuncGetAttributes) = those "
                "asked: %d of %d\n" % (sum(int(r["kernel_regs"]) == max(
                    int(r["regs"]), FEWEST_REGS) for r in rows), len(rows)))
        f.write("- Registers = asked, model = API = measured clusters, model "
                "= measured blocks per SM: %d of %d\n"
                % (sum(r["ok"] for r in rows), len(rows)))
        f.write("- With Nsight Compute's launch__cluster_max_active: %d, all "
                "equal to the API: %s\n" % (
                    sum("ncu_active" in r for r in rows),
                    "yes" if all(r.get("ncu_ok", True) for r in rows)
                    else "**no**"))
        if cli:
            f.write("- Through the command line (`occcalc --cluster ... "
                    "--api --measure -f csv`): %d rows, model = API = "
                    "measured in %d, equal to the rows above in %d\n" % cli)
        f.write("- %s\n" % next((n for n in notes
                                  if n.startswith("cluster of 17")), ""))
        f.write("- Result: **%s**\n\n" % ("PASS" if not failures and
                                           not problems else "FAIL"))
        for p in problems:
            f.write("- Problem: %s\n" % p)
        gpcs = [n for n in notes if n.startswith(("gpc ", "sm "))]
        if gpcs:
            f.write("\nThe SMs of each GPC, as measured (SMs that held CTAs "
                    "of one cluster):\n\n" + "".join(
                        "    %s\n" % n for n in gpcs))
        f.write("\nColumns: the configuration (registers asked and the "
                "kernel's, block, dynamic shared memory, cluster shape); "
                "blocks per SM plainly (model/API) and in a cluster launch "
                "(model/measured); clusters resident at once (model/API/"
                "measured/ncu) and what limits them; the potential cluster "
                "size, portable and not (model/API); the model's occupancy "
                "over the GPU and the achieved occupancy measured.\n\n")
        f.write("| regs | block | smem | shape | blocks/SM | cluster "
                "blocks/SM | clusters | limiters | potential | GPU % | "
                "achieved % | ok |\n|" + "---|" * 12 + "\n")
        for r in rows:
            f.write("| %s/%s | %s | %s | %s | %s/%s | %s/%s | %s/%s/%s/%s | "
                    "%s | %s,%s/%s,%s | %s | %s | %s |\n" % (
                        r["regs"], r["kernel_regs"], r["block"], r["smem"],
                        r["shape"], r["blocks_per_sm"],
                        r["api_blocks_per_sm"], r["cluster_blocks_per_sm"],
                        r["measured_blocks_per_sm"] if not r["launch_error"]
                        else "-", r["clusters"], r["api_clusters"],
                        r["measured_clusters"] if not r["launch_error"]
                        else "refused", r.get("ncu_active", ""),
                        r["limiters"] or r["reason"], r["potential"],
                        r["potential_nonportable"], r["api_potential"],
                        r["api_potential_nonportable"], r["gpu_occupancy"],
                        r["achieved"], "yes" if r["ok"] else "**NO**"))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().split("\n")[-1])
    check_bin, report = sys.argv[1:3]
    out = subprocess.run([check_bin], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    notes, rows = read(out)
    layout = note(notes, "layout").split(" ")[0]
    ncu_out, launches = profiler.profile(
        os.environ.get("NCU", "ncu"), NCU_METRICS,
        [check_bin, "--ncu", layout])
    _, sub = read(ncu_out)
    problems = []
    if len(sub) != len(launches):
        problems.append("%d ncu rows but %d launches" % (len(sub),
                                                         len(launches)))
    else:
        attach_ncu(rows, sub, launches)
    failures = [r for r in rows if not check(r)]
    sizes = {int(r["size"]) for r in rows}
    if len(rows) < MIN_CONFIGS:
        problems.append("only %d configurations (at least %d)"
                        % (len(rows), MIN_CONFIGS))
    if not set(range(1, 17)) <= sizes:
        problems.append("cluster sizes missing: %s" % sorted(
            set(range(1, 17)) - sizes))
    cli = None
    if os.environ.get("OCCCALC"):
        n_cli, agree, same, cli_problems = cli_check(os.environ["OCCCALC"],
                                                     rows)
        cli = (n_cli, agree, same)
        problems += cli_problems
    else:
        problems.append("OCCCALC not set: the command line was not checked")
    dev = device(note(notes, "device"))
    write_report(report, rows, notes, dev, problems, failures, cli)
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w", newline="") as f:
            cols = list(dict.fromkeys(k for r in rows for k in r))
            w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    print("cluster: %d configurations, %d failed%s; report in %s"
          % (len(rows), len(failures), "".join("; " + p for p in problems),
             report))
    return 1 if failures or problems else 0


if __name__ == "__main__":
    sys.exit(main())
