#!/bin/sh
# python-occupancy.sh - occcalc.occupancy() and best_block() give the
# command line's rows (t/python/occupancy.py).
. "$T/pylib.sh"
