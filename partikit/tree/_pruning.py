# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Post-growth simplifications of a fitted :class:`~partikit.tree._structure.Tree`.

Pure functions, ``Tree -> Tree``: minimal cost-complexity pruning (Breiman et al.
1984, chapter 3) with scikit-learn's semantics, generalised to multiway nodes,
and the collapse of subtrees whose leaves all predict the same class. Both turn
some internal nodes into leaves; :func:`cut_subtrees` then drops the nodes below
them and renumbers the rest.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from partikit._kernels._pruning import weakest_links
from partikit.tree._structure import LEAF, Tree

#: Tree fields that hold node indices or index into a packed array; every other
#: field of shape (n_nodes, ...) is a per-node payload, kept as is.
_LAYOUT_FIELDS = frozenset(
    {
        "parent",
        "n_children",
        "children_start",
        "children",
        "map_start",
        "category_child",
        "threshold_start",
        "thresholds",
        "projection_start",
        "projections",
    }
)
#: Packed arrays and the per-node start of each node's segment in them.
_SEGMENTS = (
    ("map_start", "category_child"),
    ("threshold_start", "thresholds"),
    ("projection_start", "projections"),
)
#: What a node's rule fields become when it is turned into a leaf (as grown).
_LEAF_FIELDS = {
    "kind": LEAF,
    "feature": -1,
    "nan_child": -1,
    "default_child": -1,
    "split_score": np.nan,
    "pooled": False,
}


def _weakest_links(tree: Tree):
    weight = tree.weighted_n_node_samples
    # R(t) of Breiman et al.: the node's share of the training weight times its
    # impurity, so that the leaves' R sum to the tree's weighted impurity
    r_node = np.ascontiguousarray(weight * tree.impurity / weight[0], dtype=np.float64)
    return weakest_links(
        np.ascontiguousarray(tree.parent, dtype=np.intp),
        np.ascontiguousarray(tree.kind == LEAF),
        np.ascontiguousarray(tree.children_start, dtype=np.intp),
        np.ascontiguousarray(tree.n_children, dtype=np.intp),
        np.ascontiguousarray(tree.children, dtype=np.intp),
        r_node,
    )


def ccp_pruning_path(tree: Tree) -> dict:
    """The minimal cost-complexity pruning path of a grown tree.

    Parameters
    ----------
    tree : Tree
        The tree as grown.

    Returns
    -------
    path : dict
        ``ccp_alphas``: 0, then the effective alpha of each pruning step
        (non-decreasing); ``impurities``: the sum over the leaves of ``N_t / N *
        impurity(t)`` of the tree pruned with each alpha (the last one is the
        root alone).
    """
    _, alphas, impurities = _weakest_links(tree)
    return {"ccp_alphas": alphas, "impurities": impurities}


def prune_tree(tree: Tree, ccp_alpha: float) -> Tree:
    """The subtree of minimal cost-complexity for ``ccp_alpha``.

    As scikit-learn's ``ccp_alpha``: weakest links are pruned while their
    effective alpha is at most ``ccp_alpha``; ``ccp_alpha=0`` prunes nothing.

    Parameters
    ----------
    tree : Tree
        The tree as grown.
    ccp_alpha : float
        Non-negative complexity parameter.

    Returns
    -------
    pruned : Tree
        A new tree (``tree`` is not changed).
    """
    if ccp_alpha == 0.0:
        return tree
    pruned, alphas, _ = _weakest_links(tree)
    # steps are in pruning order; the first whose alpha exceeds ccp_alpha stops
    # the pruning (scikit-learn's rule), even if a later one is smaller
    exceeds = np.flatnonzero(alphas[1:] > ccp_alpha)
    n_steps = exceeds[0] if len(exceeds) else len(pruned)
    new_leaves = np.zeros(tree.n_nodes, dtype=bool)
    new_leaves[pruned[:n_steps]] = True
    return cut_subtrees(tree, new_leaves)


def collapse_same_prediction(tree: Tree) -> tuple[Tree, int]:
    """Turn into leaves the subtrees whose leaves all predict one class.

    Bottom-up, a node whose children are all leaves predicting the same class
    (argmax of their counts, ties to the first class) becomes a leaf; the same
    rule as the builder's collapse, on a fitted tree.

    Parameters
    ----------
    tree : Tree

    Returns
    -------
    collapsed : Tree
    n_removed : int
        Number of nodes removed.
    """
    is_leaf = tree.kind == LEAF
    prediction = np.argmax(tree.value, axis=1)
    new_leaves = np.zeros(tree.n_nodes, dtype=bool)
    for depth in range(tree.max_depth - 1, -1, -1):
        nodes = np.flatnonzero((tree.depth == depth) & ~is_leaf)
        if not len(nodes):
            continue
        kids = tree.children[
            _segments(tree.children_start[nodes], tree.n_children[nodes])
        ]
        starts = np.concatenate([[0], np.cumsum(tree.n_children[nodes])[:-1]])
        all_leaves = np.logical_and.reduceat(is_leaf[kids], starts)
        one_class = np.maximum.reduceat(
            prediction[kids], starts
        ) == np.minimum.reduceat(prediction[kids], starts)
        collapsed = nodes[all_leaves & one_class]
        is_leaf[collapsed] = True
        new_leaves[collapsed] = True
    if not new_leaves.any():
        return tree, 0
    collapsed = cut_subtrees(tree, new_leaves)
    return collapsed, tree.n_nodes - collapsed.n_nodes


def _segments(starts, lengths):
    """Indices ``starts[i] + arange(lengths[i])``, concatenated."""
    lengths = np.asarray(lengths, dtype=np.intp)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.intp)
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(np.asarray(starts, dtype=np.intp), lengths) + (
        np.arange(total, dtype=np.intp) - offsets
    )


def _segment_lengths(starts, size):
    """Length of each node's segment of a packed array, from where they start.

    Segments are contiguous and non-empty, so each runs to the next start (or
    the end); nodes without one (start -1) get 0.
    """
    lengths = np.zeros(len(starts), dtype=np.intp)
    has = np.flatnonzero(starts >= 0)
    if len(has):
        order = has[np.argsort(starts[has], kind="stable")]
        ends = np.append(starts[order][1:], size)
        lengths[order] = ends - starts[order]
    return lengths


def _exclusive_cumsum(lengths):
    return np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)


def cut_subtrees(tree: Tree, new_leaves) -> Tree:
    """The tree where the nodes of ``new_leaves`` are leaves, the nodes below dropped.

    Kept nodes keep their relative order (a preorder stays a preorder) and
    every payload (class counts, impurity, depth); the rule of a new leaf is
    cleared as a grown leaf's is.

    Parameters
    ----------
    tree : Tree
    new_leaves : ndarray of bool of shape (n_nodes,)
        Nodes to turn into leaves.

    Returns
    -------
    cut : Tree
        A new tree (``tree`` is not changed).
    """
    n_nodes = tree.n_nodes
    new_leaves = np.asarray(new_leaves, dtype=bool) & (tree.kind != LEAF)
    # a node is dropped when its parent is dropped or made a leaf; depth by
    # depth, so that no order of the nodes is assumed
    dropped = np.zeros(n_nodes, dtype=bool)
    for depth in range(1, tree.max_depth + 1):
        nodes = np.flatnonzero(tree.depth == depth)
        parents = tree.parent[nodes]
        dropped[nodes] = dropped[parents] | new_leaves[parents]
    kept = np.flatnonzero(~dropped)
    new_id = np.full(n_nodes, -1, dtype=np.intp)
    new_id[kept] = np.arange(len(kept), dtype=np.intp)
    leaf_now = new_leaves[kept]

    fields = {}
    for field in dataclasses.fields(tree):
        if field.name in _LAYOUT_FIELDS:
            continue
        values = getattr(tree, field.name)[kept].copy()
        if field.name in _LEAF_FIELDS:
            values[leaf_now] = _LEAF_FIELDS[field.name]
        fields[field.name] = values

    parent = tree.parent[kept]
    fields["parent"] = np.where(parent >= 0, new_id[np.maximum(parent, 0)], -1)
    n_children = np.where(leaf_now, 0, tree.n_children[kept]).astype(np.intp)
    fields["n_children"] = n_children
    fields["children_start"] = np.cumsum(n_children) - n_children
    fields["children"] = new_id[
        tree.children[_segments(tree.children_start[kept], n_children)]
    ]
    for start_name, packed_name in _SEGMENTS:
        starts = getattr(tree, start_name)
        packed = getattr(tree, packed_name)
        lengths = _segment_lengths(starts, len(packed))[kept]
        lengths[leaf_now] = 0
        new_starts = np.where(lengths > 0, _exclusive_cumsum(lengths), -1)
        fields[start_name] = new_starts.astype(np.intp)
        fields[packed_name] = packed[_segments(starts[kept], lengths)]
    return Tree(**fields)
