# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The shape the speed benchmarks share: tools x sizes x repeats.

partikit and its peers (the tools users would pick instead) are timed on the
same data at each size; each timing is the median of its repeats
(:func:`_common.time_call`), the ratio of a peer is its median over partikit's,
and a peer that is not installed or that fails keeps the first line of its error
in place of a number, never an estimate. The run conditions (date, commit,
machine, versions, load, the CPU other processes used) come from
:class:`_common.RunContext`.

    peers = load_peers({"khiops": lambda: import_module("khiops.sklearn")})
    khiops = peers["khiops"]  # the module, or why it is missing
    comparison = Comparison("partikit")
    for size in sizes:
        comparison.time(size, "partikit", lambda: Ours().fit(X, y), repeats=5)
        if missing(khiops):
            comparison.skip(size, "khiops", "not installed: " + khiops)
        else:
            comparison.time(size, "khiops", lambda: khiops.KhiopsEncoder().fit(X, y))
    rows = [[size, *comparison.cells(size, "khiops")] for size in sizes]
    text = table(["size", "Khiops s", "Khiops / partikit"], rows)  # _common.table
"""

from __future__ import annotations

import warnings

from _common import first_line, time_call

MISSING = "–"


def load_peers(loaders):
    """``{name: loader}`` -> ``{name: loader()}``, or the first line of its error.

    A loader imports a peer and returns what the script calls (a class, a
    module); its import-time warnings are silenced. A peer that cannot be
    imported is a ``str``: see :func:`missing`.
    """
    peers = {}
    for name, loader in loaders.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                peers[name] = loader()
        except Exception as exc:  # noqa: BLE001 - reported, never faked
            peers[name] = first_line(exc)
    return peers


def missing(peer):
    """Whether ``peer`` (a value of :func:`load_peers`) could not be imported."""
    return isinstance(peer, str)


def verdict(ok):
    """The cell of a target: ``met`` or ``**not met**``."""
    return "met" if ok else "**not met**"


class Comparison:
    """Timings of tools at sizes, and their ratios to a reference tool.

    ``key`` is whatever identifies a size or a data set (a number, a tuple); a
    tool's entry is a :class:`_common.Timing`, or a string saying why there is
    none (the first line of its error, "not installed: ...", "not run: ...").
    """

    def __init__(self, reference="partikit"):
        self.reference = reference
        self.entries = {}

    def time(self, key, tool, fn, repeats=5, **options):
        """Time ``fn()`` (:func:`_common.time_call` with ``repeats`` and
        ``options``) as ``tool`` at ``key``; returns the Timing, or None when it
        raised (then the first line of the error is kept)."""
        try:
            timing = time_call(fn, repeats, **options)
        except Exception as exc:  # noqa: BLE001 - reported, never faked
            self.entries[key, tool] = first_line(exc)
            return None
        self.entries[key, tool] = timing
        return timing

    def record(self, key, tool, entry):
        """Record a Timing measured otherwise, or why there is none (a str)."""
        self.entries[key, tool] = entry

    def skip(self, key, tool, why):
        """Record that ``tool`` was not timed at ``key``, and why."""
        self.record(key, tool, why)

    def timing(self, key, tool):
        """The Timing of ``tool`` at ``key``, or None."""
        entry = self.entries.get((key, tool))
        return None if entry is None or isinstance(entry, str) else entry

    def error(self, key, tool):
        """Why ``tool`` has no timing at ``key`` (None when it has one)."""
        entry = self.entries.get((key, tool), "not run")
        return entry if isinstance(entry, str) else None

    def ratio(self, key, tool, reference=None):
        """``tool``'s median / the reference's median at ``key`` (None if either
        has no timing)."""
        ours = self.timing(key, reference or self.reference)
        theirs = self.timing(key, tool)
        if ours is None or theirs is None:
            return None
        return theirs.median / ours.median

    def ratio_cell(self, key, tool, digits=1, reference=None):
        ratio = self.ratio(key, tool, reference)
        return MISSING if ratio is None else f"{ratio:.{digits}f}x"

    def cells(self, key, tool, digits=1, prefix="failed: "):
        """``[median (min–max, n), ratio]``, or ``[prefix + why, "–"]``."""
        timing = self.timing(key, tool)
        if timing is None:
            return [prefix + self.error(key, tool), MISSING]
        return [timing.cell(), self.ratio_cell(key, tool, digits)]
