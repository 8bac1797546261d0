# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""encode="woe" on the discretizers: the groupers' weight of evidence, per bin."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.utils._param_validation import InvalidParameterError

from partikit._statistics._measures import weight_of_evidence
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
)
from partikit.groupers import CHAIDGrouper, KhiopsGrouper

DISCRETIZERS = [KhiopsDiscretizer, MDLPDiscretizer, BlockOptDiscretizer]


@pytest.fixture(params=DISCRETIZERS, ids=lambda c: c.__name__)
def discretizer(request):
    return request.param


def _binary_data(n=3000, seed=0, missing=0.1):
    """A noisy monotone signal with missing values of their own class rate."""
    rng = np.random.RandomState(seed)
    x = rng.normal(size=n)
    y = (x + 0.5 * rng.normal(size=n) > 0).astype(int)
    nan = rng.uniform(size=n) < missing
    # missing values are mostly events: the missing bin has a WoE of its own
    y[nan] = (rng.uniform(size=nan.sum()) < 0.8).astype(int)
    x[nan] = np.nan
    return pd.DataFrame({"x": x}), y


def _formula(table):
    """category_encoders' regularised WoE, written out (event sign)."""
    negatives, positives = table[:, 0], table[:, 1]
    woe = np.log(
        ((positives + 1) / (positives.sum() + 2))
        / ((negatives + 1) / (negatives.sum() + 2))
    )
    woe[table.sum(axis=1) == 1] = 0.0
    return woe


def test_woe_is_the_weight_of_evidence_of_the_fitted_bins(discretizer):
    """Check that transform gives, for each row, the weight of evidence of its
    bin computed from the fitted per-bin table (missing bin included)."""
    X, y = _binary_data()
    fitted = discretizer(encode="woe").fit(X, y)
    codes = discretizer().fit(X, y).transform(X)[:, 0].astype(int)
    table = fitted.table_[0]
    assert table[-1].sum() > 0 and fitted.n_bins_[0] >= 2
    assert_array_equal(fitted.woe_[0], weight_of_evidence(table))
    assert_allclose(fitted.woe_[0], _formula(table), rtol=1e-12)
    out = fitted.transform(X)
    assert out.shape == (len(y), 1) and out.dtype == np.float64
    assert_array_equal(out[:, 0], fitted.woe_[0][codes])
    # the missing bin has its own WoE, and it is positive (mostly events)
    missing = X["x"].isna().to_numpy()
    assert_array_equal(np.unique(out[missing, 0]), [fitted.woe_[0][-1]])
    assert fitted.woe_[0][-1] > 0
    assert list(fitted.get_feature_names_out()) == ["x"]


def test_woe_equals_a_grouper_given_the_bins_as_categories(discretizer):
    """Check that the discretizer's WoE is what a grouper gives when each bin
    (the missing bin as the missing category) is fed as one category and kept
    as its own group."""
    X, y = _binary_data()
    fitted = discretizer(encode="woe").fit(X, y)
    codes = discretizer().fit(X, y).transform(X)[:, 0].astype(int)
    bins = np.array([f"bin {c}" for c in codes], dtype=object)
    bins[X["x"].isna().to_numpy()] = None
    categories = pd.DataFrame({"x": bins})
    # alpha_merge=1 merges nothing: each bin is its own group
    grouper = CHAIDGrouper(encode="woe", alpha_merge=1.0).fit(categories, y)
    assert grouper.n_groups_[0] == fitted.n_bins_[0] + 1
    assert_allclose(
        fitted.transform(X)[:, 0], grouper.transform(categories)[:, 0], rtol=1e-12
    )
    assert_allclose(np.sort(fitted.woe_[0]), np.sort(grouper.woe_[0]), rtol=1e-12)


@pytest.mark.parametrize("woe_sign", ["event", "non_event"])
def test_partition_table_woe_is_what_transform_outputs(discretizer, woe_sign):
    """Check that partition_table's woe column, read at each row's bin, is the
    encoded value, with either sign, and that the IV does not change sign."""
    X, y = _binary_data()
    fitted = discretizer(encode="woe", woe_sign=woe_sign).fit(X, y)
    table = fitted.partition_table("x")
    codes = discretizer().fit(X, y).transform(X)[:, 0].astype(int)
    assert_array_equal(table["woe"].to_numpy()[codes], fitted.transform(X)[:, 0])
    assert_array_equal(table["woe"].to_numpy(), fitted.woe_[0])
    assert (table["iv"] >= 0).all()
    event = discretizer().fit(X, y).partition_table("x")
    assert_allclose(table["iv"], event["iv"], rtol=1e-12)


def test_woe_sign_non_event_is_the_exact_opposite(discretizer):
    """Check that woe_sign="non_event" negates every value, and that the
    default sign is positive where the second class is over-represented."""
    X, y = _binary_data()
    event = discretizer(encode="woe").fit(X, y)
    non_event = discretizer(encode="woe", woe_sign="non_event").fit(X, y)
    assert_array_equal(non_event.transform(X), -event.transform(X))
    rates = event.partition_table("x")["event_rate"].to_numpy()
    overall = y.mean()
    assert ((event.woe_[0] > 0) == (rates > overall)).all()
    assert ((non_event.woe_[0] < 0) == (rates > overall)).all()


def test_missing_value_unseen_in_fit_gets_zero(discretizer):
    """Check that without missing values in fit the missing bin's WoE is 0 (no
    evidence either way), and that a missing value met in transform gets it."""
    X, y = _binary_data(missing=0.0)
    fitted = discretizer(encode="woe").fit(X, y)
    assert fitted.table_[0][-1].sum() == 0
    assert fitted.woe_[0][-1] == 0.0
    assert_array_equal(fitted.transform(pd.DataFrame({"x": [np.nan]})), [[0.0]])
    # the partition table says it has no rows
    assert np.isnan(fitted.partition_table("x")["woe"].iloc[-1])


def test_woe_needs_a_binary_target_with_the_groupers_error(discretizer):
    """Check that a multiclass target raises the groupers' error."""
    X, y = _binary_data()
    y3 = np.arange(len(y)) % 3
    with pytest.raises(ValueError, match="binary target") as raised:
        discretizer(encode="woe").fit(X, y3)
    with pytest.raises(ValueError) as grouper_raised:
        KhiopsGrouper(encode="woe").fit(pd.DataFrame({"x": y3.astype(str)}), y3)
    assert str(raised.value) == str(grouper_raised.value)
    # the other encodings still take it
    discretizer(encode="ordinal").fit(X, y3)


def test_woe_sign_is_validated(discretizer):
    """Check that woe_sign takes "event" and "non_event" only."""
    X, y = _binary_data()
    with pytest.raises(InvalidParameterError, match="woe_sign"):
        discretizer(encode="woe", woe_sign="positive").fit(X, y)


def test_woe_with_float_weights_partial_fit_and_pandas_output(discretizer):
    """Check that float frequency weights enter the formula through the
    tables, that partial_fit gives fit's WoE, and pandas output."""
    X, y = _binary_data()
    weights = np.random.RandomState(1).uniform(0.5, 3.0, size=len(y))
    fitted = discretizer(encode="woe").fit(X, y, sample_weight=weights)
    assert_allclose(fitted.woe_[0], _formula(fitted.table_[0]), rtol=1e-12)
    chunked = discretizer(encode="woe")
    for rows in np.array_split(np.arange(len(y)), 3):
        chunked.partial_fit(X.iloc[rows], y[rows], sample_weight=weights[rows])
    assert_allclose(chunked.transform(X), fitted.transform(X), rtol=1e-12)
    frame = fitted.set_output(transform="pandas").transform(X)
    assert list(frame.columns) == ["x"]
    codes = discretizer().fit(X, y, sample_weight=weights).transform(X)[:, 0]
    assert_array_equal(frame["x"].to_numpy(), fitted.woe_[0][codes.astype(int)])
