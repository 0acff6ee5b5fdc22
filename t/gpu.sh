#!/bin/sh
# gpu.sh - on a CUDA device: the calibrated kernels have the registers
# asked for, the runtime's occupancy API agrees with the model, and
# --measure finds the predicted blocks resident. Skipped without a device.
. "$T/lib.sh"

"$OCCCALC" --list-devices >"$tmp/devices" 2>"$tmp/err" ||
	skip_all "$(sed 's/^occcalc: //' "$tmp/err")"
"$OCCCALC" --api --block 32 >/dev/null 2>"$tmp/err"
grep -q 'built without' "$tmp/err" &&
	skip_all "$(sed 's/^occcalc: //' "$tmp/err")"

# col CSV NAME: the column's number in CSV's header.
col() {
	head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}

# every CSV A B: each row has column A equal to column B; the first rows
# that do not are shown.
every() {
	a=$(col "$1" "$2") b=$(col "$1" "$3")
	[ -n "$a" ] && [ -n "$b" ] && [ "$(wc -l <"$1")" -gt 1 ] &&
		awk -F, -v a="$a" -v b="$b" 'NR > 1 && $a != $b {
				if (bad++ < 5) print "# differ: " $0 }
			END { exit bad > 0 }' "$1"
}

grep -q '^0 ' "$tmp/devices"
ok $? "--list-devices lists device 0"

run --api --block 128 --regs 24:255 --format csv
every "$tmp/out" regs kernel_regs && [ "$(wc -l <"$tmp/out")" -eq 233 ]
ok $? "the calibrated kernel has exactly 24 to 255 registers, as asked"

run --api --block 128 --regs 16 --format csv
[ "$status" -eq 0 ] && grep -q 'for 16 registers has 24' "$tmp/err" &&
	every "$tmp/out" regs kernel_regs &&
	[ "$(cut -d, -f3 "$tmp/out" | tail -1)" = 24 ]
ok $? "fewer registers than ptxas allocates: a warning, and the row is for 24"

run --api --block 32:1024:32 --regs 24,32,40,64,96,128,168,255 \
	--smem 0,1K,16K,47K,100K,227K,228K --format csv
[ "$status" -eq 0 ] && every "$tmp/out" blocks_per_sm api_blocks_per_sm
ok $? "the occupancy API agrees with the model on 1792 configurations"

run --api --block 256 --regs 64 --smem 100K --carveout 50 --format csv
every "$tmp/out" blocks_per_sm api_blocks_per_sm
ok $? "the occupancy API agrees under a carveout preference"

run --api --no-optin --block 128 --regs 32 --smem 40K,48K,49K,100K --format csv
[ "$status" -eq 0 ] && every "$tmp/out" blocks_per_sm api_blocks_per_sm
ok $? "the occupancy API agrees without opt-in (above 48 KB: 0 blocks)"

run --measure --block 128 --regs 40
[ "$status" -eq 0 ] && grep -q 'Occupancy API  *12 blocks per SM' "$tmp/out" &&
	grep -q 'Measured  *12 blocks resident per SM' "$tmp/out" &&
	grep -q 'Both agree with the model' "$tmp/out"
ok $? "--measure: 12 blocks of 128 threads x 40 registers resident, as predicted"

run --measure --block 64,256,1024 --regs 32,64 --smem 0,40K --format csv
every "$tmp/out" blocks_per_sm measured_blocks_per_sm &&
	every "$tmp/out" blocks_per_sm api_blocks_per_sm
ok $? "--measure: predicted = API = measured residency across a sweep"

run --measure --block 128 --regs 32 --grid 1000 --format csv
every "$tmp/out" expected_blocks_per_sm measured_blocks_per_sm &&
	! every "$tmp/out" blocks_per_sm measured_blocks_per_sm >/dev/null
ok $? "a grid smaller than a wave spreads over the SMs, as the model expects"

run --measure --block 256 --regs 32 --grid 100 --format csv
c=$(col "$tmp/out" achieved_occupancy_pct)
[ "$(cut -d, -f"$(col "$tmp/out" measured_grid)" "$tmp/out" | tail -1)" = 100 ] &&
	awk -F, -v c="$c" 'NR == 2 { exit !($c + 0 < 100 && $c + 0 > 0) }' "$tmp/out"
ok $? "--grid 100: 100 blocks launched, achieved occupancy below the theoretical"

: >"$tmp/runs"
for i in 1 2 3; do
	run --measure --block 512 --regs 48 --format csv
	tail -1 "$tmp/out" >>"$tmp/runs"
done
r=$(col "$tmp/out" measured_blocks_per_sm) c=$(col "$tmp/out" achieved_occupancy_pct)
[ -n "$r" ] && [ -n "$c" ] && awk -F, -v r="$r" -v c="$c" '
	NR == 1 { r0 = $r; lo = hi = $c }
	{ if ($r != r0) bad = 1; if ($c < lo) lo = $c; if ($c > hi) hi = $c }
	END { printf "# achieved occupancy over 3 runs: %.2f-%.2f %%\n", lo, hi;
	      exit bad || hi - lo > 1 }' "$tmp/runs"
ok $? "three runs agree: the same residency, achieved occupancy within 1 point"
t=$(col "$tmp/out" measure_ms)
echo "# one configuration measured in $(cut -d, -f"$t" "$tmp/runs" | tr '\n' ' ')ms"

run --measure --block 128 --regs 40 --format json
grep -q '"measured_blocks_per_sm":12' "$tmp/out" &&
	grep -q '"api_blocks_per_sm":12' "$tmp/out" &&
	grep -q '"agrees":true' "$tmp/out"
ok $? "--measure in JSON: the API's and the measured blocks, and agreement"

run --measure --block 2048
[ "$status" -eq 1 ] && grep -q 'Occupancy API  *0 blocks' "$tmp/out" &&
	! grep -q 'Measured' "$tmp/out"
ok $? "a block that cannot launch: the API says 0, nothing is launched, exit 1"

run --measure --arch sm_80 --block 128
[ "$status" -eq 2 ] && one_error_line "--arch sm_80: device 0"
ok $? "--measure with another architecture's --arch: a usage error"

run --api --device 99 --block 128
[ "$status" -eq 2 ] && one_error_line "--device 99: this machine has"
ok $? "--device out of range: a usage error"

if command -v script >/dev/null 2>&1; then
	script -qec "'$OCCCALC' --measure --block 128,256 --format csv \
		>/dev/null" /dev/null >"$tmp/tty" 2>&1
	grep -q 'measured 2 of 2' "$tmp/tty"
	ok $? "a measured sweep shows its progress on a terminal"
else
	n=$((n + 1)); echo "ok $n # SKIP script(1) is not installed"
fi
run --measure --block 128,256 --format csv
! grep -q measured "$tmp/err"
ok $? "no progress when stderr is not a terminal"

run --access load,store --stride 1,4 --measure --format csv
c=$(col "$tmp/out" requested_gbps)
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 5 ] && [ -n "$c" ] &&
	awk -F, -v c="$c" 'NR > 1 && !($c + 0 > 0) { bad = 1 } END { exit bad }' \
		"$tmp/out"
ok $? "--access --measure: each pattern launched, its bandwidth measured"

run --persist 8M --measure --format csv
s=$(col "$tmp/out" speedup)
[ "$status" -eq 0 ] && [ -n "$s" ] &&
	awk -F, -v s="$s" 'NR == 2 { exit !($s + 0 > 0) }' "$tmp/out"
ok $? "--persist --measure: re-reads timed without and with the window"

run --persist 1M --l2 4M:2M:1M --measure
[ "$status" -eq 2 ] && one_error_line "leave out --l2"
ok $? "--persist --measure takes the device's L2 figures, not --l2"

# --kernels --api: images loaded ahead on threads give what one thread
# gives; PTX rows with no block get the driver's attributes and no
# occupancy (asking for it with block 0 failed the run: invalid argument).
F=arch,mangled,ptx_only,api_regs,api_blocks_per_sm
fx=$T/fixtures/bin/none.fatbin
run --kernels "$fx" --api --jobs 1 -f csv --fields $F
cp "$tmp/out" "$tmp/one"
[ "$status" -eq 0 ] && [ "$(grep -c ',false,[0-9][0-9]*,[0-9][0-9]*$' "$tmp/one")" -eq "$(($(wc -l <"$tmp/one") - 1))" ]
ok $? "--kernels --api: every SASS row has the driver's registers and blocks"
run --kernels "$fx" --api --jobs 8 -f csv --fields $F
cmp -s "$tmp/one" "$tmp/out"
ok $? "--kernels --api: images loaded ahead on 8 threads give what one gives"
if command -v nvcc >/dev/null 2>&1 &&
	nvcc -fatbin -gencode arch=compute_75,code=compute_75 \
		"$T/fixtures/bin/kernels.cu" -o "$tmp/ptx.fatbin" 2>/dev/null; then
	run --kernels "$tmp/ptx.fatbin" --api -f csv --fields $F
	[ "$status" -eq 0 ] && grep -q ',true,[0-9][0-9]*,$' "$tmp/out"
	ok $? "--kernels --api, PTX only: the driver's registers, no occupancy without a block"
else
	n=$((n + 1)); echo "ok $n # SKIP nvcc cannot build a PTX-only fatbin"
fi

if command -v compute-sanitizer >/dev/null 2>&1; then
	compute-sanitizer --leak-check full --error-exitcode 9 "$OCCCALC" \
		--access load,store --elem 4,16 --stride 0,3 --measure \
		--format csv >"$tmp/san" 2>&1
	st=$?
	[ "$st" -eq 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$tmp/san"
	ok $? "compute-sanitizer on the access kernels: no errors (exit $st)"
else
	n=$((n + 1)); echo "ok $n # SKIP compute-sanitizer is not installed"
fi

if command -v compute-sanitizer >/dev/null 2>&1; then
	compute-sanitizer --leak-check full --error-exitcode 9 "$OCCCALC" \
		--measure --block 96,1024 --regs 40 --smem 0,64K --format csv \
		>"$tmp/san" 2>&1
	st=$?
	[ "$st" -eq 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$tmp/san" &&
		grep -q 'LEAK SUMMARY: 0 bytes leaked' "$tmp/san"
	ok $? "compute-sanitizer: no errors, no leaks (exit $st)"
	[ "$st" -eq 0 ] || grep '=========' "$tmp/san" | head -20 | sed 's/^/# /'
else
	n=$((n + 1)); echo "ok $n # SKIP compute-sanitizer is not installed"
fi

done_testing
