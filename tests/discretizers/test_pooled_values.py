"""Numeric columns past ``max_values`` distinct values: pooled value tables."""

import pickle
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from partikit import column_tables
from partikit._counting._column_tables import merge_pooled, pool_values
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from tests.chunking import row_chunks

DISCRETIZERS = [
    BlockOptDiscretizer,
    MDLPDiscretizer,
    KhiopsDiscretizer,
    MODLDiscretizer,
]


def _key(value):
    """The order-preserving 64-bit key of a float, with Python ints."""
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    return (~bits) & (2**64 - 1) if bits >> 63 else bits | 1 << 63


def _level(lower, upper):
    """Level of the smallest dyadic node holding both values' keys."""
    return (_key(lower) ^ _key(upper)).bit_length()


def naive_pool(lower, upper, counts, max_values):
    """Obviously correct twin of ``pool_values``: split the key trie top-down.

    The rows of P_C are the largest trie nodes of weight at most C (a single
    row stays whole); C is the least node weight leaving ``max_values`` rows
    or fewer, found by trying every node weight in increasing order.
    """
    keys = [_key(v) for v in lower]
    weights = counts.sum(axis=1)

    def partition(rows, level, capacity, nodes):
        weight = weights[rows].sum()
        if len(rows) > 1:
            nodes.append(weight)
        if len(rows) == 1 or weight <= capacity:
            return [rows]
        left = [i for i in rows if not (keys[i] >> (level - 1)) & 1]
        right = [i for i in rows if (keys[i] >> (level - 1)) & 1]
        return [
            part
            for side in (left, right)
            if side
            for part in partition(side, level - 1, capacity, nodes)
        ]

    everything = list(range(len(lower)))
    if len(everything) <= max_values:
        return lower, upper, counts
    nodes = []
    partition(everything, 64, -1.0, nodes)
    for capacity in sorted(set(nodes)):
        parts = partition(everything, 64, capacity, [])
        if len(parts) <= max_values:
            break
    return (
        np.array([lower[p[0]] for p in parts]),
        np.array([upper[p[-1]] for p in parts]),
        np.array([counts[p].sum(axis=0) for p in parts]),
    )


def _exact_counts_within(exact_values, exact_table, lower, upper):
    """Class counts of the exact rows whose values lie in each [lower, upper]."""
    first = np.searchsorted(exact_values, lower, side="left")
    last = np.searchsorted(exact_values, upper, side="right")
    return np.array(
        [exact_table[a:b].sum(axis=0) for a, b in zip(first, last, strict=True)]
    )


def _check_pooled_column(tables, exact, j=0):
    """The invariants every pooled column keeps, against the exact tables."""
    lower, table = tables.values[j], tables.tables[j]
    upper = tables.upper_values[j]
    if upper is None:
        assert_array_equal(lower, exact.values[j])
        assert_array_equal(table, exact.tables[j])
        return
    assert len(lower) == len(upper) == len(table) - 1
    assert np.all(lower <= upper)
    # disjoint ranges, increasing
    assert np.all(upper[:-1] < lower[1:])
    # the least and greatest values are values of the column
    assert np.isin(lower, exact.values[j]).all()
    assert np.isin(upper, exact.values[j]).all()
    # counts exact: a row counts exactly the rows of X in its range
    assert_array_equal(
        table[:-1],
        _exact_counts_within(exact.values[j], exact.tables[j][:-1], lower, upper),
    )
    assert_array_equal(table[-1], exact.tables[j][-1])
    # every row within one dyadic node, the nodes disjoint
    nodes = []
    for a, b in zip(lower, upper, strict=True):
        level = _level(a, b)
        nodes.append((_key(a) >> level << level, level))
    for (first, level), (following, _) in zip(nodes[:-1], nodes[1:], strict=True):
        assert first + (1 << level) <= following


def _weights_of(tables, j=0):
    table = tables.tables[j][:-1]
    return table.sum(axis=1)


def _hidden_intervals(n, seed, noise=0.05):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=n)
    y = np.digitize(x, [-1.0, 0.25, 1.5]) % 2
    flip = rng.rand(n) < noise
    y[flip] = 1 - y[flip]
    return x.reshape(-1, 1), y


# max_values=None and below the cap: nothing changes


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
def test_max_values_none_is_the_exact_fit(Discretizer):
    X, y = _hidden_intervals(5000, 0)
    default = Discretizer().fit(X, y)
    explicit = Discretizer(max_values=None).fit(X, y)
    assert_array_equal(default.bin_edges_[0], explicit.bin_edges_[0])
    assert_array_equal(default.table_[0], explicit.table_[0])
    assert "pooled_rows" not in explicit.statistics_[0]
    tables = column_tables(X, y, categorical_features=None, max_values=None)
    assert not tables.pooled.any()
    assert tables.upper_values == [None]


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
@pytest.mark.parametrize("max_values", [60, 61, 1000])
def test_below_the_cap_nothing_changes(Discretizer, max_values):
    rng = np.random.RandomState(1)
    X = rng.randint(0, 60, size=(3000, 1)).astype(float)
    X[::50] = np.nan
    y = (X[:, 0] > 20) ^ (rng.rand(3000) < 0.1)
    exact = Discretizer().fit(X, y)
    capped = Discretizer(max_values=max_values).fit(X, y)
    assert_array_equal(exact.bin_edges_[0], capped.bin_edges_[0])
    assert_array_equal(exact.table_[0], capped.table_[0])
    assert exact.statistics_[0].keys() == capped.statistics_[0].keys()
    assert_array_equal(exact.transform(X), capped.transform(X))
    tables = column_tables(X, y, categorical_features=None, max_values=max_values)
    assert not tables.pooled.any()
    assert tables.max_values == max_values


# the pooling itself


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_values", [2, 3, 17, 64])
def test_pool_values_matches_its_naive_twin(seed, max_values):
    rng = np.random.RandomState(seed)
    kind = seed % 3
    if kind == 0:
        values = rng.normal(size=300)
    elif kind == 1:
        values = np.concatenate([rng.exponential(size=200), -rng.lognormal(size=100)])
    else:
        values = np.round(rng.standard_t(2, size=300), 2)
    values = np.unique(values + 0.0)
    counts = rng.randint(1, 5, size=(len(values), 3)).astype(float)
    lower, upper, pooled = pool_values(values, values, counts, max_values)
    twin_lower, twin_upper, twin_pooled = naive_pool(values, values, counts, max_values)
    assert_array_equal(lower, twin_lower)
    assert_array_equal(upper, twin_upper)
    assert_array_equal(pooled, twin_pooled)
    assert len(lower) <= max_values


@pytest.mark.parametrize("max_values", [8, 50, 256])
def test_a_pooled_row_weighs_at_most_64_over_max_values(max_values):
    # the proven bound, and the one measured on these distributions
    rng = np.random.RandomState(3)
    for values in (
        rng.normal(size=20000),
        rng.exponential(size=20000),
        rng.uniform(-1, 1, size=20000),
        np.concatenate([rng.normal(size=10000), 1e-300 * rng.normal(size=10000)]),
    ):
        X = values.reshape(-1, 1)
        y = rng.randint(3, size=len(values))
        tables = column_tables(X, y, categorical_features=None, max_values=max_values)
        exact = column_tables(X, y, categorical_features=None)
        _check_pooled_column(tables, exact)
        assert len(tables.values[0]) <= max_values
        weights = _weights_of(tables)
        several = tables.upper_values[0] > tables.values[0]
        share = weights[several].max() / weights.sum()
        assert share <= 64 / max_values
        # measured, not proven: at most 4 / max_values, 2.5 / max_values from 32
        assert share <= (4 if max_values < 32 else 2.5) / max_values


def test_a_heavy_value_stays_alone():
    rng = np.random.RandomState(4)
    x = np.concatenate([rng.normal(size=5000), np.full(5000, 0.5)])
    y = rng.randint(2, size=len(x))
    tables = column_tables(
        x.reshape(-1, 1), y, categorical_features=None, max_values=20
    )
    row = np.flatnonzero(tables.values[0] == 0.5)
    assert len(row) == 1
    assert tables.upper_values[0][row[0]] == 0.5
    assert tables.tables[0][row[0]].sum() >= 5000


def test_merge_pooled_absorbs_nested_rows_only():
    # [1, 1.5] lies within the node of the keys of 1.0 to 1.999...; 3.0 does not
    lower = np.array([1.0, 1.25, 3.0, 1.25])
    upper = np.array([1.5, 1.25, 3.0, 1.25])
    counts = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [5.0, 0.0]])
    merged_lower, merged_upper, merged = merge_pooled(lower, upper, counts)
    assert_array_equal(merged_lower, [1.0, 3.0])
    assert_array_equal(merged_upper, [1.5, 3.0])
    assert_array_equal(merged, [[6.0, 1.0], [2.0, 2.0]])


# sums of pooled tables


values_strategy = st.lists(
    st.one_of(
        st.integers(-30, 30).map(float),
        st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
        st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False),
        st.just(np.nan),
    ),
    min_size=2,
    max_size=150,
)


@settings(max_examples=80, deadline=None)
@given(
    values=values_strategy,
    data=st.data(),
    max_values=st.integers(2, 24),
)
def test_sums_of_pooled_tables_keep_the_stated_guarantee(values, data, max_values):
    x = np.array(values).reshape(-1, 1)
    n = len(x)
    y = np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    cuts = set(data.draw(st.lists(st.integers(1, n - 1), max_size=5)))
    parts = [
        column_tables(x[a:b], y[a:b], categorical_features=None, max_values=max_values)
        for a, b in row_chunks(n, cuts)
    ]
    total = sum(parts)
    exact = column_tables(x, y, categorical_features=None)
    _check_pooled_column(total, exact)
    assert len(total.values[0]) <= max(max_values, 0)
    assert total.max_values == max_values
    # a + b is b + a (a longer sum may depend on the order of the additions:
    # each one pools again)
    if len(parts) > 1:
        swapped = parts[-1] + sum(parts[:-1])
        assert_array_equal(swapped.values[0], total.values[0])
        assert_array_equal(swapped.tables[0], total.tables[0])
    if total.upper_values[0] is None:
        return
    weights = _weights_of(total)
    several = total.upper_values[0] > total.values[0]
    pooled_by_a_term = [
        (a, b)
        for part in parts
        if part.upper_values[0] is not None
        for a, b in zip(part.values[0], part.upper_values[0], strict=True)
        if b > a
    ]
    for lower, upper, weight in zip(
        total.values[0][several],
        total.upper_values[0][several],
        weights[several],
        strict=True,
    ):
        # pooled again within the bound, or a row a term pooled, grown by what
        # the other terms counted in its interval
        assert weight <= 64 * weights.sum() / max_values or any(
            lower <= a and b <= upper for a, b in pooled_by_a_term
        )
    if all(part.upper_values[0] is None for part in [*parts, sum(parts[:-1])]):
        # exact tables up to the last addition: the sum is the pooled table of
        # all the rows
        whole = column_tables(x, y, categorical_features=None, max_values=max_values)
        assert_array_equal(total.values[0], whole.values[0])
        assert_array_equal(total.upper_values[0], whole.upper_values[0])
        assert_array_equal(total.tables[0], whole.tables[0])


def test_sum_of_chunks_of_one_distribution_stays_near_the_pooled_share():
    rng = np.random.RandomState(5)
    x = rng.normal(size=(200_000, 1))
    y = rng.randint(2, size=len(x))
    max_values = 256
    total = sum(
        column_tables(
            x[a : a + 20_000],
            y[a : a + 20_000],
            categorical_features=None,
            max_values=max_values,
        )
        for a in range(0, len(x), 20_000)
    )
    weights = _weights_of(total)
    several = total.upper_values[0] > total.values[0]
    assert weights[several].max() / weights.sum() <= 4 / max_values
    assert len(total.values[0]) <= max_values


def test_pool_and_caps_of_sums():
    rng = np.random.RandomState(6)
    x = rng.normal(size=(2000, 1))
    y = rng.randint(2, size=2000)
    exact = column_tables(x, y, categorical_features=None)
    coarse = exact.pool(10)
    assert coarse.pooled.all() and len(coarse.values[0]) <= 10
    _check_pooled_column(coarse, exact)
    # a larger cap keeps the smaller one; None changes nothing
    assert exact.pool(None) is exact
    assert coarse.pool(100).max_values == 10
    assert_array_equal(coarse.pool(100).tables[0], coarse.tables[0])
    # a sum keeps the smaller cap of its terms
    assert (coarse + exact).max_values == 10
    assert len((coarse + exact).values[0]) <= 10
    assert "pooled rows" in repr(coarse)
    again = pickle.loads(pickle.dumps(coarse))
    assert_array_equal(again.upper_values[0], coarse.upper_values[0])
    assert again.max_values == 10


# the discretizers


def _exact_midpoints(x):
    values = np.unique(x[~np.isnan(x)])
    return values[:-1] / 2 + values[1:] / 2


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
def test_pooled_cut_points_are_midpoints_between_rows(Discretizer):
    X, y = _hidden_intervals(20000, 7)
    disc = Discretizer(max_values=100).fit(X, y)
    tables = column_tables(X, y, categorical_features=None, max_values=100)
    lower, upper = tables.values[0], tables.upper_values[0]
    between_rows = upper[:-1] / 2 + lower[1:] / 2
    inner = disc.bin_edges_[0][1:-1]
    assert len(inner) > 0
    assert np.isin(inner, between_rows).all()
    # each one a threshold an exact fit could choose
    assert np.isin(inner, _exact_midpoints(X[:, 0])).all()
    assert disc.bin_edges_[0][0] == X.min() and disc.bin_edges_[0][-1] == X.max()
    statistics = disc.statistics_[0]
    assert statistics["pooled_rows"] == int(np.sum(upper > lower))
    weights = tables.tables[0][:-1].sum(axis=1)
    assert statistics["max_pooled_share"] == pytest.approx(
        weights[upper > lower].max() / weights.sum()
    )


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
@pytest.mark.parametrize("max_values", [64, 200])
def test_pooled_fit_finds_the_hidden_cuts_within_one_pooled_row(
    Discretizer, max_values
):
    X, y = _hidden_intervals(60000, 8)
    exact = Discretizer().fit(X, y)
    pooled = Discretizer(max_values=max_values).fit(X, y)
    share = pooled.statistics_[0]["max_pooled_share"]
    assert share <= 3 / max_values
    x = np.sort(X[:, 0])
    exact_cuts = exact.bin_edges_[0][1:-1]
    pooled_cuts = pooled.bin_edges_[0][1:-1]
    assert len(exact_cuts) == 3
    for cut in exact_cuts:
        # the share of the rows between the exact cut and the nearest pooled one
        between = np.abs(
            np.searchsorted(x, pooled_cuts) - np.searchsorted(x, cut)
        ).min() / len(x)
        assert between <= share


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
def test_fit_tables_and_partial_fit_honour_max_values(Discretizer):
    X, y = _hidden_intervals(12000, 9)
    fitted = Discretizer(max_values=150).fit(X, y)
    # pooling is a function of the exact table: pooled by fit_tables alike
    exact_tables = column_tables(X, y, categorical_features=None)
    from_tables = Discretizer(max_values=150).fit_tables(exact_tables)
    assert_array_equal(fitted.bin_edges_[0], from_tables.bin_edges_[0])
    assert_array_equal(fitted.table_[0], from_tables.table_[0])
    # tables pooled to fewer rows stay as they are
    coarse = exact_tables.pool(40)
    from_coarse = Discretizer(max_values=150).fit_tables(coarse)
    assert from_coarse.statistics_[0]["max_pooled_share"] > 0
    assert np.isin(
        from_coarse.bin_edges_[0][1:-1],
        coarse.upper_values[0][:-1] / 2 + coarse.values[0][1:] / 2,
    ).all()
    # exact tables until the last chunk: partial_fit equals fit exactly
    X, y = X[:240], y[:240]
    fitted = Discretizer(max_values=150).fit(X, y)
    partial = Discretizer(max_values=150)
    for a in range(0, len(X), 120):
        partial.partial_fit(X[a : a + 120], y[a : a + 120])
    assert partial.statistics_[0]["pooled_rows"] > 0
    assert_array_equal(partial.bin_edges_[0], fitted.bin_edges_[0])
    assert_array_equal(partial.table_[0], fitted.table_[0])
    assert_array_equal(partial.transform(X), fitted.transform(X))
    # more and larger chunks, pooled themselves: the cuts are exact
    # candidates, within the bound, and the fit keeps the cap
    X, y = _hidden_intervals(12000, 9)
    partial = Discretizer(max_values=150)
    for a in range(0, len(X), 3000):
        partial.partial_fit(X[a : a + 3000], y[a : a + 3000])
    assert len(partial._partial_tables.values[0]) <= 150
    assert np.isin(partial.bin_edges_[0][1:-1], _exact_midpoints(X[:, 0])).all()
    assert partial.statistics_[0]["max_pooled_share"] <= 4 / 150


@pytest.mark.parametrize("Discretizer", DISCRETIZERS)
@pytest.mark.parametrize("max_values", [1, 0, -3])
def test_max_values_below_two_is_rejected(Discretizer, max_values):
    X, y = _hidden_intervals(200, 10)
    with pytest.raises(ValueError, match="max_values"):
        Discretizer(max_values=max_values).fit(X, y)


def test_column_tables_rejects_a_bad_max_values():
    X, y = _hidden_intervals(200, 11)
    with pytest.raises(ValueError, match="max_values must be at least 2"):
        column_tables(X, y, max_values=1)
    with pytest.raises(TypeError, match="max_values must be an int or None"):
        column_tables(X, y, max_values=2.5)
    with pytest.raises(TypeError, match="max_values must be an int or None"):
        column_tables(X, y).pool(True)
