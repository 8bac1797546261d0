# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The regression tree's node kernels against their naive twins."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from partikit._kernels._codes import SQUARED_ERROR
from partikit._kernels._tree import (
    CHILDREN,
    NAN_CHILD,
    RAW,
    SCORE,
    THRESHOLD,
    children_impurity,
    node_squared_error_thresholds,
)
from tests.naive import (
    naive_moments,
    naive_squared_error,
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
