#!/bin/sh
# python-kernels.sh - occcalc.kernels() gives the rows of occcalc
# --kernels, or refuses (t/python/kernels.py).
. "$T/pylib.sh"
