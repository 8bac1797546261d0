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
def _children_impurity(rows, criterion, first):
    """Weighted impurity of two children, rows ``first`` and ``first + 1``."""
    n_classes = rows.shape[1]
    total = 0.0
    for k in range(first, first + 2):
        size = 0.0
        for c in range(n_classes):
            size += rows[k, c]
        total += size
    value = 0.0
    for k in range(first, first + 2):
        size = 0.0
        for c in range(n_classes):
            size += rows[k, c]
        if size > 0.0:
            value += size / total * node_impurity(rows[k], criterion)
    return value


#: Columns of the result of :func:`node_thresholds`, then the children's counts.
THRESHOLD, RAW, SCORE, NAN_CHILD, CHILDREN = 0, 1, 2, 3, 4


@njit(**NJIT)
def node_thresholds(
    columns, order, start, end, y_codes, weights, search_criterion,
    node_criterion, min_leaf, score_criterion, parent_impurity, whole_weights,
    out, scratch, touched,
):  # fmt: skip
    """Binary threshold of least impurity of every numeric column at a node.

    One call per node for all the numeric columns: the rows of the node are
    ``order[1 + j, start:end]`` for column ``j``, already sorted by that column
    with its missing values last (:func:`partition_rows` keeps them so), hence no
    sort at a node. Each column's known values are streamed over in sorted order,
    without a value table (memory O(n_classes), not O(n_values n_classes)), with
    the candidates, sums and tie-break of scoring the prefixes of the value table
    (``split_impurity_threshold``): every boundary between consecutive distinct
    values leaving at least ``min_leaf`` weight on each side, the smallest
    threshold among equals, counts summed value by value. The rows with a missing
    value then join the side that lowers the weighted ``node_criterion`` impurity
    most (ties: the left).

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
    search_criterion : int
        ``GINI`` or ``ENTROPY``: the impurity the threshold minimises.
    node_criterion : int
        The nodes' impurity, which places the missing values.
    min_leaf : float
        Least weight of known values on each side of a threshold.
    score_criterion : int
        ``GINI`` or ``ENTROPY``: the score is ``parent_impurity`` minus the
        weighted impurity of the children; -1 leaves it NaN.
    parent_impurity : float
    whole_weights : bool
        Every weight is a whole number: the class totals of a column without a
        missing value at the node are then the node's, summed in row order
        (exact), and its pass that sums them value by value is skipped.
    out : ndarray of float64 of shape (n_numeric, 4 + 2 n_classes)
        Receives, per column: the threshold (``THRESHOLD``: halfway between the
        last value on the left and the first on the right; NaN where the column
        has no valid one), the decrease of ``search_criterion`` impurity on the
        known values (``RAW``), the score (``SCORE``), the side of the missing
        values (``NAN_CHILD``, -1 where the node has none), then the class counts
        of each side, the missing values included (``CHILDREN``: left's, then
        right's).
    scratch : ndarray of float64 of shape (7, n_classes)
    touched : ndarray of intp of shape (n_classes,)
        Scratch space.

    Notes
    -----
    The outputs and scratch are the caller's arrays, made once per fit: each
    array made in a kernel costs its cold start a fraction of a second.
    """
    n_classes = scratch.shape[1]
    # scratch rows: the children (0-1), the missing values' counts (2), one
    # value's counts (3), the known values' totals (4), the left side's (5),
    # the node's totals (6)
    for c in range(n_classes):
        scratch[6, c] = 0.0
    for r in range(start, end):
        i = order[0, r]
        scratch[6, y_codes[i]] += weights[i]
    for j in range(columns.shape[0]):
        out[j, THRESHOLD] = np.nan
        out[j, SCORE] = np.nan
        out[j, NAN_CHILD] = -1.0
        segment = order[1 + j]
        x = columns[j]
        n_known = end
        while n_known > start and x[segment[n_known - 1]] != x[segment[n_known - 1]]:
            n_known -= 1
        for row in range(6):
            for c in range(n_classes):
                scratch[row, c] = 0.0
        # the known values' totals: the node's when none is missing and they
        # are sums of whole numbers (exact in any order, as the value table's)
        for c in range(n_classes):
            scratch[4, c] = scratch[6, c]
        first_stage = 1 if n_known == end and whole_weights else 0
        if first_stage == 0:
            for c in range(n_classes):
                scratch[4, c] = 0.0
        best = np.inf
        threshold = np.nan
        right_start = end
        # pass 0: class totals; pass 1: the candidates, the best one's left side
        # kept in row 0
        for stage in range(first_stage, 2):
            grand = 0.0
            for c in range(n_classes):
                grand += scratch[4, c]
            n_touched = 0
            for r in range(start, n_known):
                i = segment[r]
                label = y_codes[i]
                if scratch[3, label] == 0.0:
                    touched[n_touched] = label
                    n_touched += 1
                scratch[3, label] += weights[i]
                last = r == n_known - 1
                if not last and x[segment[r + 1]] == x[i]:
                    continue
                into = 4 if stage == 0 else 5
                for t in range(n_touched):
                    scratch[into, touched[t]] += scratch[3, touched[t]]
                    scratch[3, touched[t]] = 0.0
                n_touched = 0
                if stage != 1 or last:
                    continue
                size = 0.0
                for c in range(n_classes):
                    size += scratch[5, c]
                if size < min_leaf or grand - size < min_leaf:
                    continue
                value = split_impurity(scratch[5], scratch[4], search_criterion)
                if value < best:
                    best = value
                    threshold = x[i] / 2 + x[segment[r + 1]] / 2
                    right_start = r + 1
                    for c in range(n_classes):
                        scratch[0, c] = scratch[5, c]
        # the right side summed value by value, as the value table's rows are
        # (total - left would leave rounding residue, even below zero)
        if threshold == threshold:
            n_touched = 0
            for r in range(right_start, n_known):
                i = segment[r]
                label = y_codes[i]
                if scratch[3, label] == 0.0:
                    touched[n_touched] = label
                    n_touched += 1
                scratch[3, label] += weights[i]
                if r < n_known - 1 and x[segment[r + 1]] == x[i]:
                    continue
                for t in range(n_touched):
                    scratch[1, touched[t]] += scratch[3, touched[t]]
                    scratch[3, touched[t]] = 0.0
                n_touched = 0
        if threshold != threshold:
            continue
        out[j, THRESHOLD] = threshold
        out[j, RAW] = node_impurity(scratch[4], search_criterion) - best
        for r in range(n_known, end):
            i = segment[r]
            scratch[2, y_codes[i]] += weights[i]
        # rows 3-4: the children with the missing values on one side
        nan_child = -1
        if n_known < end:
            best_value = np.inf
            for slot in range(2):
                for k in range(2):
                    for c in range(n_classes):
                        extra = scratch[2, c] if k == slot else 0.0
                        scratch[3 + k, c] = scratch[k, c] + extra
                value = _children_impurity(scratch, node_criterion, 3)
                if value < best_value:
                    best_value = value
                    nan_child = slot
        out[j, NAN_CHILD] = nan_child
        for k in range(2):
            for c in range(n_classes):
                extra = scratch[2, c] if k == nan_child else 0.0
                scratch[3 + k, c] = scratch[k, c] + extra
                out[j, CHILDREN + k * n_classes + c] = scratch[3 + k, c]
        if score_criterion >= 0:
            out[j, SCORE] = parent_impurity - _children_impurity(
                scratch, score_criterion, 3
            )


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
        for k in range(n_children):
            position[k] = offsets[k]
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
