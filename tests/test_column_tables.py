# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""ColumnTables: counting, adding and pickling the statistics of (X, y)."""

import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from partikit import ColumnTables, column_tables
from partikit.groupers import KhiopsGrouper
from tests.chunking import row_chunks


def _frame(n_samples, seed):
    """Strings, integers, an ordered categorical, floats: all with missing values."""
    rng = np.random.default_rng(seed)
    city = rng.choice(np.array(["a", "b", "c", "d", None], dtype=object), n_samples)
    size = pd.Categorical(
        rng.choice(["S", "M", "L"], n_samples), ["S", "M", "L"], ordered=True
    )
    x = np.round(rng.normal(size=n_samples), 1)
    x[rng.random(n_samples) < 0.1] = np.nan
    X = pd.DataFrame(
        {
            "city": city,
            "code": rng.integers(3, 9, n_samples),
            "size": size,
            "x": x,
        }
    )
    y = rng.choice(np.array(["no", "yes", "maybe"]), n_samples, p=[0.5, 0.4, 0.1])
    return X, y


def assert_same_tables(a, b):
    assert list(a.feature_names) == list(b.feature_names)
    assert a.has_feature_names == b.has_feature_names
    assert a.kinds == b.kinds
    assert a.value_kinds == b.value_kinds
    assert_array_equal(a.classes, b.classes)
    for j in range(a.n_features):
        assert_array_equal(a.values[j], b.values[j])
        assert a.values[j].dtype.kind == b.values[j].dtype.kind
        assert_array_equal(a.tables[j], b.tables[j])
        if a.ordered_categories[j] is None:
            assert b.ordered_categories[j] is None
        else:
            assert_array_equal(a.ordered_categories[j], b.ordered_categories[j])
    assert set(a.joint) == set(b.joint)
    for members, joint in a.joint.items():
        other = b.joint[members]
        assert_array_equal(joint.codes, other.codes)
        assert_array_equal(joint.table, other.table)
        for m in range(len(members)):
            assert_array_equal(joint.values[m], other.values[m])


def test_tables_hold_each_column_counted_by_its_kind():
    """Check the tables of a small frame against counts made by hand."""
    X = pd.DataFrame({"c": ["b", "a", None, "b"], "x": [2.0, 1.0, 2.0, np.nan]})
    tables = column_tables(X, [0, 1, 1, 0])
    assert tables.kinds == ["categorical", "numeric"]
    assert tables.value_kinds == ["string", None]
    assert_array_equal(tables.classes, [0, 1])
    assert_array_equal(tables.values[0], ["a", "b"])
    assert_array_equal(tables.tables[0], [[0, 1], [2, 0], [0, 1]])
    assert_array_equal(tables.values[1], [1.0, 2.0])
    assert_array_equal(tables.tables[1], [[0, 1], [1, 1], [1, 0]])
    assert "'c' (categorical, 2 values)" in repr(tables)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    cuts=st.lists(st.integers(1, 119), max_size=4, unique=True),
    weighted=st.booleans(),
)
def test_tables_of_chunks_add_up_to_the_tables_of_all_rows(seed, cuts, weighted):
    """Check that the sum of the chunks' tables is the tables of all the rows:
    categories, values and classes absent from some chunks, missing values,
    integer weights (zeros included) and a joint table."""
    X, y = _frame(120, seed)
    rng = np.random.default_rng(seed)
    weights = rng.integers(0, 3, len(y)).astype(float) if weighted else None
    if weighted and weights.sum() == 0:
        weights[0] = 1.0
    options = {
        "joint": [["city", "code"]],
        "categorical_features": ["city", "code", "size"],
    }
    whole = column_tables(X, y, weights, **options)
    parts = [
        column_tables(
            X.iloc[a:b], y[a:b], None if weights is None else weights[a:b], **options
        )
        for a, b in row_chunks(len(y), cuts)
        if weights is None or weights[a:b].sum() > 0
    ]
    assert_same_tables(sum(parts), whole)
    # in any order and grouping of the additions
    assert_same_tables(sum(parts[::-1]), whole)


def test_tables_without_a_target_count_rows():
    X = pd.DataFrame({"c": ["a", "b", "a"]})
    tables = column_tables(X)
    assert tables.classes is None and tables.n_classes == 1
    assert_array_equal(tables.tables[0], [[2], [1], [0]])
    assert_array_equal((tables + tables).tables[0], [[4], [2], [0]])


def test_categorical_features_decides_how_columns_are_counted():
    X = pd.DataFrame({"code": [1, 2, 2, 1], "name": ["a", "b", "b", "a"]})
    y = [0, 1, 1, 0]
    assert column_tables(X, y).kinds == ["numeric", "categorical"]
    assert column_tables(X, y, categorical_features="all").kinds == [
        "categorical",
        "categorical",
    ]
    assert column_tables(X, y, categorical_features=["code", "name"]).kinds == [
        "categorical",
        "categorical",
    ]
    assert column_tables(X[["code"]].to_numpy(dtype=float), y).feature_names[0] == "x0"


def test_tables_pickle_small_and_unchanged():
    """The tables of 100,000 rows pickle to the size of their tables."""
    X, y = _frame(100_000, 0)
    tables = column_tables(X, y)
    data = pickle.dumps(tables)
    assert len(data) < 20_000
    assert_same_tables(pickle.loads(data), tables)


def test_adding_tables_of_other_columns_or_kinds_raises():
    X, y = _frame(50, 1)
    tables = column_tables(X, y)
    with pytest.raises(ValueError, match="count other columns"):
        tables + column_tables(X[["city", "code"]], y)
    with pytest.raises(ValueError, match="count other columns"):
        tables + column_tables(X, y, categorical_features="all")
    with pytest.raises(ValueError, match="other kinds of target.*no target"):
        tables + column_tables(X)
    with pytest.raises(ValueError, match="joint tables"):
        tables + column_tables(X, y, joint=[["city", "size"]])
    with pytest.raises(TypeError):
        tables + 1


def test_adding_strings_to_numbers_raises():
    y = [0, 1]
    strings = column_tables(pd.DataFrame({"c": ["a", "b"]}, dtype=object), y)
    numbers = column_tables(
        pd.DataFrame({"c": [1, 2]}, dtype=object), y, categorical_features="all"
    )
    with pytest.raises(TypeError, match="strings in one set of rows"):
        strings + numbers
    # a chunk whose column is all missing adds to either
    empty = column_tables(pd.DataFrame({"c": [None, None]}, dtype=object), y)
    assert_array_equal((empty + numbers).values[0], [1, 2])
    assert_array_equal((strings + empty).values[0], ["a", "b"])


def test_ordered_categories_must_agree():
    y = [0, 1]
    one = column_tables(
        pd.DataFrame({"s": pd.Categorical(["S", "L"], ["S", "L"], ordered=True)}), y
    )
    other = column_tables(
        pd.DataFrame({"s": pd.Categorical(["S", "L"], ["L", "S"], ordered=True)}), y
    )
    assert_array_equal((one + one).ordered_categories[0], ["S", "L"])
    with pytest.raises(ValueError, match="ordered categorical"):
        one + other


def test_column_tables_checks_its_input():
    X = pd.DataFrame({"c": ["a", "b", "c"]})
    with pytest.raises(ValueError, match="3 rows but y has 2"):
        column_tables(X, [0, 1])
    with pytest.raises(ValueError, match="(?i)negative"):
        column_tables(X, [0, 1, 0], sample_weight=[1, -1, 1])
    with pytest.raises(ValueError, match="not a column of X"):
        column_tables(X, [0, 1, 0], joint=[["c", "zz"]])
    with pytest.raises(ValueError, match="numeric columns"):
        column_tables(
            pd.DataFrame({"c": ["a", "b"], "x": [1.0, 2.0]}), [0, 1], joint=[["c", "x"]]
        )
    with pytest.raises(ValueError, match="non-numeric"):
        column_tables(X, [0, 1, 0], categorical_features=None)


def test_sum_of_one_table_is_itself():
    X, y = _frame(30, 2)
    tables = column_tables(X, y)
    assert sum([tables]) is tables
    assert isinstance(sum([tables, tables]), ColumnTables)


def test_select_gives_the_tables_of_the_selected_columns():
    """Check that select(columns) is column_tables of X[columns], joint tables of
    selected columns (renumbered, their members reordered) and pooling included."""
    X, y = _frame(300, 3)
    tables = column_tables(
        X, y, categorical_features=["city", "code", "size"],
        joint=[["city", "size"], ["code", "city"]], max_values=5,
    )  # fmt: skip
    chosen = ["size", "x", "city"]
    expected = column_tables(
        X[chosen], y, categorical_features=["size", "city"], joint=[["size", "city"]],
        max_values=5,
    )  # fmt: skip
    selected = tables.select(chosen)
    assert_same_tables(selected, expected)
    assert list(selected.joint) == [(0, 2)]
    assert selected.max_values == expected.max_values == 5
    assert_array_equal(selected.pooled, expected.pooled)
    assert_array_equal(selected.upper_values[1], expected.upper_values[1])
    # by position, and a transformer fitted from a selection is fit's
    assert_same_tables(tables.select([3, 0]), tables.select(["x", "city"]))
    fitted = KhiopsGrouper().fit_tables(tables.select(["city"]))
    alone = KhiopsGrouper().fit(X[["city"]], y)
    assert list(fitted.feature_names_in_) == ["city"]
    assert_array_equal(fitted.group_ids_[0], alone.group_ids_[0])
    with pytest.raises(ValueError, match="not a column of these tables"):
        tables.select(["nope"])
    with pytest.raises(ValueError, match="not a column of these tables"):
        tables.select([4])
    with pytest.raises(ValueError, match="more than once"):
        tables.select(["city", 0])
