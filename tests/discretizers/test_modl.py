# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MODL discretization (Boulle 2006): the criterion, the exact and heuristic
searches against brute force and their naive twins, the paper's properties, and
MODLDiscretizer's estimator contract."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit import column_tables
from partikit._kernels._modl_intervals import (
    blocks_cumulative,
    greedy_merges,
    optimal_intervals,
)
from partikit._statistics._modl import (
    class_columns,
    log_factorials,
    modl_discretization_cost,
)
from partikit.datasets import make_interval_target
from partikit.discretizers import (
    MDLPDiscretizer,
    MODLDiscretizer,
    boundary_points,
    modl_discretization,
)
from partikit.discretizers._blocks import block_starts
from partikit.discretizers._modl import (
    EXACT_LIMIT,
    _modl_discretization,
    post_optimize,
)
from partikit.tree import PartitionTreeClassifier
from tests.naive import (
    naive_best_modl_discretization,
    naive_block_cumulative,
    naive_modl_adjacent_merges,
    naive_modl_discretization_cost,
    naive_modl_post_optimize,
    naive_optimal_intervals,
    naive_optimal_intervals_vectorised,
)


def _random_table(rng, n_rows, n_classes, high=3, weighted=False):
    """A value table without an empty row."""
    table = rng.integers(0, high + 1, size=(n_rows, n_classes)).astype(float)
    empty = table.sum(axis=1) == 0
    table[empty, rng.integers(0, n_classes, size=empty.sum())] = 1.0
    if weighted:
        table *= rng.uniform(0.5, 2.0, size=table.shape)
    return table


def _value_table(x, y, n_classes):
    values, inverse = np.unique(x, return_inverse=True)
    table = np.zeros((len(values), n_classes))
    np.add.at(table, (inverse, y), 1.0)
    return values, table


def _blocks_and_cumulative(table):
    starts, columns, units, cumulative = blocks_cumulative(table, len(table))
    assert_array_equal(starts, block_starts(table))
    assert_array_equal(columns, class_columns(table))
    assert_array_equal(units, np.arange(len(starts) + 1))
    return starts, columns, cumulative


# --------------------------------------------------------------------------
# the criterion
# --------------------------------------------------------------------------


def test_cost_matches_the_formula(global_random_seed):
    """Check modl_discretization_cost and the core's reported cost against the
    formula computed term by term."""
    rng = np.random.default_rng(global_random_seed)
    for _ in range(50):
        n_rows = int(rng.integers(1, 12))
        table = _random_table(rng, n_rows, int(rng.integers(2, 5)), high=20)
        cuts = np.sort(rng.choice(np.arange(1, n_rows), rng.integers(0, n_rows), False))
        assert_allclose(
            modl_discretization_cost(table, cuts),
            naive_modl_discretization_cost(table, cuts),
            rtol=1e-12,
        )
        result = modl_discretization(table)
        if n_rows >= 2:
            assert_allclose(
                result.statistics["cost"],
                naive_modl_discretization_cost(table, result.cuts),
                rtol=1e-12,
            )
            assert_allclose(
                result.statistics["null_cost"],
                naive_modl_discretization_cost(table, []),
                rtol=1e-12,
            )


def test_criterion_is_the_compression_level():
    """Check criterion = 1 - cost / null_cost, 0 for one interval."""
    table = np.array([[5, 0]] * 6 + [[0, 5]] * 6, dtype=float)
    result = modl_discretization(table)
    stats = result.statistics
    assert result.n_bins == 2
    assert_allclose(result.criterion, 1 - stats["cost"] / stats["null_cost"])
    assert 0 < result.criterion < 1
    noise = np.array([[1, 1]] * 10, dtype=float)
    assert modl_discretization(noise).criterion == 0.0
    assert modl_discretization(noise).n_bins == 1


# --------------------------------------------------------------------------
# the searches
# --------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_equals_brute_force_on_small_tables(global_random_seed, weighted):
    """Check that the optimiser reaches the least cost over every subset of cuts
    on hundreds of random tables of up to 8 values, with and without max_bins."""
    rng = np.random.default_rng(global_random_seed)
    for trial in range(300):
        n_rows = int(rng.integers(2, 9))
        table = _random_table(rng, n_rows, int(rng.integers(2, 4)), weighted=weighted)
        max_bins = None if trial % 3 else int(rng.integers(1, 4))
        result = modl_discretization(table, max_bins=max_bins)
        best_cost, _ = naive_best_modl_discretization(table, max_bins)
        assert_allclose(result.statistics["cost"], best_cost, rtol=1e-10)
        assert_allclose(
            naive_modl_discretization_cost(table, result.cuts), best_cost, rtol=1e-10
        )
        assert max_bins is None or result.n_bins <= max_bins


def test_equals_brute_force_hypothesis():
    """Check the optimum against brute force on tables drawn by hypothesis."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    rows = st.lists(
        st.lists(st.integers(0, 4), min_size=2, max_size=2).filter(any),
        min_size=2,
        max_size=8,
    )

    @hypothesis.settings(max_examples=150, deadline=None)
    @hypothesis.given(rows)
    def check(rows):
        table = np.array(rows, dtype=float)
        best_cost, _ = naive_best_modl_discretization(table)
        assert_allclose(modl_discretization(table).statistics["cost"], best_cost)

    check()


def test_heuristic_never_worse_than_greedy_and_mostly_optimal(global_random_seed):
    """Check, on moderate tables searched heuristically (the exact limit forced
    to 0), that the post-optimisation never loses to the plain greedy merges and
    reaches the dynamic programme's optimum on most tables."""
    rng = np.random.default_rng(global_random_seed)
    n_optimal = 0
    n_tables = 60
    for _ in range(n_tables):
        n_rows = int(rng.integers(20, 60))
        n_classes = int(rng.integers(2, 4))
        # a step in the class probabilities, so that some cuts pay
        p = np.where(np.arange(n_rows) < n_rows // 2, 0.2, 0.7)
        counts = rng.integers(1, 6, size=n_rows)
        first = rng.binomial(counts, p)
        table = np.zeros((n_rows, n_classes))
        table[:, 0] = first
        table[:, 1] = counts - first
        if n_classes == 3:
            table[:, 2] = rng.integers(0, 2, size=n_rows)
        table = table[table.sum(axis=1) > 0]
        exact = _modl_discretization(table, exact_limit=10**6)
        greedy = _modl_discretization(table, exact_limit=0, post_optimization=False)
        optimised = _modl_discretization(table, exact_limit=0)
        assert exact.statistics["exact"] and not optimised.statistics["exact"]
        tol = 1e-9 * exact.statistics["cost"]
        assert optimised.statistics["cost"] <= greedy.statistics["cost"] + tol
        assert optimised.statistics["cost"] >= exact.statistics["cost"] - tol
        n_optimal += optimised.statistics["cost"] <= exact.statistics["cost"] + tol
    assert n_optimal >= 0.8 * n_tables


def test_exact_limit_switches_the_search():
    """Check that tables of up to EXACT_LIMIT blocks are solved exactly."""
    rng = np.random.default_rng(0)
    table = np.eye(2)[rng.integers(0, 2, size=400)]
    starts = block_starts(table)
    small = table[: starts[EXACT_LIMIT]]  # exactly EXACT_LIMIT blocks
    assert modl_discretization(small).statistics["exact"]
    assert not modl_discretization(table).statistics["exact"]


def test_max_bins_caps_the_heuristic_search():
    """Check max_bins on a table past the exact limit."""
    X, y, _ = make_interval_target(5000, n_classes=3, random_state=0)
    _, table = _value_table(X[:, 0], y, 3)
    free = modl_discretization(table)
    assert free.n_bins > 3
    for max_bins in (1, 2, 3):
        capped = modl_discretization(table, max_bins=max_bins)
        assert capped.n_bins <= max_bins
        assert capped.statistics["cost"] >= free.statistics["cost"]


def test_granules_past_the_granule_limit(global_random_seed):
    """Check the search on granules (the granule limit forced low): the cuts
    stay on boundary points, the refinement on the blocks finds the cuts of the
    search on every block here, and noise still gives one interval."""
    X, y, _ = make_interval_target(20_000, n_classes=3, random_state=global_random_seed)
    _, table = _value_table(np.round(X[:, 0], 4), y, 3)
    full = _modl_discretization(table)
    for granule_limit in (64, 1024):
        granular = _modl_discretization(table, granule_limit=granule_limit)
        assert not granular.statistics["exact"]
        assert granular.statistics["n_units"] == full.statistics["n_units"]
        assert 0 < granular.statistics["n_granules"] <= granule_limit
        assert full.statistics["n_granules"] == 0
        assert boundary_points(table)[granular.cuts - 1].all()
        assert granular.n_bins == full.n_bins
        assert_allclose(granular.statistics["cost"], full.statistics["cost"], rtol=1e-4)
        assert_allclose(
            granular.statistics["cost"],
            naive_modl_discretization_cost(table, granular.cuts),
            rtol=1e-10,
        )
    rng = np.random.default_rng(global_random_seed)
    x = rng.normal(size=5000)
    _, noise = _value_table(x, rng.integers(0, 3, size=5000), 3)
    assert _modl_discretization(noise, granule_limit=64).n_bins == 1


@pytest.mark.parametrize("max_bins", [0, -1, 2.5, True, "3"])
def test_core_rejects_a_bad_max_bins(max_bins):
    with pytest.raises(ValueError, match="max_bins"):
        modl_discretization(np.eye(2), max_bins=max_bins)


# --------------------------------------------------------------------------
# the kernels against their naive twins
# --------------------------------------------------------------------------


def test_block_cumulative_matches_naive(global_random_seed):
    rng = np.random.default_rng(global_random_seed)
    for _ in range(20):
        table = _random_table(rng, int(rng.integers(1, 30)), 4, high=2)
        table[:, 2] = 0.0  # an absent class is left out
        table[table.sum(axis=1) == 0, 3] = 1.0
        starts, columns, cumulative = _blocks_and_cumulative(table)
        assert 2 not in columns
        assert_allclose(cumulative, naive_block_cumulative(table, starts, columns))


def test_blocks_cumulative_granules(global_random_seed):
    """Check the granules of the blocks kernel against their definition: the
    first block before which the weight reaches k / G of the total."""
    rng = np.random.default_rng(global_random_seed)
    for _ in range(20):
        table = _random_table(rng, int(rng.integers(20, 200)), 3, high=2)
        starts = block_starts(table)
        m = len(starts)
        n_granules = int(rng.integers(2, m + 2))
        got_starts, columns, units, cum = blocks_cumulative(table, n_granules)
        assert_array_equal(got_starts, starts)
        weight = np.append(np.cumsum(table.sum(axis=1))[starts[1:] - 1], table.sum())
        weight = np.concatenate([[0.0], weight])
        if m > n_granules:
            targets = weight[m] * np.arange(1, n_granules) / n_granules
            inner = np.searchsorted(weight, targets, side="left")
            inner = inner[(inner > 0) & (inner < m)]
            expected = np.unique(np.concatenate([[0], inner, [m]]))
        else:
            expected = np.arange(m + 1)
        assert_array_equal(units, expected)
        rows = np.append(starts[units[:-1]], len(table))
        assert_allclose(cum, naive_block_cumulative(table, rows[:-1], columns))


def test_optimal_intervals_matches_naive(global_random_seed):
    rng = np.random.default_rng(global_random_seed)
    for _ in range(30):
        table = _random_table(rng, int(rng.integers(1, 9)), 3, high=4)
        _, columns, cumulative = _blocks_and_cumulative(table)
        n = table.sum()
        factorials = log_factorials(n, len(columns))
        max_intervals = int(rng.integers(1, 10))
        best, start = optimal_intervals(
            cumulative, float(len(columns)), factorials, max_intervals
        )
        assert_allclose(best, naive_optimal_intervals(cumulative, max_intervals))
        # the vectorised twin: the same floats and starts
        twin = naive_optimal_intervals_vectorised(
            cumulative, float(len(columns)), factorials, max_intervals
        )
        assert_array_equal(twin[0], best)
        assert_array_equal(twin[1], start)


def test_greedy_merges_match_naive(global_random_seed):
    rng = np.random.default_rng(global_random_seed)
    n_same = 0
    for _ in range(30):
        table = _random_table(rng, int(rng.integers(1, 25)), 3, high=5)
        _, columns, cumulative = _blocks_and_cumulative(table)
        factorials = log_factorials(table.sum(), len(columns))
        absorbed, sums = greedy_merges(cumulative, float(len(columns)), factorials)
        naive_absorbed, naive_sums = naive_modl_adjacent_merges(cumulative)
        # merges of equal cost (equal pairs of blocks) may be taken in another
        # order, as floating-point sums round: the costs of the path agree
        assert_allclose(sums, naive_sums, rtol=1e-10)
        assert_array_equal(np.sort(absorbed), np.sort(naive_absorbed))
        n_same += np.array_equal(absorbed, naive_absorbed)
    assert n_same >= 20


def test_post_optimize_matches_naive(global_random_seed):
    """Check the cached moves against every move recomputed from scratch, from
    random starting discretizations."""
    rng = np.random.default_rng(global_random_seed)
    n_same = 0
    n_tables = 40
    for _ in range(n_tables):
        table = _random_table(rng, int(rng.integers(3, 25)), 2, high=6)
        _, columns, cumulative = _blocks_and_cumulative(table)
        m = len(cumulative) - 1
        inner = np.sort(rng.choice(np.arange(1, m), rng.integers(0, m), False))
        bounds = np.concatenate([[0], inner, [m]]).astype(np.int64)
        max_intervals = int(rng.integers(len(bounds) - 1, m + 1))
        factorials = log_factorials(table.sum(), len(columns))
        got, _ = post_optimize(
            cumulative, bounds, float(len(columns)), factorials, max_intervals
        )
        expected, _ = naive_modl_post_optimize(cumulative, bounds, max_intervals)
        n_same += np.array_equal(got, expected)
        assert len(got) - 1 <= max_intervals
    # near-ties of floating-point sums may order two moves differently
    assert n_same >= 0.9 * n_tables


# --------------------------------------------------------------------------
# the paper's properties
# --------------------------------------------------------------------------


def test_noise_columns_stay_one_interval():
    """Check that at least 19 of 20 columns independent of the class (1,000 to
    10,000 rows, 2 to 5 classes) get one interval."""
    rng = np.random.default_rng(0)
    n_one = 0
    for k in range(20):
        n = int(rng.integers(1000, 10001))
        n_classes = 2 + k % 4
        x = rng.normal(size=n) if k % 2 else np.round(rng.uniform(0, 100, n), 1)
        y = rng.integers(0, n_classes, size=n)
        _, table = _value_table(x, y, n_classes)
        n_one += modl_discretization(table).n_bins == 1
    assert n_one >= 19


def test_no_cut_between_two_values_of_the_same_class(global_random_seed):
    """Check that every cut is a boundary point: never between two values
    holding one and the same class."""
    rng = np.random.default_rng(global_random_seed)
    X, y, _ = make_interval_target(3000, n_classes=3, random_state=global_random_seed)
    x = np.round(X[:, 0], 3)
    _, table = _value_table(x, y, 3)
    cuts = modl_discretization(table).cuts
    assert len(cuts) > 0
    assert boundary_points(table)[cuts - 1].all()
    for _ in range(50):
        small = _random_table(rng, 8, 2, high=2)
        cuts = modl_discretization(small).cuts
        assert boundary_points(small)[cuts - 1].all()


def test_recovers_hidden_cut_points():
    """Check that the hidden cuts of a synthetic column are all found, as MDLP
    finds them."""
    X, y, true_cuts = make_interval_target(20_000, random_state=0)
    disc = MODLDiscretizer().fit(X, y)
    found = disc.bin_edges_[0][1:-1]
    assert len(found) == len(true_cuts)
    assert_allclose(found, true_cuts, atol=0.01)
    mdlp = MDLPDiscretizer().fit(X, y).bin_edges_[0][1:-1]
    assert len(mdlp) == len(found)


def test_more_data_finds_finer_patterns():
    """Check that the number of intervals of a fixed pattern grows with n up to
    the pattern's (the criterion trades fit for complexity)."""
    counts = []
    for n in (50, 500, 20_000):
        X, y, _ = make_interval_target(n, random_state=1)
        counts.append(int(MODLDiscretizer().fit(X, y).n_bins_[0]))
    assert counts == sorted(counts)
    assert counts[-1] == 8


# --------------------------------------------------------------------------
# the estimator
# --------------------------------------------------------------------------


def _step_data(n=3000, seed=0):
    rng = np.random.RandomState(seed)
    x = np.round(rng.uniform(0, 10, size=n), 2)
    y = ((x > 3) & (x <= 7)).astype(int)
    return x.reshape(-1, 1), y


def test_fit_transform_and_statistics():
    X, y = _step_data()
    disc = MODLDiscretizer().fit(X, y)
    assert_allclose(disc.bin_edges_[0][1:-1], [3.005, 7.005], atol=0.01)
    codes = disc.transform(X).ravel()
    assert_array_equal(codes, (X[:, 0] > 3.005).astype(int) + (X[:, 0] > 7.005))
    stats = disc.statistics_[0]
    assert {"cost", "null_cost", "n_units", "n_granules", "exact", "n_moves"} <= set(
        stats
    )
    assert stats["cost"] < stats["null_cost"]


def test_max_bins_parameter():
    X, y, _ = make_interval_target(5000, random_state=0)
    assert MODLDiscretizer(max_bins=3).fit(X, y).n_bins_[0] <= 3
    with pytest.raises(ValueError, match="max_bins"):
        MODLDiscretizer(max_bins=0).fit(X, y)


@pytest.mark.parametrize("encode", ["onehot", "onehot-dense", "woe"])
def test_encodings(encode):
    X, y = _step_data()
    ordinal = MODLDiscretizer().fit(X, y).transform(X).ravel()
    out = MODLDiscretizer(encode=encode).fit(X, y).transform(X)
    if encode == "woe":
        assert out.shape == X.shape
        # one weight of evidence per bin
        for code in range(3):
            assert len(np.unique(out[ordinal == code])) == 1
    else:
        dense = out.toarray() if hasattr(out, "toarray") else out
        assert_array_equal(dense.argmax(axis=1), ordinal)


def test_partial_fit_equals_fit_on_the_chunks():
    X, y, _ = make_interval_target(4000, n_classes=3, random_state=2)
    X = np.round(X, 3)
    disc = MODLDiscretizer()
    for chunk in np.array_split(np.arange(len(y)), 4):
        disc.partial_fit(X[chunk], y[chunk], classes=[0, 1, 2])
    full = MODLDiscretizer().fit(X, y)
    assert_allclose(disc.bin_edges_[0], full.bin_edges_[0])


def test_fit_tables_equals_fit():
    X, y, _ = make_interval_target(3000, n_classes=3, random_state=3)
    tables = column_tables(X, y)
    assert_allclose(
        MODLDiscretizer().fit_tables(tables).bin_edges_[0],
        MODLDiscretizer().fit(X, y).bin_edges_[0],
    )


def test_cut_table_is_the_core():
    X, y, _ = make_interval_target(3000, n_classes=3, random_state=4)
    _, table = _value_table(X[:, 0], y, 3)
    assert_array_equal(
        MODLDiscretizer(max_bins=4).cut_table(table).cuts,
        modl_discretization(table, max_bins=4).cuts,
    )


def test_tree_numeric_split_modl():
    """Check that the tree validates and fits numeric_split="modl", and that a
    MODLDiscretizer instance works as a splitter too."""
    X, y, _ = make_interval_target(
        3000, n_classes=3, n_noise_features=2, random_state=5
    )
    tree = PartitionTreeClassifier(numeric_split="modl", max_depth=3).fit(X, y)
    assert tree.score(X, y) > 0.5
    tree = PartitionTreeClassifier(numeric_split=MODLDiscretizer(), max_depth=2)
    assert tree.fit(X, y).score(X, y) > 0.5
    with pytest.raises(ValueError, match="numeric_split"):
        PartitionTreeClassifier(numeric_split="mod").fit(X, y)
