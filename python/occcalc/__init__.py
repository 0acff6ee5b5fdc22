"""occcalc: CUDA occupancy as the occcalc command line computes it.

The functions call libocccalc (through ctypes: no compiler, no
dependency) and return plain dicts whose keys are occcalc's field names,
equal to the rows `occcalc ... -f json` prints:

    >>> import occcalc
    >>> row = occcalc.occupancy(arch="sm_90", block=128, regs=40)
    >>> row["occupancy_pct"], row["limiter"]
    (75.0, ['registers'])

Nothing is kept between calls but the tables and the GPU list, read once
per directory and never changed (an Env); pass env= to use another.
Errors raise occcalc.Error with the library's status and message.
"""
import ctypes
import json
import os
import threading
from json import decoder as _decoder

from . import _lib, _row, _stream
from ._kernels import kernels
from ._summary import launch_summary
from ._check import check, compare, Verdict
from ._sweep import sweep

__all__ = ["Error", "Env", "occupancy", "best_block", "launches",
           "annotate", "fields", "archs", "gpus", "info", "launch_summary",
           "check", "compare", "Verdict", "sweep",
           "kernels"]


class Error(Exception):
    """A question the library refused: .status is its enum occ_status,
    .name that status's name (OCC_ERR_UNKNOWN_ARCH)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        name = _lib.load().occ_status_name(status)
        self.name = name.decode() if name else None


def _refused(st, arch, gpu, diag, what="occupancy"):
    """The library's refusal of a row, in the words of what was asked."""
    key = diag.key.decode(errors="replace")
    if gpu and key == gpu and st == _lib.OCC_ERR_UNKNOWN_ARCH:
        raise Error(st, f"{what}: gpu {gpu!r}: not one GPU of the list "
                    "(occcalc.gpus() or occcalc --list-gpus lists them)")
    if st == _lib.OCC_ERR_UNSUPPORTED and key:
        raise Error(st, f"occupancy: cluster= refused: {key} "
                    "(occcalc --cluster says what would tell)")
    if key == "layout" and st == _lib.OCC_ERR_MISSING_KEY:
        raise Error(st, "occupancy: cluster= needs the GPU's GPC layout: "
                    "gpu= (a GPU of the list) or sms=")
    if key == "sms" and st == _lib.OCC_ERR_MISSING_KEY:
        raise Error(st, "occupancy: grid= needs the GPU's SMs: sms=, or a "
                    "gpu= whose SM count the list gives")
    if gpu and key == gpu and st == _lib.OCC_ERR_INCONSISTENT:
        raise Error(st, f"{what}: gpu {gpu!r} is not arch {arch!r}")
    _fail(st, what, diag)


def _fail(st, what, diag=None):
    lib = _lib.load()
    text = lib.occ_strerror(st).decode()
    key = diag.key.decode(errors="replace") if diag is not None else ""
    raise Error(st, f"{what}: {text}" +
                (f" ({key})" if key else ""))


class Env:
    """The tables and the GPU list (dir: OCCCALC_TABLES, else the
    installed ones), read once; safe to share between threads."""

    def __init__(self, tables=None):
        lib = _lib.load()
        diag = _lib.Diag()
        handle = ctypes.c_void_p()
        st = lib.occ_env_open(tables.encode() if tables else None,
                              ctypes.byref(handle), ctypes.byref(diag))
        if st != 0:
            where = diag.file.decode(errors="replace")
            line = f":{diag.line}" if diag.line else ""
            raise Error(st, "tables: %s%s: %s" % (
                where or (tables or "default"), line,
                lib.occ_strerror(st).decode()))
        self._lib = lib
        self._handle = handle

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._lib.occ_env_free(handle)
            self._handle = None


_envs = {}
_envs_lock = threading.Lock()


def _env(env, tables):
    if env is not None:
        return env
    key = tables or os.environ.get("OCCCALC_TABLES") or ""
    found = _envs.get(key)
    if found is not None:
        return found
    with _envs_lock:
        if key not in _envs:
            _envs[key] = Env(tables)
        return _envs[key]


def _field_list(fields):
    """fields as the library takes them: comma-separated bytes, or None."""
    if isinstance(fields, (list, tuple)):
        fields = ",".join(fields)
    return fields.encode() if fields else None


def _block(block, q):
    if block is None:
        return
    if isinstance(block, int):
        q.k.block_size = block
        return
    dims = list(block) + [0] * (3 - len(block))
    if not 1 <= len(block) <= 3 or any(d < 1 for d in block):
        raise Error(_lib.OCC_ERR_INVALID_INPUT,
                    f"block: {block!r}: a count or 1 to 3 dimensions")
    size = 1
    for d in block:
        size *= d
    q.k.block_size = size
    for i in range(3):
        q.shape[i] = dims[i]


def _query(block, regs, smem, static_smem, smem_per_thread, smem_per_warp,
           carveout, optin, barriers, max_threads, grid, sms, headroom):
    q = _lib.Query.from_buffer_copy(_lib.query_defaults())
    k = q.k
    _block(block, q)
    if regs is None:
        q.regs_assumed = 1
    else:
        k.regs_per_thread = regs
    # Only what differs from the defaults is set: a tuner's inner loop.
    if static_smem:
        k.static_smem = static_smem
    if smem or smem_per_thread or smem_per_warp:
        g = q.growth
        g.fixed, g.per_thread, g.per_warp = smem, smem_per_thread, \
            smem_per_warp
    if carveout is not None:
        k.carveout = carveout
    if not optin:
        k.optin = 0
    if barriers != 1:
        k.barriers = barriers
    if max_threads:
        k.max_threads = max_threads
    if grid:
        q.grid = grid
    if sms:
        q.sms = sms
    if headroom:
        q.needs = _lib.OCC_CONFIG_HEADROOM
    return q


def occupancy(arch=None, gpu=None, block=None, regs=None, smem=0,
              static_smem=0, smem_per_thread=0, smem_per_warp=0,
              carveout=None, optin=True, barriers=1, max_threads=0,
              grid=None, sms=None, headroom=False, cluster=None,
              partition=None, partition_flags=None, partition_part=None,
              fields=None, env=None, tables=None):
    """The row `occcalc` prints for these options (its --arch, --gpu,
    --block (a count or a shape), --regs, --smem, --static-smem,
    --smem-per-thread, --smem-per-warp, --carveout, --no-optin,
    --barriers, --grid, --sms, --headroom, --cluster (a size, a shape or
    "best"), --partition (the minimum SMs of a group), --partition-flags
    ("ignore-coscheduling", ...), --partition-part ("group:N" or N,
    "remaining"), --fields), as a dict. Without block, the best block
    size."""
    e = _env(env, tables)
    q = _query(block, regs, smem, static_smem, smem_per_thread,
               smem_per_warp, carveout, optin, barriers, max_threads, grid,
               sms, headroom)
    if cluster is not None or partition is not None or \
            partition_flags is not None or partition_part is not None:
        adds = _row.adds_of(e._lib, cluster, partition, partition_flags,
                            partition_part)
        return _row.row_json(e, arch, gpu, q, adds, _field_list(fields),
                             partition)
    return _row_json(e, arch, gpu, q, _field_list(fields))


def best_block(**options):
    """occupancy() at the block size with the best occupancy."""
    options.pop("block", None)
    return occupancy(**options)


# The C scanner json.loads uses, without its checks of the text's
# encoding and surroundings (a third of a row's time): the library's rows
# are one JSON object each.
_scan = _decoder.JSONDecoder().scan_once
_local = threading.local()


def _scratch(cap):
    """This thread's buffer (of cap bytes at least), size and diag."""
    t = _local
    buf = getattr(t, "buf", None)
    if buf is None or len(buf) < cap:
        buf = t.buf = ctypes.create_string_buffer(cap)
        t.n = ctypes.c_size_t()
        t.diag = _lib.Diag()
        t.tail = (buf, ctypes.c_size_t(len(buf)), ctypes.byref(t.n),
                  ctypes.byref(t.diag))
    return t


def _row_json(e, arch, gpu, q, fields):
    call = e._lib.occ_env_config_json
    cap = 4096
    while True:
        t = _scratch(cap)
        st = call(e._handle, arch.encode() if arch else None,
                  gpu.encode() if gpu else None, ctypes.byref(q), fields,
                  *t.tail)
        if st != 0:
            _refused(st, arch, gpu, t.diag)
        if t.n.value < len(t.buf):
            return _scan(t.buf.value.decode(), 0)[0]
        cap = t.n.value + 1


def launches(path, gpu=None, fields=None, env=None, tables=None,
             buffered=256):
    """The rows of `occcalc --launches PATH -f jsonl` (--gpu, --fields),
    one dict a launch, as the trace (occcalc's or PyTorch's Kineto, plain
    or gzip) is read: at most `buffered` rows are held, so a trace of any
    size is read in bounded memory. Stopping early stops the read."""
    e = _env(env, tables)
    fields = _field_list(fields)

    def call(take):
        diag = _lib.Diag()
        n = ctypes.c_uint64()
        st = e._lib.occ_env_launches_json(
            e._handle, os.fsencode(path), gpu.encode() if gpu else None,
            fields, take, None, ctypes.byref(n), ctypes.byref(diag))
        return st, diag

    yield from _stream.rows(
        call, lambda st, diag: _launches_refused(st, path, gpu, diag),
        _scan, buffered)


def annotate(path, out, gpu=None, env=None, tables=None):
    """Writes the PyTorch profiler trace at path to out (gzip when its
    name ends .gz) as `occcalc --launches PATH --annotate OUT` does: byte
    for byte, each kernel event's args given "occcalc": its occupancy,
    blocks, warps, limiter and waves. Returns out."""
    import gzip
    e = _env(env, tables)
    tmp = "%s.tmp%d" % (out, os.getpid())
    failed = []
    opener = gzip.open if str(out).endswith(".gz") else open
    with opener(tmp, "wb") as f:
        @_lib.WRITE_FN
        def write(ctx, p, n):
            try:
                f.write(ctypes.string_at(p, n))
                return 0
            except OSError as err:
                failed.append(err)
                return 1

        diag = _lib.Diag()
        st = e._lib.occ_env_annotate(e._handle, os.fsencode(path),
                                     gpu.encode() if gpu else None, write,
                                     None, ctypes.byref(diag))
    if st != 0 or failed:
        os.unlink(tmp)
        if failed:
            raise failed[0]
        if st == _lib.OCC_ERR_UNSUPPORTED:
            raise Error(st, f"annotate: {path}: an occcalc trace, not "
                        "PyTorch's: occcalc --chrome-trace writes one")
        _launches_refused(st, path, gpu, diag, "annotate")
    os.replace(tmp, out)
    return out


def _launches_refused(st, path, gpu, diag, what="launches"):
    lib = _lib.load()
    where = diag.file.decode(errors="replace") or str(path)
    at = f":{diag.line}" if diag.line else (
        f": byte {diag.offset}" if diag.offset else "")
    key = diag.key.decode(errors="replace")
    if gpu and key == gpu:
        raise Error(st, f"{what}: gpu {gpu!r}: not one GPU of the list "
                    "with an SM count")
    text = ("not a PyTorch profiler or occcalc trace"
            if st == _lib.OCC_ERR_SYNTAX else lib.occ_strerror(st).decode())
    raise Error(st, f"{what}: {where}{at}: {text}" +
                (f" ({key})" if key else ""))


def fields(kind="occupancy"):
    """The fields of a kind of row: [{'field', 'type', 'description'}]."""
    lib = _lib.load()
    k = _lib.kind(kind)
    out = []
    for i in range(lib.occ_row_kind_count(k)):
        f = lib.occ_row_kind_field(k, i).contents
        out.append({"field": f.name.decode(),
                    "type": lib.occ_field_type_name(f.type).decode(),
                    "description": f.desc.decode()})
    return out


def _listing(call, what, fields, env, tables):
    """The rows a listing of the library hands over, as dicts."""
    e = _env(env, tables)
    rows = []

    @_lib.JSON_ROW_FN
    def take(ctx, text, length):
        rows.append(_scan(text.decode(), 0)[0])
        return 0

    diag = _lib.Diag()
    st = getattr(e._lib, call)(e._handle, _field_list(fields), take, None,
                               ctypes.byref(diag))
    if st != 0:
        _fail(st, what, diag)
    return rows


def archs(fields=None, env=None, tables=None):
    """The rows of `occcalc --list-archs -f json` (--fields): one dict a
    table, in the command line's order."""
    return _listing("occ_env_archs_json", "archs", fields, env, tables)


def gpus(fields=None, env=None, tables=None):
    """The rows of `occcalc --list-gpus -f json` (--fields): one dict a
    GPU of the list, the names gpu= takes."""
    return _listing("occ_env_gpus_json", "gpus", fields, env, tables)


def info(arch=None, gpu=None, fields=None, env=None, tables=None):
    """The record `occcalc --arch ARCH --info -f json` prints (--gpu NAME:
    its table's; --fields), as a dict: the table's values under their
    cudaDeviceProp names."""
    if not arch and not gpu:
        raise Error(_lib.OCC_ERR_INVALID_INPUT, "info: arch= or gpu= names "
                    "the table")
    e = _env(env, tables)
    cap = 8192
    while True:
        buf = ctypes.create_string_buffer(cap)
        n = ctypes.c_size_t()
        diag = _lib.Diag()
        st = e._lib.occ_env_info_json(
            e._handle, arch.encode() if arch else None,
            gpu.encode() if gpu else None, _field_list(fields), buf, cap,
            ctypes.byref(n), ctypes.byref(diag))
        if st != 0:
            _refused(st, arch, gpu, diag, "info")
        if n.value < cap:
            return _scan(buf.value.decode(), 0)[0]
        cap = n.value + 1
