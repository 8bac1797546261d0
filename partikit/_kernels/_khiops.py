# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Bottom-up chi-square merging of table rows (Khiops grouping, Boulle 2004).

Merging rows ``a`` and ``b`` of a contingency table lowers its Pearson chi-square by

    DeltaChi2(a, b) = n_a n_b / (n_a + n_b) * sum_j (p_aj - p_bj)^2 / q_j

(``p`` row profiles, ``q`` the global class proportions, which merging never
changes). This is Ward's criterion on the class profiles with the chi-square metric
and the row totals as masses, and Ward's criterion is *reducible*: merging ``a`` and
``b`` never brings the merged row closer to a third row ``c`` than the nearer of
``a`` and ``b`` was, whenever ``(a, b)`` was the closest pair. For a reducible
criterion the nearest-neighbour chain algorithm builds exactly the hierarchy of the
greedy "merge the closest pair first" loop, with monotone merge heights, in
O(I^2 J) time and O(I J) memory instead of the greedy loop's O(I^3 J) or O(I^2)
heap. Sorting its merges by height recovers the greedy order.

References
----------
.. [1] Boulle, M. (2004). A robust method for partitioning the values of categorical
   attributes. EGC 2004, RNTI-E-2, vol. II, 173-182.
.. [2] Murtagh, F. (1983). A survey of recent advances in hierarchical clustering
   algorithms. The Computer Journal 26(4), 354-359. doi:10.1093/comjnl/26.4.354
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT


@njit(**NJIT)
def _delta_chi2(profiles, masses, inv_q, a, b):
    total = 0.0
    for j in range(profiles.shape[1]):
        diff = profiles[a, j] - profiles[b, j]
        total += diff * diff * inv_q[j]
    return masses[a] * masses[b] / (masses[a] + masses[b]) * total


@njit(**NJIT)
def _profiles(table):
    """Working copies for merging: counts, row masses, 1 / q_j and row profiles."""
    n_rows, n_classes = table.shape
    counts = table.copy()
    masses = np.zeros(n_rows, dtype=np.float64)
    class_totals = np.zeros(n_classes, dtype=np.float64)
    for i in range(n_rows):
        for j in range(n_classes):
            masses[i] += counts[i, j]
            class_totals[j] += counts[i, j]
    grand_total = class_totals.sum()
    inv_q = np.empty(n_classes, dtype=np.float64)
    for j in range(n_classes):
        inv_q[j] = grand_total / class_totals[j]
    profiles = np.empty_like(counts)
    for i in range(n_rows):
        for j in range(n_classes):
            profiles[i, j] = counts[i, j] / masses[i]
    return counts, masses, inv_q, profiles


@njit(**NJIT)
def chi2_merge_sequence(table):
    """Full bottom-up merge sequence of the rows of a table, by DeltaChi2.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        Contingency table with no empty row and no empty column.

    Returns
    -------
    kept : ndarray of intp of shape (n_rows - 1,)
        For each merge, the row index standing for the merged group (the smaller of
        the two representatives).
    absorbed : ndarray of intp of shape (n_rows - 1,)
        The other representative, which disappears.
    delta : ndarray of float64 of shape (n_rows - 1,)
        DeltaChi2 of each merge.
    height : ndarray of float64 of shape (n_rows - 1,)
        ``delta`` made monotone along the hierarchy (a merge is never lower than the
        merges that built its operands). Rounding can break the exact monotonicity
        of Ward heights by an ulp; sorting by this key (stably) keeps every merge
        after the merges it depends on.

    Notes
    -----
    Merges come in the order the chain finds them, not in greedy order: sort them
    stably by ``height`` to obtain the greedy sequence. Ties in DeltaChi2 go to the
    lower row index (and, inside the chain, to the previous chain element, which
    guarantees that the chain terminates).
    """
    n_rows, n_classes = table.shape
    n_merges = max(n_rows - 1, 0)
    kept = np.empty(n_merges, dtype=np.intp)
    absorbed = np.empty(n_merges, dtype=np.intp)
    delta = np.empty(n_merges, dtype=np.float64)
    height = np.empty(n_merges, dtype=np.float64)
    if n_rows < 2:
        return kept, absorbed, delta, height

    counts, masses, inv_q, profiles = _profiles(table)

    # Active rows as a compact array with swap-removal; scans visit live rows only.
    active = np.arange(n_rows)
    position = np.arange(n_rows)
    n_active = n_rows
    last_merge = np.full(n_rows, -1, dtype=np.intp)
    chain = np.empty(n_rows, dtype=np.intp)
    chain_len = 0

    for k in range(n_merges):
        if chain_len == 0:
            start = active[0]
            for t in range(1, n_active):
                if active[t] < start:
                    start = active[t]
            chain[0] = start
            chain_len = 1
        while True:
            a = chain[chain_len - 1]
            if chain_len >= 2:
                previous = chain[chain_len - 2]
                best = previous
                best_delta = _delta_chi2(profiles, masses, inv_q, a, previous)
            else:
                previous = -1
                best = -1
                best_delta = np.inf
            for t in range(n_active):
                c = active[t]
                if c == a or c == previous:
                    continue
                d = _delta_chi2(profiles, masses, inv_q, a, c)
                if d < best_delta or (
                    d == best_delta and best != previous and c < best
                ):
                    best_delta = d
                    best = c
            if best == previous:
                break
            chain[chain_len] = best
            chain_len += 1

        # a and previous are reciprocal nearest neighbours: merge them.
        chain_len -= 2
        low = min(a, previous)
        high = max(a, previous)
        kept[k] = low
        absorbed[k] = high
        delta[k] = best_delta
        merge_height = best_delta
        if last_merge[low] >= 0 and height[last_merge[low]] > merge_height:
            merge_height = height[last_merge[low]]
        if last_merge[high] >= 0 and height[last_merge[high]] > merge_height:
            merge_height = height[last_merge[high]]
        height[k] = merge_height
        last_merge[low] = k

        masses[low] += masses[high]
        for j in range(n_classes):
            counts[low, j] += counts[high, j]
            profiles[low, j] = counts[low, j] / masses[low]
        # swap-remove `high` from the active array
        slot = position[high]
        last = active[n_active - 1]
        active[slot] = last
        position[last] = slot
        n_active -= 1
    return kept, absorbed, delta, height


@njit(**NJIT)
def _find(parent, i):
    root = i
    while parent[root] != root:
        root = parent[root]
    while parent[i] != root:  # path compression
        following = parent[i]
        parent[i] = root
        i = following
    return root


@njit(**NJIT)
def labels_after_merges(n_rows, kept, absorbed, order, n_merges):
    """Group label of every row after the first merges of a sequence.

    Parameters
    ----------
    n_rows : int
        Number of rows of the table.
    kept, absorbed : ndarray of intp
        Merge operands, as returned by :func:`chi2_merge_sequence`.
    order : ndarray of intp
        Order in which to apply the merges (the greedy order).
    n_merges : int
        How many merges of ``order`` to apply.

    Returns
    -------
    labels : ndarray of intp of shape (n_rows,)
        Groups numbered 0, 1, ... in order of their first row.
    """
    parent = np.arange(n_rows)
    for t in range(n_merges):
        k = order[t]
        root_a = _find(parent, kept[k])
        root_b = _find(parent, absorbed[k])
        if root_a < root_b:
            parent[root_b] = root_a
        elif root_b < root_a:
            parent[root_a] = root_b
    labels = np.full(n_rows, -1, dtype=np.intp)
    root_label = np.full(n_rows, -1, dtype=np.intp)
    n_labels = 0
    for i in range(n_rows):
        root = _find(parent, i)
        if root_label[root] < 0:
            root_label[root] = n_labels
            n_labels += 1
        labels[i] = root_label[root]
    return labels


# --------------------------------------------------------------------------------------
# Adjacent merges (Khiops discretization, Boulle 2004)
# --------------------------------------------------------------------------------------


# The candidate pairs live in a 4-ary min-heap of rows (DeltaChi2, owner, stamp)
# of one float64 array, so that a node and its four children are read from a few
# adjacent cache lines: the heap of a million-value column does not fit in cache,
# and a binary heap of separate arrays spent its time in cache misses. ``owner``
# is the pair's left interval (ties go to the leftmost pair) and ``stamp`` the
# owner's version when the entry was pushed (older entries are stale). Both are
# integers below 2^53, exact in float64.


@njit(**NJIT)
def _heap_less(heap, a, b):
    return heap[a, 0] < heap[b, 0] or (
        heap[a, 0] == heap[b, 0] and heap[a, 1] < heap[b, 1]
    )


@njit(**NJIT)
def _heap_swap(heap, a, b):
    for c in range(3):
        value = heap[a, c]
        heap[a, c] = heap[b, c]
        heap[b, c] = value


@njit(**NJIT)
def _heap_push(heap, size, delta, owner, stamp):
    i = size
    heap[i, 0] = delta
    heap[i, 1] = owner
    heap[i, 2] = stamp
    while i > 0:
        parent = (i - 1) // 4
        if not _heap_less(heap, i, parent):
            break
        _heap_swap(heap, i, parent)
        i = parent
    return size + 1


@njit(**NJIT)
def _heap_pop(heap, size):
    """Remove the smallest entry; returns the new size."""
    size -= 1
    for c in range(3):
        heap[0, c] = heap[size, c]
    i = 0
    while True:
        first = 4 * i + 1
        if first >= size:
            break
        child = first
        for c in range(first + 1, min(first + 4, size)):
            if _heap_less(heap, c, child):
                child = c
        if not _heap_less(heap, child, i):
            break
        _heap_swap(heap, i, child)
        i = child
    return size


@njit(**NJIT)
def _heap_top(heap):
    """DeltaChi2, owner and stamp of the smallest entry."""
    return heap[0, 0], np.intp(heap[0, 1]), np.intp(heap[0, 2])


@njit(**NJIT)
def _merge_into(counts, masses, profiles, left, right):
    masses[left] += masses[right]
    for j in range(counts.shape[1]):
        counts[left, j] += counts[right, j]
        profiles[left, j] = counts[left, j] / masses[left]


@njit(inline="always", **NJIT)
def _push_pair(heap, size, profiles, masses, inv_q, version, a, b, limit):
    """Push the pair (a, b) if one of its intervals weighs less than ``limit``."""
    if masses[a] < limit or masses[b] < limit:
        d = _delta_chi2(profiles, masses, inv_q, a, b)
        size = _heap_push(heap, size, d, a, version[a])
    return size


@njit(**NJIT)
def _merge_adjacent(
    heap, size, counts, masses, profiles, inv_q, nxt, prv, alive, version, limit,
    kept, absorbed, delta,
):  # fmt: skip
    """Merge the best pair of the heap until it is empty; returns the merge count.

    Only pairs holding an interval lighter than ``limit`` are ever pushed (+inf:
    every pair). Merges are recorded in ``kept``, ``absorbed`` and ``delta`` while
    they have room (empty arrays: not recorded).
    """
    n_merges = 0
    while size > 0:
        d_best, left, stamp = _heap_top(heap)
        size = _heap_pop(heap, size)
        if not alive[left] or stamp != version[left] or nxt[left] < 0:
            continue
        right = nxt[left]
        if n_merges < kept.shape[0]:
            kept[n_merges] = left
            absorbed[n_merges] = right
            delta[n_merges] = d_best
        n_merges += 1
        _merge_into(counts, masses, profiles, left, right)
        alive[right] = False
        nxt[left] = nxt[right]
        if nxt[right] >= 0:
            prv[nxt[right]] = left
        version[left] += 1
        before = prv[left]
        if before >= 0:
            version[before] += 1
            size = _push_pair(
                heap, size, profiles, masses, inv_q, version, before, left, limit
            )
        if nxt[left] >= 0:
            size = _push_pair(
                heap, size, profiles, masses, inv_q, version, left, nxt[left], limit
            )
    return n_merges


@njit(**NJIT)
def adjacent_merge_sequence(table, min_count):
    """Bottom-up merges of adjacent intervals by smallest DeltaChi2.

    First the frequency phase: while an interval weighs less than ``min_count``,
    the adjacent pair with the smallest DeltaChi2 among the pairs holding such an
    interval is merged. Then every remaining adjacent pair is a candidate and the
    merging goes on, smallest DeltaChi2 first, down to one interval; those merges
    are recorded (the caller decides where to stop). Ties go to the leftmost pair.
    A doubly linked list and a 4-ary heap with version stamps make each merge
    O(J + log m).

    Parameters
    ----------
    table : ndarray of float64 of shape (m, n_classes)
        Class counts of the elementary intervals (distinct values) in value order;
        no empty row, no empty column.
    min_count : float
        Minimum interval weight of the frequency phase (0: no frequency phase).

    Returns
    -------
    initial_starts : ndarray of intp
        First row of each interval after the frequency phase.
    kept, absorbed : ndarray of intp
        First rows of the left and right intervals of each later merge, in order.
    delta : ndarray of float64
        DeltaChi2 of each later merge.
    """
    m = table.shape[0]
    counts, masses, inv_q, profiles = _profiles(table)
    nxt = np.empty(m, dtype=np.intp)
    prv = np.empty(m, dtype=np.intp)
    for i in range(m):
        nxt[i] = i + 1 if i + 1 < m else -1
        prv[i] = i - 1
    alive = np.ones(m, dtype=np.bool_)
    version = np.zeros(m, dtype=np.intp)
    heap = np.empty((3 * m + 1, 3), dtype=np.float64)
    unrecorded = np.empty(0, dtype=np.intp)

    # Frequency phase: only pairs holding an under-weight interval compete.
    size = 0
    for i in range(m - 1):
        size = _push_pair(
            heap, size, profiles, masses, inv_q, version, i, i + 1, min_count
        )
    n_alive = m - _merge_adjacent(
        heap, size, counts, masses, profiles, inv_q, nxt, prv, alive, version,
        min_count, unrecorded, unrecorded, np.empty(0),
    )  # fmt: skip
    initial_starts = np.flatnonzero(alive)

    # Optimisation phase: the whole greedy sequence down to one interval.
    kept = np.empty(n_alive - 1, dtype=np.intp)
    absorbed = np.empty(n_alive - 1, dtype=np.intp)
    delta = np.empty(n_alive - 1, dtype=np.float64)
    size = 0
    for i in initial_starts[:-1]:
        version[i] += 1
        size = _push_pair(
            heap, size, profiles, masses, inv_q, version, i, nxt[i], np.inf
        )
    _merge_adjacent(
        heap, size, counts, masses, profiles, inv_q, nxt, prv, alive, version,
        np.inf, kept, absorbed, delta,
    )  # fmt: skip
    return initial_starts, kept, absorbed, delta
