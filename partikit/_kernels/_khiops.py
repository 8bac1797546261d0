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


def chi2_merge_sequence(table, work_per_call=MERGE_WORK_PER_CALL, class_totals=None):
    """Full bottom-up merge sequence of the rows of a table, by DeltaChi2.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        Contingency table with no empty row and no empty column (an empty
        column is allowed with ``class_totals``).
    work_per_call : int, default=MERGE_WORK_PER_CALL
        The compiled loop returns to Python after about this much work (profile
        differences times classes) and is called again where it stopped, so
        that a KeyboardInterrupt is seen within a fraction of a second; the
        merges do not depend on it.
    class_totals : ndarray of float64 of shape (n_classes,) or None, default=None
        Class totals of the whole table when ``table`` holds some of its rows
        only: DeltaChi2 weighs the classes by the whole table's proportions.
        None: the totals of ``table``.

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
    if class_totals is None:
        class_totals = np.empty(n_classes, dtype=np.float64)
        for j in range(n_classes):
            class_totals[j] = np.add.accumulate(counts[j])[-1]
    class_totals = np.asarray(class_totals, dtype=np.float64)
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
            # Ward's weights apart from the search: this loop vectorises (its
            # divisions too), the search below is a compare per row
            for t in range(n_active):
                partial[t] = mass_a * masses[t] / (mass_a + masses[t]) * partial[t]
            previous = -1
            best = -1
            best_delta = np.inf
            if chain_len >= 2:
                # the previous chain element is scored first: it keeps ties
                previous = chain[chain_len - 2]
                best = previous
                best_delta = partial[position[previous]]
            for t in range(n_active):
                d = partial[t]
                if d > best_delta:
                    continue
                c = row_at[t]
                if c == a or c == previous:
                    continue
                if d < best_delta or (best != previous and c < best):
                    best_delta = d
                    best = c
            if best < 0:
                # no finite distance to any active row: NaN costs (overflowing
                # counts); merging `a` with row -1 would write outside the arrays
                raise ValueError(
                    "the merge costs are not finite (class counts too large or "
                    "too small for float64): divide or multiply sample_weight "
                    "by a constant"
                )
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

# The candidate pairs are kept by their left interval's first row (the pair's
# owner): ``keys[s]`` is the DeltaChi2 of the pair starting at ``s``, +inf when
# there is none or it is not a candidate. The smallest (DeltaChi2, owner) is found
# by a tournament tree over blocks of BLOCK consecutive owners: a merge changes the
# keys of at most three owners, close together, so one to three blocks are scanned
# again (contiguous memory) and their paths to the root are replayed, with no
# stale entry. The 4-ary heap of pushed entries it replaces popped about three
# entries per merge (two of them stale) out of a heap of up to 3m entries, 2.5
# times slower on a million values. Blocks of 8 to 64 owners ran alike.
BLOCK = 16

#: Work (row reads times classes, block scans) of one call of
#: :func:`_adjacent_steps`: some 30 ms, so that Ctrl-C stops a long fit soon.
ADJACENT_WORK_PER_CALL = 1 << 23

#: Smallest first size of the buffer of merged intervals' class counts.
BUFFER_ROWS = 64

# _adjacent_steps' counters: rows read; next owner whose key is set at the start of
# a phase; next block of the tree built; merges made in the phase; buffer rows
# handed out; free buffer rows; 1 when the phase is over; 1 when the buffer is full.
_READ, _KEYED, _BUILT, _MERGED, _USED, _FREE, _OVER, _FULL = range(8)


def adjacent_merge_sequence(table, min_count, work_per_call=ADJACENT_WORK_PER_CALL):
    """:func:`adjacent_merges` of every row and column of a table.

    Parameters
    ----------
    table : ndarray of float64 of shape (m, n_classes)
        Class counts of the elementary intervals in value order; no empty row, no
        empty column.
    min_count : float
        Minimum interval weight of the frequency phase (0: no frequency phase).
    work_per_call : int, default=ADJACENT_WORK_PER_CALL
        See :func:`adjacent_merges`.

    Returns
    -------
    initial_starts, kept, absorbed, delta
        See :func:`adjacent_merges`.
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    columns = np.arange(table.shape[1], dtype=np.intp)
    return adjacent_merges(table, None, columns, min_count, work_per_call)


def adjacent_merges(
    table, rows, columns, min_count, work_per_call=ADJACENT_WORK_PER_CALL
):
    """Bottom-up merges of adjacent intervals by smallest DeltaChi2.

    First the frequency phase: while an interval weighs less than ``min_count``,
    the adjacent pair with the smallest DeltaChi2 among the pairs holding such an
    interval is merged. Then every remaining adjacent pair is a candidate and the
    merging goes on, smallest DeltaChi2 first, down to one interval; those merges
    are recorded (the caller decides where to stop). Ties go to the leftmost pair.
    Each merge costs O(J + BLOCK + log m): the intervals are a linked list over
    the rows and the candidate pairs sit in a tournament tree over blocks of
    rows (see ``BLOCK``).

    Working memory is a few arrays of m numbers plus the class counts of the
    intervals merged so far (single-value intervals are read in ``table``,
    through ``rows`` and ``columns``, so that the caller copies nothing). Every
    sum is made in the order of a plain loop over the table (rows, then
    classes; counts of the left interval plus those of the right one), so the
    merges and their DeltaChi2 are the same floats as the greedy loop's.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_all_classes), C-contiguous
        Class counts of the distinct values in value order.
    rows : ndarray of intp of shape (m,) or None
        The rows merged (the elementary intervals), increasing; none empty in
        ``columns``. None: every row of ``table``.
    columns : ndarray of intp of shape (n_classes,)
        The classes of the chi-square; none empty in ``rows``.
    min_count : float
        Minimum interval weight of the frequency phase (0: no frequency phase).
    work_per_call : int, default=ADJACENT_WORK_PER_CALL
        The compiled loop returns to Python after about this much work and is
        called again where it stopped, so that a KeyboardInterrupt is seen
        within a fraction of a second; the merges do not depend on it.

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
    if rows is None:
        m = table.shape[0]
        rows = np.zeros(0, dtype=np.intp)
    else:
        m = rows.shape[0]
    n_classes = columns.shape[0]
    masses = np.empty(m, dtype=np.float64)
    link = np.empty(m, dtype=np.intp)
    slot = np.empty(m, dtype=np.intp)
    keys = np.empty(m, dtype=np.float64)
    n_blocks = max((m + BLOCK - 1) // BLOCK, 1)
    size = 1 << (n_blocks - 1).bit_length()
    tree_key = np.empty(2 * size, dtype=np.float64)
    tree_arg = np.empty(2 * size, dtype=np.intp)
    # class counts of the merged intervals; grown when full (rarely: most
    # merges keep or reuse the rows of their intervals)
    capacity = min(m // 2 + 1, max(BUFFER_ROWS, m // 32))
    buffer = np.empty((capacity, n_classes), dtype=np.float64)
    free = np.empty(capacity, dtype=np.intp)
    inv_q = np.zeros(n_classes, dtype=np.float64)
    counters = np.zeros(8, dtype=np.intp)
    kept = np.zeros(0, dtype=np.intp)
    absorbed = np.zeros(0, dtype=np.intp)
    delta = np.zeros(0, dtype=np.float64)
    initial_starts = np.zeros(0, dtype=np.intp)
    # phase 0, the frequency phase (merges not recorded); phase 1, every pair
    for phase in range(2):
        limit = float(min_count) if phase == 0 else np.inf
        counters[[_KEYED, _BUILT, _MERGED, _OVER]] = 0
        while not counters[_OVER]:
            _adjacent_steps(
                table, rows, columns, limit, masses, link, slot, keys,
                tree_key, tree_arg, buffer, free, inv_q, counters,
                kept, absorbed, delta, work_per_call,
            )  # fmt: skip
            if counters[_FULL]:
                capacity = min(2 * capacity, m)
                grown = np.empty((capacity, n_classes), dtype=np.float64)
                grown[: len(buffer)] = buffer
                buffer = grown
                grown = np.empty(capacity, dtype=np.intp)
                grown[: len(free)] = free
                free = grown
                counters[_FULL] = 0
        if phase == 0:
            initial_starts = np.flatnonzero(slot != -2)
            n_merges = max(len(initial_starts) - 1, 0)
            kept = np.empty(n_merges, dtype=np.intp)
            absorbed = np.empty(n_merges, dtype=np.intp)
            delta = np.empty(n_merges, dtype=np.float64)
    if counters[_MERGED] < len(kept):
        # every pair is a candidate in phase 1, so only a NaN DeltaChi2 (never
        # the smallest) ends it early; the unwritten merges would be garbage
        # indices
        raise ValueError(
            "the merge costs are not finite (class counts too large or too small "
            "for float64): divide or multiply sample_weight by a constant"
        )
    return initial_starts, kept, absorbed, delta


@njit(**NJIT, no_rewrites=True)
def _adjacent_steps(
    table, rows, columns, limit, masses, link, slot, keys, tree_key, tree_arg,
    buffer, free, inv_q, counters, kept, absorbed, delta, work_per_call,
):  # fmt: skip
    """A share of :func:`adjacent_merges`, from where ``counters`` say.

    Reads the rows (first call), then, for the phase of candidates lighter than
    ``limit``: sets the keys of the candidate pairs and builds the tree, then
    merges until no candidate is left (``counters[_OVER]``), the buffer is full
    (``counters[_FULL]``, nothing done) or ``work_per_call`` is spent. The
    merges are recorded when ``kept`` is not empty.

    The interval starting at row ``s`` ends before ``link[s]``; a longer one
    also holds its start at ``link[end - 1]``, so that the interval before
    ``s`` starts at ``link[s - 1]`` when it is below ``s - 1``, else at
    ``s - 1``. ``slot[s]`` is the buffer row of its class counts (-1 for a
    single value, read in ``table``; -2 for a row merged into the interval on
    its left). ``inv_q`` holds the class totals until every row is read, then
    ``N / N_j``.
    """
    m = masses.shape[0]
    n_classes = columns.shape[0]
    identity = rows.shape[0] == 0
    size = tree_key.shape[0] // 2
    record = kept.shape[0] > 0
    work = 0

    i = counters[_READ]
    if i < m:
        while i < m and work < work_per_call:
            r = i if identity else rows[i]
            mass = 0.0
            for j in range(n_classes):
                count = table[r, columns[j]]
                mass += count
                inv_q[j] += count
            masses[i] = mass
            link[i] = i + 1
            slot[i] = -1
            keys[i] = np.inf
            i += 1
            work += n_classes
        counters[_READ] = i
        if i < m:
            return
        grand_total = 0.0
        for j in range(n_classes):
            grand_total += inv_q[j]
        for j in range(n_classes):
            inv_q[j] = grand_total / inv_q[j]

    # the keys of the phase, interval by interval
    a = counters[_KEYED]
    while a < m and work < work_per_call:
        b = link[a]
        key = np.inf
        if b < m and (masses[a] < limit or masses[b] < limit):
            sa = slot[a]
            sb = slot[b]
            ra = a if identity else rows[a]
            rb = b if identity else rows[b]
            total = 0.0
            for j in range(n_classes):
                count_a = buffer[sa, j] if sa >= 0 else table[ra, columns[j]]
                count_b = buffer[sb, j] if sb >= 0 else table[rb, columns[j]]
                diff = count_a / masses[a] - count_b / masses[b]
                total += diff * diff * inv_q[j]
            key = masses[a] * masses[b] / (masses[a] + masses[b]) * total
        keys[a] = key
        work += n_classes
        a = b
    counters[_KEYED] = a
    if a < m:
        return

    # the tree: block minima (first owner on ties), then every inner node
    block = counters[_BUILT]
    if block < size:
        while block < size and work < work_per_call:
            best = np.inf
            arg = -1
            for s in range(block * BLOCK, min(block * BLOCK + BLOCK, m)):
                if keys[s] < best:
                    best = keys[s]
                    arg = s
            tree_key[size + block] = best
            tree_arg[size + block] = arg
            block += 1
            work += BLOCK
        counters[_BUILT] = block
        if block < size:
            return
        for node in range(size - 1, 0, -1):
            low = 2 * node
            if tree_key[low + 1] < tree_key[low]:
                low += 1
            tree_key[node] = tree_key[low]
            tree_arg[node] = tree_arg[low]

    k = counters[_MERGED]
    while work < work_per_call:
        best_delta = tree_key[1]
        if best_delta == np.inf:
            counters[_OVER] = 1
            break
        left = tree_arg[1]
        if left < 0:
            # (no owner: every key is +inf or NaN; never index by -1)
            counters[_OVER] = 1
            break
        right = link[left]
        end = link[right]
        sl = slot[left]
        sr = slot[right]
        if sl < 0 and sr < 0 and counters[_FREE] == 0:
            if counters[_USED] == buffer.shape[0]:
                counters[_FULL] = 1
                break
        if record:
            kept[k] = left
            absorbed[k] = right
            delta[k] = best_delta
        k += 1
        # counts of the merged interval: the left one's plus the right one's
        rl = left if identity else rows[left]
        rr = right if identity else rows[right]
        if sl >= 0 and sr >= 0:
            for j in range(n_classes):
                buffer[sl, j] += buffer[sr, j]
            free[counters[_FREE]] = sr
            counters[_FREE] += 1
        elif sl >= 0:
            for j in range(n_classes):
                buffer[sl, j] += table[rr, columns[j]]
        elif sr >= 0:
            for j in range(n_classes):
                buffer[sr, j] = table[rl, columns[j]] + buffer[sr, j]
            slot[left] = sr
        else:
            if counters[_FREE] > 0:
                counters[_FREE] -= 1
                sl = free[counters[_FREE]]
            else:
                sl = counters[_USED]
                counters[_USED] += 1
            for j in range(n_classes):
                buffer[sl, j] = table[rl, columns[j]] + table[rr, columns[j]]
            slot[left] = sl
        slot[right] = -2
        masses[left] += masses[right]
        keys[right] = np.inf
        link[left] = end
        link[end - 1] = left
        before = -1
        if left > 0:
            before = left - 1
            if link[before] < before:
                before = link[before]
        # new keys of the pairs (before, left) and (left, end)
        for side in range(2):
            a = before if side == 0 else left
            if a < 0:
                continue
            b = link[a]
            key = np.inf
            if b < m and (masses[a] < limit or masses[b] < limit):
                sa = slot[a]
                sb = slot[b]
                ra = a if identity else rows[a]
                rb = b if identity else rows[b]
                total = 0.0
                for j in range(n_classes):
                    count_a = buffer[sa, j] if sa >= 0 else table[ra, columns[j]]
                    count_b = buffer[sb, j] if sb >= 0 else table[rb, columns[j]]
                    diff = count_a / masses[a] - count_b / masses[b]
                    total += diff * diff * inv_q[j]
                key = masses[a] * masses[b] / (masses[a] + masses[b]) * total
            keys[a] = key
        # the blocks of before, left and right, and their paths to the root
        for t in range(3):
            if t == 0:
                if before < 0:
                    continue
                block = before // BLOCK
            elif t == 1:
                block = left // BLOCK
                if before >= 0 and block == before // BLOCK:
                    continue
            else:
                block = right // BLOCK
                if block == left // BLOCK:
                    continue
            best = np.inf
            arg = -1
            for s in range(block * BLOCK, min(block * BLOCK + BLOCK, m)):
                if keys[s] < best:
                    best = keys[s]
                    arg = s
            node = size + block
            tree_key[node] = best
            tree_arg[node] = arg
            node >>= 1
            while node >= 1:
                low = 2 * node
                if tree_key[low + 1] < tree_key[low]:
                    low += 1
                if tree_key[node] == tree_key[low] and tree_arg[node] == tree_arg[low]:
                    break
                tree_key[node] = tree_key[low]
                tree_arg[node] = tree_arg[low]
                node >>= 1
            work += BLOCK + 4
        work += 4 * n_classes + 16
    counters[_MERGED] = k


def granules(
    table, rows, columns, total, n_granules, work_per_call=ADJACENT_WORK_PER_CALL
):
    """Equal-frequency granules of a value table, cut on boundary points only.

    Khiops' granularisation of a numeric column with very many distinct values:
    the rows are grouped into at most ``n_granules`` runs of about equal weight,
    each cut placed at the first boundary point at or after the row where the
    running weight reaches ``k / n_granules`` of the total (never between two
    rows holding the same single class).

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_all_classes), C-contiguous
        Class counts of the distinct values in value order.
    rows : ndarray of intp of shape (m,) or None
        The rows granulated, increasing; none empty in ``columns``. None: every
        row of ``table``.
    columns : ndarray of intp of shape (n_classes,)
        The classes that decide the weights and the boundary points.
    total : float
        Weight of ``rows`` in ``columns``.
    n_granules : int
        At least 1.
    work_per_call : int, default=ADJACENT_WORK_PER_CALL
        The compiled pass returns to Python after about this many counts read
        and is called again where it stopped (Ctrl-C is seen in between); the
        granules do not depend on it.

    Returns
    -------
    starts : ndarray of intp of shape (n_found,)
        First row (index into ``rows``) of each granule; ``starts[0] == 0`` and
        ``n_found <= n_granules``.
    counts : ndarray of float64 of shape (n_found, n_classes)
        Class counts (in ``columns``) of each granule, C-contiguous.
    """
    if rows is None:
        m = table.shape[0]
        rows = np.zeros(0, dtype=np.intp)
    else:
        m = rows.shape[0]
    n_classes = columns.shape[0]
    size = max(min(int(n_granules), m), 1)
    starts = np.zeros(size, dtype=np.intp)
    counts = np.zeros((size, n_classes), dtype=np.float64)
    # next row, current granule, next target, previous row's pure class
    state = np.array([0, 0, 1, -1], dtype=np.intp)
    running = np.zeros(1)
    step = max(int(work_per_call) // max(n_classes, 1), 1)
    while state[0] < m:
        _granule_scan(
            table, rows, columns, float(total), int(n_granules), starts, counts,
            state, running, min(int(state[0]) + step, m),
        )  # fmt: skip
    n_found = int(state[1]) + 1
    return starts[:n_found].copy(), counts[:n_found]


@njit(**NJIT)
def _granule_scan(
    table, rows, columns, total, n_granules, starts, counts, state, running, stop
):
    """:func:`granules` from the row and ``state`` where the last call stopped,
    up to row ``stop``. A row's pure class is the index of its only class with
    a positive count, -1 when it holds several."""
    identity = rows.shape[0] == 0
    n_classes = columns.shape[0]
    g = state[1]
    k = state[2]
    previous = state[3]
    weight = running[0]
    target = total * k / n_granules if k < n_granules else np.inf
    for i in range(state[0], stop):
        r = i if identity else rows[i]
        mass = 0.0
        pure = -1
        n_present = 0
        for j in range(n_classes):
            count = table[r, columns[j]]
            mass += count
            present = count > 0
            n_present += present
            pure = j if present else pure
        if n_present != 1:
            pure = -1
        if i > 0 and weight >= target and (pure < 0 or pure != previous):
            g += 1
            starts[g] = i
            # every target the running weight has passed is met by this cut
            while weight >= target:
                k += 1
                target = total * k / n_granules if k < n_granules else np.inf
        for j in range(n_classes):
            counts[g, j] += table[r, columns[j]]
        weight += mass
        previous = pure
    state[0] = stop
    state[1] = g
    state[2] = k
    state[3] = previous
    running[0] = weight
