# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""AttributeAggregator from tables: fit_tables, partial_fit, joint tables.

The contract of issue 20 for the aggregator: ``fit`` is
``fit_tables(column_tables(X, y, categorical_features="all", joint=...))``, and
after every call of ``partial_fit`` the aggregator equals ``fit`` on the
concatenation of the chunks so far.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from partikit import AttributeAggregator, CHAIDGrouper, KhiopsGrouper, column_tables
from partikit.datasets import make_k_of_n
from tests.chunking import row_chunks


def _frame(n_samples, seed):
    """Members of several kinds with missing values, and a ternary target that
    depends on a pair of them."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "s": rng.choice(np.array(["p", "q", "r", None], dtype=object), n_samples),
            "i": rng.integers(0, 4, n_samples),
            "f": rng.choice([0.5, -1.0, np.nan], n_samples),
            "b": rng.choice([True, False], n_samples),
        }
    )
    signal = ((X["s"] == "p") ^ (X["i"] > 1)).to_numpy().astype(int)
    y = np.where(rng.random(n_samples) < 0.8, signal, rng.integers(0, 3, n_samples))
    return X, y


def _same_output(a, b):
    if hasattr(a, "toarray"):
        a, b = a.toarray(), b.toarray()
    assert a.dtype == b.dtype
    # object arrays: NaN, a kept missing value, equals itself here
    assert pd.DataFrame(a).equals(pd.DataFrame(b))


def assert_same_aggregator(a, b, X):
    """The fitted state and outputs of two aggregators are the same."""
    assert a.n_features_in_ == b.n_features_in_
    assert_array_equal(
        getattr(a, "feature_names_in_", []), getattr(b, "feature_names_in_", [])
    )
    assert a.aggregates_ == b.aggregates_
    assert len(a.combinations_) == len(b.combinations_)
    for labels_a, labels_b in zip(a.combinations_, b.combinations_, strict=True):
        assert_array_equal(labels_a, labels_b)
    assert_array_equal(a.n_combinations_, b.n_combinations_)
    for x, z in zip(a._aggregates, b._aggregates, strict=True):
        assert (x.members, x.sizes, x.n_keys, x.n_pooled) == (
            z.members, z.sizes, z.n_keys, z.n_pooled
        )  # fmt: skip
        assert_array_equal(x.seen, z.seen)
        assert_array_equal(x.code_of_seen, z.code_of_seen)
    assert a._members.keys() == b._members.keys()
    for j, member in a._members.items():
        assert pd.Index(member.categories).equals(pd.Index(b._members[j].categories))
        assert member.kind == b._members[j].kind
    if a.search_results_ is None:
        assert b.search_results_ is None
    else:
        pd.testing.assert_frame_equal(
            a.search_results_, b.search_results_, check_exact=True
        )
    if a.grouper_ is None:
        assert b.grouper_ is None
    else:
        g, h = a.grouper_, b.grouper_
        assert_array_equal(g.classes_, h.classes_)
        assert_array_equal(g.feature_names_in_, h.feature_names_in_)
        assert_array_equal(g.n_groups_, h.n_groups_)
        assert_array_equal(g.default_group_, h.default_group_)
        for k in range(g.n_features_in_):
            assert pd.Index(g.categories_[k]).equals(pd.Index(h.categories_[k]))
            assert_array_equal(g.group_ids_[k], h.group_ids_[k])
            assert_array_equal(g.table_[k], h.table_[k])
            assert g.statistics_[k] == h.statistics_[k]
    assert_array_equal(a.get_feature_names_out(), b.get_feature_names_out())
    _same_output(a.transform(X), b.transform(X))


def _joint(params, X):
    """The joint tables fit_tables needs for these parameters."""
    if params.get("search") is not None:
        return [list(X.columns)]
    return params.get("aggregates") or [list(X.columns)]


CONFIGURATIONS = [
    {"aggregates": [["s", "i"]]},
    {"aggregates": [["s", "i"], ["i", "f", "b"]], "keep_original": False},
    {"aggregates": [["s", "i"]], "grouper": KhiopsGrouper()},
    {
        "aggregates": [["s", "i"], ["f", "b"]],
        "grouper": CHAIDGrouper(encode="onehot"),
        "keep_original": False,
    },
    {"search": "pairs", "max_pvalue_ratio": 1.0},
    {"search": "pairs", "max_pvalue_ratio": 1.0, "grouper": KhiopsGrouper()},
    {"search": "greedy", "max_pvalue_ratio": 1.0},
    {"search": "greedy", "max_pvalue_ratio": 1.0, "grouper": CHAIDGrouper()},
]


@pytest.mark.parametrize("params", CONFIGURATIONS)
@pytest.mark.parametrize("weights", [None, "integer", "zeros"])
def test_fit_tables_equals_fit(params, weights, global_random_seed):
    """Check fit_tables(column_tables(X, y, joint=...)) against fit, for given
    aggregates and both searches, with and without a grouper, with integer
    weights and weights that hide values and combinations."""
    X, y = _frame(300, global_random_seed)
    rng = np.random.default_rng(global_random_seed)
    sample_weight = None
    if weights is not None:
        sample_weight = rng.integers(1, 4, len(y)).astype(float)
        if weights == "zeros":
            sample_weight[(X["s"] == "r").to_numpy() & (X["i"] == 3).to_numpy()] = 0
            sample_weight[X["f"].isna().to_numpy() & X["b"].to_numpy()] = 0
    fitted = AttributeAggregator(**params).fit(X, y, sample_weight)
    tables = column_tables(
        X, y, sample_weight, categorical_features="all", joint=_joint(params, X)
    )
    from_tables = AttributeAggregator(**params).fit_tables(tables)
    assert_same_aggregator(fitted, from_tables, X)


@pytest.mark.parametrize(
    "params",
    [
        {"aggregates": [["s", "i"], ["i", "f"]], "grouper": KhiopsGrouper()},
        {"search": "greedy", "grouper": KhiopsGrouper(), "max_pvalue_ratio": 1.0},
    ],
)
def test_fit_tables_equals_fit_with_fractional_weights(params, global_random_seed):
    """Check that fractional weights give the fit of the rows too: each
    aggregate's table is counted in the order of the rows either way (the
    search's candidates, summed from the table of every column, to the
    rounding of the sums)."""
    X, y = _frame(300, global_random_seed)
    sample_weight = np.random.default_rng(global_random_seed).uniform(0, 2, len(y))
    fitted = AttributeAggregator(**params).fit(X, y, sample_weight)
    tables = column_tables(
        X, y, sample_weight, categorical_features="all", joint=_joint(params, X)
    )
    from_tables = AttributeAggregator(**params).fit_tables(tables)
    if "search" in params:
        assert from_tables.aggregates_ == fitted.aggregates_
        pd.testing.assert_frame_equal(
            from_tables.search_results_, fitted.search_results_, rtol=1e-12
        )
        _same_output(from_tables.transform(X), fitted.transform(X))
    else:
        assert_same_aggregator(fitted, from_tables, X)


@pytest.mark.parametrize("grouper", [None, KhiopsGrouper()])
def test_fit_tables_pools_the_rarest_combinations_as_fit(grouper):
    """Check max_categories from tables: the same pooled combinations, labels,
    groups and warning as fit."""
    X, y = make_k_of_n(n_samples=500, n_tests=4, k=2, noise=0.2, random_state=0)
    aggregates = [list(X.columns)]
    make = lambda: AttributeAggregator(  # noqa: E731
        aggregates, grouper=grouper, max_categories=6
    )
    with pytest.warns(UserWarning, match=r"more than max_categories=6") as fit_warning:
        fitted = make().fit(X, y)
    tables = column_tables(X, y, categorical_features="all", joint=aggregates)
    with pytest.warns(UserWarning, match=r"more than max_categories=6") as warning:
        from_tables = make().fit_tables(tables)
    assert str(warning[0].message) == str(fit_warning[0].message)
    assert warning[0].filename == fit_warning[0].filename == __file__
    assert from_tables.combinations_[0][-1] == "<rare>"
    assert_same_aggregator(fitted, from_tables, X)


def test_fit_tables_sums_a_joint_table_of_more_columns():
    """Check that an aggregate learned from a joint table of more columns (summed
    over the others) is the one learned from its own."""
    X, y = _frame(400, 0)
    params = {"aggregates": [["s", "f"], ["i", "b"]], "grouper": KhiopsGrouper()}
    own = column_tables(X, y, categorical_features="all", joint=params["aggregates"])
    wider = column_tables(X, y, categorical_features="all", joint=[list(X.columns)])
    assert_same_aggregator(
        AttributeAggregator(**params).fit_tables(own),
        AttributeAggregator(**params).fit_tables(wider),
        X,
    )


def test_joint_table_marginal_is_the_joint_table_of_the_subset():
    """Check JointTable.marginal against the joint table counted for the subset:
    the same combinations and class counts."""
    X, y = _frame(300, 1)
    tables = column_tables(
        X, y, categorical_features="all", joint=[list(X.columns), ["s", "f"]]
    )
    marginal = tables.joint[(0, 1, 2, 3)].marginal((0, 2))
    counted = tables.joint[(0, 2)]
    assert marginal.members == counted.members
    positive = counted.table.sum(axis=1) > 0
    assert_array_equal(marginal.codes, counted.codes[positive])
    assert_array_equal(marginal.table, counted.table[positive])
    for a, b in zip(marginal.values, counted.values, strict=True):
        assert pd.Index(a).equals(pd.Index(b))
    whole = tables.joint[(0, 1, 2, 3)]
    assert whole.marginal((0, 1, 2, 3)) is whole


def test_unsupervised_fit_tables_takes_tables_with_or_without_a_target():
    """Check that without a grouper nor search the tables need no target, and
    that a target, when counted, changes nothing."""
    X, y = _frame(200, 2)
    params = {"aggregates": [["s", "f", "b"]]}
    fitted = AttributeAggregator(**params).fit(X)
    for target in (None, y):
        tables = column_tables(
            X, target, categorical_features="all", joint=params["aggregates"]
        )
        assert_same_aggregator(
            fitted, AttributeAggregator(**params).fit_tables(tables), X
        )


@pytest.mark.parametrize(
    "params, joint, message",
    [
        ({"aggregates": [["s", "i"]]}, [["s", "f"]], r"joint=\[\['s', 'i'\]\]"),
        ({"aggregates": [["s", "i"], ["f", "b"]]}, [["s", "i"]], r"\[\['f', 'b'\]\]"),
        ({"aggregates": [["s", "i"]]}, None, r"no joint table of the columns"),
        ({"search": "pairs"}, [["s", "i"]], r"search combines any of the columns"),
        ({}, [["s", "i", "f"]], r"joint=\[\['s', 'i', 'f', 'b'\]\]"),
    ],
)
def test_fit_tables_without_the_joint_table_it_needs_raises(params, joint, message):
    """Check the error naming the joint table to count when it is missing."""
    X, y = _frame(100, 0)
    tables = column_tables(X, y, categorical_features="all", joint=joint)
    with pytest.raises(ValueError, match=message):
        AttributeAggregator(**params).fit_tables(tables)


def test_fit_tables_checks_the_tables():
    """Check the errors for something else than tables, numeric columns, and a
    target missing for a grouper."""
    X, y = _frame(100, 0)
    joint = [["s", "i"]]
    aggregator = AttributeAggregator(joint, grouper=KhiopsGrouper())
    with pytest.raises(TypeError, match="takes the ColumnTables"):
        aggregator.fit_tables(X)
    numeric = column_tables(X[["s", "i"]], y, categorical_features=["s"])
    with pytest.raises(ValueError, match='categorical_features="all"'):
        aggregator.fit_tables(numeric)
    no_target = column_tables(X, categorical_features="all", joint=joint)
    with pytest.raises(ValueError, match="without a target"):
        aggregator.fit_tables(no_target)
    with pytest.raises(ValueError, match="exclusive"):
        AttributeAggregator(joint, search="pairs").fit_tables(
            column_tables(X, y, categorical_features="all", joint=joint)
        )


PARTIAL = [
    {"aggregates": [["s", "i"], ["f", "b"]]},
    {"aggregates": [["s", "i", "f"]], "max_categories": 8},
    {"aggregates": [["s", "i"]], "grouper": KhiopsGrouper()},
    {"search": "greedy", "grouper": CHAIDGrouper(), "max_pvalue_ratio": 1.0},
]


@pytest.mark.parametrize("params", PARTIAL)
@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 1000),
    cuts=st.lists(st.integers(1, 119), max_size=5, unique=True),
    weighted=st.booleans(),
)
def test_partial_fit_equals_fit_on_the_chunks_so_far(params, seed, cuts, weighted):
    """Check, over random chunkings of a small random frame, that after every
    call of partial_fit the aggregator equals fit on the concatenation of the
    chunks so far: aggregates, combinations, grouper groups, transform output
    (a supervised one raises while the chunks hold a single class)."""
    X, y = _frame(120, seed)
    rng = np.random.default_rng(seed)
    weights = rng.integers(0, 3, len(y)).astype(float) if weighted else None
    if weights is not None:
        weights[0] = 1.0
    supervised = "grouper" in params or "search" in params
    streamed = AttributeAggregator(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for a, b in row_chunks(len(y), cuts):
            chunk_weights = None if weights is None else weights[a:b]
            so_far_weights = None if weights is None else weights[:b]
            positive = slice(None) if weights is None else weights[:b] > 0
            if chunk_weights is not None and not chunk_weights.sum() > 0:
                with pytest.raises(
                    ValueError, match="sums to zero|at least one non-zero"
                ):
                    streamed.partial_fit(X.iloc[a:b], y[a:b], chunk_weights)
                continue
            if supervised and len(np.unique(y[:b][positive])) < 2:
                with pytest.raises(ValueError, match="1 class"):
                    streamed.partial_fit(X.iloc[a:b], y[a:b], chunk_weights)
                continue
            streamed.partial_fit(X.iloc[a:b], y[a:b], chunk_weights)
            whole = AttributeAggregator(**params).fit(X.iloc[:b], y[:b], so_far_weights)
            assert_same_aggregator(streamed, whole, X)


def test_partial_fit_checks_classes_and_fit_starts_over():
    """Check partial_fit's classes, and that fit forgets the chunks."""
    X, y = _frame(90, 3)
    make = lambda: AttributeAggregator([["s", "i"]], grouper=KhiopsGrouper())  # noqa: E731
    streamed = make().partial_fit(X[:30], y[:30], classes=[0, 1, 2])
    with pytest.raises(ValueError, match="not in classes"):
        streamed.partial_fit(X[30:60], np.full(30, 7))
    streamed.partial_fit(X[30:], y[30:])
    assert_same_aggregator(streamed, make().fit(X, y), X)
    streamed.fit(X[:45], y[:45])
    streamed.partial_fit(X[45:], y[45:])
    assert_same_aggregator(streamed, make().fit(X[45:], y[45:]), X)
    with pytest.raises(ValueError, match="feature names"):
        streamed.partial_fit(X[["s", "i"]], y)


def test_unsupervised_partial_fit_ignores_y():
    """Check that an aggregator without grouper nor search streams without a
    target (and ignores one)."""
    X, y = _frame(100, 4)
    make = lambda: AttributeAggregator([["s", "b"]], keep_original=False)  # noqa: E731
    streamed = make().partial_fit(X[:50]).partial_fit(X[50:], y[50:])
    assert_same_aggregator(streamed, make().fit(X), X)
