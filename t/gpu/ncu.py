"""ncu.py - what the GPU validation scripts share: Nsight Compute's CSV
log, read back by launch, and the device the evidence was made on."""
import csv
import datetime
import io
import os
import subprocess


def profile(ncu, metrics, cmd, stdin=None, extra=()):
    """Runs cmd under ncu (with extra ncu options, and stdin as its
    input); returns its stdout and, by launch ID in order, each launch's
    kernel name and metric values (as floats)."""
    log = "ncu-%d.csv" % os.getpid()
    out = subprocess.run([ncu, "--clock-control", "none", "--csv",
                          "--log-file", log, "--metrics", ",".join(metrics)]
                         + list(extra) + cmd, check=True, input=stdin,
                         stdout=subprocess.PIPE, text=True).stdout
    with open(log) as f:
        text = f.read()
    os.unlink(log)
    # Notes come first, then the CSV: one line per launch and metric.
    launches = {}
    for m in csv.DictReader(io.StringIO(text[text.index('"ID"'):])):
        launch = launches.setdefault(int(m["ID"]),
                                     {"kernel": m["Kernel Name"]})
        launch[m["Metric Name"]] = float(m["Metric Value"].replace(",", ""))
    return out, [launches[i] for i in sorted(launches)]


def device(occcalc):
    """The first device as occcalc --list-devices names it (its name,
    compute capability and SMs), the driver, the time."""
    out = subprocess.run([occcalc, "--list-devices", "-f", "csv", "--fields",
                          "name,computeCapability,multiProcessorCount"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    dev = ("%s (compute capability %s, %s SMs)" % (
        rows[0]["name"], rows[0]["computeCapability"],
        rows[0]["multiProcessorCount"]) if rows else "unknown")
    driver = subprocess.run(
        ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
        stdout=subprocess.PIPE, text=True).stdout.split("\n")[0].strip()
    now = datetime.datetime.now(datetime.timezone.utc)
    return (dev, driver or "unknown", now.strftime("%Y-%m-%d %H:%M"))
