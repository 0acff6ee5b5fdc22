#!/bin/sh
# partition.sh - --partition against what the driver did on an H200
# (docs/partition/h200, made by t/gpu/partition.cu): the split for every
# minCount and flag, what cudaOccupancyMaxActiveClusters answered inside
# every part, and the clusters launches held there. make
# gpu-check-partition runs it on a fresh measurement: PARTITION_DATA (its
# directory) and PARTITION_GPU (the GPU list's name).
. "$T/lib.sh"

D=${PARTITION_DATA:-"$T/../docs/partition/h200"}
G=${PARTITION_GPU:-H200}
flag_name() {
	case $1 in
	0) echo default ;;
	1) echo ignore-coscheduling ;;
	2) echo max-cluster-size ;;
	esac
}
part_arg() {
	[ "$1" = remaining ] && echo remaining || echo "group:$1"
}

# ---- The split ----

# Each row of splits.csv as occcalc computes it: flags, minCount, groups,
# the first group's SMs and the remainder's (both flags: refused).
tail -n +2 "$D/splits.csv" | while IFS=, read -r f m rc qrc qg groups sizes gmp ga rem rmp ra; do
	if [ "$f" = 3 ]; then
		"$OCCCALC" --gpu "$G" -b 128 --partition "$m" --partition-flags \
			ignore-coscheduling,max-cluster-size >/dev/null 2>&1
		echo "3,$m,$rc,$?"
		continue
	fi
	"$OCCCALC" --gpu "$G" -b 128 --partition "$m" --partition-flags \
		"$(flag_name "$f")" -f csv,noheader \
		--fields partition_groups,partition_sms,partition_remaining_sms |
		sed "s/^/$f,$m,/"
	echo "$f,$m,$groups,${sizes%% *},$rem" >>"$tmp/want"
done >"$tmp/got"
grep -v '^3,' "$tmp/got" >"$tmp/got-split"
[ "$(wc -l <"$tmp/want")" -eq 399 ] && diff "$tmp/want" "$tmp/got-split" >"$tmp/diff"
ok $? "the split for minCount 0-132 and each flag is the driver's (399 of 399)"
sed 's/^/# /' "$tmp/diff" | head -10

[ "$(grep -c '^3,[0-9]*,CUDA_ERROR_INVALID_VALUE,2$' "$tmp/got")" -eq 133 ]
ok $? "both flags at once: the driver refuses every minCount, occcalc too (usage)"

run --gpu "$G" -b 128 --partition 8 -f csv --fields partition_groups,partition_remaining_sms
[ "$(tail -1 "$tmp/out")" = 15,12 ]
ok $? "at least 8 SMs: 15 groups of 8 (one GPC each) and 12 left over, not 16"

run --gpu "$G" -b 128 --partition 33 -f csv --fields partition_groups,partition_sms,partition_remaining_sms
[ "$(tail -1 "$tmp/out")" = 3,40,12 ]
ok $? "at least 33 SMs: 3 groups of 40 and 12 left over"

run --gpu "$G" -b 128 --partition 66 -f csv --fields partition_groups,partition_sms,partition_remaining_sms
[ "$(tail -1 "$tmp/out")" = 1,72,60 ]
ok $? "at least 66 SMs: one group of 72 and 60 left over"

# ---- Which SMs: every part's layout is the GPCs of its measured SMs ----

# The device's GPCs from docs/cluster-h100/layout.txt (the H200's alike).
sed -n 's/^# gpc \([0-9]*\): //p' "$T/../docs/cluster-h100/layout.txt" |
	awk '{ for (i = 1; i <= NF; i++) print $i, NR }' >"$tmp/gpc"
# Each measured part (of the minCounts giving one split, the first; the
# others ran on the same SMs, as t/gpu/partition-table.py checked): flags,
# minCount, part, its layout from its SMs.
tail -n +2 "$D/sms.csv" | grep -v '^-1' | sort -t, -s -u -k1,1 -k3,3 -k9,9 |
	awk -F, 'NR == FNR { split($0, a, " "); gpc[a[1]] = a[2]; next }
	{ delete n; k = split($9, s, " ")
	  for (i = 1; i <= k; i++) n[gpc[s[i]]]++
	  out = ""; m = 0
	  for (g in n) c[++m] = n[g]
	  # descending, as occcalc formats layouts
	  for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
		if (c[j] > c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
	  for (i = 1; i <= m; i = j) {
		for (j = i; j <= m && c[j] == c[i]; j++) ;
		out = out (out ? "," : "") c[i] (j - i > 1 ? "x" (j - i) : "")
	  }
	  print $1 "," $2 "," $3 "," out }' "$tmp/gpc" - >"$tmp/parts"
while IFS=, read -r f m p want; do
	got=$("$OCCCALC" --gpu "$G" -b 128 --partition "$m" --partition-flags \
		"$(flag_name "$f")" --partition-part "$(part_arg "$p")" \
		-f csv,noheader --fields partition_layout | tr -d '"')
	[ "$got" = "$want" ] || echo "$f,$m,$p: $got, measured $want"
done <"$tmp/parts" >"$tmp/diff"
[ "$(wc -l <"$tmp/parts")" -gt 400 ] && [ ! -s "$tmp/diff" ]
ok $? "every part's layout is the GPCs of the SMs it ran on ($(wc -l <"$tmp/parts") parts)"
sed 's/^/# /' "$tmp/diff" | head -10

# ---- Inside the part: the runtime's answers and the launches ----

# One run per part asked: 16 shared-memory sizes (1 to 16 blocks per SM)
# by clusters of 1 to 16; each answer beside occcalc's.
gzip -dc "$D/occ.csv.gz" | tail -n +2 | grep -v 'same-as' >"$tmp/occ"
smems=$(awk -F, '$1 == -1 { print $5 }' "$tmp/occ" | sort -un | tr '\n' ',' | sed 's/,$//')
cut -d, -f1-3 "$tmp/occ" | grep -v '^-1' | uniq >"$tmp/asked"
while IFS=, read -r f m p; do
	"$OCCCALC" --gpu "$G" -b 128 -r 32 --smem "$smems" --cluster 1:16 \
		--partition "$m" --partition-flags "$(flag_name "$f")" \
		--partition-part "$(part_arg "$p")" -f csv,noheader \
		--fields smem,blocks_per_sm,cluster_size,partition_api_max_active_clusters,max_active_clusters,cluster_reason,cluster_potential_size_nonportable |
		sed "s/^/$f,$m,$p,/"
done <"$tmp/asked" >"$tmp/model"
# flags,min,part,smem,cluster -> the runtime's and the driver's answers
awk -F, 'NR == FNR { api[$1 "," $2 "," $3 "," $5 "," $7] = $8 "," $10 "," $6; next }
	{ k = $1 "," $2 "," $3 "," $4 "," $6
	  if (!(k in api)) { print "missing " k; next }
	  split(api[k], a, ",")
	  if (a[1] != $7 || a[2] != $7 || a[3] != $5) print k ": runtime " a[1] \
		", driver " a[2] " (" a[3] " blocks), occcalc " $7 " (" $5 ")"
	  n++ }
	END { print n " compared" > "/dev/stderr" }' "$tmp/occ" "$tmp/model" \
	>"$tmp/diff" 2>"$tmp/count"
[ "$(cat "$tmp/count")" = "$(($(wc -l <"$tmp/asked") * 256)) compared" ] &&
	[ "$(wc -l <"$tmp/asked")" -gt 400 ] && [ ! -s "$tmp/diff" ]
ok $? "cudaOccupancyMaxActiveClusters in every part, 1-16 blocks per SM, clusters of 1-16: partition_api_max_active_clusters ($(cat "$tmp/count"))"
sed 's/^/# /' "$tmp/diff" | head -10

# Issue 38: the runtime refuses to launch a size it counts 0 of in the
# part (every such launch measured was refused), so occcalc gives it no
# cluster: 0 clusters exactly where the runtime answers 0, the reason
# runtime_refuses_in_part where the part's GPCs would have the SMs; and
# the potential size is cudaOccupancyMaxPotentialClusterSize's there
# (non-portable; the portable answers were not usable, docs/partition.md).
awk -F, 'NR == FNR { api[$1 "," $2 "," $3 "," $5 "," $7] = $8; next }
	{ k = $1 "," $2 "," $3 "," $4 "," $6
	  if ((api[k] == 0) != ($8 == 0)) print k ": runtime " api[k] ", occcalc " $8
	  else if (api[k] == 0 && $9 == "runtime_refuses_in_part" && $5 > 0) r++
	  else if (api[k] == 0 && $9 != "cluster_larger_than_gpcs") print k ": reason " $9
	  n++ }
	END { print n " answers, " r + 0 " refused where the GPCs have the SMs" > "/dev/stderr" }' \
	"$tmp/occ" "$tmp/model" >"$tmp/diff" 2>"$tmp/count"
[ "$(sed 's/ answers.*//' "$tmp/count")" -gt 100000 ] && [ ! -s "$tmp/diff" ]
ok $? "a size the runtime counts 0 of in a part has 0 clusters, one it counts has some ($(cat "$tmp/count"))"
sed 's/^/# /' "$tmp/diff" | head -10
gzip -dc "$D/potential.csv.gz" | awk -F, '$6 == 1 && $8 == "ok" && $1 != -1' >"$tmp/pot"
awk -F, 'NR == FNR { pot[$1 "," $2 "," $3 "," $5] = $7; next }
	$6 == 1 { k = $1 "," $2 "," $3 "," $4
	  if (!(k in pot)) { print "missing " k; next }
	  if (pot[k] != $10) print k ": runtime " pot[k] ", occcalc " $10
	  n++ }
	END { print n + 0 > "/dev/stderr" }' "$tmp/pot" "$tmp/model" >"$tmp/diff" 2>"$tmp/count"
[ "$(cat "$tmp/count")" -gt 7000 ] && [ ! -s "$tmp/diff" ]
ok $? "cluster_potential_size_nonportable in every part is cudaOccupancyMaxPotentialClusterSize's, non-portable ($(cat "$tmp/count") answers)"
sed 's/^/# /' "$tmp/diff" | head -10

# The launches: clusters resident at once, measured, are the hardware's
# figure, max_active_clusters (8 blocks per SM, 25088 bytes each).
awk -F, '$8 == "ok" && $1 != -1' "$D/peaks.csv" >"$tmp/peaks"
while IFS=, read -r f m p c b api launched st measured; do
	got=$("$OCCCALC" --gpu "$G" -b 128 -r 32 --smem 25088 --cluster "$c" \
		--partition "$m" --partition-flags "$(flag_name "$f")" \
		--partition-part "$(part_arg "$p")" -f csv,noheader \
		--fields max_active_clusters,partition_api_max_active_clusters)
	[ "$got" = "$measured,$api" ] || echo "$f,$m,$p c=$c: $got, measured $measured, api $api"
done <"$tmp/peaks" >"$tmp/diff"
[ "$(wc -l <"$tmp/peaks")" -gt 400 ] && [ ! -s "$tmp/diff" ]
ok $? "the clusters launches held at once in each part are max_active_clusters ($(wc -l <"$tmp/peaks") launches, $(awk -F, '$6 != $9' "$tmp/peaks" | wc -l) above the runtime's answer)"
sed 's/^/# /' "$tmp/diff" | head -10

# ---- What the issue reported, and the bounds ----

run --gpu "$G" -b 128 --partition 32 --cluster 4,16 -f csv --fields max_active_clusters
[ "$(tail -n 2 "$tmp/out" | tr '\n' ' ')" = "56 0 " ]
ok $? "a 32-SM group: 56 clusters of 4, none of 16"
run --gpu "$G" -b 128 --partition 32 --partition-flags max-cluster-size --cluster 16 -f csv --fields max_active_clusters
[ "$(tail -n 1 "$tmp/out")" = 8 ]
ok $? "max-cluster-size: the 32-SM group holds 8 clusters of 16"
run --gpu "$G" -b 128 --partition 8 --partition-part remaining --cluster 4 -f csv --fields partition_part_sms,max_active_clusters
[ "$(tail -n 1 "$tmp/out")" = 12,0 ]
ok $? "the 12 SMs left over hold no cluster of 4"

run --gpu "$G" -b 128 --partition 33 --grid 1000 -f csv --fields partition_part_sms,min_grid_size,waves,tail_blocks
[ "$(tail -n 1 "$tmp/out")" = 40,640,2,360 ]
ok $? "waves and tail on the part's 40 SMs"

run --gpu H100-PCIe -b 128 --partition 8 --cluster 8 -f csv --fields partition_groups,partition_bound,max_active_clusters
[ "$(tail -n 1 "$tmp/out")" = 14,true,8 ]
ok $? "a GPU whose layout is not measured: at most floor(SMs / 8) groups of 8, the part's clusters an upper bound"
run --arch sm_90 --sms 132 -b 128 --partition 8 -f csv --fields partition_groups,partition_bound,partition_remaining_sms
[ "$(tail -n 1 "$tmp/out")" = 16,true, ]
ok $? "no layout: at most floor(SMs / 8) groups of 8, the remainder not known"
expect 2 "the SMs left over depend on the GPU's GPC layout" \
	--arch sm_90 --sms 132 -b 128 --partition 8 --partition-part remaining

# ---- Usage ----

expect 2 "more than the GPU's 132 SMs" --gpu "$G" -b 128 --partition 133
expect 2 "makes 15 groups of 8 SMs" --gpu "$G" -b 128 --partition 8 --partition-part group:15
expect 2 "leaves none of the 132 over" --gpu "$G" -b 128 --partition 129 --partition-part remaining
expect 2 "'x': not a flag" --gpu "$G" -b 128 --partition 8 --partition-flags x
expect 2 "not a part" --gpu "$G" -b 128 --partition 8 --partition-part rest
expect 2 "go with --partition MIN_SMS" --gpu "$G" -b 128 --partition-part remaining
expect 2 "needs the GPU's SMs" --arch sm_90 -b 128 --partition 8
expect 2 "max-cluster-size is for compute capability 9.0 on" --arch sm_80 --sms 108 -b 128 --partition 8 --partition-flags max-cluster-size
expect 2 "one GPU: leave out --gpu LIST" --gpu "$G",A100 -b 128 --partition 8

# ---- partitions.txt read as data: a bad line refused wherever it is ----

cp -r "$OCCCALC_TABLES" "$tmp/tables"
cp "$OCCCALC_TABLES/partitions.txt" "$tmp/parts"
tables=$OCCCALC_TABLES
OCCCALC_TABLES="$tmp/tables"
echo "part $G default 8 0 8" >>"$tmp/tables/partitions.txt"
expect 1 "partitions.txt:$(wc -l <"$tmp/tables/partitions.txt"): expected 'part GPU FLAGS GROUP_SMS GROUP HW API SOURCE'" \
	--gpu "$G" -b 128 --partition 8
cp "$tmp/parts" "$tmp/tables/partitions.txt"
echo "part $G default 16 0 8,4,2x2 8,4,2 short" >>"$tmp/tables/partitions.txt"
expect 1 "expected 'part GPU FLAGS GROUP_SMS GROUP HW API SOURCE'" \
	--gpu "$G" -b 128 --partition 16
cp "$tmp/parts" "$tmp/tables/partitions.txt"
awk 'BEGIN { printf "part X default 8 0 8 8 "; for (i = 0; i < 1100; i++) printf "x"; print "" }' >>"$tmp/tables/partitions.txt"
expect 1 "line too long (at most 1023 characters)" \
	--gpu "$G" -b 128 --partition 8
rm "$tmp/tables/partitions.txt"
# One rule for the part (occ_target_part): a partitions.txt that cannot
# be read stops --partition as it stops --launches --partition, never
# taken for a part not measured.
expect 1 "partitions.txt: cannot read" --gpu "$G" -b 128 --partition 8
expect 1 "partitions.txt: cannot read" \
	--launches "$T/fixtures/traces/occcalc-trace.jsonl" --partition 8
mkfifo "$tmp/tables/partitions.txt"
expect 1 "partitions.txt: not a regular file" \
	--gpu "$G" -b 128 --partition 8
OCCCALC_TABLES=$tables

done_testing
