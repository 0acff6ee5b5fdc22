"""occcalc.check() and compare(): --check's expressions on a row a
program holds (occcalc/check.h), and --compare's matching of two builds'
rows (occcalc/row_compare.h), by the library's rules, so that Python and
the command line cannot judge rows differently."""
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


class _CompareDiag(ctypes.Structure):
    _fields_ = [("old", ctypes.c_int), ("row", ctypes.c_size_t),
                ("field", ctypes.c_char * 64), ("value", ctypes.c_char * 48)]


class _CompareStats(ctypes.Structure):
    _fields_ = [("changed", ctypes.c_uint64), ("added", ctypes.c_uint64),
                ("removed", ctypes.c_uint64), ("unchanged", ctypes.c_uint64)]


_COMPARE_BY_BLOCK = 1
_COMPARE_ALL = 2

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
    lib.occ_row_set_new.restype = c.c_int
    lib.occ_row_set_new.argtypes = [c.POINTER(P)]
    lib.occ_row_set_free.restype = None
    lib.occ_row_set_free.argtypes = [P]
    lib.occ_row_set_add_json.restype = c.c_int
    lib.occ_row_set_add_json.argtypes = [P, c.c_char_p, c.c_size_t,
                                         c.POINTER(_RowsDiag)]
    lib.occ_row_sets_compare_json.restype = c.c_int
    lib.occ_row_sets_compare_json.argtypes = [
        P, P, c.c_uint, c.c_char_p, _lib.JSON_ROW_FN, P,
        c.POINTER(_CompareStats), c.POINTER(_CompareDiag)]
    return lib


def _error(st, message):
    """occcalc.Error (imported late: the package imports this module)."""
    from . import Error
    return Error(st, message)


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
        e = _error(st, "check: '%s': column %d: %s" % (
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
        raise _error(st, "check: row: %s" % (
            diag.what.decode(errors="replace") or
            lib.occ_strerror(st).decode()))
    return Verdict(_VALUES[value.value], failures,
                   absent.contents.name.decode() if absent else None)



def _row_set(lib, rows, side):
    """A set of the library's holding rows (dicts or JSON texts)."""
    handle = ctypes.c_void_p()
    if lib.occ_row_set_new(ctypes.byref(handle)) != 0:
        raise MemoryError("compare: out of memory")
    text = b"\n".join(_row_json(r) for r in rows)
    diag = _RowsDiag()
    # No rows is no JSON: an empty side, not a refusal.
    st = lib.occ_row_set_add_json(handle, text, len(text),
                                  ctypes.byref(diag)) if text else 0
    if st != 0:
        lib.occ_row_set_free(handle)
        at = "row %d: " % diag.line if diag.line else ""
        raise _error(st, "compare: %s rows: %s%s" % (
            side, at, diag.what.decode(errors="replace")))
    return handle


def _compare_refused(lib, st, diag):
    side = "old" if diag.old else "new"
    field = diag.field.decode(errors="replace")
    if st == _lib.OCC_ERR_MISSING_KEY:
        return _error(st, "compare: %s row %d has no %s: not occcalc's "
                      "--kernels rows" % (side, diag.row + 1, field))
    if st == _lib.OCC_ERR_BAD_VALUE:
        return _error(st, "compare: %s row %d: %s: '%s' is not a number" % (
            side, diag.row + 1, field, diag.value.decode(errors="replace")))
    if st == _lib.OCC_ERR_UNKNOWN_KEY:
        return _error(st, "compare: fields: %r: no such field of compare "
                      "rows" % field)
    return _error(st, "compare: " + lib.occ_strerror(st).decode())


def compare(old_rows, new_rows, block=False, all=False, fields=None):
    """The rows of `occcalc --kernels NEW --compare OLD -f json` for two
    builds' rows (dicts of --kernels' rows, as its -f json gives them, or
    their JSON texts): kernels matched by symbol, image (arch) and, with
    block=True (--block), block; each a dict with the change (changed,
    added, removed; unchanged too with all=True, --all), the fields that
    changed, and old_, new and d_ (the delta, exact) of each field
    compared; fields= as --fields."""
    from . import _field_list, _scan
    lib = _declared(_lib.load())
    out = []

    @_lib.JSON_ROW_FN
    def take(ctx, text, length):
        out.append(_scan(text.decode(), 0)[0])
        return 0

    old = _row_set(lib, old_rows, "old")
    try:
        new = _row_set(lib, new_rows, "new")
    except Exception:
        lib.occ_row_set_free(old)
        raise
    try:
        stats = _CompareStats()
        diag = _CompareDiag()
        st = lib.occ_row_sets_compare_json(
            old, new, (_COMPARE_BY_BLOCK if block else 0) |
            (_COMPARE_ALL if all else 0), _field_list(fields), take, None,
            ctypes.byref(stats), ctypes.byref(diag))
    finally:
        lib.occ_row_set_free(old)
        lib.occ_row_set_free(new)
    if st != 0:
        raise _compare_refused(lib, st, diag)
    return out
