"""make bench-python: what import occcalc costs a tuner's inner loop and
a trace's reader, side by side in one run: occupancy() calls of varied
blocks, registers and shared memory (the default fields, and one field),
and launches() of a PyTorch trace. Prints figures; asserts nothing."""
import os
import sys
import time

import occcalc

N = int(os.environ.get("BENCH_CALLS", "100000"))


def timed(what, n, fn):
    t = time.perf_counter()
    fn()
    s = time.perf_counter() - t
    print("%-44s %8d  %6.3f s  %6.2f us each" % (what, n, s, s / n * 1e6))


occcalc.occupancy(arch="sm_90", block=128, regs=40)
timed("occupancy(), default fields", N, lambda: [
    occcalc.occupancy(arch="sm_90", block=32 * (1 + i % 32), regs=i % 255,
                      smem=(i % 7) * 4096) for i in range(N)])
timed("occupancy(fields='occupancy_pct')", N, lambda: [
    occcalc.occupancy(arch="sm_90", block=32 * (1 + i % 32), regs=i % 255,
                      smem=(i % 7) * 4096, fields="occupancy_pct")
    for i in range(N)])
timed("occupancy(gpu='H100-SXM', cluster=2)", N // 10, lambda: [
    occcalc.occupancy(gpu="H100-SXM", block=32 * (1 + i % 32),
                      regs=i % 255, cluster=2) for i in range(N // 10)])
trace = sys.argv[1]
rows = sum(1 for _ in occcalc.launches(trace))
timed("launches() of %s" % os.path.basename(trace), rows,
      lambda: [r for r in occcalc.launches(trace)])
