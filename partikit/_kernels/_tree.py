# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the partition tree: numeric thresholds at a node and traversal.

The tree is stored as flat arrays (see ``partikit.tree._structure``); a node's
children, category map, thresholds and projection are slices of shared arrays,
found through per-node start offsets.
"""

import numpy as np
from numba import njit

from partikit._kernels._bipartition import node_impurity, split_impurity
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
def _children_impurity(children, criterion):
    """Weighted impurity of the rows of ``children`` (each a child's class counts)."""
    n_children, n_classes = children.shape
    total = 0.0
    for k in range(n_children):
        size = 0.0
        for c in range(n_classes):
            size += children[k, c]
        total += size
    value = 0.0
    for k in range(n_children):
        size = 0.0
        for c in range(n_classes):
            size += children[k, c]
        if size > 0.0:
            value += size / total * node_impurity(children[k], criterion)
    return value


@njit(**NJIT)
def node_thresholds(
    columns, order, start, end, y_codes, weights, n_classes, search_criterion,
    node_criterion, min_leaf, score_criterion, parent_impurity,
):  # fmt: skip
    """Binary threshold of least impurity of every numeric column at a node.

    One call per node for all the numeric columns: the rows of the node are
    ``order[1 + j, start:end]`` for column ``j``, already sorted by that column
    with its missing values last (:func:`partition_rows` keeps them so), hence no
    sort at a node. Each column's threshold is :func:`best_impurity_threshold` on
    its known values; the rows with a missing value then join the child that
    lowers the weighted ``node_criterion`` impurity most (ties: the first).

    Parameters
    ----------
    columns : ndarray of float64 of shape (n_numeric, n_samples)
        The numeric columns, one per row; NaN for a missing value.
    order : ndarray of intp of shape (1 + n_numeric, n_samples)
        Row 0: the rows of each node in increasing index; row ``1 + j``: the rows
        of each node sorted by column ``j``, stable, NaN last.
    start, end : int
        The node's segment of every row of ``order``.
    y_codes : ndarray of intp of shape (n_samples,)
    weights : ndarray of float64 of shape (n_samples,)
    n_classes : int
    search_criterion : int
        ``GINI`` or ``ENTROPY``: the impurity the threshold minimises.
    node_criterion : int
        The nodes' impurity, which places the missing values.
    min_leaf : float
        Least weight of known values on each side of a threshold.
    score_criterion : int
        ``GINI`` or ``ENTROPY``: ``scores`` is ``parent_impurity`` minus the
        weighted impurity of the children; -1 leaves ``scores`` NaN.
    parent_impurity : float

    Returns
    -------
    thresholds : ndarray of float64 of shape (n_numeric,)
        NaN where a column has no valid threshold.
    raw : ndarray of float64 of shape (n_numeric,)
        Decrease of ``search_criterion`` impurity on the known values.
    children : ndarray of float64 of shape (n_numeric, 2, n_classes)
        Class counts of each side, the missing values included.
    nan_child : ndarray of intp of shape (n_numeric,)
        Side of the missing values, -1 where the node has none.
    scores : ndarray of float64 of shape (n_numeric,)
        See ``score_criterion``.
    """
    n_columns = columns.shape[0]
    thresholds = np.full(n_columns, np.nan)
    raw = np.zeros(n_columns)
    children = np.zeros((n_columns, 2, n_classes))
    nan_child = np.full(n_columns, -1, dtype=np.intp)
    scores = np.full(n_columns, np.nan)
    nan_table = np.empty(n_classes)
    trial = np.empty((2, n_classes))
    for j in range(n_columns):
        segment = order[1 + j, start:end]
        x = columns[j]
        n_known = end - start
        while n_known > 0 and np.isnan(x[segment[n_known - 1]]):
            n_known -= 1
        if n_known == 0:
            continue
        threshold, impurity, total, kids = best_impurity_threshold(
            x, segment[:n_known], y_codes, weights, n_classes, search_criterion,
            min_leaf,
        )  # fmt: skip
        if np.isnan(threshold):
            continue
        thresholds[j] = threshold
        raw[j] = node_impurity(total, search_criterion) - impurity
        children[j] = kids
        if n_known < end - start:
            _place_missing(segment, n_known, y_codes, weights, children, j,
                           nan_child, nan_table, trial, node_criterion)  # fmt: skip
        if score_criterion >= 0:
            scores[j] = parent_impurity - _children_impurity(
                children[j], score_criterion
            )
    return thresholds, raw, children, nan_child, scores


@njit(**NJIT)
def _place_missing(
    segment, n_known, y_codes, weights, children, j, nan_child, nan_table, trial,
    node_criterion,
):  # fmt: skip
    """Send the rows with a missing value to the side of least impurity."""
    nan_table[:] = 0.0
    for r in range(n_known, segment.shape[0]):
        i = segment[r]
        nan_table[y_codes[i]] += weights[i]
    best_slot = 0
    best_value = np.inf
    for slot in range(2):
        trial[:] = children[j]
        trial[slot] += nan_table
        value = _children_impurity(trial, node_criterion)
        if value < best_value:
            best_value = value
            best_slot = slot
    nan_child[j] = best_slot
    children[j, best_slot] += nan_table


@njit(**NJIT)
def partition_rows(order, start, end, slot_of_row, n_children, buffer):
    """Split a node's segment of every row of ``order`` into its children's.

    Stable: within each child the rows keep their order, so row 0 stays in
    increasing index and row ``1 + j`` sorted by column ``j``. Child ``k`` gets
    ``[start + offsets[k], start + offsets[k + 1])``.

    Parameters
    ----------
    order : ndarray of intp of shape (n_orders, n_samples)
        Changed in place.
    start, end : int
    slot_of_row : ndarray of intp of shape (n_samples,)
        Child of each row of the node (read only at the node's rows).
    n_children : int
    buffer : ndarray of intp of shape (n_samples,)
        Scratch space.

    Returns
    -------
    offsets : ndarray of intp of shape (n_children + 1,)
    """
    offsets = np.zeros(n_children + 1, dtype=np.intp)
    for r in range(start, end):
        offsets[slot_of_row[order[0, r]] + 1] += 1
    for k in range(n_children):
        offsets[k + 1] += offsets[k]
    position = np.empty(n_children, dtype=np.intp)
    for row in range(order.shape[0]):
        position[:] = offsets[:n_children]
        for r in range(start, end):
            i = order[row, r]
            slot = slot_of_row[i]
            buffer[position[slot]] = i
            position[slot] += 1
        for r in range(end - start):
            order[row, start + r] = buffer[r]
    return offsets


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
