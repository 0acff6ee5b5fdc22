"""occcalc.check(): the verdict of `occcalc --check` (its exit status) on
random expressions over the rows of random occupancy configurations (a
fixed seed), the failing comparisons it names, and a malformed
expression refused at the column the command line gives."""
import os
import random
import subprocess

from tap import Tap

t = Tap()
occcalc = t.package()
OCCCALC = os.environ["OCCCALC"]
rng = random.Random(38)

ARCHS = ["sm_70", "sm_80", "sm_86", "sm_90"]
OPS = ["==", "!=", "<", "<=", ">", ">="]
KINDS = {f["field"]: f["type"] for f in occcalc.fields("occupancy")
         if f["type"] != "list"}
EVERY = [f["field"] for f in occcalc.fields("occupancy")]


def config():
    return {"arch": rng.choice(ARCHS), "block": 32 * rng.randint(1, 32),
            "regs": rng.randint(0, 255),
            "smem": rng.choice([0, 1024, 12000, 48 << 10, 100 << 10])}


def args(c):
    return ["--arch", c["arch"], "--block", str(c["block"]),
            "--regs", str(c["regs"]), "--smem", str(c["smem"])]


def number(v):
    """A literal near v (a row's number), or any where v is absent."""
    if v is None:
        return str(rng.randint(0, 100))
    x = rng.choice([v, v, v + 1, v - 1, v * 2, 0.01, v + 0.5])
    if rng.random() < 0.3 and isinstance(x, float):
        return "%.2f" % x      # trailing zeros: compared exactly
    return repr(x) if isinstance(x, float) else str(x)


def literal(name, row):
    kind, v = KINDS[name], row.get(name)
    if rng.random() < 0.1:
        return "none"
    if kind in ("integer", "decimal"):
        return number(v)
    if kind == "boolean":
        return rng.choice(["true", "false"])
    if kind == "set":
        return "'%s'" % rng.choice(["+".join(v or []), "registers",
                                    "warps", ""])
    return "'%s'" % rng.choice([v or "", "sm_90", "x"])


def comparison(row):
    name = rng.choice(sorted(KINDS))
    lit = literal(name, row)
    ordered = KINDS[name] in ("integer", "decimal") and lit != "none"
    op = rng.choice(OPS if ordered else OPS[:2])
    return "%s %s %s" % (name, op, lit)


def expression(row, depth=0):
    r = rng.random()
    if depth >= 3 or r < 0.4:
        return comparison(row)
    if r < 0.5:
        return "!(%s)" % expression(row, depth + 1)
    return "(%s) %s %s" % (expression(row, depth + 1),
                           rng.choice(["&&", "||"]),
                           expression(row, depth + 1))


def cli(c, expr):
    """--check's exit status and messages on the row of c, all fields
    asked for as of occupancy() (--check computes only what is printed)."""
    out = subprocess.run([OCCCALC] + args(c) + ["--check", expr, "-f",
                                                  "json", "--fields",
                                                  ",".join(EVERY)],
                         capture_output=True, text=True)
    return out.returncode, out.stderr


agree = tried = named = 0
seen = {True: 0, False: 0, None: 0}
for i in range(200):
    c = config()
    try:
        row = occcalc.occupancy(arch=c["arch"], block=c["block"],
                                regs=c["regs"], smem=c["smem"],
                                fields=EVERY)
    except occcalc.Error:
        continue
    expr = expression(row)
    v = occcalc.check(expr, row)
    status, err = cli(c, expr)
    tried += 1
    seen[v.value] += 1
    if status == (1 if v.value is False else 0):
        agree += 1
    else:
        t.diag("%s --check %r: exit %d, check() %r" % (" ".join(args(c)),
                                                        expr, status, v))
    if all(f["comparison"] in err for f in v.failures):
        named += 1
    else:
        t.diag("%r: %s not in %r" % (expr, v.failures, err))
t.ok(tried > 100 and agree == tried, "check() gives --check's verdict on "
     "%d random expressions and configurations (%d agree)" % (tried, agree))
t.ok(named == tried, "and names the comparisons --check says fail")
t.ok(min(seen.values()) >= 10, "true, false and undecided all judged "
     "(%d, %d, %d)" % (seen[True], seen[False], seen[None]))

row = occcalc.occupancy(arch="sm_90", block=128, regs=168)
v = occcalc.check("regs <= 128 && occupancy_pct >= 18.750", row)
t.ok(v.value is False and v.failures == [
    {"comparison": "regs <= 128", "column": 1, "values": {"regs": "168"}}],
    "a failure: the comparison, its column, the field's value")
t.ok(occcalc.check("occupancy_pct == 18.75 && limiter == 'registers'",
                   row) == (True, [], None),
     "decimals exactly, sets '+'-joined")
t.ok(occcalc.check("grid > 1", row) == (None, [], "grid") and
     occcalc.check("grid == none", row).value is True,
     "an absent field: undecided (None), named; '== none' is true")
t.ok(occcalc.check("regs > 1", '{"regs": 2}').value is True,
     "a row's JSON text is a row")

for expr in ("regs = 3", "regz > 1", "arch < 'sm_90'", "(regs > 1",
             "limiter > 3"):
    try:
        occcalc.check(expr, row)
        t.ok(False, "%r: refused" % expr)
        continue
    except occcalc.Error as e:
        status, err = cli({"arch": "sm_90", "block": 128, "regs": 168,
                           "smem": 0}, expr)
        where = "column %d: " % e.column
        t.ok(e.name == "OCC_ERR_SYNTAX" and status == 2 and
             str(e).split(where, 1)[1] in err and where in err,
             "%r refused as --check refuses it: %s" % (expr, e))
for bad in ('{"regs": 1}{"regs": 2}', "[1]", "{"):
    try:
        occcalc.check("regs > 0", bad)
        t.ok(False, "%r: refused" % bad)
    except occcalc.Error as e:
        t.ok(e.name == "OCC_ERR_SYNTAX", "row %r refused: %s" % (bad, e))
t.done()
