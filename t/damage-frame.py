# damage-frame.py SRC DST - SRC with 64 bytes overwritten at 95 % of its
# largest single-segment Zstandard frame (found in .nv_fatbin), into DST:
# a frame that libzstd refuses for one reason in a run of the image's
# size and for another in a larger room (an image decompressed in place).
import struct
import sys

b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
stroff, = struct.unpack_from('<Q', b, shoff + shstrndx * shentsize + 24)
off = size = 0
for i in range(shnum):
    h = shoff + i * shentsize
    name, = struct.unpack_from('<I', b, h)
    if b[stroff + name:stroff + name + 11] == b'.nv_fatbin\0':
        off, size = struct.unpack_from('<QQ', b, h + 24)
best = None
pos = off
while pos + 16 <= off + size:
    magic, _, hs, fs = struct.unpack_from('<IHHQ', b, pos)
    if magic != 0xBA55ED50:
        pos += 8
        continue
    p = pos + hs
    while p + 64 <= pos + hs + fs:
        ehs, esize = struct.unpack_from('<IQ', b, p + 4)
        cs, = struct.unpack_from('<I', b, p + 16)
        f = p + ehs
        if (b[f:f + 4] == b'\x28\xb5\x2f\xfd' and b[f + 4] & 0x20 and
                (best is None or cs > best[1])):
            best = (f, cs)
        p += ehs + esize
    pos += hs + fs
if best is None:
    sys.exit(1)
k = best[0] + best[1] * 95 // 100
b[k:k + 64] = bytes((2 * 131 + 17 * i) % 256 for i in range(64))
open(sys.argv[2], 'wb').write(b)
