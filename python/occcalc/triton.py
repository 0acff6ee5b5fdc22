"""Triton autotuning: configs whose occupancy on this GPU is below a
bound are dropped before they are benchmarked.

    import triton, occcalc.triton

    @triton.autotune(configs=[...], key=["n"],
                     prune_configs_by={"early_config_prune":
                         occcalc.triton.prune_below(50, lambda: kernel)})
    @triton.jit
    def kernel(...): ...

Each config is compiled for the arguments of the call (Triton's warmup:
nothing runs), and its occupancy computed as occcalc computes it from the
compiled kernel: a block of 32 x num_warps threads, its registers, its
"shared" bytes of dynamic shared memory, on the current device's
architecture. Configs that do not compile are kept (Triton reports
them). Where every config is below the bound, the best ones are kept.
"""
from . import occupancy


def current_arch():
    """sm_XY of the device Triton targets now."""
    import triton
    target = triton.runtime.driver.active.get_current_target()
    return "sm_%d" % target.arch


def config_occupancy(compiled, arch):
    """occcalc's row for a compiled Triton kernel (its launch)."""
    if getattr(compiled, "n_regs", None) is None:
        compiled._init_handles()    # Triton reads them when it loads it
    meta = compiled.metadata
    return occupancy(arch=arch, block=32 * meta.num_warps,
                     regs=compiled.n_regs, smem=meta.shared)


def prune_below(min_occupancy_pct, kernel, arch=None):
    """An early_config_prune function keeping the configs of at least
    min_occupancy_pct theoretical occupancy. kernel: the @triton.jit
    function (or a callable returning it, for use in its own decorator);
    arch: sm_XY, else the current device's. Its .rows records, for each
    config seen, the occcalc row (None where it did not compile)."""

    def prune(configs, named_args, **kwargs):
        fn = kernel() if callable(kernel) and not hasattr(kernel, "warmup") \
            else kernel
        target = arch or current_arch()
        scored = []
        for config in configs:
            try:
                compiled = fn.warmup(**named_args, **config.all_kwargs(),
                                     grid=(1,))
                row = config_occupancy(compiled, target)
            except Exception:   # Triton's to report, when it runs it
                row = None
            prune.rows.append((config, row))
            scored.append((config, row))
        kept = [c for c, r in scored
                if r is None or r["occupancy_pct"] >= min_occupancy_pct]
        if kept:
            return kept
        best = max(r["occupancy_pct"] for _, r in scored)
        return [c for c, r in scored if r["occupancy_pct"] == best]

    prune.rows = []
    return prune
