#!/bin/sh
# kernels-api.sh - on the GPU machine: occcalc --kernels --api on the
# binary fixtures, a PTX-only fatbin (the driver JITs it) and a CUDA
# library, results into $OUT. OCCCALC: the occcalc to run.
B=${OCCCALC:-./src/occcalc}
F=t/fixtures/bin
OCCCALC_TABLES=$PWD/data/arch-tables; export OCCCALC_TABLES
COLS=file,arch,kernel,block,regs,api_regs,static_smem,api_static_smem,stack,api_stack,max_threads,api_max_threads,blocks_per_sm,api_blocks_per_sm,agrees
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%F; } >"$OUT/env.txt" 2>&1
$B --kernels $F/sm_90a.cubin --api >"$OUT/api-cubin.txt" 2>&1
{
	for f in sm_90a.cubin none.fatbin default.fatbin speed.fatbin kernels.o kernels.exe libkernels.so kernels-rdc.o; do
		$B --kernels $F/$f --api -f csv --fields $COLS | tail -n +2
		for b in 64 512 1024; do
			$B --kernels $F/$f --api -b $b -s 20K -f csv --fields $COLS | tail -n +2
		done
	done
} >"$OUT/api-fixtures.csv" 2>"$OUT/api-fixtures.err"
nvcc -fatbin -gencode arch=compute_80,code=compute_80 $F/kernels.cu -o /tmp/ptx80.fatbin >/dev/null 2>&1 &&
	$B --kernels /tmp/ptx80.fatbin --api -b 256 -f csv --fields $COLS,ptx_only >"$OUT/api-ptx.csv" 2>&1
L=$(ls -S /usr/local/cuda/lib64/libcublas.so.*.* | head -1)
ls -la /usr/local/cuda/lib64/libcublas*.so.*.* >"$OUT/lib.txt" 2>&1
{ /usr/bin/time -f "%e s %M KB" $B --kernels "$L" -f csv | wc -l; } >>"$OUT/lib.txt" 2>&1
timeout 90 $B --kernels "$L" --arch 90 --api -f csv --fields $COLS >/tmp/la.csv 2>"$OUT/lib-api.err"
echo "rc=$?" >>"$OUT/lib-api.err"
awk -F, 'NR > 1 { n[$NF]++ } END { for (k in n) print k, n[k] }' /tmp/la.csv >"$OUT/lib-api-summary.txt"
grep -c . /tmp/la.csv >>"$OUT/lib-api-summary.txt"
grep ',false$' /tmp/la.csv | head -40 >>"$OUT/lib-api-summary.txt"
$B --kernels "$L" --arch 90 2>&1 | tail -25 >"$OUT/lib-text.txt"
