#!/bin/sh
# completion.sh - the bash and zsh completion scripts, written from the
# option table: every option in them, each script well formed, bash's
# offering what the options take, and the build's copies the same.
. "$T/lib.sh"

"$OCCCALC" --completion bash >"$tmp/bash"
ok $? "--completion bash writes a script"
"$OCCCALC" --completion zsh >"$tmp/zsh"
ok $? "--completion zsh writes a script"
expect 2 "--completion: 'fish': not a shell occcalc completes (bash or zsh)" --completion fish

# Every option --help all explains, long and short.
"$OCCCALC" --help all | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\).*/\2/p' >"$tmp/longs"
"$OCCCALC" --help all | sed -n 's/^ *-\([a-zA-Z]\), --.*/\1/p' >"$tmp/shorts"
for shell in bash zsh; do
	missing=
	for o in $(cat "$tmp/longs"); do
		grep -q -- "--$o\\b" "$tmp/$shell" || missing="$missing --$o"
	done
	for o in $(cat "$tmp/shorts"); do
		grep -q -- "-$o\\b" "$tmp/$shell" || missing="$missing -$o"
	done
	[ "$(wc -l <"$tmp/longs")" -gt 40 ] && [ -z "$missing" ]
	ok $? "the $shell script completes every option of --help all${missing:+ (missing:$missing)}"
done

bash -n "$tmp/bash"
ok $? "the bash script parses (bash -n)"
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$tmp/zsh"
	ok $? "the zsh script parses (zsh -n)"
else
	skip 1 "zsh is not installed"
fi
head -1 "$tmp/zsh" | grep -qx '#compdef occcalc'
ok $? "the zsh script starts with #compdef occcalc, as its autoloader needs"

# bash: what _occcalc offers after COMP_WORDS, one word per line.
offers() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_occcalc; printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/bash" "$@"
}
[ "$(offers occcalc --form)" = "--format" ]
ok $? "bash completes --form to --format"
[ "$(offers occcalc -f j | tr '\n' ' ')" = "json jsonl " ]
ok $? "bash offers --format's words (json, jsonl after 'j')"
offers occcalc --help '' | grep -qx kernels && offers occcalc --help '' | grep -qx all
ok $? "bash offers --help's topics"
offers "$OCCCALC" --arch sm_9 | grep -qx sm_90
ok $? "bash offers --arch the architectures occcalc lists"
offers "$OCCCALC" --gpu H1 | grep -qx H100-SXM
ok $? "bash offers --gpu the GPUs occcalc lists"
[ -z "$(offers occcalc --block '')" ]
ok $? "bash offers nothing for a number (--block)"

# The build wrote the same scripts that make install installs.
build=$(dirname "$(dirname "$OCCCALC")")
cmp -s "$build/completions/occcalc" "$tmp/bash" && cmp -s "$build/completions/_occcalc" "$tmp/zsh"
ok $? "the build's completions/occcalc and completions/_occcalc are --completion's"

done_testing
