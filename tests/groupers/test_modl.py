# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MODL grouping (Boulle 2005): the criterion, its optimiser and MODLGrouper."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import adjusted_rand_score

import partikit.groupers._modl as modl_module
from partikit import PartitionTreeClassifier
from partikit._kernels._modl import modl_merge_sequence, part_cost
from partikit._statistics._modl import (
    log_bell,
    log_factorials,
    modl_grouping_cost,
    part_costs,
)
from partikit.datasets import make_grouped_categorical
from partikit.groupers import MODLGrouper, modl_grouping
from partikit.groupers._modl import exhaustive_grouping, post_optimise
from tests.naive import (
    naive_best_modl_grouping,
    naive_log_bell,
    naive_modl_greedy_merges,
    naive_modl_grouping_cost,
    naive_modl_part_cost,
    naive_modl_post_optimise,
)


def _random_table(rng, n_rows, n_classes, max_count=12, sparsity=0.3):
    table = rng.integers(0, max_count + 1, size=(n_rows, n_classes)).astype(float)
    table[rng.random(table.shape) < sparsity] = 0.0
    return table


def _informative(table):
    return (table.sum(axis=0) > 0).sum() >= 2 and (table.sum(axis=1) > 0).sum() >= 2


# --- the criterion ----------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 41])
def test_log_bell_matches_exact_stirling_sums(n):
    computed = log_bell(n, n + 3)
    assert computed[0] == -math.inf
    for k in range(1, n + 4):
        assert computed[k] == pytest.approx(naive_log_bell(n, k), rel=1e-12, abs=1e-12)


def test_log_bell_at_a_million_values():
    # B(n, 2) = 1 + S(n, 2) = 2^(n - 1); B(n, 1) = 1
    computed = log_bell(1_000_000, 3)
    assert computed[1] == 0.0
    assert computed[2] == pytest.approx(999_999 * math.log(2), rel=1e-13)
    # S(n, 3) dominates B(n, 3): 3^n / 3! to within 2^n / 2
    assert computed[3] == pytest.approx(
        1_000_000 * math.log(3) - math.log(6), rel=1e-12
    )


def test_part_cost_matches_the_binomial_and_multinomial_terms():
    rng = np.random.default_rng(0)
    factorials = log_factorials(200, 5)
    for _ in range(50):
        counts = rng.integers(0, 40, size=5).astype(float)
        assert part_cost(counts, 5.0, factorials) == pytest.approx(
            naive_modl_part_cost(counts, 5), rel=1e-12, abs=1e-12
        )
        # beyond the table of log-factorials: lgamma
        assert part_cost(counts, 5.0, factorials[:3]) == pytest.approx(
            naive_modl_part_cost(counts, 5), rel=1e-12, abs=1e-12
        )


def test_grouping_cost_matches_its_terms():
    rng = np.random.default_rng(1)
    for _ in range(40):
        table = _random_table(rng, rng.integers(1, 9), rng.integers(2, 5))
        if table.sum() == 0:
            continue
        labels = rng.integers(0, 3, size=len(table))
        assert modl_grouping_cost(table, labels) == pytest.approx(
            naive_modl_grouping_cost(table, labels), rel=1e-12
        )


# --- the optimiser ----------------------------------------------------------------


def test_exact_optimum_on_every_small_table():
    """Up to 8 values: the least criterion over every partition (Bell(8))."""
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(250):
        table = _random_table(
            rng, rng.integers(2, 9), rng.integers(2, 4), rng.integers(1, 20)
        )
        if not _informative(table):
            continue
        result = modl_grouping(table, min_frequency=0)
        assert modl_grouping_cost(table, result.group_ids) == pytest.approx(
            naive_best_modl_grouping(table), rel=1e-12
        )
        assert result.statistics["cost"] == pytest.approx(
            modl_grouping_cost(table, result.group_ids), rel=1e-12
        )
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("max_groups", [1, 2, 3])
def test_exact_optimum_under_max_groups(max_groups):
    rng = np.random.default_rng(3)
    for _ in range(40):
        table = _random_table(rng, rng.integers(2, 8), 3, 15, sparsity=0.1)
        if not _informative(table):
            continue
        result = modl_grouping(table, min_frequency=0, max_groups=max_groups)
        assert result.n_groups <= max_groups
        assert modl_grouping_cost(table, result.group_ids) == pytest.approx(
            naive_best_modl_grouping(table, max_groups), rel=1e-12
        )


def test_heuristic_reaches_the_optimum_on_most_small_tables(monkeypatch):
    """Greedy merges and post-optimisation alone (no enumeration): never worse
    than the greedy merges, optimal on at least 95% of small tables."""
    monkeypatch.setattr(modl_module, "EXHAUSTIVE_LIMIT", 1)
    rng = np.random.default_rng(4)
    optimal = total = 0
    for _ in range(150):
        table = _random_table(rng, rng.integers(3, 8), rng.integers(2, 4), 25)
        if not _informative(table):
            continue
        result = modl_grouping(table, min_frequency=0)
        cost = modl_grouping_cost(table, result.group_ids)
        best = naive_best_modl_grouping(table)
        assert cost >= best - 1e-9
        optimal += cost <= best + 1e-9
        total += 1
    assert optimal >= 0.95 * total


def test_merge_sequence_matches_the_naive_greedy_loop():
    rng = np.random.default_rng(5)
    for _ in range(30):
        table = _random_table(rng, rng.integers(2, 12), 3, 20, sparsity=0.1)
        table = table[table.sum(axis=1) > 0]
        if len(table) < 2:
            continue
        _, _, costs = modl_merge_sequence(table, 3.0, log_factorials(table.sum(), 3))
        np.testing.assert_allclose(
            costs, naive_modl_greedy_merges(table, 3), rtol=1e-12
        )


def test_exhaustive_search_matches_the_naive_enumeration():
    rng = np.random.default_rng(6)
    for n_rows in [1, 2, 3, 5, 6, 8]:
        table = _random_table(rng, n_rows, 2, 10, sparsity=0.0)
        table[0] += 1  # both classes present
        bell = log_bell(n_rows, n_rows)
        labels, cost = exhaustive_grouping(table, 2, bell, n_rows)
        assert math.log(n_rows) + cost == pytest.approx(
            naive_best_modl_grouping(table), rel=1e-12
        )
        assert modl_grouping_cost(table, labels) == pytest.approx(
            math.log(n_rows) + cost, rel=1e-12
        )


def test_part_costs_match_the_kernel():
    rng = np.random.default_rng(11)
    parts = _random_table(rng, 30, 4, 50)
    factorials = log_factorials(parts.sum(), 4)
    np.testing.assert_allclose(
        part_costs(parts, 4),
        [part_cost(row, 4.0, factorials) for row in parts],
        rtol=1e-13,
    )


def test_post_optimisation_matches_its_naive_twin_and_never_raises_the_cost():
    rng = np.random.default_rng(7)
    n_merged = 0
    for _ in range(25):
        values = _random_table(rng, rng.integers(3, 10), 3, 8, sparsity=0.2)
        values = values[values.sum(axis=1) > 0]
        if len(values) < 3:
            continue
        _, start = np.unique(rng.integers(0, 4, size=len(values)), return_inverse=True)
        labels = start.astype(np.intp).copy()
        bell = log_bell(len(values), int(start.max()) + 1)
        _, n_merges = post_optimise(
            values, labels, bell, log_factorials(values.sum(), 3), 10
        )
        n_merged += n_merges
        expected = naive_modl_post_optimise(values, start, 3, len(values), 10)
        np.testing.assert_array_equal(labels, expected)
        assert naive_modl_grouping_cost(values, labels) <= (
            naive_modl_grouping_cost(values, start) + 1e-9
        )
    assert n_merged > 0


# --- the paper's properties and the pooling of rare values --------------------------


def test_noise_gives_one_group():
    """A column independent of the class ends in one group (Boulle 2005)."""
    one_group = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        n_categories = [20, 200, 2000, 20_000][seed % 4]
        codes = rng.integers(0, n_categories, size=20_000)
        y = rng.integers(0, 3, size=20_000)
        table = np.zeros((n_categories, 3))
        np.add.at(table, (codes, y), 1)
        one_group += modl_grouping(table).n_groups == 1
    assert one_group >= 19


def test_hidden_groups_are_found():
    X, y, table, truth = _hidden_groups(
        n_samples=20_000, n_categories=60, random_state=0
    )
    grouper = MODLGrouper().fit(X, y)
    categories = pd.DataFrame({X.columns[0]: pd.Categorical(truth.index)})
    found = grouper.transform(categories)
    assert adjusted_rand_score(truth.to_numpy(), found[:, 0]) == 1


def _hidden_groups(**kwargs):
    """Rows, classes, the categories x classes table and the hidden group of
    each category (in the table's row order)."""
    X, y, hidden = make_grouped_categorical(
        n_classes=3, n_groups=4, signal=0.6, **kwargs
    )
    column = X.iloc[:, 0]
    table = np.zeros((len(column.cat.categories), 3))
    np.add.at(table, (column.cat.codes.to_numpy(), np.asarray(y)), 1)
    return X, y, table, hidden.reindex(column.cat.categories)


def test_renaming_the_categories_never_changes_the_groups():
    rng = np.random.default_rng(8)
    table = _random_table(rng, 300, 3, 30, sparsity=0.2)
    # categories of identical counts are interchangeable: keep distinct rows
    table = np.unique(table, axis=0)
    result = modl_grouping(table)
    assert result.statistics["n_moves"] > 0
    permutation = rng.permutation(len(table))
    permuted = modl_grouping(table[permutation])
    assert adjusted_rand_score(result.group_ids[permutation], permuted.group_ids) == 1


def test_rare_values_are_pooled_into_one_group():
    rng = np.random.default_rng(9)
    frequent = np.array([[90, 10], [10, 90], [85, 15]], dtype=float)
    rare = rng.integers(0, 2, size=(40, 2)).astype(float)
    rare[rare.sum(axis=1) == 0, 0] = 1
    table = np.vstack([frequent, rare])
    result = modl_grouping(table, min_frequency=5)
    assert result.statistics["n_rare"] == 40
    assert result.statistics["min_frequency"] == 5
    assert len(set(result.group_ids[3:])) == 1
    assert result.rare_group == result.group_ids[3]
    # "auto" is never worse, by the criterion, than no pooling at all
    auto = modl_grouping(table)
    none = modl_grouping(table, min_frequency=0)
    assert auto.statistics["cost"] <= none.statistics["cost"] + 1e-9
    assert none.statistics["n_rare"] == 0 and none.rare_group == -1


def test_one_rare_value_is_not_pooled():
    table = np.array([[50, 5], [5, 50], [1, 0]], dtype=float)
    result = modl_grouping(table, min_frequency=2)
    assert result.statistics["n_rare"] == 0
    assert result.rare_group == -1


def test_pre_grouping_past_the_limit_keeps_the_signal():
    """Past ``sqrt(N)`` values the least frequent are pooled by profile before
    the merging, and the post-optimisation moves them where they belong."""
    _, _, table, truth = _hidden_groups(
        n_samples=20_000, n_categories=400, random_state=1
    )
    result = modl_grouping(table, min_frequency=0)
    assert result.statistics["n_pre_grouped"] > 0
    assert result.statistics["n_moves"] > 0
    assert adjusted_rand_score(truth.to_numpy(), result.group_ids) > 0.9


def test_degenerate_tables():
    assert modl_grouping(np.zeros((3, 2))).n_groups == 0
    one_class = modl_grouping([[3, 0], [5, 0], [0, 0]])
    np.testing.assert_array_equal(one_class.group_ids, [0, 0, -1])
    assert one_class.criterion == 0.0
    assert modl_grouping([[3, 4]]).n_groups == 1
    with pytest.raises(ValueError, match="non-negative"):
        modl_grouping([[1, -1], [2, 2]])


def test_criterion_is_the_compression_level():
    table = np.array([[40, 10], [38, 12], [9, 41], [12, 38]], dtype=float)
    result = modl_grouping(table)
    statistics = result.statistics
    assert result.n_groups == 2
    assert result.criterion == pytest.approx(
        1 - statistics["cost"] / statistics["null_cost"]
    )
    assert statistics["null_cost"] == pytest.approx(
        naive_modl_grouping_cost(table, [0, 0, 0, 0])
    )


# --- the estimator ----------------------------------------------------------------


def test_estimator_encodes_by_groups_and_sends_unseen_to_the_rare_group():
    rng = np.random.default_rng(10)
    n = 6000
    frequent = rng.choice(["a", "b", "c", "d"], size=n)
    rate = np.where(np.isin(frequent, ["a", "b"]), 0.85, 0.15)
    y = rng.random(n) < rate
    column = frequent.astype(object)
    # 300 categories seen once each
    column[:300] = [f"rare{i}" for i in range(300)]
    grouper = MODLGrouper(min_frequency=3).fit(column.reshape(-1, 1), y)
    statistics = grouper.statistics_[0]
    assert statistics["n_rare"] == 300
    rare_group = grouper.transform([["rare0"]])[0, 0]
    assert grouper.transform([["never seen"]])[0, 0] == rare_group
    assert grouper.default_group_[0] == rare_group
    assert grouper.transform([["a"]])[0, 0] == grouper.transform([["b"]])[0, 0]
    assert grouper.transform([["a"]])[0, 0] != grouper.transform([["c"]])[0, 0]
    woe = MODLGrouper(encode="woe").fit(column.reshape(-1, 1), y)
    assert woe.transform([["a"]])[0, 0] > 0 > woe.transform([["c"]])[0, 0]
    onehot = MODLGrouper(encode="onehot").fit(column.reshape(-1, 1), y)
    assert onehot.transform([["a"]]).shape[1] == onehot.n_groups_[0]


def test_group_table_is_the_core_call():
    table = np.array([[40, 10], [38, 12], [9, 41], [12, 38], [1, 0]], dtype=float)
    grouper = MODLGrouper(min_frequency=0, max_groups=2)
    np.testing.assert_array_equal(
        grouper.group_table(table).group_ids,
        modl_grouping(table, min_frequency=0, max_groups=2).group_ids,
    )


def test_tree_splits_with_modl():
    X, y, _, _ = _hidden_groups(n_samples=3000, n_categories=30, random_state=2)
    tree = PartitionTreeClassifier(categorical_split="modl", max_depth=2).fit(X, y)
    assert tree.score(X, y) > 0.5
    by_instance = PartitionTreeClassifier(
        categorical_split=MODLGrouper(), max_depth=2
    ).fit(X, y)
    np.testing.assert_array_equal(tree.predict(X), by_instance.predict(X))


def _khiops_encoder():
    """khiops.sklearn.KhiopsEncoder, with its binary on PATH, or a skip."""
    import os
    import shutil
    import sys

    khiops_sklearn = pytest.importorskip(
        "khiops.sklearn", reason="the khiops package is not installed"
    )
    bin_dir = os.path.dirname(sys.executable)
    if shutil.which("khiops_env") is None and os.path.exists(
        os.path.join(bin_dir, "khiops_env")
    ):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    if shutil.which("khiops_env") is None:
        pytest.skip("the khiops binary (khiops_env) is not on PATH")
    return khiops_sklearn.KhiopsEncoder


@pytest.mark.parametrize("n_categories", [30, 300])
def test_criterion_at_least_as_good_as_the_khiops_tool_on_its_partition(
    n_categories,
):
    """The khiops package's MODL grouping, read from its report, costs at least
    as much by the paper's criterion as ours (no category rare enough to be
    pooled: every category has about 100 rows)."""
    encoder = _khiops_encoder()
    X, y, table, _ = _hidden_groups(
        n_samples=100 * n_categories, n_categories=n_categories, random_state=3
    )
    names = [f"c{k}" for k in range(n_categories)]
    column = pd.DataFrame({"category": np.asarray(names)[X.iloc[:, 0].cat.codes]})
    with warnings.catch_warnings():  # the peer's own deprecation warnings
        warnings.simplefilter("ignore")
        fitted = encoder().fit(column, np.asarray(y).astype(str))
    statistics = fitted.model_report_.preparation_report.get_variable_statistics(
        "category"
    )
    theirs = np.zeros(n_categories, dtype=np.intp)
    if statistics.data_grid is not None:
        where = {}
        for k, part in enumerate(statistics.data_grid.dimensions[0].partition):
            for value in part.values:
                where[value] = k
        default = where.get(" * ", 0)
        theirs = np.array([where.get(name, default) for name in names])
    ours = modl_grouping(table, min_frequency=0)
    assert modl_grouping_cost(table, ours.group_ids) <= (
        modl_grouping_cost(table, theirs) + 1e-6
    )
