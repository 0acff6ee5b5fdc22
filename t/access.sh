#!/bin/sh
# access.sh - the global-memory calculators from the command line: the
# published worked cases in every format, sweeps, and bad input.
. "$T/lib.sh"

# cell CSV-ROW COLUMN: one column of CSV output's row (2 = the first row).
cell() {
	awk -F, -v row="$1" -v name="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR == row { print $c }' "$tmp/out"
}

run --arch sm_90 --access load --stride 1 --offset 0,1 --lane-xor 0 --format csv
[ "$(cell 2 sectors)" = 4 ] && [ "$(cell 3 sectors)" = 5 ] &&
	[ "$(cell 3 efficiency_pct)" = 80.00 ]
ok $? "coalescing study add1, add2: 4 and 5 sectors per request, 100 % and 80 %"

run --arch sm_90 --access load --lane-xor 1 --format csv
[ "$(cell 2 sectors)" = 4 ] && [ "$(cell 2 efficiency_pct)" = 100.00 ]
ok $? "coalescing study add3: lanes permuted, still 4 sectors, 100 %"

run --arch sm_90 --access load --stride 0 --format json
grep -q '"sectors":1,' "$tmp/out" && grep -q '"efficiency_pct":12.50,' "$tmp/out"
ok $? "coalescing study add4: a broadcast is 1 sector, 12.5 % (JSON)"

run --arch sm_90 --access load --stride 4
[ "$status" -eq 0 ] && grep -q '16 per request: 512 B moved, efficiency 25.00 %' "$tmp/out"
ok $? "coalescing study add5: stride 4 is 16 sectors per request, 25 % (text)"

run --arch sm_37 --access load --threads 1,9,17,25 --format csv
[ "$(cell 2 l1_efficiency_pct)" = 3.12 ] && [ "$(cell 2 efficiency_pct)" = 12.50 ] &&
	[ "$(cell 3 efficiency_pct)" = 56.25 ] && [ "$(cell 4 efficiency_pct)" = 70.83 ] &&
	[ "$(cell 5 efficiency_pct)" = 78.12 ]
ok $? "Kepler L1 example: 3.12 % L1-cached; 12.5, 56.25, 70.83, 78.12 % L2-only"

run --arch sm_37 --access load,store --offset 1 --format csv
[ "$(cell 2 efficiency_pct)" = 80.00 ] && [ "$(cell 2 lines)" = 2 ] &&
	[ "$(cell 3 op)" = store ] && [ "$(cell 3 efficiency_pct)" = 80.00 ] &&
	[ "$(cell 3 l1_efficiency_pct)" = 80.00 ]
ok $? "Kepler L1 example: offset 1, loads and stores: 2 transactions, 80 %; stores skip L1"

run --arch sm_37 --access load --stride 0,1 --total --format csv
[ "$(cell 4 op)" = total ] && [ "$(cell 4 efficiency_pct)" = 82.50 ]
ok $? "Kepler L1 example: C[x] = A[3] + B[x] totals 82.5 %"

run --arch sm_90 --access store --elem 1,2,4,8,16 --format csv
[ "$(wc -l <"$tmp/out")" -eq 6 ] && [ "$(cell 6 sectors)" = 16 ] &&
	[ "$(cell 2 sectors)" = 1 ]
ok $? "an element-size sweep: one row each, 1 to 16 sectors"

run --arch sm_90 --access load --stride 0:64 --offset 0:31 --format csv
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2081 ]
ok $? "ranges sweep like the occupancy options (65 x 32 rows)"

run --arch sm_90 --access load --stride 0:8 --offset 0:3
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q '^arch *op *elem' &&
	[ "$(wc -l <"$tmp/out")" -eq 37 ]
ok $? "a text sweep: a header and a line per access"


expect 2 "--elem: '3': an element is 1, 2, 4, 8 or 16 bytes" -a 90 --access load --elem 3
expect 2 "--elem: '32': above the maximum of 16" -a 90 --access load --elem 32
expect 2 "--threads: '33': above the maximum of 32" -a 90 --access load --threads 33
expect 2 "--threads: '0': below the minimum of 1" -a 90 --access load --threads 0
expect 2 "--threads: '-4': must not be negative" -a 90 --access load --threads -4
run --arch sm_90 --access load --stride -1 --offset 31 --format csv --fields stride,sectors,lines,efficiency_pct
[ "$(sed -n 2p "$tmp/out")" = "-1,4,1,100.00" ]
ok $? "--stride -1 --offset 31: a warp reading 32 floats backwards moves the 4 sectors of one line"

run --arch sm_90 --access load --stride -1 --format csv --fields sectors,requested_bytes
[ "$(sed -n 2p "$tmp/out")" = "5,128" ]
ok $? "--stride -1 from element 0: elements -31 to 0, 5 sectors counted on the addresses touched"

run --arch sm_90 --access load --stride -4:4:4 --format csv --fields stride,sectors
[ "$(tr '\n' ' ' <"$tmp/out")" = "stride,sectors -4,17 0,1 4,16 " ]
ok $? "--stride -4:4:4 sweeps through 0; -4 from element 0 touches 17 sectors"

expect 2 "--stride: '4:-4': integers of either sign within 64 bits, a list or a rising range (-4:4:2)" -a 90 --access load --stride 4:-4
expect 2 "--stride: '--1'" -a 90 --access load --stride=--1
expect 2 "--stride: '-9223372036854775809'" -a 90 --access load --stride -9223372036854775809
expect 2 "the addresses of 4-byte elements overflow 64 bits" -a 90 --access load --stride 288230376151711744
expect 2 "the addresses of 16-byte elements overflow 64 bits" -a 90 --access store --elem 16 --offset 1152921504606846976
expect 2 "--lane-xor: '32': above the maximum of 31" -a 90 --access load --lane-xor 32
expect 2 "--access: 'fetch': load, store or load,store" -a 90 --access fetch
expect 2 "--block is an occupancy option" -a 90 --access load --block 128
expect 2 "--stride goes with --access" -a 90 --block 128 --stride 2
expect 2 "--access and --persist are separate" -a 90 --access load --persist 1M --l2 4M:2M:1M
expect 2 "--persist: '0': below the minimum of 1" -a 90 --persist 0 --l2 4M:2M:1M
expect 2 "--persist with --arch needs the device's L2 figures" -a 90 --persist 1M
expect 1 "sm_75 (Turing) has no L2 set-aside" -a 75 --persist 1M --l2 4M:2M:1M
expect 2 "--l2: '4M:8M:1M': the set-aside maximum exceeds the L2" -a 90 --persist 1M --l2 4M:8M:1M
expect 2 "--l2: '50M': expected SIZE:MAX:WINDOW" -a 90 --persist 1M --l2 50M
expect 2 "--l2: '1:2:3:4': expected SIZE:MAX:WINDOW" -a 90 --persist 1M --l2 1:2:3:4
expect 2 "--streams: '0': below the minimum of 1" -a 90 --persist 1M --streams 0 --l2 4M:2M:1M
expect 2 "--streams: '1025': above the maximum of 1024" -a 90 --persist 1M --streams 1025 --l2 4M:2M:1M
expect 2 "--l2 and --streams go with --persist" -a 90 -b 128 --streams 2
expect 2 "--l2: '50M:0.1K:128M': MAX '0.1K' is not a whole number of bytes" -a 90 --persist 1M --l2 50M:0.1K:128M
expect 2 "--l2: '50M:31.25:128M': MAX '31.25' is not a whole number of bytes" -a 90 --persist 1M --l2 50M:31.25:128M
expect 2 "--l2: '50M:31.M:128M': expected SIZE:MAX:WINDOW" -a 90 --persist 1M --l2 50M:31.M:128M
expect 2 "--l2: '50M:.5M:128M': expected SIZE:MAX:WINDOW" -a 90 --persist 1M --l2 50M:.5M:128M
expect 2 "--l2: '50M:0.0000000001M:128M': expected SIZE:MAX:WINDOW" -a 90 --persist 1M --l2 50M:0.0000000001M:128M

# --l2 takes decimals with the suffixes, as NVIDIA writes cache sizes.
csv_of() { "$OCCCALC" "$@" -f csv 2>&1; }
[ "$(csv_of -a 90 --persist 24M --l2 50M:31.25M:128M)" = \
  "$(csv_of -a 90 --persist 24M --l2 52428800:32768000:134217728)" ] &&
	[ "$(csv_of -a 90 --persist 1M --l2 1.5K:0.5K:1.25K | tail -1 | cut -d, -f3-5)" = "1536,512,1280" ]
ok $? "--l2 50M:31.25M:128M is 52428800:32768000:134217728; 1.5K:0.5K:1.25K is 1536:512:1280"

# --gpu for the modes whose answer depends on the GPU.
[ "$(csv_of --gpu H100-SXM --persist 24M)" = \
  "$(csv_of -a 90 --persist 24M --l2 52428800:32768000:134217728)" ]
ok $? "--gpu H100-SXM --persist: the H100's own cudaDeviceProp figures (docs/device-query-h100.txt)"
[ "$(csv_of --gpu H200 --persist 24M | tail -1 | cut -d, -f3-5)" = "62914560,39321600,134217728" ]
ok $? "--gpu H200 --persist: the H200's figures (docs/persistence.md)"
[ "$(csv_of --gpu A100 --persist 24M | tail -1 | cut -d, -f3-5)" = "41943040,26214400,134213632" ]
ok $? "--gpu A100 --persist: the A100's figures (the set-aside a CUDA 12.8 driver reports, the window from NVIDIA's forum)"
[ "$(csv_of --gpu "NVIDIA GeForce RTX 4090" --persist 24M | tail -1 | cut -d, -f3-5)" = "75497472,51904512,134213632" ]
ok $? "--gpu RTX-4090 --persist: the figures an RTX 4090 reported (68.75 % of its L2, driver 565.77)"
[ "$(csv_of --gpu B200 --persist 24M | tail -1 | cut -d, -f3-5)" = "132644864,82903040,134217728" ]
ok $? "--gpu B200 --persist: the figures a B200 reported (126.5 MiB of L2, 62.5 % set-aside, CUDA 13.0 driver)"
expect 2 "but not its largest window (accessPolicyMaxWindowSize): give --l2 100663296:62914560:WINDOW, as cudaDeviceProp reports it" --gpu RTX-5090 --persist 1M
run --gpu H100-SXM --persist 24M
grep -q "^H100-SXM, from the GPU list: cudaDeviceProp of an H100" "$tmp/out"
ok $? "--gpu --persist: the text names where the L2 figures come from"
expect 2 "--persist: the GPU list has no L2 figures for A30: give --l2 SIZE:MAX:WINDOW" --gpu A30 --persist 1M
expect 2 "--persist: the GPU list has H100-PCIe's L2 (52428800 B, NVIDIA H100 Tensor Core GPU Architecture whitepaper (50 MB L2)) but not its largest set-aside and window" --gpu H100-PCIe --persist 1M
expect 1 "sm_75 (Turing) has no L2 set-aside" --gpu T4 --persist 1M
expect 2 "but not its largest window (accessPolicyMaxWindowSize): give --l2 62914560:39321600:WINDOW, as cudaDeviceProp reports it" --gpu H100-NVL --persist 1M
[ "$(csv_of --gpu H100-NVL --persist 1M --l2 60M:37.5M:128M | tail -1 | cut -d, -f3-5)" = "62914560,39321600,134217728" ]
ok $? "--gpu H100-NVL: the --l2 its message asks for is taken"
[ "$(csv_of --gpu H100-PCIe --persist 1M --l2 50M:30M:128M | tail -1 | cut -d, -f3-5)" = "52428800,31457280,134217728" ]
ok $? "--l2 beside --gpu gives the figures the list does not know"
[ "$(csv_of --gpu "RTX 4090" --access load --offset 0,1)" = "$(csv_of -a 89 --access load --offset 0,1)" ] &&
	[ "$(csv_of --gpu K80 --access load --offset 1)" = "$(csv_of -a 37 --access load --offset 1)" ]
ok $? "--gpu --access: the GPU's architecture (Kepler's L1 for a K80)"
[ "$(csv_of --gpu H100-SXM --traffic 'z[i] = x[i] + y[i]' --grid 1024 --block 64)" = \
  "$(csv_of -a 90 --traffic 'z[i] = x[i] + y[i]' --grid 1024 --block 64)" ]
ok $? "--gpu --traffic: the GPU's architecture"

# A negative stride from offset 0 puts lanes below element 0: said once.
run --access load -a sm_90 --stride -1
[ "$status" -eq 0 ] && [ "$(cat "$tmp/err")" = "occcalc: warning: --stride -1 with --offset 0: lanes address elements down to -31, below element 0 (lane i reads offset + i x stride); give --offset 31 to keep the warp at element 0 and above" ]
ok $? "--stride -1: lanes below element 0 said, with the offset that avoids it"
run --access load -a sm_90 --stride -1 --offset 31
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "--stride -1 --offset 31: no lane below element 0, nothing said"

done_testing
