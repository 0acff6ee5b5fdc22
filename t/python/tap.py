"""TAP for the Python tests (t/python.sh runs them)."""
import importlib
import sys


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.failed += 1
        print("%sok %d - %s" % ("" if cond else "not ", self.n, what))
        sys.stdout.flush()
        return cond

    def diag(self, text):
        for line in str(text).splitlines():
            print("# " + line)

    def skip(self, why):
        self.n += 1
        print("ok %d # SKIP %s" % (self.n, why))
        sys.stdout.flush()

    def skip_all(self, why):
        print("1..0 # SKIP " + why)
        sys.exit(0)

    def done(self):
        print("1..%d" % self.n)
        sys.exit(1 if self.failed else 0)

    def package(self):
        """import occcalc, or skip all where it does not import."""
        try:
            return importlib.import_module("occcalc")
        except ImportError as e:
            self.skip_all("occcalc does not import: %s" % e)
