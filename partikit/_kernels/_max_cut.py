# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Maximum cut of the value graph of a contingency table (Pereira & Laber).

The rows of a contingency table (the values of a categorical attribute) are the
vertices of a complete graph; the weight of edge ``(i, j)`` measures the benefit of
separating values ``i`` and ``j``. A bipartition of the values is a cut, and its
weight ``sum_{i in L, j in R} w_ij`` is the criterion to maximise.

Kernels here work on *raw* weights: the squared-Gini weight without its constant
``2 / N^2`` (an exact integer for integer counts) and the chi-square weight without
its ``1 / (n - 1)``. The constant multiplies every cut alike, so it changes no
decision; the caller applies it to the values it reports.

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


@njit(**NJIT)
def squared_gini_weights(table):
    """Raw squared-Gini weights ``sum_{x != y} A_ix A_jy`` of every pair of rows.

    Equal to ``n_i n_j - sum_x A_ix A_jx``; the thesis weight is this times
    ``2 / N^2`` (Lemma 1). The diagonal is zero.
    """
    n_rows, n_classes = table.shape
    totals = table.sum(axis=1)
    weights = np.zeros((n_rows, n_rows))
    for i in range(n_rows):
        for j in range(i + 1, n_rows):
            same = 0.0
            for x in range(n_classes):
                same += table[i, x] * table[j, x]
            w = totals[i] * totals[j] - same
            weights[i, j] = w
            weights[j, i] = w
    return weights


@njit(**NJIT)
def chi2_weights(table):
    """Raw chi-square weights: Pearson's statistic of the 2 x J table of rows i, j.

    Expected counts are the pair's own (``n_i (A_il + A_jl) / (n_i + n_j)``);
    classes absent from both rows are skipped. Rows must be non-empty.
    """
    n_rows, n_classes = table.shape
    totals = table.sum(axis=1)
    weights = np.zeros((n_rows, n_rows))
    for i in range(n_rows):
        for j in range(i + 1, n_rows):
            n_pair = totals[i] + totals[j]
            # (A_il - E_il)^2 = (A_jl - E_jl)^2 = d^2 and 1/E_il + 1/E_jl =
            # n_pair^2 / (c n_i n_j): one division per class instead of two.
            scale = n_pair / (totals[i] * totals[j])
            w = 0.0
            for x in range(n_classes):
                c = table[i, x] + table[j, x]
                if c > 0.0:
                    d = table[i, x] - totals[i] * c / n_pair
                    w += d * d / c
            w *= n_pair * scale
            weights[i, j] = w
            weights[j, i] = w
    return weights


@njit(**NJIT)
def cut_weight(weights, side):
    """Weight of the edges between the two sides."""
    n = weights.shape[0]
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            if side[i] != side[j]:
                total += weights[i, j]
    return total


@njit(**NJIT)
def greedy_cut(weights):
    """GreedyCut: vertices in index order, each to the side that cuts more weight.

    Vertex 0 goes left. Vertex ``v`` goes right when the weight it has towards the
    left side is at least the weight it has towards the right side (ties go right),
    else left. The cut is at least half of the total weight.
    """
    n = weights.shape[0]
    side = np.zeros(n, dtype=np.uint8)
    for v in range(1, n):
        to_left = 0.0
        to_right = 0.0
        for u in range(v):
            if side[u] == 0:
                to_left += weights[v, u]
            else:
                to_right += weights[v, u]
        if to_left >= to_right:
            side[v] = 1
    return side


@njit(**NJIT)
def _flip_gains(weights, side):
    """Gain of moving each vertex alone to the other side."""
    n = weights.shape[0]
    gains = np.zeros(n)
    for v in range(n):
        g = 0.0
        for u in range(n):
            if u != v:
                if side[u] == side[v]:
                    g += weights[v, u]
                else:
                    g -= weights[v, u]
        gains[v] = g
    return gains


@njit(**NJIT)
def _flip(weights, side, gains, v):
    """Move ``v`` to the other side and update every vertex's flip gain."""
    n = weights.shape[0]
    for u in range(n):
        if u != v:
            if side[u] == side[v]:
                gains[u] -= 2.0 * weights[u, v]
            else:
                gains[u] += 2.0 * weights[u, v]
    gains[v] = -gains[v]
    side[v] = 1 - side[v]


@njit(**NJIT)
def local_search(weights, side, tolerance, max_moves):
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
    flip scan costs O(n) and a swap scan O(n^2).
    """
    n = weights.shape[0]
    gains = _flip_gains(weights, side)
    n_flips = 0
    n_swaps = 0
    while n_flips + n_swaps < max_moves:
        moved = False
        for v in range(n):
            if gains[v] > tolerance:
                _flip(weights, side, gains, v)
                n_flips += 1
                moved = True
                break
        if moved:
            continue
        for i in range(n):
            for j in range(i + 1, n):
                if side[i] != side[j] and (
                    gains[i] + gains[j] + 2.0 * weights[i, j] > tolerance
                ):
                    _flip(weights, side, gains, i)
                    _flip(weights, side, gains, j)
                    n_swaps += 1
                    moved = True
                    break
            if moved:
                break
        if not moved:
            break
    return n_flips, n_swaps


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
    gains = _flip_gains(weights, side)
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
    for h in range(normals.shape[0]):
        for i in range(n):
            s = 0.0
            for d in range(vectors.shape[1]):
                s += vectors[i, d] * normals[h, d]
            side[i] = 1 if s > 0.0 else 0
        value = cut_weight(weights, side)
        if value > best:
            best = value
            best_side[:] = side
    return best_side, best
