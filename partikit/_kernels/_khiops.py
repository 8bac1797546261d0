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

#: Work (profile differences computed, times the classes) of one call of
#: :func:`_chain_merges`: about 20 ms, so that Ctrl-C stops a long grouping soon.
MERGE_WORK_PER_CALL = 1 << 24


def chi2_merge_sequence(table, work_per_call=MERGE_WORK_PER_CALL):
    """Full bottom-up merge sequence of the rows of a table, by DeltaChi2.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        Contingency table with no empty row and no empty column.
    work_per_call : int, default=MERGE_WORK_PER_CALL
        The compiled loop returns to Python after about this much work (profile
        differences times classes) and is called again where it stopped, so
        that a KeyboardInterrupt is seen within a fraction of a second; the
        merges do not depend on it.

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
    guarantees that the chain terminates). Cost O(I^2 J) for I rows and J
    classes, O(I J) memory.
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    n_rows, n_classes = table.shape
    n_merges = n_rows - 1 if n_rows > 1 else 0
    kept = np.empty(n_merges, dtype=np.intp)
    absorbed = np.empty(n_merges, dtype=np.intp)
    delta = np.empty(n_merges, dtype=np.float64)
    height = np.empty(n_merges, dtype=np.float64)
    if n_rows < 2:
        return kept, absorbed, delta, height
    # Class-major working copies, one column per active row, kept compact (see
    # _chain_merges); the last row of ``profiles`` is scratch space. Each sum is
    # made in the order a loop over the table would make it (rows, then
    # classes), so the floats do not depend on numpy's summation strategy.
    counts = np.ascontiguousarray(table.T)
    masses = counts[0].copy()
    for j in range(1, n_classes):
        masses += counts[j]
    class_totals = np.empty(n_classes, dtype=np.float64)
    for j in range(n_classes):
        class_totals[j] = np.add.accumulate(counts[j])[-1]
    grand_total = 0.0
    for total in class_totals:
        grand_total += float(total)
    inv_q = grand_total / class_totals
    profiles = np.empty((n_classes + 1, n_rows), dtype=np.float64)
    np.divide(counts, masses, out=profiles[:n_classes])
    # rows: the row at each position, position of each row, last merge of each
    # row, chain
    index_state = np.empty((4, n_rows), dtype=np.intp)
    # merges made, chain length, number of active rows
    counters = np.zeros(3, dtype=np.intp)
    while counters[0] < n_merges:
        _chain_merges(
            counts, profiles, masses, inv_q, index_state, counters,
            kept, absorbed, delta, height, work_per_call,
        )  # fmt: skip
    return kept, absorbed, delta, height


@njit(**NJIT)
def _chain_merges(
    counts, profiles, masses, inv_q, index_state, counters,
    kept, absorbed, delta, height, work_per_call,
):  # fmt: skip
    """Merges of the nearest-neighbour chain, from ``counters`` on, for a while.

    Sets the active rows up at the first call (``counters`` all zero), then
    makes merges until they are all made or ``work_per_call`` is spent, and
    records in ``counters`` where it stopped.

    The active rows sit at positions ``0 .. n_active - 1`` of class-major arrays
    (a merged-away row's slot takes the last active row's data), so that the
    scan for a nearest neighbour runs over contiguous memory class by class:
    the compiler vectorises it, while each row's sum over the classes is still
    made in class order (the same floats as row by row). One function of plain
    loops: every jitted helper and every numpy array method is compiled on its
    own in a fresh environment.
    """
    n_classes, n_rows = counts.shape
    n_merges = n_rows - 1
    row_at = index_state[0]
    position = index_state[1]
    last_merge = index_state[2]
    chain = index_state[3]
    partial = profiles[n_classes]
    if counters[2] == 0:
        for i in range(n_rows):
            row_at[i] = i
            position[i] = i
            last_merge[i] = -1
        counters[2] = n_rows
    chain_len = counters[1]
    n_active = counters[2]
    work = 0

    k = counters[0]
    while k < n_merges and work < work_per_call:
        if chain_len == 0:
            start = row_at[0]
            for t in range(1, n_active):
                if row_at[t] < start:
                    start = row_at[t]
            chain[0] = start
            chain_len = 1
        while True:
            a = chain[chain_len - 1]
            pa = position[a]
            # sum_j (p_aj - p_cj)^2 / q_j of every active row c, class by class
            for t in range(n_active):
                partial[t] = 0.0
            for j in range(n_classes):
                profile_a = profiles[j, pa]
                weight = inv_q[j]
                profile_j = profiles[j]
                for t in range(n_active):
                    diff = profile_a - profile_j[t]
                    partial[t] += diff * diff * weight
            work += n_active * n_classes
            mass_a = masses[pa]
            previous = -1
            best = -1
            best_delta = np.inf
            if chain_len >= 2:
                # the previous chain element is scored first: it keeps ties
                previous = chain[chain_len - 2]
                pp = position[previous]
                best = previous
                best_delta = mass_a * masses[pp] / (mass_a + masses[pp]) * partial[pp]
            for t in range(n_active):
                c = row_at[t]
                if c == a or c == previous:
                    continue
                d = mass_a * masses[t] / (mass_a + masses[t]) * partial[t]
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

        p_low = position[low]
        p_high = position[high]
        masses[p_low] += masses[p_high]
        for j in range(n_classes):
            counts[j, p_low] += counts[j, p_high]
            profiles[j, p_low] = counts[j, p_low] / masses[p_low]
        # the last active row's data moves into the slot of `high`
        p_last = n_active - 1
        last = row_at[p_last]
        masses[p_high] = masses[p_last]
        for j in range(n_classes):
            counts[j, p_high] = counts[j, p_last]
            profiles[j, p_high] = profiles[j, p_last]
        row_at[p_high] = last
        position[last] = p_high
        n_active -= 1
        k += 1
    counters[0] = k
    counters[1] = chain_len
    counters[2] = n_active


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


def adjacent_merge_sequence(table, min_count):
    """:func:`adjacent_merges` of every row and column of a table.

    Parameters
    ----------
    table : ndarray of float64 of shape (m, n_classes)
        Class counts of the elementary intervals in value order; no empty row, no
        empty column.
    min_count : float
        Minimum interval weight of the frequency phase (0: no frequency phase).

    Returns
    -------
    initial_starts, kept, absorbed, delta
        See :func:`adjacent_merges`.
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    return adjacent_merges(
        table,
        np.arange(table.shape[0], dtype=np.intp),
        np.arange(table.shape[1], dtype=np.intp),
        float(min_count),
    )


@njit(**NJIT)
def adjacent_merges(table, rows, columns, min_count):
    """Bottom-up merges of adjacent intervals by smallest DeltaChi2.

    First the frequency phase: while an interval weighs less than ``min_count``,
    the adjacent pair with the smallest DeltaChi2 among the pairs holding such an
    interval is merged. Then every remaining adjacent pair is a candidate and the
    merging goes on, smallest DeltaChi2 first, down to one interval; those merges
    are recorded (the caller decides where to stop). Ties go to the leftmost pair.
    A doubly linked list and a 4-ary heap with version stamps make each merge
    O(J + log m).

    One function, the heap operations written out: numba compiles every small
    jitted helper (and every literal-argument variant of it) on its own, which
    made this kernel's first call take seconds. The row profiles are computed on
    the fly from the counts, in the same operations as a stored profile (the same
    floats), so that the working memory is one copy of the table; the rows and
    classes merged are read through ``rows`` and ``columns``, so that the caller
    does not copy the table to leave some out.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_all_classes), C-contiguous
        Class counts of the distinct values in value order.
    rows : ndarray of intp of shape (m,)
        The rows merged (the elementary intervals), increasing; none empty in
        ``columns``.
    columns : ndarray of intp of shape (n_classes,)
        The classes of the chi-square; none empty in ``rows``.
    min_count : float
        Minimum interval weight of the frequency phase (0: no frequency phase).

    Returns
    -------
    initial_starts : ndarray of intp
        First row (index into ``rows``) of each interval after the frequency
        phase.
    kept, absorbed : ndarray of intp
        First rows (indices into ``rows``) of the left and right intervals of
        each later merge, in order.
    delta : ndarray of float64
        DeltaChi2 of each later merge.
    """
    m = rows.shape[0]
    n_classes = columns.shape[0]
    counts = np.empty((m, n_classes), dtype=np.float64)
    masses = np.zeros(m, dtype=np.float64)
    class_totals = np.zeros(n_classes, dtype=np.float64)
    for i in range(m):
        for j in range(n_classes):
            counts[i, j] = table[rows[i], columns[j]]
            masses[i] += counts[i, j]
            class_totals[j] += counts[i, j]
    grand_total = 0.0
    for j in range(n_classes):
        grand_total += class_totals[j]
    inv_q = np.empty(n_classes, dtype=np.float64)
    for j in range(n_classes):
        inv_q[j] = grand_total / class_totals[j]
    nxt = np.empty(m, dtype=np.intp)
    prv = np.empty(m, dtype=np.intp)
    for i in range(m):
        nxt[i] = i + 1 if i + 1 < m else -1
        prv[i] = i - 1
    alive = np.ones(m, dtype=np.bool_)
    version = np.zeros(m, dtype=np.intp)
    # every push is one of the m - 1 initial pairs or one of two per merge
    heap = np.empty((3 * m + 1, 3), dtype=np.float64)
    todo = np.empty(max(m, 2), dtype=np.intp)
    initial_starts = np.zeros(0, dtype=np.intp)
    kept = np.zeros(0, dtype=np.intp)
    absorbed = np.zeros(0, dtype=np.intp)
    delta = np.zeros(0, dtype=np.float64)
    n_alive = m
    # Phase 0, the frequency phase: only pairs holding an under-weight interval
    # compete, merges are not recorded. Phase 1: every pair, merges recorded.
    for phase in range(2):
        limit = min_count
        if phase == 1:
            initial_starts = np.flatnonzero(alive)
            kept = np.empty(n_alive - 1, dtype=np.intp)
            absorbed = np.empty(n_alive - 1, dtype=np.intp)
            delta = np.empty(n_alive - 1, dtype=np.float64)
            limit = np.inf
        # the left intervals of the pairs to push: first every adjacent pair
        n_todo = 0
        i = 0
        while i >= 0 and nxt[i] >= 0:
            version[i] += 1
            todo[n_todo] = i
            n_todo += 1
            i = nxt[i]
        size = 0
        n_merges = 0
        while True:
            for t in range(n_todo):
                a = todo[t]
                b = nxt[a]
                if not (masses[a] < limit or masses[b] < limit):
                    continue
                total = 0.0
                for j in range(n_classes):
                    diff = counts[a, j] / masses[a] - counts[b, j] / masses[b]
                    total += diff * diff * inv_q[j]
                d = masses[a] * masses[b] / (masses[a] + masses[b]) * total
                # push (d, a, version[a]) and sift it up
                h = size
                heap[h, 0] = d
                heap[h, 1] = a
                heap[h, 2] = version[a]
                size += 1
                while h > 0:
                    parent = (h - 1) // 4
                    if not (
                        heap[h, 0] < heap[parent, 0]
                        or (
                            heap[h, 0] == heap[parent, 0]
                            and heap[h, 1] < heap[parent, 1]
                        )
                    ):
                        break
                    for c in range(3):
                        value = heap[h, c]
                        heap[h, c] = heap[parent, c]
                        heap[parent, c] = value
                    h = parent
            n_todo = 0
            if size == 0:
                break
            # pop the smallest entry: (DeltaChi2, leftmost owner) order
            d_best = heap[0, 0]
            left = np.intp(heap[0, 1])
            stamp = np.intp(heap[0, 2])
            size -= 1
            for c in range(3):
                heap[0, c] = heap[size, c]
            h = 0
            while True:
                first = 4 * h + 1
                if first >= size:
                    break
                child = first
                for c in range(first + 1, min(first + 4, size)):
                    if heap[c, 0] < heap[child, 0] or (
                        heap[c, 0] == heap[child, 0] and heap[c, 1] < heap[child, 1]
                    ):
                        child = c
                if not (
                    heap[child, 0] < heap[h, 0]
                    or (heap[child, 0] == heap[h, 0] and heap[child, 1] < heap[h, 1])
                ):
                    break
                for c in range(3):
                    value = heap[h, c]
                    heap[h, c] = heap[child, c]
                    heap[child, c] = value
                h = child
            if not alive[left] or stamp != version[left] or nxt[left] < 0:
                continue
            right = nxt[left]
            if n_merges < kept.shape[0]:
                kept[n_merges] = left
                absorbed[n_merges] = right
                delta[n_merges] = d_best
            n_merges += 1
            masses[left] += masses[right]
            for j in range(n_classes):
                counts[left, j] += counts[right, j]
            alive[right] = False
            nxt[left] = nxt[right]
            if nxt[right] >= 0:
                prv[nxt[right]] = left
            version[left] += 1
            before = prv[left]
            if before >= 0:
                version[before] += 1
                todo[n_todo] = before
                n_todo += 1
            if nxt[left] >= 0:
                todo[n_todo] = left
                n_todo += 1
        n_alive -= n_merges
    return initial_starts, kept, absorbed, delta
