"""Rows a library call hands to a callback, yielded as they come: the
call runs on a thread, at most `buffered` rows wait in a queue, and a
caller that stops early stops the read (launches(), kernels())."""
import queue
import threading

from . import _lib

_END = object()


def rows(call, parse, buffered=256):
    """Yields parse(text) for each row call(take) hands to take (a
    _lib.JSON_ROW_FN); then returns call's result."""
    waiting = queue.Queue(maxsize=buffered)
    stop = threading.Event()
    outcome = {}

    @_lib.JSON_ROW_FN
    def take(ctx, text, length):
        if stop.is_set():
            return 1
        waiting.put(text.decode())
        return 0

    def read():
        try:
            outcome["result"] = call(take)
        except BaseException as e:      # raised on the caller's thread
            outcome["error"] = e
        finally:
            waiting.put(_END)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    finished = False
    try:
        while True:
            text = waiting.get()
            if text is _END:
                finished = True
                break
            yield parse(text)
    finally:
        if not finished:               # the caller stopped: so does the read
            stop.set()
            while reader.is_alive():   # a put may be waiting for room
                try:
                    waiting.get(timeout=0.1)
                except queue.Empty:
                    pass
        reader.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
