# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Minimal cost-complexity pruning against scikit-learn's and a brute force."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from partikit.tree import PartitionTreeClassifier
from partikit.tree._pruning import (
    ccp_pruning_path,
    collapse_same_prediction,
    cut_subtrees,
    prune_tree,
)
from partikit.tree._structure import LEAF, NUMERIC, Tree

#: The settings under which a partition tree grows scikit-learn's splits.
SKLEARN_LIKE = {
    "numeric_split": "gini",
    "split_score": "gini",
    "collapse_same_prediction": False,
}


def _numeric_data(n_features, seed, n_samples=1000):
    X, y = make_classification(
        n_samples=n_samples,
        n_features=n_features,
        n_informative=n_features,
        n_redundant=0,
        n_classes=2 if n_features == 1 else 3,
        n_clusters_per_class=1,
        flip_y=0.1,
        random_state=seed,
    )
    # scikit-learn's trees see float32: give both trees the same values
    return X.astype(np.float32).astype(np.float64), y


def _assert_same_tree(tree, sk_tree):
    """Node by node: the same shape, splits, class counts and impurities."""
    assert tree.n_nodes == sk_tree.node_count
    sk_weight = sk_tree.weighted_n_node_samples
    assert_allclose(tree.value, sk_tree.value[:, 0, :] * sk_weight[:, None])
    assert_allclose(tree.impurity, sk_tree.impurity, atol=1e-12)
    sk_leaf = sk_tree.children_left == -1
    assert_array_equal(tree.kind == LEAF, sk_leaf)
    internal = np.flatnonzero(~sk_leaf)
    assert_array_equal(tree.feature[internal], sk_tree.feature[internal])
    assert_allclose(
        tree.thresholds[tree.threshold_start[internal]], sk_tree.threshold[internal]
    )
    first, second = (tree.children[tree.children_start[internal] + k] for k in (0, 1))
    assert_array_equal(first, sk_tree.children_left[internal])
    assert_array_equal(second, sk_tree.children_right[internal])


@pytest.mark.parametrize(
    "n_features, max_depth, seed",
    [(1, None, 0), (5, 3, 1), (8, 4, 0), (8, 4, 1), (8, 4, 2)],
)
def test_pruning_path_and_pruned_trees_equal_scikit_learn(n_features, max_depth, seed):
    """Check, where both trees grow the same splits (one column grown fully, or
    several to a depth where no two splits tie), that the path equals
    scikit-learn's to 1e-12 and that each alpha prunes to the same tree."""
    X, y = _numeric_data(n_features, seed)
    ours = PartitionTreeClassifier(max_depth=max_depth, **SKLEARN_LIKE).fit(X, y)
    theirs = DecisionTreeClassifier(max_depth=max_depth, random_state=0).fit(X, y)
    _assert_same_tree(ours.tree_, theirs.tree_)

    path = ours.cost_complexity_pruning_path(X, y)
    expected = theirs.cost_complexity_pruning_path(X, y)
    assert len(path.ccp_alphas) > 3
    assert_allclose(path.ccp_alphas, expected.ccp_alphas, rtol=0, atol=1e-12)
    assert_allclose(path.impurities, expected.impurities, rtol=0, atol=1e-12)

    # between consecutive alphas of the path (an alpha on the path is compared
    # with the tree's own alphas, which differ from scikit-learn's in the last
    # bits), and past its end
    alphas = np.unique(expected.ccp_alphas)
    for alpha in [*((alphas[:-1] + alphas[1:]) / 2)[::3], alphas[-1] * 2]:
        pruned = PartitionTreeClassifier(
            max_depth=max_depth, ccp_alpha=alpha, **SKLEARN_LIKE
        ).fit(X, y)
        sk_pruned = DecisionTreeClassifier(
            max_depth=max_depth, ccp_alpha=alpha, random_state=0
        ).fit(X, y)
        assert pruned.get_n_leaves() == sk_pruned.get_n_leaves()
        assert_array_equal(pruned.predict(X), sk_pruned.predict(X))
        assert_allclose(pruned.predict_proba(X), sk_pruned.predict_proba(X))


def _tree_from_sklearn(sk_tree):
    """scikit-learn's fitted tree as a partition Tree (thresholds, binary)."""
    n = sk_tree.node_count
    leaf = sk_tree.children_left == -1
    n_children = np.where(leaf, 0, 2)
    children_start = np.cumsum(n_children) - n_children
    internal = np.flatnonzero(~leaf)
    children = np.column_stack(
        [sk_tree.children_left[internal], sk_tree.children_right[internal]]
    ).ravel()
    parent = np.full(n, -1)
    parent[sk_tree.children_left[internal]] = internal
    parent[sk_tree.children_right[internal]] = internal
    depth = np.zeros(n, dtype=np.intp)
    for node in range(1, n):  # scikit-learn numbers parents first
        depth[node] = depth[parent[node]] + 1
    minus_one = np.full(n, -1)
    threshold_start = np.where(leaf, -1, np.cumsum(~leaf) - 1)
    return Tree(
        kind=np.where(leaf, LEAF, NUMERIC),
        feature=np.where(leaf, -1, sk_tree.feature),
        depth=depth,
        parent=parent,
        n_children=n_children,
        children_start=children_start,
        children=children,
        map_start=minus_one,
        category_child=np.zeros(0, dtype=np.intp),
        threshold_start=threshold_start,
        thresholds=sk_tree.threshold[internal],
        projection_start=minus_one,
        projections=np.zeros(0),
        nan_child=minus_one,
        default_child=np.where(leaf, -1, 0),
        value=sk_tree.value[:, 0, :] * sk_tree.weighted_n_node_samples[:, None],
        weighted_n_node_samples=sk_tree.weighted_n_node_samples,
        impurity=sk_tree.impurity,
        split_score=np.full(n, np.nan),
        pooled=np.zeros(n, dtype=bool),
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pruning_of_scikit_learns_own_grown_tree(seed):
    """Check the pruning of scikit-learn's fully grown trees (many tied links,
    such as every two-sample node split into two pure leaves) against its own
    path and pruned trees, exactly."""
    X, y = make_classification(
        n_samples=800, n_features=6, n_informative=4, n_classes=3, random_state=seed
    )
    weights = np.random.RandomState(seed).randint(1, 4, len(y)).astype(float)
    grown = DecisionTreeClassifier(random_state=seed).fit(X, y, weights)
    tree = _tree_from_sklearn(grown.tree_)
    path = ccp_pruning_path(tree)
    expected = grown.cost_complexity_pruning_path(X, y, weights)
    assert_allclose(path["ccp_alphas"], expected.ccp_alphas, rtol=0, atol=1e-12)
    assert_allclose(path["impurities"], expected.impurities, rtol=0, atol=1e-12)
    alphas = np.unique(expected.ccp_alphas)
    for alpha in ((alphas[:-1] + alphas[1:]) / 2)[::4]:
        pruned = prune_tree(tree, alpha)
        sk_pruned = DecisionTreeClassifier(random_state=seed, ccp_alpha=alpha).fit(
            X, y, weights
        )
        assert pruned.n_leaves == sk_pruned.get_n_leaves()
        assert pruned.n_nodes == sk_pruned.tree_.node_count
        assert_allclose(
            np.sort(pruned.impurity[pruned.kind == LEAF]),
            np.sort(sk_pruned.tree_.impurity[sk_pruned.tree_.children_left == -1]),
        )


def _brute_force_path(tree):
    """Weakest-link pruning recomputed from scratch at every step (slow)."""
    weight = tree.value.sum(axis=1)
    r_node = weight * tree.impurity / weight[0]
    is_leaf = tree.kind == LEAF

    def branch(node):  # R(T_t) and |leaves(T_t)| of the current tree
        if is_leaf[node]:
            return r_node[node], 1
        r, leaves = 0.0, 0
        for child in tree.node_children(node):
            child_r, child_leaves = branch(child)
            r, leaves = r + child_r, leaves + child_leaves
        return r, leaves

    def in_tree(node):
        while tree.parent[node] >= 0:
            node = tree.parent[node]
            if is_leaf[node]:
                return False
        return True

    alphas, impurities, steps = [0.0], [branch(0)[0]], []
    while not is_leaf[0]:
        best, best_alpha = None, np.inf
        for node in range(tree.n_nodes):
            if is_leaf[node] or not in_tree(node):
                continue
            r, leaves = branch(node)
            alpha = (r_node[node] - r) / (leaves - 1)
            if alpha < best_alpha:
                best, best_alpha = node, alpha
        is_leaf[best] = True
        steps.append(best)
        alphas.append(best_alpha)
        impurities.append(branch(0)[0])
    return np.array(alphas), np.array(impurities), steps


def _multiway_data(seed, n_samples=6000):
    """Four columns of 12 categories, the class a noisy sum of hidden groups of
    three of them: Khiops splits them in three or four groups, node after node."""
    rng = np.random.RandomState(seed)
    codes = rng.randint(0, 12, size=(n_samples, 4))
    groups = rng.randint(0, 4, size=(4, 12))
    signal = sum(groups[j][codes[:, j]] for j in range(3)) % 3
    y = np.where(rng.rand(n_samples) < 0.25, rng.randint(0, 3, n_samples), signal)
    names = np.array([f"v{c}" for c in range(12)], dtype=object)
    X = pd.DataFrame({f"c{j}": names[codes[:, j]] for j in range(4)})
    return X, y


@pytest.mark.parametrize("seed", [0, 1])
def test_multiway_pruning_equals_brute_force(seed):
    """Check the path of a tree of multiway Khiops splits, and the trees pruned
    along it, against a brute-force weakest-link pruning."""
    X, y = _multiway_data(seed)
    params = {"categorical_split": "khiops", "collapse_same_prediction": False}
    grown = PartitionTreeClassifier(**params).fit(X, y)
    tree = grown.tree_
    assert tree.n_children.max() > 2
    alphas, impurities, steps = _brute_force_path(tree)
    assert len(steps) > 3
    path = grown.cost_complexity_pruning_path(X, y)
    assert_allclose(path.ccp_alphas, alphas, rtol=0, atol=1e-12)
    assert_allclose(path.impurities, impurities, rtol=0, atol=1e-12)
    paths = tree.paths(
        *grown._encode([X[c] for c in X], fit=False), stop_on_unknown=False
    )
    # between consecutive alphas (one on the path compares the brute force's
    # last bits with the kernel's), and past the last one
    between = np.append((alphas[1:-1] + alphas[2:]) / 2, alphas[-1] * 1.5)
    for alpha in between:
        pruned = PartitionTreeClassifier(ccp_alpha=alpha, **params).fit(X, y)
        # the brute force's tree at alpha: a sample stops at the first node on
        # its path that is a leaf or was pruned with an alpha at most alpha
        cut = np.zeros(tree.n_nodes, dtype=bool)
        cut[[s for s, a in zip(steps, alphas[1:], strict=True) if a <= alpha]] = True
        cut |= tree.kind == LEAF
        first = np.argmax(
            np.where(paths >= 0, cut[np.maximum(paths, 0)], False), axis=1
        )
        stop = paths[np.arange(len(paths)), first]
        proba = tree.value[stop] / tree.value[stop].sum(axis=1, keepdims=True)
        assert_allclose(pruned.predict_proba(X), proba)
        reached = [_reached(tree, node, cut) for node in range(tree.n_nodes)]
        assert pruned.get_n_leaves() == np.sum(cut & reached)


def _reached(tree, node, cut):
    while tree.parent[node] >= 0:
        node = tree.parent[node]
        if cut[node]:
            return False
    return True


def test_zero_alpha_prunes_nothing_and_a_large_one_leaves_the_root():
    """Check ccp_alpha=0 is the grown tree and an alpha past the path a leaf."""
    X, y = _numeric_data(4, 0, n_samples=300)
    grown = PartitionTreeClassifier(collapse_same_prediction=False).fit(X, y)
    assert prune_tree(grown.tree_, 0.0) is grown.tree_
    path = grown.cost_complexity_pruning_path(X, y)
    assert np.all(np.diff(path.ccp_alphas) >= -1e-15)
    root = PartitionTreeClassifier(ccp_alpha=path.ccp_alphas[-1] * 1.01).fit(X, y)
    assert root.tree_.n_nodes == 1
    assert_allclose(
        root.predict_proba(X), np.tile(np.bincount(y) / len(y), (len(y), 1))
    )


def test_pruning_then_collapse_is_the_documented_order():
    """Check fit prunes the grown tree, then collapses the result: the same
    predictions as pruning alone, and the collapse counted."""
    X, y = _numeric_data(4, 1, n_samples=600)
    path = PartitionTreeClassifier().cost_complexity_pruning_path(X, y)
    alpha = path.ccp_alphas[len(path.ccp_alphas) // 3]
    pruned = PartitionTreeClassifier(ccp_alpha=alpha, collapse_same_prediction=False)
    both = PartitionTreeClassifier(ccp_alpha=alpha)
    pruned.fit(X, y)
    both.fit(X, y)
    assert_array_equal(both.predict_proba(X), pruned.predict_proba(X))
    assert both.tree_.n_nodes + both.n_nodes_collapsed_ == pruned.tree_.n_nodes
    # the path is the grown tree's, whatever collapse_same_prediction says
    no_collapse = PartitionTreeClassifier(collapse_same_prediction=False)
    assert_array_equal(
        no_collapse.cost_complexity_pruning_path(X, y).ccp_alphas, path.ccp_alphas
    )


@pytest.mark.parametrize("categorical_split", ["maxcut_chi2", "khiops"])
def test_collapse_of_a_fitted_tree_equals_the_builders(categorical_split):
    """Check the collapse on a fitted tree gives the builder's collapsed tree."""
    X, y = _multiway_data(2)
    X["size"] = np.random.RandomState(0).normal(size=len(X)) + (y == 1)
    params = {"categorical_split": categorical_split, "max_depth": 6}
    grown = PartitionTreeClassifier(collapse_same_prediction=False, **params).fit(X, y)
    builder = PartitionTreeClassifier(**params).fit(X, y)
    collapsed, removed = collapse_same_prediction(grown.tree_)
    assert removed == builder.n_nodes_collapsed_ > 0
    for name in ("kind", "feature", "parent", "children", "category_child", "value"):
        assert_array_equal(getattr(collapsed, name), getattr(builder.tree_, name))
    assert_array_equal(collapsed.thresholds, builder.tree_.thresholds)


def test_cut_subtrees_keeps_the_rules_of_the_nodes_kept():
    """Check a cut tree routes like the grown tree down to its new leaves, on a
    tree with categorical, numeric and missing-value rules."""
    rng = np.random.RandomState(0)
    X, y = _multiway_data(3)
    X["size"] = np.where(rng.rand(len(X)) < 0.1, np.nan, rng.normal(size=len(X)))
    X["size"] += y == 2
    tree = PartitionTreeClassifier(max_depth=5, collapse_same_prediction=False).fit(
        X, y
    )
    grown = tree.tree_
    cut_nodes = (grown.depth == 2) & (grown.kind != LEAF)
    cut = cut_subtrees(grown, cut_nodes)
    assert cut.max_depth == 2
    assert cut.n_leaves == np.sum((grown.depth < 2) & (grown.kind == LEAF)) + np.sum(
        grown.depth == 2
    )
    codes, numeric = tree._encode([X[c] for c in X], fit=False)
    before = grown.paths(codes, numeric, stop_on_unknown=False)[:, :3]
    after = cut.paths(codes, numeric, stop_on_unknown=False)
    assert_array_equal(grown.value[before[:, -1]], cut.value[after[:, -1]])
    assert_array_equal(
        cut.parent[cut.children], np.repeat(np.arange(cut.n_nodes), cut.n_children)
    )


def test_ccp_alpha_must_be_non_negative():
    """Check a negative ccp_alpha is refused by parameter validation."""
    X, y = _numeric_data(2, 0, n_samples=50)
    with pytest.raises(ValueError, match="ccp_alpha"):
        PartitionTreeClassifier(ccp_alpha=-0.1).fit(X, y)


def test_pruning_path_on_a_pandas_frame_with_weights():
    """Check the path honours sample weights as frequency weights."""
    X, y = _numeric_data(3, 4, n_samples=200)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    weights = np.random.RandomState(0).randint(0, 3, len(y))
    repeated = frame.loc[frame.index.repeat(weights)]
    tree = PartitionTreeClassifier()
    weighted = tree.cost_complexity_pruning_path(frame, y, sample_weight=weights)
    expanded = tree.cost_complexity_pruning_path(repeated, np.repeat(y, weights))
    assert_allclose(weighted.ccp_alphas, expanded.ccp_alphas, atol=1e-12)
    assert_allclose(weighted.impurities, expanded.impurities, atol=1e-12)
