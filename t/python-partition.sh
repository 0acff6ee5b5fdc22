#!/bin/sh
# python-partition.sh - occcalc.occupancy()'s partition= and fields= with
# cluster= give the command line's rows (t/python/partition.py).
. "$T/pylib.sh"
