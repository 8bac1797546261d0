# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the discretizers: value tables, blocks, optimal multisplits, MDLP.

A numeric attribute is summarised by its *value table*: one row per distinct value,
in increasing order, holding the class counts of that value (a "bin" in Elomaa &
Rousu's words). Every discretization algorithm reads that table only.

The cumulative impurities are computed from prefix sums of the table, so the cost
of any interval of consecutive units is O(J). Entropy costs are in bits:
``cost(I) = n_I H(I) = n_I log2 n_I - sum_j n_Ij log2 n_Ij``; Gini costs are
``n_I Gini(I) = n_I - sum_j n_Ij^2 / n_I``. For a continuous target the table is
a moment table, columns ``(sum w, sum w y, sum w y^2)``, and the squared-error
cost is ``SSE(I) = sum w y^2 - (sum w y)^2 / sum w``.

References
----------
.. [1] Elomaa, T. and Rousu, J. (1999). Speeding up the search for optimal
   partitions. PKDD'99, LNAI 1704, 89-97. doi:10.1007/978-3-540-48247-5_10
.. [2] Fayyad, U. M. and Irani, K. B. (1993). Multi-interval discretization of
   continuous-valued attributes for classification learning. IJCAI-93, 1022-1027.
"""

import math

import numpy as np
from numba import njit

from partikit._kernels._codes import ENTROPY, SQUARED_ERROR
from partikit._kernels._config import NJIT

#: Integer tables with at most this many examples read ``t log2 t`` from a table
#: instead of calling log: the DP evaluates O(m^2) interval costs.
MAX_XLOGX_TABLE = 1 << 22

#: An empty float64 array: no weights, no lookup table (one compiled type).
_EMPTY = np.zeros(0, dtype=np.float64)


def value_table(x, order, y_codes, weights, n_classes, *, extra_rows=0):
    """Distinct values of a column and the class counts of each, in one pass.

    Parameters
    ----------
    x : ndarray of float64 of shape (n_samples,)
        Finite values (no NaN).
    order : ndarray of intp of shape (n_samples,)
        A permutation sorting ``x`` increasingly.
    y_codes : ndarray of intp of shape (n_samples,)
        Class index of each row.
    weights : ndarray of float64 of shape (n_samples,) or None
        Frequency weights; None counts each row once.
    n_classes : int
    extra_rows : int, default=0
        Empty rows after the values' (a missing row), allocated with the table
        rather than appended to it (a copy of a million-row table).

    Returns
    -------
    values : ndarray of float64 of shape (n_values,)
    table : ndarray of float64 of shape (n_values + extra_rows, n_classes)
    """
    # the column in sorted order: read at random once, then in order
    xs = np.empty(order.shape[0], dtype=np.float64)
    n_values = _count_values(x, order, xs)
    values = np.empty(n_values, dtype=np.float64)
    # numpy allocates the table (lazily zeroed pages, huge pages on Linux): a
    # numba allocation of a million-row table is zeroed page by page, three
    # times slower than the counting itself
    table = np.zeros((n_values + extra_rows, n_classes), dtype=np.float64)
    # an empty weights array counts each row once: one compiled type
    weights = _EMPTY if weights is None else weights
    # (leading rows of a C-contiguous table: C-contiguous, the same compiled type)
    _fill_value_table(xs, order, y_codes, weights, values, table[:n_values])
    return values, table


@njit(**NJIT)
def _count_values(x, order, xs):
    n_values = 0
    for r in range(order.shape[0]):
        value = x[order[r]]
        xs[r] = value
        if r == 0 or value != xs[r - 1]:
            n_values += 1
    return n_values


@njit(**NJIT)
def _fill_value_table(xs, order, y_codes, weights, values, table):
    n_classes = table.shape[1]
    unit = weights.shape[0] == 0
    v = -1
    for r in range(order.shape[0]):
        if r == 0 or xs[r] != xs[r - 1]:
            v += 1
            values[v] = xs[r]
        i = order[r]
        label = y_codes[i]
        if label < 0 or label >= n_classes:
            raise ValueError("class code out of range")
        if unit:
            table[v, label] += 1.0
        else:
            table[v, label] += weights[i]


def segment_sums(table, starts):
    """``np.add.reduceat(table, starts, axis=0)`` for increasing ``starts``.

    The same sums in the same order (so the same floats), but row by row: numpy's
    reduceat walks a C-ordered table column by column, ten times slower on a
    table of many classes.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
    starts : ndarray of intp of shape (n_segments,)
        First row of each segment, strictly increasing, ``starts[0] == 0``.

    Returns
    -------
    sums : ndarray of float64 of shape (n_segments, n_classes)
    """
    # allocated by numpy, as the value table is
    sums = np.zeros((starts.shape[0], table.shape[1]), dtype=np.float64)
    _add_segments(table, starts, sums)
    return sums


@njit(**NJIT)
def _add_segments(table, starts, sums):
    n_rows, n_classes = table.shape
    n_segments = starts.shape[0]
    for s in range(n_segments):
        end = starts[s + 1] if s + 1 < n_segments else n_rows
        for r in range(starts[s], end):
            for c in range(n_classes):
                sums[s, c] += table[r, c]


@njit(**NJIT)
def scan_table(table, column_totals, running_totals):
    """Column totals and running row totals of a table, in one pass over it.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
    column_totals : ndarray of float64 of shape (n_classes,)
        Zeros; receives the sum of each column (rows added in order).
    running_totals : ndarray of float64 of shape (n_rows,)
        Receives the total of rows ``0 .. r`` at ``r`` (each row summed in
        column order, then accumulated).

    Returns
    -------
    integral : bool
        Whether every count is an integer. The sums are then exact, whatever
        their order: the same floats as numpy's.
    """
    # a flag OR-ed without a branch: twice as fast as a test per count
    fractional = False
    running = 0.0
    for r in range(table.shape[0]):
        row = 0.0
        for c in range(table.shape[1]):
            v = table[r, c]
            column_totals[c] += v
            row += v
            fractional |= v != math.floor(v)
        running += row
        running_totals[r] = running
    return not fractional


@njit(**NJIT)
def prefix_sums(units):
    """Prefix sums of unit class counts: row ``i`` sums units ``0 .. i-1``."""
    m, n_classes = units.shape
    cum = np.zeros((m + 1, n_classes), dtype=np.float64)
    for i in range(m):
        for c in range(n_classes):
            cum[i + 1, c] = cum[i, c] + units[i, c]
    return cum


@njit(**NJIT)
def xlogx_table(size):
    """``t log2 t`` for t = 0 .. size - 1 (0 at t = 0)."""
    out = np.empty(size)
    if size > 0:
        out[0] = 0.0
    for t in range(1, size):
        out[t] = t * math.log2(t)
    return out


@njit(**NJIT)
def _xlogx(v, xlogx):
    if v <= 0.0:
        return 0.0
    if xlogx.shape[0] > 0:
        return xlogx[int(v + 0.5)]
    return v * math.log2(v)


@njit(**NJIT)
def interval_cost(cum, a, b, criterion, xlogx):
    """Cumulative impurity of the units ``a .. b-1`` (entropy in bits, Gini, or
    the squared error of a moment table).

    ``xlogx`` is a table from :func:`xlogx_table` when every count is an integer
    below its size, else an empty array (logs are then computed).
    """
    if criterion == SQUARED_ERROR:
        # sum w y^2 - (sum w y)^2 / sum w, clipped at 0: the difference of two
        # large sums may round below it
        weight = cum[b, 0] - cum[a, 0]
        if weight <= 0.0:
            return 0.0
        total = cum[b, 1] - cum[a, 1]
        return max(cum[b, 2] - cum[a, 2] - total * total / weight, 0.0)
    n = 0.0
    s = 0.0
    for c in range(cum.shape[1]):
        v = cum[b, c] - cum[a, c]
        n += v
        if criterion == ENTROPY:
            s += _xlogx(v, xlogx)
        else:
            s += v * v
    if n <= 0.0:
        return 0.0
    if criterion == ENTROPY:
        return max(_xlogx(n, xlogx) - s, 0.0)
    return max(n - s / n, 0.0)


@njit(**NJIT)
def multisplit_dp(
    cum, cum_int, xlogx, P, last_cut, live, n_live, cost, start, stop, criterion,
    prune, tolerance,
):  # fmt: skip
    """Optimal partitions of a sequence of units into at most k intervals, k <= K.

    The dynamic programme of Elomaa & Rousu (Bin-Opt on bins, Block-Opt on blocks),
    with the candidate pruning of their Table 2 when ``prune`` is true.

    ``P[k, i]`` is the least cumulative impurity of the first ``i`` units cut into
    at most ``k`` intervals. Candidate ``j`` extends the best ``(k-1)``-split of the
    first ``j`` units by the interval ``j .. i-1``. Its value ``P[k-1, j] +
    cost(j, i)`` is compared with the reject level ``P[k-1, i]``: a candidate that
    does not go below it cannot improve ``P[k, i]`` and, by Theorem 2 of the paper
    (the impurity is concave), never will for any longer prefix, so it leaves the
    candidate list of level ``k-1`` for good. The proof needs only that merging
    two adjacent intervals never lowers the cost, ``f(A u B) >= f(A) + f(B)``,
    which the squared error satisfies too (the excess is the between-interval
    term ``w_A w_B (mean_A - mean_B)^2 / (w_A + w_B)``): the same rule as the
    pruning of Killick, Fearnhead & Eckley's PELT (2012) with no penalty. With
    "at most k" semantics the two tests of Table 2 (the prune test and the
    improvement test) are the same test.

    This kernel solves the prefixes ``start .. stop - 1`` and returns, so that a
    long search is run in chunks from Python and Ctrl-C is honoured between
    them; the state lives in the arrays passed (see
    ``partikit.discretizers._block_opt._multisplit_dp``, which allocates them).

    Parameters
    ----------
    cum : ndarray of float64 of shape (m + 1, n_classes)
        Prefix sums of the units' class counts (row ``i``: units ``0 .. i-1``).
    cum_int : ndarray of int64 of shape (m + 1, n_classes)
        ``cum`` rounded, read when ``xlogx`` is not empty.
    xlogx : ndarray of float64
        See :func:`interval_cost`.
    P : ndarray of float64 of shape (K + 1, m + 1)
        ``P[k, i]``, +inf where not solved yet.
    last_cut : ndarray of intp of shape (K + 1, m + 1)
        ``last_cut[k, i]``: number of units before the last cut of the optimum
        ``P[k, i]``, or -1 when that optimum has fewer than ``k`` intervals
        (it is then ``P[k-1, i]``).
    live : ndarray of intp of shape (K + 1, m + 1)
        The candidate lists of the pruning, ``n_live[k]`` of them per level.
    n_live : ndarray of intp of shape (K + 1,)
    cost : ndarray of float64 of shape (m + 1,)
        Work space.
    start, stop : int
        The prefixes solved, ``1 <= start <= stop <= m + 1``.
    criterion : int
        ``ENTROPY``, ``GINI`` or ``SQUARED_ERROR`` (``cum`` then holds prefix
        sums of a moment table).
    prune : bool
        Apply the candidate pruning (Block-Opt-P).
    tolerance : float
        Absolute tolerance: a candidate improves only if it is lower by more than
        this (rounding of sums must not decide ties).

    Returns
    -------
    n_evaluations : int
        Candidate evaluations ``P[k-1, j] + cost(j, i)`` made (line 9 of Table 2).
    """
    m = cum.shape[0] - 1
    n_classes = cum.shape[1]
    K = P.shape[0] - 1
    lookup = xlogx.shape[0] > 0
    entropy = criterion == ENTROPY
    squared = criterion == SQUARED_ERROR
    n_evaluations = 0
    for i in range(start, stop):
        limit = K if i == m else K - 1
        top = min(i, limit)
        # Level 1 is never pruned (splitting never raises a concave impurity), so
        # the cost of every last interval j .. i-1 is needed.
        # cost[j] = cost(j, i), the impurity of units j .. i-1, for every j < i
        # (only j = 0, for P[1, i], while no level above 1 is solved). The interval
        # totals decrease as j grows, so the t log2 t lookups walk the table in
        # order.
        for j in range(i if top >= 2 else 1):
            if squared:
                # the squared error about the interval's mean (see interval_cost)
                n = cum[i, 0] - cum[j, 0]
                total = cum[i, 1] - cum[j, 1]
                if n <= 0.0:
                    cost[j] = 0.0
                else:
                    cost[j] = max(cum[i, 2] - cum[j, 2] - total * total / n, 0.0)
                continue
            if entropy and lookup:
                n_int = 0
                total = 0.0
                for c in range(n_classes):
                    v = cum_int[i, c] - cum_int[j, c]
                    n_int += v
                    total += xlogx[v]
                cost[j] = max(xlogx[n_int] - total, 0.0)
                continue
            n = 0.0
            total = 0.0
            for c in range(n_classes):
                v = cum[i, c] - cum[j, c]
                n += v
                if not entropy:
                    total += v * v
                elif v > 0.0:
                    total += v * math.log2(v)
            if n <= 0.0:
                cost[j] = 0.0
            elif entropy:
                cost[j] = max(n * math.log2(n) - total, 0.0)
            else:
                cost[j] = max(n - total / n, 0.0)
        P[1, i] = cost[0]
        for k in range(2, top + 1):
            reject = P[k - 1, i]
            best = reject
            arg = -1
            previous = P[k - 1]
            if prune:
                candidates = live[k - 1]
                kept = 0
                for t in range(n_live[k - 1]):
                    j = candidates[t]
                    current = previous[j] + cost[j]
                    if current < reject - tolerance:
                        candidates[kept] = j
                        kept += 1
                        if current < best - tolerance:
                            best = current
                            arg = j
                n_evaluations += n_live[k - 1]
                n_live[k - 1] = kept
            else:
                for j in range(k - 1, i):
                    current = previous[j] + cost[j]
                    if current < best - tolerance:
                        best = current
                        arg = j
                n_evaluations += i - k + 1
            P[k, i] = best
            last_cut[k, i] = arg
        # The prefix of i units is now a candidate of every level it was solved for.
        if prune:
            for k in range(1, top + 1):
                live[k, n_live[k]] = i
                n_live[k] += 1
    return n_evaluations


@njit(**NJIT)
def mdlp_cuts(table):
    """Fayyad & Irani's recursive MDLP discretization, run with an explicit stack.

    Every interval (a run of rows) is split at the boundary point of least class
    entropy (ties: the leftmost); the split is accepted iff its gain passes the
    MDL test

        N Gain > log2(N - 1) + log2(3^k - 2) - (k H(S) - k1 H(S1) - k2 H(S2))

    (entropies in bits, ``k``, ``k1``, ``k2`` classes present), and both halves
    are then split in turn.

    The kernel reads the value table once to mark its pure rows (one class
    present: the common case of distinct floats) and their counts; the sweeps
    then read those two vectors instead of the table's rows, and a mixed row's
    classes only. It allocates O(m) besides: no block table, no prefix sums
    (with many classes they would be copies of the table). The entropy of both
    sides of every gap is updated in O(classes present in the row) from running
    sums of ``t log2 t``; the cut found is then re-evaluated exactly for the
    test.

    Parameters
    ----------
    table : ndarray of float64 of shape (m, n_classes)
        Class counts of the distinct values (rows with a positive total) in value
        order. Only boundary points are candidates: by Fayyad & Irani's theorem
        the best cut is always one. When every count is an integer and the total
        is below ``MAX_XLOGX_TABLE``, ``t log2 t`` is read from a table
        (:func:`xlogx_table`), else computed.

    Returns
    -------
    cuts : ndarray of intp
        Accepted cut positions (rows before each cut), increasing.
    n_tests : int
        Number of intervals tested (those holding a boundary point).
    n_blocks : int
        Number of blocks (runs of rows between boundary points).
    """
    m, n_classes = table.shape
    # Cold start: every array is made by np.empty of variable sizes (``two``
    # rather than 2), of float64 or intp, 1-d or 2-d: numba compiles an
    # allocation for each shape type (a literal size is a type of its own) and
    # dtype, 0.03 s each.
    two = m - m + 2
    # pure[r]: the class of a pure row, -1 for a mixed one, and row_count[r] its
    # count; the gap before row r is a boundary point unless rows r - 1 and r
    # are pure in the same class.
    pure = np.empty(m, dtype=np.intp)
    row_count = np.empty(m)
    stack_counts = np.empty((two + two, n_classes))
    for c in range(n_classes):
        stack_counts[0, c] = 0.0
    fractional = False
    for r in range(m):
        n_present = 0
        for c in range(n_classes):
            v = table[r, c]
            stack_counts[0, c] += v
            if v > 0.0:
                n_present += 1
                pure[r] = c
                row_count[r] = v
            fractional |= v != math.floor(v)
        if n_present != 1:
            pure[r] = -1
    total = 0.0
    for c in range(n_classes):
        total += stack_counts[0, c]
    if not fractional and total + 1 <= MAX_XLOGX_TABLE:
        xlogx = xlogx_table(int(total) + 1)
    else:
        xlogx = np.empty(m - m)
    lookup = xlogx.shape[0] > 0
    boundary = np.empty(m + 1, dtype=np.intp)
    boundary[0] = 0
    boundary[m] = 0
    n_blocks = 1 if m > 0 else 0
    for r in range(1, m):
        boundary[r] = pure[r] < 0 or pure[r] != pure[r - 1]
        n_blocks += boundary[r]
    stack = np.empty((m + 1, two), dtype=np.intp)
    # the class counts of each interval on the stack, known from its parent's
    # split: no pass over an interval's rows but the sweep (grown on demand, the
    # stack is rarely deep)
    accepted = np.empty(m + 1, dtype=np.intp)
    for t in range(m + 1):
        accepted[t] = 0
    whole_counts = np.empty(n_classes)
    left = np.empty(n_classes)
    best_left = np.empty(n_classes)
    whole_int = np.empty(n_classes, dtype=np.intp)
    left_int = np.empty(n_classes, dtype=np.intp)
    stack[0, 0] = 0
    stack[0, 1] = m
    top = 1
    n_tests = 0
    while top > 0:
        top -= 1
        a = stack[top, 0]
        b = stack[top, 1]
        has_boundary = False
        for t in range(a + 1, b):
            if boundary[t]:
                has_boundary = True
                break
        if not has_boundary:
            continue
        n_tests += 1
        n = 0.0
        for c in range(n_classes):
            whole_counts[c] = stack_counts[top, c]
            left[c] = 0.0
        # s_left / s_right: sum over classes of t log2 t on each side of the gap
        s_left = 0.0
        s_right = 0.0
        k = 0
        for c in range(n_classes):
            v = whole_counts[c]
            n += v
            if v > 0.0:
                k += 1
                s_right += _xlogx(v, xlogx)
        whole = max(_xlogx(n, xlogx) - s_right, 0.0)
        if whole <= 0.0:
            continue
        best = np.inf
        cut = -1
        n_left = 0.0
        # integer counts: the state is kept in integers (the lookup's indices,
        # no conversion per row); the same floats as the float state
        n_int = int(n + 0.5) if lookup else 0
        n_left_int = 0
        for c in range(n_classes):
            whole_int[c] = int(whole_counts[c] + 0.5) if lookup else 0
            left_int[c] = 0
        for t in range(a + 1, b):
            r = t - 1
            # a pure row updates its one class (from the row vectors), a mixed
            # row each class present
            only = pure[r]
            first = only if only >= 0 else 0
            last = only + 1 if only >= 0 else n_classes
            for c in range(first, last):
                v = row_count[r] if only >= 0 else table[r, c]
                if v <= 0.0:
                    continue
                if lookup:
                    old = left_int[c]
                    new = old + int(v + 0.5)
                    left_int[c] = new
                    n_left_int += new - old
                    s_left += xlogx[new] - xlogx[old]
                    s_right += xlogx[whole_int[c] - new] - xlogx[whole_int[c] - old]
                    continue
                # the log path adds each term (a zero term changes nothing)
                old_l = left[c]
                old_r = whole_counts[c] - old_l
                new_l = old_l + v
                new_r = whole_counts[c] - new_l
                left[c] = new_l
                n_left += v
                s_left += _xlogx(new_l, xlogx)
                s_left -= _xlogx(old_l, xlogx)
                s_right += _xlogx(new_r, xlogx)
                s_right -= _xlogx(old_r, xlogx)
            if not boundary[t]:
                continue
            if lookup:
                e = xlogx[n_left_int] + xlogx[n_int - n_left_int]
            else:
                e = _xlogx(n_left, xlogx) + _xlogx(n - n_left, xlogx)
            e -= s_left + s_right
            if e < best - 1e-12 * whole:
                best = e
                cut = t
                for c in range(n_classes):
                    best_left[c] = left_int[c] if lookup else left[c]
        # the chosen cut, evaluated exactly: its left counts are the running sums
        # when it was found (the rows added in order), not the t log2 t sums
        n_left = 0.0
        k1 = 0
        k2 = 0
        s_left = 0.0
        s_right = 0.0
        for c in range(n_classes):
            v = best_left[c]
            w = whole_counts[c] - v
            n_left += v
            k1 += v > 0.0
            k2 += w > 0.0
            s_left += _xlogx(v, xlogx)
            s_right += _xlogx(w, xlogx)
        n_right = n - n_left
        cost_left = max(_xlogx(n_left, xlogx) - s_left, 0.0)
        cost_right = max(_xlogx(n_right, xlogx) - s_right, 0.0)
        gain = whole - (cost_left + cost_right)  # N * Gain, in bits
        if gain <= 1e-12 * whole:
            continue
        h = whole / n
        h1 = cost_left / n_left
        h2 = cost_right / n_right
        # log2(3^k - 2), without overflow for many classes
        if k <= 30:
            log_three = math.log2(3.0**k - 2.0)
        else:
            log_three = k * math.log2(3.0) + math.log1p(-2.0 * 3.0 ** (-k)) / math.log(
                2.0
            )
        delta = log_three - (k * h - k1 * h1 - k2 * h2)
        if gain > math.log2(max(n - 1.0, 1.0)) + delta:
            accepted[cut] = 1
            if top + 2 > stack_counts.shape[0]:
                grown = np.empty((2 * stack_counts.shape[0], n_classes))
                for s in range(top):
                    for c in range(n_classes):
                        grown[s, c] = stack_counts[s, c]
                stack_counts = grown
            stack[top, 0] = a
            stack[top, 1] = cut
            stack[top + 1, 0] = cut
            stack[top + 1, 1] = b
            for c in range(n_classes):
                stack_counts[top, c] = best_left[c]
                stack_counts[top + 1, c] = whole_counts[c] - best_left[c]
            top += 2
    n_cuts = 0
    for t in range(m + 1):
        n_cuts += accepted[t]
    cuts = np.empty(n_cuts, dtype=np.intp)
    n_cuts = 0
    for t in range(m + 1):
        if accepted[t]:
            cuts[n_cuts] = t
            n_cuts += 1
    return cuts, n_tests, n_blocks


@njit(**NJIT)
def _prefix_at(table, coarse_starts, coarse_cum, row, out):
    """Class counts of the table rows ``0 .. row-1`` into ``out``."""
    u = np.searchsorted(coarse_starts, row, side="right") - 1
    for c in range(table.shape[1]):
        out[c] = coarse_cum[u, c]
    for r in range(coarse_starts[u], row):
        for c in range(table.shape[1]):
            out[c] += table[r, c]


@njit(**NJIT)
def _counts_cost(counts, criterion, xlogx):
    if criterion == SQUARED_ERROR:
        # moments (sum w, sum w y, sum w y^2): the squared error about their mean
        if counts[0] <= 0.0:
            return 0.0
        return max(counts[2] - counts[1] * counts[1] / counts[0], 0.0)
    # xlogx[t] is t * log2(t) computed as below: a lookup gives the same floats
    lookup = xlogx.shape[0] > 0
    n = 0.0
    s = 0.0
    for c in range(counts.shape[0]):
        v = counts[c]
        n += v
        if criterion == ENTROPY:
            if v > 0.0:
                s += xlogx[int(v + 0.5)] if lookup else v * math.log2(v)
        else:
            s += v * v
    if n <= 0.0:
        return 0.0
    if criterion == ENTROPY:
        f_n = xlogx[int(n + 0.5)] if lookup else n * math.log2(n)
        return max(f_n - s, 0.0)
    return max(n - s / n, 0.0)


def refine_cuts(
    table,
    coarse_starts,
    coarse_table,
    cuts,
    criterion,
    tolerance,
    xlogx=None,
    memo=None,
):
    """Move each cut of a pre-binned search to its best row near where it is.

    Cut ``t`` (a row position that starts a coarse unit) may move anywhere in the
    two coarse units around it, strictly between its neighbouring cuts, to the
    row that minimises the impurity of the two intervals it separates. One pass,
    left to right; O(rows of the window x J) per cut.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        The full value table.
    coarse_starts : ndarray of intp
        First row of each coarse unit (increasing, starting at 0).
    coarse_table : ndarray of float64 of shape (n_coarse, n_classes)
        Class counts of each coarse unit (the caller has them: summing the
        table again for each arity would be a pass over all its rows).
    cuts : ndarray of intp
        Cut row positions, increasing, each a coarse unit start.
    criterion : int
    tolerance : float
    xlogx : ndarray of float64 or None, default=None
        A :func:`xlogx_table` covering the table's total when every count of
        ``table`` is an integer: the entropies of the windows (two per row, the
        bulk of the work) then read ``t log2 t`` instead of computing it, with the
        same results. None computes the logs.
    memo : tuple of two ndarrays of intp or None, default=None
        ``(windows, count)`` from :func:`refine_memo`, shared by the calls for
        the arities of one search: a cut refined between the same neighbours
        before (the optima of several arities share most of their cuts) takes
        the row found then instead of scanning its window again. None
        remembers nothing.

    Returns
    -------
    refined : ndarray of intp
        The moved cuts (increasing).
    value : float
        Cumulative impurity of the refined partition.
    """
    if xlogx is None:
        xlogx = _EMPTY
    windows, count = refine_memo(0) if memo is None else memo
    return _refine_cuts(
        table,
        coarse_starts,
        coarse_table,
        cuts,
        criterion,
        tolerance,
        xlogx,
        windows,
        count,
    )


def refine_memo(capacity):
    """Room for ``capacity`` windows of :func:`refine_cuts` to remember.

    Returns
    -------
    windows : ndarray of intp of shape (capacity, 4)
        Left neighbour, right neighbour, cut before and after refinement.
    count : ndarray of intp of shape (1,)
        Windows remembered.
    """
    return np.empty((capacity, 4), dtype=np.intp), np.zeros(1, dtype=np.intp)


@njit(**NJIT)
def _refine_cuts(
    table,
    coarse_starts,
    coarse_table,
    cuts,
    criterion,
    tolerance,
    xlogx,
    windows,
    count,
):
    n_rows, n_classes = table.shape
    n_coarse = coarse_starts.shape[0]
    coarse_cum = prefix_sums(coarse_table)
    refined = cuts.copy()
    k = refined.shape[0]
    at_a = np.empty(n_classes)
    at_b = np.empty(n_classes)
    running = np.empty(n_classes)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    for t in range(k):
        a = refined[t - 1] if t > 0 else 0
        b = refined[t + 1] if t + 1 < k else n_rows
        # the window and its best row depend on the neighbours and the cut only
        seen = -1
        for w in range(count[0]):
            if (
                windows[w, 0] == a
                and windows[w, 1] == b
                and windows[w, 2] == refined[t]
            ):
                seen = windows[w, 3]
                break
        if seen >= 0:
            refined[t] = seen
            continue
        u = np.searchsorted(coarse_starts, refined[t], side="right") - 1
        low = coarse_starts[u - 1] + 1 if u >= 1 else 1
        high = coarse_starts[u + 1] - 1 if u + 1 < n_coarse else n_rows - 1
        low = max(low, a + 1)
        high = min(high, b - 1)
        _prefix_at(table, coarse_starts, coarse_cum, a, at_a)
        _prefix_at(table, coarse_starts, coarse_cum, b, at_b)
        _prefix_at(table, coarse_starts, coarse_cum, low, running)
        best = np.inf
        arg = refined[t]
        for pos in range(low, high + 1):
            for c in range(n_classes):
                left[c] = running[c] - at_a[c]
                right[c] = at_b[c] - running[c]
            value = _counts_cost(left, criterion, xlogx) + _counts_cost(
                right, criterion, xlogx
            )
            if value < best - tolerance:
                best = value
                arg = pos
            for c in range(n_classes):
                running[c] += table[pos, c]
        if count[0] < windows.shape[0]:
            windows[count[0], 0] = a
            windows[count[0], 1] = b
            windows[count[0], 2] = refined[t]
            windows[count[0], 3] = arg
            count[0] += 1
        refined[t] = arg
    total = 0.0
    previous = np.zeros(n_classes)
    current = np.empty(n_classes)
    counts = np.empty(n_classes)
    for t in range(k + 1):
        end = refined[t] if t < k else n_rows
        _prefix_at(table, coarse_starts, coarse_cum, end, current)
        for c in range(n_classes):
            counts[c] = current[c] - previous[c]
            previous[c] = current[c]
        total += _counts_cost(counts, criterion, xlogx)
    return refined, total
