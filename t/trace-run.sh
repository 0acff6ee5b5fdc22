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
# no launch.
real="$T/fixtures/traces/occcalc-trace.jsonl"
for w in writes writes0; do
	lines=3
	[ "$w" = writes0 ] && lines=2
	cat >"$tmp/$w" <<EOS
#!/bin/sh
# $w [FILE]: a trace to FILE, else where the library would write
out=\${1:-\$OCCCALC_TRACE_OUT}
[ -d "\$out" ] && out="\$out/occcalc-trace.\$\$.jsonl"
{ head -n $lines "$real"; echo '{"type":"end","launches":$((lines - 2)),"dropped":0}'; } >"\$out"
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

# --trace-out FILE: the first process writes FILE, the others FILE.PID;
# an older FILE is replaced, an older FILE.PID is not read.
echo stale >"$tmp/t.jsonl"
echo stale >"$tmp/t.jsonl.1"
touch -t 200001010000 "$tmp/t.jsonl.1"
(cd "$tmp" && "$OCCCALC" --trace --trace-out t.jsonl -- sh -c \
	'"$0" && "$0" "$OCCCALC_TRACE_OUT.42"' "$tmp/writes" \
	>"$tmp/out" 2>"$tmp/err")
status=$?
[ "$status" -eq 0 ] && grep -q '"pid"' "$tmp/t.jsonl" &&
	grep -q '"pid"' "$tmp/t.jsonl.42" && grep -q stale "$tmp/t.jsonl.1"
ok $? "--trace-out FILE: FILE and FILE.PID written, an older FILE.PID left"
head -1 "$tmp/out" | grep -q '^2 launches of 1 kernel in 2 files'
ok $? "--trace: the summary of the launches of both files follows the command"
(cd "$tmp" && "$OCCCALC" --trace --trace-out t.jsonl -f csv --fields file,grid -- \
	sh -c '"$0" && "$0" "$OCCCALC_TRACE_OUT.42"' "$tmp/writes" \
	>"$tmp/out" 2>"$tmp/err")
[ "$(sed 's|^[^,]*/||' "$tmp/out" | tr '\n' ' ')" = \
	'file,grid t.jsonl,1 1 1 t.jsonl.42,1 1 1 ' ]
ok $? "--trace -f csv: a row per launch, from this run's files, FILE first"

# --trace-out DIR/: made, and only this run's files read.
mkdir -p "$tmp/d"
echo old >"$tmp/d/occcalc-trace.7.jsonl"
touch -t 200001010000 "$tmp/d/occcalc-trace.7.jsonl"
run --trace --trace-out "$tmp/d/" -f csv --fields file -- \
	sh -c '"$0"; "$0"' "$tmp/writes"
[ "$status" -eq 0 ] && [ "$(grep -c 'occcalc-trace\.[0-9]*\.jsonl' "$tmp/out")" -eq 2 ] &&
	! grep -q 'trace\.7\.jsonl' "$tmp/out"
ok $? "--trace-out DIR: this run's two files, not an older one"
run --trace --trace-out "$tmp/new/" -- "$tmp/writes"
[ "$status" -eq 0 ] && [ -d "$tmp/new" ] && [ "$(ls "$tmp/new" | wc -l)" -eq 1 ]
ok $? "--trace-out DIR/: the directory is made"

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
expect 1 "--trace-out: cannot make directory '$tmp/no/such/': " \
	--trace --trace-out "$tmp/no/such/" -- true

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

done_testing
