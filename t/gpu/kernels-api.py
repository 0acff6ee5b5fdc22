#!/usr/bin/env python3
"""kernels-api.py - `occcalc --kernels --api` on a GPU: occcalc's reading
and model of each kernel beside the driver's (cuFuncGetAttribute,
cuOccupancyMaxActiveBlocksPerMultiprocessor), on the binary fixtures, a
PTX-only fatbin the driver compiles, and the largest cuBLAS library of the
toolkit; and t/gpu/bound-launch.cu, what a launch above __launch_bounds__
does. Writes REPORT.md (device, driver, date, the figures) and exits 1 on
any disagreement.

Usage: kernels-api.py OCCCALC REPORT.md   (OCCCALC_TABLES set; NVCC, CUDA_DIR)
"""
import csv
import datetime
import glob
import io
import os
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
FIX = os.path.join(TOP, "t", "fixtures", "bin")
COLS = ("file,arch,kernel,block,regs,api_regs,static_smem,api_static_smem,"
        "stack,api_stack,max_threads,api_max_threads,blocks_per_sm,"
        "api_blocks_per_sm,agrees")
CONTAINERS = ["sm_90a.cubin", "none.fatbin", "default.fatbin",
              "speed.fatbin", "kernels.o", "kernels.exe", "libkernels.so"]
BLOCKS = (None, 64, 512, 1024)   # None: the recommended block size
LIB_TIMEOUT = int(os.environ.get("KERNELS_API_LIB_TIMEOUT", "180"))
# Libraries whose sm_90 kernels the driver loads (issue 17): NCCL, cuBLAS,
# cuDNN, NVSHMEM and PyTorch's, where this machine has them (a Python
# environment's nvidia wheels and torch); KERNELS_API_LIBS (paths joined by
# ':') replaces the list.
LIB_GLOBS = ("nvidia/nccl/lib/libnccl.so.*", "nvidia/cu13/lib/libcublasLt.so.*",
             "nvidia/cudnn/lib/libcudnn_*.so.*",
             "nvidia/nvshmem/lib/libnvshmem_host.so.*",
             "torch/lib/libtorch_nvshmem.so", "torch/lib/libtorch_cuda.so")


def run(cmd, timeout=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def rows_of(occcalc, path, extra=()):
    """occcalc --kernels PATH --api as CSV rows, or an error string."""
    rc, out, err = run([occcalc, "--kernels", path, "--api", "-f", "csv",
                        "--fields", COLS] + list(extra))
    if rc != 0:
        return "%s %s: exit %d: %s" % (os.path.basename(path),
                                        " ".join(extra), rc, err.strip())
    return list(csv.DictReader(io.StringIO(out)))


def above_bound(r):
    return r["max_threads"] not in ("", "0") and \
        int(r["block"]) > int(r["max_threads"])


def fixtures(occcalc, problems, other):
    """The sm_90a rows of every container at every block size; the rows of
    other code the device runs (compute_90 PTX, which the driver compiles)
    are counted by architecture into other."""
    rows = []
    for f in CONTAINERS:
        for b in BLOCKS:
            extra = () if b is None else ("-b", str(b), "-s", "20K")
            got = rows_of(occcalc, os.path.join(FIX, f), extra)
            if isinstance(got, str):
                problems.append(got)
            else:
                rows += [r for r in got if r["arch"] == "sm_90a"]
                for r in got:
                    if r["arch"] != "sm_90a":
                        other[r["arch"]] = other.get(r["arch"], 0) + 1
    if len(rows) != 22 * len(CONTAINERS) * len(BLOCKS):
        problems.append("fixtures: %d rows, expected %d" % (
            len(rows), 22 * len(CONTAINERS) * len(BLOCKS)))
    return rows


def tally(rows):
    """{label: (equal, of)} for each field the driver gives."""
    t = {}
    for a, b in (("regs", "api_regs"), ("static_smem", "api_static_smem"),
                 ("stack", "api_stack")):
        t["%s = %s" % (a, b)] = (sum(r[a] == r[b] for r in rows), len(rows))
    within = [r for r in rows if not above_bound(r)]
    above = [r for r in rows if above_bound(r)]
    t["blocks_per_sm = api_blocks_per_sm, block within the bound"] = (
        sum(r["blocks_per_sm"] == r["api_blocks_per_sm"] for r in within),
        len(within))
    t["blocks_per_sm = 0 (cannot launch), block above the bound"] = (
        sum(r["blocks_per_sm"] == "0" for r in above), len(above))
    t["agrees"] = (sum(r["agrees"] == "true" for r in rows), len(rows))
    return t


def ptx_only(occcalc, work, problems):
    nvcc = os.environ.get("NVCC", "nvcc")
    fat = os.path.join(work, "ptx80.fatbin")
    rc, _, err = run([nvcc, "-fatbin", "-gencode",
                      "arch=compute_80,code=compute_80",
                      os.path.join(FIX, "kernels.cu"), "-o", fat])
    if rc != 0:
        problems.append("nvcc -fatbin: " + err.strip())
        return []
    rc, out, err = run([occcalc, "--kernels", fat, "--api", "-b", "256",
                        "-f", "csv", "--fields", COLS + ",ptx_only"])
    if rc != 0:
        problems.append("PTX fatbin: " + err.strip())
        return []
    rows = list(csv.DictReader(io.StringIO(out)))
    answered = [r for r in rows if r["ptx_only"] == "true" and
                r["api_regs"] not in ("", "0") and r["api_blocks_per_sm"]]
    if len(rows) != 22 or len(answered) != len(rows):
        problems.append("PTX fatbin: %d rows, %d with the driver's answers"
                        % (len(rows), len(answered)))
    return rows


def split_rows(rows):
    """The rows given to the driver, and those of kernels no image of which
    runs on this GPU (reason no_image: a kernel only in images for other
    GPUs, relocatable code among them), which occcalc does not give it; the
    rows that fail: a loaded one the driver disagrees with, or a no_image
    one the driver answered for."""
    none = [r for r in rows if r["reason"] == "no_image"]
    loaded = [r for r in rows if r["reason"] != "no_image"]
    bad = ([r for r in loaded if r["agrees"] != "true"] +
           [r for r in none if r["api_regs"] or r["agrees"] == "true"])
    return loaded, none, bad


def library(occcalc, problems):
    cuda = os.environ.get("CUDA_DIR", "/usr/local/cuda")
    libs = sorted(glob.glob(os.path.join(cuda, "lib64", "libcublas.so.*.*")),
                  key=os.path.getsize)
    if not libs:
        problems.append("no libcublas.so.*.* in %s/lib64" % cuda)
        return None
    lib = libs[-1]
    t0 = time.time()
    rc, out, err = run([occcalc, "--kernels", lib, "-f", "csv"],
                       timeout=LIB_TIMEOUT)
    read_s = time.time() - t0
    n_all = max(len(out.splitlines()) - 1, 0)
    rc2, out2, err2 = run([occcalc, "--kernels", lib, "--arch", "90", "--api",
                           "-f", "csv", "--fields", COLS + ",reason"],
                          timeout=LIB_TIMEOUT)
    rows = list(csv.DictReader(io.StringIO(out2)))
    loaded, none, bad = split_rows(rows)
    if rc != 0 or rc2 != 0 or not loaded or bad:
        problems.append("%s: exit %d/%d, %d rows, %d disagree (%s)" % (
            os.path.basename(lib), rc, rc2, len(rows), len(bad),
            (err + err2).strip()[:300]))
    return {"lib": lib, "size": os.path.getsize(lib), "rows_all": n_all,
            "read_s": read_s, "rows": len(rows), "none": len(none),
            "bad": bad}


def library_paths():
    if os.environ.get("KERNELS_API_LIBS"):
        return os.environ["KERNELS_API_LIBS"].split(":")
    found = []
    for d in sys.path:
        for g in LIB_GLOBS:
            found += sorted(glob.glob(os.path.join(d, g)))
    return sorted(set(os.path.realpath(f) for f in found))


def libraries(occcalc, problems):
    """Each library with the GPU named by --api: the image of each fatbin
    the driver loads, beside the driver's reading of it."""
    out = []
    start = time.time()
    budget = float(os.environ.get("KERNELS_API_BUDGET_S", "1e9"))
    for lib in library_paths():
        t0 = time.time()
        if t0 - start > budget:
            problems.append("%s: not run (KERNELS_API_BUDGET_S %g spent)"
                            % (lib, budget))
            continue
        try:
            rc, o, err = run([occcalc, "--kernels", lib, "--api", "-f", "csv",
                              "--fields", COLS + ",ptx_only,image,reason"],
                             timeout=LIB_TIMEOUT)
        except subprocess.TimeoutExpired:
            problems.append("%s: over %d s" % (lib, LIB_TIMEOUT))
            continue
        rows = list(csv.DictReader(io.StringIO(o)))
        _, none, bad = split_rows(rows)
        asked = [r for r in rows if r["api_regs"] not in ("", "0")]
        res = {"lib": lib, "s": time.time() - t0, "rows": len(rows),
               "none": len(none),
               "sass": sum(r["image"] == "sass" for r in rows),
               "ptx": sum(r["image"] == "ptx" for r in rows),
               "asked": len(asked), "bad": bad,
               "arch": sorted(set(r["arch"] for r in rows if r["arch"])),
               "err": err.strip().splitlines()[-3:]}
        # A library without GPU code (cuDNN's graph and heuristic parts)
        # is refused as "no kernel": nothing to compare, not a failure.
        no_gpu_code = (rc == 1 and not rows and res["err"] and
                       res["err"][-1].endswith(": no kernel"))
        if (rc != 0 or bad) and not no_gpu_code:
            problems.append("%s: exit %d, %d rows, %d disagree (%s)" % (
                lib, rc, len(rows), len(bad), " ".join(res["err"])[:300]))
        out.append(res)
    return out


def write_libraries(o, libs):
    o.write("## Libraries, with the GPU named by `--api`\n\n"
            "`occcalc --kernels LIB --api`: one row per kernel of each "
            "fatbin, the image the driver loads on this GPU (docs/"
            "image-choice.md), relocatable code left out where the "
            "library holds linked code; the driver loads the same fatbin "
            "and answers for the kernel. A kernel no image of which runs "
            "on this GPU (only in images for others, relocatable code "
            "among them) has a row with `reason` `no_image`, not given to "
            "the driver: the driver must not have answered for it.\n\n"
            "| library | rows | SASS | PTX (JIT) | driver answered | "
            "no image here | fail | targets | s |\n"
            "|---|---:|---:|---:|---:|---:|---:|---|---:|\n")
    for r in libs:
        o.write("| %s | %d | %d | %d | %d | %d | %d | %s | %.0f |\n" % (
            r["lib"], r["rows"], r["sass"], r["ptx"], r["asked"],
            r["none"], len(r["bad"]), " ".join(r["arch"]),
            r["s"]))
    for r in libs:
        for b in r["bad"][:10]:
            o.write("\n- %s disagrees: %s" % (os.path.basename(r["lib"]),
                                             ",".join(b.values())))
        for e in r["err"]:
            o.write("\n- %s: %s" % (os.path.basename(r["lib"]), e))
    o.write("\n\n")


def bound_launch(work, problems):
    """t/gpu/bound-launch.cu's output; a launch above the bound must fail
    while both occupancy APIs still answer."""
    exe = os.path.join(work, "bound-launch")
    rc, _, err = run([os.environ.get("NVCC", "nvcc"), "-arch=native", "-o",
                      exe, os.path.join(TOP, "t", "gpu", "bound-launch.cu"),
                      "-lcuda"])
    if rc != 0:
        problems.append("bound-launch.cu: " + err.strip())
        return ""
    rc, out, err = run([exe])
    lines = out.splitlines()
    above = [l for l in lines if l.startswith("block 224") or
             l.startswith("block 512")]
    if rc != 0 or not any(l.startswith("block 192") and
                          "launch: no error" in l for l in lines) or \
            len(above) != 2 or any("launch: no error" in l for l in above):
        problems.append("bound-launch: not as documented:\n" + out + err)
    return out


def device():
    _, out, _ = run(["nvidia-smi", "--query-gpu=name,driver_version",
                     "--format=csv,noheader", "-i", "0"])
    now = datetime.datetime.now(datetime.timezone.utc)
    return out.strip() or "unknown", now.strftime("%Y-%m-%d %H:%M")


def write(md, dev, fix, other, ptx, lib, bound, problems, libs=()):
    t = tally(fix)
    with open(md, "w") as o:
        o.write("# --kernels --api: occcalc's reading and model beside the "
                "driver\n\n")
        o.write("Made by `make check-gpu` (t/gpu/kernels-api.py) on %s UTC."
                "\n\n- Device, driver: %s\n\n" % (dev[1], dev[0]))
        o.write("`occcalc --kernels PATH --api` loads each binary's code "
                "through the driver (cuModuleLoadData of the cubin, or of "
                "the fatbin holding it) and prints cuFuncGetAttribute and "
                "cuOccupancyMaxActiveBlocksPerMultiprocessor beside its own "
                "reading and model; it launches nothing.\n\n")
        o.write("## The fixtures (t/fixtures/bin), sm_90a code\n\n"
                "%s, 22 kernels each, at the recommended block size and at "
                "64, 512 and 1024 threads with 20 KB of dynamic shared "
                "memory: %d rows.\n\n| comparison | equal / rows |\n"
                "|---|---:|\n" % (", ".join(CONTAINERS), len(fix)))
        for k, (y, n) in t.items():
            o.write("| %s | %d / %d |\n" % (k, y, n))
        if other:
            o.write("\nThe same runs printed rows for the containers' "
                    "other targets too, not compared here: %s rows.\n" % ", ".join(
                        "%s %d" % kv for kv in sorted(other.items())))
        o.write("\nAbove `__launch_bounds__` the occupancy APIs still answer "
                "but the launch fails (below), so occcalc says 0 blocks "
                "(\"cannot launch\") and does not flag the driver's figure. "
                "kernels-rdc.o (relocatable code) is not given to the "
                "driver.\n\n")
        o.write("## Above `__launch_bounds__`: t/gpu/bound-launch.cu\n\n"
                "A kernel declared `__launch_bounds__(192)`:\n\n```\n%s```\n\n"
                % bound)
        o.write("## PTX only: the driver's JIT\n\nA fatbin of compute_80 PTX "
                "alone (`nvcc -fatbin -gencode arch=compute_80,code="
                "compute_80 kernels.cu`), at 256 threads: %d rows, %d with "
                "the driver's registers and blocks per SM (occcalc has no "
                "reading of its own for PTX).\n\n" % (
                    len(ptx), sum(r["api_regs"] not in ("", "0")
                                  for r in ptx)))
        if lib:
            o.write("## A CUDA library\n\n`%s` (%d bytes): `--kernels` read "
                    "%d kernel rows (every architecture) in %.1f s; "
                    "`--arch 90 --api`: %d rows, %d of kernels no image of "
                    "which runs on 9.0 (`reason` `no_image`, not given to "
                    "the driver), failing %d.\n\n"
                    % (lib["lib"], lib["size"], lib["rows_all"],
                       lib["read_s"], lib["rows"], lib["none"],
                       len(lib["bad"])))
            for r in lib["bad"][:20]:
                o.write("- disagrees: %s\n" % ",".join(r.values()))
        if libs:
            write_libraries(o, libs)
        o.write("\nResult: **%s**\n" % ("FAIL" if problems else "PASS"))
        for p in problems:
            o.write("\n- Problem: %s\n" % p)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n")[-1])
    occcalc, md = sys.argv[1:]
    problems = []
    with tempfile.TemporaryDirectory() as work:
        other = {}
        fix = fixtures(occcalc, problems, other)
        t = tally(fix)
        problems += ["fixtures: %s in %d of %d rows" % (k, y, n)
                     for k, (y, n) in t.items() if y != n]
        ptx = ptx_only(occcalc, work, problems)
        bound = bound_launch(work, problems)
    lib = library(occcalc, problems)
    libs = libraries(occcalc, problems)
    write(md, device(), fix, other, ptx, lib, bound, problems, libs)
    print("kernels-api: %d fixture rows, %d PTX rows, %s library rows, "
          "%d rows of %d libraries; %s"
          % (len(fix), len(ptx), lib["rows"] if lib else 0,
             sum(r["rows"] for r in libs), len(libs),
             "; ".join(problems) or "PASS"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
