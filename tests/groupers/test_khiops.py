# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""KhiopsGrouper and its core khiops_grouping."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import chi2 as chi2_distribution
from scipy.stats import norm
from sklearn.metrics import adjusted_rand_score

from partikit import KhiopsGrouper
from partikit._statistics._contingency import merge_rows
from partikit._statistics._robust_chi2 import (
    _max_delta_chi2_grid,
    chi2_classes,
    cochran_min_frequency,
    max_delta_chi2_moments,
    resolve_min_frequency,
)
from partikit.datasets import make_grouped_categorical
from partikit.discretizers._khiops import discretization_max_delta_chi2
from partikit.groupers import _khiops as khiops_module
from partikit.groupers._khiops import (
    _MAX_DELTA_CHI2_TABLE,
    khiops_grouping,
    labels_after_merges,
    max_delta_chi2_threshold,
)
from tests.naive import naive_chi2_statistic, naive_greedy_merges, naive_log_chi2_sf

# ALGORITHMS.md section 1.10 (c): categories A..H with class counts [c0, c1].
WORKED_TABLE = np.array(
    [[20, 5], [18, 7], [6, 19], [4, 21], [10, 10], [1, 0], [0, 1], [1, 1]], float
)


def _partition(ids):
    return {frozenset(np.flatnonzero(ids == g).tolist()) for g in np.unique(ids)}


# ----------------------------------------------------------------------------
# The core on worked examples
# ----------------------------------------------------------------------------


def test_khiops_grouping_worked_example_robust():
    """Check ALGORITHMS 1.10(c): F, G, H pooled, E absorbed, then three forced
    merges (the third raising the confidence level) and a refused last merge."""
    result = khiops_grouping(
        WORKED_TABLE, min_frequency=12, max_delta_chi2=6.5985, keep_trace=True
    )
    assert _partition(result.group_ids) == {
        frozenset({2, 3}),
        frozenset({0, 1, 4, 5, 6, 7}),
    }
    assert_array_equal(result.group_ids, [0, 0, 1, 1, 0, 0, 0, 0])
    assert result.rare_group == 0
    stats = result.statistics
    assert stats["n_rare"] == 3 and stats["n_initial_groups"] == 5
    trace = stats["trace"]
    assert_allclose(trace.delta_chi2, [0.3203, 0.3203, 4.3894, 27.0342], atol=1e-4)
    assert_array_equal(trace.forced, [True, True, True, False])
    assert_array_equal(trace.accepted, [True, True, True, False])
    # the third merge is forced although the confidence level gets worse
    assert trace.log10_pvalue[1] == pytest.approx(-6.824, abs=1e-3)
    assert trace.log10_pvalue[2] == pytest.approx(-6.699, abs=1e-3)
    assert stats["chi2"] == pytest.approx(27.0342, abs=1e-4)
    assert stats["dof"] == 1


def test_khiops_grouping_worked_example_initial_algorithm():
    """Check that without forced merges the worked example stops at 3 groups."""
    result = khiops_grouping(WORKED_TABLE, min_frequency=12, robust=False)
    assert result.n_groups == 3
    assert _partition(result.group_ids) == {
        frozenset({0, 1}),
        frozenset({2, 3}),
        frozenset({4, 5, 6, 7}),
    }


@pytest.mark.parametrize("trial", range(15))
def test_khiops_grouping_replays_the_stopping_rule(trial):
    """Check, merge by merge against the naive greedy loop, that every accepted
    merge was forced or lowered the confidence level and that the first refused
    one did neither."""
    rng = np.random.default_rng(trial)
    table = rng.integers(5, 60, (rng.integers(3, 9), rng.integers(2, 4))).astype(float)
    result = khiops_grouping(table, min_frequency=0, keep_trace=True)
    trace = result.statistics["trace"]
    threshold = result.statistics["max_delta_chi2"]
    greedy = naive_greedy_merges(table)
    chi2_now, dof_now = naive_chi2_statistic(table)
    log_p_now = naive_log_chi2_sf(chi2_now, dof_now)
    n_classes = table.shape[1]
    for k, (delta, _) in enumerate(greedy):
        assert trace.delta_chi2[k] == pytest.approx(delta, rel=1e-9, abs=1e-9)
        chi2_after = chi2_now - delta
        dof_after = (table.shape[0] - k - 2) * (n_classes - 1)
        log_p_after = naive_log_chi2_sf(chi2_after, dof_after) if dof_after else 0.0
        assert trace.log10_pvalue[k] == pytest.approx(
            log_p_after / math.log(10), rel=1e-6, abs=1e-9
        )
        ok = delta <= threshold or log_p_after < log_p_now
        assert trace.accepted[k] == ok
        if not ok:
            assert not trace.accepted[k:].any()
            break
        chi2_now, log_p_now = chi2_after, log_p_after
    assert result.n_groups == table.shape[0] - trace.accepted.sum()


def test_khiops_grouping_max_groups_merges_further():
    """Check that max_groups continues merging along the same greedy sequence."""
    table = np.array([[50, 5, 5], [5, 50, 5], [5, 5, 50], [30, 30, 5.0]]) * 10
    free = khiops_grouping(table)
    assert free.n_groups == 4
    capped = khiops_grouping(table, max_groups=2, keep_trace=True)
    assert capped.n_groups == 2
    assert capped.statistics["trace"].accepted.sum() == 2


@pytest.mark.parametrize(
    "table, expected",
    [
        (np.array([[10.0, 0.0], [20.0, 0.0]]), [0, 0]),  # one class
        (np.array([[10.0, 5.0]]), [0]),  # one category
        (np.array([[10.0, 5.0], [0.0, 0.0], [3.0, 9.0]]), None),  # an empty row
        (np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]]), [0, 0, 0]),  # all rare
        (np.zeros((2, 2)), [-1, -1]),  # nothing at all
    ],
)
def test_khiops_grouping_edge_cases(table, expected):
    """Check single class, single category, empty rows, all-rare and empty
    tables."""
    result = khiops_grouping(table)
    if expected is None:
        assert result.group_ids[1] == -1
        assert (result.group_ids[[0, 2]] >= 0).all()
    else:
        assert_array_equal(result.group_ids, expected)


def test_khiops_grouping_rejects_bad_tables():
    """Check that negative, non-finite and 1-D tables raise."""
    with pytest.raises(ValueError, match="non-negative"):
        khiops_grouping(np.array([[1.0, -1.0], [2.0, 2.0]]))
    with pytest.raises(ValueError, match="non-negative"):
        khiops_grouping(np.array([[1.0, np.nan], [2.0, 2.0]]))
    with pytest.raises(ValueError, match="2-D"):
        khiops_grouping(np.array([1.0, 2.0]))


def test_khiops_grouping_invariant_to_row_and_column_order(global_random_seed):
    """Check that permuting categories or classes gives the same partition."""
    rng = np.random.default_rng(global_random_seed)
    hidden = rng.integers(0, 3, 40)
    profiles = rng.dirichlet(np.ones(4), 3)
    table = np.array([rng.multinomial(200, profiles[g]) for g in hidden], float)
    reference = _partition(khiops_grouping(table).group_ids)
    rows = rng.permutation(40)
    cols = rng.permutation(4)
    permuted = khiops_grouping(table[rows][:, cols]).group_ids
    back = np.empty_like(permuted)
    back[rows] = permuted
    assert _partition(back) == reference


# ----------------------------------------------------------------------------
# MaxDeltaChi2 and min_frequency
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("n_classes", [2, 3, 10, 40])
def test_max_delta_chi2_two_groups_is_exact_chi2_quantile(n_classes):
    """Check Boulle's proposition: with 2 groups MaxDeltaChi2 is chi2(J-1)."""
    assert max_delta_chi2_threshold(2, n_classes, 0.95) == pytest.approx(
        chi2_distribution.ppf(0.95, n_classes - 1)
    )


def test_max_delta_chi2_table_agrees_with_proposition_one():
    """Check that the simulated table gives chi2(J-1) moments and quantiles at
    I = 2, and that its tail fit reproduces the simulated quantiles."""
    table = pd.read_csv(_MAX_DELTA_CHI2_TABLE, comment="#")
    two = table[table.n_groups == 2]
    assert_allclose(two["mean"], two.n_classes - 1, rtol=0.1)
    assert_allclose(two["std"], np.sqrt(2 * (two.n_classes - 1)), rtol=0.1)
    assert_allclose(two.q95, chi2_distribution.ppf(0.95, two.n_classes - 1), rtol=0.1)
    # I = 2 uses the exact chi2 law; from I = 3 on the tail-fitted normal law
    # must reproduce the simulated quantile it is used for.
    rest = table[table.n_groups > 2]
    fitted_q95 = rest.tail_mean + norm.ppf(0.95) * rest.tail_std
    assert_allclose(fitted_q95, rest.q95, rtol=0.05)


def test_max_delta_chi2_interpolates_and_extrapolates():
    """Check exact values on grid points, monotonicity in I and p, and finite
    linear extrapolation beyond the grid."""
    groups, classes, mean, std = _max_delta_chi2_grid(_MAX_DELTA_CHI2_TABLE)
    i, j = len(groups) // 2, len(classes) // 2
    moments = max_delta_chi2_moments(groups[i], classes[j], _MAX_DELTA_CHI2_TABLE)
    assert moments == pytest.approx((mean[i, j], std[i, j]))
    thresholds = [
        max_delta_chi2_threshold(n, 5, 0.95) for n in (3, 10, 100, 1000, 5000, 50_000)
    ]
    assert np.all(np.diff(thresholds) > 0) and np.isfinite(thresholds).all()
    assert (
        max_delta_chi2_threshold(50, 5, 0.99)
        > max_delta_chi2_threshold(50, 5, 0.95)
        > max_delta_chi2_threshold(50, 5, 0.5)
    )
    assert max_delta_chi2_threshold(1, 5, 0.95) == math.inf
    assert max_delta_chi2_threshold(5, 1, 0.95) == math.inf
    assert np.isfinite(max_delta_chi2_threshold(100, 500, 0.95))


@pytest.mark.parametrize("p", [0.5, 0.95, 0.99])
def test_max_delta_chi2_never_below_the_two_group_law(p):
    """Check that MaxDeltaChi2, read or extrapolated, is never below the exact
    quantile of two groups (the last merge of a full merge): the linear
    extrapolation of the table went negative at 20,000 groups and 500 classes."""
    for n_classes in (2, 10, 50, 100, 300, 500, 2000):
        floor = chi2_distribution.ppf(p, n_classes - 1)
        for n_groups in (3, 50, 1500, 5000, 20_000, 1_000_000):
            threshold = max_delta_chi2_threshold(n_groups, n_classes, p)
            assert threshold >= floor
            assert np.isfinite(threshold)
            values = discretization_max_delta_chi2(n_groups, n_classes, p)
            assert values >= floor and np.isfinite(values)
    # 20,000 groups and 500 classes: the J = 500 cells simulated, extrapolated in I
    assert max_delta_chi2_threshold(20_000, 500, 0.95) > 2 * chi2_distribution.ppf(
        0.95, 499
    )


@pytest.mark.parametrize("n_classes, n_categories", [(200, 300), (500, 150)])
def test_khiops_independent_attribute_with_many_classes_ends_in_one_group(
    n_classes, n_categories
):
    """Check the robustness guarantee with hundreds of classes (simulated cells
    of the MaxDeltaChi2 table, not an extrapolation)."""
    rng = np.random.default_rng(n_classes)
    q = np.full(n_classes, 1.0 / n_classes)
    single = 0
    for _ in range(40):
        table = rng.multinomial(5 * n_classes, q, n_categories).astype(float)
        single += khiops_grouping(table).n_groups == 1
    assert single >= 36


@pytest.mark.parametrize(
    "class_totals, expected",
    [([50, 50], 10.0), ([10] * 10, 50.0), ([90, 10], 50.0), ([980, 10, 10], 500.0)],
)
def test_cochran_min_frequency(class_totals, expected):
    """Check the 'auto' rule: all expected counts >= 1, 80% of them >= 5."""
    assert cochran_min_frequency(np.array(class_totals, float)) == pytest.approx(
        expected
    )


def test_resolve_min_frequency_count_and_fraction():
    """Check that an int is a count and a float a fraction of the total."""
    totals = np.array([300.0, 700.0])
    assert resolve_min_frequency(7, totals) == 7.0
    assert resolve_min_frequency(0.02, totals) == 20.0
    assert resolve_min_frequency("auto", totals) == pytest.approx(5 / 0.3)


# ----------------------------------------------------------------------------
# What the issue requires to be shown
# ----------------------------------------------------------------------------


def _one_group_fraction(n_categories, n_classes, n_samples, n_fits, seed):
    """Fraction of attributes independent of the class grouped into one group.

    The table of ``n_samples`` i.i.d. rows with independent uniform category and
    class is drawn directly: category counts ~ multinomial, then each category's
    class counts ~ multinomial. That is exactly the distribution of the table the
    estimator would build from such rows.
    """
    rng = np.random.default_rng([seed, n_categories, n_classes, n_samples])
    p_category = np.full(n_categories, 1.0 / n_categories)
    q = np.full(n_classes, 1.0 / n_classes)
    single = 0
    for _ in range(n_fits):
        sizes = rng.multinomial(n_samples, p_category)
        table = rng.multinomial(sizes, q).astype(float)
        single += khiops_grouping(table, alpha=0.05).n_groups == 1
    return single / n_fits


@pytest.mark.slow
@pytest.mark.parametrize("n_samples", [1_000, 100_000])
@pytest.mark.parametrize("n_classes", [2, 3, 10])
@pytest.mark.parametrize("n_categories", [2, 5, 20, 100, 500])
def test_khiops_independent_attribute_ends_in_one_group(
    n_categories, n_classes, n_samples
):
    """Check the robustness guarantee: with p = 0.95, at least 92% (p - 0.03) of
    attributes independent of the class end in a single group."""
    # The normal law under-covers the right-skewed law of MaxDeltaChi2 at small I
    # (true rate about 0.927 at I = 5, measured): many fits where they are cheap,
    # so that the test measures that rate rather than sampling noise.
    n_fits = {2: 2000, 5: 4000, 20: 2000, 100: 1000, 500: 300}[n_categories]
    fraction = _one_group_fraction(n_categories, n_classes, n_samples, n_fits, 0)
    assert fraction >= 0.92


def test_khiops_estimator_on_independent_rows_matches_table_simulation():
    """Check on real rows (not drawn tables) that independent columns end in one
    group about as often as the guarantee says."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 20, size=(5000, 200))
    y = rng.integers(0, 3, size=5000)
    grouper = KhiopsGrouper().fit(X, y)
    assert np.mean(grouper.n_groups_ == 1) >= 0.9


@pytest.mark.parametrize("frequencies", ["uniform", "zipf"])
def test_khiops_recovers_hidden_groups_at_scale(frequencies):
    """Check the signal test: 1M rows, 1,000 categories, 10 classes, 8 hidden
    groups: adjusted Rand index >= 0.99."""
    X, y, hidden = make_grouped_categorical(
        n_samples=1_000_000,
        n_categories=1000,
        n_classes=10,
        n_groups=8,
        frequencies=frequencies,
        random_state=0,
    )
    grouper = KhiopsGrouper().fit(X, y)
    found = pd.Series(grouper.group_ids_[0], index=grouper.categories_[0])
    ari = adjusted_rand_score(hidden.to_numpy(), found.reindex(hidden.index).to_numpy())
    assert ari >= 0.99
    assert grouper.n_groups_[0] == 8


def test_khiops_noise_columns_end_in_one_group():
    """Check that noise columns beside a signal column are grouped into one."""
    X, y, _ = make_grouped_categorical(
        n_samples=20_000,
        n_categories=30,
        n_classes=3,
        n_groups=3,
        n_noise_features=4,
        random_state=1,
    )
    grouper = KhiopsGrouper().fit(X, y)
    assert grouper.n_groups_[0] == 3
    assert_array_equal(grouper.n_groups_[1:], 1)


def test_default_group_is_rare_group_when_categories_are_pooled():
    """Check that the pooled rare categories' group receives unseen values."""
    rng = np.random.default_rng(0)
    common = rng.choice(["a", "b"], 4000)
    y = np.where(common == "a", rng.random(4000) < 0.9, rng.random(4000) < 0.1)
    rare = np.array([f"r{k}" for k in range(10)])
    X = np.concatenate([common, rare]).reshape(-1, 1)
    y = np.concatenate([y, np.ones(10, bool)])
    grouper = KhiopsGrouper().fit(X, y)
    assert grouper.statistics_[0]["n_rare"] == 10
    rare_group = grouper.transform([["r0"]])[0, 0]
    assert grouper.default_group_[0] == rare_group
    assert grouper.transform([["never seen"]])[0, 0] == rare_group


def test_classes_with_tied_totals_give_the_same_grouping_whatever_their_labels():
    """Check that classes of equal total, put in order by their counts, make the
    grouping (and every DeltaChi2) independent of the classes' labels."""
    rng = np.random.default_rng(3)
    table = rng.integers(0, 20, (40, 4)).astype(float)
    # columns 1 and 2 (and 0 and 3) with equal totals but different counts
    table[:, 2] = rng.permutation(table[:, 1])
    table[:, 3] = rng.permutation(table[:, 0])
    reference = khiops_grouping(table, min_frequency=10, keep_trace=True)
    for permutation in ([2, 1, 0, 3], [3, 2, 1, 0], [1, 3, 0, 2]):
        result = khiops_grouping(
            table[:, permutation], min_frequency=10, keep_trace=True
        )
        assert_array_equal(result.group_ids, reference.group_ids)
        assert_array_equal(
            result.statistics["trace"].delta_chi2,
            reference.statistics["trace"].delta_chi2,
        )


def test_pooled_categories_need_no_order():
    """Check that a table of many one-row categories (pooled as rare) among a few
    frequent ones gives the same groups whatever the order of its rows, and that
    the trace names the pooled group by a row of the same counts."""
    rng = np.random.default_rng(0)
    frequent = rng.integers(20, 60, (6, 3)).astype(float)
    rare = np.eye(3)[rng.integers(0, 3, 300)]
    table = np.vstack([rare[:150], frequent, rare[150:]])
    reference = khiops_grouping(table, keep_trace=True)
    assert reference.statistics["n_rare"] == 300
    permutation = rng.permutation(len(table))
    result = khiops_grouping(table[permutation], keep_trace=True)
    assert_array_equal(result.group_ids, reference.group_ids[permutation])
    # the representative of each merge has the same counts (identical one-row
    # categories are told apart by their position only)
    for field in ("kept", "absorbed"):
        assert_array_equal(
            table[permutation[getattr(result.statistics["trace"], field)]],
            table[getattr(reference.statistics["trace"], field)],
        )


# ----------------------------------------------------------------------------
# exact_limit: merges within blocks of similar categories first
# ----------------------------------------------------------------------------


def _profiled_table(n_categories, rng, n_classes=3, n_profiles=4, n_rare=30):
    """Frequent categories of distinct totals from a few hidden class profiles,
    then some rare ones; returns the table and the hidden profile of each row."""
    totals = rng.permutation(np.arange(60, 60 + 7 * n_categories, 7))
    hidden = rng.integers(0, n_profiles, n_categories)
    shares = rng.dirichlet(np.ones(n_classes), n_profiles)[hidden]
    frequent = [rng.multinomial(n, s) for n, s in zip(totals, shares, strict=True)]
    rare = rng.multinomial(2, np.ones(n_classes) / n_classes, n_rare)
    return np.vstack([*frequent, *rare]).astype(float), hidden


@pytest.mark.parametrize("extra", [0, 1, 100])
def test_khiops_max_categories_changes_nothing_up_to_it(extra):
    """Check that a table starting with at most exact_limit groups is grouped
    exactly as without the cap."""
    rng = np.random.default_rng(1)
    table, _ = _profiled_table(50, rng)
    exact = khiops_grouping(table, min_frequency=30, exact_limit=None, keep_trace=True)
    n_initial = exact.statistics["n_initial_groups"]
    assert n_initial == 51  # 50 frequent categories and the special group
    capped = khiops_grouping(
        table, min_frequency=30, exact_limit=n_initial + extra, keep_trace=True
    )
    assert_array_equal(capped.group_ids, exact.group_ids)
    assert capped.statistics["n_local_merges"] == 0
    assert_array_equal(
        capped.statistics["trace"].delta_chi2, exact.statistics["trace"].delta_chi2
    )
    one_less = khiops_grouping(table, min_frequency=30, exact_limit=n_initial - 1)
    assert one_less.statistics["n_local_merges"] == 1
    assert one_less.statistics["n_initial_groups"] == n_initial


@pytest.mark.parametrize("trial", range(8))
def test_khiops_merges_past_exact_limit_match_the_restricted_greedy_loop(
    trial, monkeypatch
):
    """Check the merge sequence past exact_limit against brute force: by
    levels, the greedy merges allowed inside the blocks of the groups of the
    level only, until half are left or exact_limit groups remain; then the
    greedy merges of those groups and the rare one, with the same DeltaChi2."""
    monkeypatch.setattr(khiops_module, "LOCAL_BLOCK", 4)
    rng = np.random.default_rng(trial)
    n_apart = int(rng.integers(14, 20))
    initial = rng.integers(1, 40, (n_apart + 1, 3)) * rng.integers(
        1, 4, (n_apart + 1, 1)
    )
    initial = initial.astype(float)
    n_local = n_apart - 4
    kept, absorbed, delta, made = khiops_module._merges_past_exact_limit(
        initial, n_apart, n_local
    )
    assert made == n_local
    assert len(delta) == len(initial) - 1
    order = np.arange(len(delta))
    class_totals = initial.sum(axis=0)
    # brute force, level by level, on the groups of the categories kept apart
    members = [[i] for i in range(n_apart)]
    k = 0
    while len(members) > n_apart - n_local:
        groups = np.array([initial[m].sum(axis=0) for m in members])
        block = np.empty(len(groups), dtype=np.intp)
        for label, rows in enumerate(
            khiops_module._profile_blocks(groups, 4, class_totals)
        ):
            block[rows] = label
        n_merges = min(len(groups) - (n_apart - n_local), len(groups) // 2)
        # the whole table, so that DeltaChi2 weighs the classes by its totals
        current = np.vstack([groups, initial[n_apart:]])
        level = naive_greedy_merges(
            current, block=np.append(block, -1), n_merges=n_merges
        )
        for expected_delta, expected_partition in level:
            assert delta[k] == pytest.approx(expected_delta, rel=1e-9, abs=1e-9)
            labels = labels_after_merges(len(initial), kept, absorbed, order, k + 1)
            rare = len(groups)  # the rare group's row, alone in its block
            expected = {
                frozenset(i for g in part for i in members[g])
                for part in expected_partition
                if rare not in part
            }
            assert _partition(labels[:n_apart]) == expected
            k += 1
        members = [
            [i for g in sorted(part) for i in members[g]]
            for part in sorted(level[-1][1], key=min)
            if len(groups) not in part
        ]
    assert k == n_local
    # the exact phase: the greedy loop on the groups left and the rare group
    labels = labels_after_merges(len(initial), kept, absorbed, order, n_local)
    grouped = merge_rows(initial, labels, int(labels.max()) + 1)
    for step, (expected_delta, expected_partition) in enumerate(
        naive_greedy_merges(grouped)
    ):
        assert delta[n_local + step] == pytest.approx(
            expected_delta, rel=1e-9, abs=1e-9
        )
        after = labels_after_merges(
            len(initial), kept, absorbed, order, n_local + step + 1
        )
        first_rows = np.unique(labels, return_index=True)[1]
        assert _partition(after[first_rows]) == expected_partition
    # every merge lowers the table's chi-square by its DeltaChi2
    assert_allclose(delta.sum(), naive_chi2_statistic(initial)[0], rtol=1e-10)


def test_profile_blocks_split_the_rows_and_keep_profiles_together():
    """Check that the blocks partition the rows, hold at most the block size, and
    do not mix well separated profiles."""
    rng = np.random.default_rng(2)
    table, hidden = _profiled_table(4000, rng, n_classes=5, n_profiles=4, n_rare=0)
    blocks = khiops_module._profile_blocks(table, 300, table.sum(axis=0))
    rows = np.concatenate(blocks)
    assert_array_equal(np.sort(rows), np.arange(len(table)))
    assert max(len(b) for b in blocks) <= 300
    # a median split rarely falls between two profiles: a few blocks straddle
    # one, but few rows sit in a block of another profile than theirs
    minority = sum(len(b) - np.bincount(hidden[b]).max() for b in blocks)
    assert minority <= 0.05 * len(table)


def test_khiops_max_categories_recovers_hidden_groups():
    """Check that past exact_limit the grouping still finds the hidden groups
    of the categories."""
    rng = np.random.default_rng(5)
    table, hidden = _profiled_table(6000, rng, n_classes=6, n_profiles=5, n_rare=0)
    capped = khiops_grouping(table, exact_limit=1000)
    assert capped.statistics["n_local_merges"] == 6000 - 1000
    assert adjusted_rand_score(hidden, capped.group_ids) >= 0.99
    exact = khiops_grouping(table, exact_limit=None)
    assert_array_equal(capped.group_ids, exact.group_ids)


@pytest.mark.parametrize("seed", [0, 1])
def test_khiops_max_categories_recovers_hidden_groups_of_many_classes(seed):
    """Check that past exact_limit the blocks keep the hidden groups apart
    with many classes, where each profile coordinate carries little of the
    spread (blocks split on the coordinate of largest variance gave ARI 0.86 to
    0.94 here; split on the principal axis, 1.0)."""
    rng = np.random.default_rng(seed)
    n_categories, n_classes = 8000, 300
    hidden = rng.integers(0, 5, n_categories)
    profiles = rng.dirichlet(np.ones(n_classes), 5)
    table = np.empty((n_categories, n_classes))
    for g in range(5):
        members = hidden == g
        table[members] = rng.multinomial(3000, profiles[g], members.sum())
    capped = khiops_grouping(table, exact_limit=400)
    assert capped.statistics["n_local_merges"] == n_categories - 400
    assert adjusted_rand_score(hidden, capped.group_ids) >= 0.99


def test_khiops_max_categories_keeps_noise_in_one_group():
    """Check that a column independent of the class, with far more frequent
    categories than exact_limit, still ends in one group."""
    rng = np.random.default_rng(3)
    single = 0
    for _ in range(20):
        sizes = rng.integers(100, 400, 3000)
        table = rng.multinomial(sizes, [0.4, 0.3, 0.3]).astype(float)
        result = khiops_grouping(table, exact_limit=200)
        assert result.statistics["n_local_merges"] == 2800
        single += result.n_groups == 1
    assert single >= 18


def test_khiops_grouper_max_categories():
    """Check the estimator's parameter: recorded, validated, and the groups of a
    column with more categories than it."""
    rng = np.random.default_rng(4)
    n_categories = 300
    category = rng.integers(0, n_categories, 60_000)
    y = (rng.random(60_000) < 0.2 + 0.3 * (category % 3)).astype(int)
    X = category.reshape(-1, 1)
    exact = KhiopsGrouper(exact_limit=None).fit(X, y)
    assert exact.statistics_[0]["n_local_merges"] == 0
    capped = KhiopsGrouper(exact_limit=50).fit(X, y)
    assert capped.statistics_[0]["n_local_merges"] == n_categories - 50
    assert capped.statistics_[0]["n_initial_groups"] == n_categories
    assert adjusted_rand_score(category % 3, capped.transform(X)[:, 0]) > 0.99
    with pytest.raises(ValueError, match="exact_limit"):
        KhiopsGrouper(exact_limit=1).fit(X, y)


def test_khiops_max_categories_with_a_class_of_the_rare_categories_only():
    """Check that past exact_limit a class seen only in rare categories (absent
    from every category kept apart) splits the blocks as any other class."""
    rng = np.random.default_rng(6)
    table, hidden = _profiled_table(400, rng, n_classes=3, n_profiles=3, n_rare=0)
    rare = np.zeros((4000, 4))
    rare[:, 3] = 5.0  # a fourth class, 5 rows in each of 4,000 rare categories
    table = np.vstack([np.hstack([table, np.zeros((400, 1))]), rare])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        capped = khiops_grouping(table, min_frequency=30, exact_limit=50)
    assert capped.statistics["n_rare"] == 4000
    assert capped.statistics["n_local_merges"] == 400 - 49
    assert adjusted_rand_score(hidden, capped.group_ids[:400]) >= 0.99


def test_khiops_max_categories_auto_scales_with_the_classes():
    """Check that exact_limit="auto" bounds the exact merging's work: fewer
    groups merged exactly with more classes."""
    assert khiops_module.resolve_exact_limit("auto", 10) == 10_000
    assert khiops_module.resolve_exact_limit("auto", 2) == 22_360
    assert khiops_module.resolve_exact_limit(None, 10) is None
    assert khiops_module.resolve_exact_limit(50, 10) == 50
    rng = np.random.default_rng(7)
    n_categories, n_classes = 3300, 100
    table = rng.multinomial(600, np.full(n_classes, 1 / n_classes), n_categories)
    result = khiops_grouping(table.astype(float))
    # the classes the chi-square is computed on (the lightest may be left out)
    n_used = int(chi2_classes(table.sum(axis=0)).sum())
    assert n_used >= 98
    cap = math.isqrt(10**9 // n_used)
    assert result.statistics["exact_limit"] == cap < 3300
    assert result.statistics["n_rare"] == 0
    assert result.statistics["n_local_merges"] == n_categories - cap
    small = khiops_grouping(WORKED_TABLE, min_frequency=12)
    assert small.statistics["exact_limit"] == 22_360
    assert small.statistics["n_local_merges"] == 0
