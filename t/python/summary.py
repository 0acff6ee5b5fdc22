"""occcalc.launch_summary(): the rows `occcalc --launches FILE --summary
-f json` prints, by kernel and by op, with --gpu's what-if, for the
fixtures' traces (occcalc's and PyTorch's Kineto, made on an H200); its
fields those of occcalc --list-fields; errors raise occcalc.Error."""
import json
import os
import subprocess

from tap import Tap

t = Tap()
try:
    import occcalc
except ImportError as e:
    t.skip_all("occcalc does not import: %s" % e)

OCCCALC = os.environ["OCCCALC"]
FIX = os.path.join(os.environ["T"], "fixtures")


def cli(args):
    out = subprocess.run([OCCCALC, "--launches"] + args +
                         ["--summary", "-f", "json"],
                         capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else out.stderr


traces = [os.path.join(FIX, "traces", name) for name in
          ("occcalc-trace.jsonl", "occcalc-achieved.jsonl",
           "kineto.json.gz")] + [
    os.path.join(FIX, "pytorch", name) for name in
    ("pt-step-trace-1.jsonl.gz", "pt-step-kineto.json.gz",
     "pt-step-achieved-1.jsonl.gz")]
for path in traces:
    for by in ("kernel", "op"):
        rows = occcalc.launch_summary(path, by=by)
        want = cli([path, "--by", by])
        t.ok(rows == want and len(rows) > 0,
             "%s --by %s: %d rows, those occcalc --launches --summary "
             "prints" % (os.path.basename(path), by, len(rows)))

path = os.path.join(FIX, "pytorch", "pt-step-kineto.json.gz")
for by in ("kernel", "op"):
    rows = occcalc.launch_summary(path, gpu="A100-SXM4-80GB", by=by)
    t.ok(rows == cli([path, "--gpu", "A100-SXM4-80GB", "--by", by]) and
         rows and rows[0]["arch"] == "sm_80",
         "gpu= models the launches on another GPU, as --gpu does (by %s)"
         % by)

every = [f["field"] for f in occcalc.fields("launch_summary")]
t.ok(list(occcalc.launch_summary(path)[0]) ==
     [f for f in every if f != "op"],
     "a row's keys are the launch_summary fields, in their order")
ops = occcalc.launch_summary(path, by="op")
t.ok(sum(r["launches"] for r in ops) ==
     sum(r["launches"] for r in occcalc.launch_summary(path)) ==
     sum(1 for _ in occcalc.launches(path)),
     "by kernel and by op, the rows' launches add up to the trace's")

# Each row against the launches it sums, as a notebook would add up the
# rows of occcalc.launches(): their count, and the occupancy weighted by
# GPU time, on the same kernel and GPU (a CUTLASS name of 1,646 bytes in
# kineto.json.gz among them).
for path in traces[2:5]:
    every = list(occcalc.launches(path, fields="kernel,device,"
                                  "occupancy_pct,duration_ns"))
    rows = occcalc.launch_summary(path)
    agree = 0
    for r in rows:
        mine = [x for x in every
                if (x["kernel"], x["device"]) == (r["kernel"], r["device"])]
        ns = sum(x["duration_ns"] for x in mine)
        pct = sum(x["occupancy_pct"] * x["duration_ns"] for x in mine) / ns
        agree += (len(mine) == r["launches"] and
                  abs(pct - r["occupancy_pct"]) <= 0.005 + 1e-9)
    t.ok(rows and agree == len(rows),
         "%s: each of %d rows holds the launches of its kernel and their "
         "time-weighted occupancy, as occcalc.launches() adds them up "
         "(%d agree)" % (os.path.basename(path), len(rows), agree))

for what, call, word in (
        ("a file that does not exist",
         lambda: occcalc.launch_summary("/nonexistent/x.json"),
         "/nonexistent/x.json"),
        ("a file that is no trace",
         lambda: occcalc.launch_summary(
             os.path.join(os.environ["T"], "lib.sh")), "lib.sh"),
        ("a GPU not in the list",
         lambda: occcalc.launch_summary(path, gpu="no such GPU"),
         "no such GPU"),
        ("by= neither kernel nor op",
         lambda: occcalc.launch_summary(path, by="module"), "module")):
    try:
        call()
        t.ok(False, "%s raises occcalc.Error" % what)
    except occcalc.Error as e:
        t.ok(word in str(e), "%s raises occcalc.Error: %s" % (what, e))
t.done()
