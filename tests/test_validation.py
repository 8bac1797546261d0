# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

from partikit._validation import (
    _MAX_COUNTED_LABEL_RANGE,
    _encode_labels,
    check_classification_y,
    factorize_column,
)


@pytest.mark.parametrize(
    "y",
    [
        np.array([3, 1, 1, 7, 3]),
        np.array([True, False, True]),
        np.array([-5, 10, -5], dtype=np.int8),
        np.array([0, _MAX_COUNTED_LABEL_RANGE * 4, 0]),  # too wide: hashed
        np.array(["b", "a", "b"], dtype=object),
        np.array([2.0, 1.0, 2.0]),
    ],
)
def test_encode_labels_matches_pandas_factorize(y):
    """Check that the counting path for integer labels equals pd.factorize."""
    codes, classes = _encode_labels(y)
    expected_codes, expected_classes = pd.factorize(y, sort=True)
    assert_array_equal(codes, expected_codes)
    assert_array_equal(classes, np.asarray(expected_classes))
    assert classes.dtype == np.asarray(expected_classes).dtype


def test_check_classification_y_drops_classes_of_zero_weight_rows():
    """Check that a class seen only with zero weight is not a class."""
    codes, classes = check_classification_y(
        np.array([0, 1, 2, 1]), np.array([1.0, 1.0, 0.0, 1.0])
    )
    assert_array_equal(classes, [0, 1])
    assert_array_equal(codes[[0, 1, 3]], [0, 1, 1])


def test_check_classification_y_accepts_a_column_vector():
    """Check that y of shape (n, 1) is read as a 1-D target."""
    codes, classes = check_classification_y(np.array([[1], [2], [1]]))
    assert_array_equal(codes, [0, 1, 0])


def test_factorize_column_sorts_categories_and_codes_missing():
    """Check sorted categories, missing as -1, and the lookup translation."""
    column = pd.Series(["b", None, "a", "b", np.nan])
    factorized = factorize_column(column, "x")
    assert list(factorized.categories) == ["a", "b"]
    rows = factorized.lookup[factorized.raw_codes + 1]
    assert_array_equal(rows, [1, -1, 0, 1, -1])
    assert factorized.kind == "string"


def test_factorize_column_uses_category_codes_without_copy():
    """Check that a category column's own codes are used as they are."""
    column = pd.Series(["x", "y", "x"], dtype="category")
    factorized = factorize_column(column, "c")
    assert np.shares_memory(factorized.raw_codes, column.array.codes)


@pytest.mark.parametrize(
    "make",
    [
        lambda v: v.astype(object),
        lambda v: pd.Series(v.astype(object)),
        lambda v: pd.Series(v, dtype="str"),
        lambda v: v.astype(float),
        lambda v: pd.Series(v).astype("Int64"),
    ],
    ids=["numpy-object", "object", "str", "float", "Int64"],
)
def test_chunked_factorize_matches_pandas(make, monkeypatch):
    """Check that factorizing in chunks gives the values of pd.factorize, with
    missing values and uniques first seen in late chunks."""
    import partikit._validation as validation

    monkeypatch.setattr(validation, "_FACTORIZE_CHUNK", 7)
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 12, 100)
    raw[90:] = 50 + np.arange(10)  # new values in the last chunks
    column = make(raw)
    if isinstance(column, pd.Series) and column.dtype == object:
        column[[3, 40]] = None
    elif isinstance(column, np.ndarray) and column.dtype == object:
        column[[3, 40]] = None
    factorized = factorize_column(column, "x")
    expected = pd.Series(column, dtype=object).where(pd.notna(column), None)
    got = factorized.categories[factorized.lookup[factorized.raw_codes + 1]]
    missing = factorized.lookup[factorized.raw_codes + 1] < 0
    assert_array_equal(missing, pd.isna(expected).to_numpy())
    assert_array_equal(got[~missing], expected[~missing].to_numpy())
