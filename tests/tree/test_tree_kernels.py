# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The tree's node kernels (all numeric columns at once, row partition) against
their naive twins."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit._kernels._codes import IMPURITY_CODES
from partikit._kernels._tree import (
    CHILDREN,
    NAN_CHILD,
    SCORE,
    THRESHOLD,
    node_thresholds,
    partition_rows,
)
from partikit.datasets import make_grouped_categorical
from partikit.tree import PartitionTreeClassifier, _builder
from tests.naive import naive_impurity, naive_node_thresholds, naive_partition_rows


def _node(rng):
    n = int(rng.integers(1, 60))
    n_columns = int(rng.integers(1, 5))
    columns = rng.integers(0, int(rng.integers(1, 12)), (n_columns, n)).astype(float)
    columns[rng.random((n_columns, n)) < rng.choice([0.0, 0.2])] = np.nan
    y = rng.integers(0, int(rng.integers(1, 4)), n).astype(np.intp)
    w = rng.random(n) * 3 + 0.1 if rng.random() < 0.5 else np.ones(n)
    rows = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
    return columns, rows, y, w, int(y.max()) + 1


@pytest.mark.parametrize("impurity", ["gini", "entropy"])
@pytest.mark.parametrize("seed", range(8))
def test_node_thresholds_matches_naive(impurity, seed):
    rng = np.random.default_rng(seed)
    code = IMPURITY_CODES[impurity]
    for _ in range(10):
        columns, rows, y, w, n_classes = _node(rng)
        # the node's segment sits inside the whole order, as at a deep node
        padding = 3
        order = np.zeros((1 + len(columns), len(rows) + 2 * padding), dtype=np.intp)
        order[0, padding:-padding] = rows
        for j, x in enumerate(columns):
            order[1 + j, padding:-padding] = rows[np.argsort(x[rows], kind="stable")]
        min_leaf = float(rng.integers(0, 4))
        total = np.bincount(y[rows], weights=w[rows], minlength=n_classes)
        parent = naive_impurity(total, impurity)
        out = np.empty((len(columns), CHILDREN + 2 * n_classes))
        best = node_thresholds(
            columns, np.ones(len(columns), dtype=bool), order, padding,
            padding + len(rows), y, w, code, code, min_leaf, code, parent,
            bool(np.all(w == np.round(w))), SCORE, out, np.empty((7, n_classes)),
            np.empty(n_classes, dtype=np.intp),
        )  # fmt: skip
        thresholds = out[:, THRESHOLD]
        children = out[:, CHILDREN:].reshape(len(columns), 2, n_classes)
        nan_child = out[:, NAN_CHILD]
        scores = out[:, SCORE]
        expected = naive_node_thresholds(
            columns, rows, y, w, n_classes, impurity, min_leaf
        )
        found = [j for j, want in enumerate(expected) if want is not None]
        if found:
            ranked = scores[found]
            assert best == found[int(np.argmax(ranked))]
        else:
            assert best == -1
        for j, want in enumerate(expected):
            if want is None:
                assert np.isnan(thresholds[j])
                continue
            threshold, table, side = want
            assert thresholds[j] == threshold
            assert_allclose(children[j], table, rtol=1e-12)
            assert nan_child[j] == side
            sizes = table.sum(axis=1)
            children_impurity = sum(
                size / sizes.sum() * naive_impurity(row, impurity)
                for size, row in zip(sizes, table, strict=True)
                if size > 0
            )
            assert scores[j] == pytest.approx(parent - children_impurity, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_partition_rows_matches_naive(seed):
    rng = np.random.default_rng(seed)
    n = 50
    start, end = 7, 41
    # every row of the order holds the node's rows in its segment, in its own order
    order = np.stack([rng.permutation(n) for _ in range(3)]).astype(np.intp)
    for row in (1, 2):
        order[row, start:end] = rng.permutation(order[0, start:end])
    n_children = int(rng.integers(1, 5))
    slot_of_row = rng.integers(0, n_children, n).astype(np.intp)
    before = order.copy()
    offsets = np.empty(n_children + 1, dtype=np.intp)
    buffer = np.empty(n + n_children, dtype=np.intp)
    partition_rows(order, start, end, slot_of_row, offsets, buffer)
    for row in range(3):
        expected = naive_partition_rows(before[row, start:end], slot_of_row, n_children)
        for k in range(n_children):
            segment = order[row, start + offsets[k] : start + offsets[k + 1]]
            assert_array_equal(segment, expected[k])
        # outside the node nothing moves
        assert_array_equal(order[row, :start], before[row, :start])
        assert_array_equal(order[row, end:], before[row, end:])


def _mixed_frame(seed, n_samples=400):
    X, y, _ = make_grouped_categorical(
        n_samples=n_samples, n_categories=30, n_groups=3, n_classes=3,
        n_noise_features=1, random_state=seed,
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    X = X.copy()
    X["x"] = rng.normal(size=n_samples) + (np.asarray(y) == y[0])
    X.loc[rng.random(n_samples) < 0.1, "x"] = np.nan
    X["rare"] = pd.Series(rng.choice(list("ab"), n_samples, p=[0.97, 0.03]))
    return X, y


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"categorical_split": "maxcut_squared_gini"},
        {"split_score": "entropy", "min_samples_leaf": 5},
        {"split_score": "raw", "alpha_split": 0.1, "min_second_value_count": 15},
        {"split_score": "log_pvalue", "max_depth": 4},
    ],
)
@pytest.mark.parametrize("max_categories", [256, 4])
def test_compiled_max_cut_nodes_match_the_splitter(params, max_categories, monkeypatch):
    """The compiled max-cut of every categorical column at a node grows the tree
    that the max-cut splitter grows column by column (the twin), to the last bit;
    columns with more categories at a node than it takes go to the splitter."""
    monkeypatch.setattr(_builder, "COMPILED_MAX_CUT_CATEGORIES", max_categories)
    for seed in range(3):
        X, y = _mixed_frame(seed)
        w = np.random.default_rng(seed).integers(1, 4, len(y)).astype(float)
        compiled = PartitionTreeClassifier(**params).fit(X, y, sample_weight=w)
        with monkeypatch.context() as patch:
            patch.setattr(_builder, "COMPILED_MAX_CUTS", {})
            plain = PartitionTreeClassifier(**params).fit(X, y, sample_weight=w)
        for field in (
            "kind", "feature", "children", "category_child", "thresholds",
            "nan_child", "default_child", "value", "split_score",
        ):  # fmt: skip
            assert_array_equal(
                getattr(compiled.tree_, field), getattr(plain.tree_, field), field
            )


@pytest.mark.parametrize("routing", ["largest_child", "stop"])
def test_apply_is_the_last_node_of_the_path(routing):
    """The one-column walk of apply ends where the whole path of decision_path
    ends, and predict is predict_proba's argmax."""
    X, y = _mixed_frame(0)
    tree = PartitionTreeClassifier(unknown_routing=routing).fit(X[:300], y[:300])
    paths = tree.decision_path(X).toarray()
    nodes = tree.apply(X)
    depth = tree.tree_.depth
    for row, node in enumerate(nodes):
        visited = np.flatnonzero(paths[row])
        assert node == visited[np.argmax(depth[visited])]
    assert_array_equal(
        tree.predict(X), tree.classes_[np.argmax(tree.predict_proba(X), axis=1)]
    )


def test_the_compiled_max_cut_takes_over_mid_fit(monkeypatch):
    """Not yet compiled nor cached, the compiled max-cut takes over from the
    splitter after COMPILE_MAX_CUT_AFTER columns: the tree does not change."""
    X, y = _mixed_frame(1, n_samples=600)
    with monkeypatch.context() as patch:
        patch.setattr(_builder, "COMPILED_MAX_CUTS", {})
        plain = PartitionTreeClassifier().fit(X, y)
    monkeypatch.setattr(_builder, "is_ready", lambda kernel: False)
    monkeypatch.setattr(_builder, "COMPILE_MAX_CUT_AFTER", 12)
    calls = []
    compiled = _builder.node_max_cuts
    monkeypatch.setattr(
        _builder, "node_max_cuts", lambda *args: calls.append(1) or compiled(*args)
    )
    switched = PartitionTreeClassifier().fit(X, y)
    assert 0 < len(calls) < plain.tree_.n_nodes
    for field in ("kind", "feature", "children", "category_child", "thresholds"):
        assert_array_equal(getattr(switched.tree_, field), getattr(plain.tree_, field))
