"""import occcalc: occupancy(partition=..., partition_flags=...,
partition_part=...) gives the row occcalc --partition prints for the same
options, alone and with clusters, on GPUs whose parts are measured and
others; fields= goes with cluster= and partition= as --fields does; the
refusals raise occcalc.Error."""
import json
import os
import random
import subprocess

from tap import Tap

t = Tap()
occcalc = t.package()
OCCCALC = os.environ["OCCCALC"]


def cli(args):
    out = subprocess.run([OCCCALC] + args + ["-f", "json"],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        return None
    return json.loads(out.stdout)[0]


def cli_row(args, row):
    return cli(args + ["--fields", ",".join(row)])


def options(rng):
    """occupancy()'s options and the command line's arguments for them."""
    gpu = rng.choice(["H100-SXM", "H200", "A100", "L40S", "H100-PCIe",
                      "RTX-4090", "B200", "T4"])
    block, regs = rng.choice([64, 128, 256, 512]), rng.choice([32, 40, 64])
    opts = {"gpu": gpu, "block": block, "regs": regs,
            "partition": rng.choice([0, 1, 8, 16, 24, 32, 40])}
    args = ["--gpu", gpu, "--block", str(block), "--regs", str(regs),
            "--partition", str(opts["partition"])]
    if rng.random() < 0.5:
        flags = rng.choice(["default", "ignore-coscheduling",
                            "max-cluster-size"])
        opts["partition_flags"] = flags
        args += ["--partition-flags", flags]
    if rng.random() < 0.6:
        part = rng.choice([0, 1, 3, "group", "remaining"])
        opts["partition_part"] = part
        args += ["--partition-part",
                 "group:%d" % part if isinstance(part, int) else part]
    if rng.random() < 0.5:
        size = rng.choice([1, 2, 4, 8])
        opts["cluster"] = size
        args += ["--cluster", str(size)]
    if rng.random() < 0.3:
        opts["grid"] = rng.choice([100, 1000, 5000])
        args += ["--grid", str(opts["grid"])]
    return opts, args


def compared(opts, args):
    """(whether occupancy(**opts) is the command line's row for args, or
    both refuse; whether refused; what each gave)."""
    try:
        row = occcalc.occupancy(**opts)
    except occcalc.Error as e:
        return (cli(args) is None and str(e).startswith("occupancy: "),
                True, e, None)
    want = cli_row(args, row)
    return row == want, False, row, want


rng = random.Random(int(os.environ.get("SEED", "38")))
results = [(args,) + compared(opts, args)
           for opts, args in (options(rng) for _ in range(150))]
tried = len(results)
agree = sum(1 for r in results if r[1])
refused = sum(1 for r in results if r[2])
bad = [(args, row, want) for args, ok, _, row, want in results if not ok][:3]
t.ok(agree == tried, "%d of %d random parts (flags, groups, the "
     "remainder, clusters, grids; %d refused by both) give the command "
     "line's row" % (agree, tried, refused))
for args, row, want in bad:
    t.diag("occcalc %s\n  python: %s\n  cli:    %s" % (" ".join(args), row,
                                                       want))

row = occcalc.occupancy(gpu="H100-SXM", block=128, regs=40, partition=16)
t.ok(row["partition_part"] == "group 0" and row["partition_groups"] == 8 and
     row["partition_part_sms"] == 16 and list(row)[-4:] ==
     ["partition_part", "partition_groups", "partition_sms",
      "partition_part_sms"] and
     row == cli_row(["--gpu", "H100-SXM", "--block", "128", "--regs", "40",
                     "--partition", "16"], row),
     "partition=16 on H100-SXM: group 0 of 8 groups of 16 SMs, the "
     "command line's row and fields")
row = occcalc.occupancy(gpu="H100-SXM", block=128, regs=40, partition=16,
                        cluster=2)
t.ok(row["layout_source"].startswith("--partition group 0 of H100-SXM") and
     row == cli_row(["--gpu", "H100-SXM", "--block", "128", "--regs", "40",
                     "--partition", "16", "--cluster", "2"], row),
     "with cluster=2: the part's measured GPCs, as the command line says")
names = ["partition_bound", "occupancy_pct", "cluster_size",
         "max_active_clusters", "partition_layout", "min_grid_size"]
row = occcalc.occupancy(gpu="H100-SXM", block=256, regs=32, partition=8,
                        partition_part="remaining", cluster=2, fields=names)
t.ok(list(row) == names and row == cli_row(
    ["--gpu", "H100-SXM", "--block", "256", "--regs", "32", "--partition",
     "8", "--partition-part", "remaining", "--cluster", "2"], row),
     "fields= with cluster= and partition=: the fields of the three, in "
     "the order given, the command line's values")
row = occcalc.occupancy(gpu="H200", block=128, cluster="best",
                        fields="cluster_best_size,occupancy_pct")
t.ok(list(row) == ["cluster_best_size", "occupancy_pct"] and
     row == cli_row(["--gpu", "H200", "--block", "128", "--cluster",
                     "best"], row), "fields= with cluster='best'")

def refusal(kwargs):
    """occcalc.Error's message for occupancy(**kwargs), or None."""
    try:
        occcalc.occupancy(block=128, **kwargs)
    except occcalc.Error as e:
        return str(e)
    return None


for what, kwargs, word in (
        ("a part of a GPU of unknown SMs", {"arch": "sm_90",
                                            "partition": 8}, "SMs"),
        ("a minCount above the GPU's SMs", {"gpu": "H100-SXM",
                                            "partition": 200}, "200"),
        ("a flag that is not one", {"gpu": "H100-SXM", "partition": 8,
                                    "partition_flags": "fast"}, "fast"),
        ("both flags", {"gpu": "H100-SXM", "partition": 8,
                        "partition_flags": "ignore-coscheduling,"
                        "max-cluster-size"}, "together"),
        ("a part that is not one", {"gpu": "H100-SXM", "partition": 8,
                                    "partition_part": "half"}, "half"),
        ("a group the split does not make", {"gpu": "H100-SXM",
                                             "partition": 16,
                                             "partition_part": 40},
         "group"),
        ("partition_part= without partition=", {"gpu": "H100-SXM",
                                                "partition_part": 1},
         "partition="),
        ("a cluster field without cluster=", {"gpu": "H100-SXM",
                                              "partition": 8,
                                              "fields": "cluster_size"},
         "cluster_size")):
    message = refusal(kwargs)
    t.ok(message is not None and word in message and
         message.startswith("occupancy: "),
         "%s raises occcalc.Error naming it: %s" % (what, message))
t.done()
