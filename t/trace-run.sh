#!/bin/sh
# trace-run.sh - occcalc --trace's runner, without a GPU: a command that
# stands in for a traced program (it writes where the injection library
# would, OCCCALC_TRACE_OUT), its exit status, signals, where the files go
# and which are read, and the one-line errors. The library itself is
# tested on a GPU (make check-gpu: t/gpu/trace_check.py).
. "$T/lib.sh"

# The runner only names the library to the driver: any file will do.
OCCCALC_TRACE_LIB="$tmp/occtrace.so"
: >"$OCCCALC_TRACE_LIB"
export OCCCALC_TRACE_LIB

# A stand-in for one process's trace: the real trace's header, device and
# first launch (a fill kernel on an H100), and an end; 'writes0' writes
# no launch. It writes where the injection library would, under the
# run's id (OCCCALC_TRACE_RUN, docs/trace-format.md): in a directory
# occcalc-trace.RUN.PID.jsonl, beside FILE the first process FILE.RUN and
# the others FILE.RUN.PID; the id in the header too.
real="$T/fixtures/traces/occcalc-trace.jsonl"
for w in writes writes0; do
	lines=3
	[ "$w" = writes0 ] && lines=2
	cat >"$tmp/$w" <<EOS
#!/bin/sh
# $w [FILE]: a trace to FILE, else where the library would write
out=\${1:-\$OCCCALC_TRACE_OUT} run=\$OCCCALC_TRACE_RUN
if [ -d "\$out" ]; then
	out="\$out/occcalc-trace.\$run.\$\$.jsonl"
elif [ -z "\$1" ]; then
	if (set -C; : >"\$out.\$run") 2>/dev/null; then out="\$out.\$run"
	else out="\$out.\$run.\$\$"; fi
fi
{ head -n 1 "$real" | sed "s/\"version\":1,/&\"run\":\"\$run\",/"
  sed -n "2,${lines}p" "$real"
  echo '{"type":"end","launches":$((lines - 2)),"dropped":0}'; } >"\$out"
EOS
	chmod +x "$tmp/$w"
done

run --trace -- sh -c 'exit 3'
[ "$status" -eq 3 ] && one_error_line "--trace: 'sh' wrote no trace: it never started CUDA"
ok $? "the command's exit status is occcalc's; no trace written is one line"

run --trace -- true
[ "$status" -eq 1 ] && one_error_line "wrote no trace"
ok $? "a command that succeeds but traces nothing fails the run"

expect 127 "--trace: cannot run 'no-such-command-here': No such file or directory" \
	--trace -- no-such-command-here
: >"$tmp/writes.txt"
expect 126 "--trace: cannot run '$tmp/writes.txt': Permission denied" \
	--trace -- "$tmp/writes.txt"

run --trace -- sh -c 'kill -TERM $$'
[ "$status" -eq 143 ] && grep -qF "'sh' was killed by signal 15" "$tmp/err"
ok $? "a command killed by SIGTERM: 128 + 15, said in a line"

expect 2 "--trace runs the command given after '--'" --trace sh -c true
expect 2 "--trace: no command after '--'" --trace --
expect 2 "unexpected argument 'sh' before '--'" --trace sh -- true
expect 2 "--trace-out does not apply to an occupancy calculation" \
	--trace-out "$tmp/x" --block 128 --arch sm_90
expect 2 "--trace-out: an empty path" --trace --trace-out '' -- true

run --trace -- sh -c 'printf "%s|" "$@"' sh --help -f csv --trace
[ "$status" -eq 1 ] && [ "$(cat "$tmp/out")" = "--help|-f|csv|--trace|" ]
ok $? "the command's arguments after -- are its own, not occcalc's"

run --trace -- sh -c 'echo "$CUDA_INJECTION64_PATH"; echo "$OCCCALC_TRACE_OUT"'
lib=$(cd "$tmp" && pwd -P)/occtrace.so
[ "$(sed -n 1p "$tmp/out")" = "$lib" ] &&
	sed -n 2p "$tmp/out" | grep -q '^/.*/occcalc-trace\.[A-Za-z0-9]*$'
ok $? "the command gets CUDA_INJECTION64_PATH and an absolute OCCCALC_TRACE_OUT"
outdir=$(sed -n 2p "$tmp/out")
[ ! -e "$outdir" ]
ok $? "without --trace-out, the temporary directory is removed after the run"

# --trace-out FILE: the first process writes FILE, the others FILE.PID
# (renamed to those names once the command has exited); an older FILE is
# replaced, an older FILE.PID is not read.
echo stale >"$tmp/t.jsonl"
echo stale >"$tmp/t.jsonl.1"
(cd "$tmp" && "$OCCCALC" --trace --trace-out t.jsonl -- sh -c \
	'"$0" && "$0" "$OCCCALC_TRACE_OUT.$OCCCALC_TRACE_RUN.42"' "$tmp/writes" \
	>"$tmp/out" 2>"$tmp/err")
status=$?
[ "$status" -eq 0 ] && grep -q '"pid"' "$tmp/t.jsonl" &&
	grep -q '"pid"' "$tmp/t.jsonl.42" && grep -q stale "$tmp/t.jsonl.1" &&
	[ "$(ls "$tmp" | grep -c '^t\.jsonl')" -eq 3 ]
ok $? "--trace-out FILE: FILE and FILE.PID written, an older FILE.PID left"
head -1 "$tmp/out" | grep -q '^2 launches of 1 kernel in 2 files'
ok $? "--trace: the summary of the launches of both files follows the command"
(cd "$tmp" && "$OCCCALC" --trace --trace-out t.jsonl -f csv --fields file,grid -- \
	sh -c '"$0" && "$0" "$OCCCALC_TRACE_OUT.$OCCCALC_TRACE_RUN.42"' "$tmp/writes" \
	>"$tmp/out" 2>"$tmp/err")
[ "$(sed 's|^[^,]*/||' "$tmp/out" | tr '\n' ' ')" = \
	'file,grid t.jsonl,1 1 1 t.jsonl.42,1 1 1 ' ]
ok $? "--trace -f csv: a row per launch, from this run's files, FILE first"

# --trace-out FILE keeps the older FILE until a new trace replaces it.
cp "$tmp/t.jsonl" "$tmp/keep"
run --trace --trace-out "$tmp/t.jsonl" -- no-such-command-here
[ "$status" -eq 127 ] && cmp -s "$tmp/keep" "$tmp/t.jsonl"
ok $? "--trace-out FILE: a command that cannot run leaves the older FILE"
run --trace --trace-out "$tmp/t.jsonl" -- true
[ "$status" -eq 1 ] && cmp -s "$tmp/keep" "$tmp/t.jsonl" &&
	[ "$(ls "$tmp" | grep -c '^t\.jsonl')" -eq 3 ]
ok $? "--trace-out FILE: a command that traces nothing leaves the older FILE"

# --trace-out DIR/: made, and only this run's files read.
mkdir -p "$tmp/d"
echo old >"$tmp/d/occcalc-trace.7.jsonl"
run --trace --trace-out "$tmp/d/" -f csv --fields file -- \
	sh -c '"$0"; "$0"' "$tmp/writes"
[ "$status" -eq 0 ] && [ "$(grep -c 'occcalc-trace\.[0-9a-f]*\.[0-9]*\.jsonl' "$tmp/out")" -eq 2 ] &&
	! grep -q 'trace\.7\.jsonl' "$tmp/out"
ok $? "--trace-out DIR: this run's two files, not an older one"
run --trace --trace-out "$tmp/new/" -- "$tmp/writes"
[ "$status" -eq 0 ] && [ -d "$tmp/new" ] && [ "$(ls "$tmp/new" | wc -l)" -eq 1 ]
ok $? "--trace-out DIR/: the directory is made"

# Files are this run's by the directory made for it: a file its command
# writes under a name without the run's id (a stand-in, an older
# library) is read, and takes the id in DIR; one whose header names
# another run is not.
run --trace --trace-out "$tmp/d/" -f csv --fields file -- sh -c \
	'"$0" "$OCCCALC_TRACE_OUT/occcalc-trace.$$.jsonl"' "$tmp/writes"
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] &&
	grep -q "^$tmp/d/occcalc-trace\.[0-9a-f]\{16\}\.[0-9]*\.jsonl$" "$tmp/out" &&
	[ -f "$(sed -n 2p "$tmp/out")" ]
ok $? "a file without the run's id in its name is read, and named with it in DIR"
run --trace --trace-out "$tmp/d/" -- sh -c \
	'OCCCALC_TRACE_RUN=other "$0" "$OCCCALC_TRACE_OUT/occcalc-trace.$OCCCALC_TRACE_RUN.1.jsonl"' "$tmp/writes"
[ "$status" -eq 1 ] && grep -q "its header names another run: not read" "$tmp/err" &&
	grep -q "wrote no trace" "$tmp/err"
ok $? "a file whose header names another run is not read"

# The stand-ins of ../shared/repro/hostile-5 (04, 05): a file written
# into OCCCALC_TRACE_OUT under a name of its own. Two runs into one
# directory each read their own; a run right after another that traces
# nothing reads none.
mkdir -p "$tmp/shared"
for r in A B; do
	"$OCCCALC" --trace --trace-out "$tmp/shared/" -- sh -c \
		'sleep 0.3; cp "$0" "$OCCCALC_TRACE_OUT/occcalc-trace.$$.jsonl"; sleep 0.3' \
		"$real" >"$tmp/run$r" 2>&1 &
done
wait
grep -q "^142 launches of 72 kernels in 1 file" "$tmp/runA" &&
	grep -q "^142 launches of 72 kernels in 1 file" "$tmp/runB" &&
	[ "$(ls "$tmp/shared" | wc -l)" -eq 2 ]
ok $? "two runs at once into one --trace-out DIR/: each reads its own file alone"
run --trace --trace-out "$tmp/shared/" -- true
[ "$status" -eq 1 ] && one_error_line "wrote no trace"
ok $? "a run right after them that traces nothing reads none of their files"
f=$(ls "$tmp/d"/occcalc-trace.*.*.jsonl | head -1)
run --launches "$f" -f csv --fields kernel
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] && [ ! -s "$tmp/err" ]
ok $? "--launches reads a file with the header's run id"
sed '1s/"run":"[^"]*"/"run":7/' "$f" >"$tmp/run-number.jsonl"
run --launches "$tmp/run-number.jsonl"
[ "$status" -eq 1 ] && one_error_line "run-number.jsonl:1: run"
ok $? "--launches: a run id that is not a string is refused, naming the line"
rm -rf "$tmp/d" && mkdir "$tmp/d"
"$OCCCALC" --trace --trace-out "$tmp/d/" -- sh -c 'sleep 0.5; "$0"; sleep 1' \
	"$tmp/writes" >"$tmp/a.out" 2>"$tmp/a.err" &
a=$!
"$OCCCALC" --trace --trace-out "$tmp/d/" -- sh -c '"$0"; sleep 1' \
	"$tmp/writes" >"$tmp/b.out" 2>"$tmp/b.err" &
b=$!
wait "$a"; sa=$?
wait "$b"; sb=$?
[ "$sa" -eq 0 ] && [ "$sb" -eq 0 ] && [ "$(ls "$tmp/d" | wc -l)" -eq 2 ] &&
	head -1 "$tmp/a.out" | grep -q '^1 launch of 1 kernel in 1 file' &&
	head -1 "$tmp/b.out" | grep -q '^1 launch of 1 kernel in 1 file'
ok $? "two concurrent runs into one DIR/: each reports only its own launch"
run --trace --trace-out "$tmp/d/" -- "$tmp/writes"
"$OCCCALC" --trace --trace-out "$tmp/d/" -- true >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 1 ] && one_error_line "'true' wrote no trace"
ok $? "a run that traces nothing right after another: wrote no trace, exit 1"

run --trace -- "$tmp/writes0"
[ "$status" -eq 1 ] &&
	grep -qF "occcalc: --trace: '$tmp/writes0' started CUDA but launched no kernel (1 trace file)" "$tmp/err"
ok $? "a trace without a launch: said in a line, exit 1"

run --trace --check 'occupancy_pct >= 0' -- sh -c '"$0"; exit 5' "$tmp/writes"
[ "$status" -eq 5 ]
ok $? "--check passing does not hide the command's failure (exit 5)"
run --trace --check 'occupancy_pct > 99' -f csv -- sh -c '"$0"; exit 0' "$tmp/writes"
[ "$status" -eq 0 ]
ok $? "--check judges the traced launches (a fill kernel at 100 %)"
run --trace --check 'occupancy_pct < 50' -f csv -- "$tmp/writes"
[ "$status" -eq 1 ] && grep -q -- '--check: 1 of 1 row fails' "$tmp/err"
ok $? "--check failing a traced launch fails the run"

mkfifo "$tmp/fifo"
expect 1 "--trace-out: '$tmp/fifo' is neither a regular file nor a directory" \
	--trace --trace-out "$tmp/fifo" -- true
expect 2 "--trace-out: cannot make directory '$tmp/no/such/': its parent does not exist" \
	--trace --trace-out "$tmp/no/such/" -- touch "$tmp/ran"
expect 2 "--trace-out: '$tmp/no/x': no directory '$tmp/no' to write it in" \
	--trace --trace-out "$tmp/no/x" -- touch "$tmp/ran"
[ ! -e "$tmp/ran" ]
ok $? "a --trace-out that cannot be written is refused before the command runs"

# Options are checked before the command runs (usage, exit 2).
for bad in "--fields nonexistent -f csv" "--check x_>" "--kernel (" "--check x_>"; do
	set -- $bad
	[ "$2" = "x_>" ] && set -- "$1" "x >"
	rm -f "$tmp/ran"
	run --trace "$@" -- sh -c ': >"$0"; "$1"' "$tmp/ran" "$tmp/writes"
	[ "$status" -eq 2 ] && [ ! -e "$tmp/ran" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
	ok $? "--trace $*: refused (exit 2) before the command runs"
done
expect 2 "--check" --trace --check 'x >' -- true
OCCCALC_TRACE_WAIT=soon run --trace -- touch "$tmp/ran"
[ "$status" -eq 2 ] && one_error_line "OCCCALC_TRACE_WAIT: 'soon'" && [ ! -e "$tmp/ran" ]
ok $? "a bad OCCCALC_TRACE_WAIT is refused before the command runs"

# No exit leaves the temporary directory behind.
mkdir "$tmp/tt"
garbage='"$0" "$OCCCALC_TRACE_OUT/x"; { head -n 1 "$OCCCALC_TRACE_OUT/x"; echo garbage; } >"$OCCCALC_TRACE_OUT/occcalc-trace.$OCCCALC_TRACE_RUN.1.jsonl"; rm "$OCCCALC_TRACE_OUT/x"'
TMPDIR="$tmp/tt" run --trace -- sh -c "$garbage" "$tmp/writes"
[ "$status" -eq 1 ] && one_error_line "occcalc-trace." && [ -z "$(ls "$tmp/tt")" ]
ok $? "a trace that fails to read: exit 1, no temporary directory left"
TMPDIR="$tmp/tt" run --trace --partition 200 -- "$tmp/writes"
[ "$status" -eq 2 ] && [ -z "$(ls "$tmp/tt")" ]
ok $? "--partition refused for the traced device: exit 2, no temporary directory left"
# The reader is gone before occcalc writes: SIGPIPE on its first row.
status=$( { TMPDIR="$tmp/tt" "$OCCCALC" --trace -f csv -- sh -c '"$0"; sleep 0.5' \
	"$tmp/writes" 2>"$tmp/err"; echo $? >"$tmp/st"; } | true; cat "$tmp/st")
[ "$status" -eq 141 ] && [ -z "$(ls "$tmp/tt")" ]
ok $? "occcalc --trace | head (SIGPIPE): no temporary directory left"
TMPDIR="$tmp/tt" run --trace -- no-such-command-here
[ "$status" -eq 127 ] && [ -z "$(ls "$tmp/tt")" ]
ok $? "a command that cannot run: no temporary directory left"
TMPDIR="$tmp/tt" run --trace --check 'x >' -- true
[ "$status" -eq 2 ] && [ -z "$(ls "$tmp/tt")" ]
ok $? "a usage error: no temporary directory made"

# The processes the command leaves running are waited for.
TMPDIR="$tmp/tt" run --trace -- sh -c '(sleep 1; "$0") & exit 0' "$tmp/writes"
[ "$status" -eq 0 ] && head -1 "$tmp/out" | grep -q '^1 launch of 1 kernel in 1 file' &&
	grep -q "'sh' has exited; waiting up to 60 s for the processes it left running" "$tmp/err" &&
	[ -z "$(ls "$tmp/tt")" ]
ok $? "a process the command left running: waited for, its trace read"
OCCCALC_TRACE_WAIT=1 TMPDIR="$tmp/tt" run --trace -- sh -c \
	'"$0"; (sleep 3; : >"$1") & exit 0' "$tmp/writes" "$tmp/late"
kept=$(ls "$tmp/tt")
[ "$status" -eq 0 ] && [ -n "$kept" ] && [ ! -e "$tmp/late" ] &&
	grep -qF "left running still run: their traces are read as far as they go, and $tmp/tt/$kept is kept for them" "$tmp/err"
ok $? "past OCCCALC_TRACE_WAIT: what was written is read, the directory kept and named"
i=0
while [ ! -e "$tmp/late" ] && [ "$i" -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "$tmp/late" ] && [ -d "$tmp/tt/$kept" ]
ok $? "the process left running finds its directory"
rm -rf "$tmp/tt/$kept"

OCCCALC_TRACE_LIB="$tmp/none.so" run --trace -- touch "$tmp/ran"
[ "$status" -eq 1 ] && one_error_line "injection library" && [ ! -e "$tmp/ran" ]
ok $? "no injection library: one line, exit 1, the command not run"

# A signal sent to occcalc alone reaches the command, which decides.
"$OCCCALC" --trace -- sh -c 'trap "exit 7" TERM; : >"$0"; while :; do sleep 0.05; done' \
	"$tmp/ready" >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while [ ! -e "$tmp/ready" ] && [ "$i" -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM "$pid"
wait "$pid"
status=$?
[ "$status" -eq 7 ]
ok $? "SIGTERM to occcalc is passed to the command (its exit 7 is occcalc's)"

# --trace-calls: the injection library takes the launch calls
# (OCCCALC_TRACE_MODE=callbacks); it measures nothing, so no --achieved.
run --trace --trace-calls -- sh -c \
	'echo "$OCCCALC_TRACE_MODE" >"$0"; "$1"' "$tmp/mode" "$tmp/writes"
[ "$status" -eq 0 ] && [ "$(cat "$tmp/mode")" = callbacks ]
ok $? "--trace --trace-calls: OCCCALC_TRACE_MODE=callbacks for the command"
run --trace -- sh -c 'echo "${OCCCALC_TRACE_MODE-unset}" >"$0"; "$1"' \
	"$tmp/mode" "$tmp/writes"
[ "$status" -eq 0 ] && [ "$(cat "$tmp/mode")" = unset ]
ok $? "--trace without --trace-calls: OCCCALC_TRACE_MODE unset"
expect 2 "--achieved measures the launches of CUPTI's activity records: it does not go with --trace-calls" \
	--trace --trace-calls --achieved -- true

done_testing
