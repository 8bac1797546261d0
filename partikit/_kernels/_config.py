# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Compilation settings shared by every numba kernel.

``fastmath`` is deliberately absent: it implies no NaN and no infinity, and our kernels
test for both (empty rows, log of zero). The two largest loop kernels (CHAID's nominal
loop, the Khiops discretizer's merge steps) add ``no_rewrites=True``: they use no array
expression or constant raise that numba's IR rewrites serve, and skipping the passes
saves about 0.1 s of their first compilation (measured in fresh processes,
alternated), with the same run times. Kernels that branch on ``weights is None``
need the rewrites (the branch is pruned after them).

CHAID's nominal loop takes ``NO_REWRITES`` rather than ``no_rewrites=True``: numba's
pipeline with its dead-branch pruning put back (the rewrites skip it too), so that a
branch on a closure constant is not compiled where it is dead.

CHAID's nominal loop, which allocates no array (its workspaces are the caller's), adds
``NO_REFCOUNTS``: numba's private ``_nrt=False``, which compiles no reference counting
of the arrays it views (a view per row of its state, released at each of its return
points): 0.15 s less of its first compilation, the same run times. Where a numba
version lacks the option, it is left out.

Every kernel is compiled without its C-callable wrapper (``no_cfunc_wrapper``), which
numba makes only for a function passed to another kernel as a value (none is): 0.03
to 0.1 s less of a cold first fit, measured alternated in fresh processes.

Kernels are compiled lazily (no signature strings) so that ``import partikit`` stays
fast, and cached on disk so that only the first process pays the compilation.

numba caches a kernel in ``$NUMBA_CACHE_DIR`` when it is set and writable, else in a
``__pycache__`` folder beside the source, else in the user's cache folder
(``~/.cache/numba``). When none of them is writable (a read-only install run by a
user without a writable home), ``cache=True`` makes the decorator itself raise, and
``import partikit`` would fail: the kernels are then compiled without the disk
cache, in every process, and ``import partikit`` warns how to keep them.
"""


def _disk_cache_available():
    """Whether numba finds a writable cache folder for the kernels of this package."""
    try:
        from numba.core.caching import FunctionCache
    except ImportError:  # a numba without this (private) class: let it decide
        return True

    def probe():  # pragma: no cover - never called, only located
        pass

    try:
        FunctionCache(probe)
    except RuntimeError:
        return False
    return True


NJIT = {"cache": _disk_cache_available(), "nogil": True, "no_cfunc_wrapper": True}


def _no_refcounts():
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # a numba without this (private) class
        return {}
    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


NO_REFCOUNTS = _no_refcounts()


def _no_rewrites():
    """``no_rewrites=True``, keeping the pruning of branches on constants.

    numba's ``no_rewrites`` also skips its dead-branch pruning, which a kernel
    built by a factory needs: a branch on a closure constant (CHAID's loops,
    one source for two statistics) must not be compiled where it is dead, or
    every fit compiles the other statistic's functions. The pipeline is numba's
    with that one pass put back; where numba lacks these (private) classes the
    rewrites stay on (the pruning with them).
    """
    try:
        from numba.core.compiler import CompilerBase, DefaultPassBuilder
        from numba.core.untyped_passes import DeadBranchPrune, InlineInlinables
    except ImportError:  # a numba without these classes
        return {}

    class PruningCompiler(CompilerBase):
        def define_pipelines(self):
            pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
            if self.state.flags.no_rewrites:
                pm.add_pass_after(DeadBranchPrune, InlineInlinables)
                pm.finalize()
            return [pm]

    return {"no_rewrites": True, "pipeline_class": PruningCompiler}


#: ``no_rewrites=True`` (see above), with the pruning of dead branches.
NO_REWRITES = _no_rewrites()


def is_ready(kernel):
    """Whether calling ``kernel`` compiles nothing: it is compiled in this process
    or its machine code is in numba's disk cache (for this source and CPU).

    Reads numba's cache index (a private structure, hence the guard: any change
    of it answers False, which only costs a caller the wait it would otherwise
    avoid).
    """
    if not hasattr(kernel, "signatures") or kernel.signatures:
        return True  # compiled, or plain Python (NUMBA_DISABLE_JIT=1)
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - no disk cache, or another numba layout
        return False
