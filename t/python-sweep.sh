#!/bin/sh
# python-sweep.sh - occcalc.sweep() gives the command line's -f jsonl rows
# for lists and ranges on GPU and architecture lists, and its refusals in
# the command line's words (t/python/sweep.py).
. "$T/pylib.sh"
