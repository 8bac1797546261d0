# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the partition tree: numeric thresholds at a node and traversal.

The tree is stored as flat arrays (see ``partikit.tree._structure``); a node's
children, category map, thresholds and projection are slices of shared arrays,
found through per-node start offsets.
"""

import numpy as np
from numba import njit

from partikit._kernels._bipartition import split_impurity
from partikit._kernels._config import NJIT

#: Node kinds of the flat tree.
LEAF = 0
CATEGORICAL = 1
NUMERIC = 2
PROJECTION = 3


@njit(**NJIT)
def best_impurity_threshold(x, order, y_codes, weights, n_classes, criterion, min_leaf):
    """Binary threshold of least weighted impurity, streaming over the sorted rows.

    The same candidates, sums and tie-break as scoring the prefixes of the value
    table (class counts of each distinct value) but without building it: memory
    O(n_classes) instead of O(n_values n_classes).

    Parameters
    ----------
    x : ndarray of float64 of shape (n,)
        Finite values.
    order : ndarray of intp of shape (n,)
        A permutation sorting ``x`` increasingly.
    y_codes : ndarray of intp of shape (n,)
    weights : ndarray of float64 of shape (n,)
    n_classes : int
    criterion : int
        ``GINI`` or ``ENTROPY``.
    min_leaf : float
        Least weight on each side of a candidate.

    Returns
    -------
    threshold : float
        Halfway between the last value on the left and the first on the right;
        NaN when no candidate is valid (or there are fewer than two distinct
        values).
    impurity : float
        The best split's weighted impurity.
    total : ndarray of float64 of shape (n_classes,)
        Class counts of all rows.
    children : ndarray of float64 of shape (2, n_classes)
        Class counts of the rows at most ``threshold`` and above it.
    """
    n = order.shape[0]
    group = np.zeros(n_classes, dtype=np.float64)
    touched = np.empty(n_classes, dtype=np.intp)
    total = np.zeros(n_classes, dtype=np.float64)
    left = np.zeros(n_classes, dtype=np.float64)
    children = np.zeros((2, n_classes), dtype=np.float64)
    best = np.inf
    threshold = np.nan
    # pass 0: class totals; pass 1: the candidates; pass 2: the children. Counts
    # are summed value by value, as the value table's rows are.
    for stage in range(3):
        if stage == 2 and np.isnan(threshold):
            break
        grand = 0.0
        for c in range(n_classes):
            grand += total[c]
        n_touched = 0
        for r in range(n):
            i = order[r]
            label = y_codes[i]
            if group[label] == 0.0:
                touched[n_touched] = label
                n_touched += 1
            group[label] += weights[i]
            last = r == n - 1
            if not last and x[order[r + 1]] == x[i]:
                continue
            if stage == 0:
                into = total
            elif stage == 1:
                into = left
            else:
                into = children[0] if x[i] <= threshold else children[1]
            for t in range(n_touched):
                into[touched[t]] += group[touched[t]]
                group[touched[t]] = 0.0
            n_touched = 0
            if stage != 1 or last:
                continue
            size = 0.0
            for c in range(n_classes):
                size += left[c]
            if size < min_leaf or grand - size < min_leaf:
                continue
            value = split_impurity(left, total, criterion)
            if value < best:
                best = value
                threshold = x[i] / 2 + x[order[r + 1]] / 2
    return threshold, best, total, children


@njit(**NJIT)
def _child_slot(
    node, codes, numeric, i, kind, feature, map_start, category_child,
    threshold_start, thresholds, n_children, projection_start, projections,
    nan_child,
):  # fmt: skip
    """Child slot of row ``i`` at ``node``; -1 when the rule does not know it."""
    k = kind[node]
    if k == CATEGORICAL:
        code = codes[i, feature[node]]
        if code < 0:
            return -1
        return category_child[map_start[node] + code]
    if k == NUMERIC:
        x = numeric[i, feature[node]]
    else:
        x = 0.0
        start = projection_start[node]
        for d in range(numeric.shape[1]):
            x += numeric[i, d] * projections[start + d]
    if np.isnan(x):
        return nan_child[node]
    slot = 0
    start = threshold_start[node]
    while slot < n_children[node] - 1 and x > thresholds[start + slot]:
        slot += 1
    return slot


@njit(**NJIT)
def traverse(
    codes, numeric, kind, feature, children_start, children, n_children,
    map_start, category_child, threshold_start, thresholds, projection_start,
    projections, nan_child, default_child, stop_on_unknown, max_depth,
):  # fmt: skip
    """Path of every row from the root to where it stops.

    Parameters
    ----------
    codes : ndarray of int32 of shape (n_samples, n_categorical)
        Fitted category index of each row, -1 for a category unseen in fit.
    numeric : ndarray of float64 of shape (n_samples, n_numeric)
        NaN for a missing value.
    kind, feature, ... : ndarrays of the flat tree (see ``Tree``)
    stop_on_unknown : bool
        A row whose value the node's rule does not know stops at the node (True)
        or follows ``default_child`` (False).
    max_depth : int

    Returns
    -------
    paths : ndarray of intp of shape (n_samples, max_depth + 1)
        Nodes visited, root first, padded with -1.
    """
    n = codes.shape[0]
    paths = np.full((n, max_depth + 1), -1, dtype=np.intp)
    for i in range(n):
        node = 0
        depth = 0
        paths[i, 0] = 0
        while kind[node] != LEAF:
            slot = _child_slot(
                node, codes, numeric, i, kind, feature, map_start,
                category_child, threshold_start, thresholds, n_children,
                projection_start, projections, nan_child,
            )  # fmt: skip
            if slot < 0:
                if stop_on_unknown:
                    break
                slot = default_child[node]
            node = children[children_start[node] + slot]
            depth += 1
            paths[i, depth] = node
    return paths
