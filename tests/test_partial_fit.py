# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""fit_tables and partial_fit of the groupers and discretizers.

The contract of issue 20: ``fit`` is ``fit_tables(column_tables(...))``, and after
every call of ``partial_fit`` a transformer equals ``fit`` on the concatenation of
the chunks so far.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from partikit import column_tables
from partikit.discretizers import (
    BlockOptDiscretizer,
    KhiopsDiscretizer,
    MDLPDiscretizer,
    MODLDiscretizer,
)
from partikit.groupers import CHAIDGrouper, KhiopsGrouper, MaxCutGrouper, MODLGrouper
from tests.chunking import row_chunks

GROUPERS = [
    KhiopsGrouper,
    CHAIDGrouper,
    lambda: MaxCutGrouper(random_state=0),
    lambda: KhiopsGrouper(encode="onehot-dense"),
    MODLGrouper,
]
DISCRETIZERS = [
    MDLPDiscretizer,
    KhiopsDiscretizer,
    BlockOptDiscretizer,
    MODLDiscretizer,
]


def _categorical(n_samples, seed):
    """Two string columns with a hidden grouping and missing values, and a
    ternary target."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefgh") + [None], dtype=object)
    X = pd.DataFrame(
        {
            "first": rng.choice(letters, n_samples),
            "second": rng.choice(letters[:4], n_samples),
        }
    )
    signal = np.isin(X["first"], ["a", "b", "c"]).astype(int)
    y = np.where(rng.random(n_samples) < 0.8, signal, rng.integers(0, 3, n_samples))
    return X, y


def _numeric(n_samples, seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(0, 10, n_samples), 1)
    x[rng.random(n_samples) < 0.05] = np.nan
    X = pd.DataFrame({"x": x, "z": rng.normal(size=n_samples)})
    y = np.digitize(np.nan_to_num(x), [3, 7]) * (rng.random(n_samples) < 0.9)
    return X, y


def assert_same_fit(a, b, X):
    assert_array_equal(a.classes_, b.classes_)
    assert a.n_features_in_ == b.n_features_in_
    assert_array_equal(
        getattr(a, "feature_names_in_", []), getattr(b, "feature_names_in_", [])
    )
    if hasattr(a, "categories_"):
        for j in range(a.n_features_in_):
            # (object arrays: NaN, the missing category, equals itself here)
            assert pd.Index(a.categories_[j]).equals(pd.Index(b.categories_[j]))
            assert_array_equal(a.group_ids_[j], b.group_ids_[j])
            assert_array_equal(a.table_[j], b.table_[j])
        assert_array_equal(a.default_group_, b.default_group_)
    else:
        for j in range(a.n_features_in_):
            assert_array_equal(a.bin_edges_[j], b.bin_edges_[j])
            assert_array_equal(a.table_[j], b.table_[j])
    assert_array_equal(a.transform(X), b.transform(X))


@pytest.mark.parametrize("make", GROUPERS + DISCRETIZERS)
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 1000),
    cuts=st.lists(st.integers(1, 149), max_size=5, unique=True),
    weighted=st.booleans(),
)
def test_partial_fit_equals_fit_on_the_chunks_so_far(make, seed, cuts, weighted):
    """Check, over random chunkings, that after every call of partial_fit the
    transformer equals fit on the concatenation of the chunks so far (the first
    chunks may hold a single class: partial_fit then raises, the chunk counted)."""
    is_grouper = make in GROUPERS
    X, y = (_categorical if is_grouper else _numeric)(150, seed)
    rng = np.random.default_rng(seed)
    weights = rng.integers(1, 4, len(y)).astype(float) if weighted else None
    streamed = make()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for a, b in row_chunks(len(y), cuts):
            chunk_weights = None if weights is None else weights[a:b]
            so_far = slice(0, b)
            if len(np.unique(y[so_far])) < 2:
                with pytest.raises(ValueError, match="1 class"):
                    streamed.partial_fit(X.iloc[a:b], y[a:b], chunk_weights)
                continue
            streamed.partial_fit(X.iloc[a:b], y[a:b], chunk_weights)
            whole = make().fit(
                X.iloc[so_far], y[so_far], None if weights is None else weights[:b]
            )
            assert_same_fit(streamed, whole, X)


@pytest.mark.parametrize("make", GROUPERS + DISCRETIZERS)
def test_fit_tables_equals_fit(make):
    """Check fit_tables(column_tables(...)) against fit, names included."""
    is_grouper = make in GROUPERS
    X, y = (_categorical if is_grouper else _numeric)(300, 0)
    kind = "all" if is_grouper else None
    fitted = make().fit(X, y)
    from_tables = make().fit_tables(column_tables(X, y, categorical_features=kind))
    assert_same_fit(from_tables, fitted, X)
    # without names
    fitted = make().fit(X.to_numpy(), y)
    from_tables = make().fit_tables(
        column_tables(X.to_numpy(), y, categorical_features=kind)
    )
    assert not hasattr(from_tables, "feature_names_in_")
    assert_same_fit(from_tables, fitted, X.to_numpy())


@pytest.mark.parametrize("make", [KhiopsGrouper, MDLPDiscretizer])
def test_fit_tables_checks_the_tables(make):
    X, y = _categorical(60, 1)
    is_grouper = make is KhiopsGrouper
    with pytest.raises(TypeError, match="ColumnTables"):
        make().fit_tables(X)
    with pytest.raises(ValueError, match="without a target"):
        make().fit_tables(column_tables(X, categorical_features="all"))
    if is_grouper:
        numeric = column_tables(_numeric(60, 1)[0], y)
        with pytest.raises(ValueError, match='categorical_features="all"'):
            make().fit_tables(numeric)
    else:
        with pytest.raises(ValueError, match="categorical_features=None"):
            make().fit_tables(column_tables(X, y))
    one_class = column_tables(X, np.zeros(len(y)), categorical_features="all")
    with pytest.raises(ValueError, match="1 class"):
        KhiopsGrouper().fit_tables(one_class)


def test_partial_fit_checks_classes_and_columns():
    X, y = _categorical(90, 2)
    grouper = KhiopsGrouper().partial_fit(X[:30], y[:30], classes=[0, 1, 2, 3])
    # a later call may repeat the classes, not change them
    grouper.partial_fit(X[30:60], y[30:60], classes=[3, 2, 1, 0])
    with pytest.raises(ValueError, match="not the classes of the first call"):
        grouper.partial_fit(X[60:], y[60:], classes=[0, 1])
    with pytest.raises(ValueError, match=r"labels \[7\]"):
        grouper.partial_fit(X[60:], np.full(30, 7))
    # the refused chunks were not counted
    assert grouper.table_[0].sum() == 60
    with pytest.raises(ValueError, match="feature"):
        grouper.partial_fit(X[["first"]], y[:90])
    # classes_ are the classes seen so far, as fit gives them
    assert_array_equal(grouper.classes_, np.unique(y[:60]))


def test_fit_after_partial_fit_starts_over():
    X, y = _categorical(90, 3)
    grouper = KhiopsGrouper().partial_fit(X[:45], y[:45]).partial_fit(X[45:], y[45:])
    assert grouper.table_[0].sum() == 90
    grouper.fit(X[:45], y[:45])
    grouper.partial_fit(X[45:], y[45:])
    assert_same_fit(grouper, KhiopsGrouper().fit(X[45:], y[45:]), X)
    grouper.fit_tables(column_tables(X, y, categorical_features="all"))
    grouper.partial_fit(X[:45], y[:45])
    assert_same_fit(grouper, KhiopsGrouper().fit(X[:45], y[:45]), X)


def test_partial_fit_reads_a_csv_in_chunks(tmp_path):
    """Check the streaming recipe of the user guide: pandas' chunksize."""
    X, y = _categorical(1000, 4)
    frame = X.assign(target=y)
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    streamed = KhiopsGrouper()
    for chunk in pd.read_csv(path, chunksize=128):
        streamed.partial_fit(chunk[["first", "second"]], chunk["target"])
    whole = pd.read_csv(path)
    assert_same_fit(
        streamed, KhiopsGrouper().fit(whole[["first", "second"]], whole["target"]), X
    )
