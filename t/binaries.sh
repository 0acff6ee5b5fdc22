#!/bin/sh
# binaries.sh - --kernels on binaries: cubins, fatbins, host ELF files and
# directories (t/fixtures/bin: 22 kernels for sm_75 to sm_120f and PTX for
# compute_90), launch bounds honoured, --kernel and --arch, compiler errors
# and bad files.
. "$T/lib.sh"
B=$T/fixtures/bin

rows() { tail -n +2 "$tmp/out" | wc -l; }

# ---- What a binary holds, as ptxas reported it ----

run --kernels "$B/sm_90a.cubin" -f csv --fields mangled,arch,regs,static_smem,stack
tail -n +2 "$tmp/out" | sort >"$tmp/bin"
run --kernels "$B/sm_90a.cubin.ptxas" -f csv --fields mangled,arch,regs,static_smem,stack
tail -n +2 "$tmp/out" | sort >"$tmp/log"
[ "$(wc -l <"$tmp/bin")" -eq 22 ] && cmp -s "$tmp/bin" "$tmp/log"
ok $? "a cubin: 22 kernels, name, sm_90a, registers, static shared memory and stack frame as its ptxas log says"

run --kernels "$B/none.fatbin" -f csv --fields arch
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = \
	" 22 compute_90; 22 sm_100a; 22 sm_120f; 22 sm_75; 22 sm_80; 22 sm_86; 22 sm_89; 22 sm_90a;" ]
ok $? "a fatbin: one row per kernel and architecture, suffixes kept, PTX as compute_90"

run --kernels "$B/kernels.exe" -f csv --fields arch,mangled,regs,static_smem,stack,max_threads,barriers
grep -v '^compute' "$tmp/out" | sort >"$tmp/exe"
run --kernels "$B/none.fatbin" -f csv --fields arch,mangled,regs,static_smem,stack,max_threads,barriers
grep -v '^compute' "$tmp/out" | sort >"$tmp/fat"
[ "$(wc -l <"$tmp/exe")" -eq 155 ] && cmp -s "$tmp/exe" "$tmp/fat"
ok $? "an executable (LZ4-compressed fatbin) reads as the bare fatbin: 154 rows, every field"

run --kernels "$B/libkernels.so" -f csv --fields container,arch
if grep -q Zstandard "$tmp/err"; then
	ok 0 "# SKIP a shared library: this build has no libzstd"
else
	[ "$status" -eq 0 ] && [ "$(rows)" -eq 176 ] &&
		[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = elf ]
	ok $? "a shared library (Zstandard): 176 rows, container elf"
fi

run --kernels "$B/none.fatbin" --kernel '^cluster_2x2x1' --arch sm_90a -f csv --fields cluster_dims,max_threads,max_regs
[ "$(tail -n 1 "$tmp/out")" = "2 2 1,512,128" ]
ok $? "cluster shape, launch bound and the register cap of __cluster_dims__(2,2,1) __launch_bounds__(512)"

# ---- Launch bounds ----

run --kernels "$B/none.fatbin" -f csv --fields block,max_threads
[ "$status" -eq 0 ] && awk -F, 'NR > 1 && $2 != "" && $1 > $2 { bad = 1 } END { exit bad }' "$tmp/out"
ok $? "the recommended block never exceeds __launch_bounds__' maximum threads"
run --kernels "$B/sm_90a.cubin" --kernel '^bounded_256' -f csv --fields block,max_threads
[ "$(tail -n 1 "$tmp/out")" = "256,256" ]
ok $? "__launch_bounds__(256) with 40 registers: 256 threads recommended, not more"

run --kernels "$B/sm_90a.cubin" --kernel '^bounded_256' -b 512 -f csv --fields blocks_per_sm,reason
[ "$(tail -n 1 "$tmp/out")" = "0,launch_bounds" ]
ok $? "--block above the bound: 0 blocks, reason launch_bounds"
run --kernels "$B/sm_90a.cubin" --kernel '^bounded_256' -b 512
grep -q 'cannot launch: __launch_bounds__(256)  bounded_256' "$tmp/out"
ok $? "... and the text table says 'cannot launch: __launch_bounds__(256)'"

run --kernels "$B/none.fatbin" --kernel '^bounded_128_4' -b 128 -s 40K -f csv --fields arch,blocks_per_sm,min_blocks_per_sm,reaches_min_blocks
grep -q '^sm_90a,4,4,true$' "$tmp/out" && grep -q '^sm_75,1,4,false$' "$tmp/out" &&
	grep -q '^compute_90,,4,$' "$tmp/out"
ok $? "minimum blocks per SM from the PTX beside the cubins: reached on sm_90a (4), not on sm_75 (1)"
run --kernels "$B/none.fatbin" --arch sm_90a -f csv --fields mangled,min_blocks_per_sm
[ "$(grep -c ',[0-9]' "$tmp/out")" = 3 ] &&
	grep -q '^_Z14bounded_1024_1Pf,1$' "$tmp/out" &&
	grep -q '^_Z13bounded_128_4PKfPf,4$' "$tmp/out" &&
	grep -q '^_Z5spillPKdPdi,1$' "$tmp/out"
ok $? "each cubin kernel takes the minimum of its own PTX among the fatbin's 22, the others none"
run --kernels "$B/sm_90a.cubin" --kernel '^bounded_128_4' -f csv --fields min_blocks_per_sm,max_regs
[ "$(tail -n 1 "$tmp/out")" = ",128" ]
ok $? "a cubin alone keeps no minimum, only the register cap ptxas applied"

run --kernels "$T/fixtures/ptxas-sm90.txt"
grep -q '^A compiler report does not carry __launch_bounds__' "$tmp/out"
ok $? "a compiler report's recommendations say they assume no __launch_bounds__"
run --kernels "$T/fixtures/ptxas-sm90.txt" -f csv --fields bounds_known,max_threads
[ "$(tail -n +2 "$tmp/out" | sort -u)" = "false," ]
ok $? "... and its rows say the bounds are not known"

# ---- --kernel and --arch ----

run --kernels "$B/none.fatbin" --kernel '^bounded_' -f csv --fields mangled
[ "$(tail -n +2 "$tmp/out" | sort -u | tr '\n' ' ')" = "_Z11bounded_256PK6float4PS_i _Z13bounded_128_4PKfPf _Z14bounded_1024_1Pf " ]
ok $? "--kernel matches mangled names: 3 kernels"
run --kernels "$B/none.fatbin" --kernel 'occcalc_fixtures::scale<float' -f csv --fields kernel
[ "$(rows)" -eq 8 ] && [ "$(tail -n +2 "$tmp/out" | sort -u)" = '"void occcalc_fixtures::scale<float, 64>(float*, float)"' ]
ok $? "--kernel matches demangled names"
expect 2 "--kernel: '(': " --kernels "$B/none.fatbin" --kernel '('
expect 1 "no kernel matching --kernel nothing_like_this" --kernels "$B/none.fatbin" --kernel nothing_like_this

run --kernels "$B/none.fatbin" --arch 90 --all-images -f csv --fields arch
[ "$(tail -n +2 "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 22 compute_90; 22 sm_90a;" ]
ok $? "--arch 90 --all-images keeps compute capability 9.0: sm_90a code and compute_90 PTX"
run --kernels "$B/none.fatbin" --arch 90 -f csv --fields arch
[ "$(tail -n +2 "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 22 sm_90a;" ]
ok $? "--arch 90 names a GPU: the image the driver loads there, sm_90a, not the PTX"
run --kernels "$B/none.fatbin" --arch sm_90a -f csv --fields arch
[ "$(tail -n +2 "$tmp/out" | sort -u)" = "sm_90a" ]
ok $? "--arch sm_90a keeps only sm_90a code"
run --kernels "$B/none.fatbin" --arch sm_87 --all-images -f csv --fields arch
[ "$(tail -n +2 "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 22 sm_80; 22 sm_86;" ]
ok $? "--arch sm_87 --all-images keeps the code that runs on 8.7: sm_80 and sm_86"
expect 1 "no kernel that runs on --arch sm_72" --kernels "$B/none.fatbin" --arch sm_72 --all-images

# ---- Directories, standard input, formats ----

mkdir "$tmp/dir" "$tmp/dir/sub"
cp "$B/sm_75.cubin" "$tmp/dir/a.cubin"
cp "$B/sm_86.cubin" "$tmp/dir/sub/b.cubin"
echo "not a binary" >"$tmp/dir/notes.txt"
run --kernels "$tmp/dir" -f csv --fields arch,file
[ "$status" -eq 0 ] && [ "$(rows)" -eq 44 ] && [ ! -s "$tmp/err" ] &&
	[ "$(tail -n +2 "$tmp/out" | sort -u | tr '\n' ' ')" = "sm_75,$tmp/dir/a.cubin sm_86,$tmp/dir/sub/b.cubin " ]
ok $? "a directory: every binary under it, each row naming its file; other files skipped"
head -c 3000 "$B/sm_80.cubin" >"$tmp/dir/c-truncated.cubin"
mkfifo "$tmp/dir/d.fifo" 2>/dev/null
run --kernels "$tmp/dir" -f csv --fields arch
[ "$status" -eq 0 ] && [ "$(rows)" -eq 44 ] &&
	grep -q "^occcalc: warning: $tmp/dir/c-truncated.cubin: .*; skipped$" "$tmp/err" &&
	{ [ ! -p "$tmp/dir/d.fifo" ] || grep -q "^occcalc: warning: $tmp/dir/d.fifo: .*; skipped$" "$tmp/err"; }
ok $? "a directory with a truncated cubin and a FIFO: a warning each, the rest read"
run --kernels "$tmp/dir" -f csv --check 'spill_stores == f'
[ "$status" -eq 2 ] && one_error_line "--check 'spill_stores == f': column 17: 'f': no such field"
ok $? "a --check naming no field: the usage line alone, before any file is read (no warning of the directory's truncated cubin)"
run --kernels "$tmp/dir" -f csv --fields arch,bogus
[ "$status" -eq 2 ] && one_error_line "--fields: 'bogus': no such field"
ok $? "a --fields naming no field: the same, before any file is read"
mkdir "$tmp/unread"
head -c 3000 "$B/sm_80.cubin" >"$tmp/unread/truncated.cubin"
run --kernels "$tmp/unread"
[ "$status" -eq 1 ] && one_error_line "$tmp/unread: no cubin, fatbin or ELF file with CUDA code found (1 file could not be read: $tmp/unread/truncated.cubin: "
ok $? "a directory none of whose files can be read: one error line, naming the file"
mkfifo "$tmp/unread/fifo" 2>/dev/null && {
	run --kernels "$tmp/unread"
	[ "$status" -eq 1 ] && one_error_line "(2 files could not be read; the first: $tmp/unread/"
	ok $? "... and with a FIFO beside it: still one line, the count and the first"
}

cat "$B/sm_75.cubin" | "$OCCCALC" --kernels - -f csv >"$tmp/stdin.csv"
run --kernels "$B/sm_75.cubin" -f csv
sed "s|$B/sm_75.cubin|<stdin>|" "$tmp/out" | cmp -s "$tmp/stdin.csv" -
ok $? "--kernels - reads a binary from standard input"

if command -v python3 >/dev/null 2>&1; then
	run --kernels "$B/none.fatbin" --kernel '^cluster_2x2x1' -f json
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d) == 8, len(d)
ptx = [r for r in d if r["ptx_only"]]
assert len(ptx) == 1 and ptx[0]["arch"] == "compute_90" and ptx[0]["blocks_per_sm"] is None and ptx[0]["regs"] is None
sm90 = [r for r in d if r["arch"] == "sm_90a"][0]
assert sm90["cluster_dims"] == [2, 2, 1] and sm90["max_threads"] == 512 and sm90["container"] == "fatbin"
assert sm90["required_block"] is None and isinstance(sm90["blocks_per_sm"], int)
' <"$tmp/out"
	ok $? "JSON: one object per kernel and architecture, the PTX entry with the model's fields null, cluster as an array"
	run --kernels "$B/none.fatbin" -f jsonl
	python3 -c 'import json,sys; r=[json.loads(l) for l in sys.stdin]; assert len(r) == 176' <"$tmp/out"
	ok $? "JSON Lines: 176 objects"
	run --kernels "$B/none.fatbin" -f csv
	python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); assert len(r) == 177 and len({len(x) for x in r}) == 1' <"$tmp/out"
	ok $? "CSV: a header and 176 rows of as many cells"
fi

# ---- Bad input ----

head -c 3000 "$B/sm_80.cubin" >"$tmp/trunc.cubin"
run --kernels "$tmp/trunc.cubin"
[ "$status" -eq 1 ] && one_error_line "$tmp/trunc.cubin: "
ok $? "a truncated cubin: one line naming the file, exit 1"
if mkfifo "$tmp/fifo" 2>/dev/null; then
	run --kernels "$tmp/fifo"
	[ "$status" -eq 1 ] && one_error_line "$tmp/fifo: not a regular file"
	ok $? "a FIFO is refused without blocking"
fi
printf 'k.cu(12): error: identifier "x" is undefined\n\n1 error detected in the compilation of "k.cu".\n' >"$tmp/failed"
run --kernels "$tmp/failed"
[ "$status" -eq 1 ] && one_error_line "$tmp/failed: the compiler reported 1 error (line 1: k.cu(12): error: identifier \"x\" is undefined): no kernel to read"
ok $? "a failed compile: one line, its error counted and placed, exit 1"
i=0
while [ $i -lt 6 ]; do i=$((i + 1)); echo "k.cu($i): error: bad $i"; done >"$tmp/failed6"
run --kernels "$tmp/failed6"
[ "$status" -eq 1 ] && one_error_line "$tmp/failed6: the compiler reported 6 errors (lines 1, 2, 3, 4 and 2 more; the first: k.cu(1): error: bad 1)"
ok $? "a failed compile with many errors: still one line, the first errors' lines named"
{ cat "$T/fixtures/ptxas-sm90.txt"; echo "ptxas fatal   : Unresolved extern function '_Z3foov'"; } >"$tmp/fatal"
run --kernels "$tmp/fatal"
[ "$status" -eq 1 ] && one_error_line "ptxas fatal   : Unresolved extern"
ok $? "a report ending in 'ptxas fatal' is a failed build, not rows"
expect 1 "--api loads the kernels' code: give a binary" --kernels "$T/fixtures/ptxas-sm90.txt" --api

done_testing
