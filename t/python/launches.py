"""occcalc.launches(): the rows `occcalc --launches FILE -f jsonl` prints,
for occcalc's traces and PyTorch's Kineto traces (the fixtures made on
an H200), with --gpu's what-if and --fields; read as a stream (a trace
far larger than what the reader holds); errors raise occcalc.Error."""
import gzip
import json
import os
import resource
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
    out = subprocess.run([OCCCALC, "--launches"] + args + ["-f", "jsonl"],
                         capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


traces = [os.path.join(FIX, "launches", "small.jsonl")] + [
    os.path.join(FIX, "pytorch", name) for name in
    ("pt-step-trace-1.jsonl.gz", "pt-step-kineto.json.gz",
     "pt-step-achieved-1.jsonl.gz")]
for path in traces:
    rows = list(occcalc.launches(path))
    want = cli([path])
    t.ok(rows == want and len(rows) > 0,
         "%s: %d rows, those occcalc --launches prints" %
         (os.path.basename(path), len(rows)))

path = traces[1]
every = [f["field"] for f in occcalc.fields("launch")]
rows = list(occcalc.launches(path, fields=every))
t.ok(rows == cli([path, "--fields", ",".join(every)]),
     "all %d launch fields equal the command line's" % len(every))
rows = list(occcalc.launches(path, gpu="A100-SXM4-80GB"))
t.ok(rows == cli([path, "--gpu", "A100-SXM4-80GB"]),
     "gpu= models the launches on another GPU, as --gpu does")

# A trace of 100,000 launches, read while only a few rows are held.
big = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                   "occcalc-py-%d.jsonl.gz" % os.getpid())
with open(traces[0]) as f:
    lines = f.read().splitlines()
head = [l for l in lines if '"type":"launch"' not in l and
        '"type":"end"' not in l]
launch = [l for l in lines if '"type":"launch"' in l][0]
with gzip.open(big, "wt") as f:
    f.write("\n".join(head) + "\n")
    for i in range(100000):
        f.write(launch + "\n")
try:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    n = 0
    for row in occcalc.launches(big, fields="occupancy_pct"):
        n += row["occupancy_pct"] == 18.75
    grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    t.ok(n == 100000 and grew < 32 * 1024,
         "100,000 launches read as a stream: every row, %d KB more held"
         % grew)
    gen = occcalc.launches(big)
    first = next(gen)
    gen.close()
    t.ok(first["occupancy_pct"] == 18.75,
         "a caller that stops after one row stops the read")
finally:
    os.unlink(big)

for what, p, word in (("a file that does not exist", "/nonexistent/x.json",
                       "/nonexistent/x.json"),
                      ("a file that is no trace",
                       os.path.join(os.environ["T"], "lib.sh"), "lib.sh")):
    try:
        list(occcalc.launches(p))
        t.ok(False, "%s raises occcalc.Error" % what)
    except occcalc.Error as e:
        t.ok(word in str(e), "%s raises occcalc.Error: %s" % (what, e))
t.done()
