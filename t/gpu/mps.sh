#!/bin/sh
# mps.sh OUTDIR - the SMs an MPS client has, measured (docs/mps.md): a
# private MPS control daemon (its own pipe and log directories, the GPU's
# settings untouched), then for each active-thread percentage a client
# runs t/gpu/mps.cu (what the runtime reports, how many SMs its kernels
# really ran on and at once, the occupancy API's cluster answers) and
# occcalc's live device path (--list-devices, the report of a big grid,
# --api --cluster beside the model). Then the daemon's default percentage
# (set_default_active_thread_percentage) on a fresh server, with and
# without the client's own. The daemon is always told to quit.
# Environment as make check-gpu sets it: OCCCALC, NVCC; T is this
# script's t/. Run as the GPU's only user: an MPS server takes the GPU.
set -u
out=$1
T=${T:-$(cd "$(dirname "$0")/.." && pwd)}
mkdir -p "$out" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-mps.XXXXXX") || exit 1
ctl=$(command -v nvidia-cuda-mps-control || echo /usr/local/nvidia/bin/nvidia-cuda-mps-control)
[ -x "$ctl" ] || { echo "mps: no nvidia-cuda-mps-control: skipped"; exit 0; }

"$NVCC" -std=c++17 -O2 -arch=sm_90 -o "$tmp/mps" "$T/gpu/mps.cu" -lcuda ||
	exit 1
echo "label,attr_sms,prop_sms,affinity_sms,distinct_sms,peak_blocks,blocks_per_sm_128t,clusters_1,clusters_2,clusters_4,clusters_8,clusters_16,potential_nonportable,env_pct,error" >"$out/mps.csv"
fields=cluster,max_active_clusters,api_max_active_clusters,cluster_agrees

# One client: LABEL [PCT]; PCT empty: none set in its environment.
client() {
	label=$1 pct=${2:-}
	if [ -n "$pct" ]; then
		export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$pct
	else
		unset CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
	fi
	"$tmp/mps" "$label" >>"$out/mps.csv" 2>>"$out/mps.err"
	{
		echo "## $label (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=${pct:-unset})"
		"$OCCCALC" --list-devices -f csv \
			--fields device,multiProcessorCount,sm_limit,mps_active_thread_percentage 2>&1
		"$OCCCALC" -b 128 -r 32 --grid 1000000 2>&1 | grep -E -i 'wave|SMs|MPS|occcalc:'
		"$OCCCALC" --api -b 128 -r 32 --cluster 1,2,4,8,16 -f csv \
			--fields "$fields" 2>&1
	} >>"$out/occcalc.txt"
}

: >"$out/occcalc.txt"
client no-mps
export CUDA_MPS_PIPE_DIRECTORY="$tmp/pipe" CUDA_MPS_LOG_DIRECTORY="$tmp/log"
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
trap 'echo quit | "$ctl" >/dev/null 2>&1; sleep 1; cp "$tmp"/log/* "$out"/ 2>/dev/null; rm -rf "$tmp"' EXIT
"$ctl" -d || { echo "mps: the control daemon did not start"; exit 1; }
sleep 1
for pct in "" 100 75 50 34 33 25 20 10 5 2 1; do
	client "mps-env-${pct:-unset}" "$pct"
done
# The daemon's default, on a server started after it is set.
for pid in $(echo get_server_list | "$ctl"); do
	echo "shutdown_server $pid" | "$ctl"
done
sleep 2
echo set_default_active_thread_percentage 50 | "$ctl"
for pct in "" 25 100; do
	client "mps-default50-env-${pct:-unset}" "$pct"
done
echo get_default_active_thread_percentage | "$ctl" >"$out/default.txt" 2>&1
cat "$out/mps.csv"
exit 0
