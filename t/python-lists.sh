#!/bin/sh
# python-lists.sh - occcalc.archs(), gpus() and info() give the rows of
# --list-archs, --list-gpus and --info (t/python/lists.py).
. "$T/pylib.sh"
