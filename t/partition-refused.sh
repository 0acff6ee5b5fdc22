#!/bin/sh
# partition-refused.sh - issue 38's wrong number: clusters in a part of the
# GPU (a green context) of a size the runtime refuses there. Measured on an
# H200 (docs/partition.md): every launch of a size
# cudaOccupancyMaxActiveClusters answers 0 for in the part was refused
# (cudaErrorInvalidClusterSize), even where the part's GPCs have the SMs;
# where the runtime counts clusters, they ran as occcalc counts them.
# t/partition.sh checks the rule over every committed runtime answer; these
# are the cases the issue names, at one block per SM (115,968 B of dynamic
# shared memory, as the measurement launched).
. "$T/lib.sh"

one="--gpu H200 -b 128 -r 32 --smem 115968"
f=max_active_clusters,cluster_reason,cluster_potential_size_nonportable
rows() { tr '\n' ' ' <"$tmp/out" | sed 's/ $//'; }

# The 72-SM group of --partition 66: GPCs 16,8x7 as clusters run, 8x9 as
# the runtime counts them; before, clusters of 9-16 got 1 each, and the
# potential size was 16.
run $one --partition 66 --cluster 2:16 -f csv,noheader --fields max_active_clusters
[ "$status" -eq 0 ] && [ "$(rows)" = "36 19 18 10 9 9 9 0 0 0 0 0 0 0 0" ]
ok $? "--partition 66 (72 SMs, GPCs 16,8x7): clusters of 2-8 as the hardware holds them, none of 9-16"
run $one --partition 66 --cluster 8,10,16 -f csv,noheader --fields "$f,partition_api_max_active_clusters"
[ "$(rows)" = "9,,8,9 0,runtime_refuses_in_part,8,0 0,runtime_refuses_in_part,8,0" ]
ok $? "--partition 66: clusters of 10 and 16 refused (runtime_refuses_in_part), the potential non-portable size 8, the runtime's"
run $one --partition 66 --cluster 1 -f csv,noheader --fields cluster_potential_size,cluster_potential_size_nonportable,cluster_best_size
[ "$(rows)" = "8,8,8" ]
ok $? "--partition 66: the potential and best sizes are 8, the largest that launches"

# The 16-SM groups of --partition 16: groups 2-7 are GPCs 10,4,2 (the
# runtime: 8,4,2x2), groups 0 and 1 8,4,2x2.
bad=
for g in 2 3 4 5 6 7; do
	run $one --partition 16 --partition-part group:$g --cluster 8,10 -f csv,noheader --fields "$f"
	[ "$(rows)" = "1,,8 0,runtime_refuses_in_part,8" ] || bad="$bad $g"
done
[ -z "$bad" ]
ok $? "--partition 16, groups 2-7 (GPCs 10,4,2): one cluster of 8, clusters of 10 refused, potential 8${bad:+ (wrong:$bad)}"
run $one --partition 16 --partition-part group:0 --cluster 10 -f csv,noheader --fields "$f"
[ "$(rows)" = "0,cluster_larger_than_gpcs,8" ]
ok $? "--partition 16, group 0 (GPCs 8,4,2x2): no GPC has 10 SMs"

# --partition 66 --partition-flags ignore-coscheduling: two groups of 66,
# GPC pieces of up to 14 SMs, which the runtime counts as 6x4,4,2x19.
for g in 0 1; do
	run $one --partition 66 --partition-flags ignore-coscheduling \
		--partition-part group:$g --cluster 6:16 -f csv,noheader --fields "$f"
	printf '%s\n' "$(rows)"
done >"$tmp/ic"
r=0,runtime_refuses_in_part,6
l=0,cluster_larger_than_gpcs,6
[ "$(sed -n 1p "$tmp/ic")" = "7,,6 $r $r $r $r $r $r $r $r $l $l" ] &&
	[ "$(sed -n 2p "$tmp/ic")" = "8,,6 $r $r $r $r $r $r $r $r $l $l" ]
ok $? "ignore-coscheduling, minCount 66, groups 0 and 1: clusters of 7-14 refused, 15-16 larger than any GPC, potential 6"

# The report says why.
run $one --partition 66 --cluster 12
grep -q "Limited by            runtime_refuses_in_part" "$tmp/out" &&
	grep -q "the runtime refuses the launch" "$tmp/out"
ok $? "the text report: limited by runtime_refuses_in_part, and why"

# --launches --partition: a traced cluster launch as if it ran in the part.
TR=$T/fixtures/traces/occcalc-trace.jsonl
run --launches "$TR" --kernel 2x4_h_bz_NNT --partition 66 --partition-flags ignore-coscheduling \
	-f csv,noheader --fields cluster_size,max_active_clusters,cluster_reason,waves
[ "$status" -eq 0 ] && [ "$(rows)" = "8,0,runtime_refuses_in_part, 8,0,runtime_refuses_in_part, 8,0,runtime_refuses_in_part," ]
ok $? "--launches --partition: clusters of 8 in a 66-SM ignore-coscheduling group are refused, no waves"
run --launches "$TR" --kernel 2x4_h_bz_NNT --partition 66 \
	-f csv,noheader --fields cluster_size,max_active_clusters,cluster_reason,waves
[ "$(rows)" = "8,9,,2 8,9,,2 8,9,,2" ]
ok $? "--launches --partition 66: clusters of 8 run, 9 at once, as before"

# Where the part's runtime layout is not measured, the figures are bounds:
# no refusal is guessed.
run --gpu H100-PCIe -b 128 --partition 8 --cluster 8 -f csv,noheader \
	--fields max_active_clusters,cluster_reason,cluster_bound,partition_bound
[ "$(rows)" = "8,,true,true" ]
ok $? "a part whose layouts are not measured: an upper bound, no refusal assumed"

done_testing
