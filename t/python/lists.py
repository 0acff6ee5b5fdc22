"""occcalc.archs(), gpus() and info(): the rows `occcalc --list-archs`,
`--list-gpus` and `--arch ARCH --info` (and `--gpu NAME --info`) print
with -f json, for every table and every GPU of the list; --fields as
fields=; errors raise occcalc.Error with enum occ_status's numbers."""
import json
import os
import re
import subprocess

from tap import Tap

t = Tap()
occcalc = t.package()
_lib = occcalc._lib
OCCCALC = os.environ["OCCCALC"]


def cli(args):
    """occcalc's JSON for args, or None where it refuses them."""
    out = subprocess.run([OCCCALC] + args + ["-f", "json"],
                         capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else None


def refused(call, *args, **kw):
    """The status of occcalc.Error that call raises, or None."""
    try:
        call(*args, **kw)
    except occcalc.Error as e:
        return e.status
    return None


archs = occcalc.archs()
t.ok(archs == cli(["--list-archs"]) and len(archs) > 10,
     "archs(): the %d rows of --list-archs" % len(archs))
gpus = occcalc.gpus()
t.ok(gpus == cli(["--list-gpus"]) and len(gpus) > 10,
     "gpus(): the %d rows of --list-gpus" % len(gpus))

for kind, call, opt in (("list-archs", occcalc.archs, "--list-archs"),
                        ("list-gpus", occcalc.gpus, "--list-gpus")):
    every = [f["field"] for f in occcalc.fields(kind)]
    t.ok(call(fields=every) == cli([opt, "--fields", ",".join(every)]),
         "%s: all %d fields equal the command line's" % (kind, len(every)))

wrong = [a["arch"] for a in archs
         if occcalc.info(a["arch"]) != cli(["--arch", a["arch"],
                                            "--info"])[0]]
t.ok(not wrong, "info(arch): --arch ARCH --info's record, for all %d "
     "tables%s" % (len(archs), " (not: %s)" % wrong if wrong else ""))
by_cc = [a for a in archs if occcalc.info(a["computeCapability"]) !=
         occcalc.info(a["arch"])]
t.ok(not by_cc, "info() takes a compute capability as --arch does")


def gpu_info(name):
    """info(gpu=name), or None where it is refused (a GPU without a
    table)."""
    try:
        return occcalc.info(gpu=name)
    except occcalc.Error:
        return None


wrong = []
for g in gpus:
    want = cli(["--gpu", g["name"], "--info"])
    if gpu_info(g["name"]) != (want[0] if want else None):
        wrong.append(g["name"])
t.ok(not wrong, "info(gpu=NAME): --gpu NAME --info's record, for all %d "
     "GPUs%s" % (len(gpus), " (not: %s)" % wrong if wrong else ""))

some = ["warpSize", "name", "sharedMemCarveoutSizes"]
t.ok(occcalc.info("sm_90", fields=some) ==
     cli(["--arch", "sm_90", "--info", "--fields", ",".join(some)])[0],
     "info(fields=): --fields")

# The statuses the package names errors by are occcalc.h's.
with open(os.environ["HEADER"]) as f:
    enum = re.search(r"enum occ_status \{(.*?)\};", f.read(), re.S).group(1)
names = re.findall(r"^\s*(OCC_[A-Z_]+)", enum, re.M)
numbers = {name: i for i, name in enumerate(names)}
bad = [n for n in dir(_lib) if n.startswith("OCC_ERR_") and
       numbers.get(n) != getattr(_lib, n)]
t.ok(not bad and len(names) > 10,
     "the package's status numbers are enum occ_status's%s" %
     (" (not: %s)" % bad if bad else ""))

t.ok(refused(occcalc.info, "sm_99") == _lib.OCC_ERR_UNKNOWN_ARCH,
     "info() of an arch without a table raises occcalc.Error")
t.ok(refused(occcalc.info, gpu="no-such-gpu") == _lib.OCC_ERR_UNKNOWN_ARCH,
     "info() of a GPU not on the list raises occcalc.Error")
t.ok(refused(occcalc.info, "sm_80", gpu="H200") ==
     _lib.OCC_ERR_INCONSISTENT, "info() of an arch and a GPU that disagree")
t.ok(refused(occcalc.info) == _lib.OCC_ERR_INVALID_INPUT,
     "info() of nothing raises occcalc.Error")
t.ok(refused(occcalc.gpus, fields="nope") is not None and
     refused(occcalc.archs, fields=["arch", "nope"]) is not None,
     "an unknown field raises occcalc.Error")
try:
    occcalc.info(gpu="no-such-gpu")
except occcalc.Error as e:
    t.ok("no-such-gpu" in str(e), "the error names the GPU: %s" % e)
t.done()
