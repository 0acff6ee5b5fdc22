#!/bin/sh
# hostile.sh - the third hostile-input round's reproducers (issue 30,
# t/fixtures/hostile/README): each is refused in one line, or read right,
# in bounded time and memory.
. "$T/lib.sh"
H=$T/fixtures/hostile

# within SECONDS ARGS...: occcalc ARGS, stopped after SECONDS: a guard
# against a hang far beyond the run's seconds, not a timing (a stopped
# run's status is 124).
within() {
	secs=$1
	shift
	timeout -k 5 "$secs" "$OCCCALC" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
}

# rss_run ARGS...: run, with the most memory occcalc held (KB) in $rss.
rss_run() {
	"$MAXRSS" "$tmp/rss" "$OCCCALC" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	rss=$(cat "$tmp/rss" 2>/dev/null || echo 999999999)
}

# run_argv FILE: occcalc with FILE's lines as its arguments.
run_argv() {
	f=$1
	set --
	while IFS= read -r a; do
		set -- "$@" "$a"
	done <"$f"
	run "$@"
}

run_argv "$H/access-offset-wrap.argv"
[ "$status" -eq 2 ] &&
	one_error_line "--offset 18446744073709551615: the addresses of 4-byte elements overflow 64 bits"
ok $? "F1: --offset 2^64-1 is refused as overflowing, not computed as -1"

expect 2 "--offset 9223372036854775808: the addresses of 1-byte elements overflow 64 bits" \
	-a 90 --access load --elem 1 --offset 9223372036854775808
run -a 90 --access load --elem 1 --stride 0 --offset 9223372036854775807 -f csv --fields offset,sectors
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "9223372036854775807,1" ]
ok $? "F1: --offset 2^63-1 of 1-byte elements still fits"

run_argv "$H/check-decimal-truncation.argv"
[ "$status" -eq 2 ] &&
	one_error_line "'40.0000000000000000001': more than 18 digits after the point"
ok $? "F9: a --check number with a 19th digit after the point is refused, not truncated"

run -a 90 -b 64 -r 40 --check 'regs < 40.000000000000000001'
[ "$status" -eq 0 ]
ok $? "F9: 18 digits after the point compare exactly (40 < 40.000000000000000001)"

run -a 90 -b 64 -r 40 --check 'regs == 40.000000000000000000000000'
[ "$status" -eq 0 ]
ok $? "F9: zeros past the 18th digit change nothing"

run -a 90 --traffic "$(cat "$H/traffic-deep-parens-30000.txt")" --count 4096
[ "$status" -eq 2 ] &&
	one_error_line "--traffic: character 72: parentheses and signs nested more than 64 deep"
ok $? "F2: --traffic nested 30000 deep is refused at the 65th level, naming its character"

deep() { printf "%${1}s" | tr ' ' "$2"; }
run -a 90 --traffic "y[i]=x[$(deep 63 '(')i$(deep 63 ')')]" --count 4096 -f csv
[ "$status" -eq 0 ]
ok $? "F2: 63 parentheses are read (--check's limit alike)"
expect 2 "character 72: parentheses and signs nested more than 64 deep" \
	-a 90 --traffic "y[i]=x[$(deep 64 '-')i]" --count 4096

for text in 'y[i]=' '=x[i]' 'y[i]= ; z[i]=x[i]'; do
	expect 2 "the '=' at character" -a 90 --traffic "$text" --count 4096
done
expect 2 "'a' at character 16: a name is defined once" \
	-a 90 --traffic 'int a = i; int a = i; y[a]=x[a]' --count 4096
expect 2 "'threadIdx' at character 5: a name is defined once, and not CUDA's" \
	-a 90 --traffic 'int threadIdx = 1; y[i]=x[i]' --count 4096
expect 2 "'N' at character 5: a name is defined once, and not CUDA's (threadIdx, blockIdx, blockDim, gridDim, warpSize) or --define's" \
	-a 90 --traffic 'int N = 1; y[i]=x[i]' --count 4096 --define N=4
expect 2 "'0x10' at character 3: hex constants are not taken" \
	-a 90 --traffic 'y[0x10]=x[i]' --count 4096
expect 2 "not understood at character 3 ('10u]=x[i]')" \
	-a 90 --traffic 'y[10u]=x[i]' --count 4096

# C's assignments are still read: a local assigned again, a load kept
# in a variable, a compound store, a comparison that assigns nothing.
run -a 90 --traffic 'int a = i; a = a + 1; y[a] = x[i]' --count 4096 -f csv --fields op,sectors_per_request
[ "$status" -eq 0 ] && grep -qx 'store,5.00' "$tmp/out"
ok $? "L4: a local assigned again is read, its new value used (y[i + 1]: 5 sectors a request)"
for text in 'float v = x[i]; y[i] = v' 'y[i] += x[i]' 'if (x[i] >= 0) y[i] = 1'; do
	run -a 90 --traffic "$text" --count 4096 -f csv
	[ "$status" -eq 0 ]
	ok $? "L4: '$text' is read"
done

expect 2 "the addresses of x (4-byte elements) overflow 64 bits" \
	-a 90 --traffic 'y[i]=x[N-i]' --count 4096 --define N=-9223372036854775808
expect 2 "the addresses of x (4-byte elements) overflow 64 bits" \
	-a 90 --traffic 'y[i]=x[N+i]' --count 4096 --define N=9223372036854775807
run -a 90 --traffic 'y[i]=x[N-i]' --count 4096 --define N=-2305843009213693951 -f csv
[ "$status" -eq 0 ]
ok $? "L5: indices down to -(2^61 - 1) - 4095 of 4-byte elements fit 64 bits"

cubin=$T/fixtures/bin/sm_90a.cubin
within 60 --kernels "$cubin" -f csv --check "$(cat "$H/check-quadratic-4000.txt")"
[ "$status" -eq 1 ] && [ "$(grep -c '^occcalc: check failed: .*: regs < 1 (regs [0-9]*); regs < 1' "$tmp/err")" -eq 22 ]
ok $? "F3: a failing --check of 4000 terms explains each of 22 rows (it took 23 s)"

# 80,000 terms on a --check-file line: linear, under a second; quadratic,
# hours.
{
	printf '.*: regs < 1'
	i=1
	while [ $i -lt 80000 ]; do printf ' || regs < 1'; i=$((i + 1)); done
	echo
} >"$tmp/checks"
within 120 --kernels "$cubin" -f csv --check-file "$tmp/checks"
[ "$status" -eq 1 ] && grep -q '^occcalc: --check: 22 of 22 rows fail' "$tmp/err"
ok $? "F3: a failing --check-file line of 80,000 terms is explained in linear time"

run -a 90 -b 128 --check 'é == 1'
[ "$status" -eq 2 ] && one_error_line "column 1: 'é': expected a field or a value"
ok $? "L3: a character that is no field is quoted whole, not its first byte"
run -a 90 -b 128 --check "$(printf '\303 == 1')"
[ "$status" -eq 2 ] && one_error_line "--check '\\xc3 == 1': column 1: '\\xc3'"
ok $? "L3: a byte that is not UTF-8 is written escaped (\\xc3)"
run --kernels "$(printf "$tmp/caf\351")"
[ "$status" -eq 1 ] && one_error_line "caf\\xe9: cannot read"
ok $? "L3: a Latin-1 file name is written escaped"

expect 2 "--tables: '': an empty directory name" --tables '' -a 90 -b 128

f=$H/file-vs-stdin-offset.fatbin
run --kernels "$f"
[ "$status" -eq 1 ] && one_error_line "$f: a kernel without a name at byte 30064"
ok $? "F10: a kernel without a name is placed at its entry's payload (byte 30064)"
"$OCCCALC" --kernels - <"$f" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && one_error_line "occcalc: <stdin>: a kernel without a name at byte 30064"
ok $? "F10: standard input names the same byte"
"$OCCCALC" --kernels - -a sm_80 <"$T/fixtures/bin/sm_90a.cubin" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && one_error_line "occcalc: <stdin>: no image runs on compute capability 8.0"
ok $? "F10: 'no kernel' names standard input <stdin>, as every other message does"
"$OCCCALC" --kernels - -a sm_90a --compare "$T/fixtures/bin/sm_90a.cubin" <"$T/fixtures/bin/sm_90a.cubin" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(head -1 "$tmp/out")" = "<stdin> against $T/fixtures/bin/sm_90a.cubin" ]
ok $? "F10: --compare's header names standard input <stdin>"
"$OCCCALC" --kernels "$T/fixtures/bin/sm_90a.cubin" -a sm_90a --compare - <"$T/fixtures/bin/sm_90a.cubin" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(head -1 "$tmp/out")" = "$T/fixtures/bin/sm_90a.cubin against <stdin>" ]
ok $? "F10: alike for a baseline read from standard input"

# tables_with DIR FILE...: a copy of the tables whose gpus.txt has each
# FILE's lines added.
tables_with() {
	d=$1
	shift
	rm -rf "$d"
	mkdir -p "$d"
	cp "$OCCCALC_TABLES"/*.arch "$OCCCALC_TABLES/gpus.txt" "$d/"
	cat "$@" >>"$d/gpus.txt"
}

# gpus-many-lines.sh runs from the source tree, where data/ lies.
(cd "$T/.." && sh "$H/gpus-many-lines.sh" "$tmp/many" 8000)
within 60 --tables "$tmp/many" --gpu H200 -b 128 -f csv --fields min_grid_size
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "2112" ]
ok $? "F11: a list of 8000 more GPUs is read in linear time (10,000 took 1.7 s, 20,000 more than 20 s)"
run --tables "$tmp/many" --gpu G7999 -b 128 -f csv --fields min_grid_size
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "3200" ]
ok $? "F11: the last of them is found (200 SMs: 16 blocks each)"
(cd "$T/.." && sh "$H/gpus-many-lines.sh" "$tmp/many" 9000)
run --tables "$tmp/many" --gpu H200 -b 128
[ "$status" -eq 1 ] && one_error_line ": more than 8192 GPUs in the list"
ok $? "F11: more than 8192 GPUs are refused (the list's memory bounded)"

tables_with "$tmp/layout" "$H/gpus-bad-layout-lines.txt"
line=$(wc -l <"$tmp/layout/gpus.txt" | tr -d ' ')
for args in "--gpu FAKE -b 128 --grid 2000" "--gpu H200 --cluster 4 -b 128" "--gpu H200 -b 128"; do
	# shellcheck disable=SC2086
	run --tables "$tmp/layout" $args
	[ "$status" -eq 1 ] &&
		one_error_line "gpus.txt:$line: expected 'layout NAME LAYOUT SOURCE'"
	ok $? "L1: a malformed layout line is refused by every command that reads the list ($args)"
done
for bad in 'layout FAKE 0x8,132 src' 'layout FAKE 1x132' 'layout FAKE 8,,8 src'; do
	echo "$bad" >"$tmp/bad"
	tables_with "$tmp/layout" "$tmp/bad"
	run --tables "$tmp/layout" --gpu H200 -b 128
	[ "$status" -eq 1 ] && one_error_line "expected 'layout NAME LAYOUT SOURCE'"
	ok $? "L1: '$bad' is refused when the list is read"
done

printf 'FAKE 9.0 132 %s\n' "$(printf "%1009s" | tr ' ' s)" >"$tmp/long"
tables_with "$tmp/long-source" "$tmp/long"
run --tables "$tmp/long-source" --gpu H200 -b 128
[ "$status" -eq 1 ] && one_error_line "a SOURCE longer than 255 characters"
ok $? "L2: a GPU's source of 1009 characters is refused as too long"
printf 'F%s 9.0 132 src\n' "$(printf "%60s" | tr ' ' A)" >"$tmp/long"
tables_with "$tmp/long-name" "$tmp/long"
run --tables "$tmp/long-name" --gpu H200 -b 128
[ "$status" -eq 1 ] && one_error_line "a NAME longer than 47 characters"
ok $? "L2: a GPU's name of 61 characters is refused as too long"

# ---- Memory: what the man page's bounds promise, on hostile input. The
# margins are generous (a sanitizer build holds more); what is checked
# is that the input's size does not count. ----

MB=1024
# under LIMIT_MB: the last rss_run held at most LIMIT_MB, four times that
# in a sanitizer build (its shadow memory, and freed blocks kept in
# quarantine).
san=1
grep -q __asan_init "$OCCCALC" 2>/dev/null || san=0
under() {
	[ "$rss" -lt $(($1 * MB * (san ? 4 : 1))) ]
}
truncate -s 3G "$tmp/big.txt"   # sparse: no disk taken
rss_run --kernels "$tmp/big.txt"
[ "$status" -eq 1 ] &&
	one_error_line "big.txt: 3221225472 bytes that are no binary: more than a compiler report (at most 268435456)" &&
	under 64
ok $? "F5: a 3 GB text file is refused from its size, unread ($rss KB; it took 3.1 GB)"
rss_run --kernels - <"$tmp/big.txt"
[ "$status" -eq 1 ] &&
	one_error_line "<stdin>: 3221225472 bytes that are no binary" &&
	under 64
ok $? "F5: the same redirected to standard input, alike ($rss KB)"
rm -f "$tmp/big.txt"
rss_run --kernels - </dev/zero
[ "$status" -eq 1 ] &&
	one_error_line "<stdin>: more than 268435456 bytes that are no binary: more than a compiler report" &&
	under 384
ok $? "F5: an endless standard input stops at the 256 MB a report may hold ($rss KB; it took 4.4 GB)"

f=$T/fixtures/bin/sm_90a.cubin
"$OCCCALC" --kernels "$f" -f csv --fields kernel,regs,smem 2>/dev/null >"$tmp/file.csv"
"$OCCCALC" --kernels - -f csv --fields kernel,regs,smem <"$f" 2>/dev/null >"$tmp/stdin.csv"
cat "$f" | "$OCCCALC" --kernels - -f csv --fields kernel,regs,smem 2>/dev/null >"$tmp/pipe.csv"
[ -s "$tmp/file.csv" ] && cmp -s "$tmp/file.csv" "$tmp/stdin.csv" &&
	cmp -s "$tmp/file.csv" "$tmp/pipe.csv"
ok $? "F5: a binary redirected to standard input (read as a file) and piped give the file's rows"

# A pipe is copied to a temporary file and read as a file: 128 MB after
# the object's end (which no header points to) are never held.
o=$T/fixtures/bin/kernels.o
"$OCCCALC" --kernels "$o" -f csv --fields kernel,regs 2>/dev/null >"$tmp/file.csv"
{ cat "$o"; head -c 134217728 /dev/zero; } >"$tmp/padded.o"
cat "$tmp/padded.o" | "$MAXRSS" "$tmp/rss" "$OCCCALC" --kernels - -f csv --fields kernel,regs >"$tmp/out" 2>"$tmp/err"
status=$?
rss=$(cat "$tmp/rss" 2>/dev/null || echo 999999999)
[ "$status" -eq 0 ] && cmp -s "$tmp/file.csv" "$tmp/out" && under 32
ok $? "F5: a piped binary is read as a file, not held whole ($rss KB for 128 MB; it took 137 MB)"
cat "$tmp/padded.o" | TMPDIR=$tmp/none "$OCCCALC" --kernels - -f csv --fields kernel,regs >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && cmp -s "$tmp/file.csv" "$tmp/out"
ok $? "F5: where no temporary file can be made, a piped binary is read from memory, alike"
rm -f "$tmp/padded.o"

rss_run --kernels "$H/ptx-entries-bomb-64MiB.fatbin" -f csv
[ "$status" -eq 1 ] &&
	one_error_line "ptx-entries-bomb-64MiB.fatbin: an image of more than 65536 kernels at byte 80" &&
	under 320
ok $? "F4: 751 KB of PTX declaring 1.95 M kernels is refused at the 65537th ($rss KB; it took 897 MB)"
rss_run --kernels "$H/ptx-entries-bomb-64MiB.fatbin" --kernel NOMATCH
[ "$status" -eq 1 ] && one_error_line "ptx-entries-bomb-64MiB.fatbin: no kernel matching --kernel NOMATCH" &&
	under 128
ok $? "F4: when --kernel keeps none of them, all 1.95 M are read and none held ($rss KB; it took 584 MB)"
rss_run --kernels "$H/ptx-entries-bomb-64MiB.fatbin" --kernel '^k1949999$' -f csv --fields kernel,container
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'kernel,container\nk1949999,fatbin')" ] &&
	under 128
ok $? "F4: --kernel finds the last of them, the others not held while the image's rows wait ($rss KB)"

# --traffic: the sector and line numbers listed are bounded (2^24, 128
# MB, all accesses together), their repeats shed as they come.
rss_run -a 90 --traffic "$(cat "$H/traffic-wide-span.txt")" -b 1023 --grid 8192 --elem 1 -f csv
[ "$status" -eq 1 ] &&
	one_error_line "one repeating span of the launch touches more distinct sectors and lines than are held (2^24 numbers, 128 MB): not counted" &&
	under 256
ok $? "--traffic: a span of 4 x 8 M distinct sectors and lines is refused within the bound ($rss KB; it took 386 MB, more with each access)"
rss_run -a 90 --traffic 'y[threadIdx.x*128 + (i/32)*4097] = 1' -b 1023 --grid 8192 --elem 1 -f csv --fields op,sectors,footprint_bytes
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "total,8380416,203288576" ] &&
	under 256
ok $? "--traffic: one such access is still counted ($rss KB)"
rss_run -a 90 --traffic 'a[i/32] = b[i/32]; c[i/32] = d[i/32]; e[i/32] = f[i/32]; g[i/32] = h[i/32]' -b 1023 --grid 8192 --elem 1 -f csv --fields op,requests,footprint_bytes
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "total,2097152,2095104" ] &&
	under 16
ok $? "--traffic: accesses at i/32 in blocks of 1023 threads (spans of 4096 blocks) hold their distinct sectors only ($rss KB; it took 27 MB)"

rss_run --kernels "$H/zstd-zeros-256MiB.fatbin"
[ "$status" -eq 1 ] && one_error_line "fatbin entry for sm_90 holds no ELF at byte 80" &&
	under 64
ok $? "L8: a streamed Zstandard image of 256 MB of zeros is refused holding little ($rss KB; it took its size)"

# A PTX text of 1,048,577 kernels, each of them kept: past the list's
# bound where the whole list is needed (a text table), refused in one
# line; in csv, jsonl and json, each row written as it is read, none held.
awk 'BEGIN { print ".version 9.0\n.target sm_90\n.address_size 64";
	for (i = 0; i <= 1048576; i++) printf ".visible .entry k%d(){ ret; }\n", i }' >"$tmp/many.ptx"
rss_run --kernels "$tmp/many.ptx"
[ "$status" -eq 1 ] &&
	one_error_line "many.ptx: more than 1048576 kernels kept: --kernel REGEX or --arch keeps fewer" &&
	under 1024
ok $? "F4: a text table of more than 1048576 kernels is refused ($rss KB)"
# The 35 MB text is held (a report is read whole), the rows are not.
rss_run --kernels "$tmp/many.ptx" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1048578 ] &&
	[ "$(tail -1 "$tmp/out")" = k1048576 ] && under 128
ok $? "F4: csv writes the 1048577 rows as they are read ($rss KB; the list took 324 MB before it was refused)"
rss_run --kernels "$tmp/many.ptx" -f jsonl --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1048577 ] &&
	[ "$(tail -1 "$tmp/out")" = '{"kernel":"k1048576"}' ] && under 128
ok $? "F4: jsonl alike ($rss KB)"
rss_run --kernels "$tmp/many.ptx" -f json --fields kernel
[ "$status" -eq 0 ] && [ "$(head -1 "$tmp/out")" = '[' ] &&
	[ "$(tail -2 "$tmp/out" | head -1)" = '{"kernel":"k1048576"}' ] &&
	[ "$(tail -1 "$tmp/out")" = ']' ] && under 128
ok $? "F4: json alike, one array ($rss KB)"
# With a GPU named, a file's kernels wait for its end (another image of
# one may come, and be the one the GPU loads): bounded alike.
rss_run --kernels "$tmp/many.ptx" -a 90 -f csv --fields kernel
[ "$status" -eq 1 ] &&
	one_error_line "many.ptx: more than 1048576 kernels held at once, waiting for the end of their fatbin or file: --kernel REGEX or --arch keeps fewer" &&
	under 1024
ok $? "F4: csv refuses more than 1048576 kernels waiting for the end of their file ($rss KB)"
rss_run --kernels "$tmp/many.ptx" --kernel 'k1048576$' -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = k1048576 ] &&
	under 128
ok $? "F4: the kernels --kernel leaves out are not held ($rss KB)"
rm -f "$tmp/many.ptx"

done_testing
