#!/bin/sh
# charts.sh - occupancy against block size, registers and shared memory:
# in the terminal within 80 columns, and as SVG holding the model's values.
. "$T/lib.sh"

run -a sm_90 -b 128 -r 40 --chart
[ "$status" -eq 0 ] && [ "$(grep -c '^Occupancy against' "$tmp/out")" -eq 3 ]
ok $? "--chart draws three charts after the report"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/out")" -le 80 ] ||
	[ "$(sed -n '/^Occupancy against/,$p' "$tmp/out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 80 ]
ok $? "the charts fit 80 columns"
[ "$(grep -c 'v marks this configuration, 40, 75.00 %' "$tmp/out")" -eq 1 ]
ok $? "the configuration is marked, with its value and occupancy"
sed -n '/^Occupancy against registers/,/marks/p' "$tmp/out" >"$tmp/regs"
grep -q '^ 100% |######### *$' "$tmp/regs" && grep -q '^  70% |########### *$' "$tmp/regs"
ok $? "the register chart steps down where the model does (100 % to 32, 75 % to 40)"

if command -v python3 >/dev/null 2>&1; then
	run -a sm_90 -b 128 -r 40 --plot "$tmp/c.svg"
	"$OCCCALC" -a sm_90 -b 32:1024:32 -r 40 -f csv | tail -n +2 | cut -d, -f2,8 >"$tmp/blocks.csv"
	python3 - "$tmp/c.svg" "$tmp/blocks.csv" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
panels = {g.get("id"): g for g in root.findall("s:g", ns)}
assert sorted(panels) == ["block", "registers", "smem"], panels
def series(name):
    p = panels[name].find("s:polyline", ns)
    return [int(v) for v in p.get("data-x").split()], p.get("data-y").split()
x, y = series("block")
want = [line.strip().split(",") for line in open(sys.argv[2])]
got = [[str(a), b] for a, b in zip(x, y)]
assert got == want, ("block series != CSV sweep", [(g, w) for g, w in zip(got, want) if g != w][:3], len(got), len(want))
x, y = series("registers")
assert x == list(range(256)) and y[32] == "100.00" and y[40] == "75.00" and y[41] == "62.50"
x, y = series("smem")
assert x[0] == 0 and x[-1] == 227 * 1024 and len(x) == 227 * 1024 // 128 + 1
c = panels["registers"].find("s:circle", ns)
assert c.get("data-x") == "40" and c.get("data-y") == "75.00"
PY
	ok $? "--plot writes well-formed SVG: 3 panels, series equal to the model's sweep, the configuration marked"
	run -a 8.6 -b 256 -s 8K -f json --plot "$tmp/d.svg"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" &&
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmp/d.svg"
	ok $? "--plot works beside JSON output"
else
	skip 2 "python3 is not installed (./bootstrap installs it)"
fi

run -a sm_90 -b 64:128:64 --chart
[ "$status" -eq 2 ] && one_error_line "--chart and --plot draw one configuration"
ok $? "--chart refuses a sweep"
run -a sm_90 -b 128 --chart -f csv
[ "$status" -eq 2 ] && one_error_line "--chart draws in the text format only"
ok $? "--chart refuses CSV and JSON"
run -a sm_90 -b 128 --plot /nonexistent/dir/c.svg
[ "$status" -eq 1 ] && one_error_line "occcalc: /nonexistent/dir/c.svg: cannot write"
ok $? "--plot to an unwritable place: exit 1, 'cannot write', checked before the report prints"

done_testing
