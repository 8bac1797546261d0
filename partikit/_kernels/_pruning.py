# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Minimal cost-complexity pruning: the weakest-link sequence of a grown tree."""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT


@njit(**NJIT)
def _link_alpha(r_node, r_branch, n_leaves, node):
    # a node with one leaf below it (a chain of single children) costs nothing
    # to prune; it never occurs in a grown tree, but must not divide by zero
    if n_leaves[node] <= 1:
        return 0.0
    return (r_node[node] - r_branch[node]) / (n_leaves[node] - 1)


@njit(**NJIT)
def _before(alpha, node, other_alpha, other_node):
    # the least alpha first; ties to the smaller node index, scikit-learn's scan
    return alpha < other_alpha or (alpha == other_alpha and node < other_node)


@njit(**NJIT)
def _heap_push(alphas, nodes, stamps, size, alpha, node, stamp):
    """Push onto the binary heap held in the first ``size`` entries of the
    arrays (doubled when full); returns the arrays, possibly new."""
    if size == alphas.shape[0]:
        alphas = np.concatenate((alphas, np.empty_like(alphas)))
        nodes = np.concatenate((nodes, np.empty_like(nodes)))
        stamps = np.concatenate((stamps, np.empty_like(stamps)))
    child = size
    while child > 0:
        parent = (child - 1) // 2
        if not _before(alpha, node, alphas[parent], nodes[parent]):
            break
        alphas[child] = alphas[parent]
        nodes[child] = nodes[parent]
        stamps[child] = stamps[parent]
        child = parent
    alphas[child] = alpha
    nodes[child] = node
    stamps[child] = stamp
    return alphas, nodes, stamps


@njit(**NJIT)
def _heap_pop(alphas, nodes, stamps, size):
    """Remove the first entry of the heap of ``size`` entries and return it."""
    alpha, node, stamp = alphas[0], nodes[0], stamps[0]
    size -= 1
    last_alpha, last_node, last_stamp = alphas[size], nodes[size], stamps[size]
    parent = 0
    while True:
        child = 2 * parent + 1
        if child >= size:
            break
        if child + 1 < size and _before(
            alphas[child + 1], nodes[child + 1], alphas[child], nodes[child]
        ):
            child += 1
        if not _before(alphas[child], nodes[child], last_alpha, last_node):
            break
        alphas[parent] = alphas[child]
        nodes[parent] = nodes[child]
        stamps[parent] = stamps[child]
        parent = child
    alphas[parent] = last_alpha
    nodes[parent] = last_node
    stamps[parent] = last_stamp
    return alpha, node, stamp


@njit(**NJIT)
def weakest_links(parent, is_leaf, children_start, n_children, children, r_node):
    """The whole sequence of minimal cost-complexity pruning (Breiman et al., 3.3).

    At each step the internal node ``t`` of least effective alpha
    ``(R(t) - R(T_t)) / (|leaves(T_t)| - 1)`` becomes a leaf (ties to the
    smallest node index), until the root is a leaf. ``R(T_t)`` and the leaf
    counts are summed in scikit-learn's order (leaves in index order, each added
    to its ancestors; then each pruning's change added to the ancestors), so
    that the same tree gives the same floating-point path. A heap of the
    candidates' alphas, where a pruning pushes the changed alphas of its
    ancestors and stale entries are skipped, keeps the cost at
    ``O(n_nodes * depth * log n_nodes)`` instead of a scan of every node per
    step.

    Parameters
    ----------
    parent : ndarray of intp of shape (n_nodes,)
        Parent of each node, -1 for the root (node 0).
    is_leaf : ndarray of bool of shape (n_nodes,)
    children_start, n_children : ndarray of intp of shape (n_nodes,)
    children : ndarray of intp
        Node ``t``'s children are ``children[children_start[t]:][:n_children[t]]``.
    r_node : ndarray of float64 of shape (n_nodes,)
        ``R(t)``: the node's share of the training weight times its impurity.

    Returns
    -------
    pruned : ndarray of intp of shape (n_steps,)
        The node made a leaf at each step.
    alphas : ndarray of float64 of shape (n_steps + 1,)
        0, then the effective alpha of each step.
    impurities : ndarray of float64 of shape (n_steps + 1,)
        ``R`` of the whole tree (sum over its leaves) before the first step and
        after each step.
    """
    n_nodes = parent.shape[0]
    r_branch = np.zeros(n_nodes)
    n_leaves = np.zeros(n_nodes, dtype=np.intp)
    for leaf in range(n_nodes):
        if not is_leaf[leaf]:
            continue
        r_branch[leaf] = r_node[leaf]
        node = parent[leaf]
        while node >= 0:
            r_branch[node] += r_node[leaf]
            n_leaves[node] += 1
            node = parent[node]
    candidate = ~is_leaf
    in_subtree = np.ones(n_nodes, dtype=np.bool_)
    version = np.zeros(n_nodes, dtype=np.intp)
    n_internal = n_nodes - int(is_leaf.sum())
    pruned = np.empty(n_internal, dtype=np.intp)
    alphas = np.zeros(n_internal + 1)
    impurities = np.zeros(n_internal + 1)
    impurities[0] = r_branch[0]
    if n_internal == 0:
        return pruned, alphas, impurities
    heap_alphas = np.empty(2 * n_internal)
    heap_nodes = np.empty(2 * n_internal, dtype=np.intp)
    heap_stamps = np.empty(2 * n_internal, dtype=np.intp)
    size = 0
    for node in range(n_nodes):
        if candidate[node]:
            heap_alphas, heap_nodes, heap_stamps = _heap_push(
                heap_alphas,
                heap_nodes,
                heap_stamps,
                size,
                _link_alpha(r_node, r_branch, n_leaves, node),
                node,
                0,
            )
            size += 1
    stack = np.empty(n_nodes, dtype=np.intp)
    step = 0
    while candidate[0]:
        alpha, best, stamp = _heap_pop(heap_alphas, heap_nodes, heap_stamps, size)
        size -= 1
        # entries of pruned nodes, or of alphas changed since, are stale
        if not candidate[best] or stamp != version[best]:
            continue
        # the branch below the pruned node leaves the subtree
        top = 0
        for k in range(n_children[best]):
            stack[top] = children[children_start[best] + k]
            top += 1
        while top > 0:
            top -= 1
            node = stack[top]
            if not in_subtree[node]:
                continue
            in_subtree[node] = False
            candidate[node] = False
            for k in range(n_children[node]):
                stack[top] = children[children_start[node] + k]
                top += 1
        candidate[best] = False
        n_pruned_leaves = n_leaves[best] - 1
        n_leaves[best] = 0
        r_diff = r_node[best] - r_branch[best]
        r_branch[best] = r_node[best]
        node = parent[best]
        while node >= 0:
            n_leaves[node] -= n_pruned_leaves
            r_branch[node] += r_diff
            version[node] += 1
            heap_alphas, heap_nodes, heap_stamps = _heap_push(
                heap_alphas,
                heap_nodes,
                heap_stamps,
                size,
                _link_alpha(r_node, r_branch, n_leaves, node),
                node,
                version[node],
            )
            size += 1
            node = parent[node]
        pruned[step] = best
        step += 1
        alphas[step] = alpha
        impurities[step] = r_branch[0]
    return pruned[:step], alphas[: step + 1], impurities[: step + 1]
