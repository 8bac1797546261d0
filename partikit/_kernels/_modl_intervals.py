# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Compiled loops of the MODL discretization (Boulle 2006).

Every loop runs on the *blocks* of a value table (runs of values pure in one
class, between boundary points: Boulle's theorem puts no optimal cut inside
one), read through their cumulative class counts ``cum`` of shape
``(m + 1, J)``: ``cum[b]`` counts the rows before block ``b``, so the blocks
``s .. e - 1`` hold ``cum[e] - cum[s]``. An interval is a pair ``(s, e)`` of
block positions; its cost is that of :func:`~partikit._kernels._modl.part_cost`.
Only the part costs are compared here: the prior ``log C(n + I - 1, I - 1)``
on the number ``I`` of intervals is the same for every partition of ``I``
intervals (the post-optimisation, which changes ``I``, adds it). Past
``GRANULE_LIMIT`` blocks, the units are granules of consecutive blocks.

* :func:`blocks_cumulative`: the blocks, the classes present, the granules and
  ``cum``, in two passes over the table;
* :func:`greedy_merges`: bottom-up merges of adjacent intervals, the least
  cost increase first (an indexed binary heap), down to one interval:
  O(m J log m);
* :func:`refresh_moves`: the best move of each kind (Split, Merge,
  MergeSplit, MergeMergeSplit) at each place, refreshed where a move changed
  the intervals; the loop choosing and applying the moves and the exact
  dynamic programme of small tables are numpy's, in
  :mod:`partikit.discretizers._modl`.

First compilation: each kernel is written out (no helper kernel but
``lnf`` and one part cost; their heap sift and best-cut sweep in one place
each) and allocates with ``np.empty`` and loops: ``np.zeros``, ``np.full``
and slice assignments each added 0.25 to 1.6 s to a kernel's first
compilation here (numba 0.68). The cold first fit of MODLDiscretizer went
from 6 to 2.4 s.

References
----------
.. [1] Boulle, M. (2006). MODL: a Bayes optimal discretization method for
   continuous attributes. Machine Learning 65, 131-165.
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT
from partikit._kernels._modl import lnf


@njit(**NJIT)
def blocks_cumulative(table, n_granules):
    """The blocks of a value table, its classes and their cumulative counts.

    A row holding one single class is *pure*; blocks are the runs of rows
    between boundary points (the gaps not between two pure rows of one same
    class). With more than ``n_granules`` blocks, the units of the search are
    about ``n_granules`` granules of about equal weight: each inner boundary
    is the first block before which the weight reaches ``k / n_granules`` of
    the total; else every block is a unit. Two passes over the table.

    Returns
    -------
    starts : ndarray of intp of shape (m,)
        The first row of each block, ``starts[0] == 0``.
    columns : ndarray of intp
        The classes present (columns of positive total).
    units : ndarray of intp of shape (n_units + 1,)
        Block positions of the units' bounds, ``0 .. m``.
    cum : ndarray of float64 of shape (n_units + 1, len(columns))
        ``cum[u]``: the class counts of the rows before unit ``u`` (the last
        row: every row), as running sums (exact for whole counts).
    """
    n_rows, width = table.shape
    # np.empty and loops: np.zeros and np.full lengthen the first compilation
    starts = np.empty(n_rows + 1, dtype=np.intp)
    weight = np.empty(n_rows + 2)
    totals = np.empty(width)
    for j in range(width):
        totals[j] = 0.0
    starts[0] = 0
    weight[0] = 0.0
    m = 1
    before = -1
    running = 0.0
    for r in range(n_rows):
        pure = -1
        weight_before = running
        for j in range(width):
            v = table[r, j]
            if v > 0:
                totals[j] += v
                pure = j if pure == -1 else -2
            running += v
        if r > 0 and (pure < 0 or pure != before):
            starts[m] = r
            weight[m] = weight_before
            m += 1
        before = pure
    weight[m] = running
    n_columns = 0
    for j in range(width):
        n_columns += totals[j] > 0
    columns = np.empty(n_columns, dtype=np.intp)
    n_columns = 0
    for j in range(width):
        if totals[j] > 0:
            columns[n_columns] = j
            n_columns += 1
    units = np.empty(m + 1, dtype=np.intp)
    n_units = 0
    units[0] = 0
    b = 1
    for k in range(1, n_granules if m > n_granules else m):
        if m > n_granules:  # granules: the first block reaching the target
            target = running * k / n_granules
            while b < m and weight[b] < target:
                b += 1
            if b >= m:
                break
        else:
            b = k
        if b > units[n_units]:
            n_units += 1
            units[n_units] = b
    n_units += 1
    units[n_units] = m
    cum = np.empty((n_units + 1, n_columns))
    sums = np.empty(n_columns)
    for jj in range(n_columns):
        sums[jj] = 0.0
    u = 0
    for r in range(n_rows):
        if u < n_units and starts[units[u]] == r:
            for jj in range(n_columns):
                cum[u, jj] = sums[jj]
            u += 1
        for jj in range(n_columns):
            sums[jj] += table[r, columns[jj]]
    for jj in range(n_columns):
        cum[n_units, jj] = sums[jj]
    return starts[:m].copy(), columns, units[: n_units + 1].copy(), cum


@njit(**NJIT)
def _part_cost(cum, s, e, n_classes, log_factorials):
    """Part cost of the blocks ``s .. e - 1`` (the float operations of
    :func:`~partikit._kernels._modl.part_cost` on their counts)."""
    total = 0.0
    multinomial = 0.0
    for j in range(cum.shape[1]):
        c = cum[e, j] - cum[s, j]
        if c > 0:
            total += c
            multinomial += lnf(c, log_factorials)
    return (
        lnf(total + n_classes - 1, log_factorials)
        - lnf(n_classes - 1.0, log_factorials)
        - multinomial
    )


@njit(**NJIT)
def greedy_merges(cum, n_classes, log_factorials):
    """Merge adjacent intervals, from the blocks down to one interval.

    Each step merges the adjacent pair whose merge adds the least part cost
    (ties: the leftmost pair). An interval is named by its first block, which
    it keeps when it absorbs its right neighbour; the pair of an interval and
    its right neighbour is named by the interval, and is one entry of an
    indexed binary heap, ordered by key then name, whose key is updated in
    place when a merge changes it. The heap is written out here, its sift in
    one place (no helper kernels): a shorter first compilation.

    Returns ``absorbed`` of shape ``(m - 1,)``, the interval absorbed at each
    step (its first block), and ``part_sums`` of shape ``(m,)``, the total part
    cost after ``t`` steps (``m - t`` intervals).
    """
    m = cum.shape[0] - 1
    cost = np.empty(m)
    pair = np.empty(m)  # cost of the interval and its right neighbour merged
    following = np.empty(m, dtype=np.int64)
    previous = np.empty(m, dtype=np.int64)
    absorbed = np.empty(max(m - 1, 0), dtype=np.int64)
    part_sums = np.empty(m)
    keys = np.empty(m)
    ids = np.empty(m, dtype=np.int64)
    where = np.empty(m, dtype=np.int64)
    where[m - 1] = -1  # the last interval has no right neighbour
    total = 0.0
    for b in range(2 * m - 1):  # the blocks, then the pairs of blocks
        s = b if b < m else b - m
        e = s + 1 if b < m else s + 2
        v = _part_cost(cum, s, e, n_classes, log_factorials)
        if b < m:
            cost[b] = v
            total += v
            following[b] = b + 1
            previous[b] = b - 1
        else:
            pair[s] = v
            keys[s] = v - cost[s] - cost[s + 1]
            ids[s] = s
            where[s] = s
    size = m - 1
    part_sums[0] = total
    a = b = q = p = -1
    t = -1  # t = -1: build the heap, one sift-up per entry; then the merges
    while t < m - 1:
        if t >= 0:
            a = ids[0]
            total += keys[0]
            b = following[a]
            q = following[b]
            cost[a] = pair[a]
            following[a] = q
            if q < m:
                previous[q] = a
            absorbed[t] = b
            part_sums[t + 1] = total
            p = previous[a]
        # the heap changes of this step, each followed by its sift: building,
        # one entry each; a merge, the pair that disappears (the last entry
        # takes its slot), then the new pairs of a and of p
        for op in range(size if t < 0 else 3):
            i = op
            if t >= 0:
                i = -1
                if op == 0:
                    gone = b if q < m else a
                    i = where[gone]
                    size -= 1
                    where[gone] = -1
                    if i < size:
                        keys[i] = keys[size]
                        ids[i] = ids[size]
                        where[ids[i]] = i
                    else:
                        i = -1
                else:
                    x = a if op == 1 else p
                    if x >= 0 and (op == 2 or q < m):
                        pair[x] = _part_cost(
                            cum, x, following[following[x]], n_classes,
                            log_factorials,
                        )  # fmt: skip
                        i = where[x]
                        keys[i] = pair[x] - cost[x] - cost[following[x]]
            if i < 0:
                continue
            # sift slot i up, then down (merges only)
            while i > 0:
                parent = (i - 1) >> 1
                if not (
                    keys[i] < keys[parent]
                    or (keys[i] == keys[parent] and ids[i] < ids[parent])
                ):
                    break
                keys[i], keys[parent] = keys[parent], keys[i]
                ids[i], ids[parent] = ids[parent], ids[i]
                where[ids[i]] = i
                where[ids[parent]] = parent
                i = parent
            while t >= 0:
                child = 2 * i + 1
                if child >= size:
                    break
                c = child + 1
                if c < size and (
                    keys[c] < keys[child]
                    or (keys[c] == keys[child] and ids[c] < ids[child])
                ):
                    child = c
                if not (
                    keys[child] < keys[i]
                    or (keys[child] == keys[i] and ids[child] < ids[i])
                ):
                    break
                keys[i], keys[child] = keys[child], keys[i]
                ids[i], ids[child] = ids[child], ids[i]
                where[ids[i]] = i
                where[ids[child]] = child
                i = child
        t += 1
    return absorbed, part_sums


@njit(**NJIT)
def refresh_moves(cum, edge, size, lo, hi, changed_lo, changed_hi, cost, gain, at,
                  n_classes, log_factorials):  # fmt: skip
    """The part costs and best moves of Boulle's post-optimisation, refreshed
    where a move changed the intervals (the loop over the moves is
    :func:`partikit.discretizers._modl.post_optimize`).

    ``edge[: size + 1]``: the intervals' first blocks and ``m``. Recomputes
    ``cost[r]`` (the part cost of interval ``r``) for ``r`` in ``changed_lo ..
    changed_hi``, then, for each place ``i`` in ``lo .. hi``, the part cost
    change of the best move of each kind starting at ``i``: ``gain[0, i]``,
    Split interval ``i`` (at ``at[0, i]``); ``gain[1, i]``, Merge ``i`` and
    ``i + 1``; ``gain[2, i]``, MergeSplit them (at ``at[1, i]``);
    ``gain[3, i]``, MergeMergeSplit ``i .. i + 2`` into two (at ``at[2, i]``);
    ``inf`` where there is no such move. One sweep per span of 1, 2 and 3
    intervals, which also gives the cost of the span merged.
    """
    n_columns = cum.shape[1]
    left = np.empty(n_columns)
    right = np.empty(n_columns)
    for r in range(max(changed_lo, 0), min(changed_hi, size - 1) + 1):
        cost[r] = _part_cost(cum, edge[r], edge[r + 1], n_classes, log_factorials)
    constant = lnf(n_classes - 1.0, log_factorials)
    for i in range(max(lo, 0), min(hi, size - 1) + 1):
        spanned = 0.0
        for span in range(1, 4):
            if i + span > size:  # no such span: no move
                gain[span, i] = np.inf
                if span == 2:
                    gain[1, i] = np.inf
                continue
            spanned += cost[i + span - 1]
            # the best cut of the span: one sweep moving one block at a time
            # from the right part to the left one, the sums of log n_j!
            # updated for the classes the block holds only (ties: leftmost)
            s = edge[i]
            e = edge[i + span]
            n_left = 0.0
            n_right = 0.0
            sum_left = 0.0
            sum_right = 0.0
            for j in range(n_columns):
                left[j] = 0.0
                right[j] = cum[e, j] - cum[s, j]
                if right[j] > 0:
                    n_right += right[j]
                    sum_right += lnf(right[j], log_factorials)
            whole = lnf(n_right + n_classes - 1.0, log_factorials) - constant
            whole -= sum_right
            v = np.inf
            c = -1
            for cut in range(s + 1, e):
                for j in range(n_columns):
                    d = cum[cut, j] - cum[cut - 1, j]
                    if d != 0.0:
                        sum_left += lnf(left[j] + d, log_factorials) - lnf(
                            left[j], log_factorials
                        )
                        sum_right += lnf(right[j] - d, log_factorials) - lnf(
                            right[j], log_factorials
                        )
                        left[j] += d
                        right[j] -= d
                        n_left += d
                        n_right -= d
                value = (
                    lnf(n_left + n_classes - 1.0, log_factorials)
                    + lnf(n_right + n_classes - 1.0, log_factorials)
                    - 2.0 * constant
                    - sum_left
                    - sum_right
                )
                if value < v:
                    v = value
                    c = cut
            if span == 1:
                gain[0, i] = v - spanned
                at[0, i] = c
            elif span == 2:
                gain[1, i] = whole - spanned
                gain[2, i] = v - spanned
                at[1, i] = c
            else:
                gain[3, i] = v - spanned
                at[2, i] = c


@njit(**NJIT)
def optimal_intervals(cum, n_classes, log_factorials, max_intervals):
    """The least part cost of the blocks cut into ``k`` intervals, every ``k``.

    Returns ``best`` of shape ``(K + 1,)`` (``best[k]``, ``inf`` at 0) and
    ``start`` of shape ``(K + 1, m + 1)``: ``start[k, e]`` is the first block of
    the last interval of the best ``k`` intervals of blocks ``0 .. e - 1``
    (``K = min(m, max_intervals)``). Ties go to the leftmost start. O(m^2 (J +
    K)) time, O(m (m + K)) memory: for small ``m`` only. ``np.empty`` and
    loops only, for a short first compilation.
    """
    m = cum.shape[0] - 1
    n_max = min(m, max_intervals)
    costs = np.empty((m + 1, m + 1))
    for s in range(m):
        for e in range(s + 1, m + 1):
            costs[s, e] = _part_cost(cum, s, e, n_classes, log_factorials)
    value = np.empty((n_max + 1, m + 1))
    start = np.empty((n_max + 1, m + 1), dtype=np.int64)
    for k in range(n_max + 1):
        for e in range(m + 1):
            value[k, e] = np.inf
            start[k, e] = 0
    value[0, 0] = 0.0
    for k in range(1, n_max + 1):
        for e in range(k, m + 1):
            for s in range(k - 1, e):
                v = value[k - 1, s] + costs[s, e]
                if v < value[k, e]:
                    value[k, e] = v
                    start[k, e] = s
    best = np.empty(n_max + 1)
    for k in range(n_max + 1):
        best[k] = value[k, m]
    return best, start
