#!/bin/sh
# kernels-cluster.sh - --kernels and thread-block clusters: a kernel that
# declares its cluster (__cluster_dims__ in its binary, or Triton's
# num_ctas above 1) is computed as the cluster launch it always is, as
# --cluster computes it; --cluster gives the shape of the kernels that
# declare none, and a declared shape wins.
. "$T/lib.sh"
B=$T/fixtures/bin/sm_90a.cubin
C=$T/fixtures/triton-cache
CL=cluster,cluster_source,cluster_blocks_per_sm,max_active_clusters,cluster_occupancy_pct,cluster_limiter

run --kernels "$B" --kernel cluster_2x1 --gpu H200 -b 128 -f csv --fields blocks_per_sm,$CL
want=$("$OCCCALC" --gpu H200 -b 128 -r 8 --cluster 2 -f csv --fields blocks_per_sm,cluster,cluster_blocks_per_sm,max_active_clusters,cluster_occupancy_pct,cluster_limiter | tail -n 1)
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "16,2,__cluster_dims__,8,528,50.00,cluster_blocks_per_sm" ] &&
	[ "$want" = "16,2,8,528,50.00,cluster_blocks_per_sm" ]
ok $? "__cluster_dims__(2,1,1) on an H200: 8 cluster blocks per SM, 528 clusters, 50 %, as --cluster 2 computes"

run --kernels "$B" --kernel cluster_2x1 --gpu H200 -b 128
grep -q '^Lowest occupancy  50.00% sm_90a, 128 threads, clusters of 2: cluster_2x1x1(float\*)$' "$tmp/out" &&
	grep -q '^Clusters: 1 kernel declares its cluster (__cluster_dims__, or Triton.s num_ctas): its rows are that cluster launch\.$' "$tmp/out"
ok $? "the text table ranks the row by its cluster launch and says the kernel declares it"

run --kernels "$B" --kernel 'cluster_2x1|bounded_256' --gpu H200 -b 128 --cluster 4 -f csv --fields kernel,cluster,cluster_source
[ "$(sed 1d "$tmp/out" | sort | tr '\n' ';')" = '"bounded_256(float4 const*, float4*, int)",4,--cluster;cluster_2x1x1(float*),2,__cluster_dims__;' ]
ok $? "--cluster applies to kernels that declare none; a declared shape wins"
run --kernels "$B" --kernel 'cluster_2x1|bounded_256' --gpu H200 -b 128 --cluster 4
grep -q "their rows are that cluster launch, not --cluster's (a declared shape wins)" "$tmp/out" ||
	grep -q "its rows are that cluster launch, not --cluster's (a declared shape wins)" "$tmp/out"
ok $? "the report says the declared shape won over --cluster"

run --kernels "$B" --kernel cluster_2x1 --layout 8,16x5,18x2,2x4 -b 128 -f csv --fields $CL
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "2,__cluster_dims__,8,528,50.00,cluster_blocks_per_sm" ]
ok $? "--layout gives the layout for declared clusters, without --cluster"

run --kernels "$B" --kernel cluster -b 128 -f csv --fields kernel,blocks_per_sm,cluster
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | cut -d, -f2- | sort -u)" = "16," ] &&
	[ "$(cat "$tmp/err")" = "occcalc: warning: 2 kernels declare a cluster launch: give --gpu NAME or --layout LAYOUT to compute it (the rows are plain launches)" ]
ok $? "without a layout: plain rows, and a warning saying what to give"

expect 2 "--cluster: no kernel read is compiled for a GPU with thread-block clusters" \
	--kernels "$T/fixtures/bin/sm_80.cubin" --cluster 2 --layout 8,16x5,18x2,2x4

# --gpu LIST: each GPU computes the cluster launch with its own layout;
# one without clusters gives the plain row (or, here, no image).
run --kernels "$B" --kernel cluster_2x1 --gpu H100-SXM,H200,A100-SXM4-80GB -b 128 -f csv --fields gpu,blocks_per_sm,$CL
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | tr '\n' ';')" = "H100-SXM,16,2,__cluster_dims__,8,528,50.00,cluster_blocks_per_sm;H200,16,2,__cluster_dims__,8,528,50.00,cluster_blocks_per_sm;A100,,,,,,,;" ] &&
	[ ! -s "$tmp/err" ]
ok $? "--gpu LIST: a declared cluster is each Hopper GPU's cluster launch, with no warning"
run --kernels "$B" --kernel 'cluster_2x1|bounded_256' --gpu A100-SXM4-80GB,H200 -b 128
grep -q '^no image  *50.00% sm_90a, clusters of 2  cluster_2x1x1(float\*)$' "$tmp/out" &&
	grep -q '^no image  *75.00% sm_90a  *bounded_256' "$tmp/out"
ok $? "the GPU matrix shows a cluster launch's occupancy and says it is one"

# Blackwell: clusters of up to 8 (portable, documented); the cap of blocks
# per SM is not known, so the figures are upper bounds, as --cluster's.
B100=$T/fixtures/bin/sm_100a.cubin
run --kernels "$B100" --kernel cluster_2x1 --gpu B200 -b 128 -f csv --fields blocks_per_sm,$CL,cluster_bound
want=$("$OCCCALC" --gpu B200 -b 128 -r 8 --cluster 2 -f csv --fields blocks_per_sm,cluster,cluster_blocks_per_sm,max_active_clusters,cluster_occupancy_pct,cluster_limiter,cluster_bound | tail -n 1)
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "16,2,__cluster_dims__,16,1184,100.00,sm,true" ] &&
	[ "$want" = "16,2,16,1184,100.00,sm,true" ]
ok $? "__cluster_dims__(2,1,1) on a B200: the cluster launch's upper bound, as --cluster 2 computes it"
run --kernels "$B100" --kernel 'cluster_2x1|bounded_256' --gpu B200 -b 128 --cluster 4 -f csv --fields kernel,cluster,cluster_source,cluster_bound
[ "$status" -eq 0 ] && [ "$(sed 1d "$tmp/out" | sort | tr '\n' ';')" = '"bounded_256(float4 const*, float4*, int)",4,--cluster,true;cluster_2x1x1(float*),2,__cluster_dims__,true;' ]
ok $? "--cluster with sm_100 kernels: applies to those that declare none, as on sm_90"
expect 2 "--cluster: '9': 9 CTAs, more than the 8 portable on sm_100" \
	--kernels "$B100" --gpu B200 -b 128 --cluster 9

run --kernels "$C" --kernel matmul --gpu H200 -f csv --fields triton_entry,num_ctas,block,smem,cluster,cluster_source,cluster_blocks_per_sm,max_active_clusters
grep -q '^HNNSPME5OUHCNUL7KYUECQPJ3ZOGAYCKAV4CXJR32EGMIX6GIL5Q,4,128,49152,4,__cluster_dims__,4,124$' "$tmp/out" &&
	grep -q '^PSTVVKEXXSHIGF6SSIBJKGBWUQI3O5OPIO5KATW56SH2MGBQC3RQ,2,128,73728,2,__cluster_dims__,3,198$' "$tmp/out" &&
	grep -q '^F3422LBBB4H7BE4JAYVGIRHQ5BAPPU3N56X2KF5ERIJU5D5TX75Q,1,256,196608,,,,$' "$tmp/out"
ok $? "Triton matmuls with num_ctas 4 and 2 (their cubins record the cluster): cluster launches; num_ctas 1: plain"

# Metadata alone declaring the cluster: num_ctas 2 on a cubin without one.
mkdir -p "$tmp/c/e"
cp "$C/triton/5RDAK3LTLDJX6OAEZUIICWXXSYMSGOXUC7AAHJ4SWYX4LUBMQ2NA/add_kernel.cubin" "$tmp/c/e/"
sed 's/"num_ctas": 1/"num_ctas": 2/' "$C/triton/5RDAK3LTLDJX6OAEZUIICWXXSYMSGOXUC7AAHJ4SWYX4LUBMQ2NA/add_kernel.json" >"$tmp/c/e/add_kernel.json"
run --kernels "$tmp/c" --gpu H200 -f csv --fields num_ctas,block,cluster,cluster_source,cluster_size
[ "$(tail -n 1 "$tmp/out")" = "2,32,2,num_ctas,2" ]
ok $? "num_ctas 2 in Triton's metadata alone: a cluster launch of 2 CTAs along x"

done_testing
