# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The regression tree's node kernels against their naive twins, and the
sort-by-mean bipartition against brute force."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from partikit._kernels._bipartition import best_mean_prefix
from partikit._kernels._codes import SQUARED_ERROR
from partikit._kernels._tree import (
    CANDIDATE,
    CAT_CHILDREN,
    CAT_SCORE,
    CHILDREN,
    DROPPED,
    N_PRESENT,
    NAN_CHILD,
    NO_SPLIT,
    RAW,
    SCORE,
    STATUS,
    THRESHOLD,
    children_impurity,
    node_mean_splits,
    node_squared_error_thresholds,
)
from partikit.groupers import sort_by_mean
from tests.naive import (
    naive_moments,
    naive_node_mean_splits,
    naive_squared_error,
    naive_squared_error_of_moments,
    naive_squared_error_thresholds,
)


def _node(rng):
    n = int(rng.integers(1, 60))
    n_columns = int(rng.integers(1, 5))
    columns = rng.integers(0, int(rng.integers(1, 12)), (n_columns, n)).astype(float)
    columns[rng.random((n_columns, n)) < rng.choice([0.0, 0.2])] = np.nan
    # continuous targets: no two thresholds tie, so the twins cannot differ by
    # the rounding of equal scores
    y = rng.normal(size=n) * 10.0
    w = rng.random(n) * 3 + 0.1 if rng.random() < 0.5 else np.ones(n)
    rows = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
    return columns, rows, y, w


def test_children_impurity_is_the_weighted_variance():
    """Check the squared-error impurity of children rows: each child's weighted
    variance, weighted by its share of the weight."""
    rng = np.random.default_rng(0)
    y, w = rng.normal(size=30), rng.random(30) + 0.5
    parts = [np.arange(0, 10), np.arange(10, 30)]
    rows = np.array([naive_moments(y[p], w[p]) for p in parts])
    expected = sum(naive_squared_error(y[p], w[p]) for p in parts) / w.sum()
    assert_allclose(children_impurity(rows, SQUARED_ERROR, 0, 2), expected)


@pytest.mark.parametrize("seed", range(8))
def test_node_squared_error_thresholds_matches_naive(seed):
    """Check the one-pass threshold search of least squared error (every column
    at a node) against the naive search over all thresholds."""
    rng = np.random.default_rng(seed)
    for _ in range(10):
        columns, rows, y, w = _node(rng)
        padding = 3
        order = np.zeros((1 + len(columns), len(rows) + 2 * padding), dtype=np.intp)
        order[0, padding:-padding] = rows
        for j, x in enumerate(columns):
            order[1 + j, padding:-padding] = rows[np.argsort(x[rows], kind="stable")]
        min_leaf = float(rng.integers(0, 4))
        parent = naive_squared_error(y[rows], w[rows]) / w[rows].sum()
        out = np.empty((len(columns), CHILDREN + 6))
        best = node_squared_error_thresholds(
            columns, np.ones(len(columns), dtype=bool), order, padding,
            padding + len(rows), y, w, min_leaf, parent, out, np.empty((6, 3)),
        )  # fmt: skip
        expected = naive_squared_error_thresholds(columns, rows, y, w, min_leaf)
        found = [j for j, want in enumerate(expected) if want is not None]
        if found:
            assert best == found[int(np.argmax(out[found, SCORE]))]
        else:
            assert best == -1
        for j, want in enumerate(expected):
            if want is None:
                assert np.isnan(out[j, THRESHOLD])
                continue
            threshold, children, side = want
            assert out[j, THRESHOLD] == threshold
            assert out[j, NAN_CHILD] == side
            assert_allclose(out[j, CHILDREN:].reshape(2, 3), children, rtol=1e-10)
            error = (
                sum(c[2] - c[1] ** 2 / c[0] for c in children if c[0] > 0)
                / w[rows].sum()
            )
            assert_allclose(out[j, SCORE], parent - error, rtol=1e-8, atol=1e-10)
            # RAW: the decrease on the known values only
            known = np.array([i for i in rows if not np.isnan(columns[j][i])])
            left = known[columns[j][known] <= threshold]
            right = known[columns[j][known] > threshold]
            raw = (
                naive_squared_error(y[known], w[known])
                - naive_squared_error(y[left], w[left])
                - naive_squared_error(y[right], w[right])
            ) / w[known].sum()
            assert out[j, RAW] == pytest.approx(raw, rel=1e-8, abs=1e-10)


def test_unused_columns_get_no_threshold():
    """Check that a column outside ``use`` is not searched."""
    x = np.array([[0.0, 1.0, 2.0, 3.0]])
    y = np.array([0.0, 0.0, 1.0, 1.0])
    order = np.vstack([np.arange(4), np.arange(4)])
    out = np.empty((1, CHILDREN + 6))
    best = node_squared_error_thresholds(
        x, np.zeros(1, dtype=bool), order, 0, 4, y, np.ones(4), 1.0, 0.25, out,
        np.empty((6, 3)),
    )  # fmt: skip
    assert best == -1
    assert np.isnan(out[0, THRESHOLD])


@pytest.mark.parametrize("seed", range(8))
def test_node_mean_splits_matches_naive(seed):
    """Check the compiled sort-by-mean split of every categorical column at a
    node against its naive twin."""
    rng = np.random.default_rng(seed)
    for _ in range(10):
        n = int(rng.integers(1, 60))
        n_columns = int(rng.integers(1, 5))
        n_categories = rng.integers(1, 15, n_columns)
        codes = np.array(
            [rng.integers(0, k, n) for k in n_categories], dtype=np.int32
        ).reshape(n_columns, n)
        y = rng.normal(size=n) * 5
        w = rng.random(n) * 3 + 0.1 if rng.random() < 0.5 else np.ones(n)
        rows = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
        padding = 2
        order = np.zeros((1, len(rows) + 2 * padding), dtype=np.intp)
        order[0, padding:-padding] = rows
        min_second = float(rng.choice([-1.0, 2.0]))
        min_leaf = float(rng.integers(0, 4))
        parent = naive_squared_error(y[rows], w[rows]) / w[rows].sum()
        size = int(n_categories.max())
        active = np.ones(n_columns, dtype=bool)
        out = np.empty((n_columns, CAT_CHILDREN + 6))
        offsets = np.concatenate([[0], np.cumsum(n_categories)[:-1]]).astype(np.intp)
        children_of = np.empty((2, int(n_categories.sum())), dtype=np.intp)
        best = node_mean_splits(
            codes, order, padding, padding + len(rows), y, w, active, min_second,
            min_leaf, parent, np.full(size, -1, dtype=np.intp),
            np.empty(size, dtype=np.intp), np.empty((size + 2, 3)), np.empty(size),
            np.empty(2 * size, dtype=np.intp), out, offsets, children_of,
        )  # fmt: skip
        expected = naive_node_mean_splits(codes, rows, y, w, min_second, min_leaf)
        candidates = [j for j, want in enumerate(expected) if isinstance(want, tuple)]
        if candidates:
            assert best == candidates[int(np.argmax(out[candidates, CAT_SCORE]))]
        else:
            assert best == -1
        for j, want in enumerate(expected):
            if want == "dropped":
                assert out[j, STATUS] == DROPPED
                assert not active[j]
                continue
            assert active[j]
            if want is None:
                assert out[j, STATUS] == NO_SPLIT
                continue
            child, children = want
            assert out[j, STATUS] == CANDIDATE
            n_present = int(out[j, N_PRESENT])
            segment = children_of[:, offsets[j] : offsets[j] + n_present]
            assert dict(zip(*segment.tolist(), strict=True)) == child
            assert_allclose(out[j, CAT_CHILDREN:].reshape(2, 3), children, rtol=1e-10)
            error = sum(c[2] - c[1] ** 2 / c[0] for c in children) / w[rows].sum()
            assert_allclose(out[j, CAT_SCORE], parent - error, rtol=1e-8, atol=1e-10)


def _brute_force(table):
    """Least summed squared error over every binary partition of the rows."""
    best = np.inf
    n = len(table)
    for mask in range(1, 2 ** (n - 1)):
        left = np.array([(mask >> k) & 1 for k in range(n)], dtype=bool)
        sides = (table[left].sum(axis=0), table[~left].sum(axis=0))
        best = min(best, sum(s[2] - s[1] ** 2 / s[0] for s in sides))
    return best


@pytest.mark.parametrize("seed", range(20))
def test_sort_by_mean_is_the_best_bipartition(seed):
    """Check sort_by_mean (and the kernel it calls) against every binary
    partition of small moment tables, negative targets included."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    table = np.empty((n, 3))
    for k in range(n):
        y = rng.normal(rng.normal() * 3, 1.0, int(rng.integers(1, 6)))
        w = rng.random(len(y)) + 0.1
        table[k] = naive_moments(y, w)
    result = sort_by_mean(table)
    assert result.n_groups == 2
    assert result.statistics["squared_error"] == pytest.approx(
        _brute_force(table), rel=1e-9, abs=1e-12
    )
    sides = [table[result.group_ids == g].sum(axis=0) for g in (0, 1)]
    found = sum(s[2] - s[1] ** 2 / s[0] for s in sides)
    assert found == pytest.approx(_brute_force(table), rel=1e-9, abs=1e-12)
    assert result.group_ids[0] == 0


@pytest.mark.parametrize("seed", range(6))
def test_best_mean_prefix_orders_rows_as_a_stable_sort(seed):
    """Check the kernel's written-out merge sort against numpy's stable sort
    (ties keep the row order) and its prefix against every prefix."""
    rng = np.random.default_rng(seed)
    for n in [2, 3, 5, 8, 13, 64, 100]:
        weights = rng.integers(1, 4, n).astype(float)
        means = rng.integers(0, 5, n).astype(float)  # many ties
        sums = weights * means
        table = np.column_stack([weights, sums, sums * means + weights])
        order = np.full(2 * n, -7, dtype=np.intp)
        n_left, error = best_mean_prefix(table, n, np.empty(n), order)
        expected = np.argsort(means, kind="stable")
        np.testing.assert_array_equal(order[:n], expected)
        errors = [
            naive_squared_error_of_moments(table[expected[:k]].sum(axis=0))
            + naive_squared_error_of_moments(table[expected[k:]].sum(axis=0))
            for k in range(1, n)
        ]
        assert n_left == 1 + int(np.argmin(errors))
        assert error == pytest.approx(min(errors), rel=1e-12, abs=1e-12)
