# lib.sh - TAP helpers for occcalc's shell tests. Sourced, not run.
#
# The test environment (Makefile.am) sets OCCCALC (the built binary),
# OCCCALC_TABLES (the source tables), T (this directory) and MAN.

n=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/occcalc-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# jobs_agree WHAT "N..." ARGS...: occcalc ARGS with --jobs 1 and with each
# --jobs N exits alike and prints the same bytes, stdout not empty.
jobs_agree() {
	what=$1 jobs=$2
	shift 2
	run --jobs 1 "$@"
	s1=$status
	cp "$tmp/out" "$tmp/one"
	cp "$tmp/err" "$tmp/one.err"
	for j in $jobs; do
		run --jobs "$j" "$@"
		[ "$s1" -eq "$status" ] && [ -s "$tmp/one" ] &&
			cmp -s "$tmp/one" "$tmp/out" &&
			cmp -s "$tmp/one.err" "$tmp/err" || break
	done
	ok $? "$what: --jobs $jobs prints what --jobs 1 does, byte for byte"
}

# ok STATUS DESCRIPTION: one TAP line; STATUS 0 passes.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# run ARGS...: runs occcalc; sets $status, leaves $tmp/out and $tmp/err.
run() {
	"$OCCCALC" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
}

# one_error_line PATTERN: stderr is exactly one line, starting "occcalc: "
# and holding PATTERN (a fixed string), and stdout is empty.
one_error_line() {
	[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		head -c 9 "$tmp/err" | grep -q '^occcalc: ' &&
		grep -qF -- "$1" "$tmp/err" &&
		[ ! -s "$tmp/out" ]
}

# expect STATUS PATTERN ARGS...: occcalc ARGS exits STATUS with one error
# line holding PATTERN, and prints nothing on stdout.
expect() {
	want=$1 pattern=$2
	shift 2
	run "$@"
	[ "$status" -eq "$want" ] && one_error_line "$pattern"
	ok $? "occcalc $*: exit $want, '$pattern'"
	[ "$status" -eq "$want" ] || echo "# got exit $status: $(cat "$tmp/err")"
}

# skip_all REASON: a TAP plan that skips the whole script.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# skip COUNT REASON: COUNT TAP lines for tests that cannot run here.
skip() {
	i=0
	while [ "$i" -lt "$1" ]; do
		i=$((i + 1))
		n=$((n + 1))
		echo "ok $n # SKIP $2"
	done
}

done_testing() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
