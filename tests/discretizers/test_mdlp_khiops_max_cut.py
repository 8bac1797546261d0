# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MDLP, Khiops discretization and the max-cut threshold: kernels against naive
twins and the worked examples of ALGORITHMS sections 1.10, 3.8 and 5.6."""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import chi2 as chi2_distribution

from partikit._kernels import _khiops as khiops_kernel
from partikit._kernels import _multisplit as kernel
from partikit._kernels._codes import ENTROPY
from partikit._kernels._thresholds import max_cut_sweep
from partikit.datasets import make_interval_target
from partikit.discretizers import (
    KhiopsDiscretizer,
    MDLPDiscretizer,
    khiops_discretization,
    max_cut_threshold,
    mdlp_discretization,
)
from partikit.discretizers._khiops import (
    DISCRETIZATION_TABLE,
    discretization_max_delta_chi2,
)
from partikit.groupers._khiops import max_delta_chi2_threshold
from tests.naive import (
    naive_adjacent_merges,
    naive_granules,
    naive_max_cut_values,
    naive_mdlp,
)


def _random_tables(seed, count, max_rows=14, max_classes=4):
    rng = np.random.RandomState(seed)
    for _ in range(count):
        n_rows, n_classes = (
            rng.randint(2, max_rows + 1),
            rng.randint(2, max_classes + 1),
        )
        # skewed columns make accepted MDLP cuts common enough to test
        probabilities = rng.dirichlet(np.ones(n_classes) * 0.3, size=n_rows)
        table = np.array(
            [rng.multinomial(rng.randint(1, 15), p) for p in probabilities]
        )
        table = table[table.sum(axis=1) > 0].astype(float)
        if table.sum(axis=0).min() > 0 and len(table) >= 2:
            yield table


# --- MDLP -------------------------------------------------------------------------


def test_mdlp_kernel_matches_naive(global_random_seed):
    """Check the stack-based MDLP on blocks against plain recursion on rows."""
    n_accepted = 0
    for table in _random_tables(global_random_seed, 400):
        got = mdlp_discretization(table).cuts
        assert_array_equal(got, naive_mdlp(table))
        n_accepted += len(got) > 0
    assert n_accepted >= 20  # the comparison covers accepted cuts too


def test_mdlp_kernel_matches_naive_on_pure_rows_and_weights(global_random_seed):
    """Check the MDLP kernel's pure-row sweep (distinct values: one class per row),
    mixed rows, and weights that are not integers (no t log2 t lookup)."""
    rng = np.random.RandomState(global_random_seed)
    n_accepted = 0
    for i in range(200):
        n_rows, n_classes = rng.randint(2, 40), rng.randint(2, 5)
        # runs of one class (a hidden interval each), some rows mixed
        labels = np.repeat(rng.randint(n_classes, size=6), 8)[:n_rows]
        noisy = rng.rand(n_rows) < 0.2
        labels[noisy] = rng.randint(n_classes, size=noisy.sum())
        table = np.zeros((n_rows, n_classes))
        table[np.arange(n_rows), labels] = 1.0
        mixed = rng.rand(n_rows) < 0.15
        table[mixed] += rng.randint(0, 2, size=(mixed.sum(), n_classes))
        if i % 2:
            table *= rng.choice([0.5, 1.5, 2.0], size=(n_rows, 1))
        got = mdlp_discretization(table).cuts
        assert_array_equal(got, naive_mdlp(table))
        n_accepted += len(got) > 0
    assert n_accepted >= 20


def test_mdlp_worked_examples():
    """Check ALGORITHMS 3.8: the cut 2.5 is rejected on 10 examples; 8 a then
    12 b is cut once, at 8.5."""
    rejected = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]])
    assert len(mdlp_discretization(rejected).cuts) == 0
    x = np.arange(1, 21, dtype=float).reshape(-1, 1)
    y = np.array(["a"] * 8 + ["b"] * 12)
    disc = MDLPDiscretizer().fit(x, y)
    assert_array_equal(disc.bin_edges_[0], [1, 8.5, 20])


def test_mdlp_threshold_of_worked_example():
    """Check the numbers of ALGORITHMS 3.8: gain 0.1916 < threshold 0.6185."""
    whole = kernel.interval_cost(
        kernel.prefix_sums(np.array([[7.0, 3.0]])), 0, 1, ENTROPY, np.zeros(0)
    )
    after = 6.8966
    assert (whole - after) / 10 == pytest.approx(0.1916, abs=1e-4)
    delta = math.log2(7) - (2 * 0.8813 - 0 - 2 * 0.9852)
    assert delta == pytest.approx(3.0152, abs=1e-3)
    assert (math.log2(9) + delta) / 10 == pytest.approx(0.6185, abs=1e-3)


def test_mdlp_on_a_million_rows_finds_the_hidden_cuts():
    """Check recovery on make_interval_target with 200,000 rows (every cut within
    1e-3); the benchmark runs the 1,000,000-row version."""
    X, y, cuts = make_interval_target(n_samples=200_000, random_state=0)
    found = MDLPDiscretizer().fit(X, y).bin_edges_[0][1:-1]
    assert len(found) == len(cuts)
    assert np.abs(found - cuts).max() < 1e-3


# --- Khiops -----------------------------------------------------------------------


@pytest.mark.parametrize("min_count", [0.0, 4.0, 12.0])
def test_adjacent_merge_kernel_matches_naive(min_count, global_random_seed):
    """Check the frequency phase and the greedy sequence against a plain loop."""
    for table in _random_tables(global_random_seed, 150):
        starts, kept, absorbed, delta = khiops_kernel.adjacent_merge_sequence(
            table, min_count
        )
        expected_starts, merges = naive_adjacent_merges(table, min_count)
        assert_array_equal(starts, expected_starts)
        assert len(delta) == len(merges)
        # DeltaChi2 values agree; ties may merge in either order only at equal value
        assert_allclose(delta, [d for _, _, d in merges], rtol=1e-9, atol=1e-9)
        exact = np.array([d for _, _, d in merges])
        if len(np.unique(np.round(exact, 9))) == len(exact):
            assert_array_equal(kept, [a for a, _, _ in merges])
            assert_array_equal(absorbed, [b for _, b, _ in merges])


def test_granule_kernel_matches_naive(global_random_seed):
    """Check the equal-frequency granules on boundary points (and their counts)
    against a target-by-target loop: runs of one class, fractional weights,
    every row its own granule, one granule; through row and class indices."""
    rng = np.random.RandomState(global_random_seed)
    for _ in range(200):
        n_rows, n_classes = rng.randint(1, 60), rng.randint(2, 5)
        labels = np.repeat(rng.randint(0, n_classes, n_rows), rng.randint(1, 4, n_rows))
        table = np.eye(n_classes)[labels]
        if rng.rand() < 0.5:
            table = table * rng.choice([0.1, 0.5, 1.0, 3.0], size=(len(table), 1))
        if rng.rand() < 0.3:
            table[rng.rand(len(table)) < 0.3] += rng.poisson(1.0, n_classes)
        n_granules = int(rng.choice([1, 2, 3, 7, len(table), 2 * len(table)]))
        expected_starts, expected_counts = naive_granules(table, n_granules)
        total = 0.0
        for row in table:
            for count in row:
                total += float(count)
        columns = np.arange(n_classes)
        starts, counts = khiops_kernel.granules(table, None, columns, total, n_granules)
        assert_array_equal(starts, expected_starts)
        assert_allclose(counts, expected_counts, rtol=1e-12)
        # rows and a class left out, read through indices
        full = np.zeros((2 * len(table), n_classes + 1))
        full[::2, :n_classes] = table
        full[1::2, -1] = 1.0
        rows = np.arange(0, 2 * len(table), 2, dtype=np.intp)
        starts, counts = khiops_kernel.granules(full, rows, columns, total, n_granules)
        assert_array_equal(starts, expected_starts)
        assert_allclose(counts, expected_counts, rtol=1e-12)


def test_khiops_worked_example_a_noise_is_absorbed():
    """Check ALGORITHMS 1.10(a): six pure intervals without robustness (CL
    0.0348), one interval with it (MaxDeltaChi2 = 8.0099)."""
    y = (np.array(list("aaabaabbbbab")) == "b").astype(int)
    table = np.eye(2)[y]
    plain = khiops_discretization(table, min_bin_size=0, robust=False)
    assert_array_equal(plain.cuts, [3, 4, 6, 10, 11])
    assert 10 ** plain.statistics["log10_pvalue"] == pytest.approx(0.0348, abs=1e-4)
    assert plain.statistics["chi2"] == pytest.approx(12.0)
    threshold = chi2_distribution.ppf(0.95 ** (1 / 11), 1)
    assert threshold == pytest.approx(8.0099, abs=1e-4)
    for min_bin_size in (0, 4):
        robust = khiops_discretization(
            table, min_bin_size=min_bin_size, max_delta_chi2=threshold
        )
        assert len(robust.cuts) == 0


def test_khiops_worked_example_b_signal_survives():
    """Check ALGORITHMS 1.10(b): 4 intervals after the frequency phase, two
    forced merges (0.306, 1.224), then a stop: cut at 14.5, X2 = 19.2857."""
    y = (np.arange(30) >= 15).astype(int)
    y[[6, 23, 24]] = [1, 0, 0]
    result = khiops_discretization(
        np.eye(2)[y], min_bin_size=6, max_delta_chi2=9.7769, keep_trace=True
    )
    assert result.statistics["n_initial_intervals"] == 4
    trace = result.statistics["trace"]
    assert_allclose(trace.delta_chi2[:2], [0.306, 1.224], atol=1e-3)
    assert_array_equal(trace.forced, [True, True, False])
    assert_array_equal(trace.accepted, [True, True, False])
    assert_array_equal(result.cuts, [15])
    assert result.statistics["chi2"] == pytest.approx(19.2857, abs=1e-4)
    x = np.arange(30, dtype=float).reshape(-1, 1)
    disc = KhiopsDiscretizer(min_bin_size=6).fit(x, y)
    assert_array_equal(disc.bin_edges_[0], [0, 14.5, 29])


def test_khiops_threshold_at_two_intervals_is_chi2_quantile():
    """Check that two intervals use the exact chi2(J - 1) quantile."""
    assert discretization_max_delta_chi2(2, 4, 0.95) == pytest.approx(
        chi2_distribution.ppf(0.95, 3)
    )


def test_khiops_discretization_table_is_below_the_grouping_one():
    """Check that adjacent merges meet smaller chance maxima than merges of any
    two groups (the reason for a table of their own)."""
    for n_intervals, n_classes in [(10, 2), (100, 5), (1000, 10)]:
        adjacent = discretization_max_delta_chi2(n_intervals, n_classes, 0.95)
        grouping = max_delta_chi2_threshold(n_intervals, n_classes, 0.95)
        assert adjacent < grouping


@pytest.mark.parametrize("n_values", [20, 2000])
def test_khiops_independent_column_is_one_interval_with_probability_p(n_values):
    """Check the guarantee: at least about 95% of independent columns end in one
    interval (200 columns; the binomial 99.9% lower bound is 0.905), with many
    rows per value (no frequency phase) and one row per value (a frequency
    phase)."""
    rng = np.random.RandomState(0)
    X = rng.randint(0, n_values, size=(2000, 200)).astype(float)
    if n_values > 100:
        X = rng.uniform(size=(2000, 200))
    y = rng.randint(0, 3, size=2000)
    disc = KhiopsDiscretizer().fit(X, y)
    assert np.mean(disc.n_bins_ == 1) >= 0.905


def test_khiops_max_bins_and_recovery():
    """Check recovery of the hidden cuts and the max_bins cap."""
    X, y, cuts = make_interval_target(n_samples=200_000, random_state=0)
    found = KhiopsDiscretizer().fit(X, y).bin_edges_[0][1:-1]
    assert len(found) == len(cuts)
    assert np.abs(found - cuts).max() < 1e-3
    assert KhiopsDiscretizer(max_bins=3).fit(X, y).n_bins_[0] == 3


# --- max-cut threshold ------------------------------------------------------------


def _value_table(x, y, sample_weight=None):
    """Distinct values of sorted observations and their class counts."""
    values, rows = np.unique(np.asarray(x, dtype=float), return_inverse=True)
    _, classes = np.unique(np.asarray(y), return_inverse=True)
    table = np.zeros((len(values), classes.max() + 1))
    np.add.at(table, (rows, classes), 1.0 if sample_weight is None else sample_weight)
    return values, table


def test_max_cut_worked_example():
    """Check ALGORITHMS 5.6: thresholds 1.5, 3, 5.5, 7.5 score 14, 26, 31, 17."""
    result = max_cut_threshold(*_value_table([1, 2, 2, 4, 7, 8], list("aababb")))
    assert_allclose(result.statistics["candidate_thresholds"], [1.5, 3, 5.5, 7.5])
    assert_allclose(result.statistics["candidate_metrics"], [14, 26, 31, 17])
    assert_array_equal(result.thresholds, [5.5])
    assert result.criterion == 31
    assert_array_equal(result.cuts, [3])  # value-table rows 1, 2, 4
    assert result.n_bins == 2


def test_max_cut_kernel_matches_naive(global_random_seed):
    """Check the O(n) sweep against the double sum, weighted and not."""
    rng = np.random.RandomState(global_random_seed)
    for _ in range(200):
        n = rng.randint(2, 25)
        x = np.sort(rng.randint(0, 10, size=n) * 1.5 - 4)
        y = rng.randint(0, 3, size=n)
        w = rng.uniform(0.5, 2, size=n) if rng.rand() < 0.5 else None
        result = max_cut_threshold(*_value_table(x, y, w))
        metrics = result.statistics["candidate_metrics"]
        assert_allclose(metrics, naive_max_cut_values(x, y, w), atol=1e-9)
        if len(metrics):
            assert result.criterion == pytest.approx(metrics.max())


def test_max_cut_sweep_kernel_left_weights():
    """Check the raw kernel output: metric and left weight after each position."""
    x = np.array([1.0, 2.0, 2.0, 4.0])
    values, left = max_cut_sweep(x, np.array([0, 0, 1, 0]), None, 2)
    assert_allclose(left, [1, 2, 3])
    assert_allclose(values[[0, 2]], naive_max_cut_values(x, [0, 0, 1, 0]))


def test_max_cut_ties_go_to_the_balanced_split():
    """Check that among equal metrics the more balanced split wins."""
    # symmetric data: thresholds 1.5 and 3.5 tie, 2.5 splits evenly
    x = [1, 2, 3, 4]
    y = [0, 1, 1, 0]
    result = max_cut_threshold(*_value_table(x, y))
    metrics = result.statistics["candidate_metrics"]
    assert metrics[0] == metrics[2]
    best = metrics.max()
    tied = np.flatnonzero(metrics == best)
    balance = [abs(2 * (t + 1) - 4) for t in tied]
    assert_array_equal(result.cuts, [tied[int(np.argmin(balance))] + 1])


def test_max_cut_min_side_weight_restricts_the_candidates():
    """Check on the worked example (metrics 14, 26, 31, 17 with 1, 3, 4, 5 points
    on the left) that min_side_weight=3 leaves only 3.0, and 4 leaves none."""
    values, table = _value_table([1, 2, 2, 4, 7, 8], list("aababb"))
    result = max_cut_threshold(values, table, min_side_weight=3)
    assert result.thresholds.tolist() == [3.0] and result.cuts.tolist() == [2]
    assert result.criterion == 26.0
    assert_allclose(result.statistics["candidate_metrics"], [14, 26, 31, 17])
    none_left = max_cut_threshold(values, table, min_side_weight=4)
    assert len(none_left.thresholds) == len(none_left.cuts) == 0
    assert none_left.n_bins == 1 and none_left.criterion == 0.0


def test_max_cut_no_threshold_and_large_magnitudes():
    """Check a single distinct value (no threshold) and values near 1e300."""
    none = max_cut_threshold(*_value_table([3.0, 3.0], [0, 1]))
    assert len(none.thresholds) == 0 and none.criterion == 0
    big = max_cut_threshold(*_value_table([-1e300, 1e300], [0, 1]))
    assert big.thresholds.tolist() == [0.0]
    assert big.criterion == pytest.approx(2e300)
    with pytest.raises(ValueError, match="increasing"):
        max_cut_threshold([2.0, 1.0], np.eye(2))
    with pytest.raises(ValueError, match="finite"):
        max_cut_threshold([1.0, np.inf], np.eye(2))
    with pytest.raises(ValueError, match="one entry per table row"):
        max_cut_threshold([1.0, 2.0, 3.0], np.eye(2))
    # an empty row is a value absent from the data
    skipped = max_cut_threshold([1.0, 2.0, 3.0], [[1, 0], [0, 0], [0, 1]])
    assert skipped.thresholds.tolist() == [2.0] and skipped.cuts.tolist() == [1]
    assert skipped.n_bins == 2


def test_discretization_table_agrees_with_proposition_one():
    """Check the simulated adjacent-merge table: chi2(J-1) at I = 2, a tail fit
    that reproduces the simulated 0.95 quantile, a threshold increasing in I."""
    import pandas as pd
    from scipy.stats import norm

    table = pd.read_csv(DISCRETIZATION_TABLE, comment="#")
    two = table[table.n_groups == 2]
    assert_allclose(two["mean"], two.n_classes - 1, rtol=0.1)
    assert_allclose(two.q95, chi2_distribution.ppf(0.95, two.n_classes - 1), rtol=0.1)
    # the law is most skewed at I = 3, J = 2, where the fit is within 6%
    rest = table[table.n_groups > 2]
    fitted_q95 = rest.tail_mean + norm.ppf(0.95) * rest.tail_std
    assert_allclose(fitted_q95, rest.q95, rtol=0.06)
    sizes = (3, 10, 100, 1000, 20_000, 100_000, 1_000_000)
    thresholds = [discretization_max_delta_chi2(n, 5, 0.95) for n in sizes]
    assert np.all(np.diff(thresholds) > 0) and np.isfinite(thresholds).all()
    # beyond the grid the growth stays logarithmic: a few units per decade
    assert thresholds[-1] - thresholds[-3] < 20


def test_mdlp_many_cuts_deep_stack():
    """Check MDLP on 64 alternating pure runs (63 cuts accepted, a stack of
    pending intervals deeper than its first allocation), weighted and not."""
    table = np.zeros((64 * 30, 2))
    table[np.arange(len(table)), (np.arange(len(table)) // 30) % 2] = 1.0
    expected = np.arange(30, len(table), 30)
    assert_array_equal(mdlp_discretization(table).cuts, expected)
    assert_array_equal(mdlp_discretization(table * 0.7).cuts, expected)
