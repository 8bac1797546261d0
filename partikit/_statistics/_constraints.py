# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Bin constraints of the discretizers: monotonic trend, bin sizes, event counts.

What is constrained is the value table being cut (rows = distinct values in
order; the missing row is not in it). For a binary target the trend is on the
event rate (share of the weight in column 1 of a 2-class table), for a
continuous target on the mean of a moment table. Monotonicity is not strict:
equal rates are allowed (as in optbinning).

* :func:`constrained_multisplit`: the exact optimum of an additive interval cost
  under the constraints, for every number of intervals (a dynamic programme,
  :mod:`partikit._kernels._constrained`); BlockOpt and MODL call it.
* :func:`repair_intervals`: the heuristic of the methods whose criterion is not
  additive over intervals (MDLP, Khiops): their intervals, an oversized interval
  cut, then adjacent intervals merged, the cheapest merge first, until every
  constraint holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from partikit._kernels._codes import SQUARED_ERROR
from partikit._kernels._constrained import (
    ASCENDING,
    NO_TREND,
    PEAK,
    constrained_dp,
    interval_cost_matrix,
    interval_limits,
)
from partikit._kernels._multisplit import prefix_sums, segment_sums, xlogx_table
from partikit._statistics._contingency import resolve_count
from partikit._statistics._moments import CONTINUOUS, SUM, WEIGHT

#: The trends each ``monotonic_trend`` stands for: "auto" solves them all (with
#: a fixed number of intervals, or for a heuristic method, the two monotone
#: ones only: a peak would otherwise win by fitting more).
AUTO_TRENDS = ("ascending", "descending", "peak", "valley")
AUTO_MONOTONE_TRENDS = ("ascending", "descending")

#: Units (rows or granules) of an exact constrained search by default. The DP
#: is O(m^2 log m + K m^2) time and O(K m^2) memory; measured (ascending,
#: ``max_bins=10``, benchmarks/bench_constraints.py) at m = 256 / 512 / 1024 /
#: 2048: 0.005 / 0.038 / 0.16 / 1.1 s (docs/user_guide/constraints.rst): past
#: 1024 the time grows faster than m^2 (the state leaves the caches).
CONSTRAINED_EXACT_LIMIT = 1024

#: Bytes of back-pointers (``K x phases x (m+1)^2`` int32) a search may use: past
#: them, fewer, coarser granules.
BACK_POINTER_BUDGET = 1 << 28

#: Rounds of cuts then merges of the heuristic (a merge forced over the
#: maximum size is cut again in the next round).
_REPAIR_ROUNDS = 8

#: Gaps of an oversized interval, best first, tried for one keeping the trend.
_TREND_TRIES = 256

#: Relative tolerance on float sums of weight when comparing to a size limit.
_SIZE_TOLERANCE = 1e-9


@dataclass
class BinConstraints:
    """The constraints of one table, in weights (fractions resolved).

    Attributes
    ----------
    monotonic_trend : str or None
        As the estimator's parameter (``"auto"`` included).
    min_bin_weight, max_bin_weight : float or None
    min_bin_n_event, min_bin_n_nonevent : float or None
    target_type : None or "continuous"
    """

    monotonic_trend: str | None = None
    min_bin_weight: float | None = None
    max_bin_weight: float | None = None
    min_bin_n_event: float | None = None
    min_bin_n_nonevent: float | None = None
    target_type: str | None = None

    @property
    def sizes_only(self):
        return self.monotonic_trend is None


def resolve_constraints(estimator, table, continuous, *, min_bin_size=True):
    """The :class:`BinConstraints` of an estimator's parameters on one table.

    None when no constraint is set. ``min_bin_size=False``: the estimator's
    ``min_bin_size`` is its own (Khiops) and not read here.

    Raises
    ------
    ValueError
        ``monotonic_trend`` or ``min_bin_n_event`` / ``min_bin_n_nonevent`` with
        a multiclass target; ``min_bin_n_*`` with a continuous target.
    """
    trend = estimator.monotonic_trend
    min_size = estimator.min_bin_size if min_bin_size else None
    if min_size == "auto" or min_size == 0:
        # "auto": the method's own minimum, none for these methods
        min_size = None
    max_size = estimator.max_bin_size
    n_event = estimator.min_bin_n_event
    n_nonevent = estimator.min_bin_n_nonevent
    if all(v is None for v in (trend, min_size, max_size, n_event, n_nonevent)):
        return None
    if continuous:
        for name, value in (
            ("min_bin_n_event", n_event),
            ("min_bin_n_nonevent", n_nonevent),
        ):
            if value is not None:
                raise ValueError(
                    f"{name} counts the events of a binary target; the target is "
                    f"continuous. Set {name}=None (min_bin_size bounds the bins' "
                    "weight)."
                )
        total = float(table[:, WEIGHT].sum())
    else:
        if table.shape[1] > 2:
            for name, value in (
                ("monotonic_trend", trend),
                ("min_bin_n_event", n_event),
                ("min_bin_n_nonevent", n_nonevent),
            ):
                if value is not None:
                    raise ValueError(
                        f"{name} needs a binary target (an event rate); the "
                        f"target has {table.shape[1]} classes. Set {name}=None, "
                        "or bin a binary target (one class against the rest)."
                    )
        total = float(table.sum())
    return BinConstraints(
        monotonic_trend=trend,
        min_bin_weight=None if min_size is None else resolve_count(min_size, total),
        max_bin_weight=None if max_size is None else resolve_count(max_size, total),
        min_bin_n_event=None if n_event is None else float(n_event),
        min_bin_n_nonevent=None if n_nonevent is None else float(n_nonevent),
        target_type=CONTINUOUS if continuous else None,
    )


def trends_to_solve(monotonic_trend, *, all_shapes):
    """The trends a ``monotonic_trend`` stands for (``"auto"``: several)."""
    if monotonic_trend == "auto":
        return AUTO_TRENDS if all_shapes else AUTO_MONOTONE_TRENDS
    return (monotonic_trend,)


def _weights_events(table, target_type):
    """Per row: weight, event weight (None for moments), non-event weight."""
    if target_type == CONTINUOUS:
        return table[:, WEIGHT], None, None
    weights = table.sum(axis=1)
    if table.shape[1] == 2:
        return weights, table[:, 1], table[:, 0]
    return weights, None, None


def rates_of(table, target_type):
    """The trend's rate of each row: event rate (binary) or mean (moments)."""
    table = np.asarray(table, dtype=np.float64)
    if target_type == CONTINUOUS:
        weights, sums = table[:, WEIGHT], table[:, SUM]
    else:
        weights, sums = table.sum(axis=1), table[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(weights > 0, sums / np.where(weights > 0, weights, 1), 0.0)


def admissible(parts, constraints):
    """Whether each part (row of summed table rows) meets the size and event
    constraints (each limit with a relative tolerance of 1e-9: float sums of
    weights must not decide)."""
    parts = np.atleast_2d(np.asarray(parts, dtype=np.float64))
    weights, events, nonevents = _weights_events(parts, constraints.target_type)
    ok = np.ones(parts.shape[0], dtype=bool)
    low, high = 1 - _SIZE_TOLERANCE, 1 + _SIZE_TOLERANCE
    if constraints.min_bin_weight is not None:
        ok &= weights >= constraints.min_bin_weight * low
    if constraints.max_bin_weight is not None:
        ok &= weights <= constraints.max_bin_weight * high
    if constraints.min_bin_n_event is not None:
        ok &= events >= constraints.min_bin_n_event * low
    if constraints.min_bin_n_nonevent is not None:
        ok &= nonevents >= constraints.min_bin_n_nonevent * low
    return ok


def follows_trend(rates, trend):
    """Whether a sequence of rates follows a trend (equal rates allowed)."""
    rates = np.asarray(rates, dtype=np.float64)
    if trend is None or len(rates) < 2:
        return True
    if trend in ("descending", "valley"):
        rates = -rates
    steps = np.diff(rates)
    if trend in ("ascending", "descending"):
        return bool((steps >= 0).all())
    # a peak: rising (non-strictly) then falling
    falling = np.flatnonzero(steps < 0)
    if len(falling) == 0:
        return True
    return bool((steps[falling[0] :] <= 0).all())


def _limits(constraints):
    """The limits of :func:`~partikit._kernels._constrained.interval_limits`
    (min weight, max weight, min events, min non-events), with
    :func:`admissible`'s tolerance."""
    low, high = 1 - _SIZE_TOLERANCE, 1 + _SIZE_TOLERANCE

    def bound(value, scale, default):
        return default if value is None else value * scale

    return np.array(
        [
            bound(constraints.min_bin_weight, low, -np.inf),
            bound(constraints.max_bin_weight, high, np.inf),
            bound(constraints.min_bin_n_event, low, -np.inf),
            bound(constraints.min_bin_n_nonevent, low, -np.inf),
        ]
    )


def equal_weight_granules(weights, n_granules):
    """Starts of at most ``n_granules`` runs of rows of about equal weight.

    The run boundaries are the rows where the cumulative weight first reaches
    ``q / n_granules`` of the total, ``q = 1 .. n_granules - 1`` (duplicates
    dropped): a heavy row is a granule of its own.
    """
    n_rows = len(weights)
    if n_rows <= n_granules:
        return np.arange(n_rows, dtype=np.intp)
    cumulative = np.cumsum(weights)
    targets = cumulative[-1] * np.arange(1, n_granules) / n_granules
    # the first row after which the weight reaches the target starts the next
    ends = np.searchsorted(cumulative, targets, side="left") + 1
    ends = ends[(ends > 0) & (ends < n_rows)]
    return np.unique(np.concatenate([[0], ends])).astype(np.intp)


def impurity_costs(criterion_code):
    """An ``interval_costs`` function for :func:`constrained_multisplit`: the
    cost of :func:`~partikit._kernels._multisplit.interval_cost` (entropy in
    bits, Gini, or squared error), the same floats as the unconstrained
    search's."""

    def costs(units):
        units = np.ascontiguousarray(units, dtype=np.float64)
        if criterion_code == SQUARED_ERROR:
            # about the overall mean: the same squared errors, without the
            # cancellation of large sums of squares
            w, s = units[:, WEIGHT], units[:, SUM]
            mean = s.sum() / w.sum() if w.sum() > 0 else 0.0
            units = np.column_stack(
                [w, s - w * mean, units[:, 2] - 2 * mean * s + mean * mean * w]
            )
        cum = prefix_sums(units)
        total = float(cum[-1].sum())
        integral = bool(np.all(units == np.floor(units)))
        xlogx = (
            xlogx_table(int(total) + 1)
            if integral and total + 1 <= (1 << 22) and criterion_code != SQUARED_ERROR
            else np.zeros(0)
        )
        # (the pairs j >= i are never read)
        out = np.empty((cum.shape[0], cum.shape[0]))
        interval_cost_matrix(cum, criterion_code, xlogx, out)
        return out

    return costs


@dataclass
class ConstrainedMultisplit:
    """Least costs under constraints, for every number of intervals.

    Attributes
    ----------
    values : ndarray of float64 of shape (K,)
        ``values[k - 1]``: least total cost with exactly ``k`` intervals,
        ``inf`` when no partition into ``k`` intervals meets the constraints.
    cuts : list of (ndarray of intp or None)
        ``cuts[k - 1]``: the cut positions (table rows before each cut) of that
        optimum, None where ``values`` is infinite.
    monotonic_trend : str or None
        The trend solved for.
    exact : bool
        Whether the search ran on every row (False: on equal-weight granules).
    n_units : int
        Rows or granules searched.
    """

    values: np.ndarray
    cuts: list
    monotonic_trend: str | None
    exact: bool
    n_units: int
    statistics: dict = field(default_factory=dict)

    @property
    def feasible(self):
        return bool(np.isfinite(self.values).any())


def _unit_limit(exact_limit, max_bins, phases):
    """Units an exact search may run on: ``exact_limit`` (None: no limit), and
    as many as keep the back-pointers within :data:`BACK_POINTER_BUDGET`."""
    limit = math.inf if exact_limit is None else exact_limit
    # K x phases x (m + 1)^2 x 4 bytes, K <= m
    fits = 2
    m = 2
    while m <= limit:
        k = m if max_bins is None else min(max_bins, m)
        if k * phases * (m + 1) ** 2 * 4 > BACK_POINTER_BUDGET:
            break
        fits = m
        m = min(m + max(m // 16, 1), limit) if m < limit else m + 1
    return fits


def constrained_multisplit(
    table,
    interval_costs,
    *,
    max_bins,
    monotonic_trend=None,
    min_bin_weight=None,
    max_bin_weight=None,
    min_bin_n_event=None,
    min_bin_n_nonevent=None,
    target_type=None,
    exact_limit=CONSTRAINED_EXACT_LIMIT,
):
    """Optimal partitions of a value table under bin constraints, for each arity.

    Minimises the sum over intervals of ``interval_costs`` (any cost additive
    over intervals: an impurity, the squared error, MODL's interval terms)
    subject to: every interval's weight in ``[min_bin_weight,
    max_bin_weight]``, its event weight at least ``min_bin_n_event`` and its
    non-event weight at least ``min_bin_n_nonevent`` (binary tables), and the
    intervals' rates (event rate, or mean of a moment table) following
    ``monotonic_trend``, equal rates allowed.

    A dynamic programme over the rows (state: the last interval and the number
    of intervals; see :mod:`partikit._kernels._constrained`): O(V^2 log V + K
    V^2) time for a trend (twice the state for a peak or a valley), O(K V^2)
    without; O(K V^2) memory for the back-pointers. Boundary points cannot
    prune the candidate cuts here: Fayyad & Irani's theorem (the best cut lies
    between two values of different class distribution) holds for the
    unconstrained impurity only: a size limit or a trend may force a cut
    inside a run of values of one class distribution. So the search runs on
    every row, up to ``exact_limit`` rows (and the back-pointer budget);
    beyond, on that many equal-weight granules of rows (``exact=False``): the
    constraints still hold exactly (they are checked on the granules' sums,
    the bins' own), the cuts are optimal among the granule boundaries.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_columns)
        Class counts (binary for a trend or event counts) or moments
        (``target_type="continuous"``) of each distinct value, in order.
    interval_costs : callable
        ``interval_costs(units)`` -> ndarray of shape (m + 1, m + 1) whose
        ``[j, i]`` is the cost of units ``j .. i-1`` (``j < i``).
    max_bins : int
        Largest number of intervals ``K``.
    monotonic_trend : {None, "ascending", "descending", "peak", "valley"}
    min_bin_weight, max_bin_weight, min_bin_n_event, min_bin_n_nonevent : float or None
    target_type : None or "continuous"
    exact_limit : int or None, default=1024

    Returns
    -------
    result : ConstrainedMultisplit
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    constraints = BinConstraints(
        monotonic_trend, min_bin_weight, max_bin_weight, min_bin_n_event,
        min_bin_n_nonevent, target_type,
    )  # fmt: skip
    n_rows = table.shape[0]
    phases = 2 if monotonic_trend in ("peak", "valley") else 1
    limit = _unit_limit(exact_limit, max_bins, phases)
    weights = _weights_events(table, target_type)[0]
    if n_rows > limit:
        starts = equal_weight_granules(weights, limit)
        units = segment_sums(table, starts)
    else:
        starts = np.arange(n_rows, dtype=np.intp)
        units = table
    m = units.shape[0]
    K = max(1, min(int(max_bins), m))
    costs = np.ascontiguousarray(interval_costs(units), dtype=np.float64)
    # inadmissible intervals barred (cost inf) and every interval's rate, in
    # one pass over the pairs (no (m + 1)^2 x columns temporaries)
    rates = np.empty((m + 1, m + 1))
    interval_limits(
        prefix_sums(np.ascontiguousarray(units, dtype=np.float64)),
        target_type == CONTINUOUS, _limits(constraints), costs, rates,
    )  # fmt: skip
    if monotonic_trend in ("descending", "valley"):
        rates = -rates
    code = {None: NO_TREND, "ascending": ASCENDING, "descending": ASCENDING}.get(
        monotonic_trend, PEAK
    )
    if code == NO_TREND:
        # no order by rate is read
        predecessors = successors = np.empty((m + 1, m + 1), dtype=np.intp)
        predecessor_rates = successor_rates = rates
    else:
        index = np.arange(m + 1)
        # predecessors[j, :j]: starts h < j by rates[h, j]; successors[j,
        # :m-j]: ends i > j by rates[j, i] (the others sorted last, never read)
        before = np.where(index[None, :] < index[:, None], rates.T, np.inf)
        predecessors = np.argsort(before, axis=1, kind="stable").astype(np.intp)
        predecessor_rates = np.take_along_axis(before, predecessors, axis=1)
        after = np.where(index[None, :] > index[:, None], rates, np.inf)
        successors = np.argsort(after, axis=1, kind="stable").astype(np.intp)
        successor_rates = np.take_along_axis(after, successors, axis=1)
    F = np.empty((2, phases, m + 1, m + 1))
    # (read only at states the programme reached, which it wrote)
    back = np.empty((K + 1, phases, m + 1, m + 1), dtype=np.int32)
    best = np.empty(K + 1)
    arg = np.empty(K + 1, dtype=np.intp)
    constrained_dp(
        costs, predecessors, predecessor_rates, successors, successor_rates, code,
        F, np.empty((phases, m + 1)), back, best, arg,
    )  # fmt: skip
    values = best[1:].copy()
    cuts = []
    for k in range(1, K + 1):
        if not np.isfinite(best[k]):
            cuts.append(None)
            continue
        ends = []
        state = int(arg[k])
        end = m
        for layer in range(k, 1, -1):
            j, p = divmod(state, 2)
            ends.append(j)
            state = int(back[layer, p, j, end])
            end = j
        unit_cuts = np.asarray(ends[::-1], dtype=np.intp)
        cuts.append(starts[unit_cuts] if len(unit_cuts) else unit_cuts)
    return ConstrainedMultisplit(
        values=values,
        cuts=cuts,
        monotonic_trend=monotonic_trend,
        exact=m == n_rows,
        n_units=m,
    )


# --- the heuristic of MDLP and Khiops ---


def _bits(counts):
    """``n log2 n - sum_j n_j log2 n_j`` of each row (entropy in bits x n)."""
    counts = np.atleast_2d(counts)
    n = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * np.log2(counts), 0.0).sum(axis=1)
        whole = np.where(n > 0, n * np.log2(n), 0.0)
    return whole - terms


def entropy_merge_cost(left, right, totals):
    """Entropy increase (bits) of merging each row of ``left`` with the same
    row of ``right``: MDLP's measure (the information gain of the cut between
    them)."""
    left, right = np.atleast_2d(left), np.atleast_2d(right)
    return _bits(left + right) - _bits(left) - _bits(right)


def chi2_merge_cost(left, right, totals):
    """DeltaChi2 of merging each row of ``left`` with the same row of
    ``right`` (the chi-square of the rows against the class, with the table's
    class shares ``totals``): Khiops's measure."""
    left, right = np.atleast_2d(left), np.atleast_2d(right)
    shares = totals / totals.sum()
    present = shares > 0

    def contribution(c):
        n = c.sum(axis=1, keepdims=True)
        expected = n * shares[present]
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(
                expected > 0, (c[:, present] - expected) ** 2 / expected, 0.0
            )
        return terms.sum(axis=1)

    return contribution(left) + contribution(right) - contribution(left + right)


def _trend_violations(rates, trend):
    """Adjacent pairs ``(b, b + 1)`` at which the trend breaks."""
    if trend in ("descending", "valley"):
        rates = -rates
    steps = np.diff(rates)
    if trend in ("ascending", "descending"):
        return np.flatnonzero(steps < 0)
    # peak: rising up to the (first) highest interval, falling after it
    top = int(np.argmax(rates))
    return np.concatenate(
        [np.flatnonzero(steps[:top] < 0), top + np.flatnonzero(steps[top:] > 0)]
    )


def repair_intervals(table, cuts, merge_cost, constraints, trend):
    """A method's intervals made to meet bin constraints (the heuristic).

    1. An interval heavier than ``max_bin_weight`` is cut at its admissible
       row gap (both sides meeting the minimum size and event counts) of
       largest ``merge_cost`` (the cut the method's measure values most),
       until none is (or none can be cut).
    2. While an interval is below a minimum (size, events, non-events) or
       the rates break ``trend``, the adjacent pair whose merge costs least by
       ``merge_cost`` among the pairs holding an offending interval (or
       straddling a break of the trend) is merged; a merge that would exceed
       ``max_bin_weight`` is taken only when no other is offered.
    3. Steps 1 and 2 again while an interval is over ``max_bin_weight`` (at
       most 8 rounds).

    O(B^2) merge evaluations for B intervals, plus O(rows) per cut of step 1.

    Returns
    -------
    cuts : ndarray of intp
    feasible : bool
        Whether every constraint holds at the end.
    """
    table = np.asarray(table, dtype=np.float64)
    totals = table.sum(axis=0)
    n_rows = table.shape[0]
    cuts = [int(c) for c in cuts]
    sizes_max = constraints.max_bin_weight
    minimums = _minimums(constraints)

    def weights_of(parts):
        return _weights_events(np.atleast_2d(parts), constraints.target_type)[0]

    # a merge forced over max_bin_weight is cut again: a few rounds
    for _ in range(_REPAIR_ROUNDS):
        # 1. oversized intervals cut
        if sizes_max is not None:
            changed = True
            while changed:
                changed = False
                edges = [0, *cuts, n_rows]
                for a, b in zip(edges[:-1], edges[1:], strict=True):
                    whole = table[a:b].sum(axis=0)
                    if weights_of(whole)[0] <= sizes_max * (1 + _SIZE_TOLERANCE):
                        continue
                    # every gap of the interval at once: both sides must
                    # meet the minimums; a cut keeping the trend is preferred
                    left = np.cumsum(table[a : b - 1], axis=0)
                    right = whole - left
                    fits = admissible(left, minimums) & admissible(right, minimums)
                    if not fits.any():
                        continue
                    gains = np.where(fits, merge_cost(left, right, totals), -np.inf)
                    # the best gap by the measure, or among the best
                    # _TREND_TRIES the first that keeps the trend
                    ranked = np.argsort(-gains, kind="stable")[: int(fits.sum())]
                    at = a + 1 + int(ranked[0])
                    if trend is not None:
                        parts = segment_sums(table, np.array(edges[:-1], np.intp))
                        rates = rates_of(parts, constraints.target_type)
                        position = edges.index(a)
                        before, after = rates[:position], rates[position + 1 :]
                        for t in ranked[:_TREND_TRIES]:
                            pair = rates_of(
                                np.vstack([left[t], right[t]]), constraints.target_type
                            )
                            sequence = np.concatenate([before, pair, after])
                            if follows_trend(sequence, trend):
                                at = a + 1 + int(t)
                                break
                    if at > 0:
                        cuts = sorted([*cuts, at])
                        changed = True
                        break
        # 2. merges
        while True:
            edges = np.array([0, *cuts, n_rows], dtype=np.intp)
            parts = segment_sums(table, edges[:-1])
            if len(parts) < 2:
                break
            bad = ~admissible(parts, minimums)
            pairs = set()
            for b in np.flatnonzero(bad):
                if b > 0:
                    pairs.add(int(b) - 1)
                if b + 1 < len(parts):
                    pairs.add(int(b))
            if trend is not None:
                rates = rates_of(parts, constraints.target_type)
                pairs.update(int(b) for b in _trend_violations(rates, trend))
            if not pairs:
                break
            options = []
            for b in sorted(pairs):
                merged = parts[b] + parts[b + 1]
                over = sizes_max is not None and weights_of(merged)[0] > sizes_max * (
                    1 + _SIZE_TOLERANCE
                )
                cost = float(merge_cost(parts[b], parts[b + 1], totals)[0])
                options.append((over, cost, b))
            _, _, b = min(options)
            del cuts[b]
        parts = segment_sums(table, np.array([0, *cuts], dtype=np.intp))
        if admissible(parts, constraints).all():
            break
    parts = segment_sums(table, np.array([0, *cuts], dtype=np.intp))
    feasible = bool(admissible(parts, constraints).all()) and follows_trend(
        rates_of(parts, constraints.target_type), trend
    )
    return np.asarray(cuts, dtype=np.intp), feasible


def _minimums(constraints):
    """The constraints without the maximum size."""
    return BinConstraints(
        None, constraints.min_bin_weight, None, constraints.min_bin_n_event,
        constraints.min_bin_n_nonevent, constraints.target_type,
    )  # fmt: skip


def infeasible_message(constraints):
    """The warning of a table no partition of which meets the constraints."""
    return (
        "no partition of the column meets the bin constraints (min_bin_size, "
        "max_bin_size, min_bin_n_event, min_bin_n_nonevent, monotonic_trend); "
        "it is encoded as one bin. Loosen the constraints."
    )


def constrained_repair(table, cuts, constraints, merge_cost, score):
    """:func:`repair_intervals` of a method's cuts for each trend
    ``monotonic_trend`` stands for (``"auto"``: ascending and descending), the
    repaired cuts of largest ``score(cuts)`` kept.

    Returns
    -------
    cuts : ndarray of intp
    statistics : dict
        ``monotonic_trend`` (the trend kept), ``n_cuts_before`` (the method's
        own cuts), and ``warning`` when no repair meets every constraint (the
        column is then one interval).
    """
    trends = (None,)
    if constraints.monotonic_trend is not None:
        trends = trends_to_solve(constraints.monotonic_trend, all_shapes=False)
    best = None
    for trend in trends:
        repaired, feasible = repair_intervals(
            table, cuts, merge_cost, constraints, trend
        )
        if not feasible:
            continue
        value = score(repaired)
        if best is None or value > best[0]:
            best = (value, repaired, trend)
    statistics = {"n_cuts_before": len(cuts)}
    if best is None:
        statistics["monotonic_trend"] = constraints.monotonic_trend
        statistics["feasible"] = False
        statistics["warning"] = infeasible_message(constraints)
        return np.zeros(0, dtype=np.intp), statistics
    statistics["feasible"] = True
    statistics["monotonic_trend"] = best[2]
    return best[1], statistics


def quiet_in_a_tree(result, context):
    """Drop the warning of an infeasible table cut by ``cut_table``.

    ``fit`` warns when a column cannot meet the constraints; a table given to
    ``cut_table`` is the tree's node (``context`` None): a node too small for
    the constraints is simply not cut (``statistics["feasible"]`` says so),
    without a warning per node.
    """
    if context is None and result.statistics.get("feasible") is False:
        result.statistics.pop("warning", None)
    return result
