"""import occcalc: occupancy() and best_block() give the rows the command
line prints for the same options, on random configurations of every
architecture; errors raise occcalc.Error; nothing is kept between
calls (threads get the same rows)."""
import json
import os
import random
import subprocess
import sys
import threading

from tap import Tap

t = Tap()
try:
    import occcalc
except ImportError as e:
    t.skip_all("occcalc does not import: %s" % e)

OCCCALC = os.environ["OCCCALC"]


def cli(args):
    out = subprocess.run([OCCCALC] + args + ["-f", "json"],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise RuntimeError("occcalc %s: %s" % (" ".join(args), out.stderr))
    return json.loads(out.stdout)


def cli_row(args, fields):
    rows = cli(args + ["--fields", ",".join(fields)])
    return rows[0] if len(rows) == 1 else None


archs = [r["arch"] for r in cli(["--list-archs"])]
gpus = [r["name"] for r in cli(["--list-gpus"])]

row = occcalc.occupancy(arch="sm_90", block=128, regs=40)
t.ok(row["blocks_per_sm"] == 12 and row["occupancy_pct"] == 75.0 and
     row["limiter"] == ["registers"],
     "sm_90, 128 threads, 40 registers: 12 blocks, 75 %, registers")
t.ok(row == cli_row(["--arch", "sm_90", "--block", "128", "--regs", "40"],
                    list(row)),
     "the row equals occcalc --arch sm_90 --block 128 --regs 40's, "
     "field for field")
t.ok(list(row)[:9] == ["arch", "block", "regs", "smem", "static_smem",
                       "blocks_per_sm", "warps_per_sm", "occupancy_pct",
                       "limiter"],
     "its fields come in the command line's order")


def random_options(rng):
    """Options and the command line's arguments for them."""
    opts, args = {}, []
    if rng.random() < 0.3 and gpus:
        opts["gpu"] = rng.choice(gpus)
        args += ["--gpu", opts["gpu"]]
    else:
        opts["arch"] = rng.choice(archs)
        args += ["--arch", opts["arch"]]
    if rng.random() < 0.8:
        if rng.random() < 0.2:
            shape = (rng.choice([8, 16, 32]), rng.choice([1, 2, 4, 8]))
            opts["block"] = shape
            args += ["--block", "%dx%d" % shape]
        else:
            opts["block"] = rng.randrange(1, 1025)
            args += ["--block", str(opts["block"])]
    if rng.random() < 0.9:
        opts["regs"] = rng.randrange(0, 256)
        args += ["--regs", str(opts["regs"])]
    for key, opt, top in (("smem", "--smem", 200000),
                          ("static_smem", "--static-smem", 48000),
                          ("smem_per_thread", "--smem-per-thread", 64)):
        if rng.random() < 0.3:
            opts[key] = rng.randrange(0, top)
            args += [opt, str(opts[key])]
    if rng.random() < 0.3:
        opts["carveout"] = rng.choice([0, 25, 50, 100, rng.randrange(101)])
        args += ["--carveout", str(opts["carveout"])]
    if rng.random() < 0.2:
        opts["optin"] = False
        args += ["--no-optin"]
    if rng.random() < 0.2:
        opts["barriers"] = rng.randrange(1, 17)
        args += ["--barriers", str(opts["barriers"])]
    if rng.random() < 0.4:
        opts["grid"] = rng.randrange(1, 100000)
        args += ["--grid", str(opts["grid"])]
        if "gpu" not in opts or rng.random() < 0.3:
            opts["sms"] = rng.randrange(1, 200)
            args += ["--sms", str(opts["sms"])]
    if rng.random() < 0.3:
        opts["headroom"] = True
        args += ["--headroom"]
    if rng.random() < 0.25:
        opts["cluster"] = rng.choice([1, 2, 4, 8, 16, "best", (2, 2),
                                      (2, 1, 2)])
        c = opts["cluster"]
        args += ["--cluster", c if isinstance(c, str) else str(c)
                 if isinstance(c, int) else "x".join(map(str, c))]
    return opts, args


rng = random.Random(int(os.environ.get("OCCCALC_TEST_SEED", "38")))
agree = tried = 0
bad = []
for i in range(300):
    opts, args = random_options(rng)
    try:
        row = occcalc.occupancy(**opts)
    except occcalc.Error as e:
        row = e
    want = None
    out = subprocess.run([OCCCALC] + args + ["-f", "json"],
                         capture_output=True, text=True)
    if isinstance(row, occcalc.Error):
        ok = out.returncode == 2 or not out.stdout.strip()
    else:
        want = cli_row(args, list(row))
        ok = row == want
    tried += 1
    agree += ok
    if not ok and len(bad) < 3:
        bad.append((args, row, want))
t.ok(agree == tried, "%d of %d random configurations (every architecture, "
     "GPUs of the list, shapes, shared memory, carveouts, grids, headroom, "
     "clusters) give the command line's row" % (agree, tried))
for args, row, want in bad:
    t.diag("occcalc %s\n  python: %s\n  cli:    %s" % (" ".join(args), row,
                                                       want))

best = occcalc.best_block(arch="sm_86", regs=64)
t.ok(best == cli_row(["--arch", "sm_86", "--regs", "64"], list(best)) and
     best["ties"] and best["block"] == best["ties"][0],
     "best_block(): the command line's best block, first of its ties")

row = occcalc.occupancy(gpu="H100-SXM", block=128, regs=40, cluster=2)
t.ok(row["max_active_clusters"] == 528 and row["layout"] ==
     "8,16x5,18x2,2x4" and row == cli_row(
         ["--gpu", "H100-SXM", "--block", "128", "--regs", "40",
          "--cluster", "2"], list(row)),
     "cluster=2 on H100-SXM: 528 clusters on its measured layout, the "
     "command line's row")
row = occcalc.occupancy(arch="sm_90", block=256, regs=32,
                        fields=["occupancy_pct", "limiter"])
t.ok(list(row) == ["occupancy_pct", "limiter"],
     "fields= picks and orders fields")
row = occcalc.occupancy(arch="sm_90", block=256, regs=32, headroom=True)
t.ok("regs_gain_at" in row and row == cli_row(
    ["--arch", "sm_90", "--block", "256", "--regs", "32", "--headroom"],
    list(row)), "headroom=True adds the steps, as --headroom does")

for what, kwargs, word in (
        ("an architecture without a table", {"arch": "sm_99"}, "sm_99"),
        ("a name that is no architecture", {"arch": "ampere"}, "ampere"),
        ("a GPU the list does not hold", {"gpu": "no-such-gpu"},
         "no-such-gpu"),
        ("an unknown field", {"arch": "sm_90", "fields": "blocks"},
         "blocks"),
        ("--arch and --gpu that disagree",
         {"arch": "sm_80", "gpu": "H100-SXM"}, "H100-SXM"),
        ("a cluster on a GPU of unknown layout", {"arch": "sm_90",
                                                  "cluster": 2}, "layout")):
    try:
        occcalc.occupancy(block=128, **kwargs)
        t.ok(False, "%s raises occcalc.Error" % what)
    except occcalc.Error as e:
        t.ok(word in str(e) and str(e).startswith("occupancy: "),
             "%s raises occcalc.Error naming it: %s" % (what, e))

names = [f["field"] for f in occcalc.fields()]
listed = [r["field"] for r in cli(["--list-fields"]) if
          r["kind"] == "occupancy"]
t.ok(names == listed[:len(names)],
     "fields(): the library's occupancy fields, as --list-fields lists "
     "them first (%d)" % len(names))

results = {}


def worker(n):
    results[n] = [occcalc.occupancy(arch="sm_80", block=32 * (n + k % 8),
                                    regs=k % 200) for k in range(200)]


threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
t.ok(all(results[n] == [occcalc.occupancy(arch="sm_80",
                                          block=32 * (n + k % 8),
                                          regs=k % 200)
                        for k in range(200)] for n in range(4)),
     "four threads at once get the rows one thread gets")
t.done()
