#!/bin/sh
# man.sh - the man page is lint-clean and documents every option, every
# output field and every table key.
. "$T/lib.sh"

[ -n "$MANDOC" ] || skip_all "mandoc not found (configure looks for it)"

"$MANDOC" -Tlint -W style "$MAN" >"$tmp/lint" 2>&1
ok $? "mandoc -Tlint reports nothing, style included"
sed 's/^/# /' "$tmp/lint"

# Plain text: mandoc -Tascii marks bold and underline by overstriking
# (c BS c, _ BS c); dropping each character before a backspace leaves the
# text (what col -b does, without needing col).
bs=$(printf '\b')
"$MANDOC" -Tascii "$MAN" | sed "s/.$bs//g" >"$tmp/man"
[ -s "$tmp/man" ] && ! grep -q "$bs" "$tmp/man"
ok $? "mandoc renders the page as plain text"

"$OCCCALC" --help all | grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/help-opts"
missing=
for opt in $(cat "$tmp/help-opts"); do
	grep -q -- "$opt" "$tmp/man" || missing="$missing $opt"
done
[ -z "$missing" ]
ok $? "every option in --help all is in the man page${missing:+ (missing:$missing)}"

sed -n '/^OPTIONS/,/^OUTPUT/p' "$tmp/man" |
	grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/man-opts"
missing=$(comm -23 "$tmp/man-opts" "$tmp/help-opts" | tr '\n' ' ')
[ -z "$missing" ]
ok $? "every option in the man page is in --help all${missing:+ (missing: $missing)}"

"$OCCCALC" -a sm_90 -b 128 -f csv | head -1 | tr ',' '\n' >"$tmp/fields"
missing=
for f in $(cat "$tmp/fields"); do
	sed -n '/^OUTPUT/,/^ENVIRONMENT/p' "$tmp/man" | grep -qw -- "$f" ||
		missing="$missing $f"
done
[ -z "$missing" ]
ok $? "every output field is in the man page${missing:+ (missing:$missing)}"

# The field lists of OUTPUT, one per kind of row, are the code's: the
# same names, types and descriptions as --list-fields, in the same order.
# A description may wrap over several lines, up to the next request.
awk 'function flush() { if (name != "") print kind "\t" name "\t" type "\t" desc; name = "" }
     /^\.\\" fields: / { flush(); kind = $3; next }
     /^\./ { flush() }
     /^\.El/ { kind = "" }
     kind && /^\.It Li / { name = $3; type = $5; desc = ""; next }
     name != "" { desc = desc == "" ? $0 : desc " " $0 }
     END { flush() }' \
	"$MAN" >"$tmp/man-fields"
"$OCCCALC" --list-fields --format csv | tail -n +2 |
	sed 's/^\([^,]*\),\([^,]*\),\([^,]*\),"\{0,1\}\(.*\)$/\1\t\2\t\3\t\4/; s/"$//; s/""/"/g' \
	>"$tmp/code-fields"
[ -s "$tmp/code-fields" ] && diff "$tmp/code-fields" "$tmp/man-fields" >"$tmp/fields-diff"
ok $? "OUTPUT documents every field of --list-fields, once, as the code describes it"
sed 's/^/# /' "$tmp/fields-diff"

for arch in $("$OCCCALC" --list-archs -f csv | tail -n +2 | cut -d, -f1); do
	"$OCCCALC" -a "$arch" --info -f csv | tail -n +2 | cut -d, -f1
done | sort -u | grep -v '^source$' >"$tmp/keys"
missing=
for k in $(cat "$tmp/keys"); do
	sed -n '/^FILES/,/^EXIT STATUS/p' "$tmp/man" | grep -qw -- "$k" ||
		missing="$missing $k"
done
[ -s "$tmp/keys" ] && [ -z "$missing" ]
ok $? "every table key is in the man page${missing:+ (missing:$missing)}"

# Quotes pair up as mandoc and groff render them: an enclosure nested in
# another on one line ('.Pq Ql a , Ql b') renders as (‘a, ‘b’’).
for fmt in "$MANDOC -Tutf8" "groff -mandoc -Tutf8"; do
	if ! command -v "${fmt%% *}" >/dev/null 2>&1; then
		n=$((n + 1))
		echo "ok $n # SKIP ${fmt%% *} not found"
		continue
	fi
	# Each quote as one byte (\001, \002), the pairs taken out.
	$fmt "$MAN" 2>/dev/null | LC_ALL=C sed 's/.\x08//g' | tr '\n' ' ' |
		LC_ALL=C sed 's/‘/\x01/g; s/’/\x02/g; s/\x01[^\x01\x02]*\x02//g' |
		LC_ALL=C sed -n 's/.*\(.\{24\}[\x01\x02].\{0,12\}\).*/\1/p' |
		tr '\001\002' '<>' | sed '$a\' >"$tmp/quotes"
	[ ! -s "$tmp/quotes" ]
	ok $? "${fmt%% *} renders every quote of the man page paired"
	sed 's/^/# unpaired (< >): /' "$tmp/quotes"
done

done_testing
