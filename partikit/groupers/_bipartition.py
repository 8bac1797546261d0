# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Best binary partition of the rows of a table (private cores).

A bipartition of the rows of a contingency table is scored by the two-row table of
its two sides. CHAID uses :func:`best_chi2_bipartition` to re-split a compound
category; the binary-partition family of the max-cut issue grows from here.
"""

from __future__ import annotations

import numpy as np

from partikit._kernels._chaid import LIKELIHOOD_RATIO, PEARSON, pair_statistics
from partikit._stats import log10_chi2_sf

#: Largest number of rows searched exhaustively (2^(m-1) - 1 bipartitions).
MAX_EXHAUSTIVE_ROWS = 12

_TESTS = {"pearson": PEARSON, "likelihood_ratio": LIKELIHOOD_RATIO}


def _side_statistics(left, total, test):
    """Statistic and classes present of each split ``(left[k], total - left[k])``."""
    k = left.shape[0]
    stacked = np.ascontiguousarray(np.vstack([left, total - left]), dtype=np.float64)
    # exact zeros for classes a side lacks (total - left may leave rounding dust)
    stacked[stacked < 1e-9 * max(float(total.max()), 1.0)] = 0.0
    return pair_statistics(stacked, np.arange(k), np.arange(k, 2 * k), _TESTS[test])


def _principal_order(table):
    """Rows sorted by their class profile's score on the first principal component.

    Principal component of the class-probability vectors weighted by row totals
    (Coppersmith, Hong & Hosking 1999), sign fixed so that its largest-magnitude
    entry is positive; ties in score keep the row order.
    """
    totals = table.sum(axis=1)
    profiles = table / totals[:, None]
    mean = totals @ profiles / totals.sum()
    centred = profiles - mean
    covariance = (centred * totals[:, None]).T @ centred
    _, vectors = np.linalg.eigh(covariance)
    direction = vectors[:, -1]
    direction = direction * np.sign(direction[np.argmax(np.abs(direction))])
    return np.argsort(profiles @ direction, kind="stable")


def best_chi2_bipartition(table, *, ordered=False, test="pearson"):
    """Most significant split of the rows of a table into two non-empty sides.

    Parameters
    ----------
    table : ndarray of shape (m, n_classes)
        Non-empty rows, ``m >= 2``.
    ordered : bool, default=False
        True: only the ``m - 1`` cuts of the rows in their order. False: every
        bipartition when ``m <= MAX_EXHAUSTIVE_ROWS`` (``2^(m-1) - 1`` of them),
        above that the ``m - 1`` cuts of the rows sorted by their principal
        component score (exact for two classes, a heuristic otherwise).
    test : {"pearson", "likelihood_ratio"}, default="pearson"
        Statistic of the two-row table of the sides. Every split has the same
        classes present, hence the same degrees of freedom: the largest statistic
        is the smallest p-value.

    Returns
    -------
    side : ndarray of bool of shape (m,)
        Rows on one side (the side without row 0 for exhaustive searches; the
        rows after the cut otherwise).
    log10_pvalue : float
        log10 p-value of the chi-square test of the split's 2 x J table.

    Notes
    -----
    Ties go to the first split enumerated: smallest cut, or the subsets in
    increasing binary order of their membership mask.

    References
    ----------
    .. [1] D. Coppersmith, S. J. Hong and J. R. M. Hosking, "Partitioning nominal
       attributes in decision trees", Data Mining and Knowledge Discovery
       3(2):197-217, 1999, doi:10.1023/A:1009869804967.
    .. [2] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
       "Classification and Regression Trees", Wadsworth, 1984, theorem 4.5.
    """
    table = np.asarray(table, dtype=np.float64)
    m = table.shape[0]
    if m < 2:
        raise ValueError(f"a bipartition needs at least 2 rows, got {m}.")
    total = table.sum(axis=0)
    if ordered or m > MAX_EXHAUSTIVE_ROWS:
        order = np.arange(m) if ordered else _principal_order(table)
        left = np.cumsum(table[order], axis=0)[:-1]
        statistics, n_present = _side_statistics(left, total, test)
        cut = int(np.argmax(statistics))
        side = np.zeros(m, dtype=bool)
        side[order[cut + 1 :]] = True
    else:
        # Subsets of rows 1..m-1 (row 0 stays on the other side), all but the
        # empty one: the 2^(m-1) - 1 distinct bipartitions.
        codes = np.arange(1, 1 << (m - 1))
        masks = ((codes[:, None] >> np.arange(m - 1)) & 1).astype(bool)
        right = masks.astype(np.float64) @ table[1:]
        statistics, n_present = _side_statistics(total - right, total, test)
        best = int(np.argmax(statistics))
        side = np.concatenate([[False], masks[best]])
        cut = best
    log10_p = log10_chi2_sf(statistics[cut], n_present[cut] - 1)
    return side, float(log10_p)


__all__ = ["MAX_EXHAUSTIVE_ROWS", "best_chi2_bipartition"]
