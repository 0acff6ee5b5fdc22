#!/bin/sh
# imagechoice.sh - the image of a fatbin --kernels reads for a GPU named is
# the one the driver loads there: 106 fatbins of one kernel compiled once
# per image (t/fixtures/imagechoice), built here with the toolkit's nvcc and
# fatbinary, each checked against the image the driver loaded on an H100
# (answers.txt, docs/image-choice.md). A SASS image is recognised by its
# static shared memory (its tag times 256 bytes), a PTX image by its target
# (two PTX images of one target in one fatbin are told apart only so).
. "$T/lib.sh"
F=$T/fixtures/imagechoice
cuda=${CUDA_DIR:-/usr/local/cuda}
[ -x "${NVCC:-$cuda/bin/nvcc}" ] && [ -x "${FATBINARY:-$cuda/bin/fatbinary}" ] ||
	skip_all "no nvcc and fatbinary in $cuda/bin (set CUDA_DIR)"
sh "$T/imagechoice-build.sh" "$tmp/fat" >"$tmp/build" 2>&1 ||
	skip_all "the toolkit cannot build the fatbins: $(tail -1 "$tmp/build")"

# The row's arch and static shared memory for an image of images.txt.
want_row() {
	awk -v i="$1" '$1 == i {
		arch = ($2 == "elf" ? "sm_" : "compute_") $3
		print arch "," ($2 == "elf" ? $4 * 256 : "") ",",
		      ($2 == "elf" ? "sass" : "ptx") }' "$F/images.txt" |
		sed 's/, /,/'
}

grep -v '^#' "$F/answers.txt" | while read -r case image regs smem; do
	run --kernels "$tmp/fat/$case.fatbin" --arch sm_90 -f csv \
		--fields arch,static_smem,image
	if [ "$image" = none ]; then
		[ "$status" -eq 1 ] && one_error_line "no image runs on compute capability 9.0"
		ok $? "$case: no image runs on CC 9.0 (the driver: CUDA_ERROR_NO_BINARY_FOR_GPU)"
	else
		want=$(want_row "$image")
		got=$(tail -n +2 "$tmp/out")
		[ "$status" -eq 0 ] && [ "$got" = "$want" ]
		ok $? "$case: the driver's image on CC 9.0 is $image ($want)"
		[ "$got" = "$want" ] || echo "# got '$got' (exit $status)"
	fi
done >"$tmp/tap"
cat "$tmp/tap"
n=$(grep -c '^' "$tmp/tap")
failed=$(grep -c '^not ok' "$tmp/tap")

# PTX the driver compiles: ptxas's registers and shared memory for sm_90
# beside the driver's JIT's (answers.txt), where ptxas is installed.
ptxas=${PTXAS:-$cuda/bin/ptxas}
if [ -x "$ptxas" ]; then
	grep -v '^#' "$F/answers.txt" | awk '$2 ~ /^p/' >"$tmp/ptx"
	while read -r case image regs smem; do
		PTXAS=$ptxas "$OCCCALC" --kernels "$tmp/fat/$case.fatbin" --arch sm_90 \
			--ptxas-jit -f csv --fields regs,static_smem,from_ptxas 2>&1 |
			tail -n +2 | grep -qx "$regs,$smem,true" || echo "$case"
	done <"$tmp/ptx" >"$tmp/jit-differs"
	[ -s "$tmp/ptx" ] && [ ! -s "$tmp/jit-differs" ]
	ok $? "--ptxas-jit: ptxas's registers and shared memory equal the driver's JIT for the $(wc -l <"$tmp/ptx") PTX answers"
	expect 2 "--ptxas-jit: name the GPU" --kernels "$tmp/fat/only-p80.fatbin" --ptxas-jit
else
	skip 2 "no ptxas in $cuda/bin"
fi

# Every image is read without a GPU named, or with --all-images.
run --kernels "$tmp/fat/multi14.fatbin" -f csv --fields arch
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out" | wc -l)" -eq 19 ]
ok $? "no GPU named: all 19 images of a fatbin are listed"
run --kernels "$tmp/fat/multi14.fatbin" --arch sm_90 --all-images -f csv --fields arch,image
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out" | tr "\n" " ")" = "compute_75, compute_80, compute_86, compute_89, sm_90, sm_90a, compute_90, compute_90a, " ]
ok $? "--all-images with --arch sm_90: every image that runs on 9.0 (its SASS, PTX up to 9.0), none chosen"
run --kernels "$tmp/fat/multi14.fatbin" --gpu H100-SXM -f csv --fields arch,image
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out")" = "sm_90a,sass" ]
ok $? "--gpu H100-SXM names the GPU: its one image, sm_90a"
run --kernels "$tmp/fat/multi14.fatbin" --arch sm_90a -f csv --fields arch
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out")" = "sm_90a" ]
ok $? "--arch sm_90a chooses for a CC 9.0 device"
run --kernels "$tmp/fat/e90-e90a.fatbin" --arch sm_90 -f csv --fields image_why
[ "$(tail -n +2 "$tmp/out")" = '"SASS for this GPU, arch-specific: the driver loads it before plain SASS and PTX"' ]
ok $? "image_why says why the driver loads it"
run --kernels "$tmp/fat/multi12.fatbin" --arch sm_100 -f csv --fields arch,image
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out")" = "compute_100,ptx" ]
ok $? "documented, not measured: CC 10.0 runs compute_100 PTX, not sm_89 SASS"
run --kernels "$tmp/fat/multi13.fatbin" --arch sm_103 -f csv --fields arch,image
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out")" = "sm_100f,sass" ]
ok $? "documented, not measured: CC 10.3 runs family SASS sm_100f, not sm_100a"
run --kernels "$tmp/fat/only-e80.fatbin" --arch sm_86 -f csv --fields arch,image
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out")" = "sm_80,sass" ]
ok $? "documented, not measured: sm_80 SASS runs on CC 8.6"
done_testing
