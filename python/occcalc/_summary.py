"""occcalc.launch_summary(): a trace's launches summed by kernel or
operator, the rows of `occcalc --launches PATH --summary -f json`."""
import ctypes
import json
import os

from . import _lib


def launch_summary(path, gpu=None, by="kernel", env=None, tables=None):
    """The rows of `occcalc --launches PATH --summary -f json` (--gpu,
    --by kernel|op): one dict a kernel (or PyTorch operator) on one GPU,
    ranked by GPU time, with its launches, shapes, weighted occupancy,
    limiters, time below 25 and 50 % and in partial last waves, and its
    heaviest configuration's headroom. The trace (occcalc's or PyTorch's
    Kineto, plain or gzip) is read as a stream: what is held grows with
    its kernels, never its launches."""
    # The package's helpers, once it has finished importing this module.
    from . import Error, _env, _launches_refused
    if by not in ("kernel", "op"):
        raise Error(_lib.OCC_ERR_INVALID_INPUT,
                    f"launch_summary: by={by!r}: kernel or op")
    e = _env(env, tables)
    rows = []

    @_lib.JSON_ROW_FN
    def take(ctx, text, length):
        rows.append(json.loads(text))
        return 0

    diag = _lib.Diag()
    st = e._lib.occ_env_launch_summary_json(
        e._handle, os.fsencode(path), gpu.encode() if gpu else None,
        by.encode(), take, None, ctypes.byref(diag))
    if st != 0:
        _launches_refused(st, path, gpu, diag, "launch_summary")
    return rows
