#!/usr/bin/env python3
"""ncu_compact.py - Nsight Compute's --csv log (one line per launch and
metric, notes before it) as one row per launch: ID, kernel, grid, block
(as ncu prints them), then every metric by name, values without
thousands separators. Used for t/fixtures/traces/ncu.csv.

  ncu_compact.py NCU_LOG OUT.csv"""
import csv
import io
import sys


def main():
    src, dst = sys.argv[1:3]
    with open(src) as f:
        text = f.read()
    launches, names = {}, []
    for m in csv.DictReader(io.StringIO(text[text.index('"ID"'):])):
        launch = launches.setdefault(int(m["ID"]), {
            "id": m["ID"], "kernel": m["Kernel Name"],
            "grid": m["Grid Size"], "block": m["Block Size"]})
        name = m["Metric Name"]
        if not name:
            continue
        if name not in names:
            names.append(name)
        launch[name] = m["Metric Value"].replace(",", "")
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, ["id", "kernel", "grid", "block"] +
                           sorted(names), lineterminator="\n")
        w.writeheader()
        for i in sorted(launches):
            w.writerow(launches[i])


if __name__ == "__main__":
    main()
