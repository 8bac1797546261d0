# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""CHAIDGrouper and its core: worked examples, naive twins, the CHAID package."""

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from partikit import CHAIDGrouper
from partikit._kernels import _chaid as kernel
from partikit._kernels import _codes as codes
from partikit.groupers import chaid_feature_ranking
from partikit.groupers._bipartition import best_chi2_bipartition
from partikit.groupers._chaid import _pool_rare, chaid_grouping, rank_attributes
from tests.naive import (
    naive_chaid_merges,
    naive_chaid_pool,
    naive_nonempty_rows,
    naive_pair_test,
)

EXAMPLE = np.array([[30, 10], [28, 12], [10, 30], [12, 28]], dtype=float)


def _py(function):
    """The kernel itself, or its Python function when numba is disabled."""
    return getattr(function, "py_func", function)


def _labels(groups, n_rows):
    labels = np.empty(n_rows, dtype=np.intp)
    for k, group in enumerate(groups):
        labels[group] = k
    return labels


def _kernel_labels(
    table, alpha, *, ordinal=False, min_groups=1, max_groups=None, test="pearson"
):
    code = codes.PEARSON if test == "pearson" else codes.LIKELIHOOD_RATIO
    state = kernel.init_state(np.ascontiguousarray(table, dtype=float), ordinal, code)
    kernel.merge_until(
        state,
        -math.log(alpha),
        min_groups,
        -1 if max_groups is None else max_groups,
        False,
    )
    return kernel.group_labels(state)


# ----------------------------------------------------------------------------------
# ALGORITHMS section 2.9: the worked example
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ([30, 10], [28, 12], 0.2508),
        ([10, 30], [12, 28], 0.2508),
        ([30, 10], [10, 30], 20.00),
        ([30, 10], [12, 28], 16.24),
        ([28, 12], [10, 30], 16.24),
        ([28, 12], [12, 28], 12.80),
        ([58, 22], [10, 30], 24.50),
        ([58, 22], [12, 28], 19.82),
    ],
)
def test_worked_example_pairwise_statistics(a, b, expected):
    """Check the pairwise chi-squares of the worked example, by the kernel and by
    the naive twin."""
    counts = np.array([a, b], dtype=float)
    statistic, n_present = _py(kernel.pair_statistic)(counts, 0, 1, codes.PEARSON)
    assert n_present == 2
    assert statistic == pytest.approx(expected, abs=5e-3)
    assert statistic == pytest.approx(naive_pair_test(a, b)[0], rel=1e-12)
    if expected == 0.2508:
        assert naive_pair_test(a, b)[2] == pytest.approx(math.log(0.6165), abs=1e-3)


def test_worked_example_merges_and_statistics():
    """Check the worked example: A+B merge first (tie with C+D broken by pair
    order), then C+D; final X2 32.40, p 1.2549e-8, nominal B = 7."""
    groups, merges = naive_chaid_merges(EXAMPLE, 0.05)
    assert merges == [(0, 1), (2, 3)]
    result = chaid_grouping(EXAMPLE)
    assert_array_equal(result.group_ids, [0, 0, 1, 1])
    stats = result.statistics
    assert stats["chi2"] == pytest.approx(32.40)
    assert stats["dof"] == 1
    assert stats["pvalue"] == pytest.approx(1.2549e-8, rel=1e-4)
    assert 10 ** stats["log10_bonferroni"] == pytest.approx(7.0)
    assert stats["adjusted_pvalue"] == pytest.approx(8.784e-8, rel=1e-3)
    assert stats["significant"] and stats["predictor"] == "nominal"


def test_worked_example_ordinal_multiplier():
    """Check that A<B<C<D as an ordinal predictor merges the same (adjacent)
    pairs and uses B = C(3, 1) = 3."""
    result = chaid_grouping(EXAMPLE, ordinal=True)
    assert_array_equal(result.group_ids, [0, 0, 1, 1])
    assert 10 ** result.statistics["log10_bonferroni"] == pytest.approx(3.0)
    assert result.statistics["adjusted_pvalue"] == pytest.approx(
        3 * 1.2549e-8, rel=1e-3
    )


def test_spss_mode_never_merges_the_last_two_groups():
    """Check that allow_single_group=False stops at two groups even when they do
    not differ, and that the default merges them."""
    table = np.array([[50, 50], [49, 51], [51, 49]], dtype=float)
    assert chaid_grouping(table, allow_single_group=False).n_groups == 2
    assert chaid_grouping(table).n_groups == 1


def test_alpha_merge_one_disables_merging():
    result = chaid_grouping(
        np.array([[10, 10], [10, 10], [11, 9]], dtype=float), alpha_merge=1.0
    )
    assert result.n_groups == 3


# ----------------------------------------------------------------------------------
# kernel vs naive twin
# ----------------------------------------------------------------------------------


@st.composite
def tables(draw, max_rows=9, max_classes=4):
    n_rows = draw(st.integers(2, max_rows))
    n_classes = draw(st.integers(2, max_classes))
    cells = draw(
        st.lists(
            st.integers(0, 40), min_size=n_rows * n_classes, max_size=n_rows * n_classes
        )
    )
    table = np.array(cells, dtype=float).reshape(n_rows, n_classes)
    table[table.sum(axis=1) == 0, 0] = 1.0
    return table


@settings(max_examples=150, deadline=None)
@given(
    table=tables(),
    ordinal=st.booleans(),
    alpha=st.sampled_from([0.01, 0.05, 0.3]),
    min_groups=st.sampled_from([1, 2]),
    max_groups=st.sampled_from([None, 1, 2, 3]),
    test=st.sampled_from(["pearson", "likelihood_ratio"]),
)
def test_merge_loop_matches_naive(table, ordinal, alpha, min_groups, max_groups, test):
    """Check the kernel's merges against re-testing every allowed pair at every
    step, for nominal and ordinal predictors, both statistics and the limits."""
    groups, _ = naive_chaid_merges(
        table,
        alpha,
        ordinal=ordinal,
        min_groups=min_groups,
        max_groups=max_groups,
        test=test,
    )
    labels = _kernel_labels(
        table,
        alpha,
        ordinal=ordinal,
        min_groups=min_groups,
        max_groups=max_groups,
        test=test,
    )
    assert_array_equal(labels, _labels(groups, len(table)))


def test_merge_loop_matches_naive_on_larger_tables(global_random_seed):
    """Check 60-category tables with hidden groups (many merges, re-scans and
    cache reads) against the naive loop."""
    rng = np.random.default_rng(global_random_seed)
    hidden = rng.integers(0, 4, 60)
    profiles = rng.dirichlet(np.ones(5), 4)
    table = np.array(
        [rng.multinomial(rng.integers(50, 200), profiles[h]) for h in hidden],
        dtype=float,
    )
    groups, _ = naive_chaid_merges(table, 0.05)
    assert_array_equal(_kernel_labels(table, 0.05), _labels(groups, len(table)))


def test_pair_statistic_matches_naive_likelihood_ratio():
    rng = np.random.default_rng(0)
    for _ in range(50):
        counts = rng.integers(0, 20, size=(2, 4)).astype(float)
        counts[:, 0] += 1
        statistic, n_present = _py(kernel.pair_statistic)(
            counts, 0, 1, codes.LIKELIHOOD_RATIO
        )
        expected, dof, _ = naive_pair_test(counts[0], counts[1], "likelihood_ratio")
        assert statistic == pytest.approx(expected, rel=1e-10, abs=1e-12)
        assert n_present - 1 == dof


@pytest.mark.parametrize("ordinal", [False, True])
@pytest.mark.parametrize("test", ["pearson", "likelihood_ratio"])
def test_loop_kernels_run_as_python(monkeypatch, ordinal, test):
    """Check that the loop kernels run as plain Python (as under
    NUMBA_DISABLE_JIT) give the compiled merges."""
    rng = np.random.default_rng(3)
    table = rng.integers(0, 30, size=(14, 4)).astype(float)
    table[:, 0] += 1
    compiled = _kernel_labels(table, 0.05, ordinal=ordinal, test=test)
    for name in (
        "_nominal_loop",
        "_ordinal_loop",
        "_nominal_f_loop",
        "_ordinal_f_loop",
    ):
        monkeypatch.setattr(kernel, name, _py(getattr(kernel, name)))
    python = _kernel_labels(table, 0.05, ordinal=ordinal, test=test)
    assert_array_equal(python, compiled)


# ----------------------------------------------------------------------------------
# re-split: bipartitions, and the loop against a naive re-split loop
# ----------------------------------------------------------------------------------


def _brute_force_split(table, ordered):
    m = len(table)
    best = (-1.0, None)
    if ordered:
        candidates = [np.arange(m) >= k for k in range(1, m)]
    else:
        candidates = [
            np.isin(np.arange(m), subset)
            for size in range(1, m)
            for subset in itertools.combinations(range(1, m), size)
        ]
    for side in candidates:
        statistic = naive_pair_test(table[~side].sum(0), table[side].sum(0))[0]
        if statistic > best[0] + 1e-9:
            best = (statistic, side)
    return best


@pytest.mark.parametrize("ordered", [False, True])
def test_best_bipartition_matches_brute_force(ordered, global_random_seed):
    rng = np.random.default_rng(global_random_seed)
    for _ in range(20):
        table = rng.integers(0, 25, size=(rng.integers(2, 8), 3)).astype(float)
        table[:, 0] += 1
        side, log10_p = best_chi2_bipartition(table, ordered=ordered)
        statistic = naive_pair_test(table[~side].sum(0), table[side].sum(0))[0]
        assert statistic == pytest.approx(_brute_force_split(table, ordered)[0])
        assert side.any() and not side.all()


def test_principal_component_split_is_exact_for_two_classes():
    """Check that above the exhaustive limit, the principal-component ordering
    finds the best split of a two-class table (Breiman's theorem)."""
    rng = np.random.default_rng(5)
    table = rng.integers(1, 40, size=(14, 2)).astype(float)
    side, _ = best_chi2_bipartition(table)
    statistic = naive_pair_test(table[~side].sum(0), table[side].sum(0))[0]
    order = np.argsort(table[:, 1] / table.sum(1))
    cuts = [
        naive_pair_test(table[order[:k]].sum(0), table[order[k:]].sum(0))[0]
        for k in range(1, 14)
    ]
    assert statistic == pytest.approx(max(cuts))


def _naive_resplit_groups(table, alpha, ordinal):
    """CHAID with re-split, by re-testing everything (SPSS steps 2-5)."""
    groups = [[i] for i in range(len(table))]
    for _ in range(10 * len(table)):
        if len(groups) <= 1:
            break
        candidates = []
        for a in range(len(groups)):
            for b in [a + 1] if ordinal else range(a + 1, len(groups)):
                if b < len(groups):
                    u, v = table[groups[a]].sum(0), table[groups[b]].sum(0)
                    statistic, _, log_p = naive_pair_test(u, v)
                    candidates.append(
                        (-log_p, statistic, groups[a][0], groups[b][0], a, b)
                    )
        neg_log_p, _, _, _, a, b = min(candidates)
        if -neg_log_p <= math.log(alpha):
            break
        merged = sorted(groups[a] + groups[b])
        groups[a] = merged
        del groups[b]
        if len(merged) >= 3:
            statistic, side = _brute_force_split(table[merged], ordinal)
            dof = int((table[merged].sum(0) > 0).sum()) - 1
            from scipy.stats import chi2

            if chi2.logsf(statistic, dof) <= math.log(alpha):
                merged = np.array(merged)
                groups.remove(list(merged))
                groups += [
                    sorted(merged[~side].tolist()),
                    sorted(merged[side].tolist()),
                ]
        groups.sort(key=lambda g: g[0])
    return groups


# Tables (found by a seeded random search) on which re-splitting changes the result.
RESPLIT_CASES = [
    (True, 0.2, [[50, 29], [41, 17], [77, 44], [81, 58], [6, 10], [51, 21], [103, 41]]),
    (False, 0.2, [[25, 114], [58, 49], [72, 55], [76, 73], [62, 41]]),
    (False, 0.05, [[37, 41], [65, 56], [2, 4], [5, 11], [41, 25], [6, 8], [62, 18]]),
    (False, 0.2, [[5, 11], [21, 17], [47, 62], [40, 43]]),
    (False, 0.2, [[78, 30], [59, 31], [71, 33], [36, 70], [42, 46], [9, 48], [49, 30]]),
    (False, 0.05, [[6, 19], [84, 37], [39, 23], [9, 18], [6, 4], [108, 39], [99, 28]]),
    (True, 0.05, [[32, 21], [61, 65], [43, 73], [32, 31], [64, 20], [45, 25]]),
    (True, 0.2, [[7, 8], [8, 14], [5, 15], [8, 22], [42, 92]]),
    (True, 0.2, [[17, 8], [54, 53], [25, 31], [7, 14], [14, 17], [28, 42], [49, 59]]),
]


@pytest.mark.parametrize("ordinal, alpha, table", RESPLIT_CASES)
def test_resplit_matches_naive(ordinal, alpha, table):
    """Check re-splitting (SPSS step 5) against a naive loop that re-tests
    everything, on tables where it splits compounds back."""
    table = np.array(table, dtype=float)
    result = chaid_grouping(table, ordinal=ordinal, resplit=True, alpha_merge=alpha)
    assert result.statistics["n_resplits"] > 0
    groups = _naive_resplit_groups(table, alpha, ordinal)
    assert_array_equal(result.group_ids, _labels(groups, len(table)))
    plain = chaid_grouping(table, ordinal=ordinal, alpha_merge=alpha)
    assert result.n_groups > plain.n_groups


@pytest.mark.parametrize("ordinal", [False, True])
def test_resplit_matches_naive_on_random_tables(ordinal, global_random_seed):
    rng = np.random.default_rng(global_random_seed)
    for _ in range(20):
        n_rows = rng.integers(3, 8)
        share = rng.uniform(0.2, 0.8, n_rows)
        table = np.array(
            [
                rng.multinomial(size, [q, 1 - q])
                for q, size in zip(share, rng.integers(5, 150, n_rows), strict=True)
            ],
            dtype=float,
        )
        table[:, 0] += 1
        result = chaid_grouping(table, ordinal=ordinal, resplit=True, alpha_merge=0.2)
        groups = _naive_resplit_groups(table, 0.2, ordinal)
        assert_array_equal(result.group_ids, _labels(groups, n_rows))


# ----------------------------------------------------------------------------------
# floating category, small groups, limits
# ----------------------------------------------------------------------------------


def test_floating_category_joins_a_similar_group():
    table = np.array([[40, 10], [38, 12], [10, 40], [39, 11]], dtype=float)
    result = chaid_grouping(table, ordinal=True, floating_row=3)
    assert_array_equal(result.group_ids, [0, 0, 1, 0])
    assert result.statistics["predictor"] == "floating"
    assert result.statistics["floating_attached"]
    # c = 4 categories, r = 2 groups: C(2, 0) + 2 C(2, 1) = 5
    assert 10 ** result.statistics["log10_bonferroni"] == pytest.approx(5.0)


def test_floating_category_stays_apart_when_distinct():
    table = np.array([[40, 10], [38, 12], [10, 40], [25, 25]], dtype=float)
    result = chaid_grouping(table, ordinal=True, floating_row=3)
    assert_array_equal(result.group_ids, [0, 0, 1, 2])
    assert not result.statistics["floating_attached"]


def test_floating_noise_ends_in_one_group():
    """Check the allow_single_group extension of the floating rule: a missing
    category like the rest joins the single group (SPSS's rule alone would keep it
    apart, as one group has p = 1)."""
    table = np.array([[50, 50], [49, 51], [51, 49], [50, 50]], dtype=float)
    assert chaid_grouping(table, ordinal=True, floating_row=3).n_groups == 1
    spss = chaid_grouping(table, ordinal=True, floating_row=3, allow_single_group=False)
    # SPSS: two ordinal groups (never merged); the missing category joins one of
    # them since that gives the more significant table (fewer degrees of freedom)
    assert spss.n_groups == 2
    assert spss.statistics["floating_attached"]


def test_min_group_size_absorbs_small_groups_into_allowed_neighbours():
    table = np.array([[80, 20], [2, 1], [20, 80], [60, 40]], dtype=float)
    # alpha_merge=1 disables merging: only the absorption acts
    nominal = chaid_grouping(table, alpha_merge=1.0, min_group_size=10)
    assert nominal.n_groups == 3
    assert nominal.group_ids[1] == nominal.group_ids[3]  # the closest profile
    ordinal = chaid_grouping(table, ordinal=True, alpha_merge=1.0, min_group_size=10)
    assert ordinal.n_groups == 3
    assert ordinal.group_ids[1] in (ordinal.group_ids[0], ordinal.group_ids[2])
    fraction = chaid_grouping(table, alpha_merge=1.0, min_group_size=0.02)
    assert_array_equal(fraction.group_ids, nominal.group_ids)


def test_max_groups_and_its_conflict_with_spss_mode():
    rng = np.random.default_rng(0)
    table = rng.integers(1, 100, size=(10, 4)).astype(float)
    assert chaid_grouping(table, alpha_merge=1.0, max_groups=3).n_groups == 3
    with pytest.raises(ValueError, match="max_groups=1"):
        chaid_grouping(table, max_groups=1, allow_single_group=False)
    with pytest.raises(ValueError, match="max_groups=1"):
        CHAIDGrouper(max_groups=1, allow_single_group=False).fit([["a"], ["b"]], [0, 1])


def test_empty_rows_and_columns_are_ignored():
    table = np.array([[30, 0, 10], [0, 0, 0], [28, 0, 12], [10, 0, 30]], dtype=float)
    result = chaid_grouping(table)
    assert_array_equal(result.group_ids, [0, -1, 0, 1])
    assert result.statistics["n_categories"] == 3
    assert result.statistics["dof"] == 1


def test_single_class_table_merges_everything():
    table = np.array([[5.0], [7.0], [9.0]])
    assert chaid_grouping(table).n_groups == 1
    assert chaid_grouping(table, allow_single_group=False).n_groups == 2


def test_rank_attributes_orders_by_adjusted_pvalue_then_statistic():
    stats = [
        {"log10_adjusted_pvalue": -3.0, "chi2": 10.0},
        {"log10_adjusted_pvalue": -5.0, "chi2": 12.0},
        {"log10_adjusted_pvalue": -3.0, "chi2": 20.0},
        {"log10_adjusted_pvalue": 0.0, "chi2": 0.0},
    ]
    assert_array_equal(rank_attributes(stats), [1, 2, 0, 3])


# ----------------------------------------------------------------------------------
# the estimator
# ----------------------------------------------------------------------------------


def _ordinal_data(rng, n=3000):
    levels = np.array(["low", "mid", "high", "top"])
    x = rng.choice(levels, size=n)
    rate = pd.Series({"low": 0.2, "mid": 0.2, "high": 0.7, "top": 0.7})[x].to_numpy()
    return x, (rng.rand(n) < rate).astype(int)


def test_ordered_categorical_is_ordinal_in_its_order():
    rng = np.random.RandomState(0)
    x, y = _ordinal_data(rng)
    order = ["low", "mid", "high", "top"]
    X = pd.DataFrame({"level": pd.Categorical(x, categories=order, ordered=True)})
    grouper = CHAIDGrouper().fit(X, y)
    assert grouper.categories_[0].tolist() == order
    assert_array_equal(grouper.group_ids_[0], [0, 0, 1, 1])
    assert grouper.statistics_[0]["predictor"] == "ordinal"
    expected = grouper.group_ids_[0][[order.index(v) for v in x[:4]]]
    assert_array_equal(grouper.transform(X.iloc[:4]).ravel(), expected)


@pytest.mark.parametrize(
    "ordinal",
    [
        {"level": ["low", "mid", "high", "top"]},
        {0: ["low", "mid", "high", "top"]},
    ],
)
def test_explicit_order(ordinal):
    rng = np.random.RandomState(0)
    x, y = _ordinal_data(rng)
    grouper = CHAIDGrouper(ordinal=ordinal).fit(pd.DataFrame({"level": x}), y)
    assert grouper.categories_[0].tolist() == ["low", "mid", "high", "top"]
    assert_array_equal(grouper.group_ids_[0], [0, 0, 1, 1])


def test_ordinal_in_sorted_order_only_merges_adjacent_categories():
    """Check that with the sorted order (high < low < mid < top) low and mid are
    adjacent but high and top are not, so the groups are intervals."""
    rng = np.random.RandomState(0)
    x, y = _ordinal_data(rng)
    nominal = CHAIDGrouper().fit(x.reshape(-1, 1), y)
    assert nominal.n_groups_[0] == 2
    for ordinal in ([0], "all", {0: None}):
        grouper = CHAIDGrouper(ordinal=ordinal).fit(x.reshape(-1, 1), y)
        assert grouper.categories_[0].tolist() == ["high", "low", "mid", "top"]
        assert_array_equal(grouper.group_ids_[0], [0, 1, 1, 2])


def test_ordinal_with_gaps(global_random_seed):
    """Check that categories absent from fit do not count: 2 and 5 are adjacent,
    and a value in a gap is unseen at transform time."""
    rng = np.random.RandomState(global_random_seed)
    x = rng.choice([1, 2, 5, 9], size=2000)
    y = (rng.rand(2000) < np.where(x <= 2, 0.2, 0.8)).astype(int)
    grouper = CHAIDGrouper(ordinal="all").fit(x.reshape(-1, 1), y)
    assert_array_equal(grouper.categories_[0], [1, 2, 5, 9])
    assert_array_equal(grouper.group_ids_[0], [0, 0, 1, 1])
    assert grouper.transform([[3]])[0, 0] == grouper.default_group_[0]
    with pytest.raises(ValueError, match="unknown categories"):
        grouper.set_params(handle_unknown="error").transform([[3]])


def test_ordinal_missing_values_float():
    rng = np.random.RandomState(0)
    x, y = _ordinal_data(rng)
    x = x.astype(object)
    x[:300] = None
    y[:300] = (rng.rand(300) < 0.7).astype(int)  # missing behaves like high/top
    grouper = CHAIDGrouper(ordinal=["level"]).fit(pd.DataFrame({"level": x}), y)
    categories = grouper.categories_[0]
    assert pd.isna(categories[-1])
    assert grouper.statistics_[0]["predictor"] == "floating"
    assert grouper.statistics_[0]["floating_attached"]
    group_of = dict(zip(categories[:-1], grouper.group_ids_[0][:-1], strict=True))
    # sorted order high < low < mid < top: the two 0.7 categories are not adjacent
    assert_array_equal(grouper.group_ids_[0][:-1], [0, 1, 1, 2])
    assert grouper.group_ids_[0][-1] in (group_of["high"], group_of["top"])


def test_ordinal_errors():
    X = pd.DataFrame({"a": ["x", "y", "z", "x"], "b": ["u", "v", "u", "v"]})
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="not a column of X"):
        CHAIDGrouper(ordinal=["c"]).fit(X, y)
    with pytest.raises(ValueError, match="not a column of X"):
        CHAIDGrouper(ordinal=[5]).fit(X, y)
    with pytest.raises(ValueError, match="not a column of X"):
        # numpy input: columns are referenced by position only
        CHAIDGrouper(ordinal=["x0"]).fit(X.to_numpy(), y)
    with pytest.raises(ValueError, match=r"\['z'\] that are not in the order"):
        CHAIDGrouper(ordinal={"a": ["x", "y"]}).fit(X, y)
    with pytest.raises(ValueError, match="repeats categories"):
        CHAIDGrouper(ordinal={"a": ["x", "y", "z", "x"]}).fit(X, y)


def test_single_category_single_class_and_all_nan():
    y = np.array([0, 1] * 50)
    with pytest.warns(UserWarning, match="single category"):
        grouper = CHAIDGrouper().fit(np.full((100, 1), "a"), y)
    assert grouper.n_groups_[0] == 1
    assert grouper.statistics_[0]["adjusted_pvalue"] == 1.0
    assert not grouper.statistics_[0]["significant"]
    with pytest.raises(ValueError, match="1 class"):
        CHAIDGrouper().fit(np.array([["a"], ["b"]]), [1, 1])
    with pytest.warns(UserWarning, match="single category"):
        grouper = CHAIDGrouper(ordinal="all").fit(np.full((100, 1), np.nan), y)
    assert grouper.n_groups_[0] == 1
    assert pd.isna(grouper.categories_[0][0])
    assert_array_equal(grouper.transform([[np.nan], [3.0]]), [[0.0], [0.0]])


def test_noise_column_is_one_group_and_signal_is_significant():
    rng = np.random.RandomState(0)
    n = 5000
    noise = rng.choice(list("abcdefgh"), size=n)
    signal = rng.choice(list("pqrs"), size=n)
    y = (rng.rand(n) < np.where(np.isin(signal, ["p", "q"]), 0.3, 0.6)).astype(int)
    grouper = CHAIDGrouper().fit(np.column_stack([noise, signal]), y)
    assert grouper.n_groups_.tolist() == [1, 2]
    assert [s["significant"] for s in grouper.statistics_] == [False, True]


def test_likelihood_ratio_option():
    rng = np.random.RandomState(1)
    x = rng.choice(list("abcdef"), size=3000)
    y = (rng.rand(3000) < np.where(np.isin(x, ["a", "b", "c"]), 0.3, 0.5)).astype(int)
    grouper = CHAIDGrouper(test="likelihood_ratio").fit(x.reshape(-1, 1), y)
    stats = grouper.statistics_[0]
    assert stats["test"] == "likelihood_ratio"
    from scipy.stats import chi2_contingency

    expected = chi2_contingency(
        grouper.table_[0], correction=False, lambda_="log-likelihood"
    )[0]
    assert stats["chi2"] == pytest.approx(expected)


def test_chaid_feature_ranking():
    rng = np.random.RandomState(0)
    n = 4000
    X = pd.DataFrame(
        {
            "noise": rng.choice(list("uvw"), size=n),
            "weak": rng.choice(list("ab"), size=n),
            "strong": rng.choice(list("xyz"), size=n),
        }
    )
    logit = np.where(X["strong"] == "x", 2.0, -1.0) + np.where(X["weak"] == "a", 0.6, 0)
    y = (rng.rand(n) < 1 / (1 + np.exp(-logit))).astype(int)
    ranking = chaid_feature_ranking(X, y)
    assert ranking.index.tolist() == ["strong", "weak", "noise"]
    assert ranking["significant"].tolist() == [True, True, False]
    assert list(ranking.columns) == [
        "n_groups",
        "chi2",
        "dof",
        "log10_pvalue",
        "log10_adjusted_pvalue",
        "adjusted_pvalue",
        "significant",
    ]


def test_sample_weight_is_row_repetition():
    rng = np.random.RandomState(0)
    x = rng.choice(list("abcde"), size=400)
    y = rng.randint(0, 3, size=400)
    weights = rng.randint(0, 4, size=400)
    weighted = CHAIDGrouper().fit(x.reshape(-1, 1), y, sample_weight=weights)
    repeated = CHAIDGrouper().fit(
        np.repeat(x, weights).reshape(-1, 1), np.repeat(y, weights)
    )
    assert_array_equal(weighted.group_ids_[0], repeated.group_ids_[0])
    assert weighted.statistics_[0]["chi2"] == pytest.approx(
        repeated.statistics_[0]["chi2"]
    )


# ----------------------------------------------------------------------------------
# agreement with the CHAID package (Rambatino)
# ----------------------------------------------------------------------------------


def _chaid_package_partition(x, y, alpha_merge):
    """Groups of the CHAID package's root split (depth-1 tree, no size limits)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chaid = pytest.importorskip("CHAID")
        tree = chaid.Tree.from_numpy(
            x.reshape(-1, 1),
            y,
            alpha_merge=alpha_merge,
            max_depth=1,
            min_parent_node_size=0,
            min_child_node_size=0,
        )
        split = tree.tree_store[0].split
    values = pd.unique(x)
    if not split.valid():
        return [set(values)]
    return [set(group) for group in split.split_map]


def _partikit_partition(x, y, alpha_merge):
    grouper = CHAIDGrouper(alpha_merge=alpha_merge).fit(x.reshape(-1, 1), y)
    return [set(group.tolist()) for group in grouper.groups_[0]]


def _has_pure_pair(x, y):
    """Whether two categories hold cases of one and the same single class.

    The CHAID package stops merging as soon as it meets such a pair (its loop
    leaves the pair's p-value unset, which reads as "nothing to merge"), where
    Kass's rule merges them first (p = 1); such columns cannot agree.
    """
    table = pd.crosstab(x, y).to_numpy()
    pure_class = [np.flatnonzero(row)[0] for row in table if (row > 0).sum() == 1]
    return len(pure_class) != len(set(pure_class))


def _same_partition(a, b):
    return sorted(map(sorted, a)) == sorted(map(sorted, b))


@pytest.mark.parametrize("alpha_merge", [0.05, 0.01])
def test_same_partition_as_chaid_package_on_synthetic_data(
    alpha_merge, global_random_seed
):
    pytest.importorskip("CHAID")
    rng = np.random.RandomState(global_random_seed)
    for _ in range(8):
        k, n_classes = rng.randint(3, 15), rng.randint(2, 5)
        profiles = rng.dirichlet(np.ones(n_classes), size=3)
        hidden = rng.randint(0, 3, size=k)
        x = rng.randint(0, k, size=rng.randint(300, 3000))
        y = np.array([rng.choice(n_classes, p=profiles[hidden[v]]) for v in x])
        x = np.array([f"v{v:02d}" for v in x], dtype=object)
        assert _same_partition(
            _partikit_partition(x, y, alpha_merge),
            _chaid_package_partition(x, y, alpha_merge),
        )


@pytest.mark.parametrize(
    "dataset, target",
    [("adult", "income"), ("mushroom", "class"), ("nursery", "class")],
)
def test_same_partition_as_chaid_package_on_real_data(datasets_dir, dataset, target):
    """Check every nominal column of the dataset (missing values dropped: the
    package's missing category follows other rules)."""
    pytest.importorskip("CHAID")
    data = pd.read_csv(
        datasets_dir / dataset / "data.csv",
        dtype=str,
        na_values=["?"],
        keep_default_na=False,
    )
    y_all = data.pop(target).to_numpy()
    compared, skipped = 0, []
    for column in data:
        values = data[column]
        if pd.to_numeric(values, errors="coerce").notna().all() or values.nunique() < 2:
            continue  # numeric or constant columns
        keep = values.notna().to_numpy()
        x = values[keep].to_numpy(dtype=object)
        if _has_pure_pair(x, y_all[keep]):
            skipped.append(column)
            continue
        ours = _partikit_partition(x, y_all[keep], 0.05)
        theirs = _chaid_package_partition(x, y_all[keep], 0.05)
        assert _same_partition(ours, theirs), column
        compared += 1
    assert compared >= 4, skipped


# ----------------------------------------------------------------------------------
# many categories: pooling past exact_limit, work in chunks, the one-pass check
# ----------------------------------------------------------------------------------


def _counts_table(rng, n_rows, n_classes, high=6):
    table = rng.integers(0, high, size=(n_rows, n_classes)).astype(float)
    table[table.sum(axis=1) == 0, 0] = 1.0
    return table


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("exact_limit", [2, 3, 8, 20])
def test_pool_rare_against_naive_twin(seed, exact_limit):
    """Check the pooling rule (ties in count and in class included) against its
    naive twin."""
    rng = np.random.default_rng(seed)
    table = _counts_table(rng, 30, 3, high=4)
    if seed % 2:
        table *= rng.random(table.shape).round(1) + 0.5
    pooled, row_of, n_pooled, n_pools = _pool_rare(table, exact_limit)
    expected, expected_row_of, expected_pooled, expected_pools = naive_chaid_pool(
        table, exact_limit
    )
    assert_array_equal(pooled, expected)
    assert_array_equal(row_of, expected_row_of)
    assert (n_pooled, n_pools) == (expected_pooled, expected_pools)
    assert len(pooled) <= max(exact_limit, 3)


def test_no_pooling_up_to_max_categories():
    """Check that a table of exact_limit rows is merged exactly as without the
    limit, and records no pooling."""
    table = _counts_table(np.random.default_rng(0), 40, 3, high=30)
    exact = chaid_grouping(table, exact_limit=None)
    limited = chaid_grouping(table, exact_limit=40)
    assert_array_equal(limited.group_ids, exact.group_ids)
    assert limited.statistics == {**exact.statistics}
    assert limited.statistics["n_pooled"] == 0
    assert limited.statistics["n_pools"] == 0


@pytest.mark.parametrize("seed", range(4))
def test_pooled_grouping_is_the_grouping_of_the_pooled_table(seed):
    """Check that past exact_limit the merging is CHAID on the pooled table:
    same groups, same adjusted p-value (the multiplier counts the pooled rows)."""
    rng = np.random.default_rng(seed)
    table = _counts_table(rng, 60, 3, high=8)
    table[:5] *= 10  # a few frequent categories keep their own row
    result = chaid_grouping(table, exact_limit=12)
    pooled, row_of, n_pooled, n_pools = naive_chaid_pool(table, 12)
    on_pooled = chaid_grouping(pooled, exact_limit=None)
    assert_array_equal(result.group_ids, on_pooled.group_ids[row_of])
    assert result.statistics["n_pooled"] == n_pooled > 0
    assert result.statistics["n_pools"] == n_pools
    assert result.statistics["n_categories"] == 60
    assert result.statistics["chi2"] == pytest.approx(on_pooled.statistics["chi2"])
    assert result.statistics["log10_adjusted_pvalue"] == pytest.approx(
        on_pooled.statistics["log10_adjusted_pvalue"]
    )


def test_ordinal_columns_are_never_pooled():
    table = _counts_table(np.random.default_rng(1), 30, 2, high=20)
    result = chaid_grouping(table, ordinal=True, exact_limit=4)
    exact = chaid_grouping(table, ordinal=True, exact_limit=None)
    assert_array_equal(result.group_ids, exact.group_ids)
    assert result.statistics["n_pooled"] == 0


def test_estimator_records_pooling():
    """Check that CHAIDGrouper pools a column with many categories, records it,
    and maps every category of a pool to one group."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 300, size=3000)
    y = (x % 3 == 0) ^ (rng.random(3000) < 0.2)
    grouper = CHAIDGrouper(exact_limit=50).fit(x.reshape(-1, 1), y)
    stats = grouper.statistics_[0]
    assert stats["n_categories"] == 300
    assert 0 < stats["n_pooled"] <= 300 and 1 <= stats["n_pools"] <= 2
    exact = CHAIDGrouper(exact_limit=None).fit(x.reshape(-1, 1), y)
    assert exact.statistics_[0]["n_pooled"] == 0
    small = CHAIDGrouper().fit(x.reshape(-1, 1), y)  # 300 <= 1024: exact
    assert_array_equal(small.group_ids_[0], exact.group_ids_[0])


@pytest.mark.parametrize("ordinal", [False, True])
@pytest.mark.parametrize("resplit", [False, True])
def test_merging_in_chunks_equals_one_call(monkeypatch, ordinal, resplit):
    """Check that a merge loop stopped every few pair tests (to honour Ctrl-C)
    and resumed gives the same grouping as one call."""
    rng = np.random.default_rng(7)
    table = _counts_table(rng, 40, 3, high=25)
    kwargs = {"ordinal": ordinal, "resplit": resplit, "alpha_merge": 0.2}
    one_call = chaid_grouping(table, **kwargs)
    monkeypatch.setattr(kernel, "WORK_PER_CALL", 7)
    chunked = chaid_grouping(table, **kwargs)
    assert_array_equal(chunked.group_ids, one_call.group_ids)
    assert chunked.statistics == one_call.statistics


@pytest.mark.parametrize("n_threads", [2, 3, 5])
@pytest.mark.parametrize("work_per_call", [7, kernel.WORK_PER_CALL])
def test_initial_tests_in_threads_equal_one_thread(
    monkeypatch, n_threads, work_per_call
):
    """Check that the initial pair tests shared out to threads (rows cut into
    runs, each run in calls of a few pair tests) leave the state one thread
    leaves (workspaces aside), and the same grouping, on a table with rows that
    lack classes (every Pearson statistic computed) and a likelihood-ratio test."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(11)
    table = _counts_table(rng, 37, 4, high=30)
    table[::5, 1] = 0.0
    table[table.sum(axis=1) == 0, 0] = 1.0
    monkeypatch.setattr(kernel, "MIN_WORK_IN_THREADS", 0)
    monkeypatch.setattr(kernel, "WORK_PER_CALL", work_per_call)
    workspaces = {kernel._STATS, kernel._PRESENT, kernel._BEST, kernel._PARTNER,
                  kernel._FOUND, kernel._SUMS, kernel._BOUND, kernel._CNT}  # fmt: skip
    with ThreadPoolExecutor(n_threads) as pool:
        for test in (codes.PEARSON, codes.LIKELIHOOD_RATIO):
            serial = kernel.init_state(table, False, test)
            threaded = kernel.init_state(table, False, test, pool, n_threads)
            for position, (one, other) in enumerate(zip(serial, threaded, strict=True)):
                if position not in workspaces:
                    assert_array_equal(one, other)
            for state in (serial, threaded):
                kernel.merge_until(state, -math.log(0.3), 1, -1, False)
            assert_array_equal(
                kernel.group_labels(threaded), kernel.group_labels(serial)
            )


@pytest.mark.parametrize(
    "table",
    [
        [[0.0, 0.0], [1.0, 0.0], [0.0, 2.5]],
        [[0.0, -0.0], [0.0, 0.0]],
        [[np.inf, 0.0], [1.0, 1.0]],
        [[np.nan, 0.0], [1.0, 1.0]],
        [[-1.0, 3.0], [1.0, 1.0]],
        [[0.0, -np.inf], [1.0, 1.0]],
    ],
)
@pytest.mark.parametrize("numpy_cells", [0, 1 << 16])
def test_nonempty_rows_against_naive_twin(table, numpy_cells, monkeypatch):
    """Check the compiled pass (large tables) and numpy's (small ones)."""
    monkeypatch.setattr(kernel, "NUMPY_CHECK_CELLS", numpy_cells)
    table = np.array(table)
    mask, valid = kernel.nonempty_rows(table)
    expected_mask, expected_valid = naive_nonempty_rows(table)
    assert valid == expected_valid
    if valid:
        assert_array_equal(mask, expected_mask)
    else:
        with pytest.raises(ValueError, match="finite non-negative"):
            chaid_grouping(table)
