#!/usr/bin/env python3
"""trace_program.py - a small PyTorch training step for occcalc's trace
tests and benchmark: a GPT-style block in bf16 (cuBLAS GEMMs, SDPA
attention), a small CNN (cuDNN convolutions), a Triton kernel
(triton.jit) and a CUDA C++ kernel with __cluster_dims__ (trace_cluster.cu,
built with nvcc and loaded with ctypes).

  trace_program.py [--scale fixture|bench|host] [--warmup N] [--warmup-s S]
                   [--steps N] [--kineto FILE] [--timing FILE] [--build DIR]
                   [--nvtx]

--kineto runs the timed steps under torch.profiler and writes its Chrome
trace to FILE (.gz: compressed); --timing writes the timed steps' wall
times (JSON), each step's host time up to the synchronize (what it takes
the host to launch it) and the garbage collections Python ran in it.
--warmup-s warms up for at least S seconds as well as N steps: the GPU's
clocks rise over a few hundred milliseconds of work after the idle
start-up. Everything is seeded: two runs launch the same kernels in
the same order, so that a trace, a Kineto trace and Nsight Compute's
report of separate runs can be compared launch by launch."""
import argparse
import ctypes
import gc
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))

SCALES = {
    # batch, sequence, model width, heads, CNN batch, image side
    "fixture": dict(batch=2, seq=256, width=512, heads=8, cnn_batch=8,
                    side=32, cluster_n=1 << 16),
    "bench": dict(batch=8, seq=1024, width=1024, heads=16, cnn_batch=64,
                  side=64, cluster_n=1 << 22),
    # Small enough that the host's launching is the step's time, as in a
    # host-bound training step: what tracing adds per launch shows whole.
    "host": dict(batch=1, seq=64, width=256, heads=4, cnn_batch=2,
                 side=16, cluster_n=1 << 12),
}


@triton.jit
def scale_add_kernel(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * alpha + y, mask=mask)


def scale_add(x, y, alpha):
    out = torch.empty_like(x)
    n = x.numel()
    scale_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, alpha, n,
                                              BLOCK=1024)
    return out


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, 4 * width)
        self.fc2 = nn.Linear(4 * width, width)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2)
                   for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 64, 3, padding=1, stride=2), nn.BatchNorm2d(64),
            nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Linear(64, 10))

    def forward(self, x):
        return self.body(x)


def cluster_library(build):
    """trace_cluster.cu built for this GPU (once per build directory)."""
    major, minor = torch.cuda.get_device_capability()
    so = os.path.join(build, "trace_cluster_sm%d%d.so" % (major, minor))
    if not os.path.exists(so):
        os.makedirs(build, exist_ok=True)
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        subprocess.run([nvcc, "-O2", "-shared", "-Xcompiler", "-fPIC",
                        "-arch=sm_%d%d" % (major, minor),
                        os.path.join(HERE, "trace_cluster.cu"), "-o",
                        so + ".tmp"], check=True)
        os.replace(so + ".tmp", so)
    lib = ctypes.CDLL(so)
    lib.launch_cluster_mix.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                       ctypes.c_int, ctypes.c_void_p]
    return lib


def gc_collections():
    return sum(g["collections"] for g in gc.get_stats())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", choices=sorted(SCALES), default="fixture")
    ap.add_argument("--warmup", type=int, default=0)
    ap.add_argument("--warmup-s", type=float, default=0.0)
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--nvtx", action="store_true",
                    help="the timed steps under torch.autograd.profiler."
                    "emit_nvtx: an NVTX range per operator")
    ap.add_argument("--kineto")
    ap.add_argument("--timing")
    ap.add_argument("--build", default=os.path.join(
        os.environ.get("TMPDIR", "/tmp"), "occcalc-trace-program"))
    a = ap.parse_args()
    s = SCALES[a.scale]
    torch.manual_seed(0)
    dev = torch.device("cuda")
    cluster = cluster_library(a.build)

    gpt = Block(s["width"], s["heads"]).to(dev, torch.bfloat16)
    cnn = CNN().to(dev)
    params = list(gpt.parameters()) + list(cnn.parameters())
    opt = torch.optim.AdamW(params, lr=1e-4, foreach=True)
    x = torch.randn(s["batch"], s["seq"], s["width"], device=dev,
                    dtype=torch.bfloat16)
    img = torch.randn(s["cnn_batch"], 3, s["side"], s["side"], device=dev)
    labels = torch.randint(0, 10, (s["cnn_batch"],), device=dev)
    buf = torch.randn(s["cluster_n"], device=dev)
    stream = torch.cuda.current_stream().cuda_stream

    def step():
        opt.zero_grad(set_to_none=True)
        y = gpt(x)
        loss = y.float().pow(2).mean() + F.cross_entropy(cnn(img), labels)
        loss.backward()
        # The Triton kernel on a gradient, the cluster kernel on a buffer:
        # with 64 KB of dynamic shared memory (opted in) and with 1 KB.
        g = gpt.fc2.weight.grad
        g.copy_(scale_add(g, g, -0.5))
        for smem in (64 << 10, 1 << 10):
            err = cluster.launch_cluster_mix(buf.data_ptr(), buf.numel(),
                                             smem, stream)
            if err:
                sys.exit("trace_program: cluster_mix: CUDA error %d" % err)
        opt.step()

    t0 = time.perf_counter()
    done = 0
    while done < a.warmup or time.perf_counter() - t0 < a.warmup_s:
        step()
        torch.cuda.synchronize()
        done += 1
    times, host, collections = [], [], []
    prof = None
    if a.kineto:
        prof = torch.profiler.profile(activities=[
            torch.profiler.ProfilerActivity.CPU,
            torch.profiler.ProfilerActivity.CUDA])
        prof.__enter__()
    nvtx = torch.autograd.profiler.emit_nvtx() if a.nvtx else None
    if nvtx:
        nvtx.__enter__()
    for _ in range(a.steps):
        c0 = gc_collections()
        t0 = time.perf_counter()
        step()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
        host.append(t1 - t0)
        collections.append(gc_collections() - c0)
    if nvtx:
        nvtx.__exit__(None, None, None)
    if prof:
        prof.__exit__(None, None, None)
        path = a.kineto[:-3] if a.kineto.endswith(".gz") else a.kineto
        prof.export_chrome_trace(path)
        if path != a.kineto:
            with open(path, "rb") as f, gzip.open(a.kineto, "wb", 9) as g:
                shutil.copyfileobj(f, g)
            os.unlink(path)
    if a.timing:
        with open(a.timing, "w") as f:
            json.dump({"scale": a.scale, "warmup": a.warmup,
                       "warmup_steps_run": done, "steps": a.steps,
                       "step_s": times, "host_s": host,
                       "gc_collections": collections,
                       "median_s": statistics.median(times)}, f)
            f.write("\n")


if __name__ == "__main__":
    main()
