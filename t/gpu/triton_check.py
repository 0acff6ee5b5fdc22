#!/usr/bin/env python3
"""triton_check.py - (not triton.py: it would shadow the triton package) `occcalc --kernels CACHE` on Triton caches made here, against
the driver. Builds three caches with the Triton and PyTorch installed:
hand-written kernels (add, softmax, matmul; num_warps 1-16, num_ctas 1, 2
and 4), torch.compile's default and max-autotune (Triton GEMMs) kernels of
a small network. For every cubin with its metadata, the driver's answer for
Triton's launch: cuFuncGetAttribute's registers, and
cuOccupancyMaxActiveBlocksPerMultiprocessor(32 x num_warps, shared) after
raising CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to shared, as
Triton does; for num_ctas > 1 also cuOccupancyMaxActiveClusters for the
cluster launch Triton makes (num_ctas x 1 x 1). Then t/triton/compare.py
sets occcalc's rows beside it. Writes REPORT.md (device, driver, versions,
date, the figures, every kernel) and exits 1 on any disagreement.

Usage: triton_check.py OCCCALC REPORT.md
"""
import csv
import ctypes
import datetime
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(os.path.dirname(HERE), "triton", "compare.py")
MODES = ("hand", "default", "autotune")
MAKE_TIMEOUT = 300


if len(sys.argv) > 2 and sys.argv[1] == "--make":
    # Module-level, as Triton resolves the names a kernel uses (tl) in its
    # globals; only the processes that make a cache import it.
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def add_kernel(x, y, z, n, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = i < n
        tl.store(z + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m),
                 mask=m)

    @triton.jit
    def softmax_kernel(out, inp, stride, ncols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        c = tl.arange(0, BLOCK)
        v = tl.load(inp + row * stride + c, mask=c < ncols,
                    other=-float("inf"))
        v = v - tl.max(v, 0)
        e = tl.exp(v)
        tl.store(out + row * stride + c, e / tl.sum(e, 0), mask=c < ncols)

    @triton.jit
    def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pm = tl.program_id(0)
        pn = tl.program_id(1)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            x = tl.load(a + rm[:, None] * sam + (k + rk)[None, :] * sak)
            y = tl.load(b + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
            acc += tl.dot(x, y)
        tl.store(c + rm[:, None] * scm + rn[None, :] * scn,
                 acc.to(tl.float16))


def make(mode):
    """One cache, in this process (TRITON_CACHE_DIR set by the caller)."""
    dev = "cuda"
    if mode == "hand":
        n = 1 << 20
        x = torch.randn(n, device=dev)
        y = torch.randn(n, device=dev)
        z = torch.empty_like(x)
        for nw, blk in ((1, 128), (2, 512), (4, 1024), (8, 4096),
                        (16, 8192), (32, 8192)):
            add_kernel[(triton.cdiv(n, blk),)](x, y, z, n, BLOCK=blk,
                                               num_warps=nw)
        a = torch.randn(512, 1000, device=dev)
        o = torch.empty_like(a)
        for nw in (2, 4, 8, 16):
            softmax_kernel[(512,)](o, a, a.stride(0), 1000, BLOCK=1024,
                                   num_warps=nw)
        A = torch.randn(1024, 1024, device=dev, dtype=torch.float16)
        B = torch.randn(1024, 1024, device=dev, dtype=torch.float16)
        C = torch.empty(1024, 1024, device=dev, dtype=torch.float16)
        for bm, bn, bk, nw, ns, nc in (
                (128, 128, 64, 8, 3, 1), (128, 256, 64, 8, 4, 1),
                (64, 64, 32, 4, 2, 1), (128, 128, 32, 4, 5, 1),
                (64, 128, 64, 4, 4, 1), (128, 64, 32, 2, 3, 1),
                (128, 128, 64, 4, 3, 2), (128, 128, 64, 4, 3, 4),
                (128, 128, 32, 8, 4, 2)):
            try:
                matmul_kernel[(1024 // bm, 1024 // bn)](
                    A, B, C, 1024, 1024, 1024, A.stride(0), A.stride(1),
                    B.stride(0), B.stride(1), C.stride(0), C.stride(1),
                    BM=bm, BN=bn, BK=bk, num_warps=nw, num_stages=ns,
                    num_ctas=nc)
            except Exception as e:   # a config Triton refuses: said, skipped
                print("matmul", bm, bn, bk, nw, ns, nc, "failed:",
                      type(e).__name__, str(e)[:200])
        torch.cuda.synchronize()
        return

    class Net(torch.nn.Module):
        def __init__(s):
            super().__init__()
            s.l1 = torch.nn.Linear(512, 2048)
            s.l2 = torch.nn.Linear(2048, 512)
            s.ln = torch.nn.LayerNorm(512)

        def forward(s, x):
            h = torch.nn.functional.gelu(s.l1(s.ln(x)))
            y = s.l2(h) + x
            att = torch.softmax(y @ y.transpose(-1, -2) / 22.6, dim=-1)
            return (att @ y).sum(-1).relu()

    torch.manual_seed(0)
    net = Net().to(dev).half()
    x = torch.randn(8, 256, 512, device=dev, dtype=torch.half)
    if mode == "autotune":
        import torch._inductor.config as cfg
        cfg.max_autotune_gemm_backends = "TRITON"
        f = torch.compile(net, mode="max-autotune-no-cudagraphs")
    else:
        f = torch.compile(net)
    with torch.no_grad():
        f(x)
        f(x)
    torch.cuda.synchronize()


class ClusterDim(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint),
                ("z", ctypes.c_uint)]


class AttrValue(ctypes.Union):
    _fields_ = [("pad", ctypes.c_char * 64), ("clusterDim", ClusterDim)]


class LaunchAttr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("value", AttrValue)]


class LaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint),
                ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(LaunchAttr)),
                ("numAttrs", ctypes.c_uint)]


def truth(cache, out):
    """The driver's answer for each cubin's Triton launch, as CSV."""
    import torch
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    cu = ctypes.CDLL("libcuda.so.1")

    def attr(f, a):
        v = ctypes.c_int()
        r = cu.cuFuncGetAttribute(ctypes.byref(v), a, f)
        return v.value if r == 0 else "err%d" % r

    w = csv.writer(out)
    w.writerow(["entry", "name", "num_warps", "num_ctas", "shared",
                "cluster_dims", "regs", "local", "static_smem",
                "max_threads", "blocks_per_sm", "clusters", "err"])
    for js in sorted(glob.glob(cache + "/**/*.json", recursive=True)):
        try:
            md = json.load(open(js))
        except ValueError:
            continue
        cub = js[:-5] + ".cubin"
        if not isinstance(md, dict) or "num_warps" not in md or \
                not os.path.exists(cub):
            continue
        rel = os.path.relpath(cub, cache)
        mod, f = ctypes.c_void_p(), ctypes.c_void_p()
        r = cu.cuModuleLoadData(ctypes.byref(mod), open(cub, "rb").read())
        if r == 0:
            r = cu.cuModuleGetFunction(ctypes.byref(f), mod,
                                       md["name"].encode())
        if r:
            w.writerow([rel, md.get("name")] + [""] * 10 + ["load%d" % r])
            continue
        nw, sh, nc = md["num_warps"], md.get("shared", 0), \
            md.get("num_ctas", 1)
        err = ""
        if sh > 48 * 1024:
            r = cu.cuFuncSetAttribute(f, 8, sh)
            err = "setattr%d" % r if r else ""
        n = ctypes.c_int(-1)
        r = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(n), f, 32 * nw, ctypes.c_size_t(sh))
        err += " occ%d" % r if r else ""
        clusters = ""
        if nc > 1:
            a = LaunchAttr(id=4)   # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
            a.value.clusterDim = ClusterDim(nc, 1, 1)
            cfg = LaunchConfig(nc * 64, 1, 1, 32 * nw, 1, 1, sh, None,
                               ctypes.pointer(a), 1)
            c = ctypes.c_int(-1)
            r = cu.cuOccupancyMaxActiveClusters(ctypes.byref(c), f,
                                                ctypes.byref(cfg))
            clusters = c.value if r == 0 else ""
            err += " clusters%d" % r if r else ""
        w.writerow([rel, md["name"], nw, nc, sh, "", attr(f, 4), attr(f, 3),
                    attr(f, 1), attr(f, 0), n.value, clusters,
                    err.strip()])
        cu.cuModuleUnload(mod)


def device():
    p = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                        "--format=csv,noheader", "-i", "0"],
                       capture_output=True, text=True)
    return p.stdout.strip() or "unknown"


def versions():
    p = subprocess.run([sys.executable, "-c", "import torch, triton; "
                        "print(torch.__version__, triton.__version__)"],
                       capture_output=True, text=True)
    return p.stdout.strip().split() + ["?", "?"]


def build(tmp):
    """The three caches, made at once (one GPU is enough for all)."""
    procs = {}
    for m in MODES:
        env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(tmp, m, "triton"),
                   TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, m, "inductor"))
        log = open(os.path.join(tmp, m + ".log"), "w")
        procs[m] = subprocess.Popen([sys.executable, __file__, "--make", m],
                                    env=env, stdout=log,
                                    stderr=subprocess.STDOUT)
    failed = []
    for m, p in procs.items():
        try:
            if p.wait(timeout=MAKE_TIMEOUT) != 0:
                failed.append(m)
        except subprocess.TimeoutExpired:
            p.kill()
            failed.append(m + " (timed out)")
    return failed


def main():
    if sys.argv[1] == "--make":
        make(sys.argv[2])
        return 0
    if sys.argv[1] == "--truth":
        truth(sys.argv[2], sys.stdout)
        return 0
    occcalc, report = sys.argv[1:3]
    tmp = tempfile.mkdtemp(prefix="occcalc-triton-")
    failed = build(tmp)
    problems = ["cache %s could not be made (its log below)" % m
                for m in failed]
    sections, total, agree = [], 0, 0
    for m in MODES + ("hand --api",):
        m, api = m.split()[0], m.endswith("--api")
        cache = os.path.join(tmp, m)
        tpath = os.path.join(tmp, m + "-truth.csv")
        if not api:
            with open(tpath, "w") as f:
                subprocess.run([sys.executable, __file__, "--truth", cache],
                               stdout=f, check=False)
        p = subprocess.run([sys.executable, COMPARE, occcalc, cache, tpath]
                           + (["--api"] if api else []),
                           capture_output=True, text=True)
        lines = p.stdout.strip().splitlines() or ["0 kernels, 0 agree"]
        last = lines[-1]
        if api:
            last = next((l for l in lines if l.startswith("clusters:")),
                        "clusters: none") + "; with --api, " + last
        else:
            n, a = int(last.split()[0]), int(last.split()[2])
            total, agree = total + n, agree + a
        if p.returncode != 0 or "0 kernels" in last:
            problems.append("%s%s: %s %s" % (m, " --api" if api else "",
                                             last, p.stderr.strip()))
        sections.append((m + (" --api (cluster launches)" if api else ""),
                         last, p.stdout, "" if api else open(tpath).read()))
    torch_v, triton_v = versions()[:2]
    with open(report, "w") as f:
        f.write("# Triton caches: occcalc against the driver\n\n")
        f.write("Written by `make check-gpu GPU_CHECKS=triton` "
                "(t/gpu/triton_check.py) on %s, PyTorch %s, Triton %s, %s.\n\n" % (
                    device(), torch_v, triton_v,
                    datetime.datetime.now(datetime.timezone.utc).strftime(
                        "%Y-%m-%d %H:%M UTC")))
        f.write("Each cache is made here: hand-written Triton kernels, "
                "torch.compile default and max-autotune. For every cubin, "
                "occcalc's row (`--kernels CACHE`: block 32 x num_warps, "
                "dynamic shared memory `shared`) beside cuFuncGetAttribute's "
                "registers and cuOccupancyMaxActiveBlocksPerMultiprocessor "
                "for that launch after raising the dynamic shared memory "
                "limit (t/triton/compare.py). `clusters`: "
                "cuOccupancyMaxActiveClusters for num_ctas > 1, recorded.\n\n")
        f.write("**%d kernels, %d agree** in registers and blocks per SM%s.\n"
                % (total, agree, "" if not problems else
                   "; problems: " + "; ".join(problems)))
        for m in failed:
            log = open(os.path.join(tmp, m.split()[0] + ".log")).read()
            f.write("\n## The log of cache %s\n\n```\n%s\n```\n" % (
                m, "\n".join(log.splitlines()[-40:])))
        for m, last, cmp_out, truth_csv in sections:
            f.write("\n## %s: %s\n\n```\n%s```\n" % (m, last, cmp_out))
            if truth_csv:
                f.write("\nThe driver's answers:\n\n```\n%s```\n"
                        % truth_csv)
    print("triton: %d kernels, %d agree%s" % (total, agree, "" if not problems
          else "; " + "; ".join(problems)))
    return 1 if problems or agree != total else 0


if __name__ == "__main__":
    sys.exit(main())
