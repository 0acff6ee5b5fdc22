"""occcalc with Dask's local cluster: the functions hold no state, so an
engine maps them over work as it is; rows computed on two worker
processes equal the rows computed here, in order."""
import os

from tap import Tap

t = Tap()
try:
    import occcalc
    import dask.bag
    from distributed import Client, LocalCluster
except ImportError as e:
    t.skip_all("no Dask here (Debian: apt-get install python3-dask "
               "python3-distributed): %s" % e)

configs = [dict(arch=a, block=b, regs=r) for a in ("sm_80", "sm_90")
           for b in (64, 128, 256, 512, 1024) for r in (16, 32, 64, 128)]


def row(config):
    return occcalc.occupancy(**config)


def main():
    # Workers are started by spawning: this runs in the parent only.
    here = [row(c) for c in configs]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, \
            Client(cluster) as client:
        there = dask.bag.from_sequence(configs, npartitions=8).map(row).compute()
        pids = set(client.run(os.getpid).values())
    t.ok(there == here, "%d configurations mapped over a local cluster of two "
         "processes give the rows computed here" % len(configs))
    t.ok(len(pids) == 2 and os.getpid() not in pids,
         "the cluster's workers are two other processes")
    t.done()


if __name__ == "__main__":
    main()
