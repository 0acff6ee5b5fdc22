#!/bin/sh
# stream.sh - a large Zstandard image whose frame has a window smaller than
# the image (fatbinary's frames of 2 MB or more) is read as a stream: a
# cubin sparsely, a PTX text scanned as it passes, its .entry headers cut
# anywhere by the pieces (long parameter lists make such cuts common). Its
# rows are those of the same images stored uncompressed, read whole. The images: 900 kernels, some with launch
# bounds and static shared memory, compiled here with the toolkit.
. "$T/lib.sh"
cuda=${CUDA_DIR:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
fatbinary=${FATBINARY:-$cuda/bin/fatbinary}
[ -x "$nvcc" ] && [ -x "$fatbinary" ] && [ -x "$cuda/bin/ptxas" ] ||
	skip_all "no nvcc, ptxas and fatbinary in $cuda/bin (set CUDA_DIR)"
F=arch,mangled,kernel,regs,static_smem,stack,max_threads,min_blocks_per_sm,max_regs,block,blocks_per_sm,occupancy_pct,limiter

awk 'BEGIN {
	print "#define BODY(n) { float a = x[threadIdx.x]; " \
	      "_Pragma(\"unroll\") for (int i = 0; i < 96; i++) " \
	      "a = a * 1.0001f + (float)(i + n); x[threadIdx.x] = a; }"
	# Long parameter lists: the pieces often cut an .entry header; the
	# first two kernels headers (4000 parameters, 100 KB of PTX each)
	# cross the end of the first piece, whatever its size.
	for (i = 0; i < 4000; i++)
		huge = huge sprintf(", int p%d", i)
	for (i = 0; i < 60; i++)
		params = params sprintf(", int p%d", i)
	for (i = 0; i < 900; i++) {
		lb = i % 2 ? sprintf("__launch_bounds__(%d, %d) ",
				     32 * (1 + i % 8), 1 + i % 3) : ""
		sh = i % 3 ? "" : sprintf("__shared__ float s[%d]; " \
			"s[threadIdx.x] = 1; __syncthreads(); x[0] += s[%d];",
			64 * (1 + i % 5), i % 64)
		printf "extern \"C\" __global__ void %sk%d(float *x%s) " \
		       "{ %s BODY(%d) }\n", lb, i, i < 2 ? huge : params, sh, i
	}
}' >"$tmp/big.cu"
{ "$nvcc" -ptx -arch=compute_90 -o "$tmp/big.ptx" "$tmp/big.cu" &&
	"$cuda/bin/ptxas" -arch=sm_90 -o "$tmp/big.cubin" "$tmp/big.ptx" &&
	for m in none default; do
		"$fatbinary" --create="$tmp/$m.fatbin" -64 --compress-all \
			--compress-mode=$m \
			--image3=kind=elf,sm=90,file="$tmp/big.cubin" \
			--image3=kind=ptx,sm=90,file="$tmp/big.ptx" || exit 1
	done; } >"$tmp/build" 2>&1 ||
	skip_all "the toolkit cannot build the images: $(tail -1 "$tmp/build")"

# The Zstandard frames' windows (RFC 8878): what makes them streamed.
python3 - "$tmp/default.fatbin" >"$tmp/frames" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
_, _, hs, fs = struct.unpack_from('<IHHQ', b, 0)
p = hs
while p < hs + fs:
    kind, _, ehs, size = struct.unpack_from('<HHIQ', b, p)
    usize = struct.unpack_from('<Q', b, p + 56)[0]
    f = b[p + ehs:p + ehs + 6]
    single = f[4] & 0x20
    window = usize if single else (1 << (10 + (f[5] >> 3))) * (8 + (f[5] & 7)) // 8
    print(kind, usize, window)
    p += ehs + size
PY
awk '$2 >= 2097152 && $3 < $2 { n++ } END { exit n != 2 }' "$tmp/frames"
ok $? "both compressed images are of 2 MB or more in frames with a smaller window: $(tr '\n' ' ' <"$tmp/frames")"

run --kernels "$tmp/none.fatbin" -f csv --fields "$F"
cp "$tmp/out" "$tmp/whole"
[ "$status" -eq 0 ] && [ "$(grep -c '^sm_90,' "$tmp/whole")" -eq 900 ] &&
	[ "$(grep -c '^compute_90,' "$tmp/whole")" -eq 900 ]
ok $? "the stored images give 900 SASS and 900 PTX rows"
grep -q '^compute_90,k1,k1,,,,64,2,' "$tmp/whole" &&
	grep -q '^sm_90,k3,k3,[0-9]*,1024,' "$tmp/whole"
ok $? "the rows carry PTX launch bounds and SASS static shared memory"

for j in 1 3; do
	run --jobs $j --kernels "$tmp/default.fatbin" -f csv --fields "$F"
	[ "$status" -eq 0 ] && cmp -s "$tmp/whole" "$tmp/out"
	ok $? "streamed (--jobs $j): the rows of the stored images, byte for byte"
done
run --kernels - -f csv --fields "$F" <"$tmp/default.fatbin"
[ "$status" -eq 0 ] && cmp -s "$tmp/whole" "$tmp/out"
ok $? "streamed from memory (standard input): the same rows"

# An .entry whose body never starts, its header 4.5 MB of parameters:
# refused as a whole read refuses it.
awk 'BEGIN { print ".version 8.0\n.target sm_90\n.address_size 64\n"
	print ".visible .entry foo("
	for (i = 0; i < 150000; i++) printf "\t.param .u32 foo_param_%d,\n", i }' \
	>"$tmp/nobody.ptx"
"$fatbinary" --create="$tmp/nobody.fatbin" -64 --compress-all \
	--image3=kind=ptx,sm=90,file="$tmp/nobody.ptx" >"$tmp/build" 2>&1
run --kernels "$tmp/nobody.fatbin"
[ "$status" -eq 1 ] && one_error_line "nobody.fatbin: PTX .entry foo has no body"
ok $? "a streamed PTX .entry without a body: one error line, as read whole"

done_testing
