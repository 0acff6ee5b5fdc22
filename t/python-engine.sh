#!/bin/sh
# python-engine.sh - occcalc mapped over a Dask local cluster gives the
# rows computed in one process (t/python/engine.py).
. "$T/pylib.sh"
