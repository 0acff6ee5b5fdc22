"""occcalc.compare(): the rows of `occcalc --kernels NEW --compare OLD -f
json` for two builds' rows as Python holds them (what --kernels -f json
wrote, loaded), on random changes of a compiler report (kernels removed,
registers and shared memory changed; a fixed seed), with --block, --all
and --fields; rows that are not --kernels' refused as --compare refuses
them."""
import json
import os
import random
import re
import subprocess
import tempfile

from tap import Tap

t = Tap()
occcalc = t.package()
OCCCALC = os.environ["OCCCALC"]
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "fixtures")
rng = random.Random(38)
tmp = tempfile.mkdtemp()


def entries(path):
    """A report's kernels: the lines of each, from its 'Compiling'."""
    out, cur = [], None
    head = []
    with open(path) as f:
        for line in f:
            if "Compiling entry function" in line:
                cur = [line]
                out.append(cur)
            elif cur is None:
                head.append(line)
            else:
                cur.append(line)
    return head, out


def mutated(head, kernels):
    """Some kernels dropped, some with other registers or shared memory."""
    lines = list(head)
    for k in kernels:
        if rng.random() < 0.15:
            continue
        for line in k:
            if rng.random() < 0.3:
                line = re.sub(r"Used \d+ registers", "Used %d registers" %
                              rng.randint(8, 255), line)
            if rng.random() < 0.2:
                line = re.sub(r"\d+ bytes smem", "%d bytes smem" %
                              rng.choice([0, 512, 4096, 40000]), line)
            lines.append(line)
    return "".join(lines)


def run(args):
    out = subprocess.run([OCCCALC] + args, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("occcalc %s: %s" % (" ".join(args), out.stderr))
    return out.stdout


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


same = tried = 0
changes = {}
for report in ("ptxas-sm90.txt", "ptxas-multi.txt"):
    head, kernels = entries(os.path.join(FIXTURES, report))
    for i in range(12):
        old = write("old.txt", mutated(head, kernels))
        new = write("new.txt", mutated(head, kernels))
        block = ["-b", str(32 * rng.randint(1, 32))] if i % 3 else []
        every = ["--all"] if rng.random() < 0.5 else []
        fields = (["--fields", "change,kernel,arch,d_regs,old_smem,smem,"
                   "d_occupancy_pct,limiter"] if i % 4 == 0 else [])
        old_json = write("old.json", run(["--kernels", old, "-f", "json"] +
                                         block))
        with open(old_json) as f:
            old_rows = json.load(f)
        new_rows = json.loads(run(["--kernels", new, "-f", "json"] + block))
        want = json.loads(run(["--kernels", new, "--compare", old_json,
                               "-f", "json"] + block + every + fields))
        got = occcalc.compare(old_rows, new_rows, block=bool(block),
                              all=bool(every),
                              fields=fields[1] if fields else None)
        tried += 1
        for r in want:
            changes[r["change"]] = changes.get(r["change"], 0) + 1
        if got == want:
            same += 1
        else:
            t.diag("%s %s %s %s: %s, want %s" % (report, block, every,
                                                 fields, got, want))
t.ok(tried == 24 and same == tried, "compare() gives --compare's rows for "
     "%d random pairs of builds (%d the same)" % (tried, same))
t.ok(len(changes) == 4, "with kernels changed, added, removed and "
     "unchanged among them (%s)" % sorted(changes.items()))

base = json.loads(run(["--kernels", os.path.join(FIXTURES,
                                                 "ptxas-sm90.txt"),
                       "-b", "256", "-f", "json"]))
changed = [dict(r) for r in base]
changed[0]["regs"] = changed[0]["regs"] + 8
rows = occcalc.compare(base, changed, block=True)
t.ok(len(rows) == 1 and rows[0]["change"] == "changed" and
     rows[0]["d_regs"] == 8 and "regs" in rows[0]["changed"].split("+"),
     "a dict changed in Python: its delta, exactly")
v = occcalc.check("d_regs <= 0", rows[0], kind="compare")
t.ok(v.value is False and v.failures[0]["values"] == {"d_regs": "8"},
     "check(kind='compare') judges a compare row, as --compare --check")
t.ok(occcalc.compare(base, base, block=True) == [] and
     len(occcalc.compare(base, base, block=True, all=True)) == len(base),
     "the same rows: nothing changed (all=True lists them)")
t.ok([r["change"] for r in occcalc.compare(base[:1], [])] == ["removed"]
     and [r["change"] for r in occcalc.compare([], base[:1])] == ["added"],
     "a kernel one side lacks: removed, or added")


def refused(*args, **kw):
    try:
        occcalc.compare(*args, **kw)
    except occcalc.Error as e:
        return e.name, str(e)
    return None, None


name, text = refused(base, [{"regs": 3}])
t.ok(name == "OCC_ERR_MISSING_KEY" and "new row 1 has no kernel or "
     "mangled" in text, "a row without its kernel: refused (%s)" % text)
name, text = refused([dict(base[0], regs="many")], base)
t.ok(name == "OCC_ERR_BAD_VALUE" and "old row 1: regs: 'many' is not a "
     "number" in text, "a number that is none: refused (%s)" % text)
name, text = refused(base, base, fields="change,regz")
t.ok(name == "OCC_ERR_UNKNOWN_KEY" and "regz" in text,
     "a field compare rows lack: refused (%s)" % text)
t.done()
