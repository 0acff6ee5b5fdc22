#!/bin/sh
# python-compare.sh - occcalc.compare() gives --compare's rows for two
# builds' rows as Python holds them (t/python/compare.py).
. "$T/pylib.sh"
