#!/bin/sh
# errors.sh - bad input gets one 'occcalc:' line on stderr and exit 2 (usage)
# or 1 (failure); never a crash, a hang, or a number on stdout.
. "$T/lib.sh"

expect 2 "--block: '0': below the minimum of 1" -a sm_90 -b 0
expect 2 "--block: '-5': must not be negative" -a sm_90 -b -5
expect 2 "--block: '2147483648': above the maximum of 2147483647" -a sm_90 -b 2147483648
expect 2 "--block: 'abc': not a number" -a sm_90 -b abc
expect 2 "--block: '12x': a block shape is XxY or XxYxZ" -a sm_90 -b 12x
expect 2 "--block: '0x16': a block dimension must be at least 1" -a sm_90 -b 0x16
expect 2 "--block: '16x16x16x2': a block shape is XxY or XxYxZ" -a sm_90 -b 16x16x16x2
expect 2 "--block: '32x64': beyond CUDA's block limits (1024 threads" -a sm_90 -b 32x64
expect 2 "--block: '1x1x128': beyond CUDA's block limits (1024 threads; x and y up to 1024, z up to 64)" -a sm_90 -b 1x1x128
expect 2 "--block: '16x16:32': a block shape is XxY or XxYxZ, whole numbers (16x16, 8x8x4; not a range)" -a sm_90 -b 16x16:32
expect 2 "--block: '32,16xq': a block shape is XxY or XxYxZ" -a sm_90 -b 32,16xq
expect 2 "--regs: '-1': must not be negative" -a sm_90 -b 128 -r -1
expect 2 "--regs: '256': above the maximum of 255" -a sm_90 -b 128 -r 256
expect 2 "--smem: '-1': must not be negative" -a sm_90 -b 128 -s -1
expect 2 "--smem: '99999999999999999999': number too large" -a sm_90 -b 128 -s 99999999999999999999
expect 2 "--smem: '5G': not a number" -a sm_90 -b 128 -s 5G
expect 2 "--smem: '4294967296': above the maximum of 4294967295" -a sm_90 -b 128 -s 4294967296
expect 2 "--static-smem: '1.5K': not a number" -a sm_90 -b 128 -S 1.5K
expect 2 "--block: '64:32': range reversed" -a sm_90 -b 64:32
expect 2 "--block: '32:64:0': a range's step must not be 0" -a sm_90 -b 32:64:0
expect 2 "--block: '32,,64': empty value" -a sm_90 -b 32,,64
expect 2 "--block: '1:2:3:4': not a number" -a sm_90 -b 1:2:3:4
expect 2 "--carveout: '101': above the maximum of 100" -a sm_90 -b 128 -c 101
expect 2 "--carveout: 'most': not a number" -a sm_90 -b 128 -c most
expect 2 "--carveout: '10:20': takes a single value" -a sm_90 -b 128 -c 10:20
expect 2 "--barriers: '17': above the maximum of 16" -a sm_90 -b 128 --barriers 17
expect 2 "--sms: '0': below the minimum of 1" -a sm_90 -b 128 --sms 0
expect 2 "--sms: '132,144': takes a single value" -a sm_90 -b 128 --sms 132,144
expect 2 "--smem-per-thread: '-4': must not be negative" -a sm_90 --smem-per-thread -4
expect 2 "--smem-per-warp: 'lots': not a number" -a sm_90 --smem-per-warp lots
expect 2 "--grid: '0': below the minimum of 1" -a sm_90 -b 128 --sms 132 --grid 0
expect 2 "--grid: '2147483648': above the maximum of 2147483647" -a sm_90 -b 128 --sms 132 --grid 2147483648
expect 2 "--grid needs the GPU's SM count: --sms N or --gpu NAME" -a sm_90 -b 128 --grid 1000
expect 2 "--gpu: 'Voodoo5': not in" --gpu Voodoo5 -b 128
expect 2 "--gpu: 'H100' is ambiguous: did you mean H100-SXM, H100-PCIe, H100-NVL?" --gpu H100 -b 128
expect 2 "--gpu: 'RTX 4085': not in $OCCCALC_TABLES/gpus.txt: did you mean RTX-4080?" --gpu "RTX 4085" -b 128
expect 2 "--gpu: 'NVIDIA': not in" --gpu NVIDIA -b 128
expect 2 "--gpu A100 is compute capability 8.0, not --arch sm_90" --gpu A100 -a sm_90 -b 128
expect 2 "--grid: the GPU list gives no SM count for GB200 (NVIDIA GB200 NVL72 specifications" --gpu GB200 -b 128 --grid 1000
expect 2 "--format: 'xml': unknown format" -a sm_90 -b 128 -f xml
expect 2 "--arch: 'sm_99': no table for compute capability 9.9" -a sm_99 -b 128
expect 2 "--arch: 'volta': not an architecture" -a volta -b 128
expect 2 "--device: '-1': must not be negative" --device -1 -b 128
expect 2 "--device: '1024': above the maximum of 1023" --device 1024 -b 128
expect 2 "unknown option '--bogus'" -a sm_90 -b 128 --bogus
expect 2 "unknown option '-x'" -a sm_90 -b 128 -x
expect 2 "unknown option '--blokc'; did you mean --block? (see --help)" -a sm_90 --blokc 128
expect 2 "unknown option '--regz=32'; did you mean --regs? (see --help)" -a sm_90 -b 128 --regz=32
run -a sm_90 -b 128 --xyzzy
[ "$status" -eq 2 ] && [ "$(cat "$tmp/err")" = "occcalc: unknown option '--xyzzy' (see --help)" ]
ok $? "an option far from every name: no guess"
expect 2 "--arch: 'H100': not an architecture but a GPU's name: give --gpu with one of H100-SXM, H100-PCIe, H100-NVL (--arch takes sm_90, 90 or 9.0)" -a H100 -b 128
expect 2 "--arch: 'RTX-4090': not an architecture but a GPU: give --gpu RTX-4090 (compute capability 8.9" -a RTX-4090 -b 128
expect 2 "--arch: 'RTX-4090': not an architecture but a GPU" --kernels "$T/fixtures/bin/sm_80.cubin" -a RTX-4090
expect 2 "--arch: 'H100': not an architecture but a GPU's name" -a sm_80,H100 -b 128
expect 2 "--help: 'foobar': no such topic or option; the topics: " --help foobar
expect 2 "option '--arch' needs a value" --arch
expect 2 "option '--block' needs a value" -a sm_90 --block
expect 2 "unexpected argument 'extra'" -a sm_90 -b 128 extra
expect 2 "--measure launches a calibrated kernel, not the ones of --kernels" --measure --ptxas "$T/fixtures/ptxas-sm90.txt"
expect 2 "--api and --measure run on this machine's GPU" --api --gpu H100-SXM -b 128
expect 1 "/nonexistent: cannot read" --tables /nonexistent -a sm_90 -b 128
mkdir "$tmp/empty"
expect 1 "no architecture tables (*.arch) found" --tables "$tmp/empty" -a sm_90 -b 128

# A GPU list that does not read: the file and line.
cp "$OCCCALC_TABLES"/*.arch "$tmp/empty/"
printf 'H100-SXM 9.0 132 a source\nalias H100-SXM NVIDIA H100-SXM\n' >"$tmp/empty/gpus.txt"
expect 1 "gpus.txt:2: expected 'NAME CC SMS SOURCE', 'alias NAME DEVICE NAME', 'l2 NAME SIZE MAX WINDOW SOURCE' or 'gpcs NAME GPCS MAX SOURCE'" --tables "$tmp/empty" --list-gpus
printf 'alias H100-SXM NVIDIA H100 80GB HBM3\n' >"$tmp/empty/gpus.txt"
expect 1 "gpus.txt:1: expected" --tables "$tmp/empty" --gpu H100-SXM -b 128
# 'l2' lines: for a GPU listed above, once, sizes that are whole bytes,
# the set-aside within the L2.
l2_line() { # LINE: the list is one GPU and LINE
	printf 'H100-SXM 9.0 132 a source\n%s\n' "$1" >"$tmp/empty/gpus.txt"
}
l2_line 'l2 H100-PCIe 50M - - a source'
expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus
l2_line 'l2 H100-SXM 50M 60M 128M a source'
expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus
l2_line 'l2 H100-SXM 50.1M - - a source'
expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus
l2_line 'l2 H100-SXM - - - a source'
expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus
l2_line 'l2 H100-SXM 50M - -'
expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus
printf 'H100-SXM 9.0 132 a\nl2 H100-SXM 50M - - a\nl2 H100-SXM 50M - - b\n' >"$tmp/empty/gpus.txt"
expect 1 "gpus.txt:3: expected" --tables "$tmp/empty" --list-gpus
# 'gpcs' lines: a GPU with SMs, GPCs no more than SMs, GPCs that hold them.
for bad in 'gpcs H100-SXM 133 18 a' 'gpcs H100-SXM 8 1 a' 'gpcs H100-SXM 8 0 a' \
	'gpcs H100-SXM 8 257 a' 'gpcs H100-SXM x 18 a' 'gpcs H100-SXM 8 18'; do
	l2_line "$bad"
	expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus
done
printf 'H8 9.0 - a\ngpcs H8 - 18 a\n' >"$tmp/empty/gpus.txt"
expect 1 "gpus.txt:2: expected" --tables "$tmp/empty" --list-gpus

# Clusters: sizes, shapes, layouts, architectures, and a layout to use.
L="--layout 16"
expect 2 "--cluster: '0': below the minimum of 1" -a sm_90 -b 128 --cluster 0 $L
expect 2 "--cluster: '17': 17 CTAs, more than the 16 a cluster may have on sm_90" -a sm_90 -b 128 --cluster 17 $L
expect 2 "--cluster: '4x8': 32 CTAs, more than the 16" -a sm_90 -b 128 --cluster 4x8 $L
expect 2 "--cluster: '2x2x5': 20 CTAs, more than the 16" -a sm_90 -b 128 --cluster 1,2x2x5 $L
expect 2 "--cluster: '2x0': not a cluster shape at column 3" -a sm_90 -b 128 --cluster 2x0 $L
expect 2 "--cluster: '2,4x': not a cluster shape at column 5" -a sm_90 -b 128 --cluster 2,4x $L
expect 2 "--cluster: '2,,4': empty value" -a sm_90 -b 128 --cluster 2,,4 $L
expect 2 "--cluster: 'big': not a number" -a sm_90 -b 128 --cluster big $L
expect 2 "--cluster: '1:100': more than 64 cluster shapes" -a sm_90 -b 128 --cluster 1:100 $L
expect 2 "--layout: '8,16x': not a GPC layout at column 6" -a sm_90 -b 128 --cluster 4 --layout 8,16x
expect 2 "--layout: '8,,16': not a GPC layout at column 3" -a sm_90 -b 128 --cluster 4 --layout 8,,16
expect 2 "--layout: '8;16': not a GPC layout at column 2" -a sm_90 -b 128 --cluster 4 --layout '8;16'
expect 2 "--layout: '0': not a GPC layout at column 1" -a sm_90 -b 128 --cluster 4 --layout 0
expect 2 "--layout: '257': not a GPC layout at column 1" -a sm_90 -b 128 --cluster 4 --layout 257
expect 2 "--layout: '2x129': not a GPC layout at column 3" -a sm_90 -b 128 --cluster 4 --layout 2x129
expect 2 "--layout: '': not a GPC layout at column 1" -a sm_90 -b 128 --cluster 4 --layout ''
expect 2 "--cluster: sm_80 has no thread-block clusters (compute capability 9.0 on)" -a sm_80 -b 128 --cluster 2 $L
expect 2 "--cluster: sm_86 has no thread-block clusters" --gpu A10 -b 128 --cluster 2
expect 2 "--cluster: '9': 9 CTAs, more than the 8 portable on sm_100; its largest non-portable size (clusterSizeMax) is neither documented by NVIDIA nor measured here" -a sm_100 -b 128 --cluster 2,9 $L
expect 2 "--cluster: '2x8': 16 CTAs, more than the 8 portable on sm_120" -a sm_120 -b 128 --cluster 2x8 $L
expect 2 "--cluster best: on sm_100 the size with the most CTAs depends on a cluster launch's blocks per SM (clusterBlocksPerMultiprocessor), neither documented by NVIDIA nor measured here: give sizes up to 8" -a sm_100 -b 128 --cluster best $L
for g in B200 RTX-5090 RTX-PRO-6000-Blackwell DGX-Spark; do
	expect 2 "16 CTAs, more than the 8 portable on sm_1" --gpu $g -b 128 --cluster 16
	expect 2 "--cluster best: on sm_1" --gpu $g -b 128 --cluster best
done
expect 2 "the GPU list has neither for B300: give --sms or --layout" --gpu B300 -b 128 --cluster 2
mkdir "$tmp/nocl"
sed '/^cluster/d' "$OCCCALC_TABLES/sm_90.arch" >"$tmp/nocl/sm_90.arch"
expect 2 "--cluster: the sm_90 table has no cluster figures" --tables "$tmp/nocl" -a sm_90 -b 128 --cluster 2 $L
expect 2 "--cluster needs the GPU's GPC layout: --layout LAYOUT" -a sm_90 -b 128 --cluster 2
expect 2 "--cluster needs the GPU's GPC layout or SM count, and the GPU list has neither for H800: give --sms or --layout" --gpu H800 -b 128 --cluster 2
expect 2 "--cluster best: the size with the most CTAs depends on H100-PCIe's GPC layout, which is not measured" --gpu H100-PCIe -b 128 --cluster 2,best
expect 2 "--sms 100: the GPU list's H100-PCIe has 114 SMs" --gpu H100-PCIe --sms 100 -b 128 --cluster 2
expect 2 "--layout 8,8 has 16 SMs, the GPU 132" --gpu H200 -b 128 --cluster 2 --layout 8,8
expect 2 "--sms 100: the GPU list's layout of H200 has 132 SMs" --gpu H200 --sms 100 -b 128 --cluster 2
expect 2 "--layout goes with --cluster" -a sm_90 -b 128 $L
expect 2 "--cluster needs the GPU's GPC layout: --layout LAYOUT" --ptxas "$T/fixtures/ptxas-sm90.txt" --cluster 2
expect 2 "--device all runs on each GPU of this machine" -a sm_90 -b 128 --device all
expect 2 "--device all runs on each GPU of this machine" --gpu H200 -b 128 --device all
expect 2 "--device all goes with an occupancy calculation" --device all --access load
expect 2 "--device: 'every': not a number" --device every -b 128

# A GPU list line longer than the reader's buffer: the file, the line and
# the limit, not its tail read as another GPU.
{ printf 'H100-SXM 9.0 132 a source\n'; head -c 3000 /dev/zero | tr '\0' x; echo; } \
	>"$tmp/empty/gpus.txt"
expect 1 "gpus.txt:2: line too long (at most " --tables "$tmp/empty" --list-gpus
# A GPU list that is not a regular file is not waited on.
rm "$tmp/empty/gpus.txt"
mkfifo "$tmp/empty/gpus.txt"
expect 1 "gpus.txt: not a regular file" --tables "$tmp/empty" --list-gpus
rm "$tmp/empty/gpus.txt"

# What the user typed is quoted escaped: a message is always one line.
nl='
'
expect 2 "--block: '1\\n2': not a number" -a sm_90 -b "1${nl}2"
expect 2 "--arch: 'sm\\x1b[31m': not an architecture" -a "$(printf 'sm\033[31m')" -b 128
expect 2 "unexpected argument 'a\\tb'" -a sm_90 -b 128 "$(printf 'a\tb')"
expect 2 "--gpu: 'x\\ny': not in" --gpu "x${nl}y" -b 128

# A mode picked twice is refused before anything reads --arch.
expect 2 "--kernels and --info are separate modes; give one" --ptxas "$T/fixtures/ptxas-sm90.txt" --info
expect 2 "--kernels and --info are separate modes; give one" --ptxas /dev/null -i

# Figures beyond the model's limits name the input and the limit.
expect 2 "--l2: '300000000000000:1M:1M': SIZE above the limit of 281474976710655 bytes (2^48 - 1)" \
	-a sm_90 --persist 24M --l2 300000000000000:1M:1M
expect 2 "--l2: '50M:32M:281474976710656': WINDOW above the limit of 281474976710655" \
	-a sm_90 --persist 24M --l2 50M:32M:281474976710656
expect 2 "--l2: '50M:0:128M': a set-aside maximum of 0: nothing can persist" \
	-a sm_90 --persist 24M --l2 50M:0:128M
expect 2 "--smem 0, --smem-per-thread 4294967295 and --smem-per-warp 0 at --block 2147483647: 9223372030412324865 B of dynamic shared memory, above the limit of 281474976710655" \
	-a sm_90 -b 2147483647 --smem-per-thread 4294967295

# Files that are not regular files: refused, never waited on.
mkfifo "$tmp/fifo"
expect 1 "$tmp/fifo: not a regular file (a pipe or device: give '-' and redirect it)" \
	--ptxas "$tmp/fifo"
mkdir "$tmp/nokernels"
expect 1 "$tmp/nokernels: no cubin, fatbin or ELF file with CUDA code found" --ptxas "$tmp/nokernels"
expect 1 "$tmp/absent: cannot read: No such file or directory" --ptxas "$tmp/absent"
# --plot to a FIFO no process reads: an error, not a wait (the text
# report before it is printed; the error is the one line on stderr).
"$OCCCALC" -a sm_90 -b 128 --plot "$tmp/fifo" >/dev/null 2>"$tmp/err"
st=$?
[ "$st" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -qF "occcalc: $tmp/fifo: cannot write: a FIFO that no process reads" "$tmp/err"
ok $? "--plot FIFO without a reader: exit 1, one line, no wait"
"$OCCCALC" -a sm_90 -b 128 --plot "$tmp" >/dev/null 2>"$tmp/err"
st=$?
[ "$st" -eq 1 ] && grep -qF "occcalc: $tmp: cannot write: Is a directory" "$tmp/err"
ok $? "--plot DIRECTORY: exit 1, named"
# --plot - is standard output; a FIFO with a reader is written.
"$OCCCALC" -a sm_90 -b 128 -f csv --fields occupancy_pct --plot - >"$tmp/out" 2>"$tmp/err"
st=$?
[ "$st" -eq 0 ] && grep -q '^<svg' "$tmp/out" && grep -q '^100.00$' "$tmp/out" &&
	[ ! -s "$tmp/err" ]
ok $? "--plot - writes the SVG to standard output"
cat "$tmp/fifo" >"$tmp/svg" &
reader=$!
# Until the reader has opened its end, occcalc finds none: try again.
tries=0
while :; do
	"$OCCCALC" -a sm_90 -b 128 --plot "$tmp/fifo" >/dev/null 2>"$tmp/err"
	st=$?
	grep -q "no process reads" "$tmp/err" && [ "$tries" -lt 100 ] || break
	tries=$((tries + 1))
	sleep 0.1
done
[ "$st" -eq 0 ] || kill "$reader" 2>/dev/null
wait "$reader"
[ "$st" -eq 0 ] && grep -q '^<svg' "$tmp/svg"
ok $? "--plot FIFO with a reader: the SVG goes through it"

# A full device: the error is reported, not lost.
if [ -w /dev/full ]; then
	"$OCCCALC" -a sm_90 -b 1:1024 -f csv >/dev/full 2>"$tmp/err"
	st=$?
	: >"$tmp/out"
	[ "$st" -eq 1 ] && one_error_line "write error"
	ok $? "writing to a full device: exit 1, 'write error'"
fi

done_testing
