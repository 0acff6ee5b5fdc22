#!/bin/sh
# python-summary.sh - occcalc.launch_summary() gives the rows of occcalc
# --launches --summary (t/python/summary.py).
. "$T/pylib.sh"
