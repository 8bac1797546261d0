# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Numeric splits under the node's own categorical criterion (thesis 4.2.3).

A numeric attribute with ``t`` distinct values is its ``t - 1`` binary attributes
``x <= v_j``; ``numeric_split="twoing" | "maxcut_squared_gini" | "maxcut_chi2"``
takes the best of them under the categorical method of that name, valued as the
method values the 2-row table of the two sides.
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from partikit._kernels import _max_cut as max_cut_kernel
from partikit._kernels._bipartition import candidate_twoing_values
from partikit._statistics._contingency import midpoints
from partikit.groupers import BIPARTITIONS, split_cut_weights
from partikit.tree import PartitionTreeClassifier
from partikit.tree._splitters import SPLITTERS
from partikit.tree._structure import NUMERIC
from tests.naive import naive_chi2_weight, naive_squared_gini_weight, naive_twoing_value

CRITERIA = ("twoing", "maxcut_squared_gini", "maxcut_chi2")


def _random_value_tables(seed, count):
    """Value tables (non-empty rows), some with empty classes or fractional
    counts (sample weights)."""
    rng = np.random.RandomState(seed)
    for k in range(count):
        n_values = rng.randint(1, 12)
        n_classes = rng.randint(1, 6)
        table = rng.randint(0, 7, size=(n_values, n_classes)).astype(float)
        if k % 3 == 1:
            table[:, rng.rand(n_classes) < 0.3] = 0
        if k % 4 == 3:
            table *= rng.rand(n_values, n_classes)
        table[table.sum(axis=1) == 0, 0] = 1.0
        yield table


def _prefix_tables(table):
    """Every 2-row table ``{rows <= j}, {rows > j}`` of a value table."""
    return [
        np.vstack([table[: j + 1].sum(axis=0), table[j + 1 :].sum(axis=0)])
        for j in range(len(table) - 1)
    ]


def test_split_weights_match_the_naive_pair_weights():
    """The vectorised kernel: each split's raw weight against the naive weight of
    the pair (left side, right side), exactly for integer squared-Gini counts."""
    kinds = [
        (max_cut_kernel.SQUARED_GINI, naive_squared_gini_weight),
        (max_cut_kernel.CHI2, naive_chi2_weight),
    ]
    for table in _random_value_tables(0, 300):
        integer = bool(np.all(table == np.round(table)))
        lefts = np.ascontiguousarray(np.cumsum(table, axis=0)[:-1])
        total = table.sum(axis=0)
        for kind, naive in kinds:
            weights = max_cut_kernel.split_weights(lefts, total, kind)
            for j, left in enumerate(lefts):
                expected = naive(left, total - left)
                if kind == max_cut_kernel.SQUARED_GINI and integer:
                    assert weights[j] == expected
                else:
                    assert math.isclose(
                        weights[j], expected, rel_tol=1e-12, abs_tol=1e-12
                    )


def test_split_weights_equal_pair_weights_of_each_two_row_table():
    """The same arithmetic as the dense kernel of the categorical method: bit for
    bit on integer counts."""
    for table in _random_value_tables(1, 200):
        if not np.all(table == np.round(table)):
            continue
        lefts = np.ascontiguousarray(np.cumsum(table, axis=0)[:-1])
        total = table.sum(axis=0)
        for kind in (max_cut_kernel.SQUARED_GINI, max_cut_kernel.CHI2):
            weights = max_cut_kernel.split_weights(lefts, total, kind)
            for j, pair in enumerate(_prefix_tables(table)):
                assert weights[j] == max_cut_kernel.pair_weights(pair, kind)[0, 1]


def test_candidate_twoing_values_match_naive():
    for table in _random_value_tables(2, 300):
        lefts = np.ascontiguousarray(np.cumsum(table, axis=0)[:-1])
        values = candidate_twoing_values(lefts, table.sum(axis=0))
        for j in range(len(lefts)):
            expected = naive_twoing_value(table, set(range(j + 1)))
            assert math.isclose(values[j], expected, rel_tol=1e-12, abs_tol=1e-15)


def test_split_cut_weights_scale_is_that_of_a_two_row_table():
    """Squared-Gini weights times 2 / N^2; chi-square weights not divided by
    n - 1 (a 2-row table): the max-cut method's cut of the 2-row table."""
    table = np.array([[5.0, 0.0, 1.0], [4.0, 1.0, 0.0], [0.0, 6.0, 1.0]])
    lefts = np.cumsum(table, axis=0)[:-1]
    total = table.sum(axis=0)
    n = total.sum()
    for j, pair in enumerate(_prefix_tables(table)):
        gini = split_cut_weights(lefts, total, "squared_gini")[j]
        chi2 = split_cut_weights(lefts, total, "chi2")[j]
        assert gini == pytest.approx(
            2 * naive_squared_gini_weight(pair[0], pair[1]) / n**2, rel=1e-12
        )
        assert chi2 == pytest.approx(naive_chi2_weight(pair[0], pair[1]), rel=1e-12)
        for name, value in (("maxcut_squared_gini", gini), ("maxcut_chi2", chi2)):
            assert value == BIPARTITIONS[name](pair).criterion


def _brute_force(table, name, min_leaf):
    """The best 2-row table by the categorical method: (index, value) or None."""
    options = {"score": "twoing"} if name == "twoing" else {}
    best, best_value = None, 0.0
    for j, pair in enumerate(_prefix_tables(table)):
        sizes = pair.sum(axis=1)
        if sizes.min() < min_leaf:
            continue
        value = BIPARTITIONS[name](pair, **options).criterion
        # the tree's categorical splitter gives the same value
        assert SPLITTERS["categorical"][name](pair, "gini").criterion == value
        if value > best_value:
            best, best_value = j, value
    return None if best is None else (best, best_value)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.integers(0, 6), min_size=3, max_size=3), min_size=1, max_size=9
    ),
    n_classes=st.integers(1, 3),
    min_leaf=st.sampled_from([1, 3, 8]),
    name=st.sampled_from(CRITERIA),
)
def test_threshold_is_the_best_binary_attribute_of_the_categorical_method(
    rows, n_classes, min_leaf, name
):
    """Brute force: the chosen threshold and its value are those of the best
    2-row table ``{rows <= j}, {rows > j}`` under the categorical method (the
    first best: the smallest threshold), among those leaving ``min_leaf`` on
    each side; no split when none has a positive value."""
    table = np.array(rows, dtype=float)[:, :n_classes]
    table = table[table.sum(axis=1) > 0]
    values = np.arange(len(table), dtype=float) * 1.5 - 2.0
    split = SPLITTERS["numeric"][name](values, table, "gini", min_leaf, 2)
    expected = _brute_force(table, name, min_leaf)
    if expected is None:
        assert len(split.thresholds) == 0
        assert split.criterion == 0.0
        return
    j, value = expected
    assert_array_equal(split.thresholds, midpoints(values, [j + 1]))
    assert split.criterion == value


@pytest.mark.parametrize("name", CRITERIA)
def test_min_leaf_and_constant_column(name):
    split = SPLITTERS["numeric"][name]
    table = np.array([[1.0, 0.0], [0.0, 9.0], [5.0, 0.0], [0.0, 5.0]])
    values = np.array([0.0, 1.0, 2.0, 3.0])
    # min_leaf 1: the first value alone is a candidate
    assert split(values, table, "gini", 1, 2).thresholds.tolist() != []
    # min_leaf 6: only the thresholds after the second value leave 6 on each side
    found = split(values, table, "gini", 6, 2)
    assert found.thresholds.tolist() == [1.5]
    # no threshold leaves 11 on each side of 20
    assert len(split(values, table, "gini", 11, 2).thresholds) == 0
    # one distinct value (a constant column at the node): no split
    assert len(split(values[:1], table[:1], "gini", 1, 2).thresholds) == 0
    # every side with the same class profile: nothing to separate for Twoing
    # and chi-square; a squared-Gini cut still weighs Gini(S) - p_L^2 Gini(S_L)
    # - p_R^2 Gini(S_R) > 0 (Lemma 1), and the method splits, as it splits
    # such categories
    same = np.array([[2.0, 1.0], [4.0, 2.0], [2.0, 1.0]])
    found = split(values[:3], same, "gini", 1, 2)
    assert len(found.thresholds) == (name == "maxcut_squared_gini")


def _mixed_frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    color = rng.choice(list("abcdef"), n)
    x = rng.normal(size=n)
    y = np.where(x > 0.4, 2, np.where(np.isin(color, ["a", "b"]), 1, 0))
    noise = rng.random(n) < 0.1
    y[noise] = rng.integers(0, 3, noise.sum())
    frame = pd.DataFrame(
        {"color": color.astype(object), "x": x, "constant": np.full(n, 3.0)}
    )
    return frame, y


@pytest.mark.parametrize("name", CRITERIA)
def test_tree_with_numeric_criterion_on_a_mixed_frame(name):
    """Nominal and numeric attributes compete on the criterion's own scale: the
    root is the numeric column, at the threshold and value its splitter gives on
    the root's value table, and the tree is accurate."""
    X, y = _mixed_frame()
    tree = PartitionTreeClassifier(
        categorical_split=name,
        numeric_split=name,
        split_score="raw",
        max_depth=4,
        min_samples_leaf=5,
    ).fit(X, y)
    assert tree.score(X, y) > 0.85
    structure = tree.tree_
    assert structure.kind[0] == NUMERIC
    order = np.argsort(X["x"].to_numpy(), kind="stable")
    values = X["x"].to_numpy()[order]
    table = np.zeros((len(values), 3))
    table[np.arange(len(values)), y[order]] = 1.0
    expected = SPLITTERS["numeric"][name](values, table, "gini", 5, 2)
    start = structure.threshold_start[0]
    assert structure.thresholds[start] == expected.thresholds[0]
    assert structure.split_score[0] == pytest.approx(expected.criterion, rel=1e-12)
    # the root's value beats the nominal column's, on the same scale
    counts = pd.crosstab(X["color"], y).to_numpy(dtype=float)
    nominal = SPLITTERS["categorical"][name](counts, "gini").criterion
    assert expected.criterion > nominal
    # every leaf holds at least min_samples_leaf rows; the constant column is
    # never split on
    leaves = structure.kind == 0
    assert structure.value[leaves].sum(axis=1).min() >= 5
    numeric = structure.kind == NUMERIC
    assert set(structure.feature[numeric]) == {0}  # x, the first numeric column


def test_thesis_setting_maxcut_chi2_raw():
    """The thesis's nominal + numeric setting runs and predicts every row."""
    X, y = _mixed_frame(seed=1)
    tree = PartitionTreeClassifier(
        categorical_split="maxcut_chi2",
        numeric_split="maxcut_chi2",
        split_score="raw",
        max_depth=16,
        alpha_split=0.10,
        min_second_value_count=15,
        unknown_routing="stop",
    ).fit(X, y)
    assert tree.predict(X).shape == (len(y),)
    assert tree.score(X, y) > 0.85


def test_constant_numeric_column_gives_no_split():
    X = pd.DataFrame({"x": np.full(50, 1.5)})
    y = np.tile([0, 1], 25)
    for name in CRITERIA:
        tree = PartitionTreeClassifier(numeric_split=name, split_score="raw").fit(X, y)
        assert tree.tree_.n_nodes == 1
