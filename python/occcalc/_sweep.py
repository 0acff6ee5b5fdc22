"""occcalc.sweep(): the rows of `occcalc --block ... --regs ... -f jsonl`
for lists and ranges of the swept options, on one GPU or architecture or
a list of them. One library call, occ_env_sweep_json: the grammar, the
targets and the order of the rows are the command line's."""
import ctypes

from . import _lib, _stream


class Sweep(ctypes.Structure):
    _fields_ = [("arch", ctypes.c_char_p), ("gpu", ctypes.c_char_p),
                ("block", ctypes.c_char_p), ("regs", ctypes.c_char_p),
                ("smem", ctypes.c_char_p), ("static_smem", ctypes.c_char_p),
                ("q", _lib.Query)]


def _declared(lib):
    """lib, with the calls of this module declared (once)."""
    if not getattr(lib, "_sweep_declared", False):
        c = ctypes
        lib.occ_sweep_size.restype = c.c_size_t
        lib.occ_sweep_size.argtypes = []
        if lib.occ_sweep_size() != c.sizeof(Sweep):
            raise ImportError("occcalc: this package does not match %s "
                              "(struct occ_sweep)" % lib._name)
        lib.occ_env_sweep_json.restype = c.c_int
        lib.occ_env_sweep_json.argtypes = [
            c.c_void_p, c.POINTER(Sweep), c.c_char_p, _lib.JSON_ROW_FN,
            c.c_void_p, c.POINTER(c.c_uint64), c.POINTER(_lib.Diag)]
        lib.occ_seq_refusal.restype = None
        lib.occ_seq_refusal.argtypes = [c.c_int, c.c_uint64, c.c_char_p,
                                        c.c_size_t]
        lib._sweep_declared = True
    return lib


def _error(status, message):
    from . import Error
    return Error(status, message)


def _item(value, name):
    """One item of a list: a number, a shape (a tuple, for block) or a
    text of the grammar."""
    if isinstance(value, bool):
        raise _error(_lib.OCC_ERR_INVALID_INPUT,
                     f"sweep: {name}: {value!r}: not a number")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and name == "block" and \
            all(isinstance(d, int) and not isinstance(d, bool)
                for d in value):
        return "x".join(str(d) for d in value)
    raise _error(_lib.OCC_ERR_INVALID_INPUT, f"sweep: {name}: {value!r}: "
                 "a number, a text (\"32:1024:32\", \"64,128\"), a list "
                 "or a range")


def _range(r, name):
    """A range as the grammar's START:END:STEP, END its last value."""
    if len(r) == 0:
        raise _error(_lib.OCC_ERR_INVALID_INPUT,
                     f"sweep: {name}: {r!r}: no values")
    if r.step < 0:
        return ",".join(str(v) for v in r)
    return f"{r[0]}:{r[-1]}:{r.step}"


def _text(value, name):
    """value in the command line's grammar: None stays None."""
    if value is None:
        return None
    if isinstance(value, range):
        text = _range(value, name)
    elif isinstance(value, list):
        text = ",".join(_range(v, name) if isinstance(v, range)
                        else _item(v, name) for v in value)
    else:
        text = _item(value, name)
    return text.encode()


def _targets(value):
    """arch= or gpu=: a name, a comma-separated list or a list of names."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        value = ",".join(value)
    return value.encode()


_OPTIONS = ("block", "regs", "smem", "static_smem")


def _refused(st, diag, texts, arch, gpu):
    """The library's refusal of a sweep, in the command line's words where
    it has them."""
    from . import _refused as refused_row
    key = diag.key.decode(errors="replace")
    if key in _OPTIONS and st in (_lib.OCC_ERR_SYNTAX, _lib.OCC_ERR_RANGE,
                                  _lib.OCC_ERR_INVALID_INPUT):
        words = ctypes.create_string_buffer(160)
        _lib.load().occ_seq_refusal(diag.line, diag.limit, words, 160)
        raise _error(st, f"sweep: {key}: '{texts[key].decode()}': "
                     f"{words.value.decode()}")
    opt = "gpu" if key == "gpu" else "arch"
    if key in ("gpu", "arch") and st == _lib.OCC_ERR_INVALID_INPUT:
        raise _error(st, "sweep: gpu= with a list names each GPU's "
                     "architecture: leave out arch= (and an arch= list "
                     "takes no gpu=)")
    if key in ("gpu", "arch") and st == _lib.OCC_ERR_RANGE and \
            diag.line == 0:
        raise _error(st, f"sweep: {opt}: more than "
                     f"{diag.limit} in the list")
    if key in ("gpu", "arch") and diag.line:
        given = (gpu if key == "gpu" else arch).decode()
        raise _error(st, f"sweep: {opt}: '{given}': " + (
            "an item too long" if st == _lib.OCC_ERR_RANGE
            else "an empty item in the list"))
    # A target of a list is refused as occupancy() refuses its one.
    if gpu and key in gpu.decode().split(","):
        gpu = key.encode()
    refused_row(st, arch and arch.decode(), gpu and gpu.decode(), diag,
                "sweep")


def sweep(arch=None, gpu=None, block=None, regs=None, smem=None,
          static_smem=None, smem_per_thread=0, smem_per_warp=0,
          carveout=None, optin=True, barriers=1, max_threads=0, grid=None,
          sms=None, headroom=False, fields=None, env=None, tables=None,
          buffered=256):
    """The rows of `occcalc -f jsonl` for a sweep, one dict each, in the
    command line's order (each target of the list, then the block, the
    registers, the static and the dynamic shared memory): block, regs,
    smem and static_smem each a number, a text of the command line's
    grammar ("32:1024:32", "64,128", "0:48K:8K"; block also "16x16"), a
    list of those (a tuple in block's: a shape) or a range; arch and gpu a
    name, a comma-separated list or a list of names (--arch LIST, --gpu
    LIST). The other options as occupancy() takes them. Every value is
    checked before the first row; at most `buffered` rows are held."""
    from . import _env, _field_list, _query, _scan
    if not arch and not gpu:
        raise _error(_lib.OCC_ERR_INVALID_INPUT, "sweep: arch= or gpu= "
                     "names the GPU (or a list of them)")
    e = _env(env, tables)
    lib = _declared(e._lib)
    s = Sweep()
    s.q = _query(None, 0, 0, 0, smem_per_thread, smem_per_warp, carveout,
                 optin, barriers, max_threads, grid, sms, headroom)
    texts = {name: _text(value, name) for name, value in
             zip(_OPTIONS, (block, regs, smem, static_smem))}
    for name, text in texts.items():
        setattr(s, name, text)
    s.arch, s.gpu = _targets(arch), _targets(gpu)
    fields = _field_list(fields)

    def call(take):
        diag = _lib.Diag()
        n = ctypes.c_uint64()
        st = lib.occ_env_sweep_json(e._handle, ctypes.byref(s), fields,
                                    take, None, ctypes.byref(n),
                                    ctypes.byref(diag))
        return st, diag

    return _stream.rows(call, lambda st, diag: _refused(
        st, diag, texts, s.arch, s.gpu), _scan, buffered)
