#!/bin/sh
# nccl.sh - NCCL's library (built with -rdc: relocatable images beside the
# linked ones) read as cuobjdump reads it: every kernel of every
# architecture of the toolkit's libnccl.so.2 has cuobjdump's registers,
# static shared memory and stack (call chain included). The fixture is
# cuobjdump 13.0.85 --dump-resource-usage of a byte-identical libnccl.so.2,
# run on the GPU machine (/work/devdata, 2026-11-24).
. "$T/lib.sh"
lib=${CUDA_DIR:-/usr/local/cuda}/lib64/libnccl.so.2
sum=1c8618b866734cbdd5401715d6178be763ece283b7f808ecf86dedab211162c1
[ -f "$lib" ] || skip_all "no $lib"
command -v xz >/dev/null 2>&1 || skip_all "no xz to unpack the fixture"
command -v sha256sum >/dev/null 2>&1 || skip_all "no sha256sum"
[ "$(sha256sum <"$lib" | cut -d' ' -f1)" = "$sum" ] ||
	skip_all "$lib is not the libnccl.so.2 the fixture was made from ($sum)"
F=arch,mangled,regs,static_smem,stack
xz -dc "$T/fixtures/nccl-resource-usage.txt.xz" >"$tmp/cuobjdump.txt"
run --kernels "$tmp/cuobjdump.txt" -f csv --fields $F
tail -n +2 "$tmp/out" | sort >"$tmp/cuo"

# Rows of occcalc (SASS) against cuobjdump's: for every architecture and
# kernel occcalc names, the same rows, as many; cuobjdump's others are
# device functions, which are no kernels.
same_rows() {
	awk -F, 'NR == FNR { occ[$0]++; name[$1 "," $2] = 1; n++; next }
		 ($1 "," $2) in name { cuo[$0]++ }
		 END { for (r in occ) if (occ[r] != cuo[r]) bad++
		       for (r in cuo) if (occ[r] != cuo[r]) bad++
		       print n, bad + 0 }' "$1" "$tmp/cuo"
}

run --kernels "$lib" -f csv --fields $F,ptx_only,relocatable
grep ',false,false$' "$tmp/out" | sed 's/,false,false$//' | sort >"$tmp/occ"
[ "$status" -eq 0 ] && [ "$(same_rows "$tmp/occ")" = "522 0" ] &&
	! grep -q ',true$' "$tmp/out"
ok $? "libnccl.so.2: 522 kernel rows (7 SASS targets), registers, shared memory and stack as cuobjdump's; no relocatable rows"
grep -q '^occcalc: warning: 308 relocatable kernel images (nvcc -rdc) left out: the same file links the same kernels for the same architecture' "$tmp/err"
ok $? "libnccl.so.2: the 308 relocatable images of linked kernels left out are counted in one line"

run --kernels "$lib" --all-images -f csv --fields $F,ptx_only,relocatable
grep ',false,false$' "$tmp/out" | sed 's/,false,false$//' | sort >"$tmp/all"
[ "$status" -eq 0 ] && cmp -s "$tmp/all" "$tmp/occ" &&
	[ "$(grep -c ',false,true$' "$tmp/out")" -eq 308 ]
ok $? "--all-images adds the 308 relocatable (-rdc) kernel images, the linked rows unchanged"

run --kernels "$lib" --arch sm_90 --kernel '^_Z21ncclDevKernel_Generic' -f csv --fields arch,regs,static_smem,stack,image
[ "$(tail -n +2 "$tmp/out")" = "sm_90,96,21568,1736,sass" ]
ok $? "ncclDevKernel_Generic on CC 9.0: the linked image, 96 registers, 21,568 B, 1,736 B of stack (its call chain)"

run --kernels "$lib" --arch sm_90 -f csv --fields $F,reason
tail -n +2 "$tmp/out" | grep -v ',no_image$' | sed 's/,$//' | sort >"$tmp/sm90"
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/sm90")" -eq 87 ] &&
	[ "$(grep '^sm_90,' "$tmp/occ" | sort | cmp - "$tmp/sm90" && echo same)" = same ] &&
	[ "$(grep -c '^,_Z.*,,,,no_image$' "$tmp/out")" -eq 4 ] &&
	[ "$(cat "$tmp/err")" = "occcalc: warning: 52 relocatable kernel images (nvcc -rdc) left out: the same file links the same kernels for the same architecture, and the linked code is what runs (--all-images lists them)" ]
ok $? "--arch sm_90: the 87 sm_90 kernels the driver loads, a row for each of the 4 kernels of an sm_100f-only fatbin, the 52 relocatable copies counted"
run --kernels "$lib" --arch sm_90 -b 128
[ "$status" -eq 0 ] && grep -q "4 kernels with no image that runs on compute capability 9.0 left out" "$tmp/err"
ok $? "--arch sm_90, text: the 4 kernels no image of which runs there counted in a warning"
done_testing
