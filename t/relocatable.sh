#!/bin/sh
# relocatable.sh - relocatable device code (nvcc -rdc) in --kernels: a
# kernel a file holds only as relocatable code (cuBLASLt, cuDNN) is a row;
# a relocatable image of a kernel the same file also links for the same
# architecture (NCCL) is left out, counted in one line. The driver does
# not load relocatable code as it is (docs/relocatable.md).
. "$T/lib.sh"
fx=$T/fixtures/bin/relocatable-mixed.fatbin

run --kernels "$fx" -f csv --fields kernel,arch,relocatable,regs,static_smem
printf '%s\n' 'kernel,arch,relocatable,regs,static_smem' \
	'both(float*),sm_80,false,8,0' 'linked_only(float*),sm_80,false,8,0' \
	'rdc_only(float*),sm_80,true,10,256' >"$tmp/want"
[ "$status" -eq 0 ] && cmp -s "$tmp/want" "$tmp/out"
ok $? "a kernel only relocatable is a row; the relocatable copy of a linked kernel is not"
[ "$(cat "$tmp/err")" = "occcalc: warning: 1 relocatable kernel image (nvcc -rdc) left out: the same file links the same kernel for the same architecture, and the linked code is what runs (--all-images lists them)" ]
ok $? "the image left out is counted, with why, in one line"

run --kernels "$fx" --all-images -f csv --fields kernel,relocatable
[ "$(grep -c true "$tmp/out")" -eq 2 ] && [ ! -s "$tmp/err" ]
ok $? "--all-images lists both relocatable images and leaves nothing out"

run --kernels "$fx"
grep -q '^1 kernel of relocatable device code (nvcc -rdc; --fields relocatable): linked by the library$' "$tmp/out"
ok $? "the text report says what a relocatable row is"

lt=${CUDA_DIR:-/usr/local/cuda}/lib64/libcublasLt.so.13
if [ -f "$lt" ]; then
	run --kernels "$lt" --kernel '^volta_cgemm_int8_32x32_cc$' -f csv \
		--fields arch,relocatable
	[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out" | sort | tr '\n' ' ')" = "sm_75,true " ]
	ok $? "cuBLASLt: volta_cgemm_int8_32x32_cc, held only as relocatable code, is listed (sm_75)"
	run --kernels "$lt" -f csv --fields relocatable
	cp "$tmp/out" "$tmp/default"
	[ ! -s "$tmp/err" ] && [ "$(grep -c true "$tmp/default")" -gt 4000 ]
	ok $? "cuBLASLt: its $(grep -c true "$tmp/default") relocatable-only kernels are rows, and nothing is left out"
else
	skip 2 "no $lt"
fi
done_testing
