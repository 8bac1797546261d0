# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MaxCut on a continuous target: squared-error weights against their naive twin,
the cut and the squared-error split against brute force, the rank-3 running sums
and the pooled graph against the dense search, the regression registry."""

import itertools
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from partikit import MaxCutGrouper
from partikit._kernels import _max_cut as kernel
from partikit._statistics._moments import f_test
from partikit.groupers import _max_cut as max_cut_module
from partikit.groupers import edge_weights, max_cut_bipartition, split_cut_weights
from partikit.groupers._bipartition import (
    BIPARTITIONS,
    REGRESSION_BIPARTITIONS,
    sort_by_mean,
)
from tests.naive import (
    naive_best_squared_error_split,
    naive_cut_weight,
    naive_flip_pass,
    naive_greedy_cut,
    naive_improving_swaps,
    naive_local_search,
    naive_max_cut,
    naive_mean_variance,
    naive_squared_error_weight,
    naive_squared_gini_weight,
)

CONTINUOUS = "continuous"
CUT_SOLVERS = ["local_search", "exhaustive"]


def _moments(codes, y, w, n_rows):
    return np.column_stack(
        [
            np.bincount(codes, weights=w, minlength=n_rows),
            np.bincount(codes, weights=w * y, minlength=n_rows),
            np.bincount(codes, weights=w * y * y, minlength=n_rows),
        ]
    )


def _random_moment_table(rng, n_rows, empty=0.0, ties=False):
    """Moments of a few cases per category: means of both signs, frequency
    weights, some empty rows; ``ties``: means drawn from a few values."""
    sizes = rng.randint(1, 6, size=n_rows)
    codes = np.repeat(np.arange(n_rows), sizes)
    centres = rng.choice([-1.0, 0.0, 2.0], n_rows) if ties else rng.randn(n_rows) * 3
    y = centres[codes] + (0 if ties else rng.randn(len(codes)))
    w = rng.randint(1, 4, size=len(codes)).astype(float)
    table = _moments(codes, y, w, n_rows)
    table[rng.rand(n_rows) < empty] = 0.0
    return table


def _tables(seed, count, max_rows=10, **kwargs):
    rng = np.random.RandomState(seed)
    for _ in range(count):
        yield _random_moment_table(rng, rng.randint(2, max_rows), **kwargs)


def _left(side):
    return set(np.flatnonzero(np.asarray(side) == 0).tolist())


def _naive_weights(table):
    n = len(table)
    return [
        [
            naive_squared_error_weight(table[i], table[j]) if i != j else 0.0
            for j in range(n)
        ]
        for i in range(n)
    ]


def _standardised(table):
    """The weights and standardised means the running-sums kernels read."""
    sizes = table[:, 0]
    means = table[:, 1] / sizes
    centre = sizes @ means / sizes.sum()
    return np.ascontiguousarray(sizes), np.ascontiguousarray(means - centre)


# --- weights -----------------------------------------------------------------------


def test_weight_kernel_matches_naive():
    for table in _tables(0, 40, empty=0.2):
        weights = kernel.squared_error_weights(table)
        assert_allclose(weights, _naive_weights(table), rtol=1e-12, atol=1e-12)
        assert_array_equal(weights, weights.T)
        assert_array_equal(np.diag(weights), 0.0)


def test_edge_weights_are_the_raw_weights_over_the_squared_total_weight():
    for table in _tables(1, 10):
        expected = np.array(_naive_weights(table)) / table[:, 0].sum() ** 2
        assert_allclose(
            edge_weights(table, target_type=CONTINUOUS), expected, rtol=1e-12
        )


def test_cut_is_the_squared_share_variance_gain_of_the_category_means():
    # Lemma 1 of the thesis with the Gini index replaced by the variance of
    # the category means: cut(L, R) = V(S) - p_L^2 V(L) - p_R^2 V(R)
    for table in _tables(2, 20, max_rows=7):
        weights = edge_weights(table, target_type=CONTINUOUS).tolist()
        n = len(table)
        total = table[:, 0].sum()
        for size in range(1, n):
            for left in itertools.combinations(range(n), size):
                right = [i for i in range(n) if i not in left]
                p_left = table[list(left), 0].sum() / total
                expected = (
                    naive_mean_variance(table, range(n))
                    - p_left**2 * naive_mean_variance(table, left)
                    - (1 - p_left) ** 2 * naive_mean_variance(table, right)
                )
                assert math.isclose(
                    naive_cut_weight(weights, set(left)), expected, abs_tol=1e-12
                )


def test_pure_categories_of_a_binary_target_weigh_half_the_squared_gini():
    # the Gini index of two classes is twice the variance of their indicator:
    # the raw weights (pairs of cases of different values) are equal, the
    # thesis scales are 2 / N^2 and 1 / N^2
    counts = np.array([[3.0, 0.0], [0.0, 2.0], [4.0, 0.0], [0.0, 5.0]])
    moments = np.column_stack([counts.sum(axis=1), counts[:, 1], counts[:, 1]])
    for i, j in itertools.combinations(range(4), 2):
        assert naive_squared_error_weight(
            moments[i], moments[j]
        ) == naive_squared_gini_weight(counts[i], counts[j])
    assert_allclose(
        edge_weights(moments, target_type=CONTINUOUS) * 2,
        edge_weights(counts, weights="squared_gini"),
    )


def test_split_cut_weights_are_the_squared_error_decrease_over_the_total_weight():
    for table in _tables(3, 10):
        table = table[table[:, 0] > 0]
        table = table[np.argsort(table[:, 1] / table[:, 0], kind="stable")]
        lefts = np.cumsum(table, axis=0)[:-1]
        total = table.sum(axis=0)
        errors = lambda t: t[..., 2] - t[..., 1] ** 2 / t[..., 0]  # noqa: E731
        decrease = errors(total) - errors(lefts) - errors(total - lefts)
        assert_allclose(
            split_cut_weights(lefts, total, weights="squared_error"),
            decrease / total[0],
            rtol=1e-9,
            atol=1e-12,
        )


# --- the searches against their twins and brute force ---------------------------------


def test_dense_greedy_cut_matches_naive():
    for table in _tables(4, 30):
        table = table[table[:, 0] > 0]
        side = np.zeros(len(table), dtype=np.uint8)
        weights = kernel.pair_weights(table, kernel.SQUARED_ERROR, side)
        assert _left(side) == naive_greedy_cut(weights.tolist())


def test_running_sums_greedy_and_flip_pass_match_naive():
    for table in _tables(5, 60, max_rows=12):
        table = table[table[:, 0] > 0]
        sizes, z = _standardised(table)
        weights = kernel.squared_error_weights(table).tolist()
        side = np.zeros(len(table), dtype=np.uint8)
        sums = np.zeros((2, 3))
        kernel.squared_error_greedy_cut(sizes, z, side, sums)
        assert _left(side) == naive_greedy_cut(weights)
        tolerance = 1e-9
        expected, expected_flips = naive_flip_pass(weights, _left(side), tolerance)
        gains = np.zeros(len(table))
        flips = kernel.squared_error_flip_pass(
            sizes, z, side, sums, gains, tolerance, 0, len(table)
        )
        assert (_left(side), flips) == (expected, expected_flips)
        assert_allclose(sums[0], [sizes[side == 0].sum(), *(
            (sizes * z**p)[side == 0].sum() for p in (1, 2))])  # fmt: skip


def test_running_sums_swap_scan_matches_naive():
    n_with_swaps = 0
    for table in _tables(6, 200, max_rows=12):
        table = table[table[:, 0] > 0]
        n = len(table)
        sizes, z = _standardised(table)
        weights = kernel.squared_error_weights(table)
        side = np.zeros(n, dtype=np.uint8)
        sums = np.zeros((2, 3))
        kernel.squared_error_greedy_cut(sizes, z, side, sums)
        gains = np.zeros(n)
        while kernel.squared_error_flip_pass(sizes, z, side, sums, gains, 1e-9, 0, n):
            pass
        best = np.array([gains[side == s].max(initial=-np.inf) for s in (0, 1)])
        by_size = np.argsort(-sizes, kind="stable")
        reach = sizes * (np.abs(z) + np.abs(z).max()) ** 2
        i, j, _, stop = kernel.squared_error_swap_scan(
            sizes, z, side, gains, by_size, best, reach, 1e-9, 0, n, 10**9
        )
        swaps = naive_improving_swaps(weights.tolist(), _left(side), 1e-9)
        if swaps:
            n_with_swaps += 1
            assert (min(i, j), max(i, j)) in swaps
            assert i == min(min(pair) for pair in swaps)
        else:
            assert (i, j, stop) == (-1, -1, n)
    assert n_with_swaps > 0


def test_local_search_matches_naive_in_table_order():
    for table in _tables(7, 30):
        weights = _naive_weights(table[table[:, 0] > 0])
        result = max_cut_bipartition(table, target_type=CONTINUOUS, order="table")
        if result.n_groups < 2:
            continue
        greedy = naive_greedy_cut(weights)
        total = math.fsum(map(math.fsum, weights)) / 2
        left, _, _ = naive_local_search(weights, greedy, 1e-9 * total)
        rows = np.flatnonzero(table[:, 0] > 0)
        found = _left(result.group_ids[rows])
        assert found in (left, set(range(len(rows))) - left)


@pytest.mark.parametrize("ties", [False, True])
def test_solvers_against_brute_force(ties):
    for table in _tables(8, 40, max_rows=9, empty=0.1, ties=ties):
        rows = np.flatnonzero(table[:, 0] > 0)
        weights = _naive_weights(table[rows])
        scale = table[:, 0].sum() ** -2
        best_cut = naive_max_cut(weights) * scale if len(rows) > 1 else 0.0
        best_error, _ = (
            naive_best_squared_error_split(table) if len(rows) > 1 else (0, 0)
        )
        results = {
            solver: max_cut_bipartition(table, target_type=CONTINUOUS, solver=solver)
            for solver in [*CUT_SOLVERS, "sort_by_mean"]
        }
        if results["exhaustive"].n_groups < 2:
            # no informative split: every category has the same mean
            assert math.isclose(best_cut, 0.0, abs_tol=1e-12)
            assert all(r.n_groups < 2 for r in results.values())
            continue
        exhaustive = results["exhaustive"].statistics
        assert math.isclose(exhaustive["cut_weight"], best_cut, rel_tol=1e-9)
        local = results["local_search"].statistics
        assert local["cut_weight"] >= 0.5 * best_cut - 1e-12
        assert local["certified_ratio"] >= 0.5
        exact = results["sort_by_mean"].statistics
        assert math.isclose(
            exact["squared_error"], best_error, rel_tol=1e-9, abs_tol=1e-9
        )
        # each solver is best on its own objective
        for result in results.values():
            assert result.statistics["cut_weight"] <= best_cut * (1 + 1e-9)
            assert result.statistics["squared_error"] >= best_error - 1e-9


def test_cut_is_the_squared_error_decrease_plus_the_sides_spread():
    # N cut = D + (n_R B_L + n_L B_R) / N, D the decrease of the squared error
    # and B a side's squared error of its category means about its own mean
    for table in _tables(9, 20, max_rows=7):
        rows = np.flatnonzero(table[:, 0] > 0)
        if len(rows) < 2:
            continue
        weights = edge_weights(table[rows], target_type=CONTINUOUS).tolist()
        total = table[:, 0].sum()
        for size in range(1, len(rows)):
            for left in itertools.combinations(range(len(rows)), size):
                right = [i for i in range(len(rows)) if i not in left]
                sides = [table[rows[list(s)]] for s in (left, right)]
                n_l, n_r = (s[:, 0].sum() for s in sides)
                m_l, m_r = (s[:, 1].sum() / s[:, 0].sum() for s in sides)
                decrease = n_l * n_r / total * (m_l - m_r) ** 2
                b_l, b_r = (
                    naive_mean_variance(s, range(len(s))) * w
                    for s, w in zip(sides, (n_l, n_r), strict=True)
                )
                expected = decrease + (n_r * b_l + n_l * b_r) / total
                assert math.isclose(
                    total * naive_cut_weight(weights, set(left)),
                    expected,
                    rel_tol=1e-9,
                    abs_tol=1e-12,
                )


def test_maximum_cut_need_not_be_a_prefix_of_the_sorted_means():
    # means -1, 0, 1 with weights 1, 5, 1: the cut isolates the middle
    # category (squared error unchanged); sort_by_mean cuts off an end
    table = np.array([[1.0, -1.0, 2.0], [5.0, 0.0, 5.0], [1.0, 1.0, 2.0]])
    cut = max_cut_bipartition(table, target_type=CONTINUOUS, solver="exhaustive")
    assert_array_equal(cut.group_ids, [0, 1, 0])
    assert cut.statistics["squared_error_decrease"] == 0.0
    assert math.isclose(cut.statistics["cut_weight"], 10 / 49)
    exact = max_cut_bipartition(table, target_type=CONTINUOUS, solver="sort_by_mean")
    assert_array_equal(exact.group_ids, [0, 1, 1])
    assert math.isclose(exact.statistics["squared_error_decrease"], 7 / 6)
    assert exact.statistics["cut_weight"] < cut.statistics["cut_weight"]


def test_local_search_finds_the_maximum_cut_of_the_example():
    table = np.array([[1.0, -1.0, 2.0], [5.0, 0.0, 5.0], [1.0, 1.0, 2.0]])
    for order in ("data", "table"):
        result = max_cut_bipartition(table, target_type=CONTINUOUS, order=order)
        assert_array_equal(result.group_ids, [0, 1, 0])


# --- data properties -------------------------------------------------------------


@pytest.mark.parametrize("solver", [*CUT_SOLVERS, "sort_by_mean"])
def test_hidden_two_sided_mean_structure_is_recovered(solver):
    rng = np.random.RandomState(10)
    n_categories = 12
    high = rng.rand(n_categories) < 0.5
    high[:2] = [True, False]
    codes = rng.randint(n_categories, size=4000)
    y = np.where(high[codes], 3.0, -3.0) + rng.randn(len(codes))
    table = _moments(codes, y, np.ones(len(y)), n_categories)
    result = max_cut_bipartition(table, target_type=CONTINUOUS, solver=solver)
    assert_array_equal(result.group_ids, np.where(high, 0, 1))
    assert result.statistics["r2"] > 0.85
    assert result.statistics["log10_pvalue"] < -100


@pytest.mark.parametrize("solver", [*CUT_SOLVERS, "sort_by_mean"])
def test_frequency_weights_are_repeated_rows(solver):
    rng = np.random.RandomState(11)
    codes = rng.randint(8, size=60)
    y = rng.randn(60) + codes % 3
    counts = rng.randint(1, 4, size=60)
    weighted = max_cut_bipartition(
        _moments(codes, y, counts.astype(float), 8), target_type=CONTINUOUS,
        solver=solver,
    )  # fmt: skip
    repeated = max_cut_bipartition(
        _moments(
            np.repeat(codes, counts), np.repeat(y, counts), np.ones(counts.sum()), 8
        ),
        target_type=CONTINUOUS,
        solver=solver,
    )
    assert_array_equal(weighted.group_ids, repeated.group_ids)
    for key, value in weighted.statistics.items():
        if isinstance(value, float):
            assert math.isclose(value, repeated.statistics[key], rel_tol=1e-9)
        else:
            assert value == repeated.statistics[key]


@pytest.mark.parametrize("solver", [*CUT_SOLVERS, "sort_by_mean"])
def test_constant_target_within_categories(solver):
    # only the weights and means matter: the spread within a category changes
    # neither the groups nor the cut; without it the F-test is infinite
    table = np.array(
        [[2.0, 2.0, 2.0], [3.0, -6.0, 12.0], [1.0, 5.0, 25.0], [4.0, 0.0, 0.0]]
    )
    constant = max_cut_bipartition(table, target_type=CONTINUOUS, solver=solver)
    spread = table.copy()
    spread[:, 2] += [1.0, 4.0, 0.5, 2.0]
    noisy = max_cut_bipartition(spread, target_type=CONTINUOUS, solver=solver)
    assert_array_equal(constant.group_ids, noisy.group_ids)
    assert constant.statistics["cut_weight"] == noisy.statistics["cut_weight"]
    assert noisy.statistics["f_statistic"] < np.inf
    if constant.statistics["squared_error"] == 0:
        assert constant.statistics["f_statistic"] == np.inf
        assert constant.statistics["log10_pvalue"] == -np.inf
        assert constant.statistics["r2"] == 1.0


def test_one_mean_gives_one_group():
    table = np.array([[2.0, 4.0, 9.0], [3.0, 6.0, 20.0], [0.0, 0.0, 0.0]])
    for solver in [*CUT_SOLVERS, "sort_by_mean"]:
        result = max_cut_bipartition(table, target_type=CONTINUOUS, solver=solver)
        assert result.n_groups == 1
        assert_array_equal(result.group_ids, [0, 0, -1])
        assert result.statistics["cut_weight"] == 0.0
        assert result.statistics["r2"] == 0.0


def test_permuting_the_rows_permutes_the_cut():
    rng = np.random.RandomState(12)
    for table in _tables(13, 20, max_rows=30, ties=True):
        permutation = rng.permutation(len(table))
        for solver in ("local_search", "sort_by_mean"):
            result = max_cut_bipartition(table, target_type=CONTINUOUS, solver=solver)
            permuted = max_cut_bipartition(
                table[permutation], target_type=CONTINUOUS, solver=solver
            )
            same = result.group_ids[permutation]
            rows = same >= 0
            first = same[rows][0]
            assert_array_equal(
                np.where(rows, same != first, -1),
                np.where(rows, permuted.group_ids, -1),
            )


# --- many categories ---------------------------------------------------------------


def test_running_sums_search_matches_the_dense_search(monkeypatch):
    # below the dense size the same visiting order gives the same greedy cut
    # and a 1-flip local optimum at least half the maximum
    for table in _tables(14, 30, max_rows=9):
        rows = np.flatnonzero(table[:, 0] > 0)
        if len(rows) < 2:
            continue
        dense = max_cut_bipartition(table, target_type=CONTINUOUS)
        monkeypatch.setattr(max_cut_module, "MAX_DENSE_VERTICES", 1)
        sums = max_cut_bipartition(table, target_type=CONTINUOUS)
        monkeypatch.undo()
        if dense.n_groups < 2:
            assert sums.n_groups < 2
            continue
        assert sums.statistics["graph"] == "running_sums"
        assert math.isclose(
            sums.statistics["greedy_cut_weight"],
            dense.statistics["greedy_cut_weight"],
            rel_tol=1e-9,
        )
        best = naive_max_cut(_naive_weights(table[rows])) / table[:, 0].sum() ** 2
        assert sums.statistics["cut_weight"] >= 0.5 * best - 1e-12
        assert sums.statistics["cut_weight"] <= best * (1 + 1e-9)


def test_mean_cells_keep_equal_means_together_and_respect_the_bound():
    rng = np.random.RandomState(15)
    for max_cells in (2, 3, 5, 50):
        sizes = rng.randint(1, 5, size=200).astype(float)
        z = rng.choice(rng.randn(40), size=200)
        cells, moments = max_cut_module._mean_cells(sizes, z, max_cells)
        assert 2 <= len(moments) <= max_cells
        for value in np.unique(z):
            assert len(np.unique(cells[z == value])) == 1
        # cells are intervals of the sorted means
        order = np.argsort(z, kind="stable")
        assert (np.diff(cells[order]) >= 0).all()
        assert_allclose(moments[:, 0], np.bincount(cells, weights=sizes))


def test_pooled_weights_are_sums_over_the_cells():
    rng = np.random.RandomState(16)
    sizes = rng.randint(1, 5, size=30).astype(float)
    z = rng.randn(30)
    cells, moments = max_cut_module._mean_cells(sizes, z, 6)
    pooled = max_cut_module._pooled_squared_error_weights(moments)
    table = np.column_stack([sizes, sizes * z, sizes * z * z])
    weights = np.array(_naive_weights(table))
    expected = np.zeros_like(pooled)
    for a, b in itertools.permutations(range(len(moments)), 2):
        expected[a, b] = weights[np.ix_(cells == a, cells == b)].sum()
    assert_allclose(pooled, expected, rtol=1e-10, atol=1e-10)


def test_pooled_sdp_is_exact_when_the_cells_are_the_distinct_means(monkeypatch):
    pytest.importorskip("cvxpy")
    # 40 categories of 6 distinct means: the pooled graph has 6 vertices and
    # its weights are exact, so its maximum cut is the maximum cut
    rng = np.random.RandomState(17)
    codes = rng.randint(40, size=2000)
    y = rng.choice([-2.0, -1.0, 0.0, 0.5, 3.0, 4.0], size=40)[codes]
    table = _moments(codes, y, np.ones(len(y)), 40)
    monkeypatch.setattr(max_cut_module, "MAX_DENSE_VERTICES", 8)
    result = max_cut_bipartition(
        table, target_type=CONTINUOUS, solver="sdp", random_state=0
    )
    assert result.statistics["graph"] == "pooled"
    assert result.statistics["n_vertices"] == 6
    distinct = np.unique(table[:, 1] / table[:, 0], return_inverse=True)[1]
    pooled = _moments(distinct, table[:, 1] / table[:, 0], table[:, 0], 6)
    best = naive_max_cut(_naive_weights(pooled)) / table[:, 0].sum() ** 2
    assert math.isclose(result.statistics["cut_weight"], best, rel_tol=1e-9)


# --- options and the registry ------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"weights": "chi2"}, "does not apply to a continuous target"),
        ({"weights": "squared_gini"}, "does not apply to a continuous target"),
        ({"solver": "annealing"}, "solver must be one of"),
        ({"target_type": "binary"}, "target_type must be"),
    ],
)
def test_continuous_core_rejects_options(kwargs, message):
    table = np.array([[1.0, 1.0, 1.0], [1.0, 2.0, 4.0]])
    kwargs = {"target_type": CONTINUOUS, **kwargs}
    with pytest.raises(ValueError, match=message):
        max_cut_bipartition(table, **kwargs)


def test_class_tables_reject_the_continuous_options():
    table = np.array([[4.0, 0.0], [0.0, 3.0]])
    with pytest.raises(ValueError, match="does not apply to a class target"):
        max_cut_bipartition(table, weights="squared_error")
    with pytest.raises(ValueError, match="sort_by_mean"):
        max_cut_bipartition(table, solver="sort_by_mean")


def test_moment_tables_are_checked():
    with pytest.raises(ValueError, match="3 columns"):
        max_cut_bipartition(np.ones((3, 2)), target_type=CONTINUOUS)
    with pytest.raises(ValueError, match="non-negative weights"):
        max_cut_bipartition([[1.0, 1.0, 1.0], [-1.0, 1.0, 1.0]], target_type=CONTINUOUS)
    with pytest.raises(ValueError, match="limited to 20"):
        max_cut_bipartition(
            np.column_stack([np.ones(21), np.arange(21.0), np.arange(21.0) ** 2]),
            target_type=CONTINUOUS,
            solver="exhaustive",
        )


def test_negative_targets_are_split():
    table = np.array([[2.0, -8.0, 40.0], [2.0, -7.0, 30.0], [3.0, 9.0, 30.0]])
    for method in REGRESSION_BIPARTITIONS.values():
        assert_array_equal(method(table).group_ids, [0, 0, 1])


def test_regression_registry():
    assert set(REGRESSION_BIPARTITIONS) == {"sort_by_mean", "maxcut_squared_error"}
    assert not set(REGRESSION_BIPARTITIONS) & set(BIPARTITIONS)
    for table in _tables(18, 20, empty=0.2):
        exact = REGRESSION_BIPARTITIONS["sort_by_mean"](table)
        assert_array_equal(exact.group_ids, sort_by_mean(table).group_ids)
        method = REGRESSION_BIPARTITIONS["maxcut_squared_error"]
        cut = method(table)
        core = max_cut_bipartition(table, target_type=CONTINUOUS, order="table")
        assert_array_equal(cut.group_ids, core.group_ids)
        assert cut.criterion == core.statistics["cut_weight"]
        if cut.n_groups == 2:
            assert math.isclose(
                cut.statistics["squared_error"],
                core.statistics["squared_error"],
                rel_tol=1e-12,
            )
        exhaustive = method(table, solver="exhaustive")
        assert exhaustive.criterion >= cut.criterion - 1e-12


# --- the estimator -------------------------------------------------------------------


def _city_data(n=3000, seed=0):
    rng = np.random.RandomState(seed)
    city = rng.choice(list("abcdefgh"), n)
    high = np.isin(city, list("abdg"))
    y = np.where(high, 3.0, -1.0) + rng.randn(n)
    return city.reshape(-1, 1), y


@pytest.mark.parametrize("solver", [*CUT_SOLVERS, "sort_by_mean"])
def test_estimator_groups_a_continuous_target(solver):
    X, y = _city_data()
    grouper = MaxCutGrouper(solver=solver).fit(X, y)
    assert grouper.target_type_ == "continuous"
    assert not hasattr(grouper, "classes_")
    assert [group.tolist() for group in grouper.groups_[0]] == [
        ["a", "b", "d", "g"],
        ["c", "e", "f", "h"],
    ]
    statistics = grouper.statistics_[0]
    assert statistics["weights"] == "squared_error"
    # the statistics are those of the groups' moment table
    expected = f_test(grouper.table_[0])
    assert statistics["f_statistic"] == expected[0]
    assert statistics["r2"] == expected[4]
    assert statistics["log10_pvalue"] == expected[3] < -100
    # the same result as the core on the column's moment table
    codes = np.unique(X[:, 0], return_inverse=True)[1]
    core = max_cut_bipartition(
        _moments(codes, y, np.ones(len(y)), 8), target_type=CONTINUOUS, solver=solver
    )
    assert_array_equal(grouper.group_ids_[0], core.group_ids)
    assert statistics["cut_weight"] == core.statistics["cut_weight"]


def test_estimator_integer_target_is_continuous_when_told():
    X, y = _city_data()
    counts = np.round(y * 10).astype(int) + 50
    grouper = MaxCutGrouper(target_type="continuous").fit(X, counts)
    assert grouper.target_type_ == "continuous"
    assert grouper.statistics_[0]["weights"] == "squared_error"
    assert len(grouper.groups_[0][0]) == 4


def test_estimator_sample_weight_is_repeated_rows():
    X, y = _city_data(600, seed=1)
    weight = np.random.RandomState(2).randint(1, 4, size=len(y))
    weighted = MaxCutGrouper().fit(X, y, sample_weight=weight)
    repeated = MaxCutGrouper().fit(np.repeat(X, weight, axis=0), np.repeat(y, weight))
    assert_array_equal(weighted.group_ids_[0], repeated.group_ids_[0])
    for key in ("cut_weight", "r2", "f_statistic", "squared_error"):
        assert math.isclose(
            weighted.statistics_[0][key], repeated.statistics_[0][key], rel_tol=1e-9
        )


def test_estimator_refuses_weights_and_solvers_of_the_other_target():
    X, y = _city_data(200)
    with pytest.raises(ValueError, match="does not apply to a continuous target"):
        MaxCutGrouper(weights="chi2").fit(X, y)
    labels = y > 0
    with pytest.raises(ValueError, match="does not apply to a class target"):
        MaxCutGrouper(weights="squared_error").fit(X, labels)
    with pytest.raises(ValueError, match="sort_by_mean"):
        MaxCutGrouper(solver="sort_by_mean").fit(X, labels)


def test_estimator_warns_when_the_means_do_not_differ():
    X = np.array(["a", "b", "c", "a", "b", "c"]).reshape(-1, 1)
    y = np.array([1.0, 2.0, 0.5, 2.0, 1.0, 2.5])
    with pytest.warns(UserWarning, match="target means do not differ"):
        grouper = MaxCutGrouper().fit(X, y)
    assert grouper.n_groups_[0] == 1


def test_group_table_reads_a_moment_table():
    table = np.array([[1.0, -1.0, 2.0], [5.0, 0.0, 5.0], [1.0, 1.0, 2.0]])
    result = MaxCutGrouper().group_table(table, target_type=CONTINUOUS)
    assert_array_equal(result.group_ids, [0, 1, 0])
    exact = MaxCutGrouper(solver="sort_by_mean").group_table(
        table, target_type=CONTINUOUS
    )
    assert_array_equal(exact.group_ids, [0, 1, 1])
