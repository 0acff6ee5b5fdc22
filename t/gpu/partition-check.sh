#!/bin/sh
# partition-check.sh OUTDIR - make gpu-check-partition, on a GPU with green
# contexts (CUDA 12.4+, compute capability 9.0 for the cluster figures):
#  1. t/gpu/partition.cu measures every split, each part's SMs, the
#     runtime's cluster answers in each and launches there (OUTDIR);
#  2. t/gpu/partition-table.py makes the part lines; they must be the
#     lines data/arch-tables/partitions.txt holds for this GPU (where it
#     holds none, they are written to OUTDIR/parts.txt to be added, and
#     the checks below use them);
#  3. t/partition.sh's comparisons of the split, the parts' layouts, every
#     runtime answer and every launch with occcalc's model run on them;
#  4. occcalc --api --partition makes the split and the green context for
#     each group size and part, and its rows must agree: the driver's
#     split with the model's, cudaOccupancyMaxActiveClusters inside with
#     partition_api_max_active_clusters;
#  5. issue 38: in each part, one cluster of each size 2-16 at one CTA per
#     SM was launched whatever the runtime answered (refused.csv); occcalc
#     must predict which ran (max_active_clusters > 0) and which the
#     runtime refused (0: runtime_refuses_in_part or
#     cluster_larger_than_gpcs). A table of every part and size is
#     written to OUTDIR/refused-table.txt and its disagreements printed.
# Environment as make check-gpu sets it: OCCCALC, NVCC, PYTHON3,
# OCCCALC_TABLES; T is this script's t/.
set -u
out=$1
T=${T:-$(cd "$(dirname "$0")/.." && pwd)}
mkdir -p "$out" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-partition.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

"$NVCC" -std=c++17 -O2 -arch=sm_90 -o "$tmp/partition" "$T/gpu/partition.cu" \
	-lcuda || exit 1
PARTITION_LAUNCH=1 "$tmp/partition" "$out" 0 2>"$out/progress.txt" || exit 1
for f in occ potential layout; do gzip -9nf "$out/$f.csv"; done

# The GPU list's name for the device: an alias line's device name, or a
# name the device name ends with ("NVIDIA H200").
dev=$(sed -n 's/^name //p' "$out/device.txt")
gpu=$(awk -v d="$dev" '
	$1 == "alias" { n = $2; $1 = $2 = ""; sub(/^ +/, ""); if ($0 == d) { print n; exit } }
	$1 !~ /^(#|alias|l2|gpcs|layout)$/ && NF > 2 && d ~ (" " $1 "$") { print $1; exit }' \
	"$OCCCALC_TABLES/gpus.txt")
[ -n "$gpu" ] || { echo "partition: '$dev' is not in the GPU list"; exit 1; }
echo "partition: $dev, listed as $gpu"

zcat() { gzip -dc "$@"; }
mkdir "$tmp/d"
for f in splits.csv sms.csv peaks.csv refused.csv; do cp "$out/$f" "$tmp/d/"; done
for f in occ potential layout; do
	cp "$out/$f.csv.gz" "$tmp/d/"
	zcat "$out/$f.csv.gz" >"$tmp/d/$f.csv"
done
"$PYTHON3" "$T/gpu/partition-table.py" "$tmp/d" "$gpu" \
	"measured on one $dev (docs/partition.md)" >"$out/parts.txt" || fail=1
grep "^part $gpu " "$OCCCALC_TABLES/partitions.txt" | cut -d' ' -f1-7 >"$tmp/listed"
cut -d' ' -f1-7 "$out/parts.txt" >"$tmp/measured"
cp -r "$OCCCALC_TABLES" "$tmp/tables"
if [ -s "$tmp/listed" ]; then
	if diff "$tmp/listed" "$tmp/measured" >"$out/parts.diff"; then
		echo "partition: the $(wc -l <"$tmp/measured") parts measured are partitions.txt's"
	else
		echo "partition: the parts measured differ from partitions.txt's ($out/parts.diff)"
		fail=1
	fi
else
	echo "partition: partitions.txt has no parts of $gpu: $out/parts.txt holds them"
	cat "$out/parts.txt" >>"$tmp/tables/partitions.txt"
fi
export OCCCALC_TABLES="$tmp/tables"

# 3. The CI comparisons, on this run's data and GPU.
PARTITION_DATA="$tmp/d" PARTITION_GPU="$gpu" T="$T" sh "$T/partition.sh" \
	>"$out/partition-tests.tap" 2>&1 || fail=1
grep -v '^ok' "$out/partition-tests.tap"

# 5. Which cluster sizes the runtime refuses in each part, beside occcalc.
flag_name() {
	case $1 in 0) echo default ;; 1) echo ignore-coscheduling ;;
	2) echo max-cluster-size ;; esac
}
smem1=$(sed -n 's/^setting blocks=1 smem=\([0-9]*\) .*/\1/p' "$out/device.txt")
tail -n +2 "$out/refused.csv" | grep -v '^-1,' | cut -d, -f1-3 | uniq |
while IFS=, read -r f m p; do
	[ "$p" = remaining ] && part=remaining || part="group:$p"
	"$OCCCALC" -b 128 -r 32 --smem "$smem1" --gpu "$gpu" --cluster 2:16 \
		--partition "$m" --partition-flags "$(flag_name "$f")" \
		--partition-part "$part" -f csv,noheader \
		--fields cluster_size,max_active_clusters,cluster_reason |
		sed "s/^/$f,$m,$p,/"
done >"$tmp/predicted"
# Full rows to refused-table.txt; printed, one line a part: each size
# 2-16 as R (ran), . (refused), ! (occcalc says otherwise).
awk -F, -v compact="$tmp/refused-compact" '
	NR == FNR { key = $1 "," $2 "," $3 "," $4
	  pred[key] = $5; why[key] = $6; next }
	FNR == 1 || $1 == -1 { next }
	{ key = $1 "," $2 "," $3 "," $4
	  part = $1 "," $2 "," $3
	  ran = $6 == "ok"
	  if (!(key in pred)) { verdict = "NO PREDICTION"; bad++ }
	  else if ((pred[key] > 0) == ran) verdict = "agrees"
	  else { verdict = "DISAGREES"; bad++ }
	  n++; if (ran) nran++
	  if (!(part in mark)) order[++parts] = part
	  mark[part] = mark[part] " " (verdict != "agrees" ? "!" : ran ? "R" : ".")
	  printf "%-6s %-5s %-10s %4s %5s %9s %-24s %-28s %s\n", $1, $2, $3, $4,
		$5, pred[key], why[key], $6, verdict }
	END { printf "%-26s %s\n", "flags,minCount,part", \
		"2 3 4 5 6 7 8 9 10-16 (R ran, . refused, ! occcalc disagrees)" > compact
	      for (i = 1; i <= parts; i++)
		printf "%-26s%s\n", order[i], mark[order[i]] > compact
	      printf "partition: refused or ran: %d launches, %d ran, %d refused; %d where occcalc disagrees\n",
		n, nran, n - nran, bad > "/dev/stderr"
	      exit bad > 0 }' "$tmp/predicted" "$out/refused.csv" \
	>"$tmp/refused-rows" 2>"$tmp/refused-sum" || fail=1
{
	printf "%-6s %-5s %-10s %4s %5s %9s %-24s %-28s %s\n" flags min part size api occcalc \
		reason launch verdict
	cat "$tmp/refused-rows"
} >"$out/refused-table.txt"
cat "$tmp/refused-compact"
grep -E 'DISAGREES|NO PREDICTION' "$out/refused-table.txt"
cat "$tmp/refused-sum"
[ -s "$tmp/refused-rows" ] || fail=1

# 4. The live path: each default group size's first group and remainder,
#    and some of the other flags', clusters of 1-16 at 8 blocks per SM.
{
	for m in 8 16 24 32 40 48 56 64 72 96 120 128 132; do
		echo "default $m group:0"
		[ "$m" -lt 129 ] && echo "default $m remaining"
	done
	echo "default 16 group:7"
	echo "max-cluster-size 32 group:0"
	echo "max-cluster-size 64 group:1"
	echo "max-cluster-size 48 remaining"
	echo "ignore-coscheduling 6 group:3"
	echo "ignore-coscheduling 34 remaining"
} >"$tmp/live"
fields=partition_flags,partition_part,partition_groups,api_partition_groups,partition_sms,api_partition_sms,partition_remaining_sms,api_partition_remaining_sms,partition_part_sms,api_partition_part_sms,api_partition_multiprocessor_count,partition_agrees,cluster,max_active_clusters,partition_api_max_active_clusters,api_max_active_clusters,cluster_potential_size_nonportable,api_cluster_potential_size_nonportable,cluster_agrees
: >"$out/live.csv"
while read -r flags m part; do
	"$OCCCALC" --api -b 128 -r 32 --smem 25088 --cluster 1:16 \
		--partition "$m" --partition-flags "$flags" --partition-part "$part" \
		-f csv,noheader --fields "$fields" >>"$out/live.csv" \
		2>>"$out/live.err" || { echo "partition: --api $flags $m $part failed"; fail=1; }
done <"$tmp/live"
rows=$(wc -l <"$out/live.csv")
bad=$(awk -F, '$12 != "true" || $19 != "true"' "$out/live.csv" | wc -l)
echo "partition: --api --partition: $rows rows, $bad where the driver disagrees with the model"
sed -i "1i $fields" "$out/live.csv"
# What limits the SMs here (MIG, MPS), as --list-devices says.
"$OCCCALC" --list-devices -f csv \
	--fields device,multiProcessorCount,sm_limit,mps_active_thread_percentage,name \
	>"$out/devices.csv" 2>&1 || fail=1
[ "$rows" -gt 0 ] && [ "$bad" -eq 0 ] || fail=1
exit $fail
