# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The fitted tree as a struct of flat numpy arrays (picklable, no Python objects).

Node ``t`` has ``n_children[t]`` children, ``children[children_start[t] + k]`` for
slot ``k``. Its rule depends on ``kind[t]``:

* ``LEAF`` (0): no rule.
* ``CATEGORICAL`` (1): categorical column ``feature[t]``; category ``c`` goes to
  slot ``category_child[map_start[t] + c]`` (-1: category absent at the node in
  fit).
* ``NUMERIC`` (2): numeric column ``feature[t]``; ``n_children[t] - 1`` increasing
  thresholds ``thresholds[threshold_start[t]:]``; a value goes to the number of
  thresholds it exceeds (``x <= t_0`` is slot 0).
* ``PROJECTION`` (3): as ``NUMERIC`` on ``x @ v``, ``v`` the node's vector
  ``projections[projection_start[t]:][:n_numeric]`` over the numeric columns.

``nan_child[t]`` is the slot of a missing numeric value (-1: none seen in fit) and
``default_child[t]`` the slot of the child with the most training weight, where
values the rule does not know go unless the tree stops there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from partikit._kernels._tree import CATEGORICAL, LEAF, NUMERIC, PROJECTION, traverse

__all__ = [
    "CATEGORICAL",
    "LEAF",
    "NUMERIC",
    "PROJECTION",
    "Tree",
    "TreeBuilder",
    "node_means",
]


@dataclass
class Tree:
    """A fitted partition tree (see the module docstring for the layout).

    Attributes
    ----------
    kind, feature, depth, n_children, children_start, map_start, threshold_start,
    projection_start, nan_child, default_child : ndarray of intp of shape (n_nodes,)
    parent : ndarray of intp of shape (n_nodes,)
        -1 for the root.
    children, category_child : ndarray of intp
    thresholds, projections : ndarray of float64
    value : ndarray of float64 of shape (n_nodes, n_classes) or (n_nodes, 3)
        Weighted class counts of the training rows reaching each node; for a
        regressor, the moments of their target: weight, weighted sum and
        weighted sum of squares (the mean is ``value[:, 1] / value[:, 0]``).
    weighted_n_node_samples : ndarray of float64 of shape (n_nodes,)
        Training weight reaching each node.
    impurity : ndarray of float64 of shape (n_nodes,)
        Impurity of each node (entropy for ``split_score="entropy"``, Gini for
        the other classifiers, the weighted variance for a regressor).
    split_score : ndarray of float64 of shape (n_nodes,)
        The score of the split made at the node, on the scale of the tree's
        ``split_score`` (NaN at a leaf).
    pooled : ndarray of bool of shape (n_nodes,)
        True where the categorical split was searched over pooled categories:
        the node had more categories than the method searches exactly (SLIQ-ext
        and Twoing; the pooling rule of the user guide, "Many categories").
    """

    kind: np.ndarray
    feature: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    n_children: np.ndarray
    children_start: np.ndarray
    children: np.ndarray
    map_start: np.ndarray
    category_child: np.ndarray
    threshold_start: np.ndarray
    thresholds: np.ndarray
    projection_start: np.ndarray
    projections: np.ndarray
    nan_child: np.ndarray
    default_child: np.ndarray
    value: np.ndarray
    weighted_n_node_samples: np.ndarray
    impurity: np.ndarray
    split_score: np.ndarray
    pooled: np.ndarray

    @property
    def n_nodes(self):
        return len(self.kind)

    @property
    def max_depth(self):
        return int(self.depth.max())

    @property
    def n_leaves(self):
        return int(np.sum(self.kind == LEAF))

    def node_children(self, node):
        """Children of ``node``, by slot."""
        start = self.children_start[node]
        return self.children[start : start + self.n_children[node]]

    def paths(self, codes, numeric, *, stop_on_unknown, whole=True):
        """Nodes visited by every row, root first, padded with -1; with
        ``whole=False`` only the node where each row stops (one column)."""
        width = self.max_depth + 1 if whole else 1
        paths = np.full((codes.shape[0], width), -1, dtype=np.intp)
        traverse(
            codes,
            numeric,
            self.kind,
            self.feature,
            self.children_start,
            self.children,
            self.n_children,
            self.map_start,
            self.category_child,
            self.threshold_start,
            self.thresholds,
            self.projection_start,
            self.projections,
            self.nan_child,
            self.default_child,
            stop_on_unknown,
            paths,
        )
        return paths


class TreeBuilder:
    """Accumulates nodes in creation order, then freezes them into a :class:`Tree`."""

    def __init__(self, n_statistics, weights_of):
        """``n_statistics``: the width of a node's statistics (class counts or
        moments); ``weights_of``: a statistics row -> its weight."""
        self.n_statistics = n_statistics
        self.weights_of = weights_of
        self.nodes = []  # per node: dict of the scalar fields and its rule payload

    def add_node(self, value, impurity, depth, parent):
        self.nodes.append(
            {
                "kind": LEAF,
                "feature": -1,
                "depth": depth,
                "parent": parent,
                "value": value,
                "impurity": impurity,
                "split_score": np.nan,
                "pooled": False,
                "children": [],
                "category_child": None,
                "thresholds": None,
                "projection": None,
                "nan_child": -1,
                "default_child": -1,
            }
        )
        return len(self.nodes) - 1

    def set_split(self, node, split, children):
        entry = self.nodes[node]
        entry.update(
            kind=split.kind,
            feature=split.feature,
            split_score=split.score,
            pooled=split.pooled,
            children=list(children),
            category_child=split.category_child,
            thresholds=split.thresholds,
            projection=split.projection,
            nan_child=split.nan_child,
            default_child=split.default_child,
        )

    def collapse_same_prediction(self):
        """Turn into leaves the subtrees whose leaves all predict one class.

        Nodes are visited children first; a node whose children are all leaves
        predicting the same class (argmax of their counts) becomes a leaf.
        Returns the number of nodes removed.
        """
        removed = 0
        # children are created after their parent: reverse order is children first
        for node in range(len(self.nodes) - 1, -1, -1):
            entry = self.nodes[node]
            if entry["kind"] == LEAF:
                continue
            children = [self.nodes[c] for c in entry["children"]]
            if any(c["kind"] != LEAF for c in children):
                continue
            predictions = {int(np.argmax(c["value"])) for c in children}
            if len(predictions) == 1:
                removed += len(children)
                self._make_leaf(entry)
        return removed

    @staticmethod
    def _make_leaf(entry):
        entry.update(
            kind=LEAF,
            feature=-1,
            split_score=np.nan,
            pooled=False,
            children=[],
            category_child=None,
            thresholds=None,
            projection=None,
            nan_child=-1,
            default_child=-1,
        )

    def build(self):
        """The reachable nodes renumbered in depth-first preorder, as a Tree."""
        order = []
        stack = [0]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(reversed(self.nodes[node]["children"]))
        new_id = {old: new for new, old in enumerate(order)}
        n = len(order)
        arrays = {
            name: np.full(n, -1, dtype=np.intp)
            for name in (
                "kind", "feature", "depth", "parent", "n_children",
                "children_start", "map_start", "threshold_start",
                "projection_start", "nan_child", "default_child",
            )
        }  # fmt: skip
        value = np.zeros((n, self.n_statistics))
        impurity = np.zeros(n)
        split_score = np.full(n, np.nan)
        pooled = np.zeros(n, dtype=bool)
        children, category_child, thresholds, projections = [], [], [], []
        sizes = {"children": 0, "category_child": 0, "thresholds": 0, "proj": 0}
        for new, old in enumerate(order):
            entry = self.nodes[old]
            for name in ("kind", "feature", "depth", "nan_child", "default_child"):
                arrays[name][new] = entry[name]
            arrays["parent"][new] = new_id.get(entry["parent"], -1)
            value[new] = entry["value"]
            impurity[new] = entry["impurity"]
            split_score[new] = entry["split_score"]
            pooled[new] = entry["pooled"]
            kids = [new_id[c] for c in entry["children"]]
            arrays["n_children"][new] = len(kids)
            arrays["children_start"][new] = sizes["children"]
            children.extend(kids)
            sizes["children"] += len(kids)
            if entry["category_child"] is not None:
                arrays["map_start"][new] = sizes["category_child"]
                category_child.append(entry["category_child"])
                sizes["category_child"] += len(entry["category_child"])
            if entry["thresholds"] is not None:
                arrays["threshold_start"][new] = sizes["thresholds"]
                thresholds.append(entry["thresholds"])
                sizes["thresholds"] += len(entry["thresholds"])
            if entry["projection"] is not None:
                arrays["projection_start"][new] = sizes["proj"]
                projections.append(entry["projection"])
                sizes["proj"] += len(entry["projection"])
        arrays["parent"][0] = -1

        def concat(parts, dtype):
            # (no second copy: a deep tree on a column of a million categories
            # holds a map of a million entries per categorical split)
            if not parts:
                return np.zeros(0, dtype)
            return np.concatenate(parts).astype(dtype, copy=False)

        return Tree(
            **arrays,
            children=np.asarray(children, dtype=np.intp),
            category_child=concat(category_child, np.intp),
            thresholds=concat(thresholds, np.float64),
            projections=concat(projections, np.float64),
            value=value,
            weighted_n_node_samples=np.asarray(self.weights_of(value), np.float64),
            impurity=impurity,
            split_score=split_score,
            pooled=pooled,
        )


def node_means(tree):
    """The mean target of every node of a regression tree (its moments' sum
    over their weight)."""
    return tree.value[:, 1] / tree.value[:, 0]
