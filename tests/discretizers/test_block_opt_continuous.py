# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Optimal multisplitting of a continuous target (squared error on moment tables):
kernels against naive twins, the search against brute force, the exactness of the
runs of equal mean and of the pruning, the Gaussian MDL arity."""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit._kernels import _multisplit as kernel
from partikit._kernels._codes import SQUARED_ERROR
from partikit.discretizers import (
    BlockOptDiscretizer,
    choose_arity,
    mdl_code_length,
    optimal_multisplit,
)
from partikit.discretizers._block_opt import moment_segment_starts
from tests.naive import (
    naive_interval_cost,
    naive_moment_segment_starts,
    naive_optimal_multisplit,
    naive_partition_cost,
    naive_refine_cuts,
)

ALGORITHMS = ["bin_opt", "block_opt", "block_opt_pruned"]

#: The 8-step function of the recovery tests: its level on [i, i + 1) of x.
STEP_LEVELS = np.array([0.0, 2.0, 1.0, 3.0, -1.0, 1.5, 0.5, 2.5])


def moment_table(codes, y, weights=None, n_rows=None):
    """``(sum w, sum w y, sum w y^2)`` per code, as stage 1 counts them."""
    w = np.ones(len(y)) if weights is None else np.asarray(weights, float)
    n_rows = int(codes.max()) + 1 if n_rows is None else n_rows
    return np.column_stack(
        [
            np.bincount(codes, weights=w, minlength=n_rows),
            np.bincount(codes, weights=w * y, minlength=n_rows),
            np.bincount(codes, weights=w * y * y, minlength=n_rows),
        ]
    )


def _random_moment_tables(seed, count, max_rows=10):
    """Moment tables whose rows often share their mean (so that the runs of equal
    mean differ from the rows), of integer or fractional weights, a few rows of
    zero weight."""
    rng = np.random.RandomState(seed)
    for _ in range(count):
        n_rows = rng.randint(1, max_rows + 1)
        weights = rng.randint(1, 4, size=n_rows).astype(float)
        if rng.rand() < 0.3:
            weights *= rng.uniform(0.2, 2.0, size=n_rows)
        if rng.rand() < 0.5:
            means = rng.choice([0.0, 1.0, 2.5], size=n_rows)
        else:
            means = rng.normal(size=n_rows)
        # a row's own spread: 0 (one value per row) or some
        spread = rng.uniform(0, 1, size=n_rows) * weights * rng.randint(0, 2)
        table = np.column_stack([weights, weights * means, weights * means**2 + spread])
        # now and then a value of no weight (a weight-0 row of a pooled table)
        table[rng.rand(n_rows) < 0.1] = 0.0
        if table[:, 0].sum() == 0:
            table[0] = [1.0, 0.0, 0.0]
        yield table


def _steps(n_samples, seed, noise_only=False):
    """``x`` uniform on [0, 8), ``y`` the 8-step function plus N(0, 1) noise."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 8, n_samples)
    y = rng.normal(size=n_samples)
    if not noise_only:
        y += STEP_LEVELS[np.floor(x).astype(int)]
    values, codes = np.unique(x, return_inverse=True)
    return values, moment_table(codes, y, n_rows=len(values))


def _chosen_thresholds(values, table, **kwargs):
    result = optimal_multisplit(table, max_bins=10, target_type="continuous", **kwargs)
    k, _ = choose_arity(result, table)
    cuts = result.cuts[k - 1]
    return k, (values[cuts - 1] + values[cuts]) / 2, result


# --- kernels against their naive twins -------------------------------------------


def test_interval_cost_kernel_matches_naive(global_random_seed):
    """Check the squared error of every interval of the kernel against a loop."""
    for table in _random_moment_tables(global_random_seed, 50):
        cum = kernel.prefix_sums(table)
        for a in range(len(table)):
            for b in range(a + 1, len(table) + 1):
                got = kernel.interval_cost(cum, a, b, SQUARED_ERROR, np.zeros(0))
                expected = naive_interval_cost(table[a:b].sum(axis=0), "squared_error")
                assert got == pytest.approx(max(expected, 0.0), abs=1e-9)


def test_moment_segment_starts_matches_naive(global_random_seed):
    """Check the runs of equal mean (rows of zero weight included)."""
    rng = np.random.RandomState(global_random_seed)
    for table in _random_moment_tables(global_random_seed, 100):
        table[rng.rand(len(table)) < 0.2] = 0.0
        assert_array_equal(
            moment_segment_starts(table), naive_moment_segment_starts(table)
        )


def test_refine_cuts_kernel_matches_naive(global_random_seed):
    """Check the local refinement of pre-binned cuts for the squared error."""
    rng = np.random.RandomState(global_random_seed)
    for table in _random_moment_tables(global_random_seed, 100, max_rows=30):
        if len(table) < 6:
            continue
        coarse = np.unique(
            np.concatenate([[0], rng.choice(np.arange(1, len(table)), size=4)])
        )
        k = rng.randint(1, len(coarse))
        cuts = np.sort(rng.choice(coarse[1:], size=k, replace=False))
        coarse_table = np.add.reduceat(table, coarse, axis=0)
        refined, value = kernel.refine_cuts(
            table, coarse, coarse_table, cuts, SQUARED_ERROR, 1e-12
        )
        expected, expected_value = naive_refine_cuts(
            table, coarse, cuts, "squared_error"
        )
        assert value == pytest.approx(expected_value, abs=1e-9)
        assert naive_partition_cost(table, refined, "squared_error") == pytest.approx(
            expected_value, abs=1e-9
        )


# --- the search against brute force -----------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_optimal_multisplit_equals_brute_force(algorithm, global_random_seed):
    """Check that every search reaches the brute-force optimum over all cut sets,
    for every arity, and that its cuts achieve it: the runs of equal mean lose
    nothing, nor does the pruning."""
    for table in _random_moment_tables(global_random_seed, 150):
        result = optimal_multisplit(
            table,
            max_bins=len(table) + 1,
            algorithm=algorithm,
            target_type="continuous",
        )
        assert result.impurity == "squared_error"
        expected = naive_optimal_multisplit(table, "squared_error", len(result.values))
        assert_allclose(result.values, expected, rtol=1e-9, atol=1e-9)
        for k, cuts in enumerate(result.cuts, start=1):
            assert len(cuts) <= k - 1
            assert np.all(np.diff(cuts) > 0)
            assert naive_partition_cost(table, cuts, "squared_error") == (
                pytest.approx(expected[k - 1], abs=1e-9)
            )


def test_pruning_evaluates_fewer_candidates(global_random_seed):
    """Check that the pruning (exact, above) evaluates no more candidates than the
    plain search over runs, which evaluates no more than the search over rows."""
    values, table = _steps(1500, global_random_seed)
    counts = [
        optimal_multisplit(
            table, max_bins=10, algorithm=algorithm, target_type="continuous"
        ).n_evaluations
        for algorithm in ["block_opt_pruned", "block_opt", "bin_opt"]
    ]
    assert counts[0] < counts[1] <= counts[2]


def test_runs_of_equal_mean_are_the_units():
    """Check that rows of one mean form one unit: a noiseless step function has
    as many units as steps."""
    codes = np.repeat(np.arange(40), 3)
    y = STEP_LEVELS[codes // 5]
    table = moment_table(codes, y)
    result = optimal_multisplit(table, max_bins=10, target_type="continuous")
    assert result.n_units == 8
    assert_array_equal(result.cuts[7], np.arange(5, 40, 5))
    assert result.values[7] == pytest.approx(0.0, abs=1e-9)


def test_shifted_target_gives_the_same_partition(global_random_seed):
    """Check that a target far from 0 (squared errors read from large sums)
    gives the partitions of the target near 0."""
    rng = np.random.default_rng(global_random_seed)
    codes = rng.integers(0, 300, 3000)
    y = rng.normal(size=3000) + (codes > 150)
    near = optimal_multisplit(moment_table(codes, y), target_type="continuous")
    far = optimal_multisplit(moment_table(codes, y + 1e6), target_type="continuous")
    for a, b in zip(near.cuts, far.cuts, strict=True):
        assert_array_equal(a, b)
    # the table itself holds each row's sum of y^2 ~ 1e13 to ~1e-3: its squared
    # error, not the search, is that precise
    assert_allclose(far.values, near.values, rtol=1e-4)


def test_weights_are_repeated_rows(global_random_seed):
    """Check that integer weights give the partitions of the repeated rows."""
    rng = np.random.default_rng(global_random_seed)
    codes = rng.integers(0, 60, 400)
    y = rng.normal(size=400) + (codes % 20 > 9)
    weights = rng.integers(1, 4, 400)
    weighted = optimal_multisplit(
        moment_table(codes, y, weights), target_type="continuous"
    )
    repeated = optimal_multisplit(
        moment_table(np.repeat(codes, weights), np.repeat(y, weights)),
        target_type="continuous",
    )
    assert_allclose(weighted.values, repeated.values, rtol=1e-9)
    for a, b in zip(weighted.cuts, repeated.cuts, strict=True):
        assert_array_equal(a, b)


# --- criteria and tables --------------------------------------------------------


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_class_criteria_refuse_a_moment_table(criterion):
    table = np.array([[1.0, 2.0, 4.0], [1.0, 3.0, 9.0]])
    with pytest.raises(ValueError, match="criterion='squared_error'"):
        optimal_multisplit(table, criterion=criterion, target_type="continuous")


def test_squared_error_refuses_class_counts():
    with pytest.raises(ValueError, match="needs a continuous target"):
        optimal_multisplit(np.eye(2), criterion="squared_error")


def test_moment_table_is_checked():
    with pytest.raises(ValueError, match="3 columns"):
        optimal_multisplit(np.ones((4, 2)), target_type="continuous")
    with pytest.raises(ValueError, match="non-negative weights"):
        optimal_multisplit([[-1.0, 0.0, 0.0]], target_type="continuous")


def test_auto_criterion_follows_the_table():
    moments = optimal_multisplit([[1.0, 1.0, 1.0]], target_type="continuous")
    counts = optimal_multisplit([[1.0, 2.0]])
    assert (moments.impurity, counts.impurity) == ("squared_error", "entropy")


def test_constant_target_is_one_interval():
    codes = np.arange(50)
    table = moment_table(codes, np.full(50, 3.0))
    result = optimal_multisplit(table, target_type="continuous")
    assert_allclose(result.values, 0.0, atol=1e-12)
    assert all(len(cuts) == 0 for cuts in result.cuts)
    assert choose_arity(result, table)[0] == 1


# --- the arity: Gaussian MDL -------------------------------------------------------


def test_gaussian_code_length_matches_its_formula(global_random_seed):
    """Check the code length against its definition, term by term."""
    rng = np.random.default_rng(global_random_seed)
    table = next(_random_moment_tables(global_random_seed, 1, max_rows=10))
    if len(table) < 3:
        table = np.vstack([table, table, table])
    cuts = np.sort(rng.choice(np.arange(1, len(table)), size=2, replace=False))
    bounds = [0, *cuts, len(table)]
    parts = [
        table[a:b].sum(axis=0) for a, b in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    n = table[:, 0].sum()
    sse = sum(naive_interval_cost(p, "squared_error") for p in parts)
    expected = math.log2(math.comb(len(table) - 1, len(parts) - 1))
    expected += sum(0.5 * math.log2(max(p[0], 1.0)) for p in parts)
    expected += 0.5 * math.log2(max(n, 1.0))
    expected += 0.5 * n * math.log2(2 * math.pi * math.e * sse / n)
    got = mdl_code_length(table, cuts, target_type="continuous")
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("n_samples", [1500, 20_000])
def test_mdl_recovers_the_eight_steps(n_samples):
    """Check that the default arity finds the 8 steps of a noisy piecewise-constant
    function in most seeds (at least 18 of 20: MDL, like BIC, is consistent, not
    exact, and splits noise now and then at small sizes), with the exact search
    (1,500 distinct values) and the pre-binned one (20,000), each cut within
    about 40 values of its step (a step of one noise deviation is located to a
    few values, now and then a few tens)."""
    n_found = 0
    for seed in range(20):
        values, table = _steps(n_samples, seed)
        k, thresholds, result = _chosen_thresholds(values, table, exact_limit="auto")
        assert result.exact == (n_samples <= 2048)
        if k == 8:
            n_found += 1
            assert_allclose(thresholds, np.arange(1, 8), atol=300 / n_samples)
    assert n_found >= 18


def test_mdl_keeps_noise_in_one_interval():
    """Check that pure noise gets one interval in most seeds (at least 18 of 20)."""
    ks = [
        _chosen_thresholds(*_steps(3000, seed, noise_only=True)[:2])[0]
        for seed in range(20)
    ]
    assert sum(k == 1 for k in ks) >= 18


def test_balanced_selection_on_moment_table(global_random_seed):
    """Check that the balanced gain also reads a moment table (weight column)."""
    values, table = _steps(1500, global_random_seed)
    result = optimal_multisplit(table, max_bins=10, target_type="continuous")
    k, scores = choose_arity(result, table, method="balanced")
    gains = (result.values[0] - result.values) / table[:, 0].sum()
    assert k == int(np.argmax(gains[1:] / np.log2(np.arange(2, 11)))) + 2
    assert scores[0] == -np.inf


def test_pre_binned_search_is_near_the_exact_one(global_random_seed):
    """Check the approximate search (exact_limit) against the exact one: never
    better, and within 0.1 % of it with the 8 true intervals (with fewer, or
    more, the best choice among steps or runs of noise may lie inside pre-bins of
    20 values, and the pre-binned optimum is then another partition)."""
    values, table = _steps(4000, global_random_seed)
    exact = optimal_multisplit(table, max_bins=10, target_type="continuous")
    approximate = optimal_multisplit(
        table, max_bins=10, target_type="continuous", exact_limit=200
    )
    assert exact.exact and not approximate.exact
    assert np.all(approximate.values >= exact.values - 1e-6)
    assert approximate.values[7] == pytest.approx(exact.values[7], rel=1e-3)


# --- the estimator on a continuous target --------------------------------------


def _step_data(n_samples, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 8, n_samples)
    y = STEP_LEVELS[np.floor(x).astype(int)] + rng.normal(size=n_samples)
    return x.reshape(-1, 1), y


def test_estimator_finds_the_steps_and_reports_the_f_test():
    X, y = _step_data(3000, 0)
    disc = BlockOptDiscretizer().fit(X, y)
    assert disc.target_type_ == "continuous"
    assert disc.n_bins_[0] == 8
    assert_allclose(disc.bin_edges_[0][1:-1], np.arange(1, 8), atol=0.1)
    statistics = disc.statistics_[0]
    assert statistics["f_dfn"] == 7
    assert statistics["f_dfd"] == 3000 - 8
    assert statistics["log10_pvalue"] < -100
    # the bins explain the steps' share of the variance
    bins = np.searchsorted(disc.bin_edges_[0][1:-1], X[:, 0])
    means = np.array([y[bins == b].mean() for b in range(8)])
    explained = np.sum((means[bins] - y.mean()) ** 2) / np.sum((y - y.mean()) ** 2)
    assert statistics["r2"] == pytest.approx(explained, rel=1e-9)


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_estimator_class_criteria_refuse_a_continuous_target(criterion):
    X, y = _step_data(200, 0)
    with pytest.raises(ValueError, match="criterion='squared_error'"):
        BlockOptDiscretizer(criterion=criterion).fit(X, y)


def test_estimator_squared_error_refuses_classes():
    X, y = _step_data(200, 0)
    with pytest.raises(ValueError, match="needs a continuous target"):
        BlockOptDiscretizer(criterion="squared_error").fit(X, y > 1)


def test_estimator_weights_are_repeated_rows(global_random_seed):
    rng = np.random.default_rng(global_random_seed)
    X, y = _step_data(600, global_random_seed)
    X = np.round(X, 1)  # repeated values
    weights = rng.integers(1, 4, len(y))
    weighted = BlockOptDiscretizer().fit(X, y, sample_weight=weights)
    repeated = BlockOptDiscretizer().fit(
        np.repeat(X, weights, axis=0), np.repeat(y, weights)
    )
    assert_allclose(weighted.bin_edges_[0], repeated.bin_edges_[0])
    assert_allclose(
        weighted.statistics_[0]["values"], repeated.statistics_[0]["values"]
    )


def test_estimator_integer_target_declared_continuous():
    X, y = _step_data(2000, 1)
    counts = np.round(2 * y + 4).astype(int)
    disc = BlockOptDiscretizer(target_type="continuous").fit(X, counts)
    assert disc.target_type_ == "continuous"
    assert disc.n_bins_[0] == 8


def test_estimator_n_bins_int_on_a_continuous_target():
    """Check that a fixed number of bins is met on a moment table: a noiseless
    8-step target is fitted exactly by 8 intervals, and 4 neutral cuts (placed by
    weight, the moments' first column) complete the 12."""
    X, _ = _step_data(500, 2)
    y = STEP_LEVELS[np.floor(X[:, 0]).astype(int)]
    disc = BlockOptDiscretizer(n_bins=12).fit(X, y)
    assert disc.n_bins_[0] == 12
    edges = disc.bin_edges_[0][1:-1]
    assert all(np.abs(edges - step).min() < 0.05 for step in range(1, 8))
    assert disc.statistics_[0]["r2"] == pytest.approx(1.0)


def test_cut_table_reads_the_table_kind_it_is_given():
    """Check ``cut_table(target_type=...)``: a moment table gives the cuts of the
    fit, and a fitted continuous discretizer still reads class counts as such."""
    X, y = _step_data(1500, 3)
    disc = BlockOptDiscretizer().fit(X, y)
    values, codes = np.unique(X[:, 0], return_inverse=True)
    result = disc.cut_table(moment_table(codes, y), target_type="continuous")
    assert_allclose(
        (values[result.cuts - 1] + values[result.cuts]) / 2, disc.bin_edges_[0][1:-1]
    )
    assert result.statistics["r2"] == pytest.approx(disc.statistics_[0]["r2"])
    counts = np.array([[5, 0], [4, 1], [0, 5], [1, 6]], dtype=float)
    assert disc.cut_table(counts).statistics.get("r2") is None


def test_pooled_values_on_a_continuous_target():
    """Check ``max_values`` on moment tables: every step is still cut and the
    pooled share is a share of the weight (200 rows of 15 values: a cut costs
    only ``log2 199`` bits to place, and MDL now and then adds one or two)."""
    X, y = _step_data(3000, 4)
    disc = BlockOptDiscretizer(max_values=200).fit(X, y)
    edges = disc.bin_edges_[0][1:-1]
    assert 8 <= disc.n_bins_[0] <= 10
    assert all(np.abs(edges - step).min() < 0.05 for step in range(1, 8))
    assert 0 < disc.statistics_[0]["max_pooled_share"] < 0.01


def test_partial_fit_on_chunks_equals_fit(global_random_seed):
    """Check that moment tables add up: two chunks give the fit of the whole."""
    X, y = _step_data(4000, global_random_seed)
    whole = BlockOptDiscretizer().fit(X, y)
    chunked = BlockOptDiscretizer()
    chunked.partial_fit(X[:1500], y[:1500])
    chunked.partial_fit(X[1500:], y[1500:])
    assert_allclose(chunked.bin_edges_[0], whole.bin_edges_[0])
    assert_allclose(chunked.statistics_[0]["values"], whole.statistics_[0]["values"])
