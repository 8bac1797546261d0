# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""class_weight of PartitionTreeClassifier: scikit-learn's semantics."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.class_weight import compute_sample_weight

from partikit.tree import PartitionTreeClassifier, export_text


def _mixed_data(n=600, seed=0):
    rng = np.random.RandomState(seed)
    color = rng.choice(list("rgbyk"), size=n)
    size = rng.normal(size=n)
    signal = (np.isin(color, ["r", "g"]).astype(float) + size) > 1.2
    y = np.where(signal, "rare", "common")
    y[rng.rand(n) < 0.05] = "rare"
    return pd.DataFrame({"color": color, "size": size}), y


def _assert_same_trees(tree, other):
    assert export_text(tree, show_weights=True) == export_text(other, show_weights=True)
    assert_allclose(tree.tree_.value, other.tree_.value)


@pytest.mark.parametrize(
    "class_weight", [{"rare": 4.0, "common": 0.5}, {"rare": 3}, "balanced"]
)
def test_class_weight_equals_the_corresponding_sample_weight(class_weight):
    """Check class_weight grows the tree of sample_weight = the class weights."""
    X, y = _mixed_data()
    weighted = PartitionTreeClassifier(class_weight=class_weight, max_depth=4)
    weighted.fit(X, y)
    sample_weight = compute_sample_weight(class_weight, y)
    expected = PartitionTreeClassifier(max_depth=4).fit(X, y, sample_weight)
    _assert_same_trees(weighted, expected)
    # tree_.value holds the reweighted counts, as in scikit-learn
    counts = np.array([np.sum(y == c) for c in weighted.classes_], dtype=float)
    per_class = [sample_weight[y == c][0] for c in weighted.classes_]
    assert_allclose(weighted.tree_.value[0], counts * per_class)


def test_class_weight_multiplies_sample_weight_and_balanced_counts_weights():
    """Check class weights multiply sample weights, "balanced" computed from the
    weighted class counts (integer weights act as repeated rows)."""
    X, y = _mixed_data(seed=1)
    sample_weight = np.random.RandomState(0).randint(0, 4, len(y)).astype(float)
    balanced = PartitionTreeClassifier(class_weight="balanced", max_depth=4)
    balanced.fit(X, y, sample_weight)
    classes = np.unique(y)
    # n / (n_classes * n_c) on the weighted counts (scikit-learn >= 1.6's
    # compute_class_weight with sample_weight; older ones have no such argument)
    counts = np.array([sample_weight[y == c].sum() for c in classes])
    per_class = sample_weight.sum() / (len(classes) * counts)
    expected_weight = sample_weight * per_class[np.searchsorted(classes, y)]
    expected = PartitionTreeClassifier(max_depth=4).fit(X, y, expected_weight)
    _assert_same_trees(balanced, expected)
    repeated = PartitionTreeClassifier(class_weight="balanced", max_depth=4).fit(
        X.loc[X.index.repeat(sample_weight.astype(int))],
        np.repeat(y, sample_weight.astype(int)),
    )
    _assert_same_trees(balanced, repeated)
    # the balanced classes weigh the same at the root
    assert_allclose(balanced.tree_.value[0], balanced.tree_.value[0].mean())


def test_balanced_moves_the_tree_toward_the_minority_class():
    """Check "balanced" on an imbalanced target predicts the minority class more
    often and recalls more of it."""
    X, y = make_classification(
        n_samples=3000, n_features=6, weights=[0.93], flip_y=0.05, random_state=0
    )
    plain = PartitionTreeClassifier(max_depth=3).fit(X, y)
    balanced = PartitionTreeClassifier(max_depth=3, class_weight="balanced")
    balanced.fit(X, y)
    minority = y == 1
    assert np.mean(minority) < 0.15
    recall_plain = np.mean(plain.predict(X)[minority] == 1)
    recall_balanced = np.mean(balanced.predict(X)[minority] == 1)
    assert recall_balanced > recall_plain + 0.1
    assert np.sum(balanced.predict(X) == 1) > np.sum(plain.predict(X) == 1)


def test_class_weight_equals_scikit_learns_tree_on_one_column():
    """Check class weights grow scikit-learn's tree on a single numeric column
    (where both trees grow the same splits). The weights are at least 1: below
    1, a leaf of one sample weighs less than min_samples_leaf=1 here, where
    scikit-learn counts samples."""
    X, y = make_classification(
        n_samples=500,
        n_features=1,
        n_informative=1,
        n_redundant=0,
        n_clusters_per_class=1,
        weights=[0.8],
        flip_y=0.1,
        random_state=0,
    )
    X = X.astype(np.float32).astype(np.float64)
    for class_weight in ({0: 1.0, 1: 4.0}, {0: 1.5, 1: 3.0}):
        ours = PartitionTreeClassifier(
            class_weight=class_weight, collapse_same_prediction=False
        ).fit(X, y)
        theirs = DecisionTreeClassifier(class_weight=class_weight, random_state=0)
        theirs.fit(X, y)
        weight = theirs.tree_.weighted_n_node_samples[:, None]
        assert_allclose(ours.tree_.value, theirs.tree_.value[:, 0, :] * weight)
        assert_array_equal(ours.predict(X), theirs.predict(X))
        assert_allclose(ours.predict_proba(X), theirs.predict_proba(X))


@pytest.mark.parametrize(
    "class_weight, match",
    [
        ({"rare": 2.0, "unknown": 1.0}, r"names \['unknown'\], which are not classes"),
        ({1: 2.0}, r"names \[1\], which are not classes"),
        ({"rare": -1.0}, "finite non-negative"),
        ({"rare": np.inf}, "finite non-negative"),
        ({"rare": "2"}, "finite non-negative"),
    ],
)
def test_bad_class_weight_raises_a_clear_error(class_weight, match):
    """Check a label that is not a class and a weight that is not a finite
    non-negative number raise a ValueError naming them."""
    X, y = _mixed_data(n=100)
    with pytest.raises(ValueError, match=match):
        PartitionTreeClassifier(class_weight=class_weight).fit(X, y)


def test_class_weight_validation_of_its_type():
    """Check a class_weight that is neither a dict, "balanced" nor None is
    refused by parameter validation."""
    X, y = _mixed_data(n=100)
    with pytest.raises(ValueError, match="class_weight"):
        PartitionTreeClassifier(class_weight="balance").fit(X, y)


def test_zero_class_weight_keeps_the_class_in_classes():
    """Check a class of weight 0 stays in classes_ with zero probability."""
    X, y = _mixed_data(n=300)
    tree = PartitionTreeClassifier(class_weight={"rare": 0.0}).fit(X, y)
    assert_array_equal(tree.classes_, ["common", "rare"])
    assert_array_equal(tree.predict_proba(X)[:, 1], 0.0)
