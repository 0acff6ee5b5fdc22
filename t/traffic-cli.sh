#!/bin/sh
# traffic-cli.sh - --traffic from the command line: the coalescing study's
# add1-add5 and the Kepler example level by level, each option, the
# formats, sweeps, and bad input.
. "$T/lib.sh"

# cell ROW COLUMN: one cell of CSV output (row 2 = load, 3 = store,
# 4 = total for one launch).
cell() {
	awk -F, -v row="$1" -v name="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR == row { print $c }' "$tmp/out"
}

add() {
	run -a sm_90 --traffic "$1" --grid 131072 --block 64 -f csv
}

add 'z[i] = x[i] + y[i]'
[ "$(cell 4 instructions)" = 786432 ] &&
	[ "$(cell 2 requests)" = 524288 ] && [ "$(cell 3 requests)" = 262144 ] &&
	[ "$(cell 2 sectors)" = 2097152 ] && [ "$(cell 3 sectors)" = 1048576 ]
ok $? "add1: 786,432 instructions; 524,288 and 262,144 requests; 2,097,152 and 1,048,576 sectors"

[ "$(cell 2 l2_bytes_max)" = 67108864 ] && [ "$(cell 3 l2_bytes_max)" = 33554432 ] &&
	[ "$(cell 2 l2_bytes_min)" = 67108864 ] && [ "$(cell 4 footprint_bytes)" = 100663296 ]
ok $? "add1: 67,108,864 and 33,554,432 bytes from L1 to L2, no hit possible"

add 'z[i + 1] = x[i + 1] + y[i + 1]'
[ "$(cell 2 sectors_per_request)" = 5.00 ] && [ "$(cell 2 l2_sectors_min)" = 2097154 ] &&
	[ "$(cell 2 l2_sectors_max)" = 2621440 ] && [ "$(cell 2 efficiency_pct)" = 80.00 ]
ok $? "add2: 5 sectors per request; L1 hits can bring L2 down to each sector once"

add 'z[(i^1)] = x[(i^1)] + y[(i^1)]'
[ "$(cell 2 sectors)" = 2097152 ] && [ "$(cell 2 efficiency_pct)" = 100.00 ]
ok $? "add3: lanes permuted move what add1 moves"

add 'z[i/32] = x[i/32] + y[i/32]'
[ "$(cell 2 sectors_per_request)" = 1.00 ] && [ "$(cell 2 l2_sectors_min)" = 65536 ] &&
	[ "$(cell 2 efficiency_pct)" = 12.50 ]
ok $? "add4: a warp's own element is 1 sector per request, 12.5 %"

add 'z[4*i] = x[4*i] + y[4*i]'
[ "$(cell 2 l2_bytes_max)" = 268435456 ] && [ "$(cell 3 l2_bytes_max)" = 134217728 ] &&
	[ "$(cell 2 sectors_per_request)" = 16.00 ] && [ "$(cell 2 efficiency_pct)" = 25.00 ]
ok $? "add5: stride 4 moves 268,435,456 and 134,217,728 bytes, 25 %"

run -a sm_37 --traffic 'C[x] = A[3] + B[x]' --count 32 --dlcm cg -f csv
[ "$(cell 2 sectors)" = 5 ] && [ "$(cell 2 requested_bytes)" = 132 ] &&
	[ "$(cell 2 l2_bytes_max)" = 160 ] && [ "$(cell 2 efficiency_pct)" = 82.50 ] &&
	[ "$(cell 2 l1_cached)" = false ]
ok $? "Kepler, C[x] = A[3] + B[x], --dlcm cg: 1 + 4 sectors, 132 of 160 bytes, 82.5 %"

run -a sm_37 --traffic 'C[x] = A[3] + B[x]' --count 32 --dlcm ca -f csv
[ "$(cell 2 lines)" = 2 ] && [ "$(cell 2 l2_bytes_max)" = 256 ] &&
	[ "$(cell 2 efficiency_pct)" = 51.56 ] && [ "$(cell 2 l1_cached)" = true ]
ok $? "Kepler, --dlcm ca: loads move two 128-byte lines, 51.56 %"

run -a sm_37 --traffic 'C[x] = A[3] + B[x]' --count 32 -f csv
[ "$(cell 2 l1_cached)" = false ]
ok $? "Kepler's default: loads not cached in L1"

run -a sm_90 --traffic 'z[i + 1] = x[i + 1]' --count 4096 --dlcm cg -f csv
[ "$(cell 2 l2_sectors_min)" = "$(cell 2 l2_sectors_max)" ] && [ "$(cell 2 l1_cached)" = false ]
ok $? "--dlcm cg on sm_90: loads go to L2 whatever hits there could be"

run -a sm_90 --traffic 'z[i] = x[i] + y[i]' --count 1000003 -f csv
[ "$(cell 2 launch_threads)" = 1000003 ] && [ "$(cell 2 warps)" = 31251 ] &&
	[ "$(cell 2 grid)" = "" ] && [ "$(cell 3 requested_bytes)" = 4000012 ]
ok $? "--count N: N threads in consecutive warps, the last partial; no grid"

run -a sm_90 --traffic 'z[i] = x[i]' --count 1024 --threads 9 -f csv
[ "$(cell 2 threads)" = 9 ] && [ "$(cell 2 requested_bytes)" = 1152 ] &&
	[ "$(cell 2 sectors)" = 64 ]
ok $? "--threads 9: 9 active threads of each warp, 2 sectors a request"

run -a sm_90 --traffic 'z[i] = x[i] + y[i]' --count 32 --elem x=16,8 -f csv
[ "$(cell 2 sectors)" = 24 ] && [ "$(cell 3 sectors)" = 8 ] && [ "$(cell 2 elem_size)" = "" ]
ok $? "--elem x=16,8: x of 16 bytes, the others of 8; elem_size absent"

expect 2 "--elem: 'w=8': the accesses have no array 'w'" -a 90 --traffic 'z[i]' --count 10 --elem w=8
long=$(printf 'z=4,%.0s' $(seq 200))
expect 2 "--elem: longer than 511 characters" -a 90 --traffic 'z[i]' --count 10 --elem "$long"
expect 2 "--elem: 'x=4': NAME=BYTES names the arrays of --traffic" -a 90 --access load --elem x=4

run -a sm_90 --traffic 'z[i] = x[i]' --grid 100 --block 64,96,100 --elem 4,8 -f csv
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 19 ] && [ "$(cell 8 block)" = 96 ] &&
	[ "$(cell 19 elem_size)" = 8 ]
ok $? "--block and --elem lists: three rows a launch, every combination"

run -a sm_90 --traffic 'z[i]' --count 32,33:35 --threads 1,32 -f csv
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 25 ] && [ "$(cell 23 launch_threads)" = 35 ]
ok $? "--count and --threads lists sweep too"

run -a sm_90 --traffic 'z[i] = x[i]' --grid 10 --block 64,128
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q '^ *grid *block *threads' &&
	[ "$(wc -l <"$tmp/out")" -eq 7 ]
ok $? "a text sweep: a header and a line per row"

run -a sm_90 --traffic 'z[i] = x[i]' --count 64 --fields op,sectors,dram_bytes_max
[ "$(cat "$tmp/out")" = "$(printf 'op        sectors     DRAM max\nload            8          256\nstore           8          256\ntotal          16          512')" ]
ok $? "--fields: a text table of the fields chosen"

run -a sm_90 --traffic 'z[i] = x[i]' --count 64 -f jsonl --fields op,requests
[ "$(cat "$tmp/out")" = "$(printf '{"op":"load","requests":2}\n{"op":"store","requests":2}\n{"op":"total","requests":4}')" ]
ok $? "JSON Lines: an object a row"

run -a sm_90 --traffic 'z[i] = x[i]' --count 64
grep -q '^L1/TEX ' "$tmp/out" && grep -q '^L1 to L2 ' "$tmp/out" &&
	grep -q '^Device memory ' "$tmp/out" && grep -q '^read ' "$tmp/out"
ok $? "text, one launch: a table per level, as the Memory Tables"

# The index forms (each is checked against the brute force in t/traffic.c).
run -a sm_90 --traffic 'y[i] = x[i+1] - x[i-1]' --grid 1000 --block 256 -f csv
[ "$(cell 2 sectors)" = 80000 ] && [ "$(cell 2 l2_sectors_min)" = 32002 ] &&
	[ "$(cell 3 sectors)" = 32000 ]
ok $? "y[i] = x[i+1] - x[i-1]: 5 sectors a load request; x's 32,002 distinct sectors include element -1's"

run -a sm_90 --traffic 'y[i] = x[N-i]' --define N=4096 --count 4096 -f csv
[ "$(cell 2 sectors_per_request)" = 5.00 ] && [ "$(cell 2 l2_sectors_min)" = 513 ]
ok $? "x[N-i], --define N=4096: reversed, one element past each line: 5 sectors a request, 513 distinct"

run -a sm_90 --traffic 'y[N-1-i] = x[i*stride]' --define N=4096,stride=4 --count 4096 -f csv
[ "$(cell 3 sectors_per_request)" = 4.00 ] && [ "$(cell 2 sectors_per_request)" = 16.00 ]
ok $? "y[N-1-i] is 4 sectors a request (reversed, aligned); x[i*stride] with stride=4 is 16"

run -a sm_90 --traffic 'int row = blockIdx.x*blockDim.y + threadIdx.y; int col = threadIdx.x; a[row*N + col] = b[col*N + row]' --define N=4096 --grid 512 --block 32x8 -f csv
[ "$(cell 2 sectors_per_request)" = 32.00 ] && [ "$(cell 3 sectors_per_request)" = 4.00 ] &&
	[ "$(cell 2 efficiency_pct)" = 12.50 ] && [ "$(cell 2 block)" = 256 ]
ok $? "row*N+col from a 32x8 block: rows stored 4 sectors a request, columns read 32 (12.5 %)"

run -a sm_90 --traffic 'y[threadIdx.x] = x[blockIdx.x*blockDim.x + threadIdx.x]' --grid 100 --block 128 -f csv
[ "$(cell 3 l2_sectors_min)" = 16 ] && [ "$(cell 2 l2_sectors_min)" = 1600 ]
ok $? "y[threadIdx.x]: every block stores the same 16 sectors; x[blockIdx.x*blockDim.x + threadIdx.x] reads 1,600"

run -a sm_90 --traffic 'y[(i^m)] = x[i/g]' --define m=3,g=8 --grid 100 --block 128 -f csv
[ "$(cell 3 sectors_per_request)" = 4.00 ] && [ "$(cell 2 sectors_per_request)" = 1.00 ]
ok $? "(i^m) and i/g with --define m=3,g=8: 4 sectors a store, 1 a load"

run -a sm_90 --traffic 'z[i] = x[i]' --grid 10 --block 16x16
grep -q '^sm_90 (Hopper): 10 blocks of 16x16 (256) threads, 2560 threads in 80 warps$' "$tmp/out"
ok $? "a block's shape is named in the report's head"

# The README's sample is what occcalc prints.
readme="$T/../README.md"
cmd=$(grep '^\$ occcalc .*--traffic' "$readme" | head -1 | sed 's/^\$ occcalc //')
eval "set -- $cmd"
run "$@"
# (the first sample's block only; t/readme.sh checks every sample)
sed -n "/^\\$ occcalc .*--traffic/,/^\`\`\`\$/{p;/^\`\`\`\$/q;}" "$readme" | sed '1d;$d' >"$tmp/readme"
[ -n "$cmd" ] && [ -s "$tmp/out" ] && diff "$tmp/readme" "$tmp/out" >/dev/null
ok $? "README: the --traffic sample is what occcalc prints"

# Bad input: one line, the right exit status.
expect 2 "--traffic: 'z[j] = x[i]': 'i' at character 10 is not the name the text gives the thread's index first, nor defined (--define i=N): an index is an affine expression in the thread's index i (i+c, i-c, c-i, i*k, k*i+c, (i^m), i/g)" -a 90 --traffic 'z[j] = x[i]' --count 10
expect 2 "--traffic: 'y[i*i]': not understood at character 5 ('i]'): an index is an affine expression" -a 90 --traffic 'y[i*i]' --count 10
expect 2 "--traffic: 'y[i % 4]': not understood at character 5 ('% 4]'): an index is an affine expression" -a 90 --traffic 'y[i % 4]' --count 10
expect 2 "--traffic: 'y[threadIdx.x]': threadIdx, blockIdx, blockDim and gridDim need a launch of blocks: --grid and --block, not --count" -a 90 --traffic 'y[threadIdx.x]' --count 10
expect 2 "--define: 'N': NAME=INTEGER, as N=4096" -a 90 --traffic 'y[N-i]' --count 10 --define N
expect 2 "--define: 'N=4K': not an integer" -a 90 --traffic 'y[N-i]' --count 10 --define N=4K
expect 2 "--define: 'N=9223372036854775808': beyond 64 bits" -a 90 --traffic 'y[N-i]' --count 10 --define N=9223372036854775808
expect 2 "--define: 'N': a name is a C identifier of up to 31 characters, not CUDA's, given once" -a 90 --traffic 'y[N-i]' --count 10 --define N=1,N=2
expect 2 "--define: 'blockDim': a name is a C identifier" -a 90 --traffic 'y[i]' --count 10 --define blockDim=1
expect 2 "--define goes with --traffic" -a 90 --block 128 --define N=1
expect 2 "--traffic: 'z[i] = x[i': ends at character 10, inside an access" -a 90 --traffic 'z[i] = x[i' --count 10
expect 2 "--traffic: 'hello': no access NAME[INDEX]" -a 90 --traffic hello --count 10
expect 2 "--traffic: 'z[i/3]': out of range at character 5" -a 90 --traffic 'z[i/3]' --count 10
expect 2 "--count: '18446744073709551616': number too large" -a 90 --traffic 'z[i]' --count 18446744073709551616
expect 2 "--count: '0': below the minimum of 1" -a 90 --traffic 'z[i]' --count 0
expect 2 "--grid: '2147483648': above the maximum of 2147483647" -a 90 --traffic 'z[i]' --grid 2147483648 --block 64
expect 2 "--block: '2048': above sm_90's maxThreadsPerBlock, 1024" -a 90 --traffic 'z[i]' --grid 10 --block 2048
expect 2 "--block: '1027': above sm_90's maxThreadsPerBlock, 1024" -a 90 --traffic 'z[i]' --grid 10 --block 252:4K:5
expect 2 "--traffic needs a launch: --grid N and --block N, or --count N" -a 90 --traffic 'z[i]' --grid 10
expect 2 "--count is the launch's thread count" -a 90 --traffic 'z[i]' --count 10 --block 64
expect 2 "--elem: z has 3-byte elements" -a 90 --traffic 'z[i]' --count 10 --elem 3
expect 2 "--dlcm: 'cs': ca (cached in L1) or cg (L2 only)" -a 90 --traffic 'z[i]' --count 10 --dlcm cs
expect 2 "the addresses of z (4-byte elements) overflow 64 bits over 100 threads" -a 90 --traffic 'z[1000000000000000000*i]' --count 100
expect 2 "the addresses of z (4-byte elements) overflow 64 bits" -a 90 --traffic 'z[i]' --count 18446744073709551615
expect 1 "--traffic: 'z[0]': the launch's totals do not fit 64 bits" -a 90 --traffic 'z[0]' --count 18446744073709551615 --elem 16
expect 1 "two different strides over 100000000000 threads" -a 90 --traffic 'z[i] = x[2*i] + x[3*i]' --count 100000000000
expect 2 "--regs is an occupancy option; --traffic computes memory transactions" -a 90 --traffic 'z[i]' --count 10 --regs 32
expect 2 "--stride goes with --access" -a 90 --traffic 'z[i]' --count 10 --stride 2
expect 2 "--count goes with --traffic" -a 90 --count 10
expect 2 "--dlcm goes with --traffic" -a 90 --block 128 --dlcm ca
expect 2 "--access and --traffic are separate calculators" -a 90 --access load --traffic 'z[i]'

# ---- Grids of 2 and 3 dimensions (issue 29, item 7) ----
F=grid,launch_threads,op,l2_bytes_max,footprint_bytes
run -a 90 --traffic 'x[i]' --grid 4096 -b 256 -f csv --fields $F
cp "$tmp/out" "$tmp/flat"
run -a 90 --traffic 'a[(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x]' --grid 64x64 -b 256 -f csv --fields $F
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/flat" && grep -q '^4096,1048576,load,4194304,4194304$' "$tmp/out"
ok $? "--grid 64x64: blocks numbered x fastest, a 4 MB footprint as --grid 4096's x[i]"
run -a 90 --traffic 'a[((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x]' --grid 16x16x16 -b 256 -f csv --fields $F
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/flat"
ok $? "--grid 16x16x16: the same"
run -a 90 --traffic 'a[blockIdx.y * 4096 + blockIdx.x * 256 + threadIdx.x]' --grid 16x256 -b 256 -f csv --fields $F
[ "$status" -eq 0 ] && grep -q '^4096,1048576,load,4194304,4194304$' "$tmp/out"
ok $? "--grid 16x256: gridDim.x x blockIdx.y written as a constant"
expect 2 "'blockIdx.y' at character 3: the grid has no y dimension" -a 90 --traffic 'a[blockIdx.y * 4096 + threadIdx.x]' --grid 4096 -b 256
expect 2 "'gridDim.z' at character 3: the grid has no z dimension" -a 90 --traffic 'a[gridDim.z + i]' --grid 64x64 -b 256

# A grid tiled by rows and columns: the figures of every thread's
# addresses listed (t/traffic.c's brute force over the same launch).
TILE='int row = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x;'
F=op,requests,sectors,lines,requested_bytes,l2_sectors_min,l2_sectors_max,footprint_bytes
run -a 90 --traffic "$TILE a[row * 1024 + col]" --grid 64x64 -b 16x16 -f csv --fields $F
[ "$status" -eq 0 ] && grep -q '^load,32768,131072,65536,4194304,131072,131072,4194304$' "$tmp/out"
ok $? "--grid 64x64 -b 16x16, a[row*1024 + col]: 32,768 requests of 4 sectors in 2 lines, each sector once: 4 MB"
run -a 90 --traffic "$TILE a[col * 1024 + row]" --grid 64x64 -b 16x16 -f csv --fields $F
[ "$status" -eq 0 ] && grep -q '^load,32768,524288,524288,4194304,131072,524288,4194304$' "$tmp/out"
ok $? "a[col*1024 + row], the transpose: 16 sectors in 16 lines a request, the same 4 MB"
run -a 90 --traffic 'a[blockIdx.x * 256 + threadIdx.x]' --grid 64x64 -b 256 -f csv --fields $F
[ "$status" -eq 0 ] && grep -q '^load,32768,131072,32768,4194304,2048,131072,65536$' "$tmp/out"
ok $? "blockIdx.x alone in a 64x64 grid: 64 blocks' worth, 64 KB (not the block's number: 4 MB)"
run -a 90 --traffic 'a[blockIdx.y * 1024 + threadIdx.x]' --grid 64x64 -b 16 -f csv --fields op,footprint_bytes
[ "$status" -eq 0 ] && grep -q '^load,4096$' "$tmp/out"
ok $? "blockIdx.y alone: 64 rows of 16 floats, 4 KB"
expect 1 "a's index divides the thread's index by 32 in blocks of 16 threads, placed by blockIdx.x/y/z: not computed" -a 90 --traffic "$TILE a[row * 1024 + i/32]" --grid 64x64 -b 16
expect 1 "sectors fall in too many separate runs to list (more than 2^20)" -a 90 --traffic 'a[blockIdx.y*1000003 + blockIdx.x*7919 + threadIdx.y*104729 + threadIdx.x]' --grid 32768x65535 -b 16x16
expect 2 "--grid: '2x2x2x2': a grid has at most 3 dimensions" -a 90 --grid 2x2x2x2 -b 256
expect 2 "above the maximum of 65535" -a 90 --grid 2x70000 -b 256
expect 2 "more than 2147483647 blocks in all" -a 90 --grid 2147483647x2 -b 256
run -a 90 -b 256 --grid 64x64 --sms 132 -f csv --fields grid,waves
[ "$(tail -n 1 "$tmp/out")" = "4096,4" ]
ok $? "--grid 64x64 in an occupancy calculation: 4,096 blocks, 4 waves of 8 x 132"

done_testing
