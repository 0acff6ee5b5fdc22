#!/bin/sh
# launches-kineto.sh OCCCALC [MB] [DIR] - reading a large PyTorch profiler
# (Kineto) trace with --launches, in bounded memory: writes a synthetic
# Chrome trace of about MB megabytes (default 1024) into DIR (default a
# temporary directory, removed), as libkineto lays one out (CPU ops with
# call stacks, runtime calls, and kernel events with their args, over 4
# GPUs), plain and gzip, then prints for each the seconds and peak
# resident memory (/usr/bin/time) of the per-launch CSV and of the
# summary. Figures, not a test: nothing here fails on a number.
set -eu
occ=$1
mb=${2:-1024}
own=
if [ $# -ge 3 ]; then dir=$3; else dir=$(mktemp -d); own=$dir; fi
trap '[ -z "$own" ] || rm -rf "$own"' EXIT
f=$dir/kineto-$mb.json

python3 - "$f" "$mb" <<'EOF'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
kernels = [
    ("nvjet_sm90_tst_256x128_64x4_2x1_v_bz_coopB_NNT", 384, 168, 215040, (132, 1, 1)),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)", 128, 24, 0, (4096, 1, 1)),
    ("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0", 384, 168, 147456, (16, 8, 4)),
    ("triton_per_fused_native_layer_norm_0", 256, 32, 2048, (8192, 1, 1)),
]
head = ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n' + ',\n'.join(
    '    {\n      "id": %d, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 84929216512,\n'
    '      "computeMajor": 9, "computeMinor": 0,\n'
    '      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n'
    '      "regsPerBlock": 65536, "warpSize": 32,\n'
    '      "sharedMemPerBlock": 49152, "numSms": 132\n'
    '    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, '
    '"sharedMemPerMultiprocessor": 233472\n    }' % d for d in range(4)) +
    '\n  ],\n  "traceEvents": [\n')
stack = ';'.join('train.py(%d): step' % i for i in range(40))
cpu = ('  {\n    "ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 42, "tid": 42,\n'
       '    "ts": %d.%03d, "dur": 12.250,\n    "args": {\n      "External id": %d, '
       '"Input Dims": [[64, 1024], [1024, 1024]], "Call stack": "' + stack + '"\n    }\n  },\n')
kern = ('  {\n    "ph": "X", "cat": "kernel", "name": "%s", "pid": %d, "tid": 7,\n'
        '    "ts": %d.%03d, "dur": %d.%03d,\n    "args": {\n      "External id": %d,\n'
        '      "queued": 0, "device": %d, "context": 1,\n      "stream": 7, "correlation": %d,\n'
        '      "registers per thread": %d,\n      "shared memory": %d,\n'
        '      "blocks per SM": 1.0,\n      "warps per SM": 12.0,\n'
        '      "grid": [%d, %d, %d],\n      "block": [%d, 1, 1],\n'
        '      "est. achieved occupancy %%": 0\n    }\n  },\n')
limit = mb << 20
with open(path, 'w', buffering=1 << 22) as out:
    out.write(head)
    n, i, t = len(head), 0, 1700000000000000
    while n < limit:
        buf = []
        for _ in range(1000):
            name, block, regs, smem, grid = kernels[i % len(kernels)]
            s = cpu % (t // 1000, t % 1000, i)
            s += kern % (name, i % 4, t // 1000 + 5, t % 1000, 3 + i % 50, i % 1000,
                         i, i % 4, i, regs, smem, grid[0], grid[1], grid[2], block)
            buf.append(s)
            i += 1
            t += 25000
        chunk = ''.join(buf)
        out.write(chunk)
        n += len(chunk)
    out.write('  {"ph": "i", "cat": "marker", "name": "end", "ts": %d.000, "s": "g"}\n  ],\n'
              '  "traceName": "bench"\n}\n' % (t // 1000))
print('%s: %d MB, %d kernel launches' % (path, n >> 20, i), file=sys.stderr)
EOF
gzip -1 -c "$f" >"$f.gz"

printf '%-28s %8s %10s %10s\n' input MB seconds "peak MB"
for input in "$f" "$f.gz"; do
	for how in csv summary; do
		set -- -f csv
		[ "$how" = csv ] || set --
		/usr/bin/time -o "$dir/time" -f '%e %M' "$occ" --launches \
			"$input" "$@" >/dev/null 2>&1
		set -- $(tail -n 1 "$dir/time")
		printf '%-28s %8d %10s %10d\n' "$(basename "$input") $how" \
			$(($(stat -c %s "$input") >> 20)) "$1" $(($2 >> 10))
	done
done
