#!/bin/sh
# mps.sh OUTDIR - make gpu-check-mps: the SMs an MPS client has, measured
# (docs/mps.md), and occcalc's live device path beside them. A private
# MPS control daemon (its own pipe and log directories; no GPU setting is
# changed), then for each active-thread percentage a client runs
# t/gpu/mps.cu (what the runtime reports, how many SMs its kernels really
# ran on and at once, the occupancy API's cluster answers) and occcalc:
# --list-devices (the SMs, sm_limit), a big grid's waves, --api --cluster.
# Then the daemon's default percentage (set_default_active_thread_percentage)
# on a fresh server, with and without the client's own. The daemon is
# always told to quit. It fails where occcalc's SMs are not the SMs the
# kernels ran on, its sm_limit is not the limit that applied, a cluster
# figure is below the runtime's answer, or the SMs are not occ_mps_sms's
# (t/mps.c holds the H100's).
# Environment as make check-gpu sets it: OCCCALC, NVCC; T is this
# script's t/. Skipped where an MPS daemon of the default pipe directory
# runs (a server of another user holds the GPU).
set -u
out=$1
T=${T:-$(cd "$(dirname "$0")/.." && pwd)}
mkdir -p "$out" || exit 1
ctl=$(command -v nvidia-cuda-mps-control || echo /usr/local/nvidia/bin/nvidia-cuda-mps-control)
[ -x "$ctl" ] || { echo "mps: no nvidia-cuda-mps-control: skipped"; exit 0; }
[ -e /tmp/nvidia-mps/control ] && { echo "mps: an MPS daemon runs: skipped"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-mps.XXXXXX") || exit 1

"$NVCC" -std=c++17 -O2 -arch=sm_90 -o "$tmp/mps" "$T/gpu/mps.cu" -lcuda ||
	exit 1
echo "label,attr_sms,prop_sms,affinity_sms,distinct_sms,peak_blocks,blocks_per_sm_128t,clusters_1,clusters_2,clusters_4,clusters_8,clusters_16,potential_nonportable,env_pct,error,ck_blocks_per_sm,ck_api_2,ck_peak_2,ck_api_4,ck_peak_4,ck_api_8,ck_peak_8,ck_api_16,ck_peak_16" >"$out/mps.csv"
echo "label,expected_sm_limit,multiProcessorCount,sm_limit,gpu_sms,mps_active_thread_percentage" >"$out/devices.csv"
echo "label,waves,tail_blocks" >"$out/waves.csv"
cfields=cluster,max_active_clusters,api_max_active_clusters,cluster_agrees,cluster_bound,layout
echo "label,$cfields" >"$out/clusters.csv"
: >"$out/occcalc.err"

# One client: LABEL EXPECTED_SM_LIMIT [PCT]; PCT empty: none in its
# environment. Each line of occcalc's CSV gets the label in front.
client() {
	label=$1 want=$2 pct=${3:-}
	if [ -n "$pct" ]; then
		export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$pct
	else
		unset CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
	fi
	"$tmp/mps" "$label" >>"$out/mps.csv" 2>>"$out/occcalc.err"
	echo "## $label" >>"$out/occcalc.err"
	"$OCCCALC" --list-devices -f csv,noheader --fields \
		multiProcessorCount,sm_limit,gpu_sms,mps_active_thread_percentage \
		2>>"$out/occcalc.err" | sed "s/^/$label,$want,/" >>"$out/devices.csv"
	"$OCCCALC" -b 128 -r 32 --grid 1000000 -f csv,noheader \
		--fields waves,tail_blocks 2>>"$out/occcalc.err" |
		sed "s/^/$label,/" >>"$out/waves.csv"
	"$OCCCALC" --api -b 128 -r 32 --cluster 1,2,4,8,16 -f csv,noheader \
		--fields "$cfields" 2>>"$out/occcalc.err" |
		sed "s/^/$label,/" >>"$out/clusters.csv"
}

client no-mps none
export CUDA_MPS_PIPE_DIRECTORY="$tmp/pipe" CUDA_MPS_LOG_DIRECTORY="$tmp/log"
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
trap 'echo quit | "$ctl" >/dev/null 2>&1; sleep 1; cp "$tmp"/log/control.log "$tmp"/log/server.log "$out"/ 2>/dev/null; rm -rf "$tmp"' EXIT
"$ctl" -d || { echo "mps: the control daemon did not start"; exit 1; }
sleep 1
client mps-env-unset mps
client mps-env-100 mps 100
for pct in 75 50 34 33 25 20 10 5 2 1; do
	client "mps-env-$pct" mps_percentage "$pct"
done
# The daemon's default applies to a server started after it is set.
for pid in $(echo get_server_list | "$ctl"); do
	echo "shutdown_server $pid" | "$ctl" >/dev/null
done
sleep 2
echo set_default_active_thread_percentage 50 | "$ctl" >/dev/null
client mps-default50-env-unset mps_server
client mps-default50-env-25 mps_percentage 25
client mps-default50-env-100 mps_server 100

# The checks.
fail=0
bad=$(awk -F, 'NR == FNR { if (FNR > 1) sms[$1] = $2 " " $5 " " $6; next }
	FNR > 1 { split(sms[$1], m, " ");
		  want = $3
		  if ($4 == "mps_percentage" && $5 != "") {
			want = int($6 * $5 / 200) * 2     # occ_mps_sms
			if (want < 8) want = 8
		  }
		  if (!($3 == m[1] && $3 == m[2] && $3 == m[3] && $4 == $2 &&
			$3 == want))
			print $1 }' "$out/mps.csv" "$out/devices.csv")
[ -z "$bad" ] || { echo "mps: occcalc's SMs or sm_limit differ:" $bad; fail=1; }
below=$(awk -F, 'NR > 1 && $5 != "true" { print $1 "/" $2 }' "$out/clusters.csv")
[ -z "$below" ] || { echo "mps: cluster figures the runtime disagrees with:" $below; fail=1; }
rows=$(($(wc -l <"$out/devices.csv") - 1))
[ "$rows" -eq 16 ] || { echo "mps: $rows clients of 16 reported"; fail=1; }
echo "mps: $rows clients: occcalc's SMs and sm_limit $([ -z "$bad" ] && echo agree || echo DISAGREE); clusters $([ -z "$below" ] && echo within the model || echo ABOVE the model)"
exit $fail
