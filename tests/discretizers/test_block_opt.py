# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Optimal multisplitting: kernels against naive twins, Bin-Opt / Block-Opt /
Block-Opt-P against brute force, the worked example, arity selection."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from partikit._kernels import _multisplit as kernel
from partikit._kernels._codes import IMPURITY_CODES
from partikit.datasets import make_interval_target
from partikit.discretizers import (
    BlockOptDiscretizer,
    boundary_points,
    choose_arity,
    mdl_code_length,
    optimal_multisplit,
)
from partikit.discretizers._block_opt import add_neutral_cuts
from partikit.discretizers._blocks import block_starts, block_units, quantile_units
from tests.naive import (
    naive_block_starts,
    naive_interval_cost,
    naive_optimal_multisplit,
    naive_partition_cost,
    naive_refine_cuts,
    naive_scan_table,
    naive_segment_sums,
    naive_value_table,
)

#: ALGORITHMS.md section 3.8: values 1..7 and their class counts (a, b).
EXAMPLE = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]], float)
ALGORITHMS = ["bin_opt", "block_opt", "block_opt_pruned"]
CRITERIA = ["entropy", "gini"]


def _random_value_tables(seed, count, max_rows=12, max_classes=4, pure=0.5):
    """Value tables with runs of pure rows (so that blocks differ from rows)."""
    rng = np.random.RandomState(seed)
    for _ in range(count):
        n_rows, n_classes = (
            rng.randint(1, max_rows + 1),
            rng.randint(2, max_classes + 1),
        )
        table = rng.randint(0, 4, size=(n_rows, n_classes)).astype(float)
        for r in range(n_rows):
            if rng.rand() < pure:
                table[r] = 0
                table[r, rng.randint(min(2, n_classes))] = rng.randint(1, 4)
        table[table.sum(axis=1) == 0, 0] = 1
        yield table


# --- kernels against their naive twins -------------------------------------------


def test_value_table_kernel_matches_naive(global_random_seed):
    """Check distinct values and class counts, weighted and not, with ties."""
    rng = np.random.RandomState(global_random_seed)
    x = rng.randint(0, 30, size=500) / 3.0
    y = rng.randint(0, 3, size=500)
    w = rng.uniform(0.1, 2.0, size=500)
    for weights in (None, w):
        values, table = kernel.value_table(
            x, np.argsort(x, kind="stable"), y, weights, 3
        )
        expected_values, expected_table = naive_value_table(x, y, weights, 3)
        assert_array_equal(values, expected_values)
        assert_allclose(table, expected_table)


def test_block_starts_matches_naive(global_random_seed):
    """Check block starts on random value tables with pure runs."""
    for table in _random_value_tables(global_random_seed, 300):
        assert_array_equal(block_starts(table), naive_block_starts(table))


def test_segment_sums_kernel_matches_naive(global_random_seed):
    """Check the row sums of segments (reduceat's up to rounding: numpy sums
    pairwise), exact on integer counts."""
    rng = np.random.RandomState(global_random_seed)
    for table in _random_value_tables(global_random_seed, 100, max_rows=30):
        table = table * rng.uniform(0.1, 2.0, size=table.shape)
        starts = np.unique(
            np.concatenate([[0], rng.randint(0, len(table), size=rng.randint(4))])
        ).astype(np.intp)
        got = kernel.segment_sums(table, starts)
        assert_allclose(got, naive_segment_sums(table, starts))
        assert_allclose(got, np.add.reduceat(table, starts, axis=0), rtol=1e-14)
        integral = np.round(table * 3)
        assert_array_equal(
            kernel.segment_sums(integral, starts),
            np.add.reduceat(integral, starts, axis=0),
        )


def test_value_table_kernel_unit_weights(global_random_seed):
    """Check that no weights (the fit's unweighted path) count as weights of one."""
    rng = np.random.RandomState(global_random_seed)
    x = rng.randint(0, 50, size=400) / 7.0
    y = rng.randint(0, 4, size=400).astype(np.intp)
    order = np.argsort(x)
    values, table = kernel.value_table(x, order, y, None, 4)
    ones_values, ones_table = kernel.value_table(x, order, y, np.ones(400), 4)
    assert_array_equal(values, ones_values)
    assert_array_equal(table, ones_table)
    with pytest.raises(ValueError, match="class code"):
        kernel.value_table(x, order, np.full(400, 4, dtype=np.intp), None, 4)


def test_scan_table_kernel_matches_naive(global_random_seed):
    """Check column totals, running row totals (numpy's cumsum of row sums, the
    same floats on integer counts) and the integrality flag."""
    rng = np.random.RandomState(global_random_seed)
    for i, table in enumerate(_random_value_tables(global_random_seed, 100)):
        if i % 2:
            table = table * rng.choice([0.5, 1.0, 0.3], size=table.shape)
        column_totals = np.zeros(table.shape[1])
        cumulative = np.empty(table.shape[0])
        integral = kernel.scan_table(table, column_totals, cumulative)
        expected_totals, expected_cumulative, expected_integral = naive_scan_table(
            table
        )
        assert integral == expected_integral
        assert_allclose(column_totals, expected_totals, rtol=1e-14)
        assert_allclose(cumulative, expected_cumulative, rtol=1e-14)
        if integral:
            assert_array_equal(cumulative, np.cumsum(table.sum(axis=1)))


@pytest.mark.parametrize("criterion", CRITERIA)
def test_interval_cost_kernel_matches_naive(criterion, global_random_seed):
    """Check the interval cost, with and without the t log2 t lookup."""
    code = IMPURITY_CODES[criterion]
    for table in _random_value_tables(global_random_seed, 100):
        cum = kernel.prefix_sums(table)
        lookup = kernel.xlogx_table(int(table.sum()) + 1)
        m = len(table)
        for a in range(m):
            for b in range(a + 1, m + 1):
                expected = naive_interval_cost(table[a:b].sum(axis=0), criterion)
                for xlogx in (lookup, np.zeros(0)):
                    got = kernel.interval_cost(cum, a, b, code, xlogx)
                    assert got == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("criterion", CRITERIA)
def test_refine_cuts_kernel_matches_naive(criterion, global_random_seed):
    """Check the local refinement of pre-binned cuts against a naive loop."""
    rng = np.random.RandomState(global_random_seed)
    code = IMPURITY_CODES[criterion]
    for table in _random_value_tables(global_random_seed, 100, max_rows=30):
        if len(table) < 6:
            continue
        coarse = np.unique(
            np.concatenate([[0], rng.choice(np.arange(1, len(table)), size=4)])
        )
        k = rng.randint(1, len(coarse))
        cuts = np.sort(rng.choice(coarse[1:], size=k, replace=False))
        coarse_table = np.add.reduceat(table, coarse, axis=0)
        refined, value = kernel.refine_cuts(
            table, coarse, coarse_table, cuts, code, 1e-12
        )
        expected, expected_value = naive_refine_cuts(table, coarse, cuts, criterion)
        assert value == pytest.approx(expected_value, abs=1e-9)
        assert naive_partition_cost(table, refined, criterion) == pytest.approx(
            expected_value, abs=1e-9
        )
        assert naive_partition_cost(table, refined, criterion) <= (
            naive_partition_cost(table, cuts, criterion) + 1e-9
        )
        # the t log2 t lookup of integer tables gives the same floats
        looked_up, looked_up_value = kernel.refine_cuts(
            table,
            coarse,
            coarse_table,
            cuts,
            code,
            1e-12,
            kernel.xlogx_table(int(table.sum()) + 1),
        )
        assert_array_equal(looked_up, refined)
        assert looked_up_value == value


def test_refine_cuts_kernel_memo_changes_nothing(global_random_seed):
    """Check that the windows remembered across the arities of one search give the
    rows a fresh scan gives (the optima of nested arities share cuts)."""
    rng = np.random.RandomState(global_random_seed)
    code = IMPURITY_CODES["entropy"]
    n_seen = 0
    for table in _random_value_tables(global_random_seed, 60, max_rows=40):
        if len(table) < 10:
            continue
        coarse = np.unique(
            np.concatenate([[0], rng.choice(np.arange(1, len(table)), size=6)])
        )
        coarse_table = np.add.reduceat(table, coarse, axis=0)
        pool = rng.permutation(coarse[1:])
        cut_lists = [np.sort(pool[:k]) for k in range(1, len(pool) + 1)] * 2
        memo = kernel.refine_memo(sum(len(c) for c in cut_lists))
        for cuts in cut_lists:
            fresh = kernel.refine_cuts(table, coarse, coarse_table, cuts, code, 1e-12)
            shared = kernel.refine_cuts(
                table, coarse, coarse_table, cuts, code, 1e-12, None, memo
            )
            assert_array_equal(shared[0], fresh[0])
            assert shared[1] == fresh[1]
        n_seen += memo[1][0] < sum(len(c) for c in cut_lists)
    assert n_seen > 0  # some windows were taken from the memo


# --- exactness: the three searches against brute force ---------------------------


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_optimal_multisplit_equals_brute_force(
    algorithm, criterion, global_random_seed
):
    """Check that Bin-Opt, Block-Opt and Block-Opt-P reach the brute-force optimum
    over all cut subsets, for every arity, and that their cuts achieve it."""
    for table in _random_value_tables(global_random_seed, 150):
        max_bins = len(table) + 1
        result = optimal_multisplit(
            table, criterion=criterion, max_bins=max_bins, algorithm=algorithm
        )
        expected = naive_optimal_multisplit(table, criterion, len(result.values))
        assert_allclose(result.values, expected, rtol=1e-9, atol=1e-9)
        for k, cuts in enumerate(result.cuts, start=1):
            assert len(cuts) <= k - 1
            assert np.all(np.diff(cuts) > 0)
            assert naive_partition_cost(table, cuts, criterion) == pytest.approx(
                expected[k - 1], abs=1e-9
            )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 10).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(any),
            min_size=n,
            max_size=n,
        )
    ),
    st.integers(1, 6),
    st.sampled_from(CRITERIA),
)
def test_pruning_never_loses_the_optimum(rows, max_bins, criterion):
    """Check (hypothesis) that Block-Opt-P equals Bin-Opt and evaluates no more
    candidates than Block-Opt."""
    table = np.array(rows, dtype=float)
    pruned = optimal_multisplit(table, criterion=criterion, max_bins=max_bins)
    plain = optimal_multisplit(
        table, criterion=criterion, max_bins=max_bins, algorithm="block_opt"
    )
    bins = optimal_multisplit(
        table, criterion=criterion, max_bins=max_bins, algorithm="bin_opt"
    )
    assert_allclose(pruned.values, bins.values[: len(pruned.values)], atol=1e-9)
    assert_allclose(plain.values, bins.values[: len(plain.values)], atol=1e-9)
    assert pruned.n_evaluations <= plain.n_evaluations <= bins.n_evaluations


def test_worked_example_values_and_cuts():
    """Check ALGORITHMS 3.8: boundary points, blocks, optimal F per arity, cuts."""
    assert_array_equal(boundary_points(EXAMPLE), [0, 1, 1, 0, 1, 0])
    units = block_units(EXAMPLE)
    assert_array_equal(units.starts, [0, 2, 3, 5])
    assert_array_equal(units.table, [[3, 0], [1, 1], [0, 2], [3, 0]])
    for algorithm in ALGORITHMS:
        result = optimal_multisplit(EXAMPLE, max_bins=4, algorithm=algorithm)
        assert_allclose(result.values, [8.8129, 6.8966, 3.2451, 2.0], atol=1e-4)
        values = np.arange(1, 8)
        thresholds = [list((values[c - 1] + values[c]) / 2) for c in result.cuts]
        assert thresholds == [[], [2.5], [2.5, 5.5], [2.5, 3.5, 5.5]]


def test_worked_example_balanced_gain_picks_three_intervals():
    """Check ALGORITHMS 3.8: IG_k / log2 k = 0.1916, 0.3513, 0.3406 -> k = 3."""
    result = optimal_multisplit(EXAMPLE, max_bins=4)
    k, scores = choose_arity(result, EXAMPLE, "balanced")
    assert k == 3
    assert_allclose(scores[1:], [0.1916, 0.3513, 0.3406], atol=1e-4)


def test_worked_example_mdl_keeps_one_interval():
    """Check that the MDL code length prefers no cut on 10 examples, as MDLP
    rejects the cut (ALGORITHMS 3.8), and equals its formula."""
    result = optimal_multisplit(EXAMPLE, max_bins=4)
    k, scores = choose_arity(result, EXAMPLE, "mdl")
    assert k == 1
    # one interval: log2 C(11, 1) for the counts + N H(S) for the classes
    assert scores[0] == pytest.approx(math.log2(11) + 8.8129, abs=1e-4)
    # two intervals: log2 C(6, 1) for the cut among the 6 gaps between values,
    # then the counts of [3, 0] and [4, 3]
    expected = math.log2(6) + math.log2(4) + math.log2(8) + 6.8966
    assert scores[1] == pytest.approx(expected, abs=1e-4)
    assert mdl_code_length(EXAMPLE, result.cuts[1]) == pytest.approx(scores[1])


def test_mdl_keeps_independent_column_in_one_interval(global_random_seed):
    """Check that a column independent of the class stays one interval."""
    rng = np.random.RandomState(global_random_seed)
    x = rng.uniform(size=(5000, 1))
    y = rng.randint(0, 3, size=5000)
    assert BlockOptDiscretizer().fit(x, y).n_bins_[0] == 1


def test_mdl_finds_the_hidden_intervals():
    """Check that n_bins='auto' (MDL) finds the hidden intervals of
    make_interval_target, every cut within 1e-3."""
    X, y, cuts = make_interval_target(n_samples=50_000, random_state=0)
    disc = BlockOptDiscretizer(exact_limit=1000).fit(X, y)
    found = disc.bin_edges_[0][1:-1]
    assert len(found) == len(cuts)
    assert np.abs(found - cuts).max() < 1e-3


def test_max_candidates_is_exact_when_candidates_suffice():
    """Check that pre-binning with at least as many candidates as values changes
    nothing, and that it caps the units otherwise."""
    rng = np.random.RandomState(0)
    table = rng.randint(0, 5, size=(200, 3)).astype(float) + 0.0
    table[table.sum(axis=1) == 0, 0] = 1
    exact = optimal_multisplit(table, max_bins=5)
    same = optimal_multisplit(table, max_bins=5, exact_limit=500)
    assert_allclose(same.values, exact.values)
    coarse = optimal_multisplit(table, max_bins=5, exact_limit=20)
    assert coarse.n_units <= 20
    assert np.all(coarse.values >= exact.values - 1e-9)
    assert len(quantile_units(table, 20).starts) <= 20


def test_quantile_units_cut_near_weighted_quantiles():
    """Check that pre-bins hold about equal weight."""
    table = np.ones((1000, 2))
    table[:, 1] = 0
    table[::2] = [0, 1]  # every row its own block
    units = quantile_units(table, 10)
    weights = units.table.sum(axis=1)
    assert len(weights) == 10
    assert weights.min() >= 95 and weights.max() <= 105


def test_n_bins_int_gives_the_optimum_of_that_many_intervals():
    """Check n_bins=int where more cuts still pay: the optimum of n_bins."""
    X, y, _ = make_interval_target(n_samples=20_000, random_state=1)
    disc = BlockOptDiscretizer(n_bins=3).fit(X, y)
    assert disc.n_bins_[0] == 3
    split = optimal_multisplit(disc.table_[0][:-1], max_bins=3)
    assert split.values[-1] <= split.values[-2]


def test_gini_criterion_and_balanced_selection_on_estimator():
    """Check the gini criterion and balanced selection through the estimator."""
    X, y, cuts = make_interval_target(n_samples=20_000, random_state=2)
    gini = BlockOptDiscretizer(criterion="gini", max_bins=10).fit(X, y)
    balanced = BlockOptDiscretizer(arity_selection="balanced").fit(X, y)
    assert 2 <= gini.n_bins_[0] <= 10
    assert 2 <= balanced.n_bins_[0] <= 10
    assert gini.statistics_[0]["scores"].shape == (10,)


def test_many_blocks_warn():
    """Check the warning that suggests exact_limit above 50,000 blocks."""
    from partikit.discretizers import _block_opt

    x = np.arange(400, dtype=float).reshape(-1, 1)
    y = np.arange(400) % 2
    old = _block_opt.MANY_UNITS
    _block_opt.MANY_UNITS = 100
    try:
        with pytest.warns(UserWarning, match="exact_limit"):
            BlockOptDiscretizer(max_bins=3).fit(x, y)
    finally:
        _block_opt.MANY_UNITS = old


def test_auto_search_is_exact_up_to_the_limit(monkeypatch):
    """Check exact_limit="auto": the exact search (same cuts, values and
    evaluations as exact_limit=None) up to AUTO_EXACT_UNITS blocks, the
    pre-binned search on AUTO_CANDIDATES candidates above, recorded in
    statistics_."""
    from partikit.discretizers import _block_opt

    X, y, cuts = make_interval_target(n_samples=2500, random_state=0)
    exact = BlockOptDiscretizer(exact_limit=None).fit(X, y)
    auto = BlockOptDiscretizer().fit(X, y)
    n_blocks = exact.statistics_[0]["n_units"]
    assert n_blocks <= _block_opt.AUTO_EXACT_UNITS
    assert auto.statistics_[0]["exact"] and exact.statistics_[0]["exact"]
    assert_array_equal(auto.bin_edges_[0], exact.bin_edges_[0])
    assert_array_equal(auto.statistics_[0]["values"], exact.statistics_[0]["values"])
    assert auto.n_evaluations_[0] == exact.n_evaluations_[0]

    monkeypatch.setattr(_block_opt, "AUTO_EXACT_UNITS", n_blocks - 1)
    monkeypatch.setattr(_block_opt, "AUTO_CANDIDATES", 64)
    approximate = BlockOptDiscretizer().fit(X, y)
    assert not approximate.statistics_[0]["exact"]
    assert approximate.statistics_[0]["n_units"] <= 64
    same = BlockOptDiscretizer(exact_limit=64).fit(X, y)
    assert_array_equal(approximate.bin_edges_[0], same.bin_edges_[0])
    found = approximate.bin_edges_[0][1:-1]
    assert len(found) == len(cuts)
    assert np.abs(found - cuts).max() < 1e-2


def test_default_on_a_large_column_is_approximate_and_recovers_the_cuts():
    """Check that the default search on 200,000 distinct values runs on pre-bins
    (the exact one is quadratic) and still finds the hidden cuts within 1e-3."""
    X, y, cuts = make_interval_target(n_samples=200_000, random_state=0)
    disc = BlockOptDiscretizer().fit(X, y)
    assert not disc.statistics_[0]["exact"]
    found = disc.bin_edges_[0][1:-1]
    assert len(found) == len(cuts)
    assert np.abs(found - cuts).max() < 1e-3


def test_search_in_chunks_is_the_same_search(monkeypatch, global_random_seed):
    """Check that the DP run one prefix per kernel call (so that Ctrl-C is
    honoured during a long exact search) gives the same values, cuts and
    evaluations as in one call."""
    from partikit.discretizers import _block_opt

    tables = list(_random_value_tables(global_random_seed, 30, max_rows=40))
    whole = [optimal_multisplit(t, max_bins=6) for t in tables]
    monkeypatch.setattr(_block_opt, "DP_CHUNK_WORK", 1)
    for table, expected in zip(tables, whole, strict=True):
        got = optimal_multisplit(table, max_bins=6)
        assert_array_equal(got.values, expected.values)
        assert got.n_evaluations == expected.n_evaluations
        for a, b in zip(got.cuts, expected.cuts, strict=True):
            assert_array_equal(a, b)


def test_block_count_in_chunks_matches_block_starts(global_random_seed):
    """Check the chunked block count of the "auto" search (the gap before each
    chunk counted once), and that it stops early above its limit."""
    from partikit.discretizers._block_opt import _count_blocks

    for table in _random_value_tables(global_random_seed, 200, max_rows=40):
        n_blocks = len(block_starts(table))
        for chunk in (1, 2, 3, 7, 64):
            assert _count_blocks(table, 10**9, chunk=chunk) == n_blocks
            assert _count_blocks(table, 0, chunk=chunk) > 0


def test_n_bins_int_gives_exactly_that_many_intervals():
    """Check n_bins=int beyond what lowers the impurity: exactly n_bins
    intervals (as KBinsDiscretizer), at the optimal impurity, and a warning when
    the column has fewer distinct values."""
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 10, 4000)
    y = (x > 5).astype(int)  # one cut is perfect: more cannot lower the impurity
    disc = BlockOptDiscretizer(n_bins=6).fit(x.reshape(-1, 1), y)
    assert disc.n_bins_[0] == 6
    table = disc.table_[0][:-1]
    best = optimal_multisplit(table, max_bins=6).values[-1]
    assert _impurity_of(table) == pytest.approx(best, abs=1e-9)
    with pytest.warns(UserWarning, match="more intervals than the column has"):
        few = BlockOptDiscretizer(n_bins=5).fit(
            [[1.0], [2.0], [3.0], [1.0]], [0, 1, 0, 0]
        )
    assert few.n_bins_[0] == 3


def _impurity_of(table):
    """Cumulative entropy (bits) of the rows of a per-bin table."""
    table = np.asarray(table, dtype=np.float64)
    sizes = table.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = np.where(sizes > 0, table / sizes, 0.0)
        logs = np.where(shares > 0, np.log2(np.where(shares > 0, shares, 1.0)), 0.0)
    return float(-(table * logs).sum())


def test_neutral_cuts_split_the_heaviest_intervals_near_their_middle():
    """Check add_neutral_cuts: the heaviest interval first, at the gap nearest
    its weighted median, until the cuts are enough or no interval has two rows."""
    table = np.array([[1, 0], [2, 0], [1, 0], [3, 0], [1, 1.0]])
    assert add_neutral_cuts(np.zeros(0, np.intp), table, 1).tolist() == [3]
    assert add_neutral_cuts(np.zeros(0, np.intp), table, 3).tolist() == [1, 3, 4]
    assert add_neutral_cuts(np.zeros(0, np.intp), table, 9).tolist() == [1, 2, 3, 4]
    assert add_neutral_cuts(np.array([4]), table, 2).tolist() == [2, 4]
