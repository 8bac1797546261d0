# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partition_table and partition_summary: what they show is what transform does."""

import numpy as np
import pandas as pd
import pytest

from partikit._estimator._inspection import interval_labels, members_label
from partikit._statistics._measures import chi2_test
from partikit.datasets import make_grouped_categorical, make_k_of_n
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
)
from partikit.groupers import (
    AttributeAggregator,
    CHAIDGrouper,
    KhiopsGrouper,
    MaxCutGrouper,
)

GROUPERS = [KhiopsGrouper, CHAIDGrouper, MaxCutGrouper]
DISCRETIZERS = [KhiopsDiscretizer, MDLPDiscretizer, BlockOptDiscretizer]


def _categorical(n_classes=2, random_state=0):
    X, y, _ = make_grouped_categorical(
        n_samples=3000,
        n_categories=30,
        n_classes=n_classes,
        n_noise_features=1,
        dtype="object",
        random_state=random_state,
    )
    X = X.copy()
    X.iloc[::37, 0] = None
    return X, y


def _numeric(n_classes=2, random_state=0):
    rng = np.random.default_rng(random_state)
    X = pd.DataFrame({"signal": rng.normal(size=3000), "noise": rng.normal(size=3000)})
    X.loc[::41, "signal"] = np.nan
    thresholds = np.linspace(-1, 1, n_classes - 1)
    y = np.searchsorted(thresholds, X["signal"].fillna(0) + rng.normal(0, 0.5, 3000))
    return X, y


def _recount(parts, y, n_parts, classes, weights=None):
    table = np.zeros((n_parts, len(classes)))
    np.add.at(
        table, (parts, np.searchsorted(classes, y)), 1 if weights is None else weights
    )
    return table


def _class_counts(frame, classes):
    return frame[[f"count_{c}" for c in classes]].to_numpy()


@pytest.mark.parametrize("n_classes", [2, 4])
@pytest.mark.parametrize("Grouper", GROUPERS)
def test_grouper_table_counts_what_transform_does(Grouper, n_classes):
    """Check that each group's row counts those that transform sends to it."""
    X, y = _categorical(n_classes)
    grouper = Grouper().fit(X, y)
    codes = grouper.transform(X).astype(int)
    for j, name in enumerate(X.columns):
        table = grouper.partition_table(name)
        assert list(table.index) == list(range(grouper.n_groups_[j]))
        assert table.index.name == "part"
        expected = _recount(codes[:, j], y, len(table), grouper.classes_)
        np.testing.assert_array_equal(_class_counts(table, grouper.classes_), expected)
        assert table["count"].sum() == len(y)
        np.testing.assert_allclose(table["share"].sum(), 1.0)
        rates = table[[f"rate_{c}" for c in grouper.classes_]].to_numpy()
        np.testing.assert_allclose(rates.sum(axis=1), 1.0)
        assert ("woe" in table) == (n_classes == 2)


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
def test_discretizer_table_counts_what_transform_does(Discretizer):
    """Check each interval's counts against transform, the missing bin last."""
    X, y = _numeric(3)
    discretizer = Discretizer().fit(X, y)
    codes = discretizer.transform(X).astype(int)
    for j, name in enumerate(X.columns):
        table = discretizer.partition_table(name)
        assert len(table) == discretizer.n_bins_[j] + 1
        assert table.index[-1] == discretizer.missing_bin_[j]
        assert table["label"].iloc[-1] == "missing"
        assert table["missing"].tolist() == [False] * discretizer.n_bins_[j] + [True]
        assert not table["unknown"].any()
        expected = _recount(codes[:, j], y, len(table), discretizer.classes_)
        np.testing.assert_array_equal(
            _class_counts(table, discretizer.classes_), expected
        )
        assert table["count"].sum() == len(y)


def test_interval_labels_hold_the_values_transform_puts_in_them():
    """Check that every value lies in the (lo, hi] its bin's label states."""
    X, y = _numeric(2)
    discretizer = KhiopsDiscretizer().fit(X[["signal"]], y)
    labels = discretizer.partition_table(0)["label"].tolist()
    codes = discretizer.transform(X[["signal"]])[:, 0].astype(int)
    cuts = discretizer.bin_edges_[0][1:-1]
    assert len(cuts) >= 1
    values = X["signal"].to_numpy()
    for code, value in zip(codes, values, strict=True):
        if np.isnan(value):
            assert labels[code] == "missing"
            continue
        lo = -np.inf if code == 0 else cuts[code - 1]
        hi = np.inf if code == len(cuts) else cuts[code]
        assert lo < value <= hi
    assert labels[0].startswith("(-inf, ") and labels[-2].endswith(", inf)")


def test_interval_labels_keep_close_cuts_apart():
    """Check that labels show enough digits to tell close cut points apart."""
    labels = interval_labels([1000.25, 1000.5, 1000.75])
    assert len(set(labels)) == 4
    assert labels == [
        "(-inf, 1000.25]",
        "(1000.25, 1000.5]",
        "(1000.5, 1000.75]",
        "(1000.75, inf)",
    ]
    assert interval_labels([]) == ["(-inf, inf)"]


def test_group_labels_list_members_then_count_the_rest():
    """Check that long groups are shortened with a count, and missing is named."""
    assert members_label(["a", "b", None], None) == "a, b, missing"
    assert members_label(list("abcdef"), 3) == "a, b, c, ... (+3 more)"
    X, y = _categorical()
    grouper = KhiopsGrouper().fit(X, y)
    full = grouper.partition_table(0, max_members=None)
    for group, label in zip(grouper.groups_[0], full["label"], strict=True):
        assert label.count(",") == len(group) - 1
    short = grouper.partition_table(0, max_members=2)
    assert short["label"].str.contains(r"\(\+\d+ more\)").any()


def test_missing_and_unknown_parts_are_where_transform_sends_them():
    """Check the flags by transforming a missing value and an unseen category."""
    X, y = _categorical()
    grouper = KhiopsGrouper().fit(X, y)
    table = grouper.partition_table(0)
    probe = X.iloc[:2].copy()
    probe.iloc[0, 0] = None
    probe.iloc[1, 0] = "never seen"
    codes = grouper.transform(probe)[:, 0].astype(int)
    assert table["missing"].sum() == 1 and table["unknown"].sum() == 1
    assert table.index[table["missing"]][0] == codes[0]
    assert table.index[table["unknown"]][0] == codes[1]
    assert "missing" in table.loc[codes[0], "label"]

    # fitted without missing values: a missing value is an unknown category
    X_complete = X.dropna()
    y_complete = y[X[X.columns[0]].notna().to_numpy()]
    table = KhiopsGrouper().fit(X_complete, y_complete).partition_table(0)
    assert (table["missing"] == table["unknown"]).all()
    strict = KhiopsGrouper(handle_unknown="error").fit(X_complete, y_complete)
    table = strict.partition_table(0)
    assert not table["missing"].any() and not table["unknown"].any()


def test_woe_column_is_what_encode_woe_outputs():
    """Check the table's WoE against transform(encode='woe'), and its IV."""
    X, y = _categorical()
    ordinal = KhiopsGrouper().fit(X, y).transform(X)[:, 0].astype(int)
    woe = KhiopsGrouper(encode="woe").fit(X, y).transform(X)[:, 0]
    table = KhiopsGrouper().fit(X, y).partition_table(0)
    np.testing.assert_array_equal(table["woe"].to_numpy()[ordinal], woe)
    positives = table["count_1"] / table["count_1"].sum()
    negatives = table["count_0"] / table["count_0"].sum()
    np.testing.assert_allclose(table["iv"], (positives - negatives) * table["woe"])
    np.testing.assert_array_equal(table["event_rate"], table["rate_1"])


def test_weighted_counts_add_up_to_the_weights():
    """Check that a weighted fit's table counts weights, not rows."""
    X, y = _numeric(2)
    weights = np.random.default_rng(1).uniform(0, 3, len(y))
    discretizer = MDLPDiscretizer().fit(X, y, sample_weight=weights)
    codes = discretizer.transform(X).astype(int)
    table = discretizer.partition_table("signal")
    np.testing.assert_allclose(table["count"].sum(), weights.sum())
    expected = _recount(codes[:, 0], y, len(table), discretizer.classes_, weights)
    np.testing.assert_allclose(_class_counts(table, discretizer.classes_), expected)


@pytest.mark.parametrize("Estimator", GROUPERS + DISCRETIZERS)
def test_summary_ranks_the_informative_column_first(Estimator):
    """Check the summary's figures and that the noise column ranks last."""
    X, y = _numeric(2) if Estimator in DISCRETIZERS else _categorical(2)
    X = X[X.columns[::-1]]  # the noise column first: the rows come ranked
    estimator = Estimator().fit(X, y)
    summary = estimator.partition_summary()
    assert list(summary.index) == list(X.columns[::-1])
    assert summary.index.name == "feature"
    assert summary["rank"].tolist() == [1, 2]
    kind = "numeric" if Estimator in DISCRETIZERS else "categorical"
    assert (summary["kind"] == kind).all()
    for j, name in enumerate(X.columns):
        table = estimator.partition_table(j)
        counts = table[[f"count_{c}" for c in estimator.classes_]].to_numpy()
        chi2, dof, log10_pvalue = chi2_test(counts)
        row = summary.loc[name]
        assert row["chi2"] == pytest.approx(chi2)
        assert row["dof"] == dof and row["log10_pvalue"] == pytest.approx(log10_pvalue)
        assert row["n_parts"] == (table["count"] > 0).sum()
        assert row["log10_adjusted_pvalue"] >= row["log10_pvalue"]
        assert row["iv"] == pytest.approx(table["iv"].sum())
        assert 0.0 <= row["cramers_v"] <= 1.0
    if Estimator in DISCRETIZERS:
        assert summary.loc["signal", "n_values"] == X["signal"].nunique()
    else:
        assert summary.loc["category", "n_values"] == X["category"].nunique() + 1


def test_summary_of_a_multiclass_target_has_no_iv():
    """Check that iv is NaN when the target has more than two classes."""
    X, y = _categorical(3)
    summary = KhiopsGrouper().fit(X, y).partition_summary()
    assert summary["iv"].isna().all()


def test_aggregator_shows_its_groupers_partitions():
    """Check the aggregate's table and summary, and the error without a grouper."""
    X, y = make_k_of_n(n_samples=3000, random_state=0)[:2]
    aggregator = AttributeAggregator(grouper=KhiopsGrouper(), search="greedy")
    aggregator.fit(X, y)
    names = list(aggregator.get_feature_names_out())
    summary = aggregator.partition_summary()
    assert sorted(summary.index) == sorted(names)
    assert summary.index[0] == names[-1] and summary["rank"].iloc[0] == 1
    assert summary["rank"].is_monotonic_increasing
    codes = aggregator.transform(X)[:, -1].astype(int)
    table = aggregator.partition_table(names[-1])
    expected = _recount(codes, y, len(table), aggregator.grouper_.classes_)
    np.testing.assert_array_equal(
        _class_counts(table, aggregator.grouper_.classes_), expected
    )
    with pytest.raises(ValueError, match="has no grouper"):
        AttributeAggregator(aggregates=[names[:2]]).fit(X, y).partition_table(0)


def test_features_by_name_or_index_and_clear_errors():
    """Check feature lookup by name, index, negative index, and its errors."""
    X, y = _categorical()
    grouper = KhiopsGrouper().fit(X, y)
    pd.testing.assert_frame_equal(
        grouper.partition_table("noise_0"), grouper.partition_table(-1)
    )
    array_grouper = KhiopsGrouper().fit(X.to_numpy(), y)
    pd.testing.assert_frame_equal(
        array_grouper.partition_table("x1"), grouper.partition_table(1)
    )
    with pytest.raises(ValueError, match="Unknown feature 'nope'"):
        grouper.partition_table("nope")
    with pytest.raises(IndexError, match="out of range"):
        grouper.partition_table(2)
    with pytest.raises(Exception, match="not fitted"):
        KhiopsGrouper().partition_summary()
