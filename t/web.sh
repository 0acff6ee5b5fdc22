#!/bin/sh
# web.sh - the page (make web) in headless Chromium, against the native
# occcalc (t/web.js does it). Skips unless the page is built and node,
# Debian's chromium and puppeteer-core (npm, in a folder git ignores:
# _web/npm, or PUPPETEER) are installed: .ci/run installs them.
. "$T/lib.sh"

page=${WEB_PAGE:-}
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -n "$page" ] && [ -f "$page" ] || skip_all "the page is not built (make web)"
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
[ -x "$chromium" ] || skip_all "chromium is not installed (apt-get install chromium)"
if [ -z "${PUPPETEER:-}" ]; then
	for d in "$(dirname "$page")/npm" "$T/../_web/npm"; do
		if [ -d "$d/node_modules/puppeteer-core" ]; then
			PUPPETEER=$d/node_modules/puppeteer-core
			break
		fi
	done
fi
[ -n "${PUPPETEER:-}" ] && [ -d "$PUPPETEER" ] ||
	skip_all "puppeteer-core is not installed (npm install --prefix _web/npm puppeteer-core)"
export PUPPETEER CHROMIUM="$chromium" WEB_PAGE="$page"
# Chromium's crash reporter and its profile want a writable home.
HOME=$tmp exec node "$T/web.js"
