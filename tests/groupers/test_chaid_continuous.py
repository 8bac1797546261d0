# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""CHAID on a continuous target: F tests of moment tables (SPSS's CHAID for a
continuous dependent variable)."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import adjusted_rand_score

from partikit._kernels import _chaid as kernel
from partikit._kernels import _codes as codes
from partikit._statistics._moments import squared_errors
from partikit.groupers._chaid import (
    MEAN_POOLS,
    _pool_rare,
    best_mean_bipartition,
    chaid_grouping,
    rank_attributes,
)
from tests.naive import naive_chaid_merges, naive_f_pair_test


def _py(function):
    """The kernel itself, or its Python function when numba is disabled."""
    return getattr(function, "py_func", function)


def moment_table(x, y, n_rows, weights=None):
    """The moment table of target y by category x: (sum w, sum w y, sum w y^2)."""
    w = np.ones(len(y)) if weights is None else np.asarray(weights, float)
    return np.column_stack(
        [
            np.bincount(x, w, n_rows),
            np.bincount(x, w * y, n_rows),
            np.bincount(x, w * y * y, n_rows),
        ]
    )


def _labels(groups, n_rows):
    labels = np.empty(n_rows, dtype=np.intp)
    for k, group in enumerate(groups):
        labels[group] = k
    return labels


def _kernel_labels(table, alpha, *, ordinal=False, max_groups=None):
    state = kernel.init_state(np.ascontiguousarray(table), ordinal, codes.F_TEST)
    kernel.merge_until(
        state, -math.log(alpha), 1, -1 if max_groups is None else max_groups, False
    )
    return kernel.group_labels(state)


def _random_problem(seed, max_rows=14, max_cases=200):
    """A moment table with a few hidden means, some rounded targets (ties) and
    some integer weights."""
    rng = np.random.default_rng(seed)
    n_rows = int(rng.integers(2, max_rows + 1))
    n = int(rng.integers(n_rows, max_cases + 1))
    x = rng.integers(0, n_rows, n)
    x[:n_rows] = np.arange(n_rows)
    means = rng.normal(size=n_rows) * rng.choice([0.0, 0.3, 1.0])
    y = means[x] + rng.normal(size=n)
    if seed % 5 == 0:
        y = np.round(y)
    weights = None if seed % 3 else rng.integers(1, 4, n).astype(float)
    return moment_table(x, y, n_rows, weights), rng


# ----------------------------------------------------------------------------------
# the pair statistic
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_pair_f_matches_scipy_f_oneway_on_raw_rows(seed):
    """Check the F statistic and p-value of a pair of categories against
    scipy.stats.f_oneway on the raw rows of the two categories, degrees of
    freedom (1, n_a + n_b - 2)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(rng.normal(), rng.uniform(0.5, 2), int(rng.integers(2, 40)))
    b = rng.normal(rng.normal(), rng.uniform(0.5, 2), int(rng.integers(2, 40)))
    table = moment_table(
        np.r_[np.zeros(len(a), int), np.ones(len(b), int)], np.r_[a, b], 2
    )
    statistic, dfd = _py(kernel.f_pair_statistic)(*table[0], *table[1])
    expected = stats.f_oneway(a, b)
    assert dfd == len(a) + len(b) - 2
    assert statistic == pytest.approx(expected.statistic, rel=1e-9)
    log_p = _py(kernel.log_f_sf)(statistic, 1.0, dfd)
    assert log_p == pytest.approx(math.log(expected.pvalue), rel=1e-8, abs=1e-12)
    # the vectorised kernel and the naive twin agree with it
    many, many_dfd = kernel.f_pair_statistics(table, np.array([0]), np.array([1]))
    assert many[0] == pytest.approx(statistic, rel=1e-12)
    assert many_dfd[0] == dfd
    naive_statistic, naive_dfd, naive_log_p = naive_f_pair_test(table[0], table[1])
    assert naive_statistic == pytest.approx(statistic, rel=1e-9)
    assert naive_dfd == dfd
    assert naive_log_p == pytest.approx(log_p, rel=1e-8, abs=1e-12)


def test_pair_f_edge_cases():
    """Check pure parts: equal constants give F = 0 (p-value 1), different
    constants F = inf (p-value 0); two single cases give no test (F = 0)."""
    f = _py(kernel.f_pair_statistic)
    assert f(3.0, 6.0, 12.0, 2.0, 4.0, 8.0) == (0.0, 3.0)
    assert f(3.0, 6.0, 12.0, 2.0, 8.0, 32.0) == (math.inf, 3.0)
    assert f(1.0, 0.0, 0.0, 1.0, 100.0, 10000.0) == (0.0, 0.0)


# ----------------------------------------------------------------------------------
# the merge loop against its naive twin
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ordinal", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_merges_match_naive_twin(seed, ordinal):
    """Check the kernel's merge loop (nominal and ordinal) against the naive loop
    that re-tests every allowed pair with scipy at every step."""
    table, rng = _random_problem(seed)
    alpha = float(rng.choice([0.05, 0.3, 0.9]))
    groups, _ = naive_chaid_merges(table, alpha, ordinal=ordinal, test="f")
    np.testing.assert_array_equal(
        _kernel_labels(table, alpha, ordinal=ordinal), _labels(groups, len(table))
    )


@pytest.mark.parametrize("seed", range(4))
def test_merges_of_unequal_categories_match_naive_twin(seed):
    """Check the nominal loop on 30 categories of very different weights (so that
    the tail probability's skips, by F and by degrees of freedom, meet pairs of
    many degrees of freedom) against the naive twin, at a level that merges
    most of them."""
    rng = np.random.default_rng(seed)
    n_rows = 30
    sizes = rng.integers(1, 300, n_rows)
    x = np.repeat(np.arange(n_rows), sizes)
    y = rng.integers(0, 4, n_rows)[x] * 0.3 + rng.normal(size=len(x))
    table = moment_table(x, y, n_rows)
    for alpha in (0.01, 0.2):
        groups, _ = naive_chaid_merges(table, alpha, test="f")
        np.testing.assert_array_equal(
            _kernel_labels(table, alpha), _labels(groups, n_rows)
        )


@pytest.mark.parametrize("seed", range(20))
def test_max_groups_matches_naive_twin(seed):
    """Check that merging down to max_groups takes the naive twin's pairs."""
    table, rng = _random_problem(seed)
    max_groups = int(rng.integers(1, len(table) + 1))
    groups, _ = naive_chaid_merges(
        table, 0.9999, test="f", max_groups=max_groups, min_groups=1
    )
    np.testing.assert_array_equal(
        _kernel_labels(table, 0.9999, max_groups=max_groups),
        _labels(groups, len(table)),
    )


@pytest.mark.parametrize("seed", range(20))
def test_core_matches_naive_twin_and_scipy(seed):
    """Check chaid_grouping's groups against the naive twin and its grouped F
    test against scipy.stats.f_oneway on the raw rows."""
    rng = np.random.default_rng(seed)
    n_rows = int(rng.integers(2, 12))
    x = rng.integers(0, n_rows, 300)
    means = rng.normal(size=n_rows)
    y = means[x] + rng.normal(size=300)
    table = moment_table(x, y, n_rows)
    result = chaid_grouping(table, target_type="continuous", alpha_merge=0.05)
    groups, _ = naive_chaid_merges(table, 0.05, test="f")
    np.testing.assert_array_equal(result.group_ids, _labels(groups, n_rows))
    s = result.statistics
    assert s["test"] == "f" and "chi2" not in s
    if result.n_groups >= 2:
        parts = [y[result.group_ids[x] == k] for k in range(result.n_groups)]
        expected = stats.f_oneway(*parts)
        assert s["F"] == pytest.approx(expected.statistic, rel=1e-7)
        assert s["log10_pvalue"] == pytest.approx(math.log10(expected.pvalue), rel=1e-6)
        assert (s["dfn"], s["dfd"]) == (result.n_groups - 1, 300 - result.n_groups)
        fitted = np.array([p.mean() for p in parts])[result.group_ids[x]]
        r2 = 1 - ((y - fitted) ** 2).sum() / ((y - y.mean()) ** 2).sum()
        assert s["r2"] == pytest.approx(r2, rel=1e-9)
    # Bonferroni as for a class target: S(c, r) for a nominal predictor
    assert s["log10_adjusted_pvalue"] >= s["log10_pvalue"]


@pytest.mark.parametrize("seed", range(20))
def test_ordinal_predictor_merges_adjacent_categories_only(seed):
    """Check that an ordinal predictor's groups are runs of adjacent categories,
    even when equal means sit far apart in the order."""
    rng = np.random.default_rng(seed)
    n_rows = 12
    x = rng.integers(0, n_rows, 1500)
    # alternating means: nominal merging would join every other category
    y = (np.arange(n_rows) % 2)[x] * 2.0 + rng.normal(size=1500)
    table = moment_table(x, y, n_rows)
    ordinal = chaid_grouping(table, target_type="continuous", ordinal=True)
    assert (np.diff(ordinal.group_ids) >= 0).all()
    assert (np.diff(ordinal.group_ids) <= 1).all()
    nominal = chaid_grouping(table, target_type="continuous")
    assert nominal.n_groups < ordinal.n_groups


# ----------------------------------------------------------------------------------
# what CHAID finds
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n_categories", [100, 1000])
@pytest.mark.parametrize("seed", range(3))
def test_hidden_groups_of_different_means_are_recovered(n_categories, seed):
    """Check that 8 hidden groups of different means are recovered (adjusted
    Rand index >= 0.9), by a small alpha_merge or by max_groups=8.

    At alpha_merge=0.05 CHAID splits a hidden group of many categories: the
    categories of sample means below and above the group's mean, merged apart,
    differ by about 0.8 sqrt(m) standard errors for m categories (a selection
    effect of the pairwise tests, as for a class target), so the level must be
    far smaller than the usual one."""
    rng = np.random.default_rng(seed)
    hidden = rng.integers(0, 8, n_categories)
    x = rng.integers(0, n_categories, 50 * n_categories)
    y = hidden[x] * 4.0 + rng.normal(size=len(x))
    table = moment_table(x, y, n_categories)
    small_alpha = chaid_grouping(table, target_type="continuous", alpha_merge=1e-30)
    assert adjusted_rand_score(hidden, small_alpha.group_ids) >= 0.9
    eight = chaid_grouping(table, target_type="continuous", max_groups=8)
    assert adjusted_rand_score(hidden, eight.group_ids) >= 0.9
    assert eight.statistics["significant"]


def test_independent_target_gives_one_group_in_most_seeds():
    """Check that a target independent of a few categories gives one group in
    most seeds, and that with many categories the grouped column is not
    significant after the Bonferroni adjustment in most seeds."""
    one_group = not_significant = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        x = rng.integers(0, 5, 500)
        table = moment_table(x, rng.normal(size=500), 5)
        one_group += chaid_grouping(table, target_type="continuous").n_groups == 1
        x = rng.integers(0, 30, 3000)
        table = moment_table(x, rng.normal(size=3000), 30)
        result = chaid_grouping(table, target_type="continuous")
        not_significant += not result.statistics["significant"]
    assert one_group > 10
    assert not_significant >= 18


@pytest.mark.parametrize("ordinal", [False, True])
def test_weights_are_repeated_rows(ordinal):
    """Check that integer weights give the grouping and statistics of the rows
    repeated."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 9, 400)
    y = (x % 3) * 0.5 + rng.normal(size=400)
    w = rng.integers(1, 5, 400)
    weighted = moment_table(x, y, 9, w)
    repeated = moment_table(np.repeat(x, w), np.repeat(y, w), 9)
    a = chaid_grouping(weighted, target_type="continuous", ordinal=ordinal)
    b = chaid_grouping(repeated, target_type="continuous", ordinal=ordinal)
    np.testing.assert_array_equal(a.group_ids, b.group_ids)
    for key in ("F", "dfn", "dfd", "log10_adjusted_pvalue", "r2"):
        assert a.statistics[key] == pytest.approx(b.statistics[key], rel=1e-9)


@pytest.mark.parametrize("ordinal", [False, True])
def test_constant_target_within_categories(ordinal):
    """Check that categories with no spread within (zero within variance) do not
    crash: equal constants merge, different constants stay apart (p-value 0)."""
    x = np.repeat(np.arange(6), 5)
    y = np.array([1.0, 1.0, 1.0, 7.0, 7.0, 3.0])[x]
    result = chaid_grouping(moment_table(x, y, 6), target_type="continuous",
                            ordinal=ordinal)  # fmt: skip
    expected = [0, 0, 0, 1, 1, 2]
    np.testing.assert_array_equal(result.group_ids, expected)
    assert result.statistics["F"] == math.inf
    assert result.statistics["log10_adjusted_pvalue"] == -math.inf
    assert result.statistics["r2"] == 1.0
    # a constant target: one group, F = 0
    constant = chaid_grouping(moment_table(x, np.full(30, 2.5), 6),
                              target_type="continuous", ordinal=ordinal)  # fmt: skip
    assert constant.n_groups == 1
    assert constant.statistics["F"] == 0.0


def test_empty_rows_and_floating_row():
    """Check that empty rows get group -1 and that an ordinal predictor's
    floating row joins the group of its mean."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 7, 2000)
    x[x == 2] = 3  # row 2 empty
    means = np.array([0.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0])
    y = means[x] + rng.normal(size=2000)
    table = moment_table(x, y, 7)
    result = chaid_grouping(
        table, target_type="continuous", ordinal=True, floating_row=6
    )
    assert result.group_ids[2] == -1
    assert result.group_ids[0] == result.group_ids[1] == result.group_ids[3]
    assert result.group_ids[4] == result.group_ids[5] == result.group_ids[6]
    assert result.statistics["predictor"] == "floating"
    assert result.statistics["floating_attached"]


# ----------------------------------------------------------------------------------
# re-split, small groups, pooling
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("seed", range(30))
def test_best_mean_bipartition_against_brute_force(seed, ordered):
    """Check the re-split of a compound (the most significant binary split of a
    moment table) against every bipartition or every cut."""
    table, _ = _random_problem(seed, max_rows=8)
    table = table[table[:, 0] > 0]
    if len(table) < 2:
        return
    side, log10_p = best_mean_bipartition(table, ordered=ordered)
    m = len(table)
    if ordered:
        sides = [np.arange(m) > cut for cut in range(m - 1)]
    else:
        sides = [
            np.isin(np.arange(m), subset)
            for k in range(1, m)
            for subset in itertools.combinations(range(1, m), k)
        ]

    def sse(mask):
        return squared_errors(table[mask].sum(0)) + squared_errors(table[~mask].sum(0))

    best = min(sse(s) for s in sides)
    assert sse(side) == pytest.approx(best, rel=1e-9, abs=1e-9)
    assert 0 < side.sum() < m
    if ordered:
        assert any((side == s).all() for s in sides)
    a, b = table[~side].sum(0), table[side].sum(0)
    assert log10_p == pytest.approx(naive_f_pair_test(a, b)[2] / math.log(10),
                                    rel=1e-8, abs=1e-12)  # fmt: skip


@pytest.mark.parametrize("ordinal", [False, True])
def test_resplit_and_small_groups(ordinal):
    """Check that re-splitting and small-group absorption run on a moment table:
    re-splits keep the result a grouping whose every pair the loop would not
    merge, and every group reaches min_group_size."""
    rng = np.random.default_rng(1)
    x = rng.integers(0, 15, 3000)
    y = (x // 5) * 1.0 + rng.normal(size=3000)
    table = moment_table(x, y, 15)
    result = chaid_grouping(
        table, target_type="continuous", ordinal=ordinal, resplit=True,
        alpha_merge=0.2, alpha_resplit=0.2, min_group_size=0.1,
    )  # fmt: skip
    weights = np.bincount(result.group_ids, table[:, 0])
    assert (weights >= 0.1 * 3000).all()
    assert result.n_groups >= 3


def test_pooling_by_mean_rank():
    """Check the pooling of the rare rows of a large moment table: the kept
    rows are the heaviest, and the pools are runs of the pooled rows' means."""
    rng = np.random.default_rng(0)
    n_rows = 3000
    x = rng.integers(0, n_rows, 20000)
    y = rng.normal(size=20000) + (x % 2)
    table = moment_table(x, y, n_rows)
    table = table[table[:, 0] > 0]  # (the core pools non-empty rows)
    pooled, row_of, n_pooled, n_pools = _pool_rare(table, 1024, continuous=True)
    assert len(pooled) <= 1024 and n_pools == MEAN_POOLS
    np.testing.assert_allclose(pooled.sum(0), table.sum(0))
    counts = np.bincount(row_of, minlength=len(pooled))
    pools = np.flatnonzero(counts > 1)
    assert len(pools) == n_pools
    means = table[:, 1] / table[:, 0]
    ranges = sorted((means[row_of == p].min(), means[row_of == p].max()) for p in pools)
    assert all(ranges[k][1] <= ranges[k + 1][0] for k in range(len(ranges) - 1))
    kept = counts[row_of] == 1
    assert table[kept, 0].min() >= table[~kept, 0].max()
    result = chaid_grouping(table, target_type="continuous")
    assert result.statistics["n_pooled"] == n_pooled
    assert result.statistics["n_pools"] == n_pools


def test_rank_attributes_by_adjusted_f_pvalue():
    """Check that attributes of a continuous target rank by the adjusted p-value
    of the F test."""
    rng = np.random.default_rng(0)
    y = rng.normal(size=1000)
    strong = (y > 0).astype(int) + 2 * rng.integers(0, 2, 1000)
    noise = rng.integers(0, 4, 1000)
    results = [
        chaid_grouping(moment_table(v, y, 4), target_type="continuous").statistics
        for v in (noise, strong)
    ]
    np.testing.assert_array_equal(rank_attributes(results), [1, 0])


def test_bad_moment_tables():
    """Check that a table of the wrong width, negative weights or non-finite
    moments raise a ValueError, and so does an unknown target_type."""
    with pytest.raises(ValueError, match="3 columns"):
        chaid_grouping(np.ones((3, 2)), target_type="continuous")
    with pytest.raises(ValueError, match="non-negative weights"):
        chaid_grouping(np.array([[1.0, 1, 1], [-1, 1, 1]]), target_type="continuous")
    with pytest.raises(ValueError, match="finite"):
        chaid_grouping(
            np.array([[1.0, 1, 1], [1, np.nan, 1]]), target_type="continuous"
        )
    with pytest.raises(ValueError, match="target_type"):
        chaid_grouping(np.ones((3, 3)), target_type="binary")
