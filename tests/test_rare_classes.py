# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""A rare class must not erase a partition (Khiops grouping and discretization).

With ``min_frequency="auto"`` the minimum frequency came from the smallest class
proportion, so one stray row of a third class in 100,000 rows pooled every
category as rare and merged every interval: both columns became one part,
silently. Classes too light for the chi-square now take no part in it
(``partikit._statistics._robust_chi2.chi2_classes``), and a collapse caused by
the minimum frequency alone warns.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit import KhiopsDiscretizer, KhiopsGrouper
from partikit._statistics._robust_chi2 import chi2_classes, cochran_min_frequency

N_ROWS = 100_000


@pytest.fixture(scope="module")
def binary_data():
    """20 categories in 2 hidden groups and a number with 14 hidden intervals,
    both related to a binary class."""
    rng = np.random.RandomState(0)
    category = rng.randint(0, 20, N_ROWS)
    x = rng.uniform(0, 14, N_ROWS)
    logit = np.where(category < 10, -0.8, 0.8) + np.where(
        np.floor(x).astype(int) % 2 == 0, -1.0, 1.0
    )
    y = (rng.rand(N_ROWS) < 1 / (1 + np.exp(-logit))).astype(int)
    return category, x, y


def _fit(category, x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no collapse warning either
        grouper = KhiopsGrouper().fit(category.reshape(-1, 1), y)
        discretizer = KhiopsDiscretizer().fit(x.reshape(-1, 1), y)
    return grouper, discretizer


@pytest.fixture(scope="module")
def baseline(binary_data):
    grouper, discretizer = _fit(*binary_data)
    assert grouper.n_groups_[0] == 2
    assert discretizer.n_bins_[0] == 14
    return grouper, discretizer


def test_one_stray_row_of_a_third_class_changes_nothing(binary_data, baseline):
    """Check the issue's case: one more row, of a third class, leaves the same
    2 groups and the same 14 intervals (it used to make both one part)."""
    category, x, y = binary_data
    grouper, discretizer = _fit(
        np.append(category, 3), np.append(x, 5.55), np.append(y, 2)
    )
    assert_array_equal(grouper.group_ids_[0], baseline[0].group_ids_[0])
    assert_array_equal(discretizer.bin_edges_[0], baseline[1].bin_edges_[0])
    assert list(grouper.classes_) == [0, 1, 2]
    # the stray row is not lost: it is counted in its group's and its bin's row
    assert grouper.table_[0][:, 2].sum() == discretizer.table_[0][:, 2].sum() == 1


def test_a_class_of_tiny_weight_changes_the_result_by_its_weight(binary_data, baseline):
    """Check that 50 rows (0.05%) relabelled to a third class keep 2 groups and
    14 intervals, with cut points within 0.05 of the baseline's."""
    category, x, y = binary_data
    y = y.copy()
    y[:50] = 2
    grouper, discretizer = _fit(category, x, y)
    assert_array_equal(grouper.group_ids_[0], baseline[0].group_ids_[0])
    assert discretizer.n_bins_[0] == 14
    assert_allclose(discretizer.bin_edges_[0], baseline[1].bin_edges_[0], atol=0.05)


def test_many_tiny_classes_change_nothing(binary_data, baseline):
    """Check that 498 more rows, each of a class of its own (500 classes in
    all), leave the partitions of the binary target."""
    category, x, y = binary_data
    rng = np.random.RandomState(1)
    grouper, discretizer = _fit(
        np.append(category, rng.randint(0, 20, 498)),
        np.append(x, rng.uniform(0, 14, 498)),
        np.append(y, 2 + np.arange(498)),
    )
    assert len(grouper.classes_) == 500
    assert_array_equal(grouper.group_ids_[0], baseline[0].group_ids_[0])
    assert discretizer.n_bins_[0] == 14
    assert_allclose(discretizer.bin_edges_[0], baseline[1].bin_edges_[0], atol=0.05)


@pytest.mark.parametrize(
    "class_totals, tested",
    [
        ([70_000, 30_000, 1], [True, True, False]),
        ([99_500, 500], [True, True]),  # binary: both, however unbalanced
        ([40, 30, 20, 10], [True, True, True, True]),
        ([500, 500, 2, 2, 1], [True, True, False, False, False]),
        ([1000] + [1] * 5, [True] * 6),  # ties: all six, or two at least
        ([0, 50, 50], [False, True, True]),
    ],
)
def test_chi2_classes(class_totals, tested):
    """Check which classes the chi-square is computed on: the smallest classes
    holding together at most 1% of the weight are left out, at least two
    classes stay, and classes of equal weight stay or go together."""
    assert_array_equal(chi2_classes(class_totals), tested)


@pytest.mark.parametrize(
    "class_totals, expected",
    [
        ([50, 50], 10.0),  # unchanged: balanced binary
        ([99_500, 500], 1000.0),  # unchanged: 5 / 0.005, the minority is tested
        ([40, 30, 20, 10], 50.0),  # unchanged: max(1 / 0.1, 5 / 0.1)
        ([70_000, 30_000, 1], 5 / 0.3),  # was 100,001: 1 / q_min
        ([50_000, 50_000] + [1] * 498, 10.0),  # was 100,498
    ],
)
def test_cochran_min_frequency_ignores_negligible_classes(class_totals, expected):
    """Check that the minimum frequency is unchanged for targets without tiny
    classes and no longer set by a class of negligible weight."""
    assert cochran_min_frequency(np.array(class_totals, float)) == pytest.approx(
        expected, rel=1e-2
    )


def test_collapse_by_the_minimum_frequency_warns():
    """Check that a column related to the class but merged into one part by the
    minimum frequency alone warns, for both estimators, and that a noise column
    (or a column merged by the data) does not."""
    rng = np.random.RandomState(0)
    category = rng.randint(0, 20, 2000)
    y = (rng.rand(2000) < np.where(category < 10, 0.2, 0.8)).astype(int)
    with pytest.warns(UserWarning, match="minimum frequency .500. alone"):
        grouper = KhiopsGrouper(min_frequency=500).fit(category.reshape(-1, 1), y)
    assert grouper.n_groups_[0] == 1
    x = rng.uniform(0, 1, 2000)
    with pytest.warns(UserWarning, match="minimum frequency .1500. alone"):
        KhiopsDiscretizer(min_bin_size=1500).fit(x.reshape(-1, 1), x > 0.5)
    noise = rng.randint(0, 2, 2000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KhiopsGrouper(min_frequency=500).fit(category.reshape(-1, 1), noise)
        KhiopsDiscretizer(min_bin_size=1500).fit(x.reshape(-1, 1), noise)
        KhiopsGrouper().fit(category.reshape(-1, 1), noise)
