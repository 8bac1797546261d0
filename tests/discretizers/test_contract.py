# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The estimator contract of ARCHITECTURE section 3 for every discretizer: missing
values, out-of-range values, bad input, edge cases, encodings, weights."""

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse

from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)

DISCRETIZERS = [
    BlockOptDiscretizer,
    MDLPDiscretizer,
    KhiopsDiscretizer,
    MODLDiscretizer,
]


def _step_data(n=3000, seed=0):
    """x in [0, 10): class 1 exactly on (3, 7]."""
    rng = np.random.RandomState(seed)
    x = np.round(rng.uniform(0, 10, size=n), 2)
    y = ((x > 3) & (x <= 7)).astype(int)
    return x.reshape(-1, 1), y


@pytest.fixture(params=DISCRETIZERS, ids=lambda c: c.__name__)
def discretizer(request):
    return request.param


def test_finds_the_step_and_bins_by_the_documented_rule(discretizer):
    """Check the cuts of a clean step and that t_m < x <= t_{m+1} decides bins:
    ties at a cut point go left."""
    X, y = _step_data()
    disc = discretizer().fit(X, y)
    edges = disc.bin_edges_[0]
    assert len(edges) == 4
    inner = edges[1:-1]
    assert_allclose(inner, [3.005, 7.005], atol=0.01)
    probe = np.array([[inner[0]], [np.nextafter(inner[0], 11)], [inner[1]]])
    assert_array_equal(disc.transform(probe).ravel(), [0, 1, 1])


def test_out_of_range_values_go_to_the_end_bins(discretizer):
    """Check values beyond the training range."""
    X, y = _step_data()
    disc = discretizer().fit(X, y)
    out = disc.transform([[-1e9], [1e9], [-1e300], [1e300]]).ravel()
    assert_array_equal(out, [0, 2, 0, 2])


def test_missing_values_get_their_own_bin(discretizer):
    """Check that NaN is never imputed: fit ignores it in the search, transform
    sends it to missing_bin_, and the missing bin's class counts are kept."""
    X, y = _step_data()
    X = X.copy()
    X[:100] = np.nan
    disc = discretizer().fit(X, y)
    assert disc.missing_bin_[0] == disc.n_bins_[0] == 3
    assert_array_equal(disc.table_[0][-1], np.bincount(y[:100], minlength=2))
    assert disc.table_[0].sum() == len(y)
    assert disc.transform([[np.nan]])[0, 0] == 3
    onehot = BlockOptDiscretizer(encode="onehot-dense").fit(X, y)
    names = onehot.get_feature_names_out()
    assert list(names) == ["x0_b0", "x0_b1", "x0_b2", "x0_missing"]
    assert_array_equal(
        onehot.transform([[np.nan], [5.0]]), [[0, 0, 0, 1], [0, 1, 0, 0]]
    )


def test_missing_at_transform_without_missing_in_fit(discretizer):
    """Check one-hot output for NaN in a feature that had none in fit: a row of
    zeros in its block (ordinal: missing_bin_)."""
    X, y = _step_data()
    disc = discretizer(encode="onehot").fit(X, y)
    out = disc.transform([[np.nan]])
    assert sparse.issparse(out) and out.shape == (1, 3) and out.nnz == 0
    assert discretizer().fit(X, y).transform([[np.nan]])[0, 0] == 3


def test_infinity_is_rejected_naming_the_column(discretizer):
    """Check inf in fit and in transform."""
    X, y = _step_data()
    frame = pd.DataFrame({"amount": X[:, 0]})
    frame.loc[5, "amount"] = np.inf
    with pytest.raises(ValueError, match="infinity in column 'amount'"):
        discretizer().fit(frame, y)
    disc = discretizer().fit(X, y)
    with pytest.raises(ValueError, match="infinity"):
        disc.transform([[-np.inf]])


def test_nan_only_column(discretizer):
    """Check a column with only missing values: one bin, a warning, no crash."""
    X, y = _step_data()
    X = np.column_stack([X[:, 0], np.full(len(y), np.nan)])
    with pytest.warns(UserWarning, match="only missing values"):
        disc = discretizer().fit(X, y)
    assert disc.n_bins_[1] == 1
    assert_array_equal(disc.transform([[1.0, 2.0], [1.0, np.nan]])[:, 1], [0, 1])


def test_one_distinct_value(discretizer):
    """Check a constant column: one bin and a warning."""
    X, y = _step_data()
    X = np.column_stack([X[:, 0], np.full(len(y), 4.2)])
    with pytest.warns(UserWarning, match="single value"):
        disc = discretizer().fit(X, y)
    assert disc.n_bins_[1] == 1
    assert_array_equal(disc.bin_edges_[1], [4.2, 4.2])


def test_one_class_is_an_error(discretizer):
    """Check that a single-class target raises a clear ValueError."""
    X, _ = _step_data()
    with pytest.raises(ValueError, match="1 class"):
        discretizer().fit(X, np.zeros(len(X)))


def test_negative_zero_is_zero(discretizer):
    """Check that -0.0 and 0.0 are one value (never separated)."""
    x = np.array([-0.0, 0.0] * 50 + [1.0] * 100).reshape(-1, 1)
    y = np.array([0, 1] * 50 + [1] * 100)
    disc = discretizer().fit(x, y)
    assert disc.transform([[-0.0]])[0, 0] == disc.transform([[0.0]])[0, 0]
    assert all(e != 0 for e in disc.bin_edges_[0][1:-1])


def test_very_large_magnitudes(discretizer):
    """Check values near the largest float: finite, ordered thresholds."""
    rng = np.random.RandomState(0)
    x = rng.choice([-1.7e308, -1e300, 1e300, 1.7e308], size=2000)
    y = (x > 0).astype(int)
    disc = discretizer().fit(x.reshape(-1, 1), y)
    edges = disc.bin_edges_[0]
    assert np.isfinite(edges).all()
    assert edges[1] == 0.0
    assert_array_equal(disc.transform([[-1e300], [1e300]]).ravel(), [0, 1])


def test_zero_weight_is_removal(discretizer):
    """Check that rows of weight 0 change nothing, and integer weights equal
    repeated rows."""
    X, y = _step_data(n=600)
    rng = np.random.RandomState(1)
    extra = rng.uniform(0, 10, size=(200, 1))
    X_more = np.vstack([X, extra])
    y_more = np.concatenate([y, rng.randint(0, 2, size=200)])
    w = np.concatenate([np.ones(len(y)), np.zeros(200)])
    a = discretizer().fit(X, y)
    b = discretizer().fit(X_more, y_more, sample_weight=w)
    assert_array_equal(a.bin_edges_[0], b.bin_edges_[0])
    counts = rng.randint(1, 4, size=len(y))
    c = discretizer().fit(X, y, sample_weight=counts.astype(float))
    d = discretizer().fit(np.repeat(X, counts, axis=0), np.repeat(y, counts))
    assert_allclose(c.bin_edges_[0], d.bin_edges_[0])
    assert_allclose(c.table_[0], d.table_[0])


def test_pandas_nullable_and_bool_columns(discretizer):
    """Check pandas nullable integers with pd.NA and a boolean column."""
    X, y = _step_data()
    frame = pd.DataFrame(
        {
            "value": pd.array(np.round(X[:, 0]).astype(int), dtype="Int64"),
            "flag": X[:, 0] > 3,
        }
    )
    frame.loc[:9, "value"] = pd.NA
    disc = discretizer().fit(frame, y)
    assert disc.n_features_in_ == 2
    assert list(disc.feature_names_in_) == ["value", "flag"]
    assert disc.table_[0][-1].sum() == 10


def test_categorical_column_is_a_type_error(discretizer):
    """Check a string column: a TypeError pointing to the groupers."""
    frame = pd.DataFrame({"colour": pd.Categorical(["a", "b"] * 10)})
    with pytest.raises(TypeError, match="grouper"):
        discretizer().fit(frame, [0, 1] * 10)


def test_polars_input(discretizer):
    """Check a polars DataFrame: names kept, same bins as numpy."""
    pl = pytest.importorskip("polars")
    X, y = _step_data()
    disc = discretizer().fit(pl.DataFrame({"x": X[:, 0]}), y)
    assert list(disc.feature_names_in_) == ["x"]
    assert_array_equal(disc.bin_edges_[0], discretizer().fit(X, y).bin_edges_[0])


def test_pickle_and_threads_round_trip(discretizer):
    """Check pickling and that n_jobs=2 gives the same result."""
    X, y = _step_data()
    X = np.column_stack([X, X[::-1]])
    one = discretizer().fit(X, y)
    two = discretizer(n_jobs=2).fit(X, y)
    copy = pickle.loads(pickle.dumps(one))
    for j in range(2):
        assert_array_equal(one.bin_edges_[j], two.bin_edges_[j])
    assert_array_equal(copy.transform(X), one.transform(X))


def test_multiclass_and_label_types(discretizer):
    """Check string labels with 3 classes: classes_ and the bins."""
    rng = np.random.RandomState(0)
    x = rng.uniform(size=3000)
    y = np.array(["low", "mid", "high"])[np.digitize(x, [0.3, 0.6])]
    disc = discretizer().fit(x.reshape(-1, 1), y)
    assert list(disc.classes_) == ["high", "low", "mid"]
    assert_allclose(disc.bin_edges_[0][1:-1], [0.3, 0.6], atol=0.01)


def test_warnings_point_at_the_caller(discretizer):
    """Check that column warnings are raised from fit's caller (this file)."""
    X = np.column_stack([np.ones(50), np.arange(50.0)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        discretizer().fit(X, np.arange(50) % 2)
    assert caught and caught[0].filename == __file__
