#!/usr/bin/env python3
"""traffic.py - the launch traffic model against Nsight Compute.

Each case is a kernel described as its accesses (the C-like text occcalc
reads) and a launch. The coalescing study's add1-add5 (t/gpu/coalescing.cu)
and the cases below (t/gpu/traffic.cu, one generic kernel launched as
each case says) run under `ncu --clock-control none` with its default
cache control (caches flushed before each kernel). Beside each measured
figure goes the prediction, from occcalc: `occcalc --arch ARCH --traffic
TEXT (--grid G --block B | --count N) --elem E --threads LANES -f csv`,
its load and store rows. Instructions, requests and L1 sectors must be
equal; L2 sectors and device-memory bytes are checked against the
predicted range, and when outside, the case says which way. Fails if an
exact figure differs.

Usage: traffic.py OCCCALC REPORT.md [REPORT.csv]
"""
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu as profiler  # noqa: E402

METRICS = {
    "ld_inst": "smsp__inst_executed_op_global_ld.sum",
    "st_inst": "smsp__inst_executed_op_global_st.sum",
    "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l2_rd": "lts__t_sectors_srcunit_tex_op_read.sum",
    "l2_wr": "lts__t_sectors_srcunit_tex_op_write.sum",
    "dram_rd": "dram__bytes_read.sum",
    "dram_wr": "dram__bytes_write.sum",
}


def a(name, stride=1, offset=0, group=1, xor=0, tid=(0, 0, 0), bid=0,
      bdim=(0, 0, 0)):
    """One access: NAME[(i ^ xor) / group * stride + offset + tid[0] *
    threadIdx.x + tid[1] * threadIdx.y + tid[2] * threadIdx.z +
    bid * b + bdim[0] * blockIdx.x + bdim[1] * blockIdx.y +
    bdim[2] * blockIdx.z], b the block's number (x fastest)."""
    return (name, stride, offset, group, xor, tid, bid, bdim)


def index_text(stride, offset, group, xor, tid=(0, 0, 0), bid=0,
               bdim=(0, 0, 0)):
    if stride == 0:
        return str(offset)
    i = "(i^%d)" % xor if xor else "i"
    if group > 1:
        i = "%s/%d" % (i, group) if xor else "(i/%d)" % group
    if stride != 1:
        i = "%s*%d" % (i, stride)
    return i + ("+%d" % offset if offset else "")


def text(loads, store):
    def one(x):
        return "%s[%s]" % (x[0], index_text(*x[1:]))
    return "%s = %s" % (one(store), " + ".join(one(x) for x in loads))


# The index forms written as a kernel writes them (the text occcalc
# reads, with --define) beside the access each is: the kernel runs the
# access, occcalc reads the text, so a text read wrong shows as a
# difference in the exact figures.
# (what it shows, element bytes, launch, active lanes, loads, store,
#  text, --define)
N = 256000
TILE = ("int row = blockIdx.y*blockDim.y + threadIdx.y; "
        "int col = blockIdx.x*blockDim.x + threadIdx.x; ")
FORMS = [
    ("form i+c, i-c: stencil reading x[-1]", 4, ("grid", 2000, 128), 32,
     [a("x", 1, 1), a("x", 1, -1)], a("y"),
     "y[i] = x[i+1] + x[i-1]", ""),
    ("form c-i: reversed, one element past each line", 4,
     ("grid", 2000, 128), 32, [a("x", -1, N)], a("y"),
     "y[i] = x[N-i]", "N=%d" % N),
    ("form c-1-i: reversed store and load", 4, ("grid", 2000, 128), 32,
     [a("x", -1, N - 1)], a("y", -1, N - 1),
     "y[N-1-i] = x[N-1-i]", "N=%d" % N),
    ("form i*k: x[i*stride], stride=3", 4, ("grid", 1000, 128), 32,
     [a("x", 3)], a("y"), "y[i] = x[i*stride]", "stride=3"),
    ("form k*i+c: doubles x[2*i+c], c=5", 8, ("grid", 1000, 128), 32,
     [a("x", 2, 5)], a("y"), "y[i] = x[2*i+c]", "c=5"),
    ("form negative stride: x[c - 2*i]", 4, ("grid", 1000, 128), 32,
     [a("x", -2, 7)], a("y"), "y[i] = x[c - 2*i]", "c=7"),
    ("form row*N+col: a transpose from 32x8 blocks", 4,
     ("grid", 512, "32x8"), 32,
     [a("x", 0, 0, tid=(4096, 1, 0), bid=8)],
     a("y", 0, 0, tid=(1, 4096, 0), bid=8 * 4096),
     "int row = blockIdx.x*blockDim.y + threadIdx.y; int col = "
     "threadIdx.x; y[row*N + col] = x[col*N + row]", "N=4096"),
    ("form threadIdx.x: every block stores y[threadIdx.x]", 4,
     ("grid", 1000, 128), 32, [a("x", 0, 0, tid=(1, 0, 0), bid=128)],
     a("y", 0, 0, tid=(1, 0, 0)),
     "y[threadIdx.x] = x[blockIdx.x*blockDim.x + threadIdx.x]", ""),
    ("form (i^m) and i/g: m=3, g=8, a reversed store", 4,
     ("grid", 1000, 96), 32, [a("x", 1, 0, 8, 3)], a("y", -1, 96000 - 1),
     "y[N-1-i] = x[(i^m)/g]", "N=96000,m=3,g=8"),
    # Tiles of a 2-D grid, placed by blockIdx.x and .y: a 1024 x 1024
    # matrix of floats in 64 x 64 blocks of 16 x 16.
    ("form 2-D tile: y[row*N + col] = x[row*N + col]", 4,
     ("grid", "64x64", "16x16"), 32,
     [a("x", 0, 0, tid=(1, 1024, 0), bdim=(16, 16 * 1024, 0))],
     a("y", 0, 0, tid=(1, 1024, 0), bdim=(16, 16 * 1024, 0)),
     TILE + "y[row*N + col] = x[row*N + col]", "N=1024"),
    ("form 2-D tile, a transpose: y[row*N + col] = x[col*N + row]", 4,
     ("grid", "64x64", "16x16"), 32,
     [a("x", 0, 0, tid=(1024, 1, 0), bdim=(16 * 1024, 16, 0))],
     a("y", 0, 0, tid=(1, 1024, 0), bdim=(16, 16 * 1024, 0)),
     TILE + "y[row*N + col] = x[col*N + row]", "N=1024"),
    ("form 2-D tile, a GEMM's step k=48: C = A tile + B tile", 4,
     ("grid", "64x64", "16x16"), 32,
     [a("A", 0, 48, tid=(1, 1024, 0), bdim=(0, 16 * 1024, 0)),
      a("B", 0, 48 * 1024, tid=(1, 1024, 0), bdim=(16, 0, 0))],
     a("C", 0, 0, tid=(1, 1024, 0), bdim=(16, 16 * 1024, 0)),
     TILE + "C[row*N + col] = A[row*N + k + threadIdx.x] + "
     "B[(k + threadIdx.y)*N + col]", "N=1024,k=48"),
]


# (what it shows, element bytes, launch, active lanes, loads, store):
# launch ("grid", G, B) or ("threads", N).
CASES = [
    ("float add, blocks of 96", 4, ("grid", 1000, 96), 32,
     [a("x"), a("y")], a("z")),
    ("float add, blocks of 100 (partial warps)", 4, ("grid", 999, 100), 32,
     [a("x"), a("y")], a("z")),
    ("float add, 1,000,003 threads", 4, ("threads", 1000003), 32,
     [a("x"), a("y")], a("z")),
    ("bytes", 1, ("grid", 2000, 128), 32, [a("x")], a("z")),
    ("bytes, blocks of 33", 1, ("grid", 3001, 33), 32, [a("x")], a("z")),
    ("shorts offset 3", 2, ("grid", 2000, 128), 32, [a("x", offset=3)],
     a("z", offset=3)),
    ("shorts, blocks of 50", 2, ("grid", 777, 50), 32, [a("x")], a("z")),
    ("doubles add", 8, ("grid", 4000, 256), 32, [a("x"), a("y")], a("z")),
    ("float4 copy", 16, ("grid", 4000, 256), 32, [a("x")], a("z")),
    ("float4 stride 2 offset 1", 16, ("grid", 1000, 256), 32,
     [a("x", 2, 1)], a("z", 2, 1)),
    ("float stride 2, blocks of 160", 4, ("grid", 1000, 160), 32,
     [a("x", 2)], a("z", 2)),
    ("float stride 3 offset 5", 4, ("grid", 1000, 128), 32,
     [a("x", 3, 5)], a("z", 3, 5)),
    ("float stride 32", 4, ("grid", 1000, 128), 32, [a("x", 32)],
     a("z", 32)),
    ("float stride 33, 100,000 threads", 4, ("threads", 100000), 32,
     [a("x", 33)], a("z", 33)),
    ("float stride 1024 load", 4, ("grid", 256, 128), 32, [a("x", 1024)],
     a("z")),
    ("9 active lanes", 4, ("grid", 1000, 128), 9, [a("x")], a("z")),
    ("17 active lanes, doubles", 8, ("grid", 1000, 128), 17, [a("x")],
     a("z")),
    ("C[x] = A[3] + B[x]", 4, ("grid", 1000, 128), 32,
     [a("A", 0, 3), a("B")], a("C")),
    ("read-modify-write x += y", 4, ("grid", 2000, 128), 32,
     [a("x"), a("y")], a("x")),
    ("stencil x[i] + x[i+1]", 4, ("grid", 2000, 128), 32,
     [a("x"), a("x", offset=1)], a("z")),
    ("a warp's own float, blocks of 96", 4, ("grid", 1000, 96), 32,
     [a("x", group=32), a("y", group=32)], a("z", group=32)),
    ("lanes xor 3, blocks of 100", 4, ("grid", 500, 100), 32,
     [a("x", xor=3)], a("z", xor=3)),
    ("doubles, lanes xor 5 offset 7, 50,001 threads", 8,
     ("threads", 50001), 32, [a("x", offset=7, xor=5)],
     a("z", offset=7, xor=5)),
    ("four threads per float, blocks of 72", 4, ("grid", 1111, 72), 32,
     [a("x", group=4)], a("z", group=4)),
    ("gather x[i], scatter z[4*i]", 4, ("grid", 2000, 128), 32, [a("x")],
     a("z", 4)),
    ("one float for the whole grid", 4, ("grid", 1000, 128), 32,
     [a("x"), a("y", 0)], a("z")),
    ("9 threads (one partial warp)", 4, ("threads", 9), 32, [a("A")],
     a("B")),
    ("float add, 8,388,608 threads in blocks of 1024", 4,
     ("grid", 8192, 1024), 32, [a("x"), a("y")], a("z")),
]

# The coalescing study's kernels (t/gpu/coalescing.cu): 131,072 blocks of 64.
SEED = [
    ("add1", [a("x"), a("y")], a("z")),
    ("add2", [a("x", offset=1), a("y", offset=1)], a("z", offset=1)),
    ("add3", [a("x", xor=1), a("y", xor=1)], a("z", xor=1)),
    ("add4", [a("x", group=32), a("y", group=32)], a("z", group=32)),
    ("add5", [a("x", 4), a("y", 4)], a("z", 4)),
]


def arrays(loads, store):
    names = []
    for x in loads + [store]:
        if x[0] not in names:
            names.append(x[0])
    return names


def shape(block):
    """A block or grid (an int or "32x8") as its three dimensions."""
    dims = [int(d) for d in str(block).split("x")]
    return dims + [1] * (3 - len(dims))


def spec(elem, launch, active, loads, store):
    """The case as a line for traffic.cu."""
    if launch[0] == "grid":
        grid, block, threads = launch[1], launch[2], 0
    else:
        threads, block = launch[1], 256
        grid = (threads + block - 1) // block
    names = arrays(loads, store)
    fields = [elem] + shape(grid) + shape(block)
    fields += [threads, active, len(loads)]
    for x in loads + [store]:
        fields += [names.index(x[0]), x[1], x[2], x[3], x[4]]
        fields += list(x[5]) + [x[6]] + list(x[7])
    return " ".join(str(f) for f in fields)


# The prediction's figures: occcalc's field, its row (load or store).
PREDICTED = [
    ("threads", "launch_threads", "load"), ("warps", "warps", "load"),
    ("ld_instructions", "instructions", "load"),
    ("st_instructions", "instructions", "store"),
    ("ld_requests", "requests", "load"), ("st_requests", "requests", "store"),
    ("ld_sectors", "sectors", "load"), ("st_sectors", "sectors", "store"),
    ("ld_lines", "lines", "load"), ("st_lines", "lines", "store"),
    ("ld_requested_bytes", "requested_bytes", "load"),
    ("st_requested_bytes", "requested_bytes", "store"),
    ("l2_read_sectors_min", "l2_sectors_min", "load"),
    ("l2_read_sectors_max", "l2_sectors_max", "load"),
    ("l2_write_sectors_min", "l2_sectors_min", "store"),
    ("l2_write_sectors_max", "l2_sectors_max", "store"),
    ("dram_read_bytes_min", "dram_bytes_min", "load"),
    ("dram_read_bytes_max", "dram_bytes_max", "load"),
    ("dram_write_bytes_min", "dram_bytes_min", "store"),
    ("dram_write_bytes_max", "dram_bytes_max", "store"),
    ("footprint_bytes", "footprint_bytes", "load"),
]


def predict(cmd, arch, elem, launch, active, loads, store, kernel=None,
            define=""):
    args = cmd + ["--arch", arch, "--traffic", kernel or text(loads, store),
                  "--elem", str(elem), "--threads", str(active), "-f", "csv"]
    if define:
        args += ["--define", define]
    if launch[0] == "grid":
        args += ["--grid", str(launch[1]), "--block", str(launch[2])]
    else:
        args += ["--count", str(launch[1])]
    out = subprocess.run(args, check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    rows = {r["op"]: r for r in csv.DictReader(io.StringIO(out))}
    return {k: int(rows[op][field]) for k, field, op in PREDICTED}


def measure(ncu, exe, stdin=None):
    _, launches = profiler.profile(
        ncu, list(METRICS.values()), [exe], stdin=stdin,
        extra=["--kernel-name", "regex:^(traffic|add)"])
    return [{k: int(n[m]) for k, m in METRICS.items()} for n in launches]


def where(value, lo, hi):
    return "in" if lo <= value <= hi else "below" if value < lo else "above"


def compare(p, m):
    """The verdicts: exact figures, then the ranges."""
    exact = (p["ld_instructions"] == m["ld_inst"] and
             p["st_instructions"] == m["st_inst"] and
             p["ld_requests"] == m["ld_req"] and
             p["st_requests"] == m["st_req"] and
             p["ld_sectors"] == m["ld_sec"] and p["st_sectors"] == m["st_sec"])
    return {
        "exact": exact,
        "l2_rd": where(m["l2_rd"], p["l2_read_sectors_min"],
                       p["l2_read_sectors_max"]),
        "l2_wr": where(m["l2_wr"], p["l2_write_sectors_min"],
                       p["l2_write_sectors_max"]),
        "dram_rd": where(m["dram_rd"], p["dram_read_bytes_min"],
                         p["dram_read_bytes_max"]),
        "dram_wr": where(m["dram_wr"], p["dram_write_bytes_min"],
                         p["dram_write_bytes_max"]),
    }


def arch_name():
    cc = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap",
                         "--format=csv,noheader"], check=True,
                        stdout=subprocess.PIPE, text=True).stdout
    return "sm_" + cc.split("\n")[0].strip().replace(".", "")


def build(src, exe):
    nvcc = os.environ.get("NVCC") or "nvcc"
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([nvcc, "-O3", "-arch=native", "-o", exe,
                    os.path.join(here, src)], check=True)


def run_all(predictor, ncu):
    arch = arch_name()
    exe = "./traffic-%d" % os.getpid()
    rows = []
    build("coalescing.cu", exe)
    got = measure(ncu, exe)
    for (name, loads, store), m in zip(SEED, got):
        case = (4, ("grid", 131072, 64), 32, loads, store)
        rows.append((name, case, predict(predictor, arch, *case), m))
    build("traffic.cu", exe)
    cases = CASES + FORMS
    got = measure(ncu, exe, "\n".join(spec(*c[1:6]) for c in cases) + "\n")
    os.unlink(exe)
    if len(got) != len(cases):
        sys.exit("traffic: %d cases but %d kernels profiled"
                 % (len(cases), len(got)))
    for c, m in zip(cases, got):
        rows.append((c[0], c[1:], predict(predictor, arch, *c[1:]), m))
    return arch, rows


def case_text(case):
    """The accesses as occcalc read them (with --define, if any)."""
    if len(case) > 5:
        return case[5] + (" (--define %s)" % case[6] if case[6] else "")
    return text(case[3], case[4])


def launch_text(launch):
    if launch[0] == "grid":
        return "%s x %s" % (launch[1], launch[2])
    return "%d threads" % launch[1]


def rng(lo, hi):
    return "%d" % lo if lo == hi else "%d-%d" % (lo, hi)


# Kernels read this much of their own (code, constants, parameters)
# from device memory after Nsight Compute's flush: about 8.5 KB on H200.
OVERHEAD = 16384


def why(key, side, p, m):
    """What put a measured figure outside its range, as measured on H200
    (docs/traffic-validation.md says how)."""
    if key == "dram_wr" and side == "below":
        return "writes still dirty in L2 when the kernel ended"
    if key == "dram_rd" and side == "above":
        extra = m["dram_rd"] - p["dram_read_bytes_max"]
        if extra <= OVERHEAD:
            return "+%d B: the kernel's code and constants" % extra
        return ("+%d B: 64-byte DRAM reads (a lone sector brings its "
                "neighbour) and partly written sectors read back to be "
                "merged when L2 evicts them" % extra)
    return "**%s %s: unexplained**" % (key, side)


def table_row(name, case, p, m, v):
    elem, launch, active = case[0], case[1], case[2]
    notes = [why(k, v[k], p, m)
             for k in ("l2_rd", "l2_wr", "dram_rd", "dram_wr")
             if v[k] != "in"]
    return ("| %s | `%s` | %d | %s | %d | %d/%d | %d/%d | %d/%d | %d/%d | "
            "%d/%d | %d/%d | %s: %d | %s: %d | %s: %d | %s: %d | %s | %s |\n"
            % (name, case_text(case), elem, launch_text(launch),
               active, p["ld_instructions"], m["ld_inst"],
               p["st_instructions"], m["st_inst"], p["ld_requests"],
               m["ld_req"], p["st_requests"], m["st_req"], p["ld_sectors"],
               m["ld_sec"], p["st_sectors"], m["st_sec"],
               rng(p["l2_read_sectors_min"], p["l2_read_sectors_max"]),
               m["l2_rd"], rng(p["l2_write_sectors_min"],
                                  p["l2_write_sectors_max"]),
               m["l2_wr"], rng(p["dram_read_bytes_min"],
                               p["dram_read_bytes_max"]), m["dram_rd"],
               rng(p["dram_write_bytes_min"], p["dram_write_bytes_max"]),
               m["dram_wr"], "yes" if v["exact"] else "**NO**",
               "; ".join(notes) or "all in range"))


def report(path, arch, rows):
    dev, driver, now = device()
    verdicts = [compare(p, m) for _, _, p, m in rows]
    bad = sum(not v["exact"] for v in verdicts)
    outside = {k: sum(v[k] != "in" for v in verdicts)
               for k in ("l2_rd", "l2_wr", "dram_rd", "dram_wr")}
    with open(path, "w") as f:
        f.write("# The launch traffic model on the GPU: predicted and "
                "measured Memory Tables\n\nMade by `make check-gpu` "
                "(t/gpu/traffic.py) on %s UTC.\n\n- Device: %s (%s)\n"
                "- Driver: %s\n- Cases: %d; instructions, requests and L1 "
                "sectors equal to Nsight Compute's: %d of %d\n"
                "- Outside the predicted range: L2 reads %d, L2 writes %d, "
                "device memory reads %d, writes %d\n- Result: **%s**\n\n"
                % (now, dev, arch, driver, len(rows), len(rows) - bad,
                   len(rows), outside["l2_rd"], outside["l2_wr"],
                   outside["dram_rd"], outside["dram_wr"],
                   "PASS" if not bad else "FAIL"))
        f.write(EXPLAIN)
        f.write("| case | accesses | elem | launch | lanes | ld inst | "
                "st inst | ld req | st req | ld sectors | st sectors | "
                "L2 read sectors | L2 write sectors | DRAM read B | "
                "DRAM write B | exact | ranges |\n")
        f.write("|" + "---|" * 17 + "\n")
        for (name, case, p, m), v in zip(rows, verdicts):
            f.write(table_row(name, case, p, m, v))
    return bad


EXPLAIN = (
    "Each case is one kernel: `z = x + y` style loads and a store, each "
    "access with the pattern its text gives (i is the thread's index in "
    "the grid, `(i^X)` permutes lanes, `/G` shares an element among G "
    "threads), launched as a grid of blocks or as a thread count (blocks "
    "of 256 with `if (i < N)`). The cases named `form` are the index "
    "forms as kernels write them (`x[i-1]`, `x[N-i]`, `x[i*stride]`, "
    "`row*N+col` from a 2-D block, `threadIdx.x`, negative strides), "
    "read by occcalc from that text with `--define`, while the kernel "
    "runs the same access from its coefficients; an element below an "
    "array's start (`x[i-1]` at i = 0) lies in memory allocated below it. "
    "add1-add5 are the coalescing study's own "
    "kernels (t/gpu/coalescing.cu); the others run t/gpu/traffic.cu. Nsight "
    "Compute flushes the caches before each kernel. Pairs are "
    "predicted/measured: `smsp__inst_executed_op_global_ld/st.sum`, "
    "`l1tex__t_requests_pipe_lsu_mem_global_op_ld/st.sum`, "
    "`l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st.sum`; ranges are "
    "predicted: measured for `lts__t_sectors_srcunit_tex_op_read/write.sum`"
    " and `dram__bytes_read/write.sum`. The L2 read range runs from each "
    "distinct sector once (every L1 hit that can happen does) to every L1 "
    "sector (no hit); the L2 write range from each distinct stored "
    "sector once (stores of different requests to one sector merge on "
    "their way to L2) to every store sector; device memory from each "
    "distinct sector once to every sector L2 receives.\n\n"
    "Device memory is the one level the hardware moves beyond the model. "
    "Writes fall below the range when the written data still sits dirty "
    "in the L2 (50 MB on an H100, 60 MB on an H200) as the kernel ends "
    "(Nsight Compute counts only the kernel). Reads rise above it in "
    "three measured ways (figures from an H200 on 2026-11-22 and an H100 "
    "on 2026-11-24): every kernel reads 8.5-10.5 KB of its own code and "
    "constants after the flush (the 9-thread case: 64 B predicted, "
    "8,704 B read on the H200, 10,496 B on the H100); device memory is "
    "read in 64-byte units, so a sector whose neighbour is not needed "
    "still brings it (`x[1024*i]`: 2,105,088 and 2,106,368 B for "
    "1,048,576, twice the sectors); and sectors only partly written are "
    "read back when L2 evicts them to merge the rest (add5: 127-128 MB "
    "more read, against 129-130 MB written back for `z[4*i]`, whose "
    "sectors are a quarter written).\n\n")


def device():
    driver = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version",
         "--format=csv,noheader"], stdout=subprocess.PIPE,
        text=True).stdout.split("\n")[0].split(",")
    import datetime
    now = datetime.datetime.now(datetime.timezone.utc)
    return (driver[0].strip(), driver[-1].strip() if len(driver) > 1 else
            "unknown", now.strftime("%Y-%m-%d %H:%M"))


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        keys = list(rows[0][2].keys())
        w.writerow(["case", "accesses", "elem", "launch", "lanes"] +
                   ["pred_" + k for k in keys] +
                   ["ncu_" + k for k in METRICS])
        for name, case, p, m in rows:
            w.writerow([name, case_text(case), case[0],
                        launch_text(case[1]), case[2]] +
                       [p[k] for k in keys] + [m[k] for k in METRICS])


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().split("\n")[-1])
    predictor = sys.argv[1].split()
    arch, rows = run_all(predictor, os.environ.get("NCU", "ncu"))
    bad = report(sys.argv[2], arch, rows)
    if len(sys.argv) == 4:
        write_csv(sys.argv[3], rows)
    print("traffic: %d cases, %d with instructions, requests or L1 sectors "
          "unlike Nsight Compute's; report in %s" % (len(rows), bad,
                                                     sys.argv[2]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
