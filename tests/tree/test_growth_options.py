# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""max_features with random_state, and best-first growth with max_leaf_nodes."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from partikit.datasets import make_grouped_categorical
from partikit.tree import PartitionTreeClassifier

FIELDS = (
    "kind", "feature", "children", "category_child", "thresholds", "nan_child",
    "value",
)  # fmt: skip


def _same_tree(a, b):
    return all(
        np.array_equal(getattr(a.tree_, f), getattr(b.tree_, f), equal_nan=True)
        for f in FIELDS
    )


def _mixed(seed=0, n_samples=500):
    X, y, _ = make_grouped_categorical(
        n_samples=n_samples, n_categories=12, n_groups=3, n_classes=3,
        n_noise_features=2, random_state=seed,
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    X = X.copy()
    for j in range(3):
        X[f"x{j}"] = rng.normal(size=n_samples) + j * (np.asarray(y) == y[0])
    return X, y


@pytest.mark.parametrize("max_features", [None, 6, 1.0])
def test_all_features_is_the_deterministic_tree(max_features):
    """max_features of every feature grows the tree of max_features=None,
    whatever the random state."""
    X, y = _mixed()
    plain = PartitionTreeClassifier().fit(X, y)
    drawn = PartitionTreeClassifier(max_features=max_features, random_state=3)
    assert _same_tree(plain, drawn.fit(X, y))


def test_random_state_makes_trees_reproducible_and_different():
    X, y = _mixed()
    trees = [
        PartitionTreeClassifier(max_features=2, random_state=seed).fit(X, y)
        for seed in (0, 0, 1, 2)
    ]
    assert _same_tree(trees[0], trees[1])
    assert not all(_same_tree(trees[0], other) for other in trees[2:])


def test_a_node_is_split_when_the_drawn_features_cannot_split_it():
    """One informative column among constant ones: every draw of one feature
    that misses it falls back to the others, and the tree is the full one."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=300)
    y = (x > 0.3).astype(int) + (x > 1.0)
    X = pd.DataFrame({"a": np.ones(300), "x": x, "b": np.zeros(300), "c": "k"})
    plain = PartitionTreeClassifier().fit(X, y)
    for seed in range(5):
        drawn = PartitionTreeClassifier(max_features=1, random_state=seed)
        assert _same_tree(plain, drawn.fit(X, y))


def test_max_features_resolution_and_errors():
    X, y = _mixed()  # 6 features
    with pytest.raises(ValueError, match="at most the number of features"):
        PartitionTreeClassifier(max_features=7).fit(X, y)
    for spec, expected in [("sqrt", 2), ("log2", 2), (0.5, 3), (0.01, 1), (4, 4)]:
        tree = PartitionTreeClassifier(max_features=spec).fit(X.iloc[:50], y[:50])
        assert tree._max_features() == expected


@pytest.mark.parametrize("max_leaf_nodes", [2, 5, 17, 40])
def test_best_first_growth_matches_scikit_learn(max_leaf_nodes):
    """On continuous columns both trees grow the same splits: best first with a
    leaf budget, scikit-learn's BestFirstTreeBuilder is matched leaf for leaf."""
    X, y = make_classification(
        n_samples=600, n_features=5, n_informative=4, n_redundant=0, random_state=0
    )
    theirs = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes, random_state=0)
    theirs.fit(X, y)
    ours = PartitionTreeClassifier(
        max_leaf_nodes=max_leaf_nodes, collapse_same_prediction=False
    ).fit(X, y)
    assert ours.get_n_leaves() == theirs.get_n_leaves()
    assert_array_equal(ours.predict_proba(X), theirs.predict_proba(X))


def test_a_large_leaf_budget_grows_the_depth_first_tree():
    """Best first with more leaves than the tree has: the same splits, and the
    same arrays once numbered in depth-first order."""
    X, y = _mixed()
    plain = PartitionTreeClassifier().fit(X, y)
    budget = PartitionTreeClassifier(max_leaf_nodes=10_000).fit(X, y)
    assert _same_tree(plain, budget)


@pytest.mark.parametrize("max_leaf_nodes", [2, 3, 4, 6, 9])
def test_multiway_splits_respect_the_leaf_budget(max_leaf_nodes):
    X, y = _mixed()
    tree = PartitionTreeClassifier(
        categorical_split="khiops", max_leaf_nodes=max_leaf_nodes,
        collapse_same_prediction=False,
    ).fit(X, y)  # fmt: skip
    assert 1 < tree.get_n_leaves() <= max_leaf_nodes
