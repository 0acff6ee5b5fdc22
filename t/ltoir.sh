#!/bin/sh
# ltoir.sh - a binary without kernels says what it holds instead: LTO-IR
# (nvcc -dlto), whose resources exist only once linked at run time, or
# fatbins outside the sections the CUDA runtime registers (cuFFT 12).
. "$T/lib.sh"
cuda=${CUDA_DIR:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}

if [ -x "$nvcc" ] && "$nvcc" -fatbin -gencode arch=compute_90,code=lto_90 \
	-DTAG=1 -o "$tmp/lto.fatbin" "$T/fixtures/imagechoice/probe.cu" 2>"$tmp/nvcc"; then
	expect 1 "lto.fatbin: no kernel to read: its 1 fatbin holds 1 LTO-IR image (nvcc -dlto)" \
		--kernels "$tmp/lto.fatbin"
	expect 1 "no registers or shared memory exist before" \
		--kernels "$tmp/lto.fatbin" --gpu H100-SXM
else
	skip 2 "no nvcc to build an LTO-IR fatbin"
fi

lib=$cuda/lib64/libcufft.so.12
if [ -f "$lib" ]; then
	run --kernels "$lib"
	[ "$status" -eq 1 ] && one_error_line "no kernel in the fatbins the CUDA runtime registers (1, .nv_fatbin);" &&
		grep -Eq '; [0-9]+ more fatbins lie in its other sections' "$tmp/err"
	ok $? "cuFFT: its one registered fatbin holds no kernel, the others lie in its data"
else
	skip 1 "no $lib"
fi
run --kernels "$T/fixtures/bin/kernels.exe" --kernel no_such_kernel
[ "$status" -eq 1 ] && one_error_line "no kernel matching --kernel no_such_kernel"
ok $? "a file with kernels, none matching --kernel: still 'no kernel matching'"
done_testing
