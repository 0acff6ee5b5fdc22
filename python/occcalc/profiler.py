"""torch.profiler's on_trace_ready, with occcalc's figures in the trace.

    import torch, occcalc.profiler
    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CUDA],
            schedule=torch.profiler.schedule(wait=1, warmup=1, active=2),
            on_trace_ready=occcalc.profiler.trace_handler("traces")) as p:
        for step in range(4):
            train_step()
            p.step()

Each trace is written where and as tensorboard_trace_handler writes it
(DIR/WORKER.TIME.pt.trace.json, gzip unless use_gzip=False), and each
kernel event's args hold "occcalc": its theoretical occupancy, blocks and
warps per SM, limiter and waves on the GPU it ran on, as occcalc
--annotate writes them: Perfetto and chrome://tracing show them beside
Kineto's own. The handler imports no torch itself.
"""
import os
import socket
import time

from . import annotate


def trace_handler(dir_name=".", worker_name=None, use_gzip=True, gpu=None):
    """An on_trace_ready callable; gpu= models every launch on another GPU
    of occcalc's list (occcalc --gpu). Its .written lists the traces."""

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or "%s_%d" % (socket.gethostname(), os.getpid())
        name = "%s.%d.pt.trace.json" % (worker, time.time_ns() // 1000000)
        out = os.path.join(dir_name, name + (".gz" if use_gzip else ""))
        raw = os.path.join(dir_name, ".%s.%d.raw" % (name, os.getpid()))
        prof.export_chrome_trace(raw)
        try:
            annotate(raw, out, gpu=gpu)
        finally:
            os.unlink(raw)
        handler.written.append(out)

    handler.written = []
    return handler
