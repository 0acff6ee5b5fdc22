#!/bin/sh
# python-check.sh - occcalc.check() judges a row as --check does: the
# verdict, the failing comparisons, the refusals (t/python/check.py).
. "$T/pylib.sh"
