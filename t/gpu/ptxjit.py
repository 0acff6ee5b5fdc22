#!/usr/bin/env python3
"""ptxjit.py - on the GPU machine: how often the toolkit's ptxas gives the
resources the driver's JIT compiler gives, for PTX the driver compiles.
Extracts the PTX of each LIBRARY (cuobjdump -xptx), compiles each file with
`ptxas -arch=sm_CC -v` and loads it with cuModuleLoadData, and compares
each kernel's registers, stack (local bytes) and static shared memory.
Prints one CSV row per kernel and a summary line.
Usage: ptxjit.py OUTDIR LIMIT LIBRARY...
"""
import ctypes
import glob
import os
import re
import subprocess
import sys
import time

cu = ctypes.CDLL("libcuda.so.1")


def check(r, what):
    if r != 0:
        raise RuntimeError("%s: CUresult %d" % (what, r))


def init():
    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "retain")
    check(cu.cuCtxSetCurrent(ctx), "set")
    ma, mi = ctypes.c_int(), ctypes.c_int()
    cu.cuDeviceGetAttribute(ctypes.byref(ma), 75, dev)
    cu.cuDeviceGetAttribute(ctypes.byref(mi), 76, dev)
    return "%d%d" % (ma.value, mi.value)


def driver(path):
    """{kernel: (regs, local, smem)} as the driver compiles the PTX."""
    data = open(path, "rb").read() + b"\0"
    mod = ctypes.c_void_p()
    r = cu.cuModuleLoadData(ctypes.byref(mod), data)
    if r != 0:
        return "load error %d" % r
    n = ctypes.c_uint()
    check(cu.cuModuleGetFunctionCount(ctypes.byref(n), mod), "count")
    fns = (ctypes.c_void_p * n.value)()
    check(cu.cuModuleEnumerateFunctions(fns, n, mod), "enumerate")
    out = {}
    for f in fns:
        name = ctypes.c_char_p()
        cu.cuFuncGetName(ctypes.byref(name), ctypes.c_void_p(f))
        v = []
        for a in (4, 3, 1):   # NUM_REGS, LOCAL_SIZE_BYTES, SHARED_SIZE_BYTES
            x = ctypes.c_int()
            cu.cuFuncGetAttribute(ctypes.byref(x), a, ctypes.c_void_p(f))
            v.append(x.value)
        out[name.value.decode()] = tuple(v)
    cu.cuModuleUnload(mod)
    return out


def ptxas(path, cc):
    """{kernel: (regs, stack, smem)} from ptxas -v, entries only."""
    p = subprocess.run(["ptxas", "-arch=sm_" + cc, "-v", "-o", "/dev/null",
                        path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    if p.returncode != 0:
        return "ptxas exit %d" % p.returncode
    out, cur = {}, None
    for line in p.stdout.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = m.group(1)
            out[cur] = [0, 0, 0]
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = m.group(1) if m.group(1) in out else None
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame", line)
        if m:
            out[cur][1] = int(m.group(1))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[cur][0] = int(m.group(1))
            m = re.search(r"(\d+) bytes smem", line)
            out[cur][2] = int(m.group(1)) if m else 0
    return {k: tuple(v) for k, v in out.items()}


def main():
    outdir, limit, libs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    cc = init()
    t0 = time.time()
    same = diff = errors = 0
    rows = ["file,kernel,drv_regs,drv_stack,drv_smem,ptxas_regs,ptxas_stack,ptxas_smem,equal"]
    files = []
    for lib in libs:
        d = os.path.join(outdir, os.path.basename(lib))
        os.makedirs(d, exist_ok=True)
        subprocess.run(["cuobjdump", "-xptx", "all", lib], cwd=d,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=120)
        files += sorted(glob.glob(os.path.join(d, "*.ptx")))[:limit]
    for f in files:
        if time.time() - t0 > 200:
            break
        drv, pt = driver(f), ptxas(f, cc)
        if isinstance(drv, str) or isinstance(pt, str):
            errors += 1
            rows.append("%s,,%s,%s" % (os.path.basename(f), drv if isinstance(drv, str) else "",
                                       pt if isinstance(pt, str) else ""))
            continue
        for k in sorted(drv):
            p = pt.get(k)
            eq = p == drv[k]
            same += eq
            diff += not eq
            rows.append("%s,%s,%d,%d,%d,%s,%s" % (
                os.path.relpath(f, outdir), k, *drv[k],
                ",".join(map(str, p)) if p else ",,", "yes" if eq else "no"))
        os.remove(f)
    print("\n".join(rows))
    print("# cc %s: %d PTX files, %d kernels equal, %d differ, %d errors, %.0f s"
          % (cc, len(files), same, diff, errors, time.time() - t0))


main()
