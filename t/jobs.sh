#!/bin/sh
# jobs.sh - --kernels reads a binary's images on a pool of threads
# (--jobs): every row, byte for byte, in the order of a single-threaded
# run, on the fixtures and on the largest library of the CUDA toolkit
# installed here (skipped where there is none); --arch still keeps the
# same rows when the images it excludes are never decompressed.
. "$T/lib.sh"
B=$T/fixtures/bin
F=arch,mangled,kernel,file,container,regs,static_smem,stack,barriers,max_threads,min_blocks_per_sm,max_regs,cluster_dims,block,blocks_per_sm,occupancy_pct,limiter

for f in none.fatbin default.fatbin size.fatbin balance.fatbin kernels.exe \
	libkernels.so kernels.o kernels-rdc.o sm_90a.cubin; do
	jobs_agree "$f" 4 --kernels "$B/$f" -f csv --fields "$F"
done
jobs_agree "the fixtures' directory, text report" 4 --kernels "$B"
jobs_agree "a static library" 4 --kernels "$T/fixtures/ar/sm_75-and-text.a" -f csv --fields "$F"
run --jobs 1 --kernels - -f csv <"$B/kernels.exe"
cp "$tmp/out" "$tmp/one"
run --jobs 4 --kernels - -f csv <"$B/kernels.exe"
[ "$status" -eq 0 ] && [ -s "$tmp/one" ] && cmp -s "$tmp/one" "$tmp/out"
ok $? "an executable read from standard input: --jobs 4 prints what --jobs 1 does"

# A damaged entry: the first failure in the file's order, as one thread
# reports it, though a worker read it.
cp "$B/none.fatbin" "$tmp/bad.fatbin"
printf '\377%.0s' $(seq 256) | dd of="$tmp/bad.fatbin" bs=1 conv=notrunc \
	seek=$(($(wc -c <"$B/none.fatbin") / 2)) 2>/dev/null
run --jobs 1 --kernels "$tmp/bad.fatbin" -f csv
s1=$status
cp "$tmp/err" "$tmp/one.err"
run --jobs 4 --kernels "$tmp/bad.fatbin" -f csv
[ "$s1" -eq 1 ] && [ "$status" -eq 1 ] && cmp -s "$tmp/one.err" "$tmp/err" &&
	grep -q 'lies past the end of the cubin at byte [1-9]' "$tmp/err"
ok $? "an entry damaged halfway: --jobs 4 fails with the line --jobs 1 gives, its offset included"

# --all-images --arch: the images of other architectures are skipped
# unread, the rows are those of the whole read filtered.
run --jobs 2 --kernels "$B/kernels.exe" -f csv --fields "$F"
{ head -n 1 "$tmp/out"; grep '^sm_90a,\|^compute_90,' "$tmp/out"; } >"$tmp/all"
run --jobs 2 --kernels "$B/kernels.exe" -f csv --fields "$F" --arch sm_90 --all-images
[ "$(wc -l <"$tmp/out")" -gt 1 ] && cmp -s "$tmp/all" "$tmp/out"
ok $? "--all-images --arch sm_90: the rows of sm_90a and compute_90 of a whole read, in order"
# --arch alone: the image the driver loads, the others unread.
jobs_agree "--arch sm_90 (the image the driver loads)" 4 --kernels "$B/kernels.exe" \
	-f csv --fields "$F" --arch sm_90

# A large library: many fatbins, compressed images of 100 MB and more.
big=
for lib in libcublasLt.so.13 libcublasLt.so.12 libnccl.so.2 libcublas.so.13; do
	for d in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/lib64; do
		[ -f "$d/$lib" ] && [ -z "$big" ] && big=$d/$lib
	done
done
if [ -n "$big" ]; then
	jobs_agree "$(basename "$big")" 4 --kernels "$big" -f csv
else
	skip 1 "no CUDA toolkit library here"
fi

# Whole images of 1 MB and more compressed, read from a file, are
# decompressed in place (their payload read into the end of the image);
# from standard input, apart: the same rows.
lib=
for l in libcudnn_cnn.so.9 libcurand.so.10 libcublas.so.13; do
	for d in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/lib64; do
		[ -f "$d/$l" ] && [ -z "$lib" ] && lib=$d/$l
	done
done
if [ -n "$lib" ]; then
	G=arch,mangled,regs,static_smem,stack,barriers,max_threads,min_blocks_per_sm,max_regs
	run --jobs 4 --kernels "$lib" -f csv --fields "$G"
	cp "$tmp/out" "$tmp/file"
	run --jobs 4 --kernels - -f csv --fields "$G" <"$lib"
	[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 100 ] &&
		cmp -s "$tmp/file" "$tmp/out"
	ok $? "$(basename "$lib"): its images decompressed in place print what they do apart"
	# A damaged frame that libzstd refuses for another reason in the
	# larger room in place: the reason given is the one from memory.
	if python3 "$T/damage-frame.py" "$lib" "$tmp/damaged.so" 2>/dev/null
	then
		run --jobs 4 --kernels "$tmp/damaged.so" -f csv
		s1=$status
		sed "s|$tmp/damaged.so|X|" "$tmp/err" >"$tmp/file.err"
		run --jobs 4 --kernels - -f csv <"$tmp/damaged.so"
		sed 's|<stdin>|X|' "$tmp/err" >"$tmp/mem.err"
		[ "$s1" -eq 1 ] && [ "$status" -eq 1 ] &&
			grep -q 'does not decompress' "$tmp/file.err" &&
			cmp -s "$tmp/file.err" "$tmp/mem.err"
		ok $? "$(basename "$lib"), a frame damaged: refused in place with the reason memory gives"
	else
		skip 1 "no python3, or no single-segment frame in $lib"
	fi
else
	skip 2 "no CUDA toolkit library here"
fi
done_testing
