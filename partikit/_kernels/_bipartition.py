# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Searches over binary partitions of the rows of a contingency table.

The impurity of a split ``(L, R)`` of the rows is ``sum_side n_side / N *
phi(p_side)`` with ``phi`` the Gini index ``1 - sum p^2`` or the entropy
``-sum p log2 p`` of the side's class proportions. Every search here minimises it
(or, for Twoing, maximises the twoing value) over a family of splits:

* the ``m - 1`` prefixes of an order of the rows (Breiman's sort, principal
  component, superclass orders);
* every split, in Gray-code order (exhaustive search);
* the prefixes of the rows sorted by their share of a superclass of classes
  (Breiman's sort for two classes, Twoing, Largest Alone, List Scheduling);
* greedy moves of one row at a time (SLIQ).

Sides are ``uint8`` arrays: 0 is the left side, 1 the right side.

References
----------
.. [1] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone, "Classification
   and Regression Trees", Wadsworth, 1984, section 4.2 and theorem 4.5.
.. [2] M. Mehta, R. Agrawal and J. Rissanen, "SLIQ: a fast scalable classifier for
   data mining", EDBT 1996, doi:10.1007/BFb0014141.
"""

import math

import numpy as np
from numba import njit

from partikit._kernels._codes import GINI, TWOING
from partikit._kernels._config import NJIT

#: Largest number of rows whose splits are enumerated (2^(m-1) - 1 of them).
MAX_EXHAUSTIVE_ROWS = 20
#: Largest number of classes whose 2^(k-1) - 1 superclasses Twoing enumerates.
MAX_TWOING_CLASSES = 20


@njit(**NJIT)
def node_impurity(counts, criterion):
    """Gini index or entropy (bits) of a vector of class counts (0 if empty)."""
    total = 0.0
    for x in range(counts.shape[0]):
        total += counts[x]
    if total <= 0.0:
        return 0.0
    value = 0.0
    if criterion == GINI:
        for x in range(counts.shape[0]):
            p = counts[x] / total
            value += p * p
        return 1.0 - value
    for x in range(counts.shape[0]):
        if counts[x] > 0.0:
            p = counts[x] / total
            value -= p * math.log2(p)
    return value


@njit(**NJIT)
def split_impurity(left, total, criterion):
    """Weighted impurity of the split whose left side has class counts ``left``.

    Both sides in one loop over the classes (the right side's counts are
    ``total - left``), each side's sum in class order: a helper per side, called
    with and without ``total``, would be compiled twice.
    """
    # sums by loops, not ``.sum()``: numba compiles its array reductions for each
    # array type, a tenth of a second of a cold first fit
    n_left = 0.0
    n_total = 0.0
    for x in range(left.shape[0]):
        n_left += left[x]
        n_total += total[x]
    n_right = n_total - n_left
    value_left = 0.0
    value_right = 0.0
    for x in range(left.shape[0]):
        c_left = left[x]
        c_right = total[x] - left[x]
        if n_left > 0.0:
            p = c_left / n_left
            if criterion == GINI:
                value_left += p * p
            elif c_left > 0.0:
                value_left -= p * math.log2(p)
        if n_right > 0.0:
            p = c_right / n_right
            if criterion == GINI:
                value_right += p * p
            elif c_right > 0.0:
                value_right -= p * math.log2(p)
    term_left = 0.0
    term_right = 0.0
    if n_left > 0.0:
        term_left = n_left * (1.0 - value_left if criterion == GINI else value_left)
    if n_right > 0.0:
        term_right = n_right * (1.0 - value_right if criterion == GINI else value_right)
    return (term_left + term_right) / n_total


@njit(**NJIT)
def exhaustive_min_impurity(table, criterion):
    """Split of least impurity among all 2^(m-1) - 1, in Gray-code order.

    Row 0 stays left; rows 1 .. m-1 move one at a time following the binary
    reflected Gray code. Ties keep the first split met. O(2^m J).
    """
    m, n_classes = table.shape
    # a loop, not table.sum(axis=0): the same sums in the same order, compiled
    # in a fraction of the time
    total = np.zeros(n_classes)
    for i in range(m):
        for x in range(n_classes):
            total[x] += table[i, x]
    left = total.copy()
    side = np.zeros(m, dtype=np.uint8)
    best_side = side.copy()
    best = np.inf
    for step in range(1, 1 << (m - 1)):
        bit = 0
        while not (step >> bit) & 1:
            bit += 1
        v = bit + 1
        sign = -1.0 if side[v] == 0 else 1.0
        for x in range(n_classes):
            left[x] += sign * table[v, x]
        side[v] = 1 - side[v]
        value = split_impurity(left, total, criterion)
        if value < best:
            best = value
            best_side[:] = side
    return best_side, best


@njit(**NJIT)
def twoing_value(left, total):
    """Twoing value ``p_L p_R / 4 * (sum_j |p(j|L) - p(j|R)|)^2`` of a split."""
    n_left = 0.0
    n_total = 0.0
    for x in range(total.shape[0]):
        n_left += left[x]
        n_total += total[x]
    n_right = n_total - n_left
    if n_left <= 0.0 or n_right <= 0.0:
        return 0.0
    spread = 0.0
    for x in range(total.shape[0]):
        spread += abs(left[x] / n_left - (total[x] - left[x]) / n_right)
    return n_left * n_right / (n_total * n_total) / 4.0 * spread * spread


@njit(**NJIT)
def superclass_order(table, superclass):
    """Rows sorted by their proportion of the classes with ``superclass[x] == 1``.

    Ties keep the row order (stable sort).
    """
    m, n_classes = table.shape
    share = np.empty(m)
    for i in range(m):
        inside = 0.0
        total = 0.0
        for x in range(n_classes):
            total += table[i, x]
            if superclass[x]:
                inside += table[i, x]
        share[i] = inside / total
    return np.argsort(share, kind="mergesort")


@njit(**NJIT)
def superclass_search(table, superclasses, criterion, k_class):
    """Best prefix split of the rows sorted by their share of a superclass.

    For each superclass (a row of ``superclasses``, 1 for the classes inside), the
    rows are sorted by their proportion of the superclass's classes (stable) and the
    ``m - 1`` prefixes are scored. With two classes, or two superclasses scored as
    two classes, the best prefix is the best split for any concave impurity
    (Breiman et al. 1984, theorem 4.5).

    Parameters
    ----------
    table : ndarray of float64 of shape (m, J)
    superclasses : ndarray of uint8 of shape (s, J)
    criterion : int
        ``GINI`` or ``ENTROPY`` (least impurity wins) or ``TWOING`` (largest
        twoing value wins).
    k_class : bool
        Score a prefix by the impurity of all ``J`` classes (True) or of the two
        superclasses (False). Ignored by ``TWOING``.

    Returns
    -------
    side : ndarray of uint8 of shape (m,)
        The best split (rows of the prefix on the left); ties keep the first met,
        superclass by superclass, prefix by prefix.
    score : float
        Its impurity, or its twoing value.
    """
    m, n_classes = table.shape
    total = np.zeros(n_classes)
    for i in range(m):
        for x in range(n_classes):
            total[x] += table[i, x]
    left = np.zeros(n_classes)
    left2 = np.zeros(2)
    total2 = np.zeros(2)
    best = np.inf
    best_s = -1
    best_k = -1
    for s in range(superclasses.shape[0]):
        superclass = superclasses[s]
        order = superclass_order(table, superclass)
        total2[:] = 0.0
        for x in range(n_classes):
            total2[superclass[x]] += total[x]
        left[:] = 0.0
        left2[:] = 0.0
        for k in range(m - 1):
            row = order[k]
            for x in range(n_classes):
                left[x] += table[row, x]
                left2[superclass[x]] += table[row, x]
            if criterion == TWOING:
                score = -twoing_value(left, total)
            elif k_class:
                score = split_impurity(left, total, criterion)
            else:
                score = split_impurity(left2, total2, criterion)
            if score < best:
                best = score
                best_s = s
                best_k = k
    # the best prefix is written once, from its superclass's order made again:
    # writing it at every improvement is O(m) per improvement, O(m^2) in all
    best_side = np.zeros(m, dtype=np.uint8)
    if best_s >= 0:
        best_side[:] = 1
        order = superclass_order(table, superclasses[best_s])
        for r in range(best_k + 1):
            best_side[order[r]] = 0
    if criterion == TWOING:
        best = -best
    return best_side, best


@njit(**NJIT)
def sliq_search(table, criterion, extended):
    """SLIQ's greedy moves of one row at a time from the left side to the right.

    All rows start on the left. Each step moves the left row whose move gives the
    least impurity (ties: lowest row index), as long as at least two rows are left.
    ``extended=False`` (SLIQ) always makes the first move, then stops before the
    first move that does not lower the impurity of the current split;
    ``extended=True`` (SLIQ-ext) makes every move and keeps the best split seen
    (ties: the earliest). Returns the side array and its impurity. O(m^2 J).
    """
    m, n_classes = table.shape
    total = np.zeros(n_classes)
    for i in range(m):
        for x in range(n_classes):
            total[x] += table[i, x]
    left = total.copy()
    side = np.zeros(m, dtype=np.uint8)
    best_side = side.copy()
    best = np.inf
    current = np.inf
    for _ in range(m - 1):
        step_best = np.inf
        step_row = -1
        for v in range(m):
            if side[v] == 0:
                for x in range(n_classes):
                    left[x] -= table[v, x]
                value = split_impurity(left, total, criterion)
                for x in range(n_classes):
                    left[x] += table[v, x]
                if value < step_best:
                    step_best = value
                    step_row = v
        if not extended and not step_best < current:
            break
        for x in range(n_classes):
            left[x] -= table[step_row, x]
        side[step_row] = 1
        current = step_best
        if step_best < best:
            best = step_best
            best_side[:] = side
    return best_side, best


@njit(**NJIT)
def candidate_impurities(lefts, total, criterion):
    """Impurity of each split whose left side has the class counts ``lefts[c]``."""
    out = np.empty(lefts.shape[0])
    for c in range(lefts.shape[0]):
        out[c] = split_impurity(lefts[c], total, criterion)
    return out


@njit(**NJIT)
def candidate_twoing_values(lefts, total):
    """Twoing value of each split whose left side has the class counts ``lefts[c]``.

    :func:`twoing_value`, the function Twoing's search scores a split with, on
    every candidate: with ``lefts`` the cumulative sums of an ordered table, every
    threshold of a numeric attribute at once (thesis section 4.2.3).
    """
    out = np.empty(lefts.shape[0])
    for c in range(lefts.shape[0]):
        out[c] = twoing_value(lefts[c], total)
    return out


@njit(**NJIT, error_model="numpy")
def best_mean_prefix(table, n, keys, order):
    """The best binary split of the rows of a moment table for squared error.

    Fisher's sort (1958): the rows sorted by their mean (stable: ties keep the
    row order), the best of the ``n - 1`` prefixes of that order. The one
    computation of ``sort_by_mean``, for the grouper's core and for the tree's
    node kernel alike.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, 3)
        Moments (weight, sum, sum of squares); rows ``0 .. n - 1`` are read and
        must have a positive weight.
    n : int
        Rows read, at least 2.
    keys : ndarray of float64 of shape (>= n,)
        Scratch space (the rows' means).
    order : ndarray of intp of shape (>= 2 n,)
        Receives the rows by increasing mean in ``order[:n]``; ``order[n:2n]``
        is scratch space (the merge sort's buffer).

    Returns
    -------
    n_left : int
        The best prefix's length (``1 <= n_left < n``; ties: the first).
    squared_error : float
        The two sides' summed squared error, each side's ``sum of squares -
        sum^2 / weight`` clipped at 0; the right side's moments are the total's
        minus the left's.
    """
    total_weight = 0.0
    total_sum = 0.0
    total_squares = 0.0
    for k in range(n):
        total_weight += table[k, 0]
        total_sum += table[k, 1]
        total_squares += table[k, 2]
        keys[k] = table[k, 1] / table[k, 0]
    # A bottom-up merge sort of the rows by mean, stable, written out: numba's
    # own argsort(kind="mergesort") costs a cold process 1.5 s to compile.
    # Runs of ``width`` rows are merged from one half of ``order`` into the
    # other, the halves swapping roles after each pass.
    for k in range(n):
        order[k] = k
    source = 0
    width = 1
    while width < n:
        target = n - source
        for low in range(0, n, 2 * width):
            middle = low + width if low + width < n else n
            high = low + 2 * width if low + 2 * width < n else n
            i = low
            j = middle
            out = low
            while i < middle and j < high:
                if keys[order[source + j]] < keys[order[source + i]]:
                    order[target + out] = order[source + j]
                    j += 1
                else:
                    order[target + out] = order[source + i]
                    i += 1
                out += 1
            while i < middle:
                order[target + out] = order[source + i]
                i += 1
                out += 1
            while j < high:
                order[target + out] = order[source + j]
                j += 1
                out += 1
        source = target
        width *= 2
    if source != 0:
        for k in range(n):
            order[k] = order[n + k]
    left_weight = 0.0
    left_sum = 0.0
    left_squares = 0.0
    best = np.inf
    n_left = 1
    for k in range(n - 1):
        row = order[k]
        left_weight += table[row, 0]
        left_sum += table[row, 1]
        left_squares += table[row, 2]
        right_weight = total_weight - left_weight
        right_sum = total_sum - left_sum
        right_squares = total_squares - left_squares
        # (conditionals, not max(): a builtin is one more function for a cold
        # process to compile)
        left_error = left_squares - left_sum * left_sum / left_weight
        if left_error < 0.0:
            left_error = 0.0
        if right_weight > 0.0:
            right_error = right_squares - right_sum * right_sum / right_weight
        else:
            right_error = right_squares
        if right_error < 0.0:
            right_error = 0.0
        error = left_error + right_error
        if error < best:
            best = error
            n_left = k + 1
    return n_left, best
