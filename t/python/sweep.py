"""import occcalc: sweep() gives the rows occcalc -f jsonl prints for the
same lists and ranges (--block, --regs, --smem, --static-smem) on the
same GPU or architecture lists, in its order, for random sweeps (a fixed
seed); each value may be a number, a text of the grammar, a list or a
range; refusals raise occcalc.Error in the command line's words."""
import json
import os
import random
import subprocess

from tap import Tap

t = Tap()
occcalc = t.package()
OCCCALC = os.environ["OCCCALC"]


def run(args):
    return subprocess.run([OCCCALC] + args, capture_output=True, text=True)


def cli_rows(args, fields):
    out = run(args + ["-f", "jsonl", "--fields", ",".join(fields)])
    if out.returncode not in (0, 1):
        return "occcalc %s: %s" % (" ".join(args), out.stderr)
    return [json.loads(line) for line in out.stdout.splitlines()]


archs = [r["arch"] for r in json.loads(run(["--list-archs", "-f",
                                            "json"]).stdout)]
ccs = {a.replace("sm_", "") for a in archs}
gpus = [r["name"] for r in json.loads(run(["--list-gpus", "-f",
                                           "json"]).stdout)
        if r["computeCapability"].replace(".", "") in ccs]


def values(rng, low, high, suffix=False):
    """A swept option's values: (Python's, the command line's)."""
    pick = rng.random()
    if pick < 0.25:
        v = rng.randrange(low, high)
        return v, str(v)
    if pick < 0.5:
        vs = [rng.randrange(low, high) for _ in range(rng.randrange(1, 4))]
        return vs, ",".join(map(str, vs))
    start = rng.randrange(low, high)
    end = rng.randrange(start, high)
    step = rng.randrange(1, max(2, (end - start) // 2 + 1))
    if pick < 0.75:
        return range(start, end + 1, step), "%d:%d:%d" % (start, end, step)
    if suffix and start % 1024 == 0:
        text = "%dK:%d:%d" % (start // 1024, end, step)
    else:
        text = "%d:%d:%d" % (start, end, step)
    return text, text


def blocks(rng):
    if rng.random() < 0.3:
        shape = (rng.choice([8, 16, 32]), rng.choice([1, 2, 4]))
        n = rng.randrange(32, 1025)
        return [shape, n], "%dx%d,%d" % (shape + (n,))
    return values(rng, 1, 1025)


def targets(rng):
    """arch= or gpu= (one or a list), and the command line's option."""
    use_gpu = rng.random() < 0.5
    names = gpus if use_gpu else archs
    chosen = rng.sample(names, rng.choice([1, 1, 2, 3]))
    key = "gpu" if use_gpu else "arch"
    given = chosen if rng.random() < 0.5 else ",".join(chosen)
    return {key: given}, ["--" + key, ",".join(chosen)]


def random_sweep(rng):
    opts, args = targets(rng)
    for key, opt, low, high, p in (("block", "--block", 1, 1025, 0.9),
                                   ("regs", "--regs", 0, 256, 0.7),
                                   ("smem", "--smem", 0, 65536, 0.3),
                                   ("static_smem", "--static-smem", 0,
                                    16384, 0.3)):
        if rng.random() < p:
            py, text = blocks(rng) if key == "block" else \
                values(rng, low, high, suffix=key != "regs")
            opts[key] = py
            args += [opt, text]
    if rng.random() < 0.2:
        opts["carveout"] = rng.choice([0, 50, 100])
        args += ["--carveout", str(opts["carveout"])]
    if rng.random() < 0.2:
        opts["headroom"] = True
        args += ["--headroom"]
    if "gpu" in opts and rng.random() < 0.3:
        opts["grid"] = rng.randrange(1, 5000)
        args += ["--grid", str(opts["grid"])]
    return opts, args


rng = random.Random(20261129)
agree = tried = 0
for i in range(60):
    opts, args = random_sweep(rng)
    try:
        rows = list(occcalc.sweep(**opts))
    except occcalc.Error as e:
        t.diag("sweep(%r) refused: %s" % (opts, e))
        continue
    if len(rows) > 400:
        continue
    tried += 1
    expect = cli_rows(args, list(rows[0]))
    if rows == expect:
        agree += 1
    else:
        t.diag("sweep(%r) differs from occcalc %s" % (opts, " ".join(args)))
        t.diag("got %s" % (rows[:2],))
        t.diag("expected %s" % (expect[:2] if isinstance(expect, list)
                                else expect,))
t.ok(tried >= 40 and agree == tried,
     "random sweeps: %d of %d equal the command line's rows, field for "
     "field and in its order" % (agree, tried))

rows = list(occcalc.sweep(gpu="H100-SXM,A100-SXM4-80GB", block="128,256",
                          regs=range(32, 65, 32)))
t.ok(len(rows) == 8 and list(rows[0])[0] == "gpu" and
     list(rows[0])[-1] == "can_launch" and rows[0]["gpu"] == "H100-SXM" and
     rows[4]["gpu"] != "H100-SXM" and
     rows == cli_rows(["--gpu", "H100-SXM,A100-SXM4-80GB", "--block",
                       "128,256", "--regs", "32:64:32"], list(rows[0])),
     "a GPU list: gpu first, can_launch last, a GPU's rows together, as "
     "the command line's")
rows = list(occcalc.sweep(arch="sm_90", block=[(16, 16), 64],
                          smem="0:16K:8K"))
t.ok(len(rows) == 6 and rows[0]["block_shape"] == "16x16" and
     rows[3]["block_shape"] is None and rows[1]["smem"] == 8192 and
     "gpu" not in rows[0],
     "shapes: block_shape in every row; the dynamic memory innermost")
g = occcalc.sweep(arch="sm_80", block="1:2000000000")
first = next(g)
g.close()
t.ok(first["block"] == 1, "a sweep of two billion rows is taken one by one "
     "and stops when its iterator is closed")

refusals = [
    (dict(arch="sm_80", block=0), ["--arch", "sm_80", "--block", "0"]),
    (dict(arch="sm_80", regs="300"), ["--arch", "sm_80", "--regs", "300"]),
    (dict(arch="sm_80", regs="64:32"), ["--arch", "sm_80", "--regs",
                                        "64:32"]),
    (dict(arch="sm_80", smem="1:8:0"), ["--arch", "sm_80", "--smem",
                                        "1:8:0"]),
    (dict(arch="sm_80", static_smem=-4), ["--arch", "sm_80",
                                          "--static-smem", "-4"]),
    (dict(arch="sm_80", block="2x2x128"), ["--arch", "sm_80", "--block",
                                           "2x2x128"]),
    (dict(arch="sm_80", block="16x"), ["--arch", "sm_80", "--block", "16x"]),
    (dict(arch="sm_80", block="32,,64"), ["--arch", "sm_80", "--block",
                                          "32,,64"]),
    (dict(arch="sm_80", regs="lots"), ["--arch", "sm_80", "--regs", "lots"]),
    (dict(gpu="H100-SXM,,A100"), ["--gpu", "H100-SXM,,A100"]),
]
for opts, args in refusals:
    out = run(args)
    cli_words = out.stderr.strip().split(": ", 2)[-1]
    try:
        list(occcalc.sweep(**opts))
        t.ok(False, "sweep(%r) refused" % (opts,))
    except occcalc.Error as e:
        words = str(e).split(": ", 2)[-1]
        t.ok(out.returncode == 2 and words == cli_words and
             e.name.startswith("OCC_ERR_"),
             "sweep(%r): %s, in the command line's words (%s)" %
             (opts, e.name, words))
for opts, name in (
        (dict(gpu="H100-SXM,A100", arch="sm_90"), "OCC_ERR_INVALID_INPUT"),
        (dict(arch="sm_80,sm_95"), "OCC_ERR_UNKNOWN_ARCH"),
        (dict(arch="sm_80,sm_1"), "OCC_ERR_BAD_ARCH_NAME"),
        (dict(gpu="H100,A100"), "OCC_ERR_UNKNOWN_ARCH"),
        (dict(arch="sm_80", fields="nope"), "OCC_ERR_UNKNOWN_KEY"),
        (dict(arch=["sm_80"] * 33), "OCC_ERR_RANGE"),
        (dict(arch="sm_80", block=True), "OCC_ERR_INVALID_INPUT"),
        (dict(arch="sm_80", regs=range(5, 1)), "OCC_ERR_INVALID_INPUT"),
        (dict(block=64), "OCC_ERR_INVALID_INPUT")):
    try:
        list(occcalc.sweep(**opts))
        t.ok(False, "sweep(%r) refused" % (opts,))
    except occcalc.Error as e:
        t.ok(e.name == name, "sweep(%r): %s (%s)" % (opts, e.name, e))
t.done()
