#!/usr/bin/env bash
# campaign.sh - a randomized command-line campaign: every example command
# of the README and the man page, mutated (values swapped for hostile ones,
# options dropped, doubled, swapped or added, characters spliced in, files
# replaced by FIFOs, directories, devices and hostile reports), each run
# once with a timeout, and every outcome classified:
#   crash         a signal, or a sanitizer report on stderr
#   hang          still running at the timeout
#   wrong number  exit 0, and the output says what cannot be: an occupancy
#                 or percentage outside 0-100, a negative count, nan or inf
#   messy error   exit other than 0, 1 or 2; on failure, stderr not exactly
#                 one line starting "occcalc: "; "internal error" anywhere
# and otherwise a clean result, a clean error, or output beyond 4 MiB (a
# sweep as long as it was asked to be; the run is cut there). Prints the counts; exits 1
# if any run was a crash, a hang, a wrong number or a messy error.
#
# usage: t/campaign.sh [OCCCALC]   (default $OCCCALC: build it with
#        configure --enable-sanitizers). Environment: RUNS (2000), SEED (1),
#        TIMEOUT (10 s a run), MAX_SECONDS (stop starting runs after it;
#        default none), FINDINGS (a directory to keep each finding's
#        command and output in), OCCCALC_TABLES (the tables).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
occcalc=${1:-${OCCCALC:?give the occcalc binary}}
case $occcalc in /*) ;; *) occcalc=$PWD/$occcalc ;; esac
if ! "$occcalc" --help >/dev/null 2>&1; then
	echo "campaign: $occcalc does not run" >&2
	exit 1
fi
runs=${RUNS:-2000} seed=${SEED:-1} timeout=${TIMEOUT:-10}
max_seconds=${MAX_SECONDS:-0}
tables=${OCCCALC_TABLES:-$top/data/arch-tables}
# Sanitizers report and stop at the first problem; leaks count too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-campaign.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
findings=${FINDINGS:-$work/findings}
mkdir -p "$findings" "$work/run"

# ---- The examples: every command line the documentation shows ----

# Lines holding "occcalc -", from "occcalc" on, without a "# comment" or
# what a pipe feeds on; the README's quick start included. Not --trace's:
# it runs the command after '--', whose messages and status are its own
# (fuzz cli leaves it out too).
examples() {
	sed -n 's/^\$ //; /occcalc -/p' "$top/README.md" "$top/man/occcalc.1" |
		sed 's/.*occcalc -/occcalc -/; s/ #.*//; s/ |.*//; s/\\.*//' |
		sed 's/[[:space:]]*$//' | grep -v -- '--trace' | sort -u
}

mapfile -t base < <(examples)
if [ "${#base[@]}" -lt 10 ]; then
	echo "campaign: only ${#base[@]} examples found in the README and" \
		"the man page" >&2
	exit 1
fi

# Every long option --help lists, to add where it was not.
mapfile -t options < <("$occcalc" --help all 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' |
	grep -vx -- '--trace' | sort -u)

# ---- Hostile inputs ----

# Copies only: a mutated command may write (--plot) to any path it names.
f=$work/fixtures
cp -R "$top/t/fixtures" "$f"
cp -R "$tables" "$work/tables"
export OCCCALC_TABLES=$work/tables
mkfifo "$work/fifo.arch" "$work/fifo"
mkdir "$work/dir" "$work/fifo-tables"
cp "$tables"/* "$work/fifo-tables/"
mkfifo "$work/fifo-tables/sm_99.arch"
long=$(head -c 5000 /dev/zero | tr '\0' 7)
sed 's/Used 22 registers/Used 4294967336 registers/' "$f/ptxas-sm90.txt" \
	>"$work/regs-2e32.txt"
sed 's/used 1 barriers/used 4294967296 barriers/' "$f/ptxas-sm90.txt" \
	>"$work/barriers-2e32.txt"
sed 's/ 4096 bytes smem/ -40 bytes smem/' "$f/ptxas-sm90.txt" >"$work/smem-minus.txt"
sed 's/REG:22/REG:-22/' "$f/cuobjdump-sm90.txt" >"$work/reg-minus.txt"
sed 's/SHARED:1024/SHARED:281474976710656/' "$f/cuobjdump-sm90.txt" \
	>"$work/shared-2e48.txt"
{ head -n 4 "$f/ptxas-sm90.txt"; echo "$long$long"; } >"$work/long-line.txt"
files=("$f/ptxas-sm90.txt" "$f/ptxas-multi.txt" "$f/cuobjdump-sm90.txt"
	"$f/cuobjdump-multi.txt" "$f/ptxas-sm80-maxrreg24.txt" /dev/null
	/dev/zero "$work/fifo" "$work/dir" "$work/absent" "$work/regs-2e32.txt"
	"$work/barriers-2e32.txt" "$work/smem-minus.txt" "$work/reg-minus.txt"
	"$work/shared-2e48.txt" "$work/long-line.txt" -)
dirs=("$work/fifo-tables" "$work/dir" "$work/absent" "$f" /dev/null)

values=(0 1 -1 +1 31 32 33 64 255 256 257 1023 1024 1025 65536 2147483647
	2147483648 4294967295 4294967296 4294967336 281474976710655
	281474976710656 18446744073709551615 18446744073709551616
	99999999999999999999999 1K 48K 227K 228K 1M 4095M 4096M 17592186044416M
	1e3 0x10 1.5 nan inf "" " " abc sm_90 sm_999 sm_90a 9.0 10.0 0.0 1:0
	0:10:0 1:1024:1 32:1024:32 0:4294967295 0:18446744073709551615 1,2,,3
	, : 100 101 50 json csv text H100-SXM RTX4090 h100 "$long"
	"$(printf '12\n3')" "$(printf 'a\tb')" 24M 50M:32768000:128M 0:0:0
	1M:2M:1M 300000000000000:1M:1M 50M:32M:18446744073709551615 load store)

splices=("," ":" "-" "K" $'\n' "0" "9" "%" $'\t' " ")

# Values an option takes, for mutations that keep a command valid and so
# reach the output checks (a hostile value mostly ends in a clean error).
valid=(1 16 31 32 33 64 96 100 128 192 255 256 257 384 512 640 768 1000
	1023 1024 16x16 8x8x4 32x4 0 2 4 8 40 48K 99K 100K 164K 227K 228K
	0:64K:4K 32:1024:32 64,128,256 1:1024:33 0:255:17 sm_50 sm_75 sm_80
	sm_86 sm_89 sm_90 sm_120 8.0 9.0 90 75 2000 132 82 1M 24M 100M
	50M:32M:128M 40M:30M:100M 6M:4M:4M 50 default csv json jsonl text
	load store load,store)

# ---- Mutation, from one seeded generator ----

# pick N: sets r to a number below N. A generator of its own, called
# without a subshell: bash reseeds RANDOM in every subshell.
rng=$seed
pick() {
	rng=$(( (rng * 1103515245 + 12345) % 2147483648 ))
	r=$(( $1 > 0 ? (rng >> 8) % $1 : 0 ))
}

# one_of ARRAY: sets w to one of its elements.
one_of() {
	local -n arr=$1
	pick ${#arr[@]}
	w=${arr[r]}
}

# mutate: one to three changes to the words in cmd[]; in every other
# run only values swapped for ones the options take (gentle), so that
# half the runs mostly print results for the output checks to judge.
mutate() {
	local k n i j w gentle
	pick 2
	gentle=$r
	pick 3
	n=$r
	for k in $(seq 0 "$n"); do
		pick ${#cmd[@]}
		i=$r
		pick 12
		[ "$gentle" -eq 0 ] || r=$((8 + r % 4))
		case $r in
		8|9|10|11)
		   # An option's value swapped for one it takes.
		   pick ${#cmd[@]}
		   i=$r
		   if [ "$i" -gt 0 ] && [ "${cmd[i-1]:0:1}" = - ] &&
		      [ "${cmd[i]:0:1}" != - ]; then
			one_of valid; cmd[i]=$w
		   fi ;;
		0|1) one_of values; cmd[i]=$w ;;
		2) unset 'cmd[i]'; cmd=("${cmd[@]}") ;;
		3) cmd=("${cmd[@]:0:i}" "${cmd[i]:-}" "${cmd[@]:i}") ;;
		4) one_of options; cmd+=("$w")
		   # A value, or none: the option may be a flag.
		   pick 2
		   [ "$r" -eq 0 ] || { one_of values; cmd+=("$w"); } ;;
		5) pick ${#cmd[@]}; j=$r; w=${cmd[i]:-}
		   cmd[i]=${cmd[j]:-}; cmd[j]=$w ;;
		6) w=${cmd[i]:-}; pick $(( ${#w} + 1 )); j=$r
		   local word=$w
		   one_of splices
		   cmd[i]=${word:0:j}$w${word:j} ;;
		7) pick 3
		   case $r in
		   0) one_of files; cmd+=(--ptxas "$w") ;;
		   1) one_of dirs; cmd+=(--tables "$w") ;;
		   2) one_of files; cmd+=(--plot "$w") ;;
		   esac ;;
		esac
	done
}

# ---- Judging one run ----

# verdict STATUS: one of ok, error, crash, hang, wrong, messy.
verdict() {
	local st=$1 out=$work/out err=$work/err lines
	if [ "$st" -eq 124 ]; then
		echo hang; return
	fi
	if [ "$st" -ge 128 ] ||
	   grep -qE 'Sanitizer|runtime error:|AddressSanitizer' "$err"; then
		echo crash; return
	fi
	if grep -q 'internal error' "$err" || [ "$st" -gt 2 ]; then
		echo messy; return
	fi
	if [ "$st" -ne 0 ]; then
		lines=$(wc -l <"$err")
		if [ "$lines" -eq 1 ] && [ "$(head -c 9 "$err")" = "occcalc: " ]; then
			echo error
		else
			echo messy
		fi
		return
	fi
	# Exit 0: warnings only on stderr, and numbers that can be.
	if grep -qv '^occcalc: ' "$err"; then
		echo messy; return
	fi
	if grep -qiE '(^|[^a-z])(nan|inf)([^a-z]|$)' "$out" ||
	   signed_echoes_out "$out" | grep -qE '(^|[ ,:\[(])-[0-9]' ||
	   grep -oE '[0-9]+(\.[0-9]+)? ?%' "$out" |
		awk '{ sub(/ ?%/, ""); if ($0 + 0 > 100) bad = 1 } END { exit !bad }'
	then
		echo wrong; return
	fi
	echo ok
}

# The output without what may be negative by design: a --stride (either
# sign: its column in a table, CSV or JSON, "stride -1" in a report) and
# --traffic's text echoed back (x[i-1], inside brackets).
signed_echoes_out() {
	sed -E 's/\[[^]["]*\]//g; s/stride -/stride /g; s/"stride":-/"stride":/g' "$1" |
		awk 'NR == 1 { csv = index($0, ",") > 0; if (csv) FS = ","
			   n = split($0, h, csv ? "," : " +")
			   for (i = 1; i <= n; i++) if (h[i] == "stride") col = i }
		     col && NR > 1 { if (csv) $col = ""; else sub(/ -[0-9]+/, " ") }
		     { print }'
}

cap_kib=4096
declare -A count=([ok]=0 [long]=0 [error]=0 [crash]=0 [hang]=0 [wrong]=0 [messy]=0)
start=$SECONDS
n=0
while [ "$n" -lt "$runs" ]; do
	if [ "$max_seconds" -gt 0 ] && [ $((SECONDS - start)) -ge "$max_seconds" ]; then
		echo "campaign: stopped at the time limit of $max_seconds s"
		break
	fi
	read -r -a cmd <<<"${base[$((n % ${#base[@]}))]}"
	cmd=("${cmd[@]:1}")   # the words after "occcalc"
	# The first pass runs the examples as written.
	[ "$n" -lt "${#base[@]}" ] || mutate
	# A sweep as long as asked for is an answer, not a hang: output
	# reaching the cap ends the run (SIGXFSZ), and it counts as long.
	(cd "$work/run" && ulimit -f "$cap_kib" &&
		exec timeout -k 2 "$timeout" "$occcalc" "${cmd[@]}" \
		<"$f/ptxas-sm90.txt" >"$work/out" 2>"$work/err")
	st=$?
	if [ "$(wc -c <"$work/out")" -ge $((cap_kib * 1024)) ]; then
		v=long
	else
		v=$(verdict "$st")
	fi
	count[$v]=$((count[$v] + 1))
	case $v in
	ok|long|error) ;;
	*)
		d=$findings/$v-$n
		mkdir -p "$d"
		printf '%q ' occcalc "${cmd[@]}" >"$d/command"
		echo "exit $st" >>"$d/command"
		cp "$work/out" "$d/stdout"
		cp "$work/err" "$d/stderr"
		echo "campaign: $v: $(cat "$d/command")"
		head -n 3 "$work/err" | sed 's/^/    /'
		;;
	esac
	n=$((n + 1))
done

bad=$((count[crash] + count[hang] + count[wrong] + count[messy]))
echo "campaign: $n runs of ${#base[@]} examples (seed $seed) in" \
	"$((SECONDS - start)) s: ${count[ok]} results, ${count[long]} output" \
	"beyond $((cap_kib / 1024)) MiB, ${count[error]} clean" \
	"errors; crashes ${count[crash]}, hangs ${count[hang]}, wrong numbers" \
	"${count[wrong]}, messy errors ${count[messy]}"
[ "$bad" -eq 0 ]
