#!/bin/sh
# pkgconfig.sh - a program linked statically with libocccalc, with the
# libraries occcalc.pc names for a static link (pkg-config --static:
# Libs.private), links and runs: every object of libocccalc.a is taken,
# so a library the objects use and the .pc file omits fails the link.
. "$T/lib.sh"

command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config not found"
[ -f "$LIBDIR/libocccalc.a" ] || skip_all "no static library built: configure --enable-static"
[ -f "$PCFILE" ] || skip_all "no occcalc.pc built ($PCFILE)"

cat >"$tmp/pc.c" <<'C'
#include <occcalc.h>
#include <stdio.h>
int main(void)
{
	struct occ_tables *t;
	struct occ_diag d;
	struct occ_kernel k;
	struct occ_result r;

	if (occ_tables_load(getenv("OCCCALC_TABLES"), &t, &d) != OCC_OK)
		return 2;
	occ_kernel_init(&k);
	k.block_size = 128;
	k.regs_per_thread = 40;
	if (occ_compute(occ_tables_find(t, 9, 0), &k, &r) != OCC_OK)
		return 3;
	printf("%d\n", r.blocks_per_sm);
	occ_tables_free(t);
	return 0;
}
C
sed -i '1i #include <stdlib.h>' "$tmp/pc.c"
libs=$(pkg-config --static --libs-only-l "$PCFILE" | sed 's/-locccalc//')
echo "# pkg-config --static --libs-only-l: $libs"
echo "$libs" | grep -q -- -lzstd || ! nm "$LIBDIR/libocccalc.a" 2>/dev/null | grep -q ' U ZSTD_'
ok $? "the static link's libraries name libzstd where the library uses it"
# A sanitizer build's objects need the sanitizers' runtime at the link;
# dependencies outside the system's directories, the -L configure had.
# shellcheck disable=SC2086
${CC:-cc} ${SAN_CFLAGS:-} -I"$(dirname "$HEADER")" "$tmp/pc.c" -o "$tmp/pc" \
	${BUILD_LDFLAGS:-} \
	-Wl,--whole-archive "$LIBDIR/libocccalc.a" -Wl,--no-whole-archive \
	$libs -lm 2>"$tmp/err"
ok $? "every object of libocccalc.a links with pkg-config --static's libraries$( [ -s "$tmp/err" ] && echo " ($(grep -m1 -E 'undefined|cannot find' "$tmp/err"))")"
[ "$("$tmp/pc")" = 12 ]
ok $? "the statically linked program runs (12 blocks of 128 threads, 40 registers, on 9.0)"

done_testing
