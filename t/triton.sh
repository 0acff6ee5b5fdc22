#!/bin/sh
# triton.sh - --kernels on a Triton cache: each cubin's row is the launch
# its metadata records (NAME.json: 32 x num_warps threads, "shared" bytes
# of dynamic shared memory), checked against what the driver answered for
# that launch on an H100 (t/fixtures/triton-truth.csv, from
# .dev/data/driver_truth.py: cuFuncGetAttribute and
# cuOccupancyMaxActiveBlocksPerMultiprocessor after raising the dynamic
# shared memory limit); missing, partial and malformed metadata warned of.
. "$T/lib.sh"
C=$T/fixtures/triton-cache
ADD=triton/CW64LWH6YBXRZJV35MP2OM3MITLRBQPREL7OM2GXFEQM3PEST52A
MM=triton/F3422LBBB4H7BE4JAYVGIRHQ5BAPPU3N56X2KF5ERIJU5D5TX75Q
F=file,block,smem,regs,blocks_per_sm

if command -v python3 >/dev/null 2>&1; then
	python3 "$T/triton/compare.py" "$OCCCALC" "$C" \
		"$T/fixtures/triton-truth.csv" >"$tmp/cmp"
	ok $? "every kernel of the fixture cache: registers and blocks per SM as the driver's ($(tail -n 1 "$tmp/cmp"))"
	grep -v '^ok' "$tmp/cmp" | sed 's/^/# /'
else
	skip 1 "python3 is not installed (./bootstrap installs it)"
fi

run --kernels "$C" --kernel add_kernel -f csv --fields $F
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] &&
	grep -q "^$C/$ADD/add_kernel.cubin,512,0,34,3$" "$tmp/out"
ok $? "num_warps 16: a block of 512 threads, 3 blocks per SM (34 registers), no warning"
run --kernels "$C" -f csv --fields $F
grep -q "^$C/$MM/matmul_kernel.cubin,256,196608,182,1$" "$tmp/out"
ok $? "\"shared\" 196608 is the row's dynamic shared memory: 1 block per SM"

run --kernels "$C/$ADD" -f csv --fields triton_kernel,triton_version,triton_entry,num_warps,num_ctas
[ "$(tail -n 1 "$tmp/out")" = "add_kernel,3.6.0,${ADD#triton/},16,1" ]
ok $? "fields: Triton's kernel name, version, cache entry, num_warps, num_ctas"

run --kernels "$C/$ADD" -b 128 -f csv --fields $F
[ "$(tail -n 1 "$tmp/out")" = "$C/$ADD/add_kernel.cubin,128,0,34,12" ]
ok $? "--block overrides Triton's block"
run --kernels "$C/$MM" -s 100K -f csv --fields $F
[ "$(tail -n 1 "$tmp/out")" = "$C/$MM/matmul_kernel.cubin,256,102400,182,1" ]
ok $? "--smem overrides Triton's shared memory, the block stays Triton's"

run --kernels "$C/$ADD"
grep -q '^Triton: 1 kernel as Triton launches it (its cache.s metadata): a block of 32 x num_warps threads, its "shared" bytes of dynamic shared memory\.$' "$tmp/out"
ok $? "the text table says the rows are Triton's launch, not a recommendation"

run --kernels "$C/$ADD/add_kernel.cubin" -f csv --fields $F
[ "$(tail -n 1 "$tmp/out")" = "$C/$ADD/add_kernel.cubin,768,0,34,2" ] &&
	[ ! -s "$tmp/err" ]
ok $? "a cubin named alone keeps its row as before: the recommended block (768)"

# A copy of one entry, its metadata removed, cut or broken.
entry() {
	rm -rf "$tmp/c"
	mkdir -p "$tmp/c/e"
	cp "$C/$ADD/add_kernel.cubin" "$C/$ADD/__grp__add_kernel.json" "$tmp/c/e/"
}
entry
run --kernels "$tmp/c" -f csv --fields $F
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "$tmp/c/e/add_kernel.cubin,768,0,34,2" ] &&
	[ "$(cat "$tmp/err")" = "occcalc: warning: $tmp/c/e: a Triton cache entry without its metadata add_kernel.json; the cubin's own resources are shown" ]
ok $? "missing metadata: a warning naming the entry, the cubin's own row"

entry
head -c 200 "$C/$ADD/add_kernel.json" >"$tmp/c/e/add_kernel.json"
run --kernels "$tmp/c" -f csv --fields $F
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "$tmp/c/e/add_kernel.cubin,768,0,34,2" ] &&
	grep -q "^occcalc: warning: $tmp/c/e/add_kernel.json: malformed Triton metadata: .* at byte 200; the cubin's own resources are shown$" "$tmp/err"
ok $? "truncated metadata: malformed, named, the cubin's own row"

entry
printf '{"name": "add_kernel", "shared": 0}' >"$tmp/c/e/add_kernel.json"
run --kernels "$tmp/c" -f csv --fields $F
[ "$(tail -n 1 "$tmp/out")" = "$tmp/c/e/add_kernel.cubin,768,0,34,2" ] &&
	[ "$(cat "$tmp/err")" = "occcalc: warning: $tmp/c/e/add_kernel.json: partial Triton metadata: no num_warps; the cubin's own resources are shown" ]
ok $? "metadata without num_warps: partial, named, the cubin's own row"

entry
printf '{"num_warps": "four", "shared": 0}' >"$tmp/c/e/add_kernel.json"
run --kernels "$tmp/c" -f csv --fields $F
grep -q 'malformed Triton metadata: "num_warps" is not an integer at byte 14;' "$tmp/err"
ok $? "num_warps of the wrong type: malformed, said which key"

entry
printf '{"num_warps": 4, "shared": 999999999999999999}' >"$tmp/c/e/add_kernel.json"
run --kernels "$tmp/c" -f csv --fields $F
[ "$status" -eq 0 ] && grep -q '"shared" 999999999999999999 outside 0-281474976710655' "$tmp/err"
ok $? "shared memory beyond any GPU's: refused by range, before narrowing"

entry
rm -f "$tmp/c/e/add_kernel.json"
mkfifo "$tmp/c/e/add_kernel.json" 2>/dev/null || skip 1 "no mkfifo"
if [ -p "$tmp/c/e/add_kernel.json" ]; then
	run --kernels "$tmp/c" -f csv --fields $F
	[ "$status" -eq 0 ] && grep -q 'add_kernel.json: Triton metadata not a regular file' "$tmp/err"
	ok $? "metadata that is a FIFO: warned of, never waited on"
fi

# Hostile input, issue 30: JSON strings decoded whole (F6), metadata
# applied only to the kernel it names (F7). t/fixtures/triton-repro holds
# the reproducers as they were filed.
R=$T/fixtures/triton-repro
run --kernels "$R/unicode-escape" -f csv --fields kernel,triton_kernel,block,smem
[ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = 'kernel,triton_kernel,block,smem
matmul_kernel,matmul_kernel,128,73728' ] && ! grep -q 'Triton metadata' "$tmp/err"
ok $? "F6: a \\uXXXX escape is decoded (matmul\\u005fkernel is matmul_kernel, its launch applied)"

# The add_kernel entry, its metadata's name written otherwise.
named() {
	entry
	sed "s/\"name\": \"add_kernel\"/\"name\": \"$1\"/" "$C/$ADD/add_kernel.json" >"$tmp/c/e/add_kernel.json"
	run --kernels "$tmp/c" -f csv --fields kernel,triton_kernel,block
}
named 'add\\u005fkernel'
[ "$(tail -n 1 "$tmp/out")" = "add_kernel,add_kernel,512" ] && [ ! -s "$tmp/err" ]
ok $? "an escaped name that decodes to the kernel's is the kernel's"
named 'add_kernel\\u0000x'
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "add_kernel,,768" ] &&
	grep -qF "add_kernel.json: malformed Triton metadata: \\u0000 (a NUL character) in a string at byte " "$tmp/err"
ok $? "\\u0000 in a string: malformed metadata, the cubin's own row"
for s in 'add\\ud800' 'add\\ud800\\u0041' 'add\\udc00'; do
	named "$s"
	[ "$(tail -n 1 "$tmp/out")" = "add_kernel,,768" ] &&
		grep -qF "add_kernel.json: malformed Triton metadata: a lone UTF-16 surrogate in a string at byte " "$tmp/err"
	ok $? "a lone surrogate ($s): malformed metadata, the cubin's own row"
done
named 'm\\u00e9\\ud83d\\ude00'
[ "$(tail -n 1 "$tmp/out")" = "add_kernel,,768" ] &&
	[ "$(cat "$tmp/err")" = "occcalc: warning: $tmp/c/e/add_kernel.json: Triton metadata of kernel mé😀 beside a cubin whose kernel is add_kernel; the cubin's own resources are shown" ]
ok $? "F7: metadata naming another kernel (a surrogate pair decoded in its name): warned, the cubin's own row"
entry
sed 's/, "name": "add_kernel"//' "$C/$ADD/add_kernel.json" >"$tmp/c/e/add_kernel.json"
run --kernels "$tmp/c" -f csv --fields kernel,triton_kernel,block
[ "$(tail -n 1 "$tmp/out")" = "add_kernel,,768" ] &&
	[ "$(cat "$tmp/err")" = "occcalc: warning: $tmp/c/e/add_kernel.json: partial Triton metadata: no name; the cubin's own resources are shown" ]
ok $? "metadata without the kernel's name: partial, the cubin's own row"

named '\\u001b[31mred'
[ "$(tail -n 1 "$tmp/out")" = "add_kernel,,768" ] &&
	grep -qF 'Triton metadata of kernel \x1b[31mred beside a cubin whose kernel is add_kernel' "$tmp/err"
ok $? "a control character a name decodes to is escaped in the warning"
run --kernels "$C" -f csv --fields triton_kernel
[ "$status" -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 12 ] && ! grep -q '^,\?$' "$tmp/out" &&
	! grep -q 'Triton' "$tmp/err"
ok $? "every entry of the cache Triton made: its metadata names its cubin's one kernel, applied without a warning"
run --kernels "$R/metadata-mismatch" -f csv --fields kernel,triton_kernel,block,smem,num_ctas
[ "$status" -eq 0 ] && [ "$(grep -c ',,.*,0,$' "$tmp/out")" -eq 22 ] &&
	grep -qxF "occcalc: warning: $R/metadata-mismatch/triton/ENTRY1/matmul_kernel.json: Triton metadata of one kernel (matmul_kernel) beside a cubin of 22 kernels; the cubin's own resources are shown" "$tmp/err" &&
	! grep -q '22 kernels declare a cluster launch' "$tmp/err"
ok $? "F7: metadata beside a cubin of 22 kernels: warned, each kernel its own row (no Triton block, shared memory or cluster)"
run --kernels "$R/metadata-mismatch" --kernel 'scale<float' -f csv --fields kernel,triton_kernel
[ "$(wc -l <"$tmp/out")" -eq 2 ] && grep -qF 'beside a cubin of 22 kernels' "$tmp/err"
ok $? "the cubin's kernels are counted before --kernel picks among them"

done_testing
