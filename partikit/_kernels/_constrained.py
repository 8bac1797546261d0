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
def constrained_dp(costs, rates, predecessors, successors, trend, F, back, best, arg):
    """Least cost of ``k`` intervals under a trend, for every ``k <= K``.

    Parameters
    ----------
    costs : ndarray of float64 of shape (m + 1, m + 1)
        ``costs[j, i]``: cost of the interval of units ``j .. i-1`` (``j < i``),
        ``inf`` where the interval is not admissible (its size or event counts).
    rates : ndarray of float64 of shape (m + 1, m + 1)
        ``rates[j, i]``: the rate (event rate or mean) of units ``j .. i-1``.
    predecessors : ndarray of intp of shape (m + 1, m + 1)
        ``predecessors[j, :j]``: the starts ``h < j`` sorted by ``rates[h, j]``
        (stable: ties by ``h``).
    successors : ndarray of intp of shape (m + 1, m + 1)
        ``successors[j, :m - j]``: the ends ``i > j`` sorted by ``rates[j, i]``.
    trend : int
        ``NO_TREND``, ``ASCENDING`` or ``PEAK``.
    F : ndarray of float64 of shape (2, phases, m + 1, m + 1)
        Work space: two layers (``phases`` is 2 for a peak, else 1).
    back : ndarray of int32 of shape (K + 1, phases, m + 1, m + 1)
        Receives ``2 h + phase`` of the predecessor of each state.
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
    for layer in range(2):
        for p in range(phases):
            for j in range(m + 1):
                for i in range(m + 1):
                    F[layer, p, j, i] = inf
    # one interval: rows 0 .. i-1, rising
    for i in range(1, m + 1):
        F[0, 0, 0, i] = costs[0, i]
    best[1] = F[0, 0, 0, m]
    arg[1] = 0
    previous = 0
    for k in range(2, K + 1):
        current = 1 - previous
        for p in range(phases):
            for j in range(m + 1):
                for i in range(j + 1, m + 1):
                    F[current, p, j, i] = inf
        # the last interval starts at j >= k - 1 (k - 1 intervals before it)
        for j in range(k - 1, m):
            n_succ = m - j
            if trend == NO_TREND:
                low = inf
                at = -1
                for h in range(j):
                    v = F[previous, 0, h, j]
                    if v < low:
                        low = v
                        at = h
                if at < 0:
                    continue
                for i in range(j + 1, m + 1):
                    c = costs[j, i]
                    if c < inf:
                        F[current, 0, j, i] = c + low
                        back[k, 0, j, i] = 2 * at
                continue
            # rising: predecessors (rising) of rate <= rate(j, i), the
            # successors taken in increasing rate
            t = 0
            low = inf
            at = -1
            for s in range(n_succ):
                i = successors[j, s]
                r = rates[j, i]
                while t < j and rates[predecessors[j, t], j] <= r:
                    h = predecessors[j, t]
                    v = F[previous, 0, h, j]
                    if v < low:
                        low = v
                        at = h
                    t += 1
                c = costs[j, i]
                if at >= 0 and c < inf:
                    F[current, 0, j, i] = c + low
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
                r = rates[j, i]
                while t >= 0 and rates[predecessors[j, t], j] >= r:
                    h = predecessors[j, t]
                    for q in range(2):
                        v = F[previous, q, h, j]
                        if v < low:
                            low = v
                            at = 2 * h + q
                    t -= 1
                c = costs[j, i]
                if at >= 0 and c < inf:
                    F[current, 1, j, i] = c + low
                    back[k, 1, j, i] = at
        for p in range(phases):
            for j in range(k - 1, m):
                v = F[current, p, j, m]
                if v < best[k]:
                    best[k] = v
                    arg[k] = 2 * j + p
        previous = current
