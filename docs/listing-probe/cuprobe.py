#!/usr/bin/env python3
"""cuprobe.py - what the CUDA driver does with the fatbins of a host ELF
(or a cubin/fatbin file): per fatbin, its entries (kind, sm, sizes), the
time cuModuleLoadData takes, and the time to get every function's
attributes and occupancy. Made for issue 29 (items 9 and 12).

usage: cuprobe.py FILE [--limit SECONDS] [--names NAMES_FILE] [--only-sm N]
"""
import ctypes as C, struct, sys, time, os, faulthandler
faulthandler.enable()

def elf_section(buf, name):
    if buf[:4] != b'\x7fELF':
        return None
    shoff, = struct.unpack_from('<Q', buf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', buf, 0x3a)
    def sh(i):
        return struct.unpack_from('<IIQQQQIIQQ', buf, shoff + i * shentsize)
    stro = sh(shstrndx)[4]
    for i in range(shnum):
        s = sh(i)
        n = buf[stro + s[0]:buf.index(b'\0', stro + s[0])].decode()
        if n == name:
            return s[4], s[5]
    return None

def fatbins(buf):
    """(offset, [(kind, sm, flags, hsize, size, usize)]) of each fatbin."""
    if buf[:4] == b'\x50\xed\x55\xba':
        lo, hi = 0, len(buf)
    else:
        sec = elf_section(buf, '.nv_fatbin')
        if not sec:
            return []
        lo, hi = sec[0], sec[0] + sec[1]
    out, off = [], lo
    while off + 16 <= hi:
        if struct.unpack_from('<I', buf, off)[0] != 0xBA55ED50:
            off += 8
            continue
        hs, = struct.unpack_from('<H', buf, off + 6)
        size, = struct.unpack_from('<Q', buf, off + 8)
        ents, e = [], off + hs
        while e + 64 <= off + hs + size:
            kind, = struct.unpack_from('<H', buf, e)
            ehs, = struct.unpack_from('<I', buf, e + 4)
            psz, = struct.unpack_from('<Q', buf, e + 8)
            sm, = struct.unpack_from('<I', buf, e + 28)
            flags, = struct.unpack_from('<Q', buf, e + 40)
            usz, = struct.unpack_from('<Q', buf, e + 56)
            ents.append((kind, sm, flags, ehs, psz, usz))
            e += ehs + psz
        out.append((off, ents))
        off += hs + size
        off = (off + 7) & ~7
    return out

cu = C.CDLL('libcuda.so.1')
P = C.c_void_p
cu.cuModuleLoadData.argtypes = [C.POINTER(P), P]
cu.cuModuleGetFunction.argtypes = [C.POINTER(P), P, C.c_char_p]
cu.cuFuncGetAttribute.argtypes = [C.POINTER(C.c_int), C.c_int, P]
cu.cuOccupancyMaxActiveBlocksPerMultiprocessor.argtypes = [C.POINTER(C.c_int), P, C.c_int, C.c_size_t]
cu.cuModuleGetFunctionCount.argtypes = [C.POINTER(C.c_uint), P]
cu.cuModuleEnumerateFunctions.argtypes = [C.POINTER(P), C.c_uint, P]
cu.cuFuncGetName.argtypes = [C.POINTER(C.c_char_p), P]
cu.cuModuleUnload.argtypes = [P]
def ck(r, what):
    if r:
        s = C.c_char_p()
        cu.cuGetErrorName(r, C.byref(s))
        return s.value.decode()
    return None

def init():
    assert cu.cuInit(0) == 0
    dev = C.c_int(); cu.cuDeviceGet(C.byref(dev), 0)
    ctx = C.c_void_p(); cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev)
    cu.cuCtxSetCurrent(ctx)
    ma, mi = C.c_int(), C.c_int()
    cu.cuDeviceGetAttribute(C.byref(ma), 75, dev)
    cu.cuDeviceGetAttribute(C.byref(mi), 76, dev)
    return ma.value * 10 + mi.value

def attrs(f):
    v = []
    for a in (4, 1, 3, 0):     # regs, static smem, local, max threads
        x = C.c_int(); r = cu.cuFuncGetAttribute(C.byref(x), a, f)
        v.append(x.value if r == 0 else 'err%d' % r)
    b = C.c_int()
    r = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(C.byref(b), f, 128, C.c_size_t(0))
    v.append(b.value if r == 0 else 'err%d' % r)
    return v

def load(ptr):
    mod = C.c_void_p()
    t = time.time()
    r = cu.cuModuleLoadData(C.byref(mod), ptr)
    return mod, time.time() - t, ck(r, 'load')

def functions(mod):
    n = C.c_uint()
    if cu.cuModuleGetFunctionCount(C.byref(n), mod):
        return []
    arr = (C.c_void_p * n.value)()
    cu.cuModuleEnumerateFunctions(arr, n, mod)
    return list(arr)

def fname(f):
    s = C.c_char_p()
    return s.value.decode() if cu.cuFuncGetName(C.byref(s), C.c_void_p(f)) == 0 else '?'

def main():
    path = sys.argv[1]
    limit = float(sys.argv[sys.argv.index('--limit') + 1]) if '--limit' in sys.argv else 1e9
    names = None
    if '--names' in sys.argv:
        names = [l.strip() for l in open(sys.argv[sys.argv.index('--names') + 1]) if l.strip()]
    cc = init()
    data = open(path, 'rb').read()
    buf = C.create_string_buffer(data, len(data))
    base = C.addressof(buf)
    fbs = fatbins(data)
    print('# %s: %d fatbins, device %d, CUDA_MODULE_LOADING=%s CUDA_CACHE_DISABLE=%s'
          % (path, len(fbs), cc, os.environ.get('CUDA_MODULE_LOADING'), os.environ.get('CUDA_CACHE_DISABLE')))
    if not fbs:       # a cubin
        mod, dt, err = load(P(base))
        print('cubin load %.4f s %s' % (dt, err or 'ok'))
        if not err:
            for f in functions(mod):
                print('function', fname(f), *attrs(C.c_void_p(f)))
        return
    t0 = time.time()
    tot = {'load': 0.0, 'attrs': 0.0, 'funcs': 0, 'jit_loads': 0, 'jit_s': 0.0, 'sass_loads': 0, 'sass_s': 0.0}
    print('fatbin_offset entries sass_for_device ptx_max_sm max_usize load_s result functions attrs_s')
    for off, ents in fbs:
        if time.time() - t0 > limit:
            print('# stopped at the limit after', fbs.index((off, ents)), 'fatbins')
            break
        sass = any(k == 2 and s == cc for k, s, *_ in ents)
        ptx = max([s for k, s, *_ in ents if k == 1 and s <= cc] or [0])
        runs = sass or ptx
        if not runs:
            continue
        mod, dt, err = load(P(base + off))
        t = time.time()
        fs = [] if err else functions(mod)
        if names is not None and not err:
            fs = []
            for n in names:
                f = C.c_void_p()
                if cu.cuModuleGetFunction(C.byref(f), mod, n.encode()) == 0:
                    fs.append(f.value)
        for f in fs:
            a = attrs(C.c_void_p(f))
            if names is not None:
                print('function', fname(f), *a)
        da = time.time() - t
        tot['load'] += dt; tot['attrs'] += da; tot['funcs'] += len(fs)
        key = 'sass' if sass else 'jit'
        tot[key + '_loads'] += 1; tot[key + '_s'] += dt
        print(off, len(ents), int(sass), ptx, max(e[5] for e in ents), '%.4f' % dt, err or 'ok', len(fs), '%.4f' % da)
        if not err:
            cu.cuModuleUnload(mod)
    print('# total', {k: (round(v, 3) if isinstance(v, float) else v) for k, v in tot.items()}, 'wall %.2f s' % (time.time() - t0))

main()
