#!/bin/sh
# ci.sh - occcalc in CI: --check budgets (each operator, absent fields,
# malformed expressions), --check-file per-kernel budgets, and --compare
# of two builds (a report, and occcalc's own JSON and JSON Lines).
. "$T/lib.sh"
F=$T/fixtures

# ---- --check: exit 0 when every row holds, 1 when one fails ----
run -a sm_90 -b 256 -r 64 --check 'occupancy_pct >= 50'
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "--check that holds (50.00 >= 50): exit 0, nothing on stderr"
run -a sm_90 -b 256 -r 128 -f csv --check 'occupancy_pct >= 50'
[ "$status" -eq 1 ] && grep -q '^sm_90,256,128,' "$tmp/out" &&
	grep -qxF 'occcalc: check failed: arch sm_90, block 256: occupancy_pct >= 50 (occupancy_pct 25.00)' "$tmp/err" &&
	grep -qxF 'occcalc: --check: 1 of 1 row fails' "$tmp/err"
ok $? "--check that fails: exit 1, the rows still printed, the row, condition and value said"

for c in 'regs == 64:0' 'regs == 65:1' 'regs != 64:1' 'regs != 63:0' \
	 'regs < 65:0' 'regs < 64:1' 'regs <= 64:0' 'regs <= 63:1' \
	 'regs > 63:0' 'regs > 64:1' 'regs >= 64:0' 'regs >= 65:1' \
	 'occupancy_pct == 50:0' 'occupancy_pct == 50.001:1' \
	 'occupancy_pct > 49.99:0' 'smem <= 1K:0' \
	 'regs == 64 && blocks_per_sm == 4:0' 'regs == 64 && blocks_per_sm == 5:1' \
	 'regs == 1 || blocks_per_sm == 4:0' 'regs == 1 || blocks_per_sm == 5:1' \
	 '!(regs == 64):1' '!(regs == 1):0' \
	 '(regs == 1 || regs == 64) && !(blocks_per_sm < 4):0' \
	 "limiter == 'registers':0" "limiter != \"registers\":1" \
	 "arch == 'sm_90':0" 'optin == true:0' \
	 'warps_per_sm >= blocks_per_sm:0' 'blocks_per_sm > warps_per_sm:1'; do
	expr=${c%:*} want=${c##*:}
	run -a sm_90 -b 256 -r 64 -f csv --check "$expr"
	[ "$status" -eq "$want" ]
	ok $? "--check '$expr' on sm_90, 256 threads, 64 registers: exit $want"
done

run -a sm_90 -b 128:256:128 -r 64 -f csv --check 'regs <= 64' --check 'blocks_per_sm >= 5'
[ "$status" -eq 1 ] && [ "$(grep -c 'check failed' "$tmp/err")" -eq 1 ] &&
	grep -q 'block 256: blocks_per_sm >= 5 (blocks_per_sm 4)' "$tmp/err"
ok $? "--check is repeatable; each row is judged by all, only the failing one said"

run -a sm_90 -b 128 -r 40 -f csv --fields occupancy_pct --check 'smem_keep_max < 0'
[ "$status" -eq 1 ] && grep -qxF 'occcalc: check failed: arch sm_90, block 128: smem_keep_max < 0 (smem_keep_max 18432)' "$tmp/err"
ok $? "--check of a field not printed (a headroom field): computed and judged, not left undecided"
run -a sm_90 -b 128 -r 40 --check 'regs_keep_max == 40'
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "--check of a field the text report does not print: computed and judged"

run -a sm_90 -b 256 -r 64 -f csv --check 'regs > 100 && occupancy_pct >= 10'
grep -qF 'regs > 100 (regs 64)' "$tmp/err" && ! grep -qF 'occupancy_pct >= 10 (' "$tmp/err"
ok $? "a failing && says the comparison that fails, not the one that holds"

# ---- Fields absent in a row ----
run --kernels "$F/ptxas-sm90.txt" -b 256 -f csv --check 'blocks_per_sm >= min_blocks_per_sm'
[ "$status" -eq 0 ] && grep -q "warning: --check 'blocks_per_sm >= min_blocks_per_sm' judged none of 7 rows: min_blocks_per_sm is absent from every one$" "$tmp/err"
ok $? "a comparison with an absent field decides nothing: the row passes; a check that judged no row says so"
run --kernels "$T/fixtures/bin/none.fatbin" -f csv --check 'blocks_per_sm >= min_blocks_per_sm'
[ "$status" -eq 0 ] && grep -q "warning: --check: [0-9]* rows not judged where min_blocks_per_sm is absent" "$tmp/err"
ok $? "rows where a field is absent, beside rows judged: counted in a warning"
run --kernels "$F/ptxas-sm90.txt" -b 256 -f csv --check 'min_blocks_per_sm != none && blocks_per_sm >= min_blocks_per_sm'
[ "$status" -eq 1 ] && grep -qF 'min_blocks_per_sm != none (min_blocks_per_sm absent)' "$tmp/err"
ok $? "'FIELD != none' makes absence fail"
run --kernels "$F/ptxas-sm90.txt" -b 256 -f csv --check 'min_blocks_per_sm == none || blocks_per_sm >= min_blocks_per_sm'
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "'FIELD == none || ...' decides every row: no warning"
run --kernels "$F/ptxas-sm90.txt" -b 256 -f csv --check 'regs > 100 && min_blocks_per_sm > 1'
[ "$status" -eq 1 ]
ok $? "false && unknown is false: the row fails"

# ---- Malformed expressions: exit 2, one line naming the column ----
expect 2 "--check 'regs <= ': column 9: the expression ends where a field or value should be" -a sm_90 -b 256 --check 'regs <= '
expect 2 "column 1: 'regz': no such field of occupancy rows" -a sm_90 -b 256 --check 'regz <= 3'
expect 2 "column 6: '=': compare with '=='" -a sm_90 -b 256 --check 'regs = 3'
expect 2 "column 11: expected ')' to close the '(' at column 1" -a sm_90 -b 256 --check '(regs == 3'
expect 2 "column 11: ') ': expected && or || between two comparisons" -a sm_90 -b 256 --check 'regs == 3 ) '
expect 2 "column 6: text compares with == or != only" -a sm_90 -b 256 --check "arch < 'sm_90'"
expect 2 "column 6: a number compared with text" -a sm_90 -b 256 --check "regs == 'x'"
expect 2 "column 3: a comparison needs a field on one side" -a sm_90 -b 256 --check '1 < 2'
expect 2 "column 12: 'registers': no such field of occupancy rows (see --list-fields; text goes in quotes)" -a sm_90 -b 256 --check 'limiter == registers'
expect 2 "column 9: a quote (') that is not closed" -a sm_90 -b 256 --check "arch == 'x"
expect 2 "nested more than 64 deep" -a sm_90 -b 256 --check "$(printf '%0.s(' $(seq 70))regs == 1"
expect 2 "column 8: '999999999999': not a number (or beyond 64 bits)" -a sm_90 -b 256 --check 'regs < 99999999999999999999999'
expect 2 "column 1: 'spill_stores': no such field of access rows" --access load -a sm_90 --check 'spill_stores == 0'

# ---- --check-file: per-kernel budgets ----
cat >"$tmp/budgets" <<'B'
# kernel pattern: budget
^spill\(: regs <= 24 && spill_stores == 0
saxpy|block_sum: occupancy_pct >= 50
nomatch_at_all: regs == 0
B
run --kernels "$F/ptxas-sm90.txt" -b 256 -f csv --check-file "$tmp/budgets"
[ "$status" -eq 1 ] && [ "$(grep -c 'check failed' "$tmp/err")" -eq 1 ] &&
	grep -qF 'kernel spill(double const*, double*, int): regs <= 24 (regs 32); spill_stores == 0 (spill_stores 480) ('"$tmp"'/budgets:2)' "$tmp/err" &&
	grep -qF "budgets:4: no kernel matches this budget's pattern" "$tmp/err"
ok $? "--check-file: each budget judges the kernels its pattern matches; a pattern matching none is warned"
printf 'saxpy regs <= 3\n' >"$tmp/bad"
expect 2 "bad:1: expected 'REGEX: EXPR'" --kernels "$F/ptxas-sm90.txt" --check-file "$tmp/bad"
printf 'saxpy: regs <=> 3\n' >"$tmp/bad"
expect 2 "bad:1 'regs <=> 3': column 8: '>': expected a field or a value" --kernels "$F/ptxas-sm90.txt" --check-file "$tmp/bad"
printf '(: regs <= 3\n' >"$tmp/bad"
expect 2 "bad:1: '(': not a regular expression" --kernels "$F/ptxas-sm90.txt" --check-file "$tmp/bad"

# ---- --compare ----
sed -e '20s/Used 32 registers/Used 72 registers/' "$F/ptxas-sm90.txt" |
	sed -e '11,15d' >"$tmp/new.txt"
"$OCCCALC" --kernels "$F/ptxas-sm90.txt" -b 256 -f json >"$tmp/base.json"
"$OCCCALC" --kernels "$F/ptxas-sm90.txt" -b 256 -f jsonl >"$tmp/base.jsonl"
run --kernels "$tmp/new.txt" -b 256 --compare "$F/ptxas-sm90.txt"
cat >"$tmp/want" <<W
$tmp/new.txt against $F/ptxas-sm90.txt

Compared at the block --block gives.

removed   sm_90        dynamic_smem(float*)
changed   sm_90        spill(double const*, double*, int)
          regs            32 -> 72 (+40)
          blocks_per_sm   8 -> 3 (-5)
          warps_per_sm    64 -> 24 (-40)
          occupancy_pct   100.00 -> 37.50 (-62.50)
          limiter         warps+registers -> registers

1 changed, 0 added, 1 removed, 5 unchanged (--all lists them)
W
[ "$status" -eq 0 ] && diff "$tmp/want" "$tmp/out" >"$tmp/diff"
ok $? "--compare, text: changed fields old -> new (delta), removed kernels, unchanged counted"
# Without --block each kernel is compared at its largest block: a change
# of registers that moves the best block is no change of block.
run --kernels "$T/fixtures/bin/kernels-rdc.o" --compare "$T/fixtures/bin/kernels.o" -a sm_90a --kernel '^calls' -f csv --fields change,old_block,block,old_regs,regs
[ "$status" -eq 0 ] && [ "$(tail -n +2 "$tmp/out")" = "changed,1024,1024,12,24" ]
ok $? "--compare without --block: at the kernel's largest block (no bound: 1,024 threads, which its registers allow)"
run --kernels "$T/fixtures/bin/kernels-rdc.o" --compare "$T/fixtures/bin/kernels.o" -a sm_90a --kernel '^calls'
grep -q "^Compared at each kernel's largest block: its __launch_bounds__, else the most threads its registers allow (--block N compares at N)\.$" "$tmp/out"
ok $? "--compare, text: says at which block it compares"
sed 's/^/# /' "$tmp/diff"
for b in base.json base.jsonl; do
	run --kernels "$tmp/new.txt" -b 256 --compare "$tmp/$b" -f csv --fields change,kernel,old_regs,regs,d_regs,d_occupancy_pct
	[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = 'change,kernel,old_regs,regs,d_regs,d_occupancy_pct
removed,dynamic_smem(float*),10,,,
changed,"spill(double const*, double*, int)",32,72,40,-62.50' ]
	ok $? "--compare with a baseline occcalc wrote ($b): the same rows as against the report"
done
run --kernels "$tmp/new.txt" -b 256 --compare "$F/ptxas-sm90.txt" --all -f csv --fields change
[ "$(grep -c unchanged "$tmp/out")" -eq 5 ]
ok $? "--all lists the unchanged kernels"
run --kernels "$F/ptxas-sm90.txt" -b 256 --compare "$tmp/new.txt" -f jsonl --fields change,kernel
[ "$status" -eq 0 ] && grep -qxF '{"change":"added","kernel":"dynamic_smem(float*)"}' "$tmp/out"
ok $? "a kernel only the new build has is added (JSON Lines)"
run --kernels "$tmp/new.txt" -b 256 --compare "$tmp/base.json" --check 'd_regs <= 0' -f csv --fields change
[ "$status" -eq 1 ] && grep -qF 'kernel spill(double const*, double*, int): d_regs <= 0 (d_regs 40)' "$tmp/err" &&
	! grep -q dynamic_smem "$tmp/err"
ok $? "--compare --check judges deltas of the new rows; removed kernels are not judged"
run --kernels "$tmp/new.txt" -b 256 --compare "$tmp/base.json" --check 'd_occupancy_pct >= -70 && regs <= 72' -f csv
[ "$status" -eq 0 ]
ok $? "--compare --check: deltas and new values that hold: exit 0"
printf '[{"mangled":"x","arch":"sm_90","regs":"many"}]' >"$tmp/bad.json"
expect 1 "bad.json: row 1: regs: 'many' is not a number" --kernels "$tmp/new.txt" --compare "$tmp/bad.json"
printf '[{"mangled":"x","arch":"sm_90"},\n {"regs":1,}]' >"$tmp/bad.json"
expect 1 "bad.json:2:12: expected a field name in quotes" --kernels "$tmp/new.txt" --compare "$tmp/bad.json"
printf '[{"regs":1}]' >"$tmp/bad.json"
expect 1 "row 1 has no kernel or mangled: not occcalc's --kernels rows" --kernels "$tmp/new.txt" --compare "$tmp/bad.json"
printf '[{"mangled":"x","arch":"sm_90","kernel":"a\\ud800"}]' >"$tmp/bad.json"
expect 1 "bad.json:1:43: a lone UTF-16 surrogate in a string" --kernels "$tmp/new.txt" --compare "$tmp/bad.json"
printf '[{"mangled":"x","arch":"sm_90","block":[1,[2]]}]' >"$tmp/bad.json"
expect 1 "bad.json:1:43: a value nested deeper than occcalc writes" --kernels "$tmp/new.txt" --compare "$tmp/bad.json"
run --kernels "$F/ptxas-sm90.txt" -b 256 --compare "$T/fixtures/compare-empty-baseline.json"
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "0 changed, 7 added, 0 removed, 0 unchanged" ] && [ ! -s "$tmp/err" ]
ok $? "F8: an empty baseline ([]): every kernel added, nothing sorted that is not there"
sed 's/"sm_90"/"sm_80"/' "$tmp/base.jsonl" >"$tmp/other.jsonl"
run --kernels "$F/ptxas-sm90.txt" -b 256 -a sm_90 --compare "$tmp/other.jsonl"
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "0 changed, 7 added, 0 removed, 0 unchanged" ]
ok $? "F8: a baseline --arch filters to nothing: every kernel added"
# The bounds of a baseline (the man page's): 256 MB, refused before it
# is read, and 1,000,000 rows.
printf '[' >"$tmp/huge.json"
truncate -s 268435457 "$tmp/huge.json"
expect 1 "huge.json: 268435457 bytes: larger than the 268435456 a file of rows may have" --kernels "$tmp/new.txt" --compare "$tmp/huge.json"
awk 'BEGIN { for (i = 0; i <= 1000000; i++) printf "{\"mangled\":\"k%d\",\"arch\":\"sm_90\"}\n", i }' >"$tmp/many.jsonl"
expect 1 "many.jsonl: more than 1000000 rows: more than a baseline may hold" --kernels "$tmp/new.txt" --compare "$tmp/many.jsonl"
rm -f "$tmp/huge.json" "$tmp/many.jsonl"
expect 2 "--compare reads two builds" --kernels "$tmp/new.txt" --compare "$tmp/base.json" --api
expect 2 "--compare sets two builds side by side on one target" --kernels "$tmp/new.txt" --compare "$tmp/base.json" --gpu H100-SXM,A100
expect 2 "--all lists unchanged kernels: it goes with --compare" --kernels "$tmp/new.txt" --all
expect 2 "--compare does not apply to an occupancy calculation" -a sm_90 --compare "$tmp/base.json"

# ---- --check in the other modes ----
run -a sm_90 --traffic 'z[i] = x[i] + y[i]' --grid 131072 --block 64 --check 'block < 64'
[ "$status" -eq 1 ] && grep -q '^Launch\|L1' "$tmp/out" &&
	grep -qxF 'occcalc: --check: 3 of 3 rows fail' "$tmp/err"
ok $? "--check judges --traffic's rows under its text report too (load, store, total)"
run --list-gpus -f csv --check "multiProcessorCount >= 132 || name == 'K40'"
[ "$status" -eq 1 ] && grep -qF "check failed: name H100-PCIe: multiProcessorCount >= 132 (multiProcessorCount 114); name == 'K40' (name H100-PCIe)" "$tmp/err"
ok $? "--check on --list-gpus rows: a failing || says each side and its values"
run -a sm_90 --access load --stride 1,2 -f csv --check 'efficiency_pct >= 100'
[ "$status" -eq 1 ] && grep -qF 'efficiency_pct >= 100 (efficiency_pct 50.00)' "$tmp/err"
ok $? "--check on --access rows"

# ---- --gpu LIST and --arch LIST ----
B=$F/bin
run --gpu H100-SXM,A100,RTX-5090 -b 256 -r 64 -f csv --fields gpu,arch,blocks_per_sm,occupancy_pct,min_grid_size,can_launch
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = 'gpu,arch,blocks_per_sm,occupancy_pct,min_grid_size,can_launch
H100-SXM,sm_90,4,50.00,528,true
A100,sm_80,4,50.00,432,true
RTX-5090,sm_120,4,66.67,680,true' ]
ok $? "--gpu LIST: a row per GPU, each with its table and SM count (132, 108, 170)"
run -a sm_80,sm_90 -b 256 -r 64 -f csv --fields arch,blocks_per_sm
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = 'arch,blocks_per_sm
sm_80,4
sm_90,4' ]
ok $? "--arch LIST: a row per architecture"
run --kernels "$B/kernels.o" -a sm_80,sm_90a -f csv --fields arch
[ "$(tail -n +2 "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" = " 22 sm_80; 22 sm_90a;" ]
ok $? "--kernels --arch LIST: a row per kernel per architecture, the image each loads"
run --kernels "$B/kernels.o" --kernel '^saxpy' --gpu H100-SXM,RTX-4090,A10,V100 -b 256 -f csv --fields gpu,arch,blocks_per_sm,reason,can_launch
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = 'gpu,arch,blocks_per_sm,reason,can_launch
H100-SXM,sm_90a,8,,true
RTX-4090,sm_89,6,,true
A10,sm_86,6,,true
V100,,,no_image,false' ]
ok $? "--kernels --gpu LIST: the image each GPU loads (sm_90a on 9.0, sm_89 on 8.9, sm_86 on 8.6), none on 7.0"
run --kernels "$B/sm_80.cubin" --kernel '^saxpy' --gpu A10,H100-SXM -b 256 -f csv --fields gpu,arch,blocks_per_sm,reason
[ "$(cat "$tmp/out")" = 'gpu,arch,blocks_per_sm,reason
A10,sm_80,6,
H100-SXM,,,no_image' ]
ok $? "an sm_80 cubin runs on 8.6 (the A10's table: 6 blocks of 256), not on 9.0"
run --kernels "$B/kernels.o" --kernel '^saxpy' --gpu H100-SXM,A100 -b 256 -s 200K -f csv --fields gpu,blocks_per_sm,reason,can_launch --check 'can_launch == true'
[ "$status" -eq 1 ] && grep -qF 'A100,0,shared_memory_per_block,false' "$tmp/out" &&
	grep -qF 'H100-SXM,1,,true' "$tmp/out" &&
	grep -qF 'check failed: gpu A100, arch sm_80, block 256, kernel saxpy' "$tmp/err"
ok $? "200 KiB of dynamic shared memory launches on an H100 (227 KiB opt-in), not on an A100 (163 KiB): --check fails that row"
run --kernels "$B/kernels.o" --kernel '^saxpy|^big_smem' --gpu H100-SXM,V100 -b 256
sed -n '/^Occupancy by GPU/,$p' "$tmp/out" >"$tmp/matrix"
cat >"$tmp/want" <<'W'
Occupancy by GPU, with the image each loads:
H100-SXM              V100                  kernel
100.00% sm_90a        no image              saxpy(int, float, float const*, float*)
62.50% sm_90a         no image              big_smem(float const*, float*)
W
diff "$tmp/want" "$tmp/matrix" >"$tmp/diff"
ok $? "the text report ends with a matrix, kernels down (by symbol), GPUs across"
sed 's/^/# /' "$tmp/diff"
run --kernels "$B/kernels.o" --kernel bounded_128_4 --gpu H100-SXM,RTX-4090 -b 128:256:128 -f csv --fields gpu,block,blocks_per_sm,reason,can_launch --check 'can_launch == true'
[ "$status" -eq 1 ] && [ "$(tail -n +2 "$tmp/out" | tr '\n' ';')" = 'H100-SXM,128,16,,true;H100-SXM,256,0,launch_bounds,false;RTX-4090,128,11,,true;RTX-4090,256,0,launch_bounds,false;' ]
ok $? "a block above the kernel's __launch_bounds__ (128) cannot launch on any GPU: can_launch false"
run --kernels "$F/triton-cache" --gpu H100-SXM,A100
n_h100=$(sed -n '/^Occupancy by GPU/,$p' "$tmp/out" | grep -c ' sm_90a[ ,]')
n_none=$(sed -n '/^Occupancy by GPU/,$p' "$tmp/out" | grep -c 'no image')
[ "$status" -eq 0 ] && [ "$n_h100" -gt 10 ] && [ "$n_none" -eq "$n_h100" ]
ok $? "a Triton cache (sm_90a cubins) on an H100 and an A100: every kernel loads on the first, none on the second"
expect 2 "--gpu LIST names each GPU's architecture: leave out --arch" --gpu H100-SXM,A100 -a sm_90 -b 128
expect 2 "--gpu takes a list with an occupancy calculation or --kernels" --gpu H100-SXM,A100 --info
expect 2 "--arch LIST: each architecture's table is modelled, not --gpu H100-SXM: leave out --gpu, or give --gpu a list" --gpu H100-SXM -a sm_80,sm_90 -b 128
expect 2 "--gpu: 'H100-SXM,,A100': an empty item in the list" --gpu 'H100-SXM,,A100' -b 128
expect 2 "--arch: 'sm_99x': not an architecture" -a sm_80,sm_99x -b 128

# Several --kernels paths are one build, compared as such.
run --kernels "$T/fixtures/bin/sm_80.cubin" "$T/fixtures/bin/sm_90a.cubin" \
	--compare "$T/fixtures/bin/sm_80.cubin" -f csv --fields change,arch
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | sort -u | tr '\n' ';')" = "added,sm_90a;" ] &&
	[ "$(sed 1d "$tmp/out" | wc -l)" -eq 22 ]
ok $? "--compare with two --kernels paths: the second's 22 kernels are added, the first's unchanged"
run --kernels "$T/fixtures/bin/sm_80.cubin" "$T/fixtures/bin/sm_90a.cubin" \
	--compare "$T/fixtures/bin/sm_80.cubin"
grep -q "^.*sm_80.cubin and 1 more against .*sm_80.cubin$" "$tmp/out" &&
	grep -q "^0 changed, 22 added, 0 removed, 22 unchanged" "$tmp/out"
ok $? "the text names the first path and how many more"

# A binary records no spills: a check on them judges no row, and says so;
# stack (local memory) is the gate that works on binaries.
run --kernels "$T/fixtures/bin/sm_90a.cubin" --check 'spill_stores == 0'
[ "$status" -eq 0 ] && [ "$(grep -c . "$tmp/err")" -eq 2 ] &&
	grep -q "^occcalc: warning: --check 'spill_stores == 0' judged none of [0-9]* rows: spill_stores is absent from every one: a binary does not record spills (ptxas -v's report does); on a binary gate on stack" "$tmp/err"
ok $? "--check on spills over a binary: one warning saying it judged no row, and why"
run --kernels "$T/fixtures/bin/sm_90a.cubin" --check 'stack == 0'
[ "$status" -eq 1 ] && grep -q 'kernel spill(double const\*, double\*, int): stack == 0 (stack [1-9]' "$tmp/err"
ok $? "--check 'stack == 0' over a binary fails the kernel that spills"

done_testing
