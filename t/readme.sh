#!/bin/sh
# readme.sh - the README's sample outputs are what occcalc prints today.
# In a code block, a line '$ occcalc ARGS' (a '# comment' after a
# space is not part of it) is followed by its output up to the next '$ '
# line or the block's end; a line '...' there stands for any lines. A
# sample without '...' is the whole output; it exits 0, or N where the
# line ends with '# exit N'. Samples that need a GPU
# (--api, --measure, --persist without --arch) are skipped.
. "$T/lib.sh"

readme="$T/../README.md"
[ -r "$readme" ] || skip_all "README.md not found"

# Each sample into $tmp/sample.N.cmd and $tmp/sample.N.want.
awk -v dir="$tmp" '
	/^```/ { inblock = !inblock; cur = ""; next }
	inblock && /^\$ / {
		cur = ""
		if ($2 != "occcalc")
			next
		n++
		cur = dir "/sample." n
		cmd = substr($0, 3)
		# "# exit N": the status the sample ends with (else 0).
		st = 0
		if (match(cmd, / +# exit [0-9]+$/))
			st = substr(cmd, RSTART + index(substr(cmd, RSTART), "exit") + 4)
		sub(/ +#.*$/, "", cmd)
		print cmd >(cur ".cmd")
		print st + 0 >(cur ".status")
		printf "" >(cur ".want")
		next
	}
	inblock && cur != "" { print >(cur ".want") }
' "$readme"

# match WANT GOT: GOT holds WANT's segments, split at '...', in order.
match() {
	awk '
		FNR == NR { want[++nw] = $0; next }
		{ got[++ng] = $0 }
		END {
			at = 1; i = 1
			while (i <= nw) {
				if (want[i] == "...") { loose = 1; i++; continue }
				for (j = i; j <= nw && want[j] != "..."; j++)
					;
				len = j - i
				for (p = at; p + len - 1 <= ng; p++) {
					for (k = 0; k < len && got[p + k] == want[i + k]; k++)
						;
					if (k == len || !loose)
						break
				}
				if (k != len || p + len - 1 > ng)
					exit 1
				at = p + len; i = j; loose = 0
			}
			exit (want[nw] != "..." && at != ng + 1)
		}' "$1" "$2"
}

# Samples name files as the source tree has them.
cd "$T/.." || exit 1
for cmd in "$tmp"/sample.*.cmd; do
	[ -e "$cmd" ] || break
	base=${cmd%.cmd}
	line=$(cat "$cmd")
	case " $line " in
	*" --api "* | *" --measure "*) continue ;;
	*" --persist "*) case " $line " in *" -a "* | *" --arch "*) ;; *) continue ;; esac ;;
	esac
	eval "set -- ${line#occcalc }"
	run "$@"
	[ "$status" -eq "$(cat "$base.status")" ] && match "$base.want" "$tmp/out"
	ok $? "README: \$ $line"
	[ "$status" -eq 0 ] || sed 's/^/# /' "$tmp/err"
	match "$base.want" "$tmp/out" || diff "$base.want" "$tmp/out" | sed 's/^/# /'
done
[ "$n" -gt 0 ]
ok $? "the README has samples to check"

done_testing
