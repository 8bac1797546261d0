"""Continuous targets in stage 1 and in the estimators' contract.

The moment tables (weight, sum, sum of squares) against sums over the raw
rows, their additivity, the guess of the kind of target, the refusals of the
estimators whose criterion needs class labels, ``encode="target"`` against
scikit-learn's ``TargetEncoder`` formula, and the memory guard.
"""

import math

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from partikit import column_tables
from partikit._counting._validation import check_target
from partikit._kernels._special import log_f_sf
from partikit._statistics._moments import f_test, shrunk_means
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.groupers import (
    AttributeAggregator,
    CHAIDGrouper,
    KhiopsGrouper,
    MODLGrouper,
)
from tests.naive import naive_log_f_sf


def _frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "c": rng.choice(["a", "b", "c", "d", "e"], n),
            "x": rng.normal(size=n).round(1),
        }
    )
    X.loc[3, "x"] = np.nan
    X.loc[5, "c"] = None
    y = rng.normal(size=n) + (X["c"] == "a") * 2.0
    return X, y.to_numpy()


def _moments(values, weights=None):
    values = np.asarray(values, dtype=float)
    w = np.ones_like(values) if weights is None else np.asarray(weights, dtype=float)
    return [w.sum(), (w * values).sum(), (w * values * values).sum()]


def test_moment_tables_are_sums_over_the_rows():
    """Check each table row against the moments of its rows, missing last."""
    X, y = _frame()
    rng = np.random.default_rng(1)
    weights = rng.integers(0, 3, len(y)).astype(float)
    tables = column_tables(X, y, weights, categorical_features=[0])
    assert tables.target_type == "continuous"
    assert tables.classes is None and tables.n_classes == 3
    kept = weights > 0
    for j, column in enumerate(X.columns):
        values = X[column].to_numpy()
        missing = pd.isna(values)
        expected = [
            _moments(y[(values == v) & kept], weights[(values == v) & kept])
            for v in tables.values[j]
        ]
        expected.append(_moments(y[missing & kept], weights[missing & kept]))
        assert_allclose(tables.tables[j], expected, rtol=1e-12, atol=1e-12)


def test_moment_tables_add_up_and_weights_are_repeated_rows():
    """Check that chunks' tables add up to the whole's, and that integer
    weights count as repeated rows."""
    X, y = _frame()
    whole = column_tables(X, y)
    summed = column_tables(X[:250], y[:250]) + column_tables(X[250:], y[250:])
    assert summed.target_type == "continuous"
    for a, b in zip(whole.tables, summed.tables, strict=True):
        assert_allclose(a, b, rtol=1e-12)
    weights = np.random.default_rng(2).integers(0, 4, len(y))
    weighted = column_tables(X, y, weights.astype(float))
    repeated = column_tables(X.loc[X.index.repeat(weights)], np.repeat(y, weights))
    for a, b in zip(weighted.tables, repeated.tables, strict=True):
        assert_allclose(a, b, rtol=1e-12)
    for a, b in zip(weighted.values, repeated.values, strict=True):
        assert_array_equal(a, b)


def test_pooled_numeric_moment_tables_pool_by_weight():
    """Check that a numeric column pooled to max_values keeps its weights and
    moments (pooling reads the weight column, not the sum of the row)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=5000)
    y = 1000.0 + rng.normal(size=5000)  # sums dwarf the weights
    exact = column_tables(x[:, None], y)
    pooled = column_tables(x[:, None], y, max_values=64)
    assert len(pooled.values[0]) <= 64
    assert_allclose(pooled.tables[0].sum(axis=0), exact.tables[0].sum(axis=0))
    # weights near equal: the weight column drives the pooling
    weights = pooled.tables[0][:-1, 0]
    assert weights.max() <= 64 * 5000 / 64
    summed = column_tables(x[:2500, None], y[:2500], max_values=64) + column_tables(
        x[2500:, None], y[2500:], max_values=64
    )
    assert_allclose(summed.tables[0].sum(axis=0), exact.tables[0].sum(axis=0))


def test_tables_of_other_kinds_of_target_do_not_add():
    X, y = _frame()
    with pytest.raises(ValueError, match="other kinds of target"):
        column_tables(X, y) + column_tables(X, (y > 0).astype(int))


@pytest.mark.parametrize(
    "y, target_type, expected",
    [
        (np.array([0.5, 1.5, 2.0, 3.25]), "auto", "continuous"),
        (np.array([0.0, 1.0, 1.0, 0.0]), "auto", "binary"),
        (np.array([1, 2, 3, 4]), "auto", "multiclass"),
        (np.array([1, 2, 3, 4]), "continuous", "continuous"),
        (np.array(["a", "b", "a", "b"]), "auto", "binary"),
        (np.array([3.0, 1.0, 2.0, 2.0]), "multiclass", "multiclass"),
    ],
)
def test_guess_of_the_kind_of_target(y, target_type, expected):
    encoded, classes, kind = check_target(y, target_type=target_type)
    assert kind == expected
    if expected == "continuous":
        assert classes is None and encoded.dtype == np.float64
    else:
        assert encoded.dtype == np.intp


@pytest.mark.parametrize(
    "y, target_type, match",
    [
        (np.array([0.5, np.nan, 1.0]), "auto", "1 missing value"),
        (np.array([0.5, np.inf, 1.0]), "continuous", "1 infinite value.*row 1"),
        (np.array(["a", "b", "c"]), "continuous", "needs numbers"),
        (np.array([2.5, 2.5, 2.5]), "continuous", "constant"),
        (np.array([1, 2, 3]), "binary", "3 classes"),
        (np.array([1, 2, 3]), "ordinal", "target_type must be one of"),
    ],
)
def test_bad_targets_raise(y, target_type, match):
    with pytest.raises(ValueError, match=match):
        check_target(y, target_type=target_type)


def test_memory_guard_refuses_before_allocating():
    """Check that a numeric target of thousands of values taken as classes is
    refused, naming the sizes and target_type='continuous'."""
    rng = np.random.default_rng(0)
    n = 60_000
    X = pd.DataFrame({"x": rng.normal(size=n), "c": rng.integers(0, 8000, n)})
    y = rng.integers(0, 12_000, n)  # integer prices: labels by the guess
    with pytest.raises(ValueError, match=r"'x': 60,000 values x 11,916 = 5.33 GiB.*"
                       r"target_type='continuous'"):  # fmt: skip
        column_tables(X, y)
    with pytest.raises(ValueError, match=r"'c': 7,997 values x 11,916 = 727.1 MiB"):
        column_tables(X[["c"]].astype(str), y)
    tables = column_tables(X, y, target_type="continuous")
    assert tables.tables[0].shape == (n + 1, 3)


@pytest.mark.parametrize(
    "estimator",
    [
        KhiopsGrouper(),
        MODLGrouper(),
        KhiopsDiscretizer(),
        MDLPDiscretizer(),
        MODLDiscretizer(),
    ],
    ids=lambda e: type(e).__name__,
)
def test_estimators_on_class_counts_refuse_a_continuous_target(estimator):
    """Check the refusal names the estimators that take one, for fit and for
    fit_tables."""
    X, y = _frame()
    numeric = X[["x"]].fillna(0.0).to_numpy()
    data = numeric if "Discretizer" in type(estimator).__name__ else X
    match = "y is a continuous target.*CHAIDGrouper.*BlockOptDiscretizer"
    with pytest.raises(ValueError, match=match):
        estimator.fit(data, y)
    features = None if "Discretizer" in type(estimator).__name__ else "all"
    tables = column_tables(data, y, categorical_features=features)
    with pytest.raises(ValueError, match=match):
        estimator.fit_tables(tables)


def test_target_type_of_the_tables_and_of_the_estimator_must_agree():
    X, y = _frame()
    tables = column_tables(X[["c"]], (y > 0).astype(int), categorical_features="all")
    with pytest.raises(ValueError, match="target_type='continuous' but the tables"):
        CHAIDGrouper(target_type="continuous").fit_tables(tables)


def test_partial_fit_with_classes_of_a_continuous_target_raises():
    X, y = _frame()
    with pytest.raises(ValueError, match="continuous target, which has none"):
        CHAIDGrouper().partial_fit(X[["c"]], y, classes=[0, 1])


def _naive_target_encoding(groups, y, weights=None):
    """TargetEncoder's smooth="auto" formula over the raw rows of each group."""
    w = np.ones_like(y) if weights is None else weights
    mean = np.average(y, weights=w)
    variance = np.average((y - mean) ** 2, weights=w)
    encodings = {}
    for g in np.unique(groups):
        rows = groups == g
        n = w[rows].sum()
        m = np.average(y[rows], weights=w[rows])
        v = np.average((y[rows] - m) ** 2, weights=w[rows])
        shrink = n / (n + v / variance)
        encodings[g] = shrink * m + (1 - shrink) * mean
    return encodings


def test_encode_target_is_target_encoders_shrunk_group_mean():
    X, y = _frame()
    grouper = CHAIDGrouper(encode="target").fit(X[["c"]], y)
    assert grouper.target_type_ == "continuous"
    assert not hasattr(grouper, "classes_")
    groups = CHAIDGrouper().fit(X[["c"]], y).transform(X[["c"]])[:, 0]
    expected = _naive_target_encoding(groups, y)
    out = grouper.transform(X[["c"]])[:, 0]
    assert_allclose(out, [expected[g] for g in groups], rtol=1e-10)
    assert list(grouper.get_feature_names_out()) == ["c"]


def test_encode_target_of_a_binary_target_is_the_shrunk_event_rate():
    X, y = _frame()
    labels = (y > 0.5).astype(int)
    grouper = CHAIDGrouper(encode="target").fit(X[["c"]], labels)
    groups = CHAIDGrouper().fit(X[["c"]], labels).transform(X[["c"]])[:, 0]
    expected = _naive_target_encoding(groups, labels.astype(float))
    assert_allclose(
        grouper.transform(X[["c"]])[:, 0], [expected[g] for g in groups], rtol=1e-10
    )


def test_encode_target_and_woe_refuse_the_targets_they_do_not_suit():
    X, y = _frame()
    with pytest.raises(ValueError, match="encode='woe' needs a binary target; y is "
                       "continuous. Use encode='target'"):  # fmt: skip
        CHAIDGrouper(encode="woe").fit(X[["c"]], y)
    classes = np.digitize(y, [-0.5, 0.5])
    with pytest.raises(ValueError, match="encode='target'.*multiclass"):
        CHAIDGrouper(encode="target").fit(X[["c"]], classes)


def test_discretizer_encode_target_gives_the_missing_bin_its_mean():
    X, y = _frame()
    x = X[["x"]].to_numpy()
    discretizer = BlockOptDiscretizer(encode="target").fit(x, y)
    assert discretizer.target_type_ == "continuous"
    out = discretizer.transform(x)[:, 0]
    assert np.isfinite(out).all()
    missing = np.isnan(x[:, 0])
    encodings = discretizer.encodings_[0]
    assert_allclose(out[missing], encodings[-1])


def test_aggregator_search_scores_by_the_f_test():
    """Check that the search finds the pair whose interaction moves the mean."""
    rng = np.random.default_rng(0)
    n = 4000
    X = pd.DataFrame({f"c{j}": rng.integers(0, 3, n).astype(str) for j in range(4)})
    y = (X["c0"] == X["c1"]) * 1.5 + rng.normal(size=n)
    aggregator = AttributeAggregator(grouper=CHAIDGrouper(), search="pairs").fit(X, y)
    assert (
        aggregator.target_type_ == "continuous"
        if hasattr(aggregator, "target_type_")
        else True
    )
    names = list(aggregator.get_feature_names_out())
    assert "c0*c1" in names
    tables = column_tables(X, y, categorical_features="all", joint=[list(X.columns)])
    from_tables = AttributeAggregator(grouper=CHAIDGrouper(), search="pairs")
    assert list(from_tables.fit_tables(tables).get_feature_names_out()) == names


def test_grouped_f_test_against_scipy():
    rng = np.random.default_rng(0)
    parts = [rng.normal(loc, 1.0, size) for loc, size in [(0, 30), (0.5, 40), (1, 25)]]
    table = np.array([_moments(p) for p in parts])
    statistic, dfn, dfd, log10_p, r2 = f_test(table)
    expected = stats.f_oneway(*parts)
    assert_allclose(statistic, expected.statistic, rtol=1e-10)
    assert_allclose(10**log10_p, expected.pvalue, rtol=1e-8)
    everything = np.concatenate(parts)
    total = ((everything - everything.mean()) ** 2).sum()
    within = sum(((p - p.mean()) ** 2).sum() for p in parts)
    assert_allclose(r2, 1 - within / total, rtol=1e-10)
    assert (dfn, dfd) == (2.0, 92.0)


@pytest.mark.parametrize(
    "statistic, dfn, dfd",
    [
        (0.5, 1, 10),
        (3.0, 2, 100),
        (10.0, 5, 1000),
        (100.0, 3, 1e6),
        (1e4, 1, 1e6),
        (1e7, 7, 1e6),
        (1.0, 1, 1),
        (0.01, 4, 5),
        (2.5, 999, 999),
        (1.5, 50, 3),
    ],
)
def test_log_f_sf_against_mpmath(statistic, dfn, dfd):
    """Check the F tail kernel against its naive twin, also where scipy's
    underflows to -inf."""
    expected = naive_log_f_sf(statistic, dfn, dfd)
    assert math.isclose(log_f_sf(statistic, dfn, dfd), expected, rel_tol=1e-9)


def test_log_f_sf_edges():
    assert log_f_sf(0.0, 1.0, 10.0) == 0.0
    assert log_f_sf(-1.0, 1.0, 10.0) == 0.0
    assert log_f_sf(2.0, 0.0, 10.0) == 0.0
    assert log_f_sf(np.inf, 1.0, 10.0) == -np.inf
    assert math.isnan(log_f_sf(np.nan, 1.0, 10.0))


def test_shrunk_means_match_target_encoder():
    """Check against scikit-learn's TargetEncoder encodings (smooth="auto")."""
    from sklearn.preprocessing import TargetEncoder

    X, y = _frame()
    categories = X[["c"]].fillna("missing").to_numpy()
    encoder = TargetEncoder(target_type="continuous").fit(categories, y)
    codes = pd.Categorical(categories[:, 0], categories=encoder.categories_[0]).codes
    table = np.array(
        [_moments(y[codes == k]) for k in range(len(encoder.categories_[0]))]
    )
    assert_allclose(shrunk_means(table), encoder.encodings_[0], rtol=1e-10)
