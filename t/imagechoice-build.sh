#!/bin/sh
# imagechoice-build.sh - makes the fatbins of t/fixtures/imagechoice/cases.txt
# in OUTDIR (CASE.fatbin each) from probe.cu, one compilation per image of
# images.txt, with the toolkit's nvcc and fatbinary (NVCC, FATBINARY or
# CUDA_DIR/bin). Used by t/imagechoice.sh here and by t/gpu/imagechoice.sh
# on the GPU machine, which loads them.
# Usage: imagechoice-build.sh OUTDIR
set -e
src=$(cd "$(dirname "$0")/fixtures/imagechoice" && pwd)
out=$1
[ -n "$out" ] || { echo "usage: imagechoice-build.sh OUTDIR" >&2; exit 2; }
cuda=${CUDA_DIR:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
fatbinary=${FATBINARY:-$cuda/bin/fatbinary}
mkdir -p "$out/img"
grep -v '^#' "$src/images.txt" | while read -r name kind sm tag; do
	case $kind in
	elf) "$nvcc" -cubin -arch="sm_$sm" -DTAG="$tag" \
		-o "$out/img/$name" "$src/probe.cu" ;;
	ptx) "$nvcc" -ptx -arch="compute_$sm" -DTAG="$tag" \
		-o "$out/img/$name" "$src/probe.cu" ;;
	esac
done
grep -v '^#' "$src/cases.txt" | while read -r case images; do
	set --
	for i in $images; do
		line=$(grep "^$i " "$src/images.txt")
		set -- "$@" "--image3=kind=$(echo "$line" | awk '{print $2}'),sm=$(echo "$line" | awk '{print $3}'),file=$out/img/$i"
	done
	"$fatbinary" --create="$out/$case.fatbin" -64 "$@"
done
