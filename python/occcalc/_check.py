"""occcalc.check(): --check's expressions on a row a program holds, by the
library's rules (occcalc/check.h), so that Python and `occcalc --check`
cannot judge a row differently."""
import collections
import ctypes
import decimal
import json
import math

from . import _lib


class _CheckError(ctypes.Structure):
    _fields_ = [("column", ctypes.c_size_t), ("msg", ctypes.c_char * 200)]


class _RowsDiag(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_uint64), ("line", ctypes.c_uint64),
                ("column", ctypes.c_uint64), ("what", ctypes.c_char * 160)]


class _Seen(ctypes.Structure):
    _fields_ = [("field", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class _Failure(ctypes.Structure):
    _fields_ = [("text", ctypes.c_void_p), ("len", ctypes.c_size_t),
                ("column", ctypes.c_size_t),
                ("seen", ctypes.POINTER(_Seen)), ("n_seen", ctypes.c_size_t)]


_FAILURE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                               ctypes.POINTER(_Failure))

_VALUES = {0: False, 1: True, 2: None}

Verdict = collections.namedtuple("Verdict", "value failures absent")
Verdict.__doc__ = """check()'s answer. value: True, False, or None where
a field the expression needs is absent from the row (absent: the first
such field's name), which --check lets pass. failures, where value is
False: what --check prints, as dicts {"comparison": its text, "column":
where it starts (1-based), "values": {field: value as written, None if
absent}}, left to right."""


def _declared(lib):
    """lib with the check's functions typed (the same on every call)."""
    c, P = ctypes, ctypes.c_void_p
    lib.occ_check_parse.restype = c.c_int
    lib.occ_check_parse.argtypes = [c.c_char_p, P, c.POINTER(P),
                                    c.POINTER(_CheckError)]
    lib.occ_check_free.restype = None
    lib.occ_check_free.argtypes = [P]
    lib.occ_check_eval_json.restype = c.c_int
    lib.occ_check_eval_json.argtypes = [
        P, c.c_char_p, c.c_size_t, c.POINTER(c.c_int),
        c.POINTER(c.POINTER(_lib.Field)), _FAILURE_FN, P,
        c.POINTER(_RowsDiag)]
    return lib


def _number(x):
    """A float as a decimal without an exponent (occcalc's rows have
    none): its shortest repr, exactly."""
    if not math.isfinite(x):
        return "null"
    return format(decimal.Decimal(repr(x)), "f")


def _value_json(v):
    if isinstance(v, float):
        return _number(v)
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_value_json(x) for x in v) + "]"
    return json.dumps(v)


def _row_json(row):
    """row as the JSON object occcalc would write: a dict, or its text."""
    if isinstance(row, (bytes, str)):
        return row.encode() if isinstance(row, str) else row
    if not isinstance(row, dict):
        raise TypeError("check: row: a dict (a row of occupancy(), "
                        "launches(), ...) or its JSON text")
    return ("{" + ",".join(json.dumps(str(k)) + ":" + _value_json(v)
                           for k, v in row.items()) + "}").encode()


def _parse(lib, expr, kind):
    text = expr.encode()
    handle = ctypes.c_void_p()
    err = _CheckError()
    st = lib.occ_check_parse(text, _lib.kind(kind), ctypes.byref(handle),
                             ctypes.byref(err))
    if st != 0:
        from . import Error
        e = Error(st, "check: '%s': column %d: %s" % (
            expr, err.column, err.msg.decode(errors="replace")))
        e.column = err.column
        raise e
    return text, handle


def check(expr, row, kind="occupancy"):
    """The verdict of `occcalc --check EXPR` on row (a dict that
    occupancy(), launches(), archs() or gpus() returned, or a row's JSON
    text; kind: its kind of row, as fields() names them): a Verdict
    (value, failures, absent). Numbers compare exactly as decimals (75.0
    equals 75.00), sets as their names '+'-joined, a field missing or None
    is absent. A malformed expression raises occcalc.Error with its
    .column."""
    lib = _declared(_lib.load())
    # The expression points into text until it is freed.
    text, handle = _parse(lib, expr, kind)
    failures = []

    @_FAILURE_FN
    def failed(ctx, f):
        f = f.contents
        failures.append({
            "comparison": ctypes.string_at(f.text, f.len).decode(),
            "column": f.column,
            "values": {f.seen[i].field.decode(): (
                f.seen[i].value.decode() if f.seen[i].value is not None
                else None) for i in range(f.n_seen)}})
        return 0

    try:
        data = _row_json(row)
        value = ctypes.c_int()
        absent = ctypes.POINTER(_lib.Field)()
        diag = _RowsDiag()
        st = lib.occ_check_eval_json(handle, data, len(data),
                                     ctypes.byref(value),
                                     ctypes.byref(absent), failed, None,
                                     ctypes.byref(diag))
    finally:
        lib.occ_check_free(handle)
    if st != 0:
        from . import Error
        raise Error(st, "check: row: %s" % (
            diag.what.decode(errors="replace") or
            lib.occ_strerror(st).decode()))
    return Verdict(_VALUES[value.value], failures,
                   absent.contents.name.decode() if absent else None)
