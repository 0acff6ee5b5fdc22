"""Rows a library call hands to a callback, as an iterator: the call runs
in a thread of its own and at most `buffered` rows wait, so a trace or a
sweep of any size is read in bounded memory; stopping early stops the
call (its callback answers 1)."""
import queue
import threading

from . import _lib

_END = object()


def rows(call, refused, scan, buffered=256):
    """Each row call(take) hands to take, scanned by scan; call returns
    (status, diag), and refused(status, diag) raises for a status not 0
    once the rows before it are taken."""
    held = queue.Queue(maxsize=buffered)
    stop = threading.Event()
    outcome = {}

    @_lib.JSON_ROW_FN
    def take(ctx, text, length):
        if stop.is_set():
            return 1
        held.put(text.decode())
        return 0

    def run():
        try:
            outcome["status"], outcome["diag"] = call(take)
        finally:
            held.put(_END)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    finished = False
    try:
        while True:
            text = held.get()
            if text is _END:
                finished = True
                break
            yield scan(text, 0)[0]
    finally:
        if not finished:               # the caller stopped: so does the call
            stop.set()
            while runner.is_alive():   # a put may be waiting for room
                try:
                    held.get(timeout=0.1)
                except queue.Empty:
                    pass
        runner.join()
    st = outcome.get("status", 0)
    if st != 0:
        refused(st, outcome["diag"])
