#!/bin/sh
# tables.sh - architecture tables are data: a new architecture is a new
# file, and a malformed one is refused naming the file, the line and what
# is wrong (exit 1).
. "$T/lib.sh"

# table NAME: a fresh copy of the shipped sm_90 table as $tmp/d/NAME.
table() {
	rm -rf "$tmp/d"
	mkdir "$tmp/d"
	cp "$OCCCALC_TABLES/sm_90.arch" "$tmp/d/$1"
	file="$tmp/d/$1"
}

# refused PATTERN DESCRIPTION: occcalc refuses $tmp/d with PATTERN.
refused() {
	run --tables "$tmp/d" -a sm_90 -b 128
	[ "$status" -eq 1 ] && one_error_line "$1"
	ok $? "$2"
	[ "$status" -eq 1 ] || echo "# exit $status: $(cat "$tmp/err")"
}

table sm_95.arch
sed -i 's/^computeCapability = 9.0/computeCapability = 9.5/' "$file"
run --tables "$tmp/d" -a sm_95 -b 128 -r 40 -f csv
[ "$status" -eq 0 ] && grep -q '^sm_95,128,40,0,0,12,48,75.00,registers,' "$tmp/out"
ok $? "a new architecture is a new file: sm_95.arch answers --arch sm_95"
run --tables "$tmp/d" --list-archs -f csv
grep -q '^sm_95,9.5,Hopper,' "$tmp/out"
ok $? "the new table is listed by --list-archs"

table sm_90.arch
echo "fooBar = 1" >>"$file"
line=$(wc -l <"$file")
refused "$file:$line: fooBar: unknown key" "an unknown key names file, line and key"

table sm_90.arch
echo "warpSize = 32" >>"$file"
line=$(wc -l <"$file")
refused "$file:$line: warpSize: key given twice" "a repeated key is refused"

table sm_90.arch
sed -i '/^regsPerBlock/d' "$file"
refused "$file: regsPerBlock: required key missing" "a missing key is named"

table sm_90.arch
sed -i 's/^warpSize = 32/warpSize = thirty-two/' "$file"
line=$(grep -n '^warpSize' "$file" | cut -d: -f1)
refused "$file:$line: warpSize: malformed or out-of-range value" \
	"a malformed number is refused"

table sm_90.arch
sed -i 's/^maxRegistersPerThread = 255/maxRegistersPerThread = 0/' "$file"
refused "maxRegistersPerThread: malformed or out-of-range value" \
	"an out-of-range number is refused"

table sm_90.arch
echo "just some words" >>"$file"
line=$(wc -l <"$file")
refused "$file:$line: expected 'key = value'" "a line without '=' is refused"

table sm_90.arch
sed -i 's/^sharedMemCarveoutSizes = .*/sharedMemCarveoutSizes = 0 8K 16K 32K 64K 100K/' "$file"
line=$(grep -n '^sharedMemCarveoutSizes' "$file" | cut -d: -f1)
refused "$file:$line: sharedMemCarveoutSizes: value inconsistent" \
	"carveouts that do not reach sharedMemPerMultiprocessor are refused"

table sm_90.arch
sed -i 's/^sharedMemCarveoutSizes = .*/sharedMemCarveoutSizes = 0 16K 8K 228K/' "$file"
refused "sharedMemCarveoutSizes: value inconsistent" \
	"carveouts out of order are refused"

table sm_90.arch
sed -i 's/^sharedMemPerBlockOptin = 227K/sharedMemPerBlockOptin = 40K/' "$file"
refused "sharedMemPerBlockOptin: value inconsistent" \
	"an opt-in limit below sharedMemPerBlock is refused"

# Cluster figures: the portable size alone, or with the other two.
table sm_90.arch
sed -i '/^clusterBlocksPerMultiprocessor/d' "$file"
refused "clusterBlocksPerMultiprocessor: value inconsistent" \
	"clusterSizeMax without clusterBlocksPerMultiprocessor is refused"
table sm_90.arch
sed -i '/^clusterSizePortable/d' "$file"
refused "clusterSizePortable: value inconsistent" \
	"clusterSizeMax and clusterBlocksPerMultiprocessor without clusterSizePortable are refused"
table sm_90.arch
sed -i '/^clusterSizeMax/d; /^clusterBlocksPerMultiprocessor/d' "$file"
run --tables "$tmp/d" -a sm_90 --info -f csv --fields clusterSizePortable
[ "$status" -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "clusterSizePortable,8" ]
ok $? "clusterSizePortable alone is a table (as the Blackwell tables give it)"
for a in 100 101 103 110 120 121; do
	run -a "sm_$a" --info
	grep -q '^clusterSizePortable  *8$' "$tmp/out" &&
		! grep -q 'clusterSizeMax\|clusterBlocksPerMultiprocessor' "$tmp/out"
	ok $? "sm_$a: portable clusters of 8 (CUDA C++ Programming Guide); the rest not known, so not given"
done

table sm_89.arch
refused "$file: computeCapability: file name does not match" \
	"a table whose name does not match its computeCapability is refused"

table sm_90.arch
: >"$file"
refused "$file: computeCapability: required key missing" \
	"an empty table is refused"

table sm_90.arch
head -c 3000 /dev/zero | tr '\0' x >>"$file"
line=$(wc -l <"$file")
refused "$file:$((line + 1)): line too long (at most 1023 characters)" \
	"an overlong line is refused, not truncated"

table README
run --tables "$tmp/d" -a sm_90 -b 128
[ "$status" -eq 1 ] && one_error_line "no architecture tables (*.arch) found"
ok $? "files not named *.arch are not tables"

done_testing
