# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""encode="woe": the weight of evidence of each group, from the fitted tables."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit.datasets import make_grouped_categorical
from partikit.groupers import CHAIDGrouper, KhiopsGrouper, MaxCutGrouper

GROUPERS = [KhiopsGrouper, CHAIDGrouper, MaxCutGrouper]


def _binary_data(random_state=4):
    X, y, _ = make_grouped_categorical(
        n_samples=3000,
        n_categories=10,
        n_classes=2,
        n_groups=2,
        dtype="object",
        random_state=random_state,
    )
    return X, y


def _category_encoders_woe(groups, y, sample_weight=None):
    """WOEEncoder fitted on the rows' groups, each row repeated by its weight."""
    category_encoders = pytest.importorskip("category_encoders")
    repeats = np.ones(len(y), dtype=int) if sample_weight is None else sample_weight
    frame = pd.DataFrame({"g": np.repeat(groups.astype(int).astype(str), repeats)})
    encoder = category_encoders.WOEEncoder(cols=["g"]).fit(frame, np.repeat(y, repeats))
    return encoder.transform(pd.DataFrame({"g": groups.astype(int).astype(str)}))[
        "g"
    ].to_numpy()


@pytest.mark.filterwarnings("ignore:.*no_silent_downcasting")
@pytest.mark.parametrize("grouper", GROUPERS, ids=lambda c: c.__name__)
def test_woe_equals_category_encoders_on_integer_weights(grouper):
    """Check that the weight of evidence computed from the fitted tables equals
    category_encoders.WOEEncoder fitted on the rows (repeated by their integer
    weights) of each group."""
    X, y = _binary_data()
    weights = np.random.RandomState(0).randint(1, 4, size=len(y))
    for sample_weight in (None, weights):
        woe = grouper(encode="woe").fit(X, y, sample_weight=sample_weight)
        groups = grouper().fit(X, y, sample_weight=sample_weight).transform(X)[:, 0]
        expected = _category_encoders_woe(groups, y, sample_weight)
        assert_allclose(woe.transform(X)[:, 0], expected)
        assert list(woe.get_feature_names_out()) == ["category"]


def test_woe_takes_float_weights_without_rebuilding_rows():
    """Check that float frequency weights work: weights scaled by 2.5 give the
    tables scaled by 2.5 and the formula on those counts."""
    X, y = _binary_data()
    grouper = KhiopsGrouper(encode="woe").fit(X, y, sample_weight=np.full(len(y), 2.5))
    table = grouper.table_[0]
    assert_allclose(table, KhiopsGrouper().fit(X, y).table_[0] * 2.5)
    expected = np.log(
        ((table[:, 1] + 1) / (table[:, 1].sum() + 2))
        / ((table[:, 0] + 1) / (table[:, 0].sum() + 2))
    )
    assert_allclose(grouper.woe_[0], expected)
    groups = grouper.transform(X)[:, 0]
    assert set(np.round(groups, 12)) == set(np.round(expected, 12))


def test_woe_of_a_single_row_group_is_zero():
    """Check that a group of total weight 1 gets a weight of evidence of 0, as
    category_encoders gives a single-row category."""
    X = np.array([["a"]] * 40 + [["b"]] * 40 + [["c"]])
    y = np.array([0] * 36 + [1] * 4 + [1] * 36 + [0] * 4 + [1])
    # alpha_merge=1 merges nothing: each category is its own group
    grouper = CHAIDGrouper(encode="woe", alpha_merge=1.0).fit(X, y)
    assert grouper.n_groups_[0] == 3
    assert grouper.woe_[0][2] == 0.0
    assert grouper.woe_[0][0] < 0 < grouper.woe_[0][1]


def test_woe_needs_a_binary_target():
    """Check that encode='woe' with a multiclass target raises a clear error."""
    X, y = _binary_data()
    with pytest.raises(ValueError, match="binary target"):
        KhiopsGrouper(encode="woe").fit(X, np.arange(len(y)) % 3)


@pytest.mark.parametrize("grouper", GROUPERS, ids=lambda c: c.__name__)
def test_woe_sign_non_event_is_the_exact_opposite(grouper):
    """Check that woe_sign="non_event" negates encode="woe", woe_ and the
    partition table's woe column, keeps the IV, and that the default sign is
    positive where the second class is over-represented."""
    X, y = _binary_data()
    event = grouper(encode="woe").fit(X, y)
    non_event = grouper(encode="woe", woe_sign="non_event").fit(X, y)
    assert_array_equal(non_event.transform(X), -event.transform(X))
    assert_array_equal(non_event.woe_[0], -event.woe_[0])
    table, event_table = non_event.partition_table(0), event.partition_table(0)
    assert_array_equal(table["woe"], -event_table["woe"])
    assert_allclose(table["iv"], event_table["iv"], rtol=1e-12)
    assert (table["iv"] >= 0).all()
    above = event_table["event_rate"].to_numpy() > y.mean()
    assert ((event.woe_[0] > 0) == above).all()
    # the sign also reaches an ordinal grouper's table (and its plots)
    ordinal = grouper(woe_sign="non_event").fit(X, y).partition_table(0)
    assert_array_equal(ordinal["woe"], table["woe"])


def test_woe_sign_reaches_the_plot():
    """Check that plot_partition draws the WoE with the estimator's sign."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    X, y = _binary_data()
    event_woe = KhiopsGrouper().fit(X, y).partition_table(0)["woe"].to_numpy()
    for sign, expected in (("event", event_woe), ("non_event", -event_woe)):
        grouper = KhiopsGrouper(woe_sign=sign).fit(X, y)
        ax = grouper.plot_partition(0)
        lines = [
            line
            for axes in ax.figure.axes
            for line in axes.get_lines()
            if line.get_label() == "WoE"
        ]
        assert len(lines) == 1
        assert_allclose(lines[0].get_ydata(), expected)
        plt.close(ax.figure)


def test_woe_sign_is_validated():
    """Check that woe_sign takes "event" and "non_event" only."""
    from sklearn.utils._param_validation import InvalidParameterError

    X, y = _binary_data()
    with pytest.raises(InvalidParameterError, match="woe_sign"):
        KhiopsGrouper(woe_sign="events").fit(X, y)
