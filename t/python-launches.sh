#!/bin/sh
# python-launches.sh - occcalc.launches() gives the rows of occcalc
# --launches, as a stream (t/python/launches.py).
. "$T/pylib.sh"
