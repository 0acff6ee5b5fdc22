"""occcalc.kernels(): the rows `occcalc --kernels PATH -f jsonl` prints
(--gpu, --arch, --block, --smem, --fields) for the fixtures' compiler
reports, PTX, cubins, fatbins, objects, executables, libraries and a
Triton cache, computed by the library, the cluster launches kernels
declare (__cluster_dims__, Triton's num_ctas) on a GPU named included;
where the command line fails (no image runs on the GPU named), Error,
never other rows; unreadable inputs raise Error."""
import json
import os
import subprocess

from tap import Tap

t = Tap()
occcalc = t.package()

OCCCALC = os.environ["OCCCALC"]
FIX = os.path.join(os.environ["T"], "fixtures")


def cli(path, opts):
    args = [OCCCALC, "--kernels", path, "-f", "jsonl"]
    for k, v in opts.items():
        args += ["--" + k, ",".join(v) if isinstance(v, list) else str(v)]
    out = subprocess.run(args, capture_output=True, text=True)
    return out.returncode, [json.loads(l) for l in out.stdout.splitlines()]


def name(path, opts):
    return "%s %s" % (os.path.relpath(path, FIX),
                      " ".join("%s=%s" % kv for kv in opts.items()))


# Answered: rows equal to the command line's.
answered = [
    ("ptxas-sm90.txt", {}), ("ptxas-sm90.txt", {"gpu": "H100-SXM"}),
    ("ptxas-sm90.txt", {"gpu": "H100-SXM", "smem": 4096}),
    ("ptxas-sm90.txt", {"block": 256}),
    ("ptxas-multi.txt", {}), ("ptxas-multi.txt", {"gpu": "L4"}),
    ("cuobjdump-multi.txt", {"arch": "8.9"}),
    ("ptxas-odd-name.txt", {"gpu": "H100-SXM"}),
    ("ptxas-sm80-maxrreg24.txt", {"arch": "sm_80"}),
    ("cuobjdump-sm90.txt", {"gpu": "H100-SXM"}),
    ("cuobjdump-multi.txt", {"block": 256}),
    ("ptx/kernels.ptx", {}), ("ptx/kernels.ptx", {"gpu": "H100-SXM"}),
    ("ptx/sm90-compute120.o", {}),
    ("bin/sm_80.cubin", {"arch": "sm_80"}),
    ("bin/sm_90a.cubin", {}), ("bin/sm_100a.cubin", {"block": 256}),
    ("bin/relocatable-mixed.fatbin", {"arch": "sm_80"}),
    ("bin/kernels.o", {}), ("bin/libkernels.so", {"gpu": "L4"}),
    ("bin/default.fatbin", {"arch": "sm_90"}),
    ("bin/kernels-rdc.o", {}), ("bin/kernels-rdc.o", {"gpu": "L4"}),
    ("bin/relocatable-mixed.fatbin", {}),
    ("bin/kernels.exe", {"gpu": "A100-SXM4-80GB", "block": 128}),
    ("triton-cache", {}), ("triton-cache", {"block": 256}),
    # Declared clusters: their rows are cluster launches on the GPU's
    # layout, every row with the cluster fields.
    ("triton-cache", {"gpu": "H100-SXM"}), ("triton-cache", {"gpu": "H200"}),
    ("triton-cache", {"arch": "sm_90a"}),
    ("triton-cache", {"gpu": "H100-SXM", "block": 256}),
    ("bin/default.fatbin", {"gpu": "H100-SXM"}),
    ("bin/default.fatbin", {"gpu": "B200"}),
    ("bin/sm_90a.cubin", {"gpu": "H100-SXM"}),
    ("bin/sm_90a.cubin", {"gpu": "H200"}),
    ("bin/kernels.o", {"gpu": "H100-SXM"}),
    ("bin/kernels.exe", {"gpu": "H100-SXM"}),
    ("triton-cache", {"gpu": "H100-SXM",
                      "fields": ["kernel", "occupancy_pct", "cluster",
                                 "cluster_source", "max_active_clusters"]}),
    # No cluster launches: the cluster fields asked are absent.
    ("ptxas-sm90.txt", {"fields": ["kernel", "cluster", "block",
                                   "layout"]}),
    ("triton-cache", {"arch": "sm_90a",
                      "fields": ["kernel", "cluster_size", "block"]}),
    ("ptxas-sm90.txt", {"gpu": "H100-SXM",
                        "fields": ["kernel", "block", "image", "image_why",
                                   "triton_kernel", "occupancy_pct"]}),
]
for rel, opts in answered:
    path = os.path.join(FIX, rel)
    rc, want = cli(path, opts)
    try:
        got = list(occcalc.kernels(path, **opts))
    except occcalc.Error as e:
        got = e
    t.ok(rc == 0 and want and got == want,
         "%s: %d rows, those occcalc --kernels prints" %
         (name(path, opts), len(want)))

# Refused where the command line fails too (no image runs on the GPU
# named).
refused = [
    ("ptxas-multi.txt", {"gpu": "H100-SXM"}),
    ("bin/sm_80.cubin", {"gpu": "H100-SXM"}),
    ("ptxas-sm90.txt", {"arch": "sm_80"}),
]
for rel, opts in refused:
    path = os.path.join(FIX, rel)
    try:
        got = list(occcalc.kernels(path, **opts))
        err = None
    except occcalc.Error as e:
        err = e
    t.ok(err is not None and err.name == "OCC_ERR_UNSUPPORTED" and
         str(err).startswith("kernels: "),
         "%s: Error, not other rows (%s)" % (name(path, opts), err))

missing = os.path.join(FIX, "no-such-input")
for path, status in ((missing, "OCC_ERR_IO"),
                     (os.path.join(FIX, "README"), "OCC_ERR_SYNTAX")):
    try:
        list(occcalc.kernels(path))
        err = None
    except occcalc.Error as e:
        err = e
    t.ok(err is not None and err.name == status,
         "%s: Error %s (%s)" % (os.path.basename(path), status, err))
try:
    list(occcalc.kernels(os.path.join(FIX, "ptxas-sm90.txt"),
                         gpu="no-such-gpu"))
    err = None
except occcalc.Error as e:
    err = e
t.ok(err is not None and "no-such-gpu" in str(err),
     "an unknown gpu: Error naming it (%s)" % err)

# A stream: stopping early stops the read; the kind's fields listed.
rows = occcalc.kernels(os.path.join(FIX, "triton-cache"))
first = next(rows)
rows.close()
t.ok("kernel" in first, "stopping after the first row")
names = [f["field"] for f in occcalc.fields("kernels")]
t.ok("mangled" in names and "num_ctas" in names and "occupancy_pct" in names,
     "occcalc.fields('kernels'): the configuration's and the kernel's")
# A library users have: the toolkit's cuSPARSE (5,221 kernels for an H100
# in CUDA 13.0), row for row, streamed.
lib = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                   "lib64", "libcusparse.so")
if os.path.exists(lib):
    st, want = cli(lib, {"gpu": "H100-SXM"})
    got = list(occcalc.kernels(lib, gpu="H100-SXM"))
    t.ok(st == 0 and len(want) > 1000 and got == want,
         "the toolkit's libcusparse.so on an H100: %d rows, those occcalc "
         "--kernels prints" % len(got))
else:
    t.skip("no %s here" % lib)
t.done()
