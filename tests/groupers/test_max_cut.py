# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MaxCutGrouper and its core: kernels against naive twins, the approximation
guarantee against brute force, Lemma 1 of the thesis, the estimator contract."""

import itertools
import math
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from partikit import MaxCutGrouper
from partikit._kernels import _max_cut as kernel
from partikit.datasets import make_grouped_categorical, make_random_table
from partikit.groupers import _max_cut as max_cut_module
from partikit.groupers import edge_weights, max_cut_bipartition
from tests.naive import (
    naive_chi2_weight,
    naive_cut_weight,
    naive_flip_pass,
    naive_greedy_cut,
    naive_improving_swaps,
    naive_impurity,
    naive_local_search,
    naive_max_cut,
    naive_profile_cells,
    naive_squared_gini_weight,
)

#: ALGORITHMS.md section 4.7: 4 values, 3 classes, N = 17.
EXAMPLE = np.array([[4, 0, 1], [0, 3, 1], [2, 2, 0], [1, 0, 3]], dtype=float)
WEIGHTS = ["squared_gini", "chi2"]


def _random_tables(seed, count, max_values=11, max_classes=6):
    rng = np.random.RandomState(seed)
    for _ in range(count):
        shape = rng.randint(2, max_values), rng.randint(2, max_classes)
        yield make_random_table(*shape, random_state=rng)


def _left(side):
    return set(np.flatnonzero(np.asarray(side) == 0).tolist())


# --- kernels against their naive twins -------------------------------------------


def test_weight_kernels_match_naive():
    for table in _random_tables(0, 30):
        squared = kernel.squared_gini_weights(table)
        chi2 = kernel.chi2_weights(table)
        for i in range(len(table)):
            assert squared[i, i] == 0 and chi2[i, i] == 0
            for j in range(len(table)):
                if i != j:
                    expected = naive_squared_gini_weight(table[i], table[j])
                    assert squared[i, j] == expected
                    assert math.isclose(
                        chi2[i, j],
                        naive_chi2_weight(table[i], table[j]),
                        rel_tol=1e-12,
                        abs_tol=1e-12,
                    )


def _tables_with_empty_rows_and_classes(seed, count):
    rng = np.random.RandomState(seed)
    for k in range(count):
        n, n_classes = rng.randint(1, 14), rng.randint(1, 6)
        table = rng.poisson(rng.choice([0.5, 2.0, 8.0]), size=(n, n_classes))
        table = table.astype(float)
        table[rng.rand(n) < 0.2] = 0
        table[:, rng.rand(n_classes) < 0.2] = 0
        if k % 4 == 3:  # fractional counts (sample weights)
            table *= rng.rand(n, n_classes)
        yield table


def test_pair_weights_match_naive_with_empty_rows_and_classes():
    """The class-major kernels: each weight against its naive twin (a pair with
    an empty row weighs 0), symmetric with a zero diagonal, and the GreedyCut
    they make on the way identical to greedy_cut on the finished matrix."""
    kinds = [
        (kernel.SQUARED_GINI, naive_squared_gini_weight),
        (kernel.CHI2, naive_chi2_weight),
    ]
    for table in _tables_with_empty_rows_and_classes(11, 400):
        integer = bool(np.all(table == np.round(table)))
        for kind, naive in kinds:
            side = np.full(len(table), 7, dtype=np.uint8)
            weights = kernel.pair_weights(table, kind, side)
            assert_array_equal(weights, weights.T)
            assert (np.diag(weights) == 0).all()
            for i, j in itertools.combinations(range(len(table)), 2):
                expected = naive(table[i], table[j])
                if kind == kernel.SQUARED_GINI and integer:
                    assert weights[i, j] == expected
                else:
                    assert math.isclose(
                        weights[i, j], expected, rel_tol=1e-12, abs_tol=1e-12
                    )
            assert_array_equal(side, kernel.greedy_cut(weights))
            if kind == kernel.SQUARED_GINI and integer and len(table) > 0:
                assert _left(side) == naive_greedy_cut(weights.tolist())
            assert_array_equal(weights, _WEIGHT_FUNCTIONS[kind](table))
            # flip gains, summed column by column: each equal to its row's
            # plain sum in row order, and to the naive difference of two cuts
            gains = kernel.flip_gains(weights, side)
            left = _left(side)
            for v in range(len(table)):
                plain = 0.0
                for u in range(len(table)):
                    plain += weights[v, u] if side[u] == side[v] else -weights[v, u]
                assert gains[v] == plain
                naive_gain = naive_cut_weight(weights, left ^ {v}) - naive_cut_weight(
                    weights, left
                )
                assert math.isclose(gains[v], naive_gain, rel_tol=1e-9, abs_tol=1e-9)


_WEIGHT_FUNCTIONS = {
    kernel.SQUARED_GINI: kernel.squared_gini_weights,
    kernel.CHI2: kernel.chi2_weights,
}


def test_chi2_kernel_weighs_rows_of_one_profile_exactly_zero():
    """e = A_ix n_j - A_jx n_i is exact for integer counts: proportional rows
    weigh 0, not rounding noise that a cut would then separate."""
    table = np.array([[1, 2, 0], [3, 6, 0], [7, 14, 0], [2, 4, 0], [5, 10, 0]], float)
    assert (kernel.chi2_weights(table) == 0).all()
    assert max_cut_bipartition(table).n_groups == 1
    mixed = np.vstack([table, [[4.0, 1.0, 3.0]]])
    weights = kernel.chi2_weights(mixed)
    assert (weights[:5, :5] == 0).all() and (weights[5, :5] > 0).all()


def test_worked_example_weights():
    """ALGORITHMS.md 4.7: raw squared-Gini weights and chi2 weights (/3)."""
    raw = kernel.squared_gini_weights(EXAMPLE)
    expected = {(0, 1): 19, (0, 2): 12, (0, 3): 13, (1, 2): 10, (1, 3): 13, (2, 3): 14}
    chi2 = {(0, 1): 2.325, (0, 2): 1.2, (0, 3): 0.9075, (1, 2): 1.0667,
            (1, 3): 1.6667, (2, 3): 1.7778}  # fmt: skip
    weights = edge_weights(EXAMPLE, "chi2")
    for (i, j), value in expected.items():
        assert raw[i, j] == value
        assert weights[i, j] == pytest.approx(chi2[i, j], abs=1e-4)
    assert_allclose(edge_weights(EXAMPLE, "squared_gini"), 2 * raw / 17**2)


def test_worked_example_max_cut():
    """Best cut {1, 2} | {0, 3} of weight 0.4014, found by the greedy step."""
    for solver in ("local_search", "exhaustive"):
        result = max_cut_bipartition(EXAMPLE, weights="squared_gini", solver=solver)
        assert_array_equal(result.group_ids, [0, 1, 1, 0])
        assert result.statistics["cut_weight"] == pytest.approx(0.4014, abs=1e-4)
    # in the thesis's order, GreedyCut finds it; visited by degree (0, 1, 3, 2),
    # GreedyCut cuts 56 / 58 of it and one swap finds it
    result = max_cut_bipartition(EXAMPLE, weights="squared_gini", order="table")
    assert result.statistics["greedy_cut_weight"] == result.statistics["cut_weight"]
    assert result.statistics["n_flips"] == result.statistics["n_swaps"] == 0
    stats = max_cut_bipartition(EXAMPLE, weights="squared_gini").statistics
    assert stats["greedy_cut_weight"] == pytest.approx(2 * 56 / 17**2)
    assert (stats["n_flips"], stats["n_swaps"]) == (0, 1)


def test_greedy_and_local_search_match_naive():
    # integer squared-Gini weights: sums are exact, decisions identical
    for table in _random_tables(1, 40, max_values=13):
        weights = kernel.squared_gini_weights(table)
        side = kernel.greedy_cut(weights)
        assert _left(side) == naive_greedy_cut(weights.tolist())
        expected, flips, swaps = naive_local_search(weights.tolist(), _left(side), 0.5)
        moves = kernel.local_search(weights, side, 0.5, 10_000)
        assert _left(side) == expected
        assert moves == (flips, swaps)
        assert kernel.cut_weight(weights, side) == naive_cut_weight(weights, expected)


def test_local_search_swaps_when_no_flip_gains():
    """{0, 3} | {1, 2} (cut 6) gains nothing by one flip; swapping 0 and 1 gives
    the maximum cut {1, 3} | {0, 2} (cut 10)."""
    weights = np.array(
        [[0, 3, 0, 1], [3, 0, 3, 0], [0, 3, 0, 3], [1, 0, 3, 0]], dtype=float
    )
    side = np.array([0, 1, 1, 0], dtype=np.uint8)
    assert kernel.cut_weight(weights, side) == 6
    assert kernel.local_search(weights, side, 1e-9, 100) == (0, 1)
    assert_array_equal(side, [1, 0, 1, 0])
    assert kernel.cut_weight(weights, side) == naive_max_cut(weights) == 10


def test_exhaustive_kernel_is_the_brute_force_maximum():
    for table in _random_tables(2, 30, max_values=9):
        for make in (kernel.squared_gini_weights, kernel.chi2_weights):
            weights = make(table)
            side, value = kernel.exhaustive_max_cut(weights)
            assert math.isclose(value, naive_max_cut(weights), rel_tol=1e-12)
            assert math.isclose(
                value, naive_cut_weight(weights, _left(side)), rel_tol=1e-12
            )


def test_hyperplane_rounding_keeps_the_best_normal():
    weights = kernel.squared_gini_weights(EXAMPLE)
    vectors = np.eye(4)
    normals = np.array([[1.0, 1, 1, 1], [1.0, -1, -1, 1], [-1.0, 1, 1, 1]])
    side, value = kernel.best_hyperplane_cut(weights, vectors, normals)
    assert_array_equal(side, [1, 0, 0, 1])
    assert value == naive_cut_weight(weights, {1, 2})


# --- the approximation guarantee against brute force -------------------------------


@pytest.mark.parametrize("weights", WEIGHTS)
def test_local_search_cut_is_at_least_half_of_the_optimum(weights):
    """GL on thesis tables (entries 0..7, n <= 10): never below 1/2 of the maximum
    cut, and equal to it in the large majority of tables."""
    n_tables = n_optimal = 0
    for table in _random_tables(3, 300):
        greedy = max_cut_bipartition(table, weights=weights).statistics
        best = max_cut_bipartition(table, weights=weights, solver="exhaustive")
        optimum = best.statistics["cut_weight"]
        if optimum == 0:  # chi2 weights of rows with identical profiles
            continue
        n_tables += 1
        assert greedy["cut_weight"] >= 0.5 * optimum
        assert greedy["cut_weight"] >= 0.5 * greedy["total_weight"] * (1 - 1e-12)
        ratio = greedy["cut_weight"] / optimum
        assert 0.5 <= greedy["certified_ratio"] <= ratio + 1e-12
        n_optimal += greedy["cut_weight"] >= optimum * (1 - 1e-9)
    assert n_optimal >= 0.85 * n_tables


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.lists(st.integers(0, 9), min_size=3, max_size=3),
                min_size=n,
                max_size=n,
            ),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    )
)
def test_lemma_1_squared_gini_cut_is_the_squared_weight_gini_gain(data):
    """Thesis Lemma 1: w(S_L) = Gini(S) - p_L^2 Gini(S_L) - p_R^2 Gini(S_R)."""
    rows, in_left = data
    table = np.array(rows, dtype=float)
    n = table.sum()
    if n == 0:
        return
    left = {i for i, flag in enumerate(in_left) if flag}
    cut = naive_cut_weight(edge_weights(table, "squared_gini"), left)
    lc = table[sorted(left)].sum(axis=0)
    rc = table.sum(axis=0) - lc
    gain = (
        naive_impurity(table.sum(axis=0), "gini")
        - (lc.sum() / n) ** 2 * naive_impurity(lc, "gini")
        - (rc.sum() / n) ** 2 * naive_impurity(rc, "gini")
    )
    assert cut == pytest.approx(gain, abs=1e-12)


# --- Goemans-Williamson -------------------------------------------------------------


@pytest.mark.parametrize("weights", WEIGHTS)
def test_sdp_solver_is_reproducible_and_near_optimal(weights):
    pytest.importorskip("cvxpy")
    n_tables = n_optimal = 0
    for table in _random_tables(4, 25, max_values=9):
        options = {"weights": weights, "solver": "sdp", "random_state": 0}
        result = max_cut_bipartition(table, **options)
        again = max_cut_bipartition(table, **options)
        assert_array_equal(result.group_ids, again.group_ids)
        best = max_cut_bipartition(table, weights=weights, solver="exhaustive")
        optimum = best.statistics["cut_weight"]
        if optimum == 0:
            continue
        n_tables += 1
        assert result.statistics["cut_weight"] >= 0.5 * optimum
        n_optimal += result.statistics["cut_weight"] >= optimum * (1 - 1e-9)
    assert n_optimal >= 0.8 * n_tables


def test_sdp_without_cvxpy_raises_a_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cvxpy", None)
    with pytest.raises(ImportError, match="pip install cvxpy"):
        max_cut_bipartition(EXAMPLE, solver="sdp")


# --- the core's edge cases ------------------------------------------------------------


@pytest.mark.parametrize(
    "table, n_groups",
    [
        ([[3.0, 1.0]], 1),  # one category
        ([[3.0, 0.0], [2.0, 0.0]], 1),  # one class
        ([[2.0, 1.0], [4.0, 2.0]], 1),  # identical profiles (chi2 weights all 0)
        (np.zeros((0, 2)), 0),
    ],
)
def test_no_informative_split_gives_one_group(table, n_groups):
    result = max_cut_bipartition(table)
    assert result.n_groups == n_groups
    assert (result.group_ids == 0).all()


def test_empty_rows_are_left_out():
    table = np.array([[4, 0, 1], [0, 0, 0], [0, 3, 1], [2, 2, 0], [1, 0, 3]], float)
    result = max_cut_bipartition(table, weights="squared_gini")
    assert_array_equal(result.group_ids, [0, -1, 1, 1, 0])
    assert result.statistics["n_categories"] == 4


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"weights": "gini"}, "weights must be one of"),
        ({"solver": "annealing"}, "solver must be one of"),
        ({"order": "sorted"}, "order must be one of"),
    ],
)
def test_core_rejects_unknown_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        max_cut_bipartition(EXAMPLE, **kwargs)


def test_exhaustive_solver_is_limited_to_twenty_categories():
    table = make_random_table(21, 3, random_state=0)
    with pytest.raises(ValueError, match="limited to 20 categories"):
        max_cut_bipartition(table, solver="exhaustive")


def test_statistics_describe_the_split():
    result = max_cut_bipartition(EXAMPLE, weights="squared_gini")
    stats = result.statistics
    assert stats["gini"] == pytest.approx(0.5114, abs=1e-4)
    assert stats["total_weight"] == pytest.approx(2 * 81 / 17**2)
    assert stats["certified_ratio"] == pytest.approx(
        stats["cut_weight"] / stats["total_weight"]
    )
    assert stats["dof"] == 2 and stats["log10_pvalue"] < 0


# --- the estimator -------------------------------------------------------------------


def _hidden_two_groups(n=4000, seed=0):
    X, y, hidden = make_grouped_categorical(
        n, n_categories=30, n_classes=2, n_groups=2, signal=0.6, random_state=seed
    )
    return X, y, hidden


@pytest.mark.parametrize("weights", WEIGHTS)
def test_grouper_recovers_two_hidden_groups(weights):
    X, y, hidden = _hidden_two_groups()
    grouper = MaxCutGrouper(weights=weights).fit(X, y)
    assert grouper.n_groups_[0] == 2
    found = pd.Series(grouper.group_ids_[0], index=grouper.categories_[0])
    crosstab = pd.crosstab(found, hidden[found.index])
    assert (crosstab.values.max(axis=1) == crosstab.values.sum(axis=1)).all()


def test_unknown_categories_go_to_the_heavier_group():
    X = np.array(["a"] * 60 + ["b"] * 30 + ["c"] * 10).reshape(-1, 1)
    y = np.array([0] * 50 + [1] * 10 + [1] * 30 + [1] * 10)
    grouper = MaxCutGrouper().fit(X, y)
    heavy = int(np.argmax(grouper.table_[0].sum(axis=1)))
    assert grouper.default_group_[0] == heavy
    assert grouper.transform([["zzz"]])[0, 0] == heavy
    with pytest.raises(ValueError, match="zzz"):
        MaxCutGrouper(handle_unknown="error").fit(X, y).transform([["zzz"]])


def test_single_category_column_warns_and_gives_one_group():
    X = np.array([["a"]] * 20)
    y = np.arange(20) % 2
    with pytest.warns(UserWarning, match="single category"):
        grouper = MaxCutGrouper().fit(X, y)
    assert grouper.n_groups_[0] == 1


def test_categories_with_one_profile_warn_and_give_one_group():
    X = np.array(["a", "a", "b", "b", "c", "c"] * 10).reshape(-1, 1)
    y = np.array([0, 1] * 30)
    with pytest.warns(UserWarning, match="no informative split") as record:
        grouper = MaxCutGrouper(n_jobs=2).fit(X, y)
    assert grouper.n_groups_[0] == 1
    # raised in the caller's thread, pointing at the caller's line
    assert record[0].filename == __file__


def test_single_class_target_raises():
    with pytest.raises(ValueError, match="single class"):
        MaxCutGrouper().fit(np.array([["a"], ["b"]]), [1, 1])


def test_random_state_is_resolved_once_per_fit():
    pytest.importorskip("cvxpy")
    X, y, _ = make_grouped_categorical(
        2000, n_categories=12, n_noise_features=2, random_state=1
    )
    fits = [
        MaxCutGrouper(solver="sdp", random_state=7, n_jobs=n_jobs).fit(X, y)
        for n_jobs in (1, 2)
    ]
    for a, b in zip(fits[0].group_ids_, fits[1].group_ids_, strict=True):
        assert_array_equal(a, b)


def test_statistics_are_kept_per_column():
    X, y, _ = make_grouped_categorical(3000, n_noise_features=1, random_state=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grouper = MaxCutGrouper().fit(X, y)
    signal, noise = grouper.statistics_
    assert signal["certified_ratio"] >= 0.5 and noise["certified_ratio"] >= 0.5
    assert signal["log10_pvalue"] < noise["log10_pvalue"]
    assert set(grouper.n_groups_) == {2}


# --- past MAX_DENSE_VERTICES: running sums and pooled graphs -----------------------


def _sums(table, side):
    side = np.asarray(side)
    totals = table.sum(axis=1)
    side_totals = np.array([totals[side == 0].sum(), totals[side == 1].sum()])
    side_counts = np.stack([table[side == 0].sum(axis=0), table[side == 1].sum(axis=0)])
    return totals, side_totals, side_counts


def _flip_optimum(table, side, tolerance):
    """Running-sums flip passes until one flips nothing; returns the sums and
    the gains, exact at that point."""
    totals, side_totals, side_counts = _sums(table, side)
    gains = np.zeros(len(table))
    while kernel.gini_flip_pass(
        table, totals, side, side_totals, side_counts, gains, tolerance, 0, len(table)
    ):
        pass
    return totals, side_totals, side_counts, gains


def test_running_sums_greedy_kernel_matches_naive():
    for table in _random_tables(5, 40, max_values=13):
        weights = kernel.squared_gini_weights(table)
        totals = table.sum(axis=1)
        side_totals, side_counts = np.zeros(2), np.zeros((2, table.shape[1]))
        side = np.zeros(len(table), dtype=np.uint8)
        kernel.gini_greedy_cut(table, totals, side, side_totals, side_counts)
        assert _left(side) == naive_greedy_cut(weights.tolist())
        assert_array_equal(side_totals, _sums(table, side)[1])
        assert_array_equal(side_counts, _sums(table, side)[2])


def test_running_sums_flip_pass_kernel_matches_naive():
    rng = np.random.RandomState(6)
    for table in _random_tables(6, 40, max_values=13):
        weights = kernel.squared_gini_weights(table)
        side = rng.randint(0, 2, len(table)).astype(np.uint8)
        expected, flips = naive_flip_pass(weights.tolist(), _left(side), 0.5)
        totals, side_totals, side_counts = _sums(table, side)
        gains = np.zeros(len(table))
        moved = kernel.gini_flip_pass(
            table, totals, side, side_totals, side_counts, gains, 0.5, 0, len(table)
        )
        assert (moved, _left(side)) == (flips, expected)
        assert_array_equal(side_counts, _sums(table, side)[2])
        # once a pass flips nothing, the gains are those of the matrix
        *_, gains = _flip_optimum(table, side, 0.5)
        assert_array_equal(gains, kernel.flip_gains(weights, side))


def test_running_sums_swap_scan_kernel_matches_naive():
    n_with_swaps = 0
    for table in _random_tables(7, 150, max_values=13, max_classes=4):
        weights = kernel.squared_gini_weights(table)
        totals = table.sum(axis=1)
        side = np.zeros(len(table), dtype=np.uint8)
        kernel.gini_greedy_cut(
            table, totals, side, np.zeros(2), np.zeros((2, table.shape[1]))
        )
        totals, _, _, gains = _flip_optimum(table, side, 0.5)
        best = np.array([gains[side == s].max(initial=-np.inf) for s in (0, 1)])
        by_size = np.argsort(-totals, kind="stable")
        n = len(table)
        i, j, _, stop = kernel.gini_swap_scan(
            table, totals, side, gains, by_size, best, 0.5, 0, n, 10**9
        )
        swaps = naive_improving_swaps(weights.tolist(), _left(side), 0.5)
        if swaps:
            n_with_swaps += 1
            assert (min(i, j), max(i, j)) in swaps
            assert i == min(min(pair) for pair in swaps)
        else:
            assert (i, j, stop) == (-1, -1, n)
    assert n_with_swaps > 0


def test_profile_cells_kernel_matches_naive():
    rng = np.random.RandomState(8)
    for _ in range(40):
        n = rng.randint(2, 30)
        table = make_random_table(n, rng.randint(2, 5), max_count=3, random_state=rng)
        totals = table.sum(axis=1)
        weights = totals * rng.randint(1, 4, n)
        max_cells = rng.randint(2, 12)
        order, bounds = np.arange(n), np.array([0, n], dtype=np.intp)
        while True:
            new = kernel.split_profile_cells(
                table, totals, weights, order, bounds, max_cells
            )
            if len(new) == len(bounds):
                break
            bounds = new
        cells = [order[a:b].tolist() for a, b in itertools.pairwise(bounds)]
        assert cells == naive_profile_cells(table, weights.tolist(), max_cells)
        assert len(cells) <= max_cells


def _past_dense(monkeypatch, dense, pooled):
    monkeypatch.setattr(max_cut_module, "MAX_DENSE_VERTICES", dense)
    monkeypatch.setattr(max_cut_module, "MAX_POOLED_VERTICES", pooled)


def test_running_sums_search_against_brute_force(monkeypatch):
    """Past the dense size, squared-Gini cuts are flip- and swap-optimal local
    optima of the exact weights, and the statistics are those of the matrix."""
    _past_dense(monkeypatch, 3, 3)
    n_tables = n_optimal = 0
    for table in _random_tables(9, 150, max_values=10):
        result = max_cut_bipartition(table, weights="squared_gini")
        stats = result.statistics
        weights = edge_weights(table, "squared_gini")
        left = _left(result.group_ids)
        total = weights.sum() / 2
        tolerance = max_cut_module.RELATIVE_TOLERANCE * total
        if len(table) > 3:
            assert stats["graph"] == "running_sums" and stats["swap_search_complete"]
            assert naive_flip_pass(weights.tolist(), left, tolerance)[1] == 0
            assert not naive_improving_swaps(weights.tolist(), left, tolerance)
        assert stats["cut_weight"] == pytest.approx(naive_cut_weight(weights, left))
        assert stats["total_weight"] == pytest.approx(total)
        optimum = naive_max_cut(weights)
        assert stats["cut_weight"] >= 0.5 * optimum
        n_tables += 1
        n_optimal += stats["cut_weight"] >= optimum * (1 - 1e-9)
    assert n_optimal >= 0.85 * n_tables


def test_pooled_twins_are_exact_against_brute_force(monkeypatch):
    """Chi2 past the dense size: categories with identical counts form one
    vertex, so the cut weight is the cut of the full graph, twins stay together
    and the cut is at least half of the maximum cut."""
    _past_dense(monkeypatch, 3, 8)
    rng = np.random.RandomState(10)
    for base in _random_tables(11, 60, max_values=6):
        table = np.repeat(base, rng.randint(1, 3, len(base)), axis=0)
        table = table[rng.permutation(len(table))]
        result = max_cut_bipartition(table, weights="chi2")
        full = edge_weights(table, "chi2")
        if naive_max_cut(full) == 0:
            continue
        stats = result.statistics
        left = _left(result.group_ids)
        if len(table) > 3:
            assert stats["graph"] == "pooled"
            assert stats["n_vertices"] == len(np.unique(table, axis=0))
        assert stats["cut_weight"] == pytest.approx(naive_cut_weight(full, left))
        assert stats["cut_weight"] >= 0.5 * naive_max_cut(full)
        for row in np.unique(table, axis=0):
            twins = np.flatnonzero((table == row).all(axis=1))
            assert len(set(result.group_ids[twins])) == 1


def test_pooled_squared_gini_weights_are_sums_over_cells_naive():
    rng = np.random.RandomState(12)
    for table in _random_tables(12, 30, max_values=12):
        cells = rng.randint(0, 3, len(table))
        cells = np.unique(cells, return_inverse=True)[1].reshape(-1)
        multiplicity = np.bincount(cells)
        pooled = max_cut_module._pooled_weights(
            table, cells, multiplicity, "squared_gini"
        )
        # the dense search reads either triangle
        assert_array_equal(pooled, pooled.T)
        chi2 = max_cut_module._pooled_weights(table, cells, multiplicity, "chi2")
        assert_array_equal(chi2, chi2.T)
        for a in range(len(multiplicity)):
            for b in range(len(multiplicity)):
                if a != b:
                    expected = sum(
                        naive_squared_gini_weight(table[i], table[j])
                        for i in np.flatnonzero(cells == a)
                        for j in np.flatnonzero(cells == b)
                    )
                    assert pooled[a, b] == pytest.approx(expected, rel=1e-12)


def test_pooled_cells_keep_twins_and_respect_the_bound(monkeypatch):
    _past_dense(monkeypatch, 5, 4)
    X, y, _ = make_grouped_categorical(3000, n_categories=40, random_state=3)
    grouper = MaxCutGrouper().fit(X, y)
    stats = grouper.statistics_[0]
    assert stats["graph"] == "pooled" and stats["n_vertices"] <= 4
    assert stats["n_categories"] == 40 and grouper.n_groups_[0] == 2
    assert stats["certified_ratio"] >= 0.5


@pytest.mark.parametrize("weights", WEIGHTS)
def test_dense_graph_up_to_the_dense_size(weights):
    result = max_cut_bipartition(EXAMPLE, weights=weights)
    assert result.statistics["graph"] == "dense"
    assert result.statistics["n_vertices"] == 4
    assert result.statistics["swap_search_complete"]


def test_resumed_local_search_kernel_makes_the_moves_of_one_call():
    for table in _random_tables(13, 30, max_values=13):
        weights = kernel.chi2_weights(table)
        side = kernel.greedy_cut(weights)
        once = side.copy()
        moves = kernel.local_search(weights, once, 1e-9, 10_000)
        gains = kernel.flip_gains(weights, side)
        flips = swaps = 0
        done = False
        while not done:
            _, f, s, done = kernel.dense_search(
                weights, side, gains, 1e-9, 1, kernel.MOVES
            )
            flips, swaps = flips + f, swaps + s
        assert_array_equal(side, once)
        assert (flips, swaps) == moves


def test_many_categories_estimator_records_the_graph():
    rng = np.random.RandomState(14)
    n = 60_000
    codes = rng.randint(0, 6000, n)
    y = np.where(rng.rand(n) < 0.5, codes % 2, rng.randint(0, 3, n))
    for weights, graph in [("squared_gini", "running_sums"), ("chi2", "pooled")]:
        grouper = MaxCutGrouper(weights=weights).fit(codes.reshape(-1, 1), y)
        stats = grouper.statistics_[0]
        assert stats["graph"] == graph and grouper.n_groups_[0] == 2
        found = grouper.group_ids_[0]
        parity = grouper.categories_[0].astype(int) % 2
        agreement = (found == parity).mean()
        assert max(agreement, 1 - agreement) > 0.95


@pytest.mark.parametrize("weights", WEIGHTS)
def test_bipartition_method_makes_the_cut_of_max_cut_bipartition(weights):
    # The tree's splitter calls the core without the split table's tests: the
    # same cut, the same cut weight, and every statistic but the tests.
    from partikit.groupers import BIPARTITIONS

    tests = {"gini", "entropy", "chi2", "dof", "log10_pvalue"}
    for seed in range(40):
        rng = np.random.default_rng(seed)
        table = rng.integers(0, 6, size=(int(rng.integers(2, 12)), 3)).astype(float)
        # the registry keeps the table order (the tree's compiled splitter's)
        full = max_cut_bipartition(table, weights=weights, order="table")
        lean = max_cut_module._max_cut_bipartition(
            table, weights, "local_search", tests=False
        )
        assert_array_equal(lean.group_ids, full.group_ids)
        if full.n_groups == 2:
            assert set(full.statistics) - set(lean.statistics) == tests
            for key, value in lean.statistics.items():
                assert value == full.statistics[key]
            split = BIPARTITIONS[f"maxcut_{weights}"](table)
            assert split.criterion == full.statistics["cut_weight"]
            assert_array_equal(split.group_ids, full.group_ids)


# --- the visiting order ------------------------------------------------------------


def _partition(group_ids):
    """A grouping as a set of groups of row indices (group numbers forgotten)."""
    group_ids = np.asarray(group_ids)
    return {frozenset(np.flatnonzero(group_ids == g).tolist()) for g in set(group_ids)}


def _distinct_rows(seed, count, max_values):
    """Random tables whose non-empty rows are distinct (twins cannot be told
    apart by the data: they keep their table order)."""
    for table in _random_tables(seed, count, max_values=max_values):
        nonempty = table[table.sum(axis=1) > 0]
        if len(np.unique(nonempty, axis=0)) == len(nonempty):
            yield table


@pytest.mark.parametrize("weights", WEIGHTS)
@pytest.mark.parametrize("solver", ["local_search", "exhaustive"])
def test_permuting_the_rows_permutes_the_cut(weights, solver):
    rng = np.random.RandomState(15)
    n_tables = 0
    for table in _distinct_rows(16, 120, max_values=14):
        expected = max_cut_bipartition(table, weights=weights, solver=solver)
        for _ in range(3):
            permutation = rng.permutation(len(table))
            found = max_cut_bipartition(
                table[permutation], weights=weights, solver=solver
            )
            # row k of the permuted table is row permutation[k]
            back = np.empty_like(found.group_ids)
            back[permutation] = found.group_ids
            assert _partition(back) == _partition(expected.group_ids)
            assert found.criterion == pytest.approx(expected.criterion, rel=1e-12)
        n_tables += 1
    assert n_tables > 80


@pytest.mark.parametrize(
    "weights, graph", [("squared_gini", "running_sums"), ("chi2", "pooled")]
)
def test_permuting_the_rows_permutes_the_cut_past_the_dense_size(
    monkeypatch, weights, graph
):
    _past_dense(monkeypatch, 3, 4)
    rng = np.random.RandomState(17)
    for table in _distinct_rows(18, 60, max_values=12):
        expected = max_cut_bipartition(table, weights=weights)
        if len(table) > 3:
            assert expected.statistics["graph"] == graph
        permutation = rng.permutation(len(table))
        found = max_cut_bipartition(table[permutation], weights=weights)
        back = np.empty_like(found.group_ids)
        back[permutation] = found.group_ids
        assert _partition(back) == _partition(expected.group_ids)


@pytest.mark.parametrize("weights", WEIGHTS)
@pytest.mark.parametrize("n_categories", [30, 300])
def test_renaming_the_categories_keeps_the_groups(weights, n_categories):
    """Issue 32: the thesis's order (sorted labels) changed the groups after a
    reversing renaming (ARI 0.14); the data's order never does."""
    from sklearn.metrics import adjusted_rand_score

    X, y, _ = make_grouped_categorical(
        20_000, n_categories=n_categories, n_classes=4, signal=0.3, random_state=19
    )
    column = X.iloc[:, 0].astype(str)
    labels = np.sort(column.unique())
    renamed = column.map(dict(zip(labels, labels[::-1], strict=True)))
    groups = [
        MaxCutGrouper(weights=weights).fit_transform(c.to_frame(), y).ravel()
        for c in (column, renamed)
    ]
    assert adjusted_rand_score(*groups) == 1.0


#: Cuts made on main at d0aae90, before the option: ``make_random_table(9, 4,
#: random_state=seed)`` for seeds 0 to 3, the group of each row.
TABLE_ORDER_CUTS = {
    ("squared_gini", "local_search"): "011000111 000100111 000101011 001001101",
    ("squared_gini", "exhaustive"): "010001011 000100111 000101011 001011000",
    ("chi2", "local_search"): "010001011 000101111 010111011 010101100",
    ("chi2", "exhaustive"): "010001011 000101111 010111011 010101100",
}


@pytest.mark.parametrize("weights, solver", sorted(TABLE_ORDER_CUTS))
def test_table_order_makes_the_cuts_made_before_the_option(weights, solver):
    for seed, expected in enumerate(TABLE_ORDER_CUTS[weights, solver].split()):
        table = make_random_table(9, 4, random_state=seed)
        result = max_cut_bipartition(
            table, weights=weights, solver=solver, order="table"
        )
        assert "".join(map(str, result.group_ids)) == expected


@pytest.mark.parametrize("weights", WEIGHTS)
def test_estimator_table_order_makes_the_groups_made_before_the_option(weights):
    # the groups on main at d0aae90 (both weights), which the data's order changes
    X, y, _ = make_grouped_categorical(
        3000, n_categories=20, n_classes=4, signal=0.3, random_state=21
    )
    before = "01011110111100000001"
    for order in ("table", "data"):
        grouper = MaxCutGrouper(weights=weights, order=order).fit(X, y)
        found = "".join(map(str, grouper.group_ids_[0]))
        assert (found == before) == (order == "table")
