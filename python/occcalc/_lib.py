"""libocccalc through ctypes: where it is, and the few structures a call
passes (laid out as occcalc.h declares them, checked against the
library's own sizes when it is loaded)."""
import ctypes
import ctypes.util
import os
import threading


class Diag(ctypes.Structure):
    _fields_ = [("file", ctypes.c_char * 512), ("line", ctypes.c_int),
                ("key", ctypes.c_char * 64), ("limit", ctypes.c_uint64),
                ("offset", ctypes.c_uint64)]


class KernelsDiag(ctypes.Structure):
    """A kernel input's failure: its line, or where msg is empty a
    report's figure placed in data."""
    _fields_ = [("msg", ctypes.c_char * 8192), ("data", Diag)]


class Kernel(ctypes.Structure):
    _fields_ = [("block_size", ctypes.c_int),
                ("regs_per_thread", ctypes.c_int),
                ("static_smem", ctypes.c_uint64),
                ("dynamic_smem", ctypes.c_uint64),
                ("barriers", ctypes.c_int), ("carveout", ctypes.c_int),
                ("optin", ctypes.c_int), ("max_threads", ctypes.c_int)]


class Growth(ctypes.Structure):
    _fields_ = [("fixed", ctypes.c_uint64), ("per_thread", ctypes.c_uint64),
                ("per_warp", ctypes.c_uint64)]


class Query(ctypes.Structure):
    _fields_ = [("k", Kernel), ("growth", Growth),
                ("shape", ctypes.c_uint16 * 3), ("sms", ctypes.c_int),
                ("grid", ctypes.c_int64), ("regs_assumed", ctypes.c_int),
                ("needs", ctypes.c_uint)]


class ClusterShape(ctypes.Structure):
    _fields_ = [("dims", ctypes.c_int * 3), ("size", ctypes.c_int)]


class RowAdds(ctypes.Structure):
    _fields_ = [("cluster", ctypes.c_int), ("shape", ClusterShape),
                ("best", ctypes.c_int), ("partition", ctypes.c_int),
                ("min_sms", ctypes.c_int), ("flags", ctypes.c_uint),
                ("group", ctypes.c_int)]


class Field(ctypes.Structure):
    # Only the members a binding reads, which come first.
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int),
                ("desc", ctypes.c_char_p)]


WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.c_size_t)
JSON_ROW_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                               ctypes.c_char_p, ctypes.c_size_t)

_lib = None
_lock = threading.Lock()


def _path():
    """$OCCCALC_LIB, else the library 'make install' put beside this
    package (_where.py), else what the dynamic linker finds."""
    given = os.environ.get("OCCCALC_LIB")
    if given:
        return given
    try:
        from . import _where
        if os.path.exists(_where.LIBRARY):
            return _where.LIBRARY
    except ImportError:
        pass
    return ctypes.util.find_library("occcalc") or "libocccalc.so.0"


def _declare(lib):
    c = ctypes
    P = c.c_void_p
    sigs = {
        "occ_strerror": (c.c_char_p, [c.c_int]),
        "occ_status_name": (c.c_char_p, [c.c_int]),
        "occ_config_need_name": (c.c_char_p, [c.c_uint]),
        "occ_env_open": (c.c_int, [c.c_char_p, c.POINTER(P),
                                   c.POINTER(Diag)]),
        "occ_env_free": (None, [P]),
        "occ_config_query_init": (None, [c.POINTER(Query)]),
        "occ_config_query_size": (c.c_size_t, []),
        "occ_env_config_json": (c.c_int, [P, c.c_char_p, c.c_char_p,
                                          c.POINTER(Query), c.c_char_p,
                                          c.c_char_p, c.c_size_t,
                                          c.POINTER(c.c_size_t),
                                          c.POINTER(Diag)]),
        "occ_env_launches_json": (c.c_int, [P, c.c_char_p, c.c_char_p,
                                            c.c_char_p, JSON_ROW_FN, P,
                                            c.POINTER(c.c_uint64),
                                            c.POINTER(Diag)]),
        "occ_env_launch_summary_json": (c.c_int, [P, c.c_char_p, c.c_char_p,
                                                  c.c_char_p, JSON_ROW_FN, P,
                                                  c.POINTER(Diag)]),
        "occ_env_annotate": (c.c_int, [P, c.c_char_p, c.c_char_p, WRITE_FN,
                                       P, c.POINTER(Diag)]),
        "occ_env_kernels_json": (c.c_int, [P, c.c_char_p, c.c_char_p,
                                           c.c_char_p, c.c_int, c.c_int64,
                                           c.c_char_p, JSON_ROW_FN, P,
                                           c.POINTER(KernelsDiag)]),
        "occ_env_archs_json": (c.c_int, [P, c.c_char_p, JSON_ROW_FN, P,
                                         c.POINTER(Diag)]),
        "occ_env_gpus_json": (c.c_int, [P, c.c_char_p, JSON_ROW_FN, P,
                                        c.POINTER(Diag)]),
        "occ_env_info_json": (c.c_int, [P, c.c_char_p, c.c_char_p,
                                        c.c_char_p, c.c_char_p, c.c_size_t,
                                        c.POINTER(c.c_size_t),
                                        c.POINTER(Diag)]),
        "occ_env_row_json": (c.c_int, [P, c.c_char_p, c.c_char_p,
                                       c.POINTER(Query), c.POINTER(RowAdds),
                                       c.c_char_p, c.c_char_p, c.c_size_t,
                                       c.POINTER(c.c_size_t),
                                       c.POINTER(Diag)]),
        "occ_row_adds_size": (c.c_size_t, []),
        "occ_partition_flags_parse": (c.c_int, [c.c_char_p,
                                                c.POINTER(c.c_uint),
                                                c.POINTER(Diag)]),
        "occ_partition_part_parse": (c.c_int, [c.c_char_p,
                                               c.POINTER(c.c_int)]),
        "occ_row_kind_count": (c.c_size_t, [P]),
        "occ_row_kind_field": (c.POINTER(Field), [P, c.c_size_t]),
        "occ_field_type_name": (c.c_char_p, [c.c_int]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    # The call a tuner makes in its inner loop goes without ctypes'
    # conversions (a third of its time): its callers pass each argument
    # as the C type it is (_row_json).
    lib.occ_env_config_json.argtypes = None
    for struct, size, name in (
            (Query, lib.occ_config_query_size(), "occ_config_query"),
            (RowAdds, lib.occ_row_adds_size(), "occ_row_adds")):
        if size != ctypes.sizeof(struct):
            raise ImportError("occcalc: this package does not match %s "
                              "(struct %s: %d bytes, not %d)" %
                              (lib._name, name, size, ctypes.sizeof(struct)))


def _constants(name_of, value_of):
    """The library's constants, named by name_of(i) until it gives None,
    as module constants (OCC_ERR_RANGE, OCC_CONFIG_HEADROOM): no copy of
    its header to drift from it."""
    i = 0
    while True:
        name = name_of(i)
        if name is None:
            return
        globals()[name.decode()] = value_of(i)
        i += 1


def load():
    global _lib
    with _lock:
        if _lib is None:
            lib = ctypes.CDLL(_path())
            _declare(lib)
            _constants(lib.occ_status_name, int)
            _constants(lib.occ_config_need_name, lambda i: 1 << i)
            _lib = lib
        return _lib


_defaults = None


def query_defaults():
    """occcalc's defaults for a query (occ_config_query_init), as bytes
    to copy."""
    global _defaults
    if _defaults is None:
        q = Query()
        load().occ_config_query_init(ctypes.byref(q))
        _defaults = bytes(q)
    return _defaults


_KINDS = {"occupancy": "occ_config_kind", "launch": "occ_launch_kind",
          "launch_summary": "occ_launch_summary_kind",
          "list-archs": "occ_archs_kind", "list-gpus": "occ_gpus_kind",
          "compare": "occ_compare_kind", "kernels": "occ_kernel_kind"}


def kind(name):
    """The address of a kind of row's table, by the name --list-fields
    gives it."""
    if name not in _KINDS:
        raise KeyError(f"no kind of row {name!r} in the library "
                       f"({', '.join(sorted(_KINDS))})")
    return ctypes.addressof(ctypes.c_char.in_dll(load(), _KINDS[name]))
