# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
import itertools

import numpy as np
import pandas as pd
import pytest

from partikit.datasets import make_grouped_categorical


@pytest.mark.parametrize("frequencies", ["uniform", "zipf"])
@pytest.mark.parametrize("dtype", ["category", "object"])
def test_make_grouped_categorical_shapes_and_hidden_groups(frequencies, dtype):
    """Check shapes, dtypes, classes and the hidden grouping's coverage."""
    X, y, hidden = make_grouped_categorical(
        n_samples=5000,
        n_categories=40,
        n_classes=4,
        n_groups=5,
        frequencies=frequencies,
        n_noise_features=2,
        dtype=dtype,
        random_state=0,
    )
    assert X.shape == (5000, 3)
    assert list(X.columns) == ["category", "noise_0", "noise_1"]
    assert (X.dtypes == ("category" if dtype == "category" else object)).all()
    assert set(np.unique(y)) <= set(range(4))
    assert len(hidden) == 40 and set(hidden) == set(range(5))
    assert hidden.index.is_monotonic_increasing


def test_make_grouped_categorical_signal_shows_in_class_rates():
    """Check that each hidden group favours its class by about `signal`."""
    X, y, hidden = make_grouped_categorical(
        n_samples=200_000,
        n_categories=20,
        n_classes=4,
        n_groups=4,
        signal=0.4,
        random_state=0,
    )
    groups = hidden.reindex(X["category"].astype(str)).to_numpy()
    for g in range(4):
        rate = np.mean(y[groups == g] == g)
        assert rate == pytest.approx(0.4 + 0.6 / 4, abs=0.01)


def test_make_grouped_categorical_is_reproducible():
    """Check that a seed reproduces the data exactly."""
    a = make_grouped_categorical(n_samples=100, random_state=3)
    b = make_grouped_categorical(n_samples=100, random_state=3)
    pd.testing.assert_frame_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


def test_make_grouped_categorical_validates_parameters():
    """Check that a bad parameter raises a clear error."""
    with pytest.raises(ValueError, match="n_classes"):
        make_grouped_categorical(n_classes=1)


def test_make_grouped_categorical_gives_every_group_its_own_profile():
    """Check that with more groups than classes no two groups share a profile."""
    X, y, hidden = make_grouped_categorical(
        n_samples=300_000, n_categories=50, n_classes=2, n_groups=4, random_state=0
    )
    groups = hidden.reindex(X["category"].astype(str)).to_numpy()
    rates = [np.mean(y[groups == g] == 0) for g in range(4)]
    assert_rates = np.abs(np.subtract.outer(rates, rates))[np.triu_indices(4, 1)]
    assert assert_rates.min() > 0.05


def test_make_interval_target_shapes_cuts_and_pattern():
    """Check shapes, the hidden cuts and that neighbouring intervals favour
    different classes."""
    from partikit.datasets import make_interval_target

    X, y, cuts = make_interval_target(
        n_samples=20_000, n_classes=4, n_intervals=5, n_noise_features=2, random_state=0
    )
    assert X.shape == (20_000, 3) and y.shape == (20_000,)
    assert len(cuts) == 4 and np.all(np.diff(cuts) > 0.5 / 5 / 2)
    assert 0 < cuts[0] and cuts[-1] < 1
    interval = np.searchsorted(cuts, X[:, 0], side="right")
    favoured = [np.bincount(y[interval == k], minlength=4).argmax() for k in range(5)]
    assert all(a != b for a, b in itertools.pairwise(favoured))
    again = make_interval_target(
        n_samples=20_000, n_classes=4, n_intervals=5, n_noise_features=2, random_state=0
    )
    assert np.array_equal(again[0], X)


def test_make_credit_columns_target_and_known_probability():
    """Check make_credit's columns, missing incomes, event rate and that its
    probability is the one y was drawn with (its mean matches y's)."""
    from partikit.datasets import make_credit

    X, y, probability = make_credit(n_samples=20_000, random_state=0)
    assert list(X.columns) == [
        "age", "income", "debt_ratio", "late_payments", "home", "purpose"
    ]  # fmt: skip
    assert set(np.unique(y)) == {0, 1}
    assert 0.06 < X["income"].isna().mean() < 0.10
    assert abs(y.mean() - probability.mean()) < 0.01
    assert set(X["home"]) == {"own", "mortgage", "rent", "other"}
    X_again, y_again, _ = make_credit(n_samples=20_000, random_state=0)
    pd.testing.assert_frame_equal(X, X_again)
    np.testing.assert_array_equal(y, y_again)
