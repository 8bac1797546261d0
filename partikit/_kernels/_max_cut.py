# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Maximum cut of the value graph of a contingency table (Pereira & Laber).

The rows of a contingency table (the values of a categorical attribute) are the
vertices of a complete graph; the weight of edge ``(i, j)`` measures the benefit of
separating values ``i`` and ``j``. A bipartition of the values is a cut, and its
weight ``sum_{i in L, j in R} w_ij`` is the criterion to maximise.

Kernels here work on *raw* weights: the squared-Gini weight without its constant
``2 / N^2`` (an exact integer for integer counts), the chi-square weight without
its ``1 / (n - 1)`` and the squared-error weight of a continuous target (a moment
table's rows) without its ``1 / N^2``. The constant multiplies every cut alike, so
it changes no decision; the caller applies it to the values it reports.

Sides are ``uint8`` arrays: 0 is the left side, 1 the right side.

References
----------
.. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
   attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, chapter 4.
.. [2] M. X. Goemans and D. P. Williamson, "Improved approximation algorithms for
   maximum cut and satisfiability problems using semidefinite programming",
   Journal of the ACM 42(6):1115-1145, 1995, doi:10.1145/227683.227684.
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT

#: Largest number of vertices whose cuts are enumerated (2^(n-1) - 1 of them).
MAX_EXHAUSTIVE_VERTICES = 20


# Cold start: arrays are allocated by the Python wrappers and filled by the
# compiled loops, so that a first fit compiles no numba allocation routine
# (``np.zeros`` of each shape and dtype, ``sum(axis=...)``: more than a second in
# all), and the dense search is two compiled functions (the weights of one
# kind, with the greedy pass fused in, and the search).

#: Kinds of weights of :func:`pair_weights`: class tables (squared Gini,
#: chi-square) and moment tables (squared error, see :func:`squared_error_weights`).
SQUARED_GINI, CHI2, SQUARED_ERROR = 0, 1, 2

#: A local-search move must raise the cut by more than this fraction of the total
#: edge weight (the thesis code's absolute 1e-6, made scale-free).
RELATIVE_TOLERANCE = 1e-9

#: Moves allowed to one local search on ``n`` vertices: ``MAX_MOVES_BASE +
#: MAX_MOVES_PER_VERTEX * n``, a guard far above what occurs.
MAX_MOVES_BASE, MAX_MOVES_PER_VERTEX = 1000, 100


def squared_gini_weights(table):
    """Raw squared-Gini weights ``sum_{x != y} A_ix A_jy`` of every pair of rows.

    Equal to ``n_i n_j - sum_x A_ix A_jx``; the thesis weight is this times
    ``2 / N^2`` (Lemma 1). The diagonal is zero.
    """
    return pair_weights(table, SQUARED_GINI)


def chi2_weights(table):
    """Raw chi-square weights: Pearson's statistic of the 2 x J table of rows i, j.

    Expected counts are the pair's own (``n_i (A_il + A_jl) / (n_i + n_j)``);
    classes absent from both rows add nothing, and a pair with an empty row
    weighs 0.
    """
    return pair_weights(table, CHI2)


def squared_error_weights(table):
    """Raw squared-error weights ``n_i n_j (m_i - m_j)^2`` of every pair of rows.

    ``table`` is a moment table (weight, weighted sum, weighted sum of squares
    of a continuous target per row); ``n`` is a row's weight and ``m`` its
    target mean. The weight is the sum, over the pairs of cases of the two
    rows, of ``w_a w_b (m_i - m_j)^2``: the squared difference of their rows'
    means. The caller's scale ``1 / N^2`` makes a cut weigh
    ``V(S) - p_L^2 V(L) - p_R^2 V(R)``, ``V`` the variance of the category means
    (Lemma 1 of the thesis with the Gini index replaced by that variance). The
    diagonal is zero; a pair with an empty row weighs 0.
    """
    return pair_weights(table, SQUARED_ERROR)


def pair_weights(table, kind, side=None):
    """The dense weights of every pair of rows, and GreedyCut on them.

    Parameters
    ----------
    table : ndarray of float64 of shape (n, n_classes)
        Class counts, or a moment table (n, 3) for ``SQUARED_ERROR``.
    kind : {SQUARED_GINI, CHI2, SQUARED_ERROR}
    side : ndarray of uint8 of shape (n,) or None, default=None
        When given, it receives the cut of :func:`greedy_cut` on these weights:
        the same decisions, made as the rows of weights are computed, so that
        the matrix is written once and not read again.

    Returns
    -------
    weights : ndarray of float64 of shape (n, n)
        Symmetric (exactly), zero diagonal.

    Notes
    -----
    The table is read class by class (``table.T`` made contiguous): the inner
    loops run over the rows ``j > i`` of one class and vectorise. The rows are
    computed in blocks of about 2^24 products: Ctrl-C is seen between them.
    """
    n_rows, n_classes = table.shape
    if kind == SQUARED_ERROR:
        return _squared_error_pair_weights(table, side)
    columns = np.ascontiguousarray(table.T)
    # the row totals summed class by class, in class order, as a loop over
    # each row's classes would sum them
    totals = np.zeros(n_rows)
    for x in range(n_classes):
        totals += columns[x]
    # zeros: each row of weights accumulates over the classes from 0
    weights = np.zeros((n_rows, n_rows))
    to_side = np.zeros((2, n_rows))
    if side is None:
        side = np.zeros(n_rows, dtype=np.uint8)
    kernel = _chi2_rows if kind == CHI2 else _squared_gini_rows
    step = max(1, (1 << 24) // max(1, n_rows * n_classes))
    for start in range(0, max(n_rows, 1), step):
        kernel(
            columns, totals, weights, side, to_side, start, min(n_rows, start + step)
        )
    return weights


def _squared_error_pair_weights(table, side):
    """:func:`pair_weights` of a moment table: weights from the rows' weights and
    means (a difference of means, not of large raw moments: no cancellation)."""
    n_rows = table.shape[0]
    sizes, means = moment_sizes_and_means(table)
    weights = np.empty((n_rows, n_rows))
    to_side = np.zeros((2, n_rows))
    if side is None:
        side = np.zeros(n_rows, dtype=np.uint8)
    step = max(1, (1 << 24) // max(1, n_rows))
    for start in range(0, max(n_rows, 1), step):
        _squared_error_rows(
            sizes, means, weights, side, to_side, start, min(n_rows, start + step)
        )
    return weights


def moment_sizes_and_means(table):
    """The weight and the target mean of each row of a moment table (mean 0 for
    an empty row), as contiguous float64 arrays."""
    sizes = np.ascontiguousarray(table[:, 0], dtype=np.float64)
    sums = np.ascontiguousarray(table[:, 1], dtype=np.float64)
    means = np.zeros(len(sizes))
    np.divide(sums, sizes, out=means, where=sizes > 0)
    return sizes, means


# One pair's weight, written once: inlined into the dense kernels below (all
# pairs of rows) and into the kernel of the splits of an ordered table
# (:func:`split_weights`), so that a numeric threshold is scored by the very
# arithmetic that scores a 2-row table of categories. Inlined in numba's IR, they
# compile with the caller's error_model and vectorise as the loops they replace.


@njit(**NJIT, error_model="numpy", inline="always")
def _squared_gini_weight(inner, n_a, n_b):
    """Raw squared-Gini weight from the rows' inner product ``sum_x A_ax A_bx``."""
    return n_a * n_b - inner


@njit(**NJIT, error_model="numpy", inline="always")
def _chi2_class_term(a, b, n_a, n_b):
    """Class ``x``'s term ``e^2 / c`` of the chi-square weight (see ``_chi2_rows``)."""
    c = a + b
    e = a * n_b - b * n_a
    return e * e / (c if c > 0.0 else 1.0)


@njit(**NJIT, error_model="numpy", inline="always")
def _chi2_weight(terms, n_a, n_b):
    """Raw chi-square weight from the sum of the class terms (0 for an empty row)."""
    p = n_a * n_b
    return terms / p if p > 0.0 else 0.0


# The two kernels below fill rows [start, stop) of the weights, each row i
# against the rows after it, then mirror it into column i; and make GreedyCut
# on the way: the side of row i is decided from `to_side` (its weight to each
# side, summed over the rows before it in row order, as greedy_cut sums) before
# row i's weights are added to the rows after it. Branch-free sums as in
# dense_search. error_model="numpy": a float division by zero gives inf or nan
# instead of raising, so that the divisions of the inner loops vectorise (no
# denominator is zero where it is used).


@njit(**NJIT, error_model="numpy")
def _squared_gini_rows(columns, totals, weights, side, to_side, start, stop):
    n_classes, n_rows = columns.shape
    for i in range(start, stop):
        side[i] = 1 if i > 0 and to_side[0, i] >= to_side[1, i] else 0
        s = float(side[i])
        out = weights[i, i + 1 :]
        after = totals[i + 1 :]
        for x in range(n_classes):
            a = columns[x, i]
            b = columns[x, i + 1 :]
            for j in range(out.shape[0]):
                out[j] += a * b[j]
        n_i = totals[i]
        for j in range(out.shape[0]):
            w = _squared_gini_weight(out[j], n_i, after[j])
            out[j] = w
            weights[i + 1 + j, i] = w
            to_side[0, i + 1 + j] += (1.0 - s) * w
            to_side[1, i + 1 + j] += s * w


@njit(**NJIT, error_model="numpy")
def _chi2_rows(columns, totals, weights, side, to_side, start, stop):
    # With e = A_ix n_j - A_jx n_i and c = A_ix + A_jx, both cells of class x
    # deviate from their expected count by e / (n_i + n_j), and 1 / E_ix +
    # 1 / E_jx = (n_i + n_j)^2 / (c n_i n_j): the statistic is
    # sum_x (e^2 / c) / (n_i n_j), one division per class (e is exact for
    # integer counts, and 0 for rows of the same profile). A class absent from
    # both rows has e = 0 (its 0 / 1 adds nothing); a pair with an empty row
    # weighs 0.
    n_classes, n_rows = columns.shape
    for i in range(start, stop):
        side[i] = 1 if i > 0 and to_side[0, i] >= to_side[1, i] else 0
        s = float(side[i])
        n_i = totals[i]
        out = weights[i, i + 1 :]
        after = totals[i + 1 :]
        for x in range(n_classes):
            a = columns[x, i]
            b = columns[x, i + 1 :]
            for j in range(out.shape[0]):
                out[j] += _chi2_class_term(a, b[j], n_i, after[j])
        for j in range(out.shape[0]):
            w = _chi2_weight(out[j], n_i, after[j])
            out[j] = w
            weights[i + 1 + j, i] = w
            to_side[0, i + 1 + j] += (1.0 - s) * w
            to_side[1, i + 1 + j] += s * w


@njit(**NJIT, error_model="numpy")
def _squared_error_rows(sizes, means, weights, side, to_side, start, stop):
    # Row i of the weights and GreedyCut's decision for row i, as the two
    # kernels above; the weight is n_i n_j (m_i - m_j)^2 from the means.
    n_rows = sizes.shape[0]
    for i in range(start, stop):
        side[i] = 1 if i > 0 and to_side[0, i] >= to_side[1, i] else 0
        s = float(side[i])
        n_i = sizes[i]
        m_i = means[i]
        weights[i, i] = 0.0
        for j in range(i + 1, n_rows):
            d = m_i - means[j]
            w = n_i * sizes[j] * d * d
            weights[i, j] = w
            weights[j, i] = w
            to_side[0, j] += (1.0 - s) * w
            to_side[1, j] += s * w


def split_weights(lefts, total, kind):
    """Raw weight of the edge between the two sides of each split of a table.

    Split ``k`` puts the class counts ``lefts[k]`` on one side and ``total -
    lefts[k]`` on the other: the weight is the one :func:`pair_weights` gives
    the 2-row table of the two sides, by the same arithmetic. With ``lefts``
    the cumulative sums of an ordered table (its ``t - 1`` prefixes), it scores
    every threshold of a numeric attribute at once, in O(t J).

    Parameters
    ----------
    lefts : ndarray of float64 of shape (n_splits, n_classes)
        Class counts, or moments (n_splits, 3) for ``SQUARED_ERROR``.
    total : ndarray of float64 of shape (n_classes,)
    kind : {SQUARED_GINI, CHI2, SQUARED_ERROR}

    Returns
    -------
    weights : ndarray of float64 of shape (n_splits,)
        A split with an empty side weighs 0. For ``SQUARED_ERROR`` it is
        ``n_L n_R (m_L - m_R)^2``, ``N`` times the decrease of the squared
        error: scored this way, the thresholds rank as CART's regression
        criterion ranks them.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large
       categorical attributes in decision trees", M.Sc. dissertation, PUC-Rio,
       2018, section 4.2.3 ("Handling Numeric Attributes").
    """
    out = np.zeros(lefts.shape[0])
    _split_weights(lefts, total, kind, out)
    return out


@njit(**NJIT, error_model="numpy")
def _split_weights(lefts, total, kind, out):
    # Each side's total summed class by class in class order, as pair_weights
    # sums a row's; the right side's counts are total - left, as the caller's
    # 2-row table would hold them.
    n_splits, n_classes = lefts.shape
    chi2 = kind == CHI2
    if kind == SQUARED_ERROR:
        # (s_a n_b - s_b n_a)^2 / (n_a n_b) = n_a n_b (m_a - m_b)^2
        for k in range(n_splits):
            n_a = lefts[k, 0]
            n_b = total[0] - n_a
            e = lefts[k, 1] * n_b - (total[1] - lefts[k, 1]) * n_a
            p = n_a * n_b
            out[k] = e * e / p if p > 0.0 else 0.0
        return
    for k in range(n_splits):
        n_a = 0.0
        n_b = 0.0
        for x in range(n_classes):
            n_a += lefts[k, x]
            n_b += total[x] - lefts[k, x]
        terms = 0.0
        if chi2:
            for x in range(n_classes):
                terms += _chi2_class_term(lefts[k, x], total[x] - lefts[k, x], n_a, n_b)
            out[k] = _chi2_weight(terms, n_a, n_b)
        else:
            for x in range(n_classes):
                terms += lefts[k, x] * (total[x] - lefts[k, x])
            out[k] = _squared_gini_weight(terms, n_a, n_b)


#: Stages of :func:`dense_search`.
START, MOVES, CUT = 1, 2, 3


def cut_weight(weights, side):
    """Weight of the edges between the two sides."""
    gains = np.empty(weights.shape[0])
    return dense_search(weights, side, gains, 0.0, 0, CUT)[0]


def flip_gains(weights, side):
    """Gain of moving each vertex alone to the other side (dense weights)."""
    gains = np.empty(weights.shape[0])
    dense_search(weights, side, gains, 0.0, 0, START)
    return gains


def greedy_cut(weights):
    """GreedyCut: vertices in index order, each to the side that cuts more weight.

    Vertex 0 goes left. Vertex ``v`` goes right when the weight it has towards the
    left side is at least the weight it has towards the right side (ties go right),
    else left. The cut is at least half of the total weight.
    """
    n = weights.shape[0]
    side = np.zeros(n, dtype=np.uint8)
    # Each vertex's weight to each side summed over the vertices before it, in
    # index order, from their rows (the matrix is symmetric): the sums of a
    # loop over the vertex's own row, made by numpy one row at a time (the
    # dense estimator makes GreedyCut with its weights, in pair_weights).
    to_side = np.zeros((2, n))
    for v in range(n):
        s = 1 if v > 0 and to_side[0, v] >= to_side[1, v] else 0
        side[v] = s
        row = weights[v, v + 1 :]
        to_side[0, v + 1 :] += (1.0 - s) * row
        to_side[1, v + 1 :] += float(s) * row
    return side


#: Local-search moves of one compiled call: a swap scan is O(n^2), and Ctrl-C is
#: only seen between calls.
MOVES_PER_CALL = 64


def local_search(weights, side, tolerance, max_moves, gains=None):
    """Improve a cut by single flips, then swaps, until no move gains ``tolerance``.

    Parameters
    ----------
    weights : ndarray of float64 of shape (n, n)
        Symmetric, non-negative, zero diagonal.
    side : ndarray of uint8 of shape (n,)
        Starting cut; modified in place.
    tolerance : float
        A move is applied only when it raises the cut by more than this.
    max_moves : int
        Moves allowed in all (a guard: local search always stops, but its worst
        case is exponential).
    gains : ndarray of float64 of shape (n,) or None, default=None
        The flip gains of ``side`` when the caller has them (GreedyCut leaves
        them), updated in place; None computes them.

    Returns
    -------
    n_flips, n_swaps : int
        Moves applied.

    Notes
    -----
    Scan order (the thesis code's): the first vertex, in index order, whose flip
    gains more than ``tolerance`` is flipped and the scan restarts from vertex 0.
    When no flip gains, the pairs ``(i, j)``, ``i < j`` on opposite sides, are
    scanned in lexicographic order and the first improving pair is swapped; then
    flips are tried again. Flip gains are kept up to date (O(n) per move), so a
    flip scan costs O(n) and a swap scan O(n^2). The moves are made by
    :func:`dense_search`, a few per compiled call.
    """
    if gains is None:
        gains = flip_gains(weights, side)
    n_flips = n_swaps = 0
    done = False
    while not done and n_flips + n_swaps < max_moves:
        _, flips, swaps, done = dense_search(
            weights,
            side,
            gains,
            tolerance,
            min(MOVES_PER_CALL, max_moves - n_flips - n_swaps),
            MOVES,
        )
        n_flips += flips
        n_swaps += swaps
    return n_flips, n_swaps


@njit(**NJIT)
def dense_search(weights, side, gains, tolerance, max_moves, stage):
    """One step of the max-cut search on a dense weight matrix.

    The whole search is this one compiled function (each compiled function
    costs a cold start a fraction of a second), called by stage on an exactly
    symmetric ``weights`` (non-negative, zero diagonal):

    * ``START``: ``gains`` filled with the flip gain of each vertex of ``side``;
      returns the weight of the cut;
    * ``CUT``: the weight of the cut only;
    * ``MOVES``: at most ``max_moves`` moves of :func:`local_search` from the
      kept state (``side`` and its exact ``gains``, both updated in place), so
      that calls in a row make exactly the moves of one long call while
      returning to Python between them (Ctrl-C works).

    Returns
    -------
    cut : float
        The cut weight (0.0 for ``MOVES``).
    n_flips, n_swaps : int
        Moves applied by a ``MOVES`` call.
    done : bool
        True when no move gains more than ``tolerance`` (a local optimum).
    """
    n = weights.shape[0]
    # Branch-free sums (a side is 0 or 1): adding 0.0 * w or (+-1.0) * w gives
    # the same floats as the branches would, and the loops vectorise.
    if stage != MOVES:
        total = 0.0
        for i in range(n):
            s = float(side[i])
            for j in range(i + 1, n):
                total += abs(s - float(side[j])) * weights[i, j]
        if stage == CUT:
            return total, 0, 0, False
        # Each gain is summed over u in order, as a loop over row v would sum
        # it, but reading row u (the matrix is symmetric) for every v at once:
        # the inner loop vectorises.
        for v in range(n):
            gains[v] = 0.0
        for u in range(n):
            t = float(side[u])
            row = weights[u]
            for v in range(n):
                # +w on the same side, -w across; the diagonal weighs 0
                gains[v] += (1.0 - 2.0 * abs(float(side[v]) - t)) * row[v]
        return total, 0, 0, False
    n_flips = 0
    n_swaps = 0
    while n_flips + n_swaps < max_moves:
        first = -1
        second = -1
        for v in range(n):
            if gains[v] > tolerance:
                first = v
                break
        if first < 0:
            for i in range(n):
                for j in range(i + 1, n):
                    if side[i] != side[j] and (
                        gains[i] + gains[j] + 2.0 * weights[i, j] > tolerance
                    ):
                        first = i
                        second = j
                        break
                if first >= 0:
                    break
            if first < 0:
                return 0.0, n_flips, n_swaps, True
            n_swaps += 1
        else:
            n_flips += 1
        # the flip of `first`, then of `second` for a swap: every gain updated
        # (row v read for column v: the matrix is symmetric)
        for k in range(2):
            v = first if k == 0 else second
            if v < 0:
                break
            for u in range(n):
                if u != v:
                    if side[u] == side[v]:
                        gains[u] -= 2.0 * weights[v, u]
                    else:
                        gains[u] += 2.0 * weights[v, u]
            gains[v] = -gains[v]
            side[v] = 1 - side[v]
    return 0.0, n_flips, n_swaps, False


@njit(**NJIT)
def _flip(weights, side, gains, v):
    """Move ``v`` to the other side and update every vertex's flip gain."""
    n = weights.shape[0]
    for u in range(n):
        if u != v:
            if side[u] == side[v]:
                gains[u] -= 2.0 * weights[v, u]
            else:
                gains[u] += 2.0 * weights[v, u]
    gains[v] = -gains[v]
    side[v] = 1 - side[v]


@njit(**NJIT)
def exhaustive_max_cut(weights):
    """Maximum cut by enumeration of the 2^(n-1) - 1 non-trivial cuts.

    Vertex 0 stays left; the others follow the binary reflected Gray code, one flip
    per step. Ties keep the first cut met in that order. O(2^n n).
    """
    n = weights.shape[0]
    side = np.zeros(n, dtype=np.uint8)
    best_side = side.copy()
    if n < 2:
        return best_side, 0.0
    gains = np.empty(n)
    dense_search(weights, side, gains, 0.0, 0, START)
    current = 0.0
    best = -1.0
    for step in range(1, 1 << (n - 1)):
        # the vertex flipped by Gray code step `step`: 1 + its lowest set bit
        bit = 0
        while not (step >> bit) & 1:
            bit += 1
        v = bit + 1
        current += gains[v]
        _flip(weights, side, gains, v)
        if current > best:
            best = current
            best_side[:] = side
    return best_side, best


@njit(**NJIT)
def best_hyperplane_cut(weights, vectors, normals):
    """Best of the cuts ``{i : <vectors[i], normal> > 0}`` over several normals.

    Goemans-Williamson rounding of an SDP solution factored as ``vectors`` (one row
    per vertex). Ties keep the first normal. Returns the side array and its weight.
    """
    n = vectors.shape[0]
    best_side = np.zeros(n, dtype=np.uint8)
    best = -1.0
    side = np.zeros(n, dtype=np.uint8)
    scratch = np.empty(n)
    for h in range(normals.shape[0]):
        for i in range(n):
            s = 0.0
            for d in range(vectors.shape[1]):
                s += vectors[i, d] * normals[h, d]
            side[i] = 1 if s > 0.0 else 0
        value = dense_search(weights, side, scratch, 0.0, 0, CUT)[0]
        if value > best:
            best = value
            best_side[:] = side
    return best_side, best


# --- squared-Gini weights without the matrix -------------------------------------
#
# The raw squared-Gini weight ``w_ij = n_i n_j - <A_i, A_j>`` is a bilinear form of
# the rows, so the weight from a vertex to a whole side is ``n_v N_s - <A_v, S_s>``
# with ``N_s`` and ``S_s`` the side's total and class vector. The kernels below keep
# ``side_totals`` (2,) and ``side_counts`` (2, n_classes) and pay O(n_classes) per
# vertex, where the matrix costs O(n) per vertex and O(n^2) memory.


@njit(**NJIT)
def gini_greedy_cut(table, totals, side, side_totals, side_counts):
    """GreedyCut of :func:`greedy_cut` on squared-Gini weights, from running sums.

    Same decisions as ``greedy_cut(squared_gini_weights(table))`` (exactly so for
    integer counts, whose sums are exact). ``side_totals`` and ``side_counts``
    must be zero; they end as the sums of the cut written into ``side``.
    """
    n, n_classes = table.shape
    for v in range(n):
        s = 0
        if v > 0:
            to_left = 0.0
            to_right = 0.0
            for x in range(n_classes):
                to_left += table[v, x] * side_counts[0, x]
                to_right += table[v, x] * side_counts[1, x]
            to_left = totals[v] * side_totals[0] - to_left
            to_right = totals[v] * side_totals[1] - to_right
            if to_left >= to_right:
                s = 1
        side[v] = s
        side_totals[s] += totals[v]
        for x in range(n_classes):
            side_counts[s, x] += table[v, x]


@njit(**NJIT)
def gini_flip_pass(
    table, totals, side, side_totals, side_counts, gains, tolerance, start, stop
):
    """Flip, in index order, each vertex of ``[start, stop)`` whose flip gains.

    A vertex is flipped when its gain, computed from the current sums, exceeds
    ``tolerance``; ``side``, the sums and ``gains`` (the gain of each vertex
    visited, as it is after the visit) are updated in place. A pass over every
    vertex that flips none leaves ``gains`` exact for the cut. Returns the number
    of flips.
    """
    n_classes = table.shape[1]
    n_flips = 0
    for v in range(start, stop):
        s = side[v]
        o = 1 - s
        own = 0.0
        same = 0.0
        other = 0.0
        for x in range(n_classes):
            a = table[v, x]
            own += a * a
            same += a * side_counts[s, x]
            other += a * side_counts[o, x]
        n_v = totals[v]
        gain = (n_v * (side_totals[s] - n_v) - (same - own)) - (
            n_v * side_totals[o] - other
        )
        if gain > tolerance:
            side[v] = o
            side_totals[s] -= n_v
            side_totals[o] += n_v
            for x in range(n_classes):
                side_counts[s, x] -= table[v, x]
                side_counts[o, x] += table[v, x]
            gain = -gain
            n_flips += 1
        gains[v] = gain
    return n_flips


@njit(**NJIT)
def gini_swap_scan(
    table, totals, side, gains, by_size, best_gain, tolerance, start, stop, budget
):
    """First vertex ``i`` of ``[start, stop)`` with an improving swap partner.

    The swap of ``i`` and ``j`` (opposite sides) gains ``g_i + g_j + 2 w_ij`` and
    ``w_ij <= n_i n_j``, so only partners with ``2 n_i n_j > tolerance - g_i -
    best_gain[side j]`` can gain: they are a prefix of ``by_size`` (vertices by
    decreasing total), scanned until the bound fails. The scan is exact: it
    misses no improving pair. Returns ``(i, j, evaluations, next_start)``, with
    ``i = -1`` when no vertex before ``next_start`` has a partner; it stops early,
    at a vertex boundary, once ``evaluations`` exceeds ``budget``.
    """
    n_classes = table.shape[1]
    evaluations = 0
    for i in range(start, stop):
        if evaluations > budget:
            return -1, -1, evaluations, i
        o = 1 - side[i]
        bound = tolerance - gains[i] - best_gain[o]
        n_i = totals[i]
        for k in range(by_size.shape[0]):
            j = by_size[k]
            if 2.0 * n_i * totals[j] <= bound:
                break
            evaluations += 1
            if side[j] == o:
                inner = 0.0
                for x in range(n_classes):
                    inner += table[i, x] * table[j, x]
                if gains[i] + gains[j] + 2.0 * (n_i * totals[j] - inner) > tolerance:
                    return i, j, evaluations, i
    return -1, -1, evaluations, stop


# --- squared-error weights without the matrix ------------------------------------
#
# ``w_ij = n_i n_j (m_i - m_j)^2`` has rank 3: it is ``n_i q_j + n_j q_i - 2 s_i s_j``
# with ``s = n m`` and ``q = n m^2``. The weight from a vertex to a whole side is
# ``n_v (Q_s - 2 m_v S_s + m_v^2 N_s)`` with the side's sums ``N_s = sum n``,
# ``S_s = sum n m`` and ``Q_s = sum n m^2`` (``side_sums[s] = (N_s, S_s, Q_s)``):
# O(1) per vertex. The caller centres and scales the means (the weights are
# invariant to a shift and scale by its square) so that the sums do not cancel.


@njit(**NJIT, inline="always")
def _to_side(n_v, m_v, side_sums, s):
    """Weight from a vertex outside side ``s`` to that side."""
    return n_v * (
        side_sums[s, 2] - 2.0 * m_v * side_sums[s, 1] + m_v * m_v * side_sums[s, 0]
    )


@njit(**NJIT, inline="always")
def _to_own_side(n_v, m_v, side_sums, s):
    """Weight from a vertex of side ``s`` to the other vertices of its side."""
    size = side_sums[s, 0] - n_v
    total = side_sums[s, 1] - n_v * m_v
    squares = side_sums[s, 2] - n_v * m_v * m_v
    return n_v * (squares - 2.0 * m_v * total + m_v * m_v * size)


@njit(**NJIT, inline="always")
def _move(n_v, m_v, side_sums, s, o):
    side_sums[s, 0] -= n_v
    side_sums[s, 1] -= n_v * m_v
    side_sums[s, 2] -= n_v * m_v * m_v
    side_sums[o, 0] += n_v
    side_sums[o, 1] += n_v * m_v
    side_sums[o, 2] += n_v * m_v * m_v


@njit(**NJIT)
def squared_error_greedy_cut(sizes, means, side, side_sums):
    """GreedyCut of :func:`greedy_cut` on squared-error weights, from running sums.

    The decisions of ``greedy_cut(squared_error_weights(table))`` (up to
    rounding) for the rows' weights ``sizes`` and ``means``. ``side_sums`` (2, 3)
    must be zero; it ends as the sums of the cut written into ``side``.
    """
    for v in range(sizes.shape[0]):
        n_v = sizes[v]
        m_v = means[v]
        s = 0
        if v > 0 and _to_side(n_v, m_v, side_sums, 0) >= _to_side(
            n_v, m_v, side_sums, 1
        ):
            s = 1
        side[v] = s
        side_sums[s, 0] += n_v
        side_sums[s, 1] += n_v * m_v
        side_sums[s, 2] += n_v * m_v * m_v


@njit(**NJIT)
def squared_error_flip_pass(
    sizes, means, side, side_sums, gains, tolerance, start, stop
):
    """:func:`gini_flip_pass` on squared-error weights: flip, in index order,
    each vertex of ``[start, stop)`` whose flip gains more than ``tolerance``.

    ``side``, ``side_sums`` and ``gains`` are updated in place; returns the
    number of flips.
    """
    n_flips = 0
    for v in range(start, stop):
        s = side[v]
        o = 1 - s
        n_v = sizes[v]
        m_v = means[v]
        gain = _to_own_side(n_v, m_v, side_sums, s) - _to_side(n_v, m_v, side_sums, o)
        if gain > tolerance:
            side[v] = o
            _move(n_v, m_v, side_sums, s, o)
            gain = -gain
            n_flips += 1
        gains[v] = gain
    return n_flips


@njit(**NJIT)
def squared_error_swap_scan(
    sizes, means, side, gains, by_size, best_gain, reach, tolerance, start, stop,
    budget,
):  # fmt: skip
    """:func:`gini_swap_scan` on squared-error weights.

    The swap of ``i`` and ``j`` gains ``g_i + g_j + 2 w_ij`` with ``w_ij = n_i
    n_j (m_i - m_j)^2 <= n_j reach[i]``, ``reach[i] = n_i (|m_i| + max |m|)^2``;
    partners are scanned by decreasing weight (``by_size``) until ``2 n_j
    reach[i]`` cannot reach ``tolerance - g_i - best_gain[side j]``, so the scan
    misses no improving pair. Returns ``(i, j, evaluations, next_start)`` as
    :func:`gini_swap_scan` does.
    """
    evaluations = 0
    for i in range(start, stop):
        if evaluations > budget:
            return -1, -1, evaluations, i
        o = 1 - side[i]
        bound = tolerance - gains[i] - best_gain[o]
        n_i = sizes[i]
        m_i = means[i]
        for k in range(by_size.shape[0]):
            j = by_size[k]
            if 2.0 * reach[i] * sizes[j] <= bound:
                break
            evaluations += 1
            if side[j] == o:
                d = m_i - means[j]
                if gains[i] + gains[j] + 2.0 * n_i * sizes[j] * d * d > tolerance:
                    return i, j, evaluations, i
    return -1, -1, evaluations, stop


# --- pooling categories of similar class profiles ---------------------------------


@njit(**NJIT)
def split_profile_cells(table, totals, weights, order, bounds, max_cells):
    """One level of a k-d split of the rows by class profile.

    The rows ``order[bounds[c]:bounds[c + 1]]`` form cell ``c``. Each cell whose
    rows do not all share one profile (``table[i] / totals[i]``) is split in two,
    in cell order while there are fewer than ``max_cells`` cells: its rows are
    sorted (stable) by their proportion of the class whose proportion has the
    largest ``weights``-weighted variance in the cell (ties: the first class),
    and cut at the boundary between distinct proportions nearest to the weighted
    median. ``order`` is reordered in place. Returns the new bounds (a cell
    splits at most once per call, so that a level costs O(n log n)).
    """
    n_classes = table.shape[1]
    n_cells = bounds.shape[0] - 1
    new_bounds = np.empty(min(2 * n_cells, max_cells) + 1, dtype=np.intp)
    new_bounds[0] = 0
    m = 0
    mean = np.empty(n_classes)
    for c in range(n_cells):
        lo = bounds[c]
        hi = bounds[c + 1]
        axis = -1
        if m + 1 + (n_cells - c) <= max_cells and hi - lo > 1:
            weight = 0.0
            mean[:] = 0.0
            for k in range(lo, hi):
                i = order[k]
                weight += weights[i]
                for x in range(n_classes):
                    mean[x] += weights[i] * (table[i, x] / totals[i])
            best = 0.0
            for x in range(n_classes):
                mean[x] /= weight
                spread = 0.0
                for k in range(lo, hi):
                    i = order[k]
                    d = table[i, x] / totals[i] - mean[x]
                    spread += weights[i] * d * d
                if spread > best:
                    best = spread
                    axis = x
        cut = -1
        if axis >= 0:
            rows = order[lo:hi].copy()
            values = np.empty(hi - lo)
            for k in range(hi - lo):
                values[k] = table[rows[k], axis] / totals[rows[k]]
            sort = np.argsort(values, kind="mergesort")
            half = 0.0
            for k in range(hi - lo):
                order[lo + k] = rows[sort[k]]
                half += weights[rows[k]]
            half /= 2.0
            # cut after position k (1 <= k < hi - lo) where values change,
            # the nearest to the weighted median
            running = 0.0
            best_distance = np.inf
            for k in range(1, hi - lo):
                running += weights[order[lo + k - 1]]
                if values[sort[k]] != values[sort[k - 1]]:
                    distance = abs(running - half)
                    if distance < best_distance:
                        best_distance = distance
                        cut = lo + k
        if cut >= 0:
            m += 1
            new_bounds[m] = cut
        m += 1
        new_bounds[m] = hi
    return new_bounds[: m + 1].copy()
