"""Bin constraints (monotonic_trend, min/max_bin_size, min_bin_n_event/nonevent)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partikit._kernels._codes import ENTROPY, GINI, SQUARED_ERROR
from partikit._statistics._constraints import (
    BinConstraints,
    admissible,
    constrained_multisplit,
    follows_trend,
    impurity_costs,
    rates_of,
)
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.discretizers._modl import modl_interval_costs
from partikit.tree import PartitionTreeClassifier
from tests import naive

TRENDS = [None, "ascending", "descending", "peak", "valley"]
DISCRETIZERS = [
    BlockOptDiscretizer,
    MODLDiscretizer,
    MDLPDiscretizer,
    KhiopsDiscretizer,
]


@st.composite
def constrained_tables(draw, continuous=False):
    n_rows = draw(st.integers(2, 8))
    if continuous:
        weights = draw(st.lists(st.integers(1, 4), min_size=n_rows, max_size=n_rows))
        # integer targets: the sums are exact, the means compare exactly
        rows = []
        for w in weights:
            ys = draw(st.lists(st.integers(-3, 3), min_size=w, max_size=w))
            rows.append([w, sum(ys), sum(y * y for y in ys)])
        table = np.array(rows, dtype=float)
        total = table[:, 0].sum()
    else:
        counts = draw(
            st.lists(
                st.tuples(st.integers(0, 5), st.integers(0, 5)).filter(sum),
                min_size=n_rows,
                max_size=n_rows,
            )
        )
        table = np.array(counts, dtype=float)
        total = table.sum()
    trend = draw(st.sampled_from(TRENDS))
    fractions = [None, 0.1, 0.2, 0.3]
    min_size = draw(st.sampled_from(fractions))
    max_size = draw(st.sampled_from([None, 0.4, 0.6, 0.9]))
    events = None if continuous else draw(st.sampled_from([None, 1.0, 2.0]))
    nonevents = None if continuous else draw(st.sampled_from([None, 1.0, 3.0]))
    constraints = BinConstraints(
        trend,
        None if min_size is None else min_size * total,
        None if max_size is None else max_size * total,
        events,
        nonevents,
        "continuous" if continuous else None,
    )
    return table, constraints, draw(st.integers(1, 6))


def _check_against_brute_force(table, constraints, max_bins, costs):
    result = constrained_multisplit(
        table, costs, max_bins=max_bins,
        monotonic_trend=constraints.monotonic_trend,
        min_bin_weight=constraints.min_bin_weight,
        max_bin_weight=constraints.max_bin_weight,
        min_bin_n_event=constraints.min_bin_n_event,
        min_bin_n_nonevent=constraints.min_bin_n_nonevent,
        target_type=constraints.target_type,
    )  # fmt: skip
    brute = naive.naive_constrained_multisplit(
        table, costs(table), max_bins, constraints
    )
    assert result.exact
    for k in range(1, min(max_bins, table.shape[0]) + 1):
        expected = brute.get(k, (np.inf,))[0]
        got = result.values[k - 1]
        if np.isinf(expected):
            assert np.isinf(got) and result.cuts[k - 1] is None
            continue
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)
        cuts = result.cuts[k - 1]
        assert len(cuts) == k - 1
        parts = np.add.reduceat(table, np.concatenate([[0], cuts]).astype(int))
        assert admissible(parts, constraints).all()
        assert follows_trend(
            rates_of(parts, constraints.target_type), constraints.monotonic_trend
        )


@settings(max_examples=150, deadline=None)
@given(constrained_tables(), st.sampled_from([ENTROPY, GINI]))
def test_dp_matches_brute_force_class_counts(case, criterion):
    table, constraints, max_bins = case
    _check_against_brute_force(table, constraints, max_bins, impurity_costs(criterion))


@settings(max_examples=100, deadline=None)
@given(constrained_tables(continuous=True))
def test_dp_matches_brute_force_moments(case):
    table, constraints, max_bins = case
    _check_against_brute_force(
        table, constraints, max_bins, impurity_costs(SQUARED_ERROR)
    )


@settings(max_examples=60, deadline=None)
@given(constrained_tables())
def test_dp_matches_brute_force_modl_costs(case):
    table, constraints, max_bins = case
    _check_against_brute_force(table, constraints, max_bins, modl_interval_costs(table))


@pytest.mark.parametrize(
    "criterion, code",
    [("entropy", ENTROPY), ("gini", GINI), ("squared_error", SQUARED_ERROR)],
)
def test_interval_cost_matrix_matches_naive(criterion, code):
    rng = np.random.default_rng(0)
    if criterion == "squared_error":
        w = rng.integers(1, 5, 9).astype(float)
        s = rng.normal(size=9) * w
        table = np.column_stack([w, s, s * s / w + rng.random(9)])
    else:
        table = rng.integers(0, 7, (9, 3)).astype(float) + 0.5
    got = impurity_costs(code)(table)
    expected = naive.naive_interval_cost_matrix(table, criterion)
    upper = np.triu(np.ones_like(got, dtype=bool), 1)
    np.testing.assert_allclose(got[upper], expected[upper], rtol=1e-9, atol=1e-9)


def _data(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = rng.random(n) < 1 / (1 + np.exp(-2 * np.sin(2 * x)))
    return x[:, None], y.astype(int)


@pytest.mark.parametrize("cls", DISCRETIZERS)
@pytest.mark.parametrize(
    "params",
    [
        {"monotonic_trend": "ascending"},
        {"monotonic_trend": "descending", "min_bin_size": 0.1},
        {"monotonic_trend": "peak", "min_bin_n_event": 50},
        {"monotonic_trend": "valley", "min_bin_n_nonevent": 50},
        {"monotonic_trend": "auto"},
        {"max_bin_size": 0.3, "min_bin_size": 0.05},
    ],
)
def test_fit_output_meets_constraints(cls, params):
    X, y = _data()
    if cls is KhiopsDiscretizer and "min_bin_size" in params:
        params = {**params, "min_bin_size": 150}
    est = cls(**params).fit(X, y)
    table = est.table_[0][:-1]  # the missing bin excluded
    weights = table.sum(axis=1)
    total = weights.sum()
    trend = est.statistics_[0].get("monotonic_trend", params.get("monotonic_trend"))
    if params.get("monotonic_trend") == "auto":
        assert trend in ("ascending", "descending", "peak", "valley")
    assert follows_trend(table[:, 1] / weights, trend)
    if "min_bin_size" in params:
        size = params["min_bin_size"]
        size = size * total if isinstance(size, float) else size
        assert weights.min() >= size - 1e-9
    if "max_bin_size" in params:
        assert weights.max() <= params["max_bin_size"] * total + 1e-9
    if "min_bin_n_event" in params:
        assert table[:, 1].min() >= params["min_bin_n_event"]
    if "min_bin_n_nonevent" in params:
        assert table[:, 0].min() >= params["min_bin_n_nonevent"]


def test_continuous_target_mean_monotone():
    X, _ = _data()
    rng = np.random.default_rng(1)
    y = X[:, 0] + 0.5 * np.sin(3 * X[:, 0]) + rng.normal(size=len(X))
    est = BlockOptDiscretizer(
        target_type="continuous", monotonic_trend="ascending", min_bin_size=0.05
    ).fit(X, y)
    table = est.table_[0][:-1]
    means = table[:, 1] / table[:, 0]
    assert np.all(np.diff(means) >= 0)
    assert table[:, 0].min() >= 0.05 * len(y) - 1e-9


@pytest.mark.parametrize("cls", DISCRETIZERS)
@pytest.mark.parametrize("param", ["monotonic_trend", "min_bin_n_event"])
def test_multiclass_refused(cls, param):
    X, _ = _data()
    y = np.arange(len(X)) % 3
    value = "ascending" if param == "monotonic_trend" else 5
    with pytest.raises(ValueError, match=param):
        cls(**{param: value}).fit(X, y)


def test_event_counts_refused_for_continuous_target():
    X, _ = _data()
    with pytest.raises(ValueError, match="min_bin_n_event"):
        BlockOptDiscretizer(target_type="continuous", min_bin_n_event=3).fit(X, X[:, 0])


@pytest.mark.parametrize("cls", DISCRETIZERS)
def test_infeasible_falls_back_to_one_bin(cls):
    X, y = _data(n=200)
    # max_bin_size forces 10 bins of 20, min_bin_size bins of 30
    params = {"max_bin_size": 20, "min_bin_n_event": 30}
    with pytest.warns(UserWarning, match="no partition"):
        est = cls(**params).fit(X, y)
    assert est.n_bins_[0] == 1


def test_unconstrained_unchanged():
    X, y = _data()
    for cls in DISCRETIZERS:
        a = cls().fit(X, y)
        b = cls(monotonic_trend=None, max_bin_size=None).fit(X, y)
        np.testing.assert_array_equal(a.bin_edges_[0], b.bin_edges_[0])


def test_granules_past_exact_limit():
    X, y = _data(n=5000)
    est = BlockOptDiscretizer(monotonic_trend="ascending", exact_limit=100).fit(X, y)
    assert est.statistics_[0]["exact"] is False
    table = est.table_[0][:-1]
    assert np.all(np.diff(table[:, 1] / table.sum(axis=1)) >= 0)


def test_tree_with_constrained_discretizer():
    X, y = _data()
    split = BlockOptDiscretizer(monotonic_trend="auto", min_bin_size=0.05)
    tree = PartitionTreeClassifier(numeric_split=split, max_depth=2).fit(X, y)
    assert tree.score(X, y) > 0.5
    table = np.array([[5.0, 1.0], [4.0, 2.0], [1.0, 5.0], [3.0, 3.0]])
    result = split.cut_table(table)
    assert result.n_bins >= 1


@pytest.mark.parametrize("trend", [None, "ascending", "peak"])
def test_kernel_runs_uncompiled(trend):
    """Check that the DP kernel is valid Python (NUMBA_DISABLE_JIT runs) and
    gives the compiled kernel's results."""
    from partikit._kernels import _constrained

    rng = np.random.default_rng(0)
    table = rng.integers(1, 6, (7, 2)).astype(float)
    compiled = constrained_multisplit(
        table, impurity_costs(ENTROPY), max_bins=4, monotonic_trend=trend,
        min_bin_weight=3.0,
    )  # fmt: skip
    original = _constrained.constrained_dp
    try:
        import partikit._statistics._constraints as module

        # under NUMBA_DISABLE_JIT the kernel is already its Python function
        module.constrained_dp = getattr(original, "py_func", original)
        plain = constrained_multisplit(
            table, impurity_costs(ENTROPY), max_bins=4, monotonic_trend=trend,
            min_bin_weight=3.0,
        )  # fmt: skip
    finally:
        module.constrained_dp = original
    np.testing.assert_array_equal(compiled.values, plain.values)


def _chi2_with_shares(rows, shares):
    expected = rows.sum(axis=1, keepdims=True) * shares
    return float(((rows - expected) ** 2 / expected).sum())


def test_heuristic_measures_match_naive():
    """Check the vectorised merge measures against their definitions."""
    from partikit._statistics._constraints import chi2_merge_cost, entropy_merge_cost

    rng = np.random.default_rng(1)
    left, right = rng.integers(0, 9, (5, 3)) + 0.0, rng.integers(0, 9, (5, 3)) + 1.0
    totals = left.sum(axis=0) + right.sum(axis=0) + 4.0
    for r in range(5):
        both = np.vstack([left[r], right[r]])
        costs = naive.naive_interval_cost_matrix(both, "entropy")
        expected = costs[0, 2] - costs[0, 1] - costs[1, 2]
        assert entropy_merge_cost(left, right, totals)[r] == pytest.approx(expected)

        shares = totals / totals.sum()
        delta = _chi2_with_shares(both, shares) - _chi2_with_shares(
            both.sum(axis=0, keepdims=True), shares
        )
        assert chi2_merge_cost(left, right, totals)[r] == pytest.approx(delta)


@pytest.mark.parametrize("cls", DISCRETIZERS)
def test_tree_nodes_too_small_are_not_cut_silently(cls):
    """Check that a node no partition of which meets the constraints is a
    leaf, without a warning per node (fit of the discretizer warns)."""
    X, y = _data(n=600)
    split = cls(monotonic_trend="ascending", min_bin_n_event=40)
    tree = PartitionTreeClassifier(numeric_split=split, max_depth=4).fit(X, y)
    assert tree.get_depth() >= 1
    table = np.array([[5.0, 1.0], [4.0, 2.0], [1.0, 5.0]])
    result = split.cut_table(table)
    assert result.n_bins == 1 and result.statistics["feasible"] is False


@pytest.mark.parametrize("cls", [BlockOptDiscretizer, MODLDiscretizer, MDLPDiscretizer])
@pytest.mark.parametrize("value", ["auto", 0])
def test_min_bin_size_auto_and_zero_set_no_minimum(cls, value):
    """Check that min_bin_size="auto" (the method's own minimum: none here)
    and 0 leave the bins as without the parameter."""
    X, y = _data()
    a = cls().fit(X, y)
    b = cls(min_bin_size=value).fit(X, y)
    np.testing.assert_array_equal(a.bin_edges_[0], b.bin_edges_[0])


def test_khiops_min_bin_size_none_is_zero():
    X, y = _data()
    a = KhiopsDiscretizer(min_bin_size=0).fit(X, y)
    b = KhiopsDiscretizer(min_bin_size=None).fit(X, y)
    np.testing.assert_array_equal(a.bin_edges_[0], b.bin_edges_[0])
