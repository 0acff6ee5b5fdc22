#!/bin/sh
# fetch-deps.sh DIR - Debian's sources of the libraries the readers use
# (yajl: JSON; zlib: gzip; libzstd: compressed fatbins), unpacked with
# Debian's patches into DIR, for the WebAssembly build (web/build.mk):
# Debian ships them for the host only, and emscripten's "ports" download
# from elsewhere. apt-get source needs deb-src lines, which a plain
# Debian 12 lacks, so it gets a source list of its own (the mirror of the
# machine's deb lines), in DIR, leaving /etc/apt alone.
set -e
dir=${1:?usage: fetch-deps.sh DIR}
mirror=${OCCCALC_WEB_MIRROR:-}
suite=bookworm
mkdir -p "$dir/apt/lists/partial"
cd "$dir"
[ -d yajl ] && [ -d zlib ] && [ -d zstd ] && exit 0
if [ -z "$mirror" ]; then
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources \
		2>/dev/null | head -1)
	[ -n "$mirror" ] || mirror=$(sed -n 's/^deb  *\(http[^ ]*\) .*/\1/p' \
		/etc/apt/sources.list 2>/dev/null | head -1)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi
echo "deb-src $mirror $suite main" >apt/sources.list
set -- -o Dir::Etc::SourceList="$PWD/apt/sources.list" \
	-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$PWD/apt/lists" \
	-o Debug::NoLocking=1
apt-get "$@" -qq update
# dpkg-source unpacks with Debian's patches (yajl's security fixes).
apt-get "$@" -qq source yajl zlib libzstd 2>&1 | grep -v '^W: Download is performed unsandboxed' || true
for p in yajl zlib libzstd; do
	d=$(ls -d "$p"-[0-9]*/ | head -1)
	[ -n "$d" ] || { echo "fetch-deps.sh: no source of $p" >&2; exit 1; }
	rm -rf "${p#lib}" && mv "$d" "${p#lib}"
done
rm -f ./*.dsc ./*.tar.*
