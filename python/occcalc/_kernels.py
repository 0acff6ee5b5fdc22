"""occcalc.kernels(): the rows of `occcalc --kernels PATH -f jsonl`, one
dict a kernel, computed by the library as the command line computes
them (occ_env_kernels_json)."""
import ctypes
import os

from . import _lib, _stream


def kernels(path, gpu=None, arch=None, block=None, smem=None, fields=None,
            env=None, tables=None, buffered=256):
    """The rows of `occcalc --kernels PATH [--gpu G] [--arch A] [--block B]
    [--smem S] [--fields F] -f jsonl`: a compiler report ('nvcc -Xptxas
    -v', 'cuobjdump --dump-resource-usage'), PTX, a binary or a directory
    of them (a Triton cache: each kernel at its launch), one dict a kernel
    as it is read; where a kernel declares a cluster and gpu is given,
    cluster launches, with the cluster fields. Error where the input
    cannot be read or where no kernel runs on the GPU named."""
    # The package's helpers, once it has finished importing this module.
    from . import Error, _env, _field_list, _scan
    if block is not None and (not isinstance(block, int) or block <= 0):
        raise Error(_lib.OCC_ERR_INVALID_INPUT,
                    f"kernels: block={block!r}: a thread count above 0")
    if smem is not None and (not isinstance(smem, int) or smem < 0):
        raise Error(_lib.OCC_ERR_INVALID_INPUT,
                    f"kernels: smem={smem!r}: bytes, 0 or more")
    e = _env(env, tables)
    wanted = _field_list(fields)

    def call(take):
        diag = _lib.KernelsDiag()
        st = e._lib.occ_env_kernels_json(
            e._handle, os.fsencode(path), arch.encode() if arch else None,
            gpu.encode() if gpu else None, block or 0,
            -1 if smem is None else smem, wanted, take, None,
            ctypes.byref(diag))
        return st, diag

    yield from _stream.rows(
        call, lambda st, diag: _refused(Error, st, path, gpu or arch, diag),
        _scan, buffered)


def _refused(Error, st, path, target, diag):
    lib = _lib.load()
    msg = diag.msg.decode(errors="replace")
    key = diag.data.key.decode(errors="replace")
    if msg:
        raise Error(st, f"kernels: {msg}")
    where = diag.data.file.decode(errors="replace")
    at = f":{diag.data.line}" if diag.data.line else ""
    text = lib.occ_strerror(st).decode()
    if target and key == target:
        raise Error(st, f"kernels: {target!r}: {text}")
    raise Error(st, f"kernels: {where or path}{at}: {text}" +
                (f" ({key})" if key else ""))
