#!/bin/sh
# rows-threads.sh - a long list's rows are made on threads (pieces of 512
# kernels) and printed as one thread prints them: every format, the text
# table's summary and lowest occupancies (ties in the order the kernels
# came), --block, --fields, --arch, and a list where nothing launches.
. "$T/lib.sh"

# A ptxas report of 1,700 kernels on three architectures: registers,
# shared memory, barriers and stack in cycles of different lengths, so
# that many kernels tie and some cannot launch; the lowest occupancies
# (255 registers) only in the last two pieces, tied across them.
report() {   # report ARCHS COUNT
	awk -v archs="$1" -v count="$2" 'BEGIN {
		na = split(archs, a, " ")
		for (i = 0; i < count; i++) {
			arch = a[i % na + 1]
			regs = (i >= 1520 && i % 10 == 0) ? 255 : 16 + (i * 37) % 112
			name = "kernel" i
			smem = (i % 7 == 3) ? 300000 : (i % 11) * 4096
			printf "ptxas info    : Compiling entry function '"'"'_Z%d%sPf'"'"' for '"'"'%s'"'"'\n", length(name), name, arch
			printf "ptxas info    : Function properties for _Z%d%sPf\n", length(name), name
			printf "    %d bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n", (i % 5) * 16
			printf "ptxas info    : Used %d registers, used %d barriers, %d bytes smem\n", regs, i % 3, smem
		}
	}'
}
report "sm_90 sm_80 sm_75" 1700 >"$tmp/many.txt"
report "sm_90" 1100 | sed 's/ [0-9]* bytes smem/ 300000 bytes smem/' >"$tmp/none.txt"

jobs_agree "text table and its summary" "3 16" --kernels "$tmp/many.txt"
grep -q "^Limited by:.*cannot launch 243;" "$tmp/out" &&
	grep -A2 "^Lowest occupancy" "$tmp/out" | sed 's/^.*: //' | tr '\n' ' ' |
	grep -qx "kernel1530(float\*) kernel1540(float\*) kernel1560(float\*) "
ok $? "the summary counts kernels that cannot launch; the lowest, tied, in the order they came"
jobs_agree "CSV" "3 16" --kernels "$tmp/many.txt" -f csv
[ "$(wc -l <"$tmp/out")" -eq 1701 ]
ok $? "CSV: a header and a row per kernel"
jobs_agree "CSV without its header" "3 16" --kernels "$tmp/many.txt" -f csv,noheader
jobs_agree "JSON" "3 16" --kernels "$tmp/many.txt" -f json
[ "$(grep -c '^{' "$tmp/out")" -eq 1700 ] && [ "$(grep -c '^{.*},$' "$tmp/out")" -eq 1699 ]
ok $? "JSON: one array of 1,700 objects, a comma between each two"
jobs_agree "JSON Lines" "3 16" --kernels "$tmp/many.txt" -f jsonl
jobs_agree "--fields" "3 16" --kernels "$tmp/many.txt" -f csv --fields kernel,arch,regs,blocks_per_sm,limiter
jobs_agree "--block 256" "3 16" --kernels "$tmp/many.txt" --block 256 -f csv
jobs_agree "--block 64:1024:64 (rows per block size)" "3 16" --kernels "$tmp/many.txt" --block 64:1024:64 -f csv
jobs_agree "--arch sm_80" "3 16" --kernels "$tmp/many.txt" --arch sm_80 -f json
# The sm_75 kernels from the 1,201st on moved to an architecture with no
# table (runs of one compute capability are checked before the threads
# start): refused at the first of them, on threads as on one.
report "sm_90 sm_80 sm_75" 1700 |
	awk '/Compiling entry/ && ++n > 1200 { sub(/sm_75/, "sm_99") } 1' \
	>"$tmp/unknown.txt"
run --jobs 1 --kernels "$tmp/unknown.txt" -f csv
one_error_line "unknown.txt:4812: kernel _Z10kernel1202Pf is compiled for compute capability 9.9, which has no table"
ok $? "a kernel with no table past the first piece is refused at its line"
run --jobs 16 --kernels "$tmp/unknown.txt" -f csv
one_error_line "unknown.txt:4812: kernel _Z10kernel1202Pf is compiled for compute capability 9.9, which has no table"
ok $? "... and so on 16 threads"
run --jobs 1 --kernels "$tmp/none.txt" -f csv
s1=$status
cp "$tmp/out" "$tmp/one"
run --jobs 4 --kernels "$tmp/none.txt" -f csv
[ "$s1" -eq 1 ] && [ "$status" -eq 1 ] && cmp -s "$tmp/one" "$tmp/out"
ok $? "nothing launches: exit 1 on threads as on one, the same rows"
done_testing
