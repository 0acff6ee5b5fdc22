"""make check-gpu's Python check (gpu-check-python): on a real GPU,
import occcalc against the driver and PyTorch.

1. occcalc.triton: Triton 3.x kernels compiled for several configs; for
   each, occcalc's blocks per SM (occcalc.triton.config_occupancy) against
   the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor on the
   compiled function; prune_below() keeps exactly the configs at or above
   its bound, as the driver's figures rank them.
2. occcalc.profiler.trace_handler: a profiled PyTorch step written with
   occcalc's figures; every kernel event has them, and they equal
   occcalc.launches() of the same trace written without the handler.
3. occcalc.kernels of the Triton cache those kernels were compiled
   into: each compiled kernel has a row with Triton's launch and the
   driver's blocks per SM.
4. occcalc.launch_summary of that trace: each kernel's launches and
   time-weighted occupancy equal what occcalc.launches() adds up to.
Writes a Markdown report to argv[1]; exits 1 on any disagreement."""
import ctypes
import glob
import gzip
import json
import os
import sys

import tempfile

# A Triton cache of this check's kernels only, for occcalc.kernels() (3.).
CACHE = tempfile.mkdtemp(prefix="occcalc-triton-")
os.environ["TRITON_CACHE_DIR"] = CACHE

import torch  # noqa: E402 (after the cache is chosen)
import triton  # noqa: E402
import triton.language as tl

import occcalc
import occcalc.profiler
import occcalc.triton

out = []
bad = 0


def say(line=""):
    print(line)
    out.append(line)


cuda = ctypes.CDLL("libcuda.so.1")


def driver_blocks(compiled, block, smem):
    n = ctypes.c_int()
    st = cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        ctypes.byref(n), ctypes.c_void_p(compiled.function), block,
        ctypes.c_size_t(smem))
    if st != 0:
        raise RuntimeError("cuOccupancyMaxActiveBlocksPerMultiprocessor: %d"
                           % st)
    return n.value


@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def softmax(x, y, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * n + cols, mask=cols < n, other=-float("inf"))
    e = tl.exp(v - tl.max(v, 0))
    tl.store(y + row * n + cols, e / tl.sum(e, 0), mask=cols < n)


arch = occcalc.triton.current_arch()
say("# import occcalc on the GPU (make check-gpu: python)")
say()
say("%s, %s, CUDA %s (PyTorch's); Triton %s, PyTorch %s; occcalc's arch %s." % (
    torch.cuda.get_device_name(), "cc %d.%d" %
    torch.cuda.get_device_capability(), torch.version.cuda,
    triton.__version__, torch.__version__, arch))
say()
say("## occcalc.triton against the driver")
say()
say("| kernel | config | warps | regs | shared B | occcalc blocks/SM "
    "| driver blocks/SM | occupancy % |")
say("| --- | --- | --- | --- | --- | --- | --- | --- |")
M = N = K = 1024
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
x = torch.randn(4096, 1000, device="cuda")
y = torch.empty_like(x)
cases = []
for bm, bn, bk, w, s in ((64, 64, 32, 4, 2), (128, 128, 32, 4, 3),
                         (128, 128, 64, 8, 4), (128, 256, 64, 8, 3),
                         (256, 128, 64, 8, 4), (64, 128, 64, 4, 5),
                         (32, 32, 32, 2, 2), (128, 64, 32, 4, 4)):
    cfg = triton.Config({"BM": bm, "BN": bn, "BK": bk}, num_warps=w,
                        num_stages=s)
    cases.append(("matmul", matmul, cfg, dict(a=a, b=b, c=c, M=M, N=N,
                                              K=K)))
for blk, w in ((1024, 4), (1024, 8), (1024, 16), (2048, 32)):
    cfg = triton.Config({"BLOCK": blk}, num_warps=w)
    cases.append(("softmax", softmax, cfg, dict(x=x, y=y, n=1000)))
agree = 0
rows = []
for name, fn, cfg, args in cases:
    compiled = fn.warmup(**args, **cfg.all_kwargs(), grid=(1,))
    compiled._init_handles()
    row = occcalc.triton.config_occupancy(compiled, arch)
    drv = driver_blocks(compiled, 32 * compiled.metadata.num_warps,
                        compiled.metadata.shared)
    agree += row["blocks_per_sm"] == drv
    rows.append((name, cfg, row, drv))
    say("| %s | %s | %d | %d | %d | %d | %d | %s |" % (
        name, ",".join("%s=%s" % kv for kv in cfg.kwargs.items()),
        compiled.metadata.num_warps, compiled.n_regs,
        compiled.metadata.shared, row["blocks_per_sm"], drv,
        row["occupancy_pct"]))
say()
say("occcalc's blocks per SM equal the driver's for %d of %d compiled "
    "kernels." % (agree, len(cases)))
bad += agree != len(cases)

say()
say("## occcalc.kernels of the Triton cache")
say()
# The cache those kernels were compiled into, read as a user would point
# occcalc at it: each cubin's row (Triton's launch from its metadata:
# 32 x num_warps threads, its shared memory) against the driver's blocks
# per SM for that compiled kernel.
krows = list(occcalc.kernels(CACHE, arch=arch))
found = 0
for name, fn, cfg, args in cases:
    compiled = fn.warmup(**args, **cfg.all_kwargs(), grid=(1,))
    block = 32 * compiled.metadata.num_warps
    mine = [r for r in krows if r["mangled"] == compiled.metadata.name and
            r["block"] == block and r["smem"] == compiled.metadata.shared and
            r["regs"] == compiled.n_regs]
    drv = driver_blocks(compiled, block, compiled.metadata.shared)
    found += len(mine) >= 1 and all(r["blocks_per_sm"] == drv for r in mine)
    if not mine or any(r["blocks_per_sm"] != drv for r in mine):
        say("- %s %s: %d rows of the cache, blocks/SM %s; the driver %d" % (
            name, cfg, len(mine), [r["blocks_per_sm"] for r in mine], drv))
say("occcalc.kernels(%s) gave %d rows; for %d of %d compiled kernels a "
    "row of the cache has Triton's launch (block, shared memory), the "
    "compiled registers and the driver's blocks per SM." % (
        os.path.basename(CACHE), len(krows), found, len(cases)))
bad += found != len(cases)

bound = 25.0
mm = [(cfg, args) for name, fn, cfg, args in cases if name == "matmul"]
prune = occcalc.triton.prune_below(bound, matmul)
kept = prune([cfg for cfg, _ in mm], mm[0][1])
want = [cfg for (name, cfg, row, drv) in rows if name == "matmul" and
        100.0 * drv * row["warps_per_block"] / row["max_warps_per_sm"] >=
        bound]
say("prune_below(%.0f): kept %d of %d matmul configs; by the driver's "
    "blocks per SM, %d reach %.0f %%: %s." % (
        bound, len(kept), len(mm), len(want), bound,
        "the same configs" if [id(k) for k in kept] ==
        [id(k) for k in want] else "DIFFERENT"))
bad += [id(k) for k in kept] != [id(k) for k in want]

say()
say("## occcalc.profiler.trace_handler")
say()
model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                            torch.nn.Linear(4096, 1024)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
inp = torch.randn(64, 1024, device="cuda")
outdir = os.environ.get("TRACE_DIR", "/tmp/occcalc-py-traces")
handler = occcalc.profiler.trace_handler(outdir)
raw_dir = outdir + "-raw"
os.makedirs(raw_dir, exist_ok=True)


def step():
    opt.zero_grad()
    model(inp).square().mean().backward()
    opt.step()


with torch.profiler.profile(
        activities=[torch.profiler.ProfilerActivity.CPU,
                    torch.profiler.ProfilerActivity.CUDA],
        schedule=torch.profiler.schedule(wait=1, warmup=1, active=2,
                                         repeat=1),
        on_trace_ready=handler) as p:
    for i in range(5):
        step()
        p.step()
torch.cuda.synchronize()
path = handler.written[0]
with gzip.open(path, "rt") as f:
    trace = json.load(f)
kernels = [e for e in trace["traceEvents"] if e.get("cat") == "kernel"]
have = [e for e in kernels if "occcalc" in e.get("args", {})]
say("The handler wrote %s: %d kernel events, %d with occcalc's figures "
    "(e.g. %s: %s)." % (os.path.basename(path), len(kernels), len(have),
                        have[0]["name"][:40] if have else "-",
                        have[0]["args"]["occcalc"] if have else "-"))
bad += not kernels or len(have) != len(kernels)
# The same figures as occcalc.launches() reads from the trace itself.
rows = list(occcalc.launches(path, fields="occupancy_pct,blocks_per_sm,"
                             "warps_per_sm,limiter"))
same = sum(1 for e, r in zip(have, rows)
           if all(e["args"]["occcalc"].get(k) == r[k] for k in r))
say("occcalc.launches() of that trace gives the same occupancy, blocks, "
    "warps and limiter for %d of %d launches." % (same, len(have)))
bad += same != len(have) or len(rows) != len(have)

say()
say("## occcalc.launch_summary of that trace")
say()
# Each summary row against the launches it sums: their count, and the
# occupancy weighted by GPU time (duration_ns), as a notebook would add
# the rows of occcalc.launches() up.
every = list(occcalc.launches(path, fields="kernel,occupancy_pct,"
                              "duration_ns"))
summary = occcalc.launch_summary(path)
agree = 0
for r in summary:
    mine = [x for x in every if x["kernel"] == r["kernel"]]
    t_ns = sum(x["duration_ns"] for x in mine)
    pct = (sum(x["occupancy_pct"] * x["duration_ns"] for x in mine) / t_ns
           if t_ns else None)
    ok = (len(mine) == r["launches"] and pct is not None and
          abs(pct - r["occupancy_pct"]) <= 0.005 + 1e-9)
    agree += ok
    if not ok:
        say("- %s: %d launches, %s %% by launches(); the summary: %d, %s %%"
            % (r["kernel"][:60], len(mine), pct, r["launches"],
               r["occupancy_pct"]))
say("%d kernels summarised; for %d of them the launches and the "
    "time-weighted occupancy equal those added up from "
    "occcalc.launches() (%d launches)." % (len(summary), agree,
                                           len(every)))
bad += not summary or agree != len(summary) or \
    sum(r["launches"] for r in summary) != len(every)
say()
say("Result: %s" % ("PASS" if not bad else "FAIL (%d)" % bad))
with open(sys.argv[1], "w") as f:
    f.write("\n".join(out) + "\n")
sys.exit(1 if bad else 0)
