#!/bin/sh
# kernels-inputs.sh - the inputs users have for --kernels: static
# libraries (ar archives of objects), PTX files (what the text states:
# directives and declared shared memory, registers unknown until
# compiled), several paths in one run (a shell's glob), and a run that
# finds only PTX (no empty table).
. "$T/lib.sh"
F=$T/fixtures
P=$F/ptx

# An archive, as 'ar rcs' writes it, holding an object and a text member.
if command -v ar >/dev/null 2>&1; then
	printf 'not code\n' >"$tmp/notes.txt"
	ar rcs "$tmp/libk.a" "$F/bin/kernels.o" "$tmp/notes.txt"
	run --kernels "$tmp/libk.a" -b 128 -f csv --fields arch,kernel,regs,static_smem,blocks_per_sm
	"$OCCCALC" --kernels "$F/bin/kernels.o" -b 128 -f csv --fields arch,kernel,regs,static_smem,blocks_per_sm >"$tmp/alone" 2>/dev/null
	[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 100 ] && cmp -s "$tmp/out" "$tmp/alone"
	ok $? "a static library: the rows of its object, as read alone ($(($(wc -l <"$tmp/out") - 1)) rows), its text member skipped"
	run --kernels "$tmp/libk.a" -b 128 -f csv --fields file,container
	[ "$(sed 1d "$tmp/out" | sort -u)" = "$tmp/libk.a,elf" ]
	ok $? "an archive's rows name the archive (where --api loads the code from)"
else
	skip 2 "ar is not installed"
fi
run --kernels "$F/ar/sm_75-and-text.a" -b 128 -f csv --fields arch
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | sort | uniq -c | tr -s ' ')" = " 22 sm_75" ]
ok $? "an archive of a cubin and a text file: the cubin's 22 kernels"
expect 1 "archive member of 4000 bytes past the end at byte 8" --kernels "$T/fuzz-repro/binary/ar-member-past-end"
expect 1 "archive member header cut short at byte 8" --kernels "$T/fuzz-repro/binary/ar-header-cut-short"

run --kernels "$P/kernels.ptx" -f csv --fields arch,kernel,container,ptx_only,max_threads,min_blocks_per_sm,max_regs,ptx_shared,regs
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | tr '\n' ';')" = 'compute_90,bounded(float*),ptx,true,256,2,,4224,;compute_90,capped(float*),ptx,true,,,64,0,;compute_90,plain(float*),ptx,true,,,,0,;' ]
ok $? "a PTX file: .maxntid, .minnctapersm, .maxnreg and the .shared each entry declares (4096 + 128 B; extern is dynamic), registers absent"
run --kernels "$P/kernels.ptx"
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "PTX only (compiled by the driver when loaded, resources unknown until then):
compute_90   bounded(float*): .maxntid 256 threads, .minnctapersm 2, 4224 B of .shared declared; registers unknown until compiled
compute_90   capped(float*): .maxnreg 64, 0 B of .shared declared; registers unknown until compiled
compute_90   plain(float*): 0 B of .shared declared; registers unknown until compiled" ]
ok $? "a PTX file in text: what the PTX states, registers said unknown, no empty table"
sed 's/^\.target sm_90$/.target nothing/' "$P/kernels.ptx" >"$tmp/bad.ptx"
expect 1 "PTX without a '.target sm_NN' directive" --kernels "$tmp/bad.ptx"

run --kernels "$P/sm90-compute120.o" --arch sm_120
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "PTX only (compiled by the driver when loaded, resources unknown until then):
compute_120  k(float*)" ]
ok $? "only PTX found (--arch sm_120): its list, no empty table header"

run --kernels "$F/bin/sm_80.cubin" "$F/bin/sm_86.cubin" -b 128 -f csv --fields file,arch
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | cut -d, -f2 | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 22 sm_80; 22 sm_86;" ]
ok $? "--kernels a b: the kernels of both"
run --kernels "$F"/bin/sm_*.cubin -b 128 -f csv --fields arch
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | sort -u | wc -l)" -eq "$(ls "$F"/bin/sm_*.cubin | wc -l)" ]
ok $? "a shell glob: every file it names, one architecture each"
run --kernels "$F/bin/sm_80.cubin" "$P/kernels.ptx" -b 128 -f csv --fields container
[ "$(sed 1d "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 22 cubin; 3 ptx;" ]
ok $? "a binary and a PTX file in one run"
expect 1 "nothing.o: cannot read" --kernels "$F/bin/sm_80.cubin" "$tmp/nothing.o"
expect 2 "unexpected argument 'extra'" -a sm_90 -b 128 extra

done_testing
