#!/bin/sh
# fleet.sh - code on GPUs other than the one it was compiled for, and
# binaries against a fleet of GPUs (issue 29). The driver runs sm_80 SASS
# on 8.6 and 8.9 GPUs (sm_86 on 8.9) with the limits of the GPU it runs on;
# every (file, GPU) pair is rows, or a row saying no image runs there.
. "$T/lib.sh"
M=$T/fixtures/minor
B=$T/fixtures/bin
REF=block,regs,static_smem,smem,barriers,max_threads,optin,blocks_per_sm,limit_warps,limit_registers,limit_shared_memory,limit_blocks,limit_barriers,regs_per_block,smem_per_block

# ---- Property: every 8.x GPU of the list, code for sm_80 and sm_86 ----
# occcalc's rows equal cuda_occupancy.h computed with the GPU's own
# properties (its compute capability's table), whatever the image's.

gpus=$(awk '$1 !~ /^#/ && $1 != "alias" && $1 != "gpcs" && $1 != "l2" &&
	    $2 ~ /^8\./ { print $1 "=" $2 }' "$OCCCALC_TABLES/gpus.txt")
[ "$(echo "$gpus" | wc -l)" -ge 20 ]
ok $? "the GPU list has the 8.x GPUs ($(echo $gpus | wc -w))"

if [ "$("$FLEET_REF" 2>/dev/null)" = "no cuda_occupancy.h" ]; then
	skip 4 "cuda_occupancy.h not found: configure --with-cuda=DIR"
else
	# Block sizes and dynamic shared memory across every limit of 8.x:
	# 1,536 and 2,048 threads, 16, 24 and 32 blocks, 99, 100 and 163 KB.
	sweep="-b 32,64,96,128,192,256,384,512,640,768,1024 --smem 0,1K,8K,16K,33K,48K,64K,99K,100K,163K,164K"
	rows=0 bad=0 refused=0 arch=ok
	for g in $gpus; do
		name=${g%=*} cc=${g#*=}
		for img in 80 86; do
			for optin in --optin --no-optin; do
				run --kernels "$M/sm$img-ptx.fatbin" --gpu "$name" $sweep \
					$optin -f csv --fields arch,$REF
				if [ "$img" = 86 ] && [ "$cc" = 8.0 ]; then
					one_error_line "no image runs on $name (--gpu), compute capability 8.0" ||
						{ refused=bad; echo "# $name: $(cat "$tmp/err")"; }
					continue
				fi
				[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = "sm_$img" ] ||
					arch=bad
				set -- $(cut -d, -f2- "$tmp/out" | "$FLEET_REF" "$cc")
				rows=$((rows + $1)) bad=$((bad + $2))
			done
		done
	done
	# 22 kernels x 11 blocks x 11 sizes, twice, for each fixture that runs.
	n80=$(echo $gpus | wc -w) n86=$(echo "$gpus" | grep -vc '=8\.0$')
	[ "$rows" -eq $(((n80 + n86) * 22 * 121 * 2)) ] && [ "$bad" -eq 0 ]
	ok $? "sm_80 and sm_86 code on every 8.x GPU of the list: $rows rows equal cuda_occupancy.h with the GPU's properties ($bad disagree)"
	[ "$arch" = ok ]
	ok $? "the arch field names the image (sm_80, sm_86), not the GPU"
	[ "$refused" = 0 ]
	ok $? "sm_86 code (SASS and PTX) on the 8.0 GPUs: no image runs there, said in one line"
	# The check above can fail: the image's own limits disagree.
	run --kernels "$M/sm80-ptx.fatbin" --gpu RTX-4090 $sweep -f csv --fields $REF
	set -- $("$FLEET_REF" 8.0 <"$tmp/out" 2>/dev/null)
	[ "$2" -gt 1000 ]
	ok $? "(sm_80's own table would disagree on $2 of the RTX-4090's $1 rows)"
fi

# ---- 1. One GPU named: the GPU's limits, the image named ----

run --kernels "$M/sm80-ptx.fatbin" --kernel many_regs -b 256 --gpu RTX-4090 -f csv --fields arch,blocks_per_sm,max_warps_per_sm,occupancy_pct
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "sm_80,2,48,33.33" ]
ok $? "--gpu RTX-4090: sm_80 SASS at 89 registers, 256 threads: 2 blocks of the 4090's 48 warps (33.33%), not sm_80's 64 (25%)"
cp "$tmp/out" "$tmp/gpu"
run --kernels "$M/sm80-ptx.fatbin" --kernel many_regs -b 256 --arch 8.9 -f csv --fields arch,blocks_per_sm,max_warps_per_sm,occupancy_pct
cmp -s "$tmp/out" "$tmp/gpu"
ok $? "--arch 8.9: the same row"
run --kernels "$M/sm80-ptx.fatbin" --kernel saxpy -b 256 --smem 100K --gpu RTX-4090 -f csv --fields arch,blocks_per_sm,can_launch,reason
[ "$status" -eq 1 ] && [ "$(tail -n 1 "$tmp/out")" = "sm_80,0,false,shared_memory_per_block" ]
ok $? "--smem 100K on the RTX-4090: sm_80 code cannot launch (99 KB a block there, 163 KB on 8.0)"
run --kernels "$M/sm80-ptx.fatbin" --kernel '^block_sum' -b 1024 --gpu RTX-3090 -f csv --fields arch,blocks_per_sm,limit_blocks,max_warps_per_sm
[ "$(tail -n 1 "$tmp/out")" = "sm_80,1,16,48" ]
ok $? "--gpu RTX-3090 (8.6): 16 blocks and 1,536 threads an SM"
run --kernels "$M/sm86-ptx.fatbin" --kernel '^saxpy' -b 64 --gpu L4 -f csv --fields arch,blocks_per_sm,limit_blocks
[ "$(tail -n 1 "$tmp/out")" = "sm_86,24,24" ]
ok $? "--gpu L4 (8.9): sm_86 code gets 8.9's 24 blocks an SM, not 8.6's 16"
run --kernels "$M/sm80-ptx.fatbin" --compare "$B/sm_80.cubin" --kernel many_regs -b 256 --gpu RTX-4090 --all -f csv --fields change,arch,blocks_per_sm,old_blocks_per_sm,occupancy_pct
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "unchanged,sm_80,2,2,33.33" ]
ok $? "--compare --gpu RTX-4090: both sides with the 4090's limits"

# ---- 2. A cubin for an earlier minor version: accepted, as the driver does ----

run --kernels "$B/sm_80.cubin" --kernel many_regs -b 256 --gpu L40S -f csv --fields arch,blocks_per_sm,max_warps_per_sm
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "sm_80,2,48" ]
ok $? "an sm_80 cubin on one 8.9 GPU (--gpu L40S): its rows, with 8.9's limits"
run --kernels "$B/sm_80.cubin" --kernel many_regs -b 256 --gpu L40S,A100 -f csv --fields gpu,arch,blocks_per_sm,max_warps_per_sm
[ "$(tail -n +2 "$tmp/out" | tr '\n' ' ')" = "L40S,sm_80,2,48 A100,sm_80,2,64 " ]
ok $? "the list form gives the same row for the L40S"
# A report of one kernel for several architectures: the one the GPU loads.
run --kernels "$T/fixtures/ptxas-multi.txt" --arch 8.9 -f csv --fields arch -b 128
archs=$(tail -n +2 "$tmp/out" | sort -u | tr '\n' ' ')
[ "$status" -eq 0 ] && [ -n "$archs" ] && [ "$(printf '%s\n' $archs | grep -vc '^sm_8')" -eq 0 ] &&
	[ "$(tail -n +2 "$tmp/out" | wc -l)" -eq "$(run --kernels "$T/fixtures/ptxas-multi.txt" -f csv --fields mangled -b 128; tail -n +2 "$tmp/out" | sort -u | wc -l)" ]
ok $? "a report with several architectures, --arch 8.9: one row per kernel, the image an 8.9 GPU loads ($archs)"

# ---- L6 (issue 30): the message names what the user gave ----

expect 1 "no image runs on RTX-4090 (--gpu), compute capability 8.9" --kernels "$B/sm_90a.cubin" --gpu 4090
expect 1 "no image runs on compute capability 8.9" --kernels "$B/sm_90a.cubin" --arch 8.9
expect 1 "no kernel that runs on --gpu RTX-4090 (compute capability 8.9) matching --kernel nothing" --kernels "$B/sm_80.cubin" --gpu 4090 --kernel nothing

# ---- 3. Directories, lists of files and globs against a list of GPUs ----

mkdir "$tmp/d"
cp "$M/sm80-ptx.fatbin" "$M/sm86-ptx.fatbin" "$B/sm_90a.cubin" "$tmp/d/"
cols=gpu,file,arch,block,blocks_per_sm,reason,can_launch,kernel
(cd "$tmp" && "$OCCCALC" --kernels d --kernel saxpy --gpu A100,H100-SXM,RTX-4090 -b 256 -f csv --fields $cols) >"$tmp/dir" 2>"$tmp/dir.err"
st=$?
cat >"$tmp/want" <<'EOF'
gpu,file,arch,block,blocks_per_sm,reason,can_launch,kernel
A100,d/sm80-ptx.fatbin,sm_80,256,8,,true,"saxpy(int, float, float const*, float*)"
A100,d/sm86-ptx.fatbin,,,,no_image,false,"saxpy(int, float, float const*, float*)"
A100,d/sm_90a.cubin,,,,no_image,false,"saxpy(int, float, float const*, float*)"
H100-SXM,d/sm80-ptx.fatbin,compute_80,,,,,"saxpy(int, float, float const*, float*)"
H100-SXM,d/sm86-ptx.fatbin,compute_86,,,,,"saxpy(int, float, float const*, float*)"
H100-SXM,d/sm_90a.cubin,sm_90a,256,8,,true,"saxpy(int, float, float const*, float*)"
RTX-4090,d/sm80-ptx.fatbin,sm_80,256,6,,true,"saxpy(int, float, float const*, float*)"
RTX-4090,d/sm86-ptx.fatbin,sm_86,256,6,,true,"saxpy(int, float, float const*, float*)"
RTX-4090,d/sm_90a.cubin,,,,no_image,false,"saxpy(int, float, float const*, float*)"
EOF
[ "$st" -eq 0 ] && cmp -s "$tmp/want" "$tmp/dir" && [ ! -s "$tmp/dir.err" ]
ok $? "a directory against three GPUs: a row for every (file, GPU) pair, the file named where no image runs"
[ "$st" -eq 0 ] || diff "$tmp/want" "$tmp/dir" | sed 's/^/# /'
(cd "$tmp" && "$OCCCALC" --kernels d/sm80-ptx.fatbin d/sm86-ptx.fatbin d/sm_90a.cubin --kernel saxpy --gpu A100,H100-SXM,RTX-4090 -b 256 -f csv --fields $cols) >"$tmp/list" 2>&1
cmp -s "$tmp/dir" "$tmp/list"
ok $? "a list of the same files: the same rows"
(cd "$tmp" && "$OCCCALC" --kernels d/* --kernel saxpy --gpu A100,H100-SXM,RTX-4090 -b 256 -f csv --fields $cols) >"$tmp/glob" 2>&1
cmp -s "$tmp/dir" "$tmp/glob"
ok $? "a glob of the directory: the same rows"
(cd "$tmp" && "$OCCCALC" --kernels d --kernel saxpy --gpu RTX-4090,A100,H100-SXM -b 256 -f csv --fields $cols) >"$tmp/other" 2>&1
[ "$(tail -n +2 "$tmp/other" | sort)" = "$(tail -n +2 "$tmp/dir" | sort)" ]
ok $? "the GPUs in another order: the same rows"
(cd "$tmp" && "$OCCCALC" --kernels d --kernel saxpy --gpu A100 -b 256 -f csv --fields $cols) >"$tmp/one" 2>&1
[ "$(tail -n +2 "$tmp/one" | sed 's/^/A100/')" = "$(grep '^A100' "$tmp/dir")" ]
ok $? "one GPU: the rows of the list's first, no image named for two files"
run --kernels "$tmp/d" --gpu A100 -b 256 --check 'can_launch == true'
[ "$status" -eq 1 ] && grep -q "check failed: kernel saxpy(int, float, float const\*, float\*), file $tmp/d/sm_90a.cubin: can_launch == true (can_launch false)" "$tmp/err"
ok $? "--gpu A100 --check 'can_launch == true' fails on a directory where images cannot run there, naming one"
run --kernels "$tmp/d" --gpu A100,RTX-4090 -b 256 --check 'can_launch == true'
[ "$status" -eq 1 ]
ok $? "with a GPU list, the same check fails"
run --kernels "$tmp/d/sm80-ptx.fatbin" --gpu A100,RTX-4090 -b 256 --kernel saxpy --check 'can_launch == true'
[ "$status" -eq 0 ]
ok $? "and passes where every image runs"
run --kernels "$tmp/d" --gpu A100 -b 256 --kernel saxpy
[ "$status" -eq 0 ] && one_line=$(grep -c "2 kernels with no image that runs on A100 (--gpu), compute capability 8.0 left out" "$tmp/err") &&
	[ "$one_line" -eq 1 ]
ok $? "one GPU, a text table: the kernels no image of which runs there counted in one warning"

# ---- 5. image_why in every format ----

for f in csv json jsonl text; do
	run --kernels "$B/sm_80.cubin" --kernel saxpy -b 256 --arch 8.0 -f $f --fields kernel,image_why
	[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q saxpy "$tmp/out" &&
		! grep -q '(null)' "$tmp/out"
	ok $? "--fields image_why, -f $f, a cubin (no choice made): empty, no crash"
done
run --kernels "$B/sm_80.cubin" --kernel saxpy -b 256 --arch 8.0 -f jsonl --fields kernel,image_why
[ "$(cat "$tmp/out")" = '{"kernel":"saxpy(int, float, float const*, float*)","image_why":null}' ]
ok $? "--fields image_why, -f jsonl: null where no image was chosen"
run --kernels "$M/sm80-ptx.fatbin" --kernel saxpy -b 256 --gpu RTX-4090,H100-SXM -f csv --fields gpu,image,image_why
[ "$(tail -n +2 "$tmp/out")" = 'RTX-4090,sass,SASS for this GPU: the driver loads SASS before PTX
H100-SXM,ptx,no SASS of its fatbin runs on this GPU: the driver compiles its newest PTX not newer than the GPU' ]
ok $? "--fields image_why with an image chosen: why"
run --kernels "$B/sm_90a.cubin" --kernel saxpy -b 256 --gpu A100,H100-SXM -f jsonl --fields gpu,image_why,can_launch
[ "$status" -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = '{"gpu":"A100","image_why":"no image of its fatbin runs on this GPU: its SASS is for other GPUs, its PTX (if any) for later ones","can_launch":false}' ]
ok $? "--fields image_why where no image runs"

done_testing
