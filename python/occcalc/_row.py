"""occupancy()'s row with what the command line adds to a configuration:
a cluster launch (--cluster) and a part of the GPU (--partition,
--partition-flags, --partition-part), their fields named with the
configuration's (--fields). One library call, occ_env_row_json: the
words of the flags and parts are the library's too."""
import ctypes

from . import _lib


def _error(status, message):
    from . import Error
    return Error(status, message)


def _cluster(cluster, adds):
    if cluster is None:
        return
    adds.cluster = 1
    if cluster == "best":
        adds.best = 1
        return
    dims = [cluster] if isinstance(cluster, int) else list(cluster)
    if not 1 <= len(dims) <= 3 or any(not isinstance(d, int) or d < 1
                                      for d in dims):
        raise _error(_lib.OCC_ERR_INVALID_INPUT, f"occupancy: cluster "
                     f"{cluster!r}: a size, 1 to 3 dimensions or 'best'")
    dims += [1] * (3 - len(dims))
    for i in range(3):
        adds.shape.dims[i] = dims[i]
    adds.shape.size = dims[0] * dims[1] * dims[2]


def _words(lib, flags, part, adds):
    """partition_flags and partition_part as the command line's words."""
    diag = _lib.Diag()
    if flags is not None:
        out = ctypes.c_uint()
        st = lib.occ_partition_flags_parse(str(flags).encode(),
                                           ctypes.byref(out),
                                           ctypes.byref(diag))
        if st != 0:
            raise _error(st, f"occupancy: partition_flags {flags!r}: " + (
                "ignore-coscheduling and max-cluster-size together: the "
                "driver refuses the pair" if st == _lib.OCC_ERR_INVALID_INPUT
                else "not ignore-coscheduling, max-cluster-size or "
                "default"))
        adds.flags = out.value
    if part is not None:
        text = f"group:{part}" if isinstance(part, int) else str(part)
        out = ctypes.c_int()
        if lib.occ_partition_part_parse(text.encode(), ctypes.byref(out)):
            raise _error(_lib.OCC_ERR_INVALID_INPUT, f"occupancy: "
                         f"partition_part {part!r}: not a part (group, "
                         "group:N or a group's index, remaining)")
        adds.group = out.value


def adds_of(lib, cluster, partition, flags, part):
    adds = _lib.RowAdds()
    _cluster(cluster, adds)
    if partition is None:
        if flags is not None or part is not None:
            raise _error(_lib.OCC_ERR_INVALID_INPUT, "occupancy: "
                         "partition_flags= and partition_part= go with "
                         "partition=")
        return adds
    if isinstance(partition, bool) or not isinstance(partition, int) or \
            not 0 <= partition <= 1024:
        raise _error(_lib.OCC_ERR_INVALID_INPUT, f"occupancy: partition "
                     f"{partition!r}: a minimum SM count, 0 to 1024")
    adds.partition = 1
    adds.min_sms = partition
    _words(lib, flags, part, adds)
    return adds


def _part_refused(st, key, partition):
    """The library's refusal of a part, in the words of what was asked."""
    if key == "sms" and st == _lib.OCC_ERR_MISSING_KEY:
        raise _error(st, "occupancy: partition= needs the GPU's SMs: gpu= "
                     "or sms=")
    if key == "min_sms":
        raise _error(st, f"occupancy: partition {partition}: more than "
                     "the GPU's SMs")
    if key == "layout" and st == _lib.OCC_ERR_INCONSISTENT:
        raise _error(st, "occupancy: partition=: the GPU list's GPC layout "
                     "has other SMs than sms=")
    if st == _lib.OCC_ERR_RANGE:
        raise _error(st, "occupancy: partition_part: a group the split "
                     "does not make")
    if st == _lib.OCC_ERR_UNSUPPORTED and not key:
        raise _error(st, "occupancy: partition=: the split or its part "
                     "is not known here (an architecture without green "
                     "contexts, or a remainder that depends on the GPC "
                     "layout)")


def row_json(e, arch, gpu, q, adds, fields, partition):
    from . import _refused, _scan, _scratch
    cap = 8192
    while True:
        t = _scratch(cap)
        if adds.partition:     # its refusals are told by diag's key
            ctypes.memset(ctypes.byref(t.diag), 0, ctypes.sizeof(t.diag))
        st = e._lib.occ_env_row_json(
            e._handle, arch.encode() if arch else None,
            gpu.encode() if gpu else None, ctypes.byref(q),
            ctypes.byref(adds), fields, *t.tail)
        if st != 0:
            if adds.partition:
                _part_refused(st, t.diag.key.decode(errors="replace"),
                              partition)
            _refused(st, arch, gpu, t.diag)
        if t.n.value < len(t.buf):
            return _scan(t.buf.value.decode(), 0)[0]
        cap = t.n.value + 1
