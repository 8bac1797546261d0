# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the constrained optimal multisplit (monotonic trend, bin sizes).

The dynamic programme runs over the rows of a table (or its granules). Its state
is the last interval, rows ``j .. i-1``, and the number of intervals ``k``: a
monotonic trend couples each interval to its predecessor (its rate must not be
above, or below, the next one's), so the state must remember the last interval,
not only where it ends. ``F[k, j, i]`` is the least total cost of a partition of
rows ``0 .. i-1`` into ``k`` admissible intervals whose last is ``j .. i-1`` and
whose rates follow the trend.

* No trend: ``F[k, j, i] = cost(j, i) + min_h F[k-1, h, j]``: O(K V^2) time.
* Ascending: the minimum runs over the predecessors ``h .. j-1`` of rate at most
  ``rate(j, i)``. The predecessors of ``j`` sorted by rate, and the successors
  ``i`` sorted by rate, are known before the first layer (sorted once, outside
  the kernel); a merge of the two sorted lists with a running minimum answers
  every ``i`` of one ``j`` in O(V): O(V^2 log V) for the sorts and O(K V^2) for
  the layers. (Descending: the same on the negated rates.)
* Peak: a phase is added, rising (0) then falling (1): a falling interval
  follows a rising or a falling one of rate at least its own (a second merge,
  from the largest rates down). Same order of cost, twice the state. (Valley:
  the peak of the negated rates.)

Memory: two layers of ``F`` (``2 x phases x (V+1)^2`` float64) and the
back-pointers of every layer (``K x phases x (V+1)^2`` int32), which the caller
bounds by pooling rows into granules.
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT
from partikit._kernels._multisplit import interval_cost

#: Trend codes of :func:`constrained_dp` (descending and valley are these on the
#: negated rates).
NO_TREND = 0
ASCENDING = 1
PEAK = 2


@njit(**NJIT)
def interval_cost_matrix(cum, criterion, xlogx, out):
    """``out[j, i]`` = :func:`~partikit._kernels._multisplit.interval_cost` of
    units ``j .. i-1`` for every ``j < i`` (the rest is left as it is)."""
    m = cum.shape[0] - 1
    for j in range(m):
        for i in range(j + 1, m + 1):
            out[j, i] = interval_cost(cum, j, i, criterion, xlogx)


@njit(**NJIT)
def constrained_dp(
    costs, predecessors, predecessor_rates, successors, successor_rates, trend,
    F, column, back, best, arg,
):  # fmt: skip
    """Least cost of ``k`` intervals under a trend, for every ``k <= K``.

    Parameters
    ----------
    costs : ndarray of float64 of shape (m + 1, m + 1)
        ``costs[j, i]``: cost of the interval of units ``j .. i-1`` (``j < i``),
        ``inf`` where the interval is not admissible (its size or event counts).
    predecessors : ndarray of intp of shape (m + 1, m + 1)
        ``predecessors[j, :j]``: the starts ``h < j`` sorted by the rate of
        units ``h .. j-1`` (stable: ties by ``h``); unread without a trend.
    predecessor_rates : ndarray of float64 of shape (m + 1, m + 1)
        ``predecessor_rates[j, t]``: the rate of units ``predecessors[j, t] ..
        j-1`` (read in order: no gather by the kernel).
    successors : ndarray of intp of shape (m + 1, m + 1)
        ``successors[j, :m - j]``: the ends ``i > j`` sorted by the rate of
        units ``j .. i-1``.
    successor_rates : ndarray of float64 of shape (m + 1, m + 1)
        ``successor_rates[j, s]``: the rate of units ``j .. successors[j, s]-1``.
    trend : int
        ``NO_TREND``, ``ASCENDING`` or ``PEAK``.
    F : ndarray of float64 of shape (2, phases, m + 1, m + 1)
        Work space: two layers (``phases`` is 2 for a peak, else 1).
    column : ndarray of float64 of shape (phases, m + 1)
        Work space: the states ending at ``j`` of the previous layer, read
        once in row order (a strided but sequential read) and then in rate
        order from this contiguous copy.
    back : ndarray of int32 of shape (K + 1, phases, m + 1, m + 1)
        Receives ``2 h + phase`` of the predecessor of each reached state.
    best : ndarray of float64 of shape (K + 1,)
        Receives the least cost with exactly ``k`` intervals (``inf``: none
        admissible).
    arg : ndarray of intp of shape (K + 1,)
        Receives ``2 j + phase`` of the last interval of that optimum.
    """
    m = costs.shape[0] - 1
    K = back.shape[0] - 1
    phases = F.shape[1]
    inf = np.inf
    for k in range(K + 1):
        best[k] = inf
        arg[k] = -1
    for p in range(phases):
        for j in range(m + 1):
            for i in range(m + 1):
                F[0, p, j, i] = inf
    # one interval: rows 0 .. i-1, rising
    for i in range(1, m + 1):
        F[0, 0, 0, i] = costs[0, i]
    best[1] = F[0, 0, 0, m]
    arg[1] = 0
    previous = 0
    for k in range(2, K + 1):
        current = 1 - previous
        # layer k writes every state of a start j >= k - 1 below; the rows
        # before are unreachable (k - 1 intervals need k - 1 units first)
        for p in range(phases):
            for j in range(min(k - 1, m + 1)):
                for i in range(j + 1, m + 1):
                    F[current, p, j, i] = inf
        for j in range(k - 1, m):
            n_succ = m - j
            for p in range(phases):
                for h in range(j):
                    column[p, h] = F[previous, p, h, j]
            if trend == NO_TREND:
                low = inf
                at = -1
                for h in range(j):
                    v = column[0, h]
                    if v < low:
                        low = v
                        at = h
                for i in range(j + 1, m + 1):
                    c = costs[j, i] + low
                    F[current, 0, j, i] = c
                    if c < inf:
                        back[k, 0, j, i] = 2 * at
                continue
            # rising: predecessors (rising) of rate <= rate(j, i), the
            # successors taken in increasing rate
            t = 0
            low = inf
            at = -1
            for s in range(n_succ):
                i = successors[j, s]
                r = successor_rates[j, s]
                while t < j and predecessor_rates[j, t] <= r:
                    v = column[0, predecessors[j, t]]
                    if v < low:
                        low = v
                        at = predecessors[j, t]
                    t += 1
                c = costs[j, i] + low
                F[current, 0, j, i] = c
                if c < inf:
                    back[k, 0, j, i] = 2 * at
            if trend != PEAK:
                continue
            # falling: predecessors (rising or falling) of rate >= rate(j, i),
            # the successors taken in decreasing rate
            t = j - 1
            low = inf
            at = -1
            for s in range(n_succ - 1, -1, -1):
                i = successors[j, s]
                r = successor_rates[j, s]
                while t >= 0 and predecessor_rates[j, t] >= r:
                    h = predecessors[j, t]
                    for q in range(2):
                        v = column[q, h]
                        if v < low:
                            low = v
                            at = 2 * h + q
                    t -= 1
                c = costs[j, i] + low
                F[current, 1, j, i] = c
                if c < inf:
                    back[k, 1, j, i] = at
        for p in range(phases):
            for j in range(k - 1, m):
                v = F[current, p, j, m]
                if v < best[k]:
                    best[k] = v
                    arg[k] = 2 * j + p
        previous = current


@njit(**NJIT)
def interval_limits(cum, moments, limits, costs, rates):
    """Bar the intervals outside the limits and compute every interval's rate.

    For every ``j < i``: the sums of units ``j .. i-1`` from the prefix sums
    ``cum``; ``costs[j, i]`` is set to ``inf`` when the interval's weight is
    outside ``[limits[0], limits[1]]``, its event weight (column 1 of a 2-column
    table) below ``limits[2]`` or its non-event weight (column 0) below
    ``limits[3]``; ``rates[j, i]`` receives its event rate (2-column table) or
    its mean (``moments``: columns weight, sum, sum of squares), 0 otherwise.
    The twins are ``admissible`` and ``rates_of`` of
    :mod:`partikit._statistics._constraints`.
    """
    m = cum.shape[0] - 1
    n_columns = cum.shape[1]
    binary = not moments and n_columns == 2
    for j in range(m):
        for i in range(j + 1, m + 1):
            if moments:
                weight = cum[i, 0] - cum[j, 0]
                numerator = cum[i, 1] - cum[j, 1]
            else:
                weight = 0.0
                for c in range(n_columns):
                    weight += cum[i, c] - cum[j, c]
                numerator = cum[i, 1] - cum[j, 1] if binary else 0.0
            rates[j, i] = numerator / weight if weight > 0.0 else 0.0
            ok = limits[0] <= weight <= limits[1]
            if binary:
                ok = ok and numerator >= limits[2]
                ok = ok and weight - numerator >= limits[3]
            if not ok:
                costs[j, i] = np.inf
