#!/bin/sh
# cli.sh - the command line's behaviour, one promise per line.
. "$T/lib.sh"

csv_row() { # the first data row of a CSV run
	"$OCCCALC" "$@" -f csv | sed -n 2p
}

ref=$(csv_row -a sm_90 -b 128 -r 40)
same=0
for a in 90 9.0 sm_90a compute_90 SM_90; do
	[ "$(csv_row -a "$a" -b 128 -r 40)" = "$ref" ] || same=1
done
ok $same "--arch takes sm_90, 90, 9.0, sm_90a, compute_90 alike"

run -a sm_90 -b 128 -r 40 -f csv
head -1 "$tmp/out" | grep -q '^arch,block,regs,smem,static_smem,blocks_per_sm,warps_per_sm,occupancy_pct,limiter,'
ok $? "CSV starts with the documented columns"
[ "$(sed -n 2p "$tmp/out" | cut -d, -f1-9)" = "sm_90,128,40,0,0,12,48,75.00,registers" ]
ok $? "sm_90, 128 threads, 40 registers: 12 blocks, 48 warps, 75 %, registers"

run -a sm_89 -b 64 -r 32 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f9)" = "warps+blocks" ]
ok $? "several limiters are joined with '+'"

run -a sm_90 -b 1:1024 -r 0:255 -f csv
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 262145 ]
ok $? "a sweep evaluates every combination: 1024 x 256 rows and a header"
awk -F, '{ print NF }' "$tmp/out" | sort -u >"$tmp/nf"
[ "$(wc -l <"$tmp/nf")" -eq 1 ]
ok $? "every CSV row has as many fields as the header"

run -a sm_90 -b 32,64:128:32,1024 -f csv
[ "$(tail -n +2 "$tmp/out" | cut -d, -f2 | tr '\n' ' ')" = "32 64 96 128 1024 " ]
ok $? "lists and ranges mix: 32,64:128:32,1024"

run -a sm_90 -b 64 -r 32,40 -S 0,1K -s 0:2K:1K -f csv
[ "$(tail -n +2 "$tmp/out" | cut -d, -f2-5 | head -4 | tr '\n' ' ')" = "64,32,0,0 64,32,1024,0 64,32,2048,0 64,32,0,1024 " ]
ok $? "sweeps nest: dynamic shared memory innermost, then static"
[ "$(wc -l <"$tmp/out")" -eq 13 ]
ok $? "2 x 2 x 3 combinations give 12 rows"

run -a sm_90 -b 100:1000:300 -f csv
[ "$(tail -n +2 "$tmp/out" | cut -d, -f2 | tr '\n' ' ')" = "100 400 700 1000 " ]
ok $? "a range ends at the last step not past END"

if command -v python3 >/dev/null 2>&1; then
	run -a sm_90 -b 128 -r 40 -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert isinstance(d, list) and len(d) == 1 and d[0]["blocks_per_sm"] == 12 and d[0]["limiter"] == ["registers"] and d[0]["limit_registers"] == 12' <"$tmp/out"
	ok $? "JSON for one configuration is an array of one object, as for a sweep"
	run -a sm_90 -b 128:128 -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert isinstance(d, list) and len(d) == 1' <"$tmp/out"
	ok $? "JSON for a sweep is an array, even of one element"
	run -a sm_75 -b 32:1024:32 -r 0:255:17 -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) == 32 * 16' <"$tmp/out"
	ok $? "a JSON sweep is one valid array"
	run -a sm_75 -b 128 -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; assert d["limit_registers"] is None and d["limit_barriers"] is None and d["carveout"] is None and d["reason"] is None' <"$tmp/out"
	ok $? "JSON gives null for unlimited resources, default carveout, no reason"
	run -a sm_86 --info -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) == 1 and d[0]["maxThreadsPerMultiProcessor"] == 1536 and d[0]["sharedMemCarveoutSizes"][-1] == 102400' <"$tmp/out"
	ok $? "--info -f json uses the table's keys"
	run --list-archs -f json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) >= 24 and d[0]["arch"] == "sm_30"' <"$tmp/out"
	ok $? "--list-archs -f json lists every table, oldest first"
else
	skip 6 "python3 is not installed (./bootstrap installs it)"
fi

run -a sm_75 -b 128 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f13,16,20,24)" = ",,default," ]
ok $? "CSV leaves unlimited limits and the reason empty"

run -a sm_90 -b 2048 -r 32
[ "$status" -eq 1 ] &&
	sed -n '/^Occupancy/{n;p;}' "$tmp/out" | grep -q '^Cannot launch: 2048 threads per block exceed maxThreadsPerBlock (1024)' &&
	! grep -q '^Limited by' "$tmp/out"
ok $? "a configuration that cannot launch says why where 'Limited by' stands, and exits 1"
[ "$(cat "$tmp/err")" = "occcalc: the configuration cannot launch" ]
ok $? "a configuration that cannot launch says so in one line on stderr"

run -a sm_90 -b 128 -s 300K -f json
[ "$status" -eq 1 ] && grep -q '"reason":"shared_memory_per_block"' "$tmp/out"
ok $? "-s 300K: JSON keeps the reason, and the run exits 1"

run -a sm_90 -b 1024,2048 -f csv
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q ',block_too_large,' "$tmp/out"
ok $? "a sweep where some configurations launch exits 0, the others' reason in their row"

run -a sm_90 -b 2048,4096 -r 32 -f csv
[ "$status" -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	[ "$(cat "$tmp/err")" = "occcalc: none of the 2 configurations can launch" ]
ok $? "a sweep where no configuration launches prints its rows and exits 1"

run -a sm_90 -b 2048 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f6,24)" = "0,block_too_large" ]
ok $? "CSV gives 0 blocks and the reason"

[ "$(csv_row -a sm_90 -b 128 -s 10K -c 50%)" = "$(csv_row -a sm_90 -b 128 -s 10K -c 50)" ]
ok $? "--carveout 50% is --carveout 50"

run -a sm_90 -b 256 -s 100K
grep -q 'cudaFuncAttributeMaxDynamicSharedMemorySize, 102400' "$tmp/out"
ok $? "above 48 KB the report names the opt-in call and its value"
run -a sm_90 -b 256 -s 100K --no-optin -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f6,24)" = "0,shared_memory_needs_optin" ]
ok $? "--no-optin: above 48 KB cannot launch"
run -a sm_90 -b 256 -s 100K --no-optin --optin -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f6)" = "2" ]
ok $? "--optin undoes --no-optin"

run -a sm_90 -b 32 --barriers 3 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f6,9)" = "21,barriers" ]
ok $? "--barriers 3 on sm_90: 64 / 3 = 21 blocks, barriers limit"

run -a sm_61 -b 128 -s 1K -c 10
grep -q 'carveout preference has no effect' "$tmp/out"
ok $? "a carveout before Volta is reported as having no effect"

run -a 3.5 -b 128 -s 3K -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f6,8)" = "16,100.00" ]
ok $? "--smem takes K: 3K on sm_35 is 3072 bytes, 16 blocks"

run -a sm_90 -r 40 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f2,6,8)" = "768,2,75.00" ]
ok $? "without --block: the best block size, 768 threads on sm_90 at 40 registers"
[ "$(sed -n 2p "$tmp/out" | cut -d, -f26)" = "768 512 384 256 192 128 96 64" ]
ok $? "the tied block sizes are listed, largest first"

run -a sm_90 -b 128 -s 1K --smem-per-thread 8 --smem-per-warp 100 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f4)" = "$((1024 + 128 * 8 + 4 * 100))" ]
ok $? "--smem-per-thread and --smem-per-warp add to --smem for the block's size"

run -a sm_90 -b 128 -r 40 --sms 132 -f csv
[ "$(sed -n 2p "$tmp/out" | cut -d, -f25)" = "1584" ]
ok $? "--sms 132: the grid that fills the GPU is 12 x 132 = 1584 blocks"

run -a sm_90 -r 32,64 -f csv
[ "$(tail -n +2 "$tmp/out" | cut -d, -f2,3 | tr '\n' ' ')" = "1024,32 1024,64 " ]
ok $? "a sweep without --block recommends for each configuration"

run -a sm_90 -b 128 -r 40
grep -q '^  Registers/thread     40: 12 blocks (75.00 %) up to 40; 32 or less: 16 blocks (100.00 %); 41-48: 10 blocks (62.50 %)$' "$tmp/out"
ok $? "the report gives register headroom and cliffs"

if command -v python3 >/dev/null 2>&1; then
	run -a sm_90 -b 128 -r 40 -f json --headroom
	python3 -c 'import json,sys; h=json.load(sys.stdin)[0]; assert h["regs_gain_at"] == 32 and h["regs_drop_from"] == 41 and h["smem_keep_max"] == 18432 and h["smem_gain_at"] is None' <"$tmp/out"
	ok $? "--headroom adds the headroom fields to JSON"
	run -a sm_90 -b 128 -r 40 -f json
	python3 -c 'import json,sys; assert "regs_keep_max" not in json.load(sys.stdin)[0]' <"$tmp/out"
	ok $? "without --headroom, JSON has no headroom fields"
else
	skip 2 "python3 is not installed (./bootstrap installs it)"
fi

run --gpu H100-SXM -b 128 -r 40 --grid 2000
grep -q '^  1584 blocks per wave (12 per SM): 1 full wave and a last wave of 416 blocks (26.26 % full)$' "$tmp/out" &&
	grep -q '^  Occupancy over the whole launch: 47.35 %$' "$tmp/out" &&
	grep -q '8 blocks per SM (50.00 %) would finish in as many waves (2)' "$tmp/out"
ok $? "--grid 2000 on an H100: waves, tail, launch occupancy, and what the tail costs"

[ "$(csv_row --gpu h100-sxm -b 128 -r 40 --grid 2000 | cut -d, -f1,25,27-30)" = "sm_90,1584,2000,2,416,47.35" ]
ok $? "--gpu gives the architecture and SM count; CSV has grid, waves, tail, launch occupancy"
[ "$(csv_row --gpu a100 -a 8.0 --sms 100 -b 256 --grid 1000 | cut -d, -f25)" = "800" ]
ok $? "an explicit --sms overrides the GPU's, a matching --arch is accepted"
run --list-gpus
grep -q '^H100-SXM  *9.0  *132 ' "$tmp/out" && ! grep -q '^#' "$tmp/out"
ok $? "--list-gpus lists names, compute capabilities and SM counts"
[ "$(head -1 "$tmp/out")" = "name              cc  sms  source" ] &&
	grep -q '^Jetson-AGX-Orin  8.7   16  NVIDIA' "$tmp/out" &&
	grep -q '^B200            10.0  148  NVIDIA' "$tmp/out"
ok $? "--list-gpus text: a header and aligned columns"
run --list-gpus -f csv
[ "$(head -1 "$tmp/out")" = "name,computeCapability,multiProcessorCount,source" ] &&
	grep -q '^H100-PCIe,9.0,114,"NVIDIA H100 Tensor Core GPU Architecture whitepaper (PCIe, 114 SMs)"$' "$tmp/out"
ok $? "--list-gpus -f csv: the text's fields, under cudaDeviceProp names"
[ "$("$OCCCALC" --list-gpus -f jsonl | wc -l)" -eq "$(tail -n +2 "$tmp/out" | wc -l)" ]
ok $? "--list-gpus -f jsonl: one object per GPU"
run --list-gpus -f json --fields name,aliases
grep -q '^{"name":"H100-SXM","aliases":\["NVIDIA H100 80GB HBM3"\]},$' "$tmp/out"
ok $? "--list-gpus -f json --fields name,aliases: the device names --gpu takes"

# --gpu takes the runtime's device names and casual forms; exact wins.
gpu_sms() { csv_row --gpu "$1" -b 128 --fields arch,min_grid_size; }
for g in "NVIDIA H100 80GB HBM3:sm_90,2112" "NVIDIA H200:sm_90,2112" \
	"NVIDIA GeForce RTX 4090:sm_89,1536" "RTX 4090:sm_89,1536" \
	"rtx4090:sm_89,1536" "4090:sm_89,1536" "h100 pcie:sm_90,1824" \
	"Tesla V100-SXM2-32GB:sm_70,1280" "NVIDIA A100 80GB PCIe:sm_80,1728"; do
	[ "$(gpu_sms "${g%%:*}")" = "${g#*:}" ]
	ok $? "--gpu '${g%%:*}' is the GPU with ${g#*:} (arch, 16 blocks/SM x its SMs)"
done
[ "$(gpu_sms A10)" = "sm_86,864" ]
ok $? "--gpu A10 is the A10, not the A100 that contains it: exact beats partial"
[ "$(gpu_sms H200)" = "sm_90,2112" ] && [ "$(gpu_sms 1080)" = "sm_61,320" ]
ok $? "--gpu H200 is not GH200; 1080 is GTX-1080 (ends with it), not GTX-1080-Ti"
# The GPUs people own and rent (issue 20), with the architecture and SMs
# NVIDIA's documents give (blocks of 128 threads: 16 per SM on sm_90, 12
# on sm_86, sm_89 and sm_120, times the SMs).
for g in "H100 NVL:sm_90,2112" "RTX 3060:sm_86,336" "RTX 3080:sm_86,816" \
	"RTX 3090:sm_86,984" "RTX 4080:sm_89,912" \
	"NVIDIA RTX 6000 Ada Generation:sm_89,1704" \
	"NVIDIA RTX PRO 6000 Blackwell Workstation Edition:sm_120,2256" \
	"RTX 5080:sm_120,1008"; do
	[ "$(gpu_sms "${g%%:*}")" = "${g#*:}" ]
	ok $? "--gpu '${g%%:*}' is the GPU with ${g#*:} (arch, blocks/SM x its SMs)"
done
# Those whose SM count NVIDIA does not publish: the architecture, no SMs.
for g in "NVIDIA A10G:sm_86" "H800:sm_90" "NVIDIA GB200:sm_100" "B300:sm_103"; do
	[ "$(csv_row --gpu "${g%%:*}" -b 128 --fields arch,min_grid_size)" = "${g#*:}," ]
	ok $? "--gpu '${g%%:*}' is ${g#*:}; its SM count is not known, so no grid"
done
[ "$("$OCCCALC" --list-gpus -f csv --fields name,multiProcessorCount,l2CacheSize,persistingL2CacheMaxSize,accessPolicyMaxWindowSize | grep -E '^(H100-SXM|H100-PCIe|H100-NVL|A10G),')" = \
"A10G,,,,
H100-SXM,132,52428800,32768000,134217728
H100-PCIe,114,52428800,,
H100-NVL,132,62914560,39321600," ]
ok $? "--list-gpus: L2 figures where the list has them, null where not (nor SMs for the A10G)"

# --block takes shapes: threads are the product, the shape is echoed.
run -a sm_90 -b 16x16 -r 32
grep -q '^Kernel: 256 threads/block (16x16), 32 registers/thread' "$tmp/out" &&
	grep -q '^Occupancy  *100.00 %$' "$tmp/out"
ok $? "--block 16x16 is 256 threads, the report names the shape"
[ "$(csv_row -a sm_90 -b 8x8x4 -r 32 --fields block,block_shape)" = "256,8x8x4" ]
ok $? "--block 8x8x4 in CSV: block 256, block_shape 8x8x4"
run -a sm_90 -b 16x16,32x8,64:128:64 -r 32 -f jsonl --fields block,block_shape
[ "$(cat "$tmp/out")" = '{"block":256,"block_shape":"16x16"}
{"block":256,"block_shape":"32x8"}
{"block":64,"block_shape":null}
{"block":128,"block_shape":null}' ]
ok $? "--block lists mix shapes and ranges; a thread count has no shape (null)"
run -a sm_90 -b 16x16,128 -r 32
[ "$(sed -n 1p "$tmp/out" | cut -c1-27)" = "arch     block  shape     r" ] &&
	grep -q '^sm_90      128  -  ' "$tmp/out"
ok $? "a text table of shapes has a shape column after block"
[ "$(csv_row -a sm_90 -b 128 -r 32 | cut -d, -f2,3)" = "128,32" ]
ok $? "without shapes the CSV columns are unchanged (no block_shape)"

# Without --regs the report says what it assumed.
run -a sm_90 -b 256
grep -q '^Note: no --regs: registers per thread taken as 0; ' "$tmp/out"
ok $? "without --regs the report notes that registers were taken as 0"
run -a sm_90 -b 256 -r 0
! grep -q 'no --regs' "$tmp/out"
ok $? "--regs 0 given: no note"

run -a sm_90 -b 128 -r 40 -f csv --fields occupancy_pct,block,limiter
[ "$(cat "$tmp/out")" = "occupancy_pct,block,limiter
75.00,128,registers" ]
ok $? "--fields selects and orders the CSV columns"
run -a sm_90 -b 128 -r 40 --fields block,blocks_per_sm,limiter
[ "$(cat "$tmp/out")" = " block  blocks  limiter
   128      12  registers" ]
ok $? "--fields in text prints a table of those columns, even for one configuration"
expect 2 "--fields: 'bogus': no such field of occupancy rows; did you mean " -a sm_90 -b 128 --fields block,bogus
expect 2 "--fields: 'occupancy': no such field of occupancy rows; did you mean occupancy_pct, launch_occupancy_pct or achieved_occupancy_pct? (--list-fields lists them all)" -a sm_90 -b 128 --fields block,occupancy
expect 2 "--fields: 'blcok': no such field of occupancy rows; did you mean block," -a sm_90 -b 128 --fields blcok
expect 2 "--fields: 'efficiency': no such field of access rows; did you mean efficiency_pct," -a sm_90 --access load --fields efficiency
run -a sm_90 -b 128 --fields bogus
[ "$(wc -c <"$tmp/err")" -lt 200 ]
ok $? "an unknown field's message stays short (three names, not the kind's hundred)"
expect 2 "--fields: 'arch': no such field of list-fields rows; did you mean " --list-fields --fields arch
run -a sm_90 -b 64,128 -f jsonl --fields block,blocks_per_sm
[ "$(cat "$tmp/out")" = '{"block":64,"blocks_per_sm":32}
{"block":128,"blocks_per_sm":16}' ]
ok $? "--format jsonl: one object per line, no array"
run -a sm_89 -b 64 -r 32 -f json --fields limiter
grep -q '"limiter":\["warps","blocks"\]' "$tmp/out"
ok $? "JSON gives a set of limiters as an array"
run -a sm_90 -r 40 -f json --fields ties
grep -q '"ties":\[768,512,384,256,192,128,96,64\]' "$tmp/out"
ok $? "JSON gives the tied block sizes as an array of numbers"

# max_dynamic_smem_per_block: the most that keeps the blocks.
run -a sm_90 -b 128 -r 40 -s 0,18432,18433 -f csv --fields smem,blocks_per_sm,max_dynamic_smem_per_block
[ "$(tail -n +2 "$tmp/out" | tr '\n' ' ')" = "0,12,18432 18432,12,18432 18433,11,20096 " ]
ok $? "12 blocks of 128 threads on sm_90 keep at most 18432 B each (with the 1 KB reserve); 1 B more gives 11"
run -a sm_90 -b 2048 -f csv --fields max_dynamic_smem_per_block
[ "$(sed -n 2p "$tmp/out")" = "" ]
ok $? "a configuration that cannot launch has no max_dynamic_smem_per_block"

# Options the mode does not use are refused, naming both.
expect 2 "--block does not apply to --info" -a sm_90 --info -b 128
expect 2 "--regs does not apply to --kernels" --ptxas "$T/fixtures/ptxas-sm90.txt" -r 32
expect 2 "--info and --list-archs are separate modes; give one" --info --list-archs

run --list-fields -f csv
[ "$status" -eq 0 ] && grep -q '^occupancy,max_dynamic_smem_per_block,integer,' "$tmp/out" &&
	grep -q '^persist,l2CacheSize,integer,' "$tmp/out"
ok $? "--list-fields lists each kind's fields, device properties under cudaDeviceProp names"

# --format csv,noheader,nounits, as nvidia-smi writes it.
"$OCCCALC" -a sm_90 -b 128,256 -r 32 -f csv >"$tmp/with-header"
run -a sm_90 -b 128,256 -r 32 -f csv,noheader
[ "$status" -eq 0 ] && tail -n +2 "$tmp/with-header" | cmp -s - "$tmp/out"
ok $? "--format csv,noheader: the CSV rows without the header row"
run -a sm_90 -b 128,256 -r 32 -f csv,noheader,nounits
[ "$status" -eq 0 ] && tail -n +2 "$tmp/with-header" | cmp -s - "$tmp/out"
ok $? "--format csv,noheader,nounits: CSV values carry no units, so the same rows"
run -a sm_90 -b 128,256 -r 32 -f text,nounits
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q occupancy &&
	sed -n 2p "$tmp/out" | grep -q ' 100\.00  warps' && ! grep -q '%' "$tmp/out"
ok $? "--format text,nounits: a text table's percentages without '%'"
run --list-archs -f text,noheader
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q '^sm_30 '
ok $? "--format text,noheader: a text table starts with its first row"
expect 2 "--format: noheader and nounits go with csv or text, not json" -a sm_90 -b 128 -f json,noheader
expect 2 "--format: 'nohead': not a modifier (noheader, nounits)" -a sm_90 -b 128 -f csv,nohead
expect 2 "--format: 'cvs': unknown format" -a sm_90 -b 128 -f cvs,noheader

# Every decimal field, in every mode, prints a fixed count of decimals by
# its unit (out_decimals): _pct and ratios 2, _ms and _us 3, hit_ratio 4.
# (--compare's numbers keep the decimals of the rows they come from.)
"$OCCCALC" --list-fields -f csv | awk -F, '$3 == "decimal" && $1 != "compare" { print $2 }' | sort -u >"$tmp/decimal-fields"
{
	"$OCCCALC" -a sm_90 -b 96 -r 40 --grid 1000 --sms 132 -f json
	"$OCCCALC" --gpu H200 -b 128 -r 40 --cluster 4 -f json
	"$OCCCALC" -a sm_37 --access load --stride 0,1,4 --total -f json
	"$OCCCALC" -a sm_90 --traffic 'y[i] = x[3*i]' --count 4096 -f json
	"$OCCCALC" -a sm_90 --persist 40M --l2 50M:30M:128M -f json
} | grep -o '"[a-z_A-Z0-9]*":[-0-9.]*[0-9]' >"$tmp/values"
bad=
seen=0
while IFS=: read -r name value; do
	name=${name#\"} name=${name%\"}
	grep -qx "$name" "$tmp/decimal-fields" || continue
	seen=$((seen + 1))
	case $name in
	*_ms|*_us) want=3 ;;
	hit_ratio) want=4 ;;
	*) want=2 ;;
	esac
	decimals=${value#*.}
	[ "$value" != "$decimals" ] && [ ${#decimals} -eq "$want" ] || bad="$bad $name=$value"
done <"$tmp/values"
[ "$seen" -ge 15 ] && [ -z "$bad" ]
ok $? "JSON decimals follow one rule in every mode: _pct 2 decimals, _ms/_us 3, hit_ratio 4 (checked $seen)${bad:+ (not:$bad)}"

# Counts of one read in the singular wherever a text report counts.
{
	"$OCCCALC" -a sm_90 -b 1024 -r 64 --grid 1 --sms 1
	"$OCCCALC" -a sm_90 -r 64 -s 200K --sms 1
	"$OCCCALC" -a sm_90 -b 1024 -r 64 --layout 1 --cluster 1
	"$OCCCALC" -a sm_90 --traffic 'y[i] = x[i]' --grid 1 --block 1 --threads 1
	"$OCCCALC" -a sm_90 --access load --threads 1
} >"$tmp/ones" 2>&1
grep -E '(^|[^0-9.])1 (block|thread|SM|GPC|CTA|cluster|wave|warp|row|error)s\b' "$tmp/ones" >"$tmp/plural"
[ ! -s "$tmp/plural" ] && grep -q '^Waves: a grid of 1 block on 1 SM$' "$tmp/ones" &&
	grep -q '^Minimum grid          1 block (1 per SM x 1 SM)$' "$tmp/ones" &&
	grep -q '^  Clusters at once      1 (1 CTA)$' "$tmp/ones" &&
	grep -q '1 block of 1 thread, 1 thread in 1 warp' "$tmp/ones"
ok $? "a count of one takes the singular in text reports"
sed 's/^/# plural after 1: /' "$tmp/plural"

run --help
[ "$status" -eq 0 ] && grep -q '^Usage: occcalc' "$tmp/out" && [ ! -s "$tmp/err" ]
ok $? "--help prints usage on stdout, exit 0"
run -h
grep -q '^Usage: occcalc' "$tmp/out"
ok $? "-h is --help"
run --help
[ "$(wc -l <"$tmp/out")" -le 30 ] && [ "$(awk '{ if (length > 79) n++ } END { print n + 0 }' "$tmp/out")" -eq 0 ]
ok $? "--help alone fits one screen: at most 30 lines of at most 79 columns"
"$OCCCALC" --help all | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\).*/\2/p' | sort -u >"$tmp/all"
"$OCCCALC" --help | grep -o -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u >"$tmp/short"
[ "$(wc -l <"$tmp/all")" -gt 40 ] && cmp -s "$tmp/all" "$tmp/short"
ok $? "--help names every option that --help all explains"
topics=$(sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' "$tmp/out")
long=
for t in $topics; do
	"$OCCCALC" --help "$t" >"$tmp/topic" 2>&1 && [ -s "$tmp/topic" ] || long="$long $t(fails)"
	[ "$(wc -l <"$tmp/topic")" -le 40 ] || long="$long $t"
done
[ -n "$topics" ] && [ -z "$long" ]
ok $? "--help TOPIC, for each topic --help lists, prints at most 40 lines${long:+ (not:$long)}"
"$OCCCALC" --help all >"$tmp/all-text"
for t in $topics; do "$OCCCALC" --help "$t" | sed -n '/^[A-Z][^:]*:$/,/^Exit status/p' | sed '$d'; done |
	grep '^  *-' >"$tmp/by-topic"
grep '^  *-' "$tmp/all-text" >"$tmp/all-opts"
cmp -s "$tmp/by-topic" "$tmp/all-opts"
ok $? "--help all is every topic's options, each once, in the topics' order"
"$OCCCALC" --help | grep '^  other ' >"$tmp/other"
[ ! -s "$tmp/other" ]
ok $? "every option names its --help topic (.topic in opts[])${tmp:+$(sed 's/^ *other *not yet in a topic:/ (none for:/; s/$/)/' "$tmp/other")}"
run --help=gpu
[ "$status" -eq 0 ] && grep -q -- '--measure' "$tmp/out" && ! grep -q -- '--tables' "$tmp/out"
ok $? "--help=gpu is the GPU's topic, without --tables"
expect 2 "--help: 'kernal': no such topic; did you mean kernel or kernels? (--help lists them)" --help kernal
run --version
[ "$status" -eq 0 ] && grep -q '^occcalc [0-9]' "$tmp/out"
ok $? "--version prints the version"
run -V
grep -q '^occcalc [0-9]' "$tmp/out"
ok $? "-V is --version"

OCCCALC_TABLES=/nonexistent run -a sm_90 -b 128
[ "$status" -eq 1 ] && grep -q '/nonexistent' "$tmp/err"
ok $? "OCCCALC_TABLES names the table directory"
good=$OCCCALC_TABLES
OCCCALC_TABLES=/nonexistent run --tables "$good" -a sm_90 -b 128
[ "$status" -eq 0 ]
ok $? "--tables overrides OCCCALC_TABLES"
# From its build tree occcalc reads its source tree's tables; a copy
# elsewhere reads the installed ones, or says what to set.
src=$(cd "$T/.." && pwd -P)
got=$(unset OCCCALC_TABLES; "$OCCCALC" -a 90 -i -f csv --fields source |
	sed -n 's/^source,//p')
[ -n "$got" ] && [ "$(cd "$(dirname "$got")" && pwd -P)" = "$src/data/arch-tables" ]
ok $? "run from the build tree without OCCCALC_TABLES: the source tree's tables"
cp "$OCCCALC" "$tmp/occcalc-copy"
(unset OCCCALC_TABLES; "$tmp/occcalc-copy" -a 90 -i -f csv --fields source) >"$tmp/out" 2>"$tmp/err"
status=$?
{ [ "$status" -eq 0 ] && ! grep -q "^$src/" "$tmp/out"; } ||
	{ [ "$status" -eq 1 ] && one_error_line "; set OCCCALC_TABLES (or --tables DIR) to the directory of sm_XY.arch files"; }
ok $? "a copy outside the build tree reads the installed tables, or says what to set"
run -t "$good" -i -a 90
grep -q '^maxBarriersPerMultiprocessor *64$' "$tmp/out"
ok $? "-t and -i are --tables and --info"
run -l
grep -q '^sm_121 ' "$tmp/out"
ok $? "-l is --list-archs"

# Clusters (--cluster): added to the occupancy row, nothing else changed.
plain=$("$OCCCALC" --gpu H200 -b 128 -r 40 -f csv)
with=$("$OCCCALC" --gpu H200 -b 128 -r 40 --cluster 4 -f csv)
ncol=$(echo "$plain" | head -1 | tr ',' '\n' | wc -l)
[ "$(echo "$with" | cut -d, -f1-"$ncol")" = "$plain" ]
ok $? "--cluster adds fields after the occupancy row's, which stay as they are"
cl_row() { # ARGS: the first row's FIELDS of a --cluster run
	f=$1
	shift
	"$OCCCALC" "$@" -f csv --fields "$f" | sed -n 2p
}
# Waves of a cluster launch: what its clusters hold at once (issue 29, 4).
[ "$(cl_row grid,waves,tail_blocks,launch_occupancy_pct --gpu H100-SXM -b 128 -r 40 --cluster 4 --grid 2000)" = "2000,3,16,31.57" ] &&
	[ "$(cl_row waves,tail_blocks --gpu H100-SXM -b 128 -r 40 --grid 2000)" = "2,416" ]
ok $? "H100 SXM, clusters of 4, 2,000 blocks: 3 waves of 992 (248 clusters), not 2 of 1,584 (12 blocks x 132 SMs)"
[ "$(cl_row waves,launch_occupancy_pct --gpu H100-SXM -b 128 -r 40 --cluster 4 --grid 2002)" = "," ]
ok $? "a grid that is no multiple of the cluster's CTAs: no waves (CUDA refuses the launch)"
[ "$(cl_row max_active_clusters,cluster_blocks_per_sm --gpu H200 -b 128 -r 40 --cluster 4)" = "248,8" ]
ok $? "H200, 12 blocks per SM plainly: 8 in a cluster launch, 248 clusters of 4 (16+5x32+2x36)"
[ "$(cl_row max_active_clusters,layout --gpu H100-SXM -b 128 -r 40 --cluster 4)" = '248,"8,16x5,18x2,2x4"' ]
ok $? "H100 SXM: the layout measured on the device machine's H100 (docs/cluster-h100), 248 clusters of 4"
# No measured layout, but NVIDIA's GPC and SM counts: upper bounds, said.
[ "$(cl_row max_active_clusters,cluster_bound,cluster_potential_size,cluster_best_size --gpu H100-PCIe -b 256 -r 32 --cluster 4)" = "228,true,," ]
ok $? "H100 PCIe (114 SMs, at least 7 GPCs of at most 18): at most 228 clusters of 4 (6,18x6), no recommended size"
[ "$(cl_row max_active_clusters,cluster_bound --gpu GH200 -b 256 -r 32 --cluster 16)" = "66,true" ] &&
	[ "$(cl_row cluster_bound --gpu H100-SXM -b 256 -r 32 --cluster 16)" = "false" ]
ok $? "GH200 (132 SMs, GPCs of at most 18): at most 66 of 16; a measured layout is no bound"
[ "$(cl_row max_active_clusters,cluster_bound --gpu H100-PCIe -b 256 -r 32 --cluster 16)" = "57,true" ] &&
	[ "$(cl_row max_active_clusters,cluster_bound --gpu H100-PCIe --layout 8x8,18,16x2 -b 256 -r 32 --cluster 16)" = "25,false" ]
ok $? "--layout still overrides the bound: 25 clusters of 16 on 8x8,18,16x2, where the counts allow 57"
run --gpu H100-PCIe -b 256 -r 32 --cluster 4
grep -q '^  Clusters at once      at most 228 (912 CTAs)$' "$tmp/out" &&
	grep -q 'upper bounds' "$tmp/out" && ! grep -q '^Cluster sizes' "$tmp/out"
ok $? "the text says 'at most' and why, and recommends no size"
# Blackwell: no cluster blocks-per-SM cap documented; upper bounds, said.
[ "$(cl_row cluster_blocks_per_sm,max_active_clusters,cluster_bound,cluster_limiter --gpu B200 -b 128 -r 40 --cluster 2)" = "12,888,true,sm" ]
ok $? "B200 (148 SMs, GPCs not published), 12 blocks per SM plainly: at most floor(148 x 12 / 2) = 888 clusters of 2"
[ "$(cl_row max_active_clusters,cluster_bound --gpu RTX-5090 -b 256 -r 32 --cluster 8)" = "127,true" ] &&
	[ "$(cl_row max_active_clusters,cluster_bound --gpu DGX-Spark -b 256 -r 32 --cluster 3)" = "96,true" ]
ok $? "RTX 5090, 6 blocks per SM: at most floor(170 x 6 / 8) = 127 clusters of 8; DGX Spark: floor(48 x 6 / 3) = 96 of 3"
[ "$(cl_row max_active_clusters,cluster_bound,cluster_potential_size,cluster_best_size -a sm_100 --layout 16x9,4 -b 128 -r 40 --cluster 8)" = "216,true,," ]
ok $? "sm_100 with --layout: the layout's 9 x floor(16 x 12 / 8) = 216 clusters of 8, still a bound (the cap is unknown), no recommended size"
[ "$(cl_row max_active_clusters,cluster_bound,layout_source -a sm_90 --sms 132 -b 128 -r 40 --cluster 4)" = "264,true,--sms" ]
ok $? "sm_90 with --sms only: at most floor(132 x 8 / 4) = 264 clusters of 4 (the H100's measured layout holds 248)"
[ "$("$OCCCALC" --gpu H200,B200,H100-PCIe -b 128 -r 40 --cluster 2 -f csv --fields gpu,max_active_clusters,cluster_bound | tr '\n' ' ')" = "gpu,max_active_clusters,cluster_bound H200,528,false B200,888,true H100-PCIe,456,true " ]
ok $? "--gpu LIST: each GPU's own layout, GPC counts or SMs (H200 measured, B200 by its SMs, H100 PCIe by its counts)"
"$OCCCALC" --gpu B200 -b 128:256:128 -r 32 --cluster 2,8 >"$tmp/out" &&
	[ "$(tail -1 "$tmp/out")" = "clusters, ctas, gpu occ: upper bounds (cluster_bound); unknown: the cluster blocks/SM cap, non-portable sizes (Blackwell); the GPC layout" ] &&
	! "$OCCCALC" --gpu H200 -b 128:256:128 --cluster 2 | grep -q 'upper bounds'
ok $? "a text table of bounded clusters ends with one line saying so and what is unknown; a measured layout's does not"
run --gpu B200 -b 128 -r 40 --cluster 2
grep -q '^  Upper bound: unknown on sm_100: the cluster blocks/SM cap, non-portable sizes$' "$tmp/out" &&
	grep -q '^  Clusters at once      at most 888 (1776 CTAs)$' "$tmp/out" &&
	! grep -q '^Cluster sizes' "$tmp/out"
ok $? "B200's text says in one line what is unknown and that the figures are upper bounds"
# A device name finds the list's layout under the list's own name.
[ "$(cl_row layout_source --gpu 'NVIDIA H100 80GB HBM3' -b 128 --cluster 2 | cut -c1-30)" = '"the GPU list (H100-SXM): meas' ]
ok $? "the H100's device name finds the H100-SXM layout"
[ "$(cl_row max_active_clusters --gpu H200 -b 128 -r 40 --cluster 2x2)" = "248" ] &&
	[ "$(cl_row max_active_clusters --gpu H200 -b 128 -r 40 --cluster 1x2x2)" = "248" ]
ok $? "a shape counts by its CTAs: 2x2 and 1x2x2 hold as many as 4"
[ "$(cl_row max_active_clusters,cluster_limiter --arch 90 --layout 16,18 -b 1024 -r 32 --cluster 3)" = "22,sm+gpc" ]
ok $? "--layout 16,18 at 2 blocks per SM: floor(32/3) + floor(36/3) = 22 clusters of 3"
[ "$(cl_row max_active_clusters,cluster_reason --arch 90 --layout 8x4 -b 128 --cluster 9)" = "0,cluster_larger_than_gpcs" ]
ok $? "a cluster larger than every GPC holds 0 clusters, and says why"
[ "$(cl_row max_active_clusters,cluster_reason --arch 90 --layout 16 -b 2048 --cluster 2)" = "0,kernel_does_not_launch" ]
ok $? "a kernel that cannot launch holds 0 clusters, and says why"
[ "$(cl_row cluster_portable --gpu H200 -b 128 --cluster 8)" = "true" ] &&
	[ "$(cl_row cluster_portable --gpu H200 -b 128 --cluster 9)" = "false" ]
ok $? "sizes above 8 are not portable"
[ "$(cl_row cluster_potential_size,cluster_potential_size_nonportable,cluster_best_size --gpu H200 -b 128 -r 32 --cluster 4)" = "8,16,2" ]
ok $? "H200: the runtime's potential size is 8 (16 non-portable); most CTAs at 2"
[ "$(cl_row cluster,cluster_size --gpu H200 -b 128 -r 32 --cluster best)" = "2,2" ]
ok $? "--cluster best takes the size with the most CTAs"
[ "$("$OCCCALC" --gpu H200 -b 128 --cluster 1:4,2x2,best -f csv | wc -l)" -eq 7 ]
ok $? "--cluster takes a list of sizes, ranges, shapes and best: one row each"
[ "$(cl_row layout,layout_source --arch 90 --layout 16,16,8 -b 128 --cluster 2)" = "\"16x2,8\",--layout" ]
ok $? "the layout prints in its short form, and says where it comes from"
run --gpu H200 -b 128 --cluster 4
grep -q "Chips of one product have different SMs disabled" "$tmp/out" &&
	grep -q "source: the GPU list (H200): measured on eight NVIDIA" "$tmp/out"
ok $? "a layout from the GPU list says whose it is, and that chips differ"

# --help OPTION: the topic that lists the option.
run --help grid
[ "$status" -eq 0 ] && grep -q '^      --grid N ' "$tmp/out"
ok $? "--help grid: the topic listing --grid"
run --help --stride
[ "$status" -eq 0 ] && grep -q -- '--stride' "$tmp/out"
ok $? "--help --stride: the topic listing --stride"

done_testing
