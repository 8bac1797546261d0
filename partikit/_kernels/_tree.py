# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the partition tree: node tables (stage 1 at a node) and traversal.

The tree is stored as flat arrays (see ``partikit.tree._structure``); a node's
children, category map, thresholds and projection are slices of shared arrays,
found through per-node start offsets.
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT

#: Node kinds of the flat tree.
LEAF = 0
CATEGORICAL = 1
NUMERIC = 2
PROJECTION = 3


@njit(**NJIT)
def node_tables(codes, rows, y_codes, weights, features, offsets, n_classes):
    """Contingency tables of several categorical columns over the rows of a node.

    Parameters
    ----------
    codes : ndarray of int32 of shape (n_samples, n_columns)
        Category index of every row in every categorical column.
    rows : ndarray of intp of shape (n_rows,)
        The node's rows.
    y_codes : ndarray of intp of shape (n_samples,)
    weights : ndarray of float64 of shape (n_samples,)
    features : ndarray of intp of shape (n_features,)
        Columns of ``codes`` to tabulate.
    offsets : ndarray of intp of shape (n_features + 1,)
        Column ``features[f]`` occupies rows ``offsets[f]:offsets[f + 1]`` of the
        output (one per category).
    n_classes : int

    Returns
    -------
    tables : ndarray of float64 of shape (offsets[-1], n_classes)
        The tables stacked: weighted class counts of every category.
    """
    tables = np.zeros((offsets[-1], n_classes), dtype=np.float64)
    for r in range(rows.shape[0]):
        i = rows[r]
        label = y_codes[i]
        w = weights[i]
        for f in range(features.shape[0]):
            tables[offsets[f] + codes[i, features[f]], label] += w
    return tables


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
