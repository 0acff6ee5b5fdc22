#!/usr/bin/env python3
"""binaries.py - occcalc's reading of the binary fixtures beside NVIDIA's.

On the GPU machine (cuobjdump and a driver there):
    binaries.py collect BINARY_DUMP DRIVER_ATTRS FIXTURES OUTDIR
runs t/binary-dump, `cuobjdump --dump-resource-usage` and `--dump-elf` on
every fixture, and loads the sm_90a cubin through the driver API
(t/gpu/driver-attrs); then, anywhere,
    binaries.py report OUTDIR REPORT.md [DRIVER.csv]
compares them: every kernel of every architecture, every field both give,
and the driver's attributes and occupancy with occcalc's reading and model
(the driver's rows also into DRIVER.csv). Exits 1 on any disagreement.
"""
import csv
import os
import re
import subprocess
import sys

FILES = ["sm_75.cubin", "sm_80.cubin", "sm_86.cubin", "sm_89.cubin",
         "sm_90a.cubin", "sm_100a.cubin", "sm_120f.cubin", "none.fatbin",
         "default.fatbin", "size.fatbin", "speed.fatbin", "balance.fatbin",
         "kernels.o", "kernels.exe", "libkernels.so", "kernels-rdc.o"]


def sh(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def collect(dump, driver, fixtures, out):
    paths = [os.path.join(fixtures, f) for f in FILES]
    with open(os.path.join(out, "dump.csv"), "w") as f:
        rc, text = sh([dump] + paths)
        f.write(text)
    for opt, name in (("--dump-resource-usage", "resource.txt"),
                      ("--dump-elf", "elf.txt")):
        with open(os.path.join(out, name), "w") as f:
            for p in paths:
                rc, text = sh(["cuobjdump", opt, p])
                f.write("=== %s rc=%d\n%s" % (os.path.basename(p), rc, text))
    with open(os.path.join(out, "driver.csv"), "w") as f:
        rc, text = sh([driver, os.path.join(fixtures, "sm_90a.cubin"), "128"])
        f.write(text)
    with open(os.path.join(out, "env.txt"), "w") as f:
        for cmd in (["nvidia-smi", "--query-gpu=name,driver_version",
                     "--format=csv,noheader"], ["cuobjdump", "--version"],
                    ["date", "-u", "+%Y-%m-%d"]):
            f.write(sh(cmd)[1])


def by_file(text):
    """Split a concatenated tool output into {file: text}."""
    parts, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"=== (\S+) rc=(\d+)$", line)
        if m:
            cur = m.group(1)
            parts[cur] = []
        elif cur:
            parts[cur].append(line)
    return parts


def resource_usage(lines):
    """{(arch or None, name): {REG:.., STACK:.., SHARED:.., LOCAL:..}}"""
    res, arch, name = {}, None, None
    for line in lines:
        m = re.match(r"arch = (\S+)", line)
        if m:
            arch = m.group(1)
        m = re.match(r"\s*Function (\S+):$", line)
        if m:
            name = m.group(1)
            continue
        if name and "REG:" in line:
            res[(arch, name)] = dict(re.findall(r"(\w+(?:\[\d\])?):(\d+)", line))
            name = None
    return res


# .nv.info attributes as cuobjdump --dump-elf names them, and the field
# of t/binary-dump's CSV holding the same figure.
ELF_ATTRS = {"EIATTR_MAX_THREADS": "max_threads",
             "EIATTR_MAXREG_COUNT": "max_regs",
             "EIATTR_NUM_BARRIERS": "barriers",
             "EIATTR_CTA_PER_CLUSTER": "cluster",
             "EIATTR_REGCOUNT": "regs", "EIATTR_FRAME_SIZE": "frame",
             "EIATTR_MIN_STACK_SIZE": "stack"}
# What the CSV holds when the binary has no such attribute.
ABSENT = {"max_threads": "0;0;0", "cluster": "0;0;0", "barriers": "0",
          "max_regs": "0", "stack": "-1", "frame": "-1", "regs": "-1"}


def num(v):
    return str(int(v, 16) if v.startswith("0x") else int(v))


def dump_elf(lines, only_arch):
    """{(arch, kernel): {csv field: value}} from cuobjdump --dump-elf."""
    res, arch, sec, attr = {}, only_arch, None, None
    for line in lines:
        m = re.match(r"arch = (\S+)", line)
        if m:
            arch = m.group(1)
        if re.match(r"^\.nv\.info(\.\S+)?$", line):
            sec = line[len(".nv.info."):] if line != ".nv.info" else ""
        elif not line.startswith("\t") and line.strip():
            sec = None if line.startswith(".") else sec
        m = re.match(r"\tAttribute:\t(\w+)", line)
        if m:
            attr = m.group(1)
        m = re.match(r"\tValue:\t(.*)", line)
        if m and sec is not None and attr in ELF_ATTRS:
            v = m.group(1).strip()
            g = re.match(r"function: (\S+)\(0x[0-9a-f]+\)\t[^:]*: (\S+)", v)
            if sec == "" and g:
                res.setdefault((arch, g.group(1)), {})[ELF_ATTRS[attr]] = num(g.group(2))
            elif sec:
                res.setdefault((arch, sec), {})[ELF_ATTRS[attr]] = ";".join(
                    num(x) for x in v.split())
    return res


def compare_elf(files, rows, elf, fields, lines):
    n = bad = 0
    for f in files:
        mine = [r for r in rows if os.path.basename(r["file"]) == f
                and r["ptx_only"] == "0"]
        archs = {r["arch"] for r in mine}
        got = dump_elf(elf.get(f, []), archs.pop() if len(archs) == 1 else None)
        for r in mine:
            t = got.get((r["arch"], r["mangled"])) or got.get(
                (base(r["arch"]), r["mangled"]))
            for fld in ABSENT:
                if t is None:
                    continue
                want = t.get(fld, ABSENT[fld] if fld not in ("regs",) else None)
                ok = r[fld] == want
                if fld == "stack" and r["stack"] == "-1" and want == "-1":
                    ok = True
                n += 1
                fields.setdefault(("elf", fld), [0, 0])[0 if ok else 1] += 1
                if not ok:
                    bad += 1
                    lines.append("| %s | %s | %s | %s %s, --dump-elf %s |" %
                                 (f, r["arch"], r["mangled"], fld, r[fld], want))
            if t is None:
                bad += 1
                lines.append("| %s | %s | %s | not in --dump-elf |" %
                             (f, r["arch"], r["mangled"]))
    return n, bad


def base(arch):
    return re.sub(r"[af]$", "", arch)


def compare_driver(drv, lines):
    """The driver's rows against occcalc's reading and model: (comparisons,
    disagreements). A kernel without __launch_bounds__ has no maximum of its
    own (0), and the driver's is then what its registers allow: not
    compared."""
    pairs = (("occcalc_regs", "driver_regs"),
             ("occcalc_static_smem", "driver_static_smem"),
             ("occcalc_frame", "driver_local"),
             ("occcalc_max_threads", "driver_max_threads"),
             ("model_blocks_per_sm", "api_blocks_per_sm"))
    n = bad = 0
    for d in drv:
        for a, b in pairs:
            if a == "occcalc_max_threads" and d.get(a) == "0":
                continue
            n += 1
            if d.get(a) is None or d.get(a) != d.get(b):
                bad += 1
                lines.append("| sm_90a.cubin | %s | %s | %s %s, driver %s |"
                             % (d["arch"], d["mangled"], a, d.get(a),
                                d.get(b)))
    return n, bad


def report(out, md, driver_csv=None):
    rows = list(csv.DictReader(open(os.path.join(out, "dump.csv"))))
    res = by_file(open(os.path.join(out, "resource.txt")).read())
    env = open(os.path.join(out, "env.txt")).read().strip().splitlines()
    lines, total, bad, fields = [], 0, 0, {}
    for f in FILES:
        ru = resource_usage(res.get(f, []))
        mine = [r for r in rows if os.path.basename(r["file"]) == f
                and r["ptx_only"] == "0"]
        seen = 0
        for r in mine:
            key = next((k for k in ((r["arch"], r["mangled"]),
                                    (base(r["arch"]), r["mangled"]),
                                    (None, r["mangled"])) if k in ru), None)
            if key is None:
                bad += 1
                lines.append("| %s | %s | %s | not in cuobjdump |" %
                             (f, r["arch"], r["mangled"]))
                continue
            seen += 1
            theirs = ru[key]
            # cuobjdump's LOCAL is not the frame: 0 for every kernel here,
            # spills too; the frame is the driver's LOCAL_SIZE_BYTES.
            for mf, tf in (("regs", "REG"), ("shared_section", "SHARED"),
                           ("stack", "STACK")):
                total += 1
                ok = r[mf] == theirs.get(tf) or (r[mf] == "-1" and
                                                 theirs.get(tf) == "0")
                fields.setdefault((mf, tf), [0, 0])[0 if ok else 1] += 1
                if not ok:
                    bad += 1
                    lines.append("| %s | %s | %s | %s %s, cuobjdump %s %s |" %
                                 (f, r["arch"], r["mangled"], mf, r[mf], tf,
                                  theirs.get(tf)))
        fields.setdefault(("kernels", f), [seen, len(mine) - seen])
        if not mine:
            bad += 1
            lines.append("| %s | | | occcalc read no kernels |" % f)
    elf_text = os.path.join(out, "elf.txt")
    if os.path.exists(elf_text):
        en, eb = compare_elf(FILES, rows, by_file(open(elf_text).read()),
                             fields, lines)
        total += en
        bad += eb
    drv = list(csv.DictReader(open(os.path.join(out, "driver.csv"))))
    dn, dbad = compare_driver(drv, lines)
    if not drv:
        dbad += 1
        lines.append("| sm_90a.cubin | | | the driver gave no rows |")
    total += dn
    bad += dbad
    with open(md, "w") as o:
        o.write("# The binary reader against cuobjdump and the driver\n\n")
        o.write("Device and tools: %s.\n\n" % "; ".join(env))
        o.write("Made by `make check-gpu` (t/gpu/binaries.sh, "
                "t/gpu/binaries.py) from the fixtures in t/fixtures/bin "
                "(t/fixtures/bin/make-binaries.sh: the kernels of "
                "kernels.cu for several targets, in cubins, fatbins stored "
                "and compressed with every -compress-mode, an object, an "
                "executable, a shared library and relocatable code). "
                "cuobjdump's LOCAL is not compared: it is 0 for every "
                "kernel, spilling ones included; the frame "
                "(EIATTR_FRAME_SIZE) is what the driver reports as "
                "CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, compared below.\n\n")
        o.write("## cuobjdump --dump-resource-usage, every kernel of every "
                "architecture in every container\n\n")
        o.write("| occcalc field | cuobjdump field | agree | disagree |\n"
                "|---|---|---:|---:|\n")
        for (a, b), (y, n) in sorted(fields.items()):
            if a not in ("kernels", "elf"):
                o.write("| %s | %s | %d | %d |\n" % (a, b, y, n))
        o.write("\n## cuobjdump --dump-elf: the .nv.info attributes\n\n"
                "| occcalc field | agree | disagree |\n|---|---:|---:|\n")
        for (a, b), (y, n) in sorted(fields.items()):
            if a == "elf":
                o.write("| %s | %d | %d |\n" % (b, y, n))
        o.write("\nKernels matched per file (found in cuobjdump / not):\n\n")
        for (a, b), (y, n) in sorted(fields.items()):
            if a == "kernels":
                o.write("- %s: %d / %d\n" % (b, y, n))
        o.write("\n%d comparisons, %d disagreements.\n\n" % (total, bad))
        if lines:
            o.write("| file | arch | kernel | difference |\n|---|---|---|---|\n")
            o.write("\n".join(lines[:200]) + "\n\n")
        o.write("## The driver API on sm_90a.cubin (block 128, or the "
                "kernel's bound)\n\n%d comparisons of registers, static "
                "shared memory, local memory, maximum threads (where a "
                "bound gives one) and blocks per SM: %d disagree.\n\n"
                % (dn, dbad))
        if drv:
            keys = list(drv[0].keys())
            o.write("| " + " | ".join(keys) + " |\n")
            o.write("|" + "---|" * len(keys) + "\n")
            for d in drv:
                o.write("| " + " | ".join(d[k] or "" for k in keys) + " |\n")
    if driver_csv:
        with open(driver_csv, "w") as f:
            f.write(open(os.path.join(out, "driver.csv")).read())
    o_result = "PASS" if not bad else "FAIL"
    with open(md, "a") as o:
        o.write("\nResult: **%s**\n" % o_result)
    print("binaries: %d comparisons, %d disagreements; driver rows %d; %s"
          % (total, bad, len(drv), o_result))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "collect":
        collect(*sys.argv[2:])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "report":
        sys.exit(report(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
